// The open data on the built server (`npm start`), through Next's routing and the node-level guard
// (docs/features/open-data.md#downloading): the /data page and its JSON for a program (the rewrite on
// Accept), /data.json, the well-known key (rewritten to its route handler), a file with its ETag, 304 and
// a range, 404 {code, detail} for a file the manifest does not list, dot segments never reaching a
// snapshot, `npm run data:score` on the snapshot's address, and the home page's statistics linking to /data. The snapshot is taken by this process and
// served from the same folder, signed with the same key.
import { createPublicKey, verify } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { takeSnapshot } from "../../server/services/open-data-snapshot.ts";
import { root, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";

const dirs = vi.hoisted(() => {
  const { generateKeyPairSync } = process.getBuiltinModule("node:crypto");
  const key = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  process.env.DATA_SIGNING_KEY = key;
  process.env.DATA_SNAPSHOT_DIR = `${process.env.TMPDIR ?? "/tmp"}/claims-open-data-smoke-${process.pid}-${Date.now()}`;
  return { snapshots: process.env.DATA_SNAPSHOT_DIR, key };
});

let api: TestApi;
let server: BuiltServer;
let name: string;

beforeAll(async () => {
  api = await startApi();
  const [author, ...voters] = await Promise.all(Array.from({ length: 6 }, () => createAgent(api)));
  const claim = await api.post<{ id: string }>("/claims", { statement: "The open data can be fetched from the built server." }, { token: author.token });
  for (const v of voters) await api.post(`/claims/${claim.body.id}/vote`, { value: 0.2 }, { token: v.token });
  name = (await takeSnapshot({ inline: true, foreground: true })).name;
  server = await startBuiltServer({ DATA_SNAPSHOT_DIR: dirs.snapshots, DATA_SIGNING_KEY: dirs.key, LOG_LEVEL: "error" });
}, 300_000);

afterAll(async () => {
  server?.stop();
  await api?.close();
  rmSync(dirs.snapshots, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${server.base}${p}`, { headers, redirect: "manual" });

describe("the open data on the built server", () => {
  it("GET /data is a page for a browser and the list as JSON for a program; /data.json is the list too", async () => {
    const page = await get("/data", { Accept: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(name);
    expect(html).toContain("npm run data:score");
    for (const res of [await get("/data", { Accept: "application/json" }), await get("/data.json")]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await res.json()) as { snapshots: { name: string }[] }).snapshots.map((s) => s.name)).toEqual([name]);
    }
  });

  it("serves the key at /.well-known/claims-data-key, and it verifies the served manifest", async () => {
    const key = await get("/.well-known/claims-data-key");
    expect(key.status).toBe(200);
    expect(key.headers.get("content-type")).toMatch(/^text\/plain/);
    const manifest = Buffer.from(await (await get(`/data/${name}/manifest.json`)).arrayBuffer());
    const signature = Buffer.from(await (await get(`/data/${name}/manifest.sig`)).text(), "base64");
    expect(verify(null, manifest, createPublicKey(await key.text()), signature)).toBe(true);
  });

  it("serves a file with its ETag (304 when the client has it), a byte range and immutable caching", async () => {
    const whole = await get(`/data/${name}/votes.tsv.gz`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = whole.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect((await get(`/data/${name}/votes.tsv.gz`, { "If-None-Match": etag })).status).toBe(304);
    const part = await get(`/data/${name}/votes.tsv.gz`, { Range: "bytes=2-9" });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(2, 10))).toBe(true);
  });

  it("answers 404 {code, detail} for a file the manifest does not list; dot segments never reach a snapshot", async () => {
    const missing = await get(`/data/${name}/secrets.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found", detail: expect.any(String) });
    for (const p of [`/data/%2e%2e/${name}`, `/data/${name}/..%2f..%2fsecrets.json`]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
    }
  });

  it("npm run data:score downloads the snapshot by its address and confirms every verdict with the served key", { timeout: 300_000 }, async () => {
    const into = mkdtempSync(path.join(tmpdir(), "claims-open-data-download-"));
    try {
      const run = spawnSync(process.execPath, ["--import", "tsx", "server/cli/data-score.ts", `${server.base}/data/${name}`, "--key", `${server.base}/.well-known/claims-data-key`, "--into", into], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATA_DIR: into },
      });
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/the signature, every file and every verdict match/);
    } finally {
      rmSync(into, { recursive: true, force: true });
    }
  });

  it("links the home page's statistics to /data", async () => {
    const home = await (await get("/", { Accept: "text/html" })).text();
    expect(home).toMatch(/<a[^>]*href="\/data"[^>]*>Verify these numbers<\/a>/);
  });
});
