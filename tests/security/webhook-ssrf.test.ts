// SSRF protection of webhook URLs (docs/features/following.md), without WEBHOOK_ALLOW_PRIVATE: refused at
// registration (every resolved address), and again on the connection itself, so a name that resolves
// to loopback when delivering (DNS rebinding) and a redirect to loopback get nowhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startApi, type TestApi } from "../helpers/api.ts";
import { postWebhook } from "../../server/services/webhook-http.ts";
import { quickAgent, type Voter } from "../api/claims-fixtures.ts";
import { db } from "../../server/db/client.ts";

let api: TestApi;
let me: Voter;
let target: Server;
let targetHits = 0;
let redirector: Server;
beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  api = await startApi();
  me = await quickAgent();
  target = createServer((_req, res) => {
    targetHits++;
    res.end("reached");
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  const port = (target.address() as AddressInfo).port;
  redirector = createServer((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await new Promise((r) => target.close(r));
  await new Promise((r) => redirector.close(r));
  await api.close();
});

describe("registration", () => {
  const vectors = [
    "https://127.0.0.1/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:7f00:1]/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://10.0.0.8/hook",
    "https://192.168.1.1/hook",
    "https://172.16.5.4/hook",
    "https://[fd00::1]/hook",
    "https://[fe80::1]/hook",
    "https://0.0.0.0/hook",
    "https://2130706433/hook",
    "https://0x7f.1/hook",
    "https://localhost/hook",
    "https://[64:ff9b::7f00:1]/hook",
    "https://[fec0::1]/hook",
    "https://[100::1]/hook",
    "https://198.18.0.1/hook",
    "https://[::7f00:1]/hook",
  ];
  for (const url of vectors) {
    it(`refuses ${url}`, async () => {
      const res = await api.post("/webhooks", { url, events: ["ping"] }, { token: me.token });
      expect(res.status, res.text).toBe(400);
      // …without saying what the name resolved to (a DNS oracle for internal names)
      expect(res.body.detail).toBe("url: must resolve only to public addresses");
    });
  }

  it("refuses a name that does not resolve", async () => {
    const res = await api.post("/webhooks", { url: "https://localhost./hook", events: ["ping"] }, { token: me.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^url:/);
  });

  it("refuses plain http and credentials, and writes nothing", async () => {
    expect((await api.post("/webhooks", { url: "http://example.com/hook", events: ["ping"] }, { token: me.token })).body.detail).toBe(
      "url: must be an https:// URL",
    );
    expect((await api.post("/webhooks", { url: "https://u:p@example.com/", events: ["ping"] }, { token: me.token })).status).toBe(400);
    expect(await db().webhook.count({ where: { agentId: me.id } })).toBe(0);
  });

  it("PATCH applies the same rules", async () => {
    // A public address literal passes registration without any DNS.
    const created = await api.post("/webhooks", { url: "https://93.184.215.14/hook", events: ["ping"] }, { token: me.token });
    expect(created.status, created.text).toBe(201);
    const res = await api.patch(`/webhooks/${created.body.id}`, { url: "https://127.0.0.1/x" }, { token: me.token });
    expect(res.status).toBe(400);
    expect((await api.get(`/webhooks/${created.body.id}`, { token: me.token })).body.url).toBe("https://93.184.215.14/hook");
  });
});

describe("connection time", () => {
  it("a name resolving to loopback when connecting is refused before anything is sent", async () => {
    const port = (target.address() as AddressInfo).port;
    const before = targetHits;
    const r = await postWebhook({ url: `http://localhost:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/not allowed/);
    const direct = await postWebhook({ url: `http://127.0.0.1:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
    expect(direct.status).toBeNull();
    const mapped = await postWebhook({ url: `http://[::ffff:127.0.0.1]:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
    expect(mapped.status).toBeNull();
    // the registration's rule holds at delivery too: the IPv4-compatible form of loopback
    const compatible = await postWebhook({ url: `http://[::7f00:1]:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
    expect(compatible.status).toBeNull();
    expect(compatible.error).toMatch(/not allowed/);
    expect(targetHits).toBe(before);
  });

  it("a 302 to loopback is a failure and is not followed", async () => {
    const port = (redirector.address() as AddressInfo).port;
    const before = targetHits;
    // The redirector itself is local: allowed here only to reach it at all.
    const r = await postWebhook({ url: `http://127.0.0.1:${port}/hook`, body: "{}", headers: {}, allowPrivate: true });
    expect(r.status).toBe(302);
    expect(r.error).toMatch(/not followed/);
    expect(targetHits).toBe(before);
  });
});
