// The delivery log answers no DNS questions (docs/security.md#webhook-addresses): a delivery to a name
// that resolves to a private address and one to a name that does not resolve keep the same error, and
// neither names an address. (A public name made an alias of an internal one after registration would
// otherwise read in its delivery log which internal names exist and where they point.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HOST_REFUSED, postWebhook } from "../../server/services/webhook-http.ts";

let target: Server;
let hits = 0;
beforeAll(async () => {
  target = createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

it("a name resolving to loopback and a name that does not resolve: one error, no address in it, nothing sent", async () => {
  const port = (target.address() as AddressInfo).port;
  const loopback = await postWebhook({ url: `http://localhost:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
  const missing = await postWebhook({ url: `http://no-such-host.invalid:${port}/hook`, body: "{}", headers: {}, allowPrivate: false });
  expect(loopback).toMatchObject({ status: null, error: HOST_REFUSED });
  expect(missing).toMatchObject({ status: null, error: HOST_REFUSED });
  expect(loopback.error).not.toMatch(/127\.0\.0\.1|::1|localhost/);
  expect(hits).toBe(0);
});
