// `npm start` without SMTP_URL does not pretend to send mail (docs/features/accounts.md#mail): the mail
// endpoints answer 503 `Mail is not configured`, for known and unknown addresses alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;
beforeAll(async () => {
  server = await startBuiltServer({ SMTP_URL: undefined, LOG_LEVEL: "error" });
}, 240_000);
afterAll(() => server?.stop());

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${server.base}/api/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("mail endpoints without SMTP_URL in production", () => {
  it("answer 503 Mail is not configured", async () => {
    const email = `nomail-${Date.now()}@example.test`;
    expect((await post("/auth/register", { email, password: "Password123", username: `nomail_${Date.now()}` })).status).toBe(201);
    const token = (await (await post("/auth/login", { email, password: "Password123" })).json()).access_token as string;
    for (const [path, body, auth] of [
      ["/auth/password-reset", { email }, undefined],
      ["/auth/password-reset", { email: "unknown@example.test" }, undefined],
      ["/auth/email/verify", {}, token],
    ] as const) {
      const res = await post(path, body, auth);
      expect(res.status, path).toBe(503);
      expect(await res.json()).toEqual({ code: "mail_not_configured", detail: "Mail is not configured" });
    }
  });
});
