// Connections to addresses others name go to public addresses only (docs/security.md#webhook-addresses),
// also by a name that resolves to loopback, in a process that has itself reached that name with the
// test allowance (WEBHOOK_ALLOW_PRIVATE) a moment before: the allowing agent's kept-alive connection
// is never lent to a request without the allowance, and the refused request never reaches the server.
// Both users of the one public-only agent (server/outbound/public-agent.ts) are checked: the provider's
// fetch of a Client ID Metadata Document (an authorization request naming one, through the node-level
// guard as `npm start` serves it) and a webhook delivery. The process runs as production does: no
// WEBHOOK_ALLOW_PRIVATE.
delete process.env.WEBHOOK_ALLOW_PRIVATE;

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../server/config.ts";
import { getPublic, publicOnlyAgent } from "../../server/outbound/public-agent.ts";
import { HOST_REFUSED, postWebhook } from "../../server/services/webhook-http.ts";
import { browse, Jar, pkce, startOAuthApp, type OAuthApp } from "../helpers/mcp-oauth.ts";

const TLS_DIR = path.resolve(import.meta.dirname, "../fixtures/tls");
const cert = readFileSync(path.join(TLS_DIR, "localhost.crt"), "utf8");

let app: OAuthApp;
let target: Server;
let port = 0;
/** Every request the loopback server received, by path. */
const hits: string[] = [];

beforeAll(async () => {
  // The certificate (for localhost and 127.0.0.1) is trusted: a refusal is the address rule's, not TLS's.
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), cert]);
  target = createServer({ cert, key: readFileSync(path.join(TLS_DIR, "localhost.key")), keepAliveTimeout: 60_000 }, (req, res) => {
    hits.push(req.url!);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ client_id: `https://localhost:${port}${req.url}`, client_name: "Loopback", redirect_uris: ["http://127.0.0.1:33418/"], token_endpoint_auth_method: "none" }));
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  port = (target.address() as AddressInfo).port;
  app = await startOAuthApp();
});
afterAll(async () => {
  await app?.close();
  target?.closeAllConnections();
  target?.close();
});

const byName = (p: string) => new URL(`https://localhost:${port}${p}`);
const fetchOptions = (allowPrivate: boolean) => ({ maxBytes: 5120, timeoutMs: 2500, allowPrivate });

/** An authorization request naming `clientId` (a metadata document's URL), as VS Code sends one. */
const authorize = (clientId: string) =>
  browse(
    app.base,
    new Jar(),
    `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: "http://127.0.0.1:33418/", scope: "read", state: "st", code_challenge: pkce().challenge, code_challenge_method: "S256" })}`,
  );

describe("a name that resolves to loopback, without the allowance", () => {
  it("the process runs without WEBHOOK_ALLOW_PRIVATE (as production does)", () => {
    expect(config().WEBHOOK_ALLOW_PRIVATE).toBe(false);
  });

  it("a metadata document there is never fetched: the authorization is refused as invalid_client, the server hears nothing", async () => {
    for (const clientId of [byName("/a.json").href, `https://127.0.0.1:${port}/b.json`, `https://localhost.:${port}/c.json`, `https://[::ffff:127.0.0.1]:${port}/d.json`]) {
      const res = await authorize(clientId);
      expect(res.status, `${clientId}: ${res.location}`).toBe(400);
      expect(res.location).toBe("");
      expect((await res.res.json()).error).toBe("invalid_client");
    }
    expect(hits).toEqual([]);
  });

  it("stays refused after the same name was reached with the allowance: no kept-alive connection is shared across the setting", async () => {
    // With the allowance (the tests' local servers), the name is reached and its connection kept alive.
    const allowed = await getPublic(byName("/allowed.json"), fetchOptions(true));
    expect(allowed.status).toBe(200);
    expect(hits).toEqual(["/allowed.json"]);
    const kept = Object.values(publicOnlyAgent("https:", true).freeSockets).flat().length;
    expect(kept).toBeGreaterThan(0);

    // Without it, the same name, by every way out, once and again (a pool filled meanwhile included).
    for (let round = 0; round < 2; round++) {
      await expect(getPublic(byName("/refused.json"), fetchOptions(false))).rejects.toThrow(/not allowed/);
      const delivery = await postWebhook({ url: byName("/hook").href, body: "{}", headers: {}, allowPrivate: false });
      expect(delivery).toMatchObject({ status: null, error: HOST_REFUSED });
      const res = await authorize(byName(`/doc-${round}.json`).href);
      expect(res.status).toBe(400);
      await getPublic(byName("/allowed.json"), fetchOptions(true));
    }
    expect(hits).toEqual(["/allowed.json", "/allowed.json", "/allowed.json"]);
  });
});
