// Compressed answers of /api/v1 (docs/api.md#conventions): a body of 1 KiB or more is gzip- or brotli-encoded when
// the client accepts it, decodes to the same JSON, and every answer varies on Accept-Encoding. Read
// with node:http, which (unlike fetch) hands over the bytes as sent.
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { chooseCoding, COMPRESS_MIN_BYTES } from "../../server/http/compression.ts";

let api: TestApi;
let author: TestAgent;
beforeAll(async () => {
  api = await startApi();
  author = await createAgent(api);
  // Enough claims for a list well over the threshold.
  for (let i = 0; i < 12; i++) {
    const res = await api.post("/claims", { statement: `Compression test claim number ${i}, long enough to matter`, tags: ["compression"] }, { token: author.token });
    expect(res.status).toBe(201);
  }
});
afterAll(() => api.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.url}/api/v1${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const LIST = "/discover/topics/compression?limit=12";

describe("compressed /api/v1 answers", () => {
  it("sends a large list gzip-encoded when asked, decoding to the same JSON", async () => {
    const plain = await raw(LIST);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const json = JSON.parse(plain.bytes.toString("utf8"));
    expect(json.claims).toHaveLength(12);

    const gz = await raw(LIST, { "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["content-type"]).toBe("application/json");
    expect(gz.headers.vary).toBe("Authorization, Accept-Encoding");
    expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(gunzipSync(gz.bytes).toString("utf8"))).toEqual(json);
    // The contract's headers are all still there.
    expect(gz.headers["x-ratelimit-limit"]).toBeDefined();
    expect(gz.headers["cache-control"]).toBe("no-store");
  });

  it("prefers brotli when offered, and honours q=0", async () => {
    const plain = JSON.parse((await raw(LIST)).bytes.toString("utf8"));
    const br = await raw(LIST, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString("utf8"))).toEqual(plain);
    const refused = await raw(LIST, { "accept-encoding": "br;q=0, gzip;q=0.5" });
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const none = await raw(LIST, { "accept-encoding": "identity, gzip;q=0" });
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(none.bytes.toString("utf8"))).toEqual(plain);
  });

  it("leaves a small body plain, and errors too", async () => {
    const small = await raw("/discover/topics/no-such-topic-anywhere", { "accept-encoding": "gzip, br" });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.parse(small.bytes.toString("utf8"))).toEqual({ tag: "no-such-topic-anywhere", claims: [], total: 0 });
    const missing = await raw("/claims/00000000-0000-4000-8000-000000000000", { "accept-encoding": "gzip" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(missing.bytes.toString("utf8"))).toEqual({ code: "not_found", detail: "Claim not found" });
  });

  it("answers HEAD without a body and If-Modified-Since with a bare 304", async () => {
    const head = await raw(LIST, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);

    const auth = { authorization: `Bearer ${author.token}`, "accept-encoding": "gzip" };
    const first = await raw("/notifications", auth);
    expect(first.status).toBe(200);
    const lastModified = first.headers["last-modified"] as string;
    expect(lastModified).toBeTruthy();
    const again = await raw("/notifications", { ...auth, "if-modified-since": lastModified });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers["content-encoding"]).toBeUndefined();
    expect(again.headers["last-modified"]).toBe(lastModified);
    expect(again.headers.vary).toMatch(/Accept-Encoding/);
  });
});

describe("chooseCoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["GZIP;Q=1.0", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["*;q=0", null],
    ["identity", null],
    ["deflate", null],
    ["gzip;q=0, *;q=0.1", "br"],
    ["x-gzip", "gzip"],
  ] as const)("Accept-Encoding %j → %j", (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});
