// The API reference renders its operations in Chromium under `npm start` (the suite's server) and
// under `npm run dev`, started here on a free port with a fresh embedded database. Under dev, /api/v1
// answers are compressed once (by Next), not twice: a doubly encoded body is binary junk to a browser
// ("Parser error") and to Node's fetch (docs/features/friction.md).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

async function expectOperations(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/docs/api`);
  const docs = page.getByTestId("api-docs");
  // Swagger UI lists the operations once it has read and parsed /api/v1/openapi.json.
  await expect(docs.locator(".opblock").first()).toBeVisible({ timeout: 120_000 });
  expect(await docs.locator(".opblock").count()).toBeGreaterThan(20);
  await expect(page.getByText(/Parser error|Failed to load API definition/)).toHaveCount(0);
}

test("npm start: the API reference lists the operations", async ({ page, baseURL }) => {
  await expectOperations(page, baseURL!);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

test.describe("npm run dev", () => {
  let dev: ChildProcess | undefined;
  let dataDir: string | undefined;
  test.afterAll(() => {
    // The whole process group: npm, tsx, next dev and its workers.
    if (dev?.pid) {
      try {
        process.kill(-dev.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("the API reference lists the operations, and /api/v1 is compressed once", async ({ page }) => {
    test.setTimeout(420_000);
    const port = await freePort();
    dataDir = mkdtempSync(path.join(tmpdir(), "claims-dev-"));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DEMO_SEED: "off", DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "error" };
    for (const name of ["NODE_ENV", "DATABASE_URL", "NEXTAUTH_URL", "E2E_APP_PORT"]) delete env[name];
    dev = spawn("npm", ["run", "dev"], { env, detached: true, stdio: "ignore" });
    // localhost, as `next dev` prints it: it serves its dev resources to other origins (127.0.0.1
    // included) only when allowedDevOrigins says so.
    const baseUrl = `http://localhost:${port}`;
    // Ready once /api/v1 answers (its first compile included).
    await expect
      .poll(async () => (await fetch(`${baseUrl}/api/v1/auth/me`).catch(() => null))?.status ?? 0, { timeout: 300_000, intervals: [2_000] })
      .toBe(401);

    // Node's fetch asks for gzip and br and decodes one layer: the document must parse.
    const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(["gzip", "br"]).toContain(res.headers.get("content-encoding"));
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);

    await expectOperations(page, baseUrl);
  });
});
