// The kept pages' store stays within PAGE_STORE_MAX_MB on the production server (docs/features/page-cache.md#the-stores-size):
// with a 1 MB cap, viewing more claim pages than fit removes the one kept longest ago — its next view
// renders anew (x-nextjs-cache: MISS) while the latest are still served from the store (HIT) — and the
// store's folder stays under the cap. The in-process test (tests/api/page-store-cap.test.ts) covers the
// ledger; this one that the writes Next makes are the ones counted.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

const CAP_MB = 1;
const dataDir = mkdtempSync(path.join(tmpdir(), "claims-page-store-cap-"));
let server: BuiltServer;
let token: string;

beforeAll(async () => {
  server = await startBuiltServer((base) => ({ NEXTAUTH_URL: base, DATA_DIR: dataDir, PAGE_STORE_MAX_MB: String(CAP_MB), REDIS_URL: undefined, LOG_LEVEL: "error" }));
  const credentials = { email: `cap-${Date.now()}@example.org`, password: "Page-store-cap-passw0rd", username: `cap${Date.now() % 1_000_000}` };
  const post = (p: string, body: unknown, auth?: string) =>
    fetch(`${server.base}/api/v1${p}`, { method: "POST", headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) }, body: JSON.stringify(body) });
  expect((await post("/auth/register", credentials)).status).toBe(201);
  token = ((await (await post("/auth/login", credentials)).json()) as { access_token: string }).access_token;
}, 240_000);

afterAll(() => {
  server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newClaim(n: number): Promise<string> {
  const res = await fetch(`${server.base}/api/v1/claims`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ statement: `Claim number ${n} of many, to fill the page store past its cap` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function view(id: string): Promise<string | null> {
  const res = await fetch(`${server.base}/claims/${id}`, { headers: { "user-agent": "Mozilla/5.0 (test)" } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get("x-nextjs-cache");
}

/**
 * The kept claim pages in the store's folder: how many, and the bytes of their renders on disk (HTML,
 * RSC payload, segments: what the cap counts; each page's .meta file of ≈0.3 KB comes on top).
 */
function keptClaimPages(): { count: number; bytes: number } {
  const root = path.join(dataDir, "page-store");
  let count = 0;
  let bytes = 0;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith(".meta")) {
      if (entry.parentPath.endsWith(`${path.sep}claims`)) count++;
      continue;
    }
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { count, bytes };
}

describe("PAGE_STORE_MAX_MB", () => {
  it("viewing more claim pages than fit removes the one kept longest ago; the store stays under the cap", async () => {
    const first = await newClaim(0);
    expect(await view(first)).toBe("MISS");
    expect(await view(first)).toBe("HIT");
    const one = keptClaimPages();
    // Enough pages to fill the cap twice over.
    const pages = Math.ceil((2 * CAP_MB * 1024 * 1024) / one.bytes) + 1;
    const ids: string[] = [];
    for (let n = 1; n <= pages; n++) {
      ids.push(await newClaim(n));
      expect(await view(ids[ids.length - 1])).toBe("MISS");
    }
    const kept = keptClaimPages();
    expect(kept.bytes).toBeLessThanOrEqual(CAP_MB * 1024 * 1024);
    expect(kept.count).toBeLessThan(pages + 1);
    expect(await view(ids[ids.length - 1])).toBe("HIT");
    expect(await view(first)).toBe("MISS");
  }, 120_000);
});
