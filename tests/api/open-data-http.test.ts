// The open data's downloads over real HTTP (docs/features/open-data.md#downloading): a node:http server
// mounting the app's route handlers for them (GET /data.json, /data/{snapshot}/{file},
// /.well-known/claims-data-key → /data/key), with the path split as Next splits it. The list names the
// kept snapshots (the last DATA_SNAPSHOTS_KEPT); a file comes with a strong ETag (304 when the client has
// it), byte ranges (206, 416 past the end) and immutable caching; a snapshot name with `..` or a file
// the manifest does not list is a 404 {code, detail}; the served key verifies the signature.
// tests/smoke/open-data.test.ts checks the same addresses on the built server, through Next's routing.
import { createPublicKey, verify } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listGet } from "../../app/data.json/route.ts";
import { GET as fileGet } from "../../app/data/[snapshot]/[file]/route.ts";
import { GET as keyGet } from "../../app/data/key/route.ts";
import { byteRange } from "../../server/http/open-data.ts";
import { snapshotsDir, takeSnapshot } from "../../server/services/open-data-snapshot.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";

vi.hoisted(() => {
  process.env.DATA_DIR = `${process.env.TMPDIR ?? "/tmp"}/claims-open-data-http-${process.pid}-${Date.now()}`;
  process.env.DATA_SNAPSHOTS_KEPT = "2";
});

let api: TestApi;
let server: Server;
let base: string;
const taken: string[] = [];

/** The route handlers, as Next routes to them (its path segments decoded). */
async function route(method: string, url: URL, headers: Headers): Promise<Response> {
  const request = new Request(url, { method, headers });
  const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (url.pathname === "/data.json") return listGet(request);
  if (url.pathname === "/.well-known/claims-data-key") return keyGet();
  if (segments.length === 3 && segments[0] === "data") return fileGet(request, { params: Promise.resolve({ snapshot: segments[1], file: segments[2] }) });
  return new Response("no route", { status: 599 });
}

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request sent as written (node's http does not resolve `..` in the path, as fetch would). */
function get(pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${pathname}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  api = await startApi();
  const [author, ...voters] = await Promise.all(Array.from({ length: 7 }, () => createAgent(api)));
  const claim = await api.post<{ id: string }>("/claims", { statement: "Snapshots can be downloaded in parts and cached for good." }, { token: author.token });
  for (const v of voters) expect((await api.post(`/claims/${claim.body.id}/vote`, { value: 0.9 }, { token: v.token })).status).toBe(200);
  // Three snapshots a second apart (a snapshot is named by its second): two are kept.
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1_100));
    taken.push((await takeSnapshot({ inline: true, foreground: true })).name);
  }
  server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await route(req.method!, new URL(req.url!, "http://127.0.0.1"), headers);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(req.method === "HEAD" || !answer.body ? undefined : Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await api?.close();
  rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

const json = (got: Got) => JSON.parse(got.body.toString("utf8"));

describe("GET /data (JSON)", () => {
  it("lists the kept snapshots, newest first, with every file's size, rows, hash and address", async () => {
    const got = await get("/data.json");
    expect(got.status).toBe(200);
    const { snapshots, public_key } = json(got);
    expect(snapshots.map((s: { name: string }) => s.name)).toEqual([taken[2], taken[1]]);
    expect(public_key).toMatch(/\/\.well-known\/claims-data-key$/);
    const files = snapshots[0].files as { name: string; url: string; bytes: number; rows: number | null; sha256: string }[];
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(["manifest.json", "manifest.sig", "claims.tsv.gz", "votes.tsv.gz", "bridging.tsv.gz", "consensus_history.tsv.gz"]));
    expect(files.find((f) => f.name === "votes.tsv.gz")!.rows).toBe(6);
    for (const f of files) expect(f.url).toMatch(new RegExp(`/data/${taken[2]}/${f.name.replace(/\./g, "\\.")}$`));
  });

  it("removed the snapshot beyond DATA_SNAPSHOTS_KEPT from the disk", () => {
    expect(() => readFileSync(path.join(snapshotsDir(), taken[0], "manifest.json"))).toThrow();
  });
});

describe("GET /data/{snapshot}/{file}", () => {
  const file = () => `/data/${taken[2]}/votes.tsv.gz`;
  const onDisk = () => readFileSync(path.join(snapshotsDir(), taken[2], "votes.tsv.gz"));

  it("serves the file whole, with a strong ETag from its SHA-256 and immutable caching", async () => {
    const got = await get(file());
    expect(got.status).toBe(200);
    expect(got.body.equals(onDisk())).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(snapshotsDir(), taken[2], "manifest.json"), "utf8"));
    expect(got.headers.etag).toBe(`"${manifest.files["votes.tsv.gz"].sha256}"`);
    expect(got.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(got.headers["accept-ranges"]).toBe("bytes");
    expect(got.headers["content-type"]).toBe("application/gzip");
    expect(Number(got.headers["content-length"])).toBe(onDisk().length);
  });

  it("answers 304 to a client that has it", async () => {
    const { headers } = await get(file());
    const again = await get(file(), { "If-None-Match": headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(headers.etag);
    expect((await get(file(), { "If-None-Match": '"0000"' })).status).toBe(200);
  });

  it("answers a byte range with 206, the suffix form too, and 416 past the end", async () => {
    const whole = onDisk();
    const part = await get(file(), { Range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-19/${whole.length}`);
    expect(part.body.equals(whole.subarray(10, 20))).toBe(true);
    const tail = await get(file(), { Range: "bytes=-5" });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.subarray(whole.length - 5))).toBe(true);
    const past = await get(file(), { Range: `bytes=${whole.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${whole.length}`);
    // If-Range with another file's tag: the whole file.
    expect((await get(file(), { Range: "bytes=0-0", "If-Range": '"other"' })).status).toBe(200);
    expect(byteRange("bytes=0-1,4-5", 10)).toBeNull();
  });

  it("serves the manifest and its signature, which the served key verifies", async () => {
    const manifest = await get(`/data/${taken[2]}/manifest.json`);
    const signature = await get(`/data/${taken[2]}/manifest.sig`);
    const key = await get("/.well-known/claims-data-key");
    expect([manifest.status, signature.status, key.status]).toEqual([200, 200, 200]);
    expect(key.headers["content-type"]).toMatch(/^text\/plain/);
    expect(key.body.toString()).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(verify(null, manifest.body, createPublicKey(key.body.toString()), Buffer.from(signature.body.toString(), "base64"))).toBe(true);
    const tampered = Buffer.from(manifest.body.toString().replace(/"rows": 6/, '"rows": 7'));
    expect(tampered.equals(manifest.body)).toBe(false);
    expect(verify(null, tampered, createPublicKey(key.body.toString()), Buffer.from(signature.body.toString(), "base64"))).toBe(false);
  });

  // (A bare `..` segment never reaches them: Next resolves dot segments before routing, as URL does here.)
  it("answers 404 {code, detail} for a name with .., a file the manifest does not list, or a snapshot no longer kept", async () => {
    const paths = [
      `/data/..%2f${taken[2]}/manifest.json`,
      `/data/${taken[2]}/..%2f..%2fsecrets.json`,
      `/data/${taken[2]}/secrets.json`,
      `/data/${taken[2]}/.partial`,
      `/data/${taken[0]}/votes.tsv.gz`,
      "/data/snapshots/votes.tsv.gz",
    ];
    for (const p of paths) {
      const got = await get(p);
      expect(got.status, p).toBe(404);
      expect(json(got), p).toMatchObject({ code: "not_found", detail: expect.stringContaining("GET /data") });
    }
  });
});
