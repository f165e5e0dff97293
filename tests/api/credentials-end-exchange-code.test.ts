// A sign-in's one-time code not yet exchanged is a login on its way (docs/security.md#which-action-ends-which-credential):
// a password change and a completed reset end it like every other login. A password change sets no
// cut-off, so without this a code handed to another browser just before the change became a fresh
// login after it; and a code made in the same second as a reset is not before the reset's cut-off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExchangeCode } from "../../server/services/oauth.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

describe("a sign-in code not yet exchanged", () => {
  it("buys no login after a password change", async () => {
    const agent = await createAgent(api, { password: "Password123" });
    const code = await createExchangeCode(agent.id);
    const changed = await api.post("/auth/password", { current_password: "Password123", new_password: "Changed1234" }, { token: agent.token });
    expect(changed.status, changed.text).toBe(204);
    const exchanged = await api.post("/auth/oauth/exchange", { code });
    expect(exchanged.status, exchanged.text).toBe(401);
    // The caller's own login stays.
    expect((await api.get("/auth/me", { token: agent.token })).status).toBe(200);
  });

  it("buys no login after sign out everywhere, even in the same second", async () => {
    const agent = await createAgent(api);
    const code = await createExchangeCode(agent.id);
    expect((await api.post("/auth/logout-everywhere", {}, { token: agent.token })).status).toBe(204);
    expect((await api.post("/auth/oauth/exchange", { code })).status).toBe(401);
  });
});
