// Webhook registration is no DNS oracle (docs/security.md#webhook-addresses): with the address rules on
// (no WEBHOOK_ALLOW_PRIVATE), a host that does not resolve and one that resolves to a private address
// get the same answer, word for word, on registration and on a change of URL; nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { quickAgent, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let me: Voter;
beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  api = await startApi();
  me = await quickAgent();
});
afterAll(() => api.close());

// A name that resolves (to loopback, here without any network), one that never does (.invalid is
// reserved for that: RFC 6761), and an address literal in a private range.
const RESOLVES_PRIVATE = "https://localhost/hook";
const DOES_NOT_RESOLVE = "https://no-such-host.invalid/hook";
const PRIVATE_LITERAL = "https://10.0.0.8/hook";

describe("a host that does not resolve answers as one that resolves to a private address", () => {
  it("on registration", async () => {
    const answers = [];
    for (const url of [RESOLVES_PRIVATE, DOES_NOT_RESOLVE, PRIVATE_LITERAL]) {
      const res = await api.post("/webhooks", { url, events: ["ping"] }, { token: me.token });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers[0]).toEqual({
      status: 400,
      body: {
        code: "validation_failed",
        detail: "url: must resolve only to public addresses",
        errors: [{ field: "url", message: "url: must resolve only to public addresses", rule: "invalid" }],
      },
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await db().webhook.count({ where: { agentId: me.id } })).toBe(0);
  });

  it("on a change of URL", async () => {
    // A public address literal passes registration without any DNS.
    const created = await api.post("/webhooks", { url: "https://93.184.215.14/hook", events: ["ping"] }, { token: me.token });
    expect(created.status, created.text).toBe(201);
    const resolving = await api.patch(`/webhooks/${created.body.id}`, { url: RESOLVES_PRIVATE }, { token: me.token });
    const unresolving = await api.patch(`/webhooks/${created.body.id}`, { url: DOES_NOT_RESOLVE }, { token: me.token });
    expect(resolving.status).toBe(400);
    expect(unresolving.text).toBe(resolving.text);
    expect((await api.get(`/webhooks/${created.body.id}`, { token: me.token })).body.url).toBe("https://93.184.215.14/hook");
  });
});
