// Mailed links per address (docs/security.md#limits-what-each-protects-and-how-it-is-keyed): however
// many clients ask, one inbox gets at most 3 password-reset and verification mails an hour, and the
// answer stays 202, so it tells nothing about the address. Real HTTP, real SMTP, the limits unscaled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink.ts";

// Before anything reads the configuration: the limits as in production, client IPs from X-Forwarded-For.
process.env.RATE_LIMIT_SCALE = "1";
process.env.TRUST_PROXY = "1";

let api: TestApi;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  process.env.SMTP_URL = smtp.url;
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

let ipCounter = 0;
const freshIp = () => `10.${process.pid % 250}.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const from = (ip: string) => ({ headers: { "x-forwarded-for": `192.0.2.1, ${ip}` } });

async function register() {
  const username = uniqueName("inbox");
  const email = `${username.toLowerCase()}@example.test`;
  expect((await api.post("/auth/register", { email, password: "Password123", username }, from(freshIp()))).status).toBe(201);
  const login = await api.post("/auth/login", { email, password: "Password123" }, from(freshIp()));
  return { email, token: login.body.access_token as string };
}

const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).length;

/** Mail goes out after the answer: wait for `count`, then long enough for any more to arrive. */
async function settledCount(email: string, count: number): Promise<number> {
  for (let waited = 0; mailsTo(email) < count && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 700));
  return mailsTo(email);
}

describe("mail to one address", () => {
  it("sign-up's verification mail and 15 reset requests from 15 clients: 202 each, 3 mails; verification shares the budget; other inboxes are unaffected", async () => {
    const victim = await register();
    expect(await settledCount(victim.email, 1)).toBe(1); // the sign-up's verification mail
    for (let i = 0; i < 15; i++) {
      const res = await api.post("/auth/password-reset", { email: victim.email }, from(freshIp()));
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ accepted: true });
    }
    expect(await settledCount(victim.email, 3)).toBe(3);
    expect(smtp.mails.filter((m) => m.to.includes(victim.email) && /Verify your email/.test(m.subject))).toHaveLength(1);

    const verify = await api.post("/auth/email/verify", {}, { token: victim.token, ...from(freshIp()) });
    expect(verify.status, verify.text).toBe(202);
    expect(await settledCount(victim.email, 4)).toBe(3);

    // Another address has its own budget: its sign-up's verification mail and a reset both go out.
    const other = await register();
    expect((await api.post("/auth/password-reset", { email: other.email.toUpperCase() }, from(freshIp()))).status).toBe(202);
    expect(await settledCount(other.email, 2)).toBe(2);
  });
});
