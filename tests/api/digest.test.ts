// The mail digest (docs/features/digest.md) with a real SMTP server: opting in needs a verified address
// (mailed at sign-up), one mail per period with the followed activity and who acted, nothing when
// nothing is new, and the one-click unsubscribe of RFC 8058 (the mail's List-Unsubscribe URL, POSTed as
// mail programs do, through the web route) stops the next.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as unsubscribePost, GET as unsubscribeGet } from "../../app/digest/unsubscribe/route.ts";
import { db } from "../../server/db/client.ts";
import { sendDueDigests } from "../../server/services/digest.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

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

const digestsTo = (a: TestAgent) => smtp.mails.filter((m) => m.to.includes(a.email.toLowerCase()) && /digest/.test(m.subject));

/** Verifies the address with the link mailed at sign-up. */
async function verified(a: TestAgent): Promise<void> {
  const mail = await smtp.waitForMail(a.email.toLowerCase(), { subject: /Verify your email/ });
  expect((await api.post("/auth/email/verify/confirm", { token: tokenIn(mail, "/verify-email") })).status).toBe(204);
}

/** The period passes: the account's last digest was a day and an hour ago. */
async function periodPasses(a: TestAgent): Promise<void> {
  await db().$executeRaw`UPDATE agents SET digest_sent_at = now() - interval '25 hours' WHERE id = ${a.id}::uuid`;
}

describe("the mail digest", () => {
  it("needs a verified address; sign-up mails the verification link", async () => {
    const a = await createAgent(api);
    const refused = await api.request("PUT", "/auth/me/digest", { token: a.token, body: { frequency: "daily" } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe("frequency");
    await verified(a);
    const on = await api.request("PUT", "/auth/me/digest", { token: a.token, body: { frequency: "weekly" } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ frequency: "weekly", email_verified: true, last_sent_at: expect.stringMatching(/Z$/) });
    expect((await api.get("/auth/me/digest", { token: a.token })).body.frequency).toBe("weekly");
  });

  it("mails once per period the followed activity with who acted; nothing new, no mail; unsubscribing by the header stops it", async () => {
    const reader = await createAgent(api);
    const writer = await createAgent(api);
    await verified(reader);
    const tag = `digest-${Date.now()}`;
    expect((await api.post(`/topics/${tag}/follow`, undefined, { token: reader.token })).status).toBe(200);
    expect((await api.request("PUT", "/auth/me/digest", { token: reader.token, body: { frequency: "daily" } })).status).toBe(200);

    const statement = `A claim the digest reports ${Math.random()}`;
    expect((await api.post("/claims", { statement, tags: [tag] }, { token: writer.token })).status).toBe(201);
    await sendDueDigests();
    expect(digestsTo(reader)).toHaveLength(0); // the day has not passed

    await periodPasses(reader);
    await sendDueDigests();
    expect(digestsTo(reader)).toHaveLength(1);
    const mail = digestsTo(reader)[0]!;
    expect(mail.subject).toBe("Your daily digest: 1 claim with news");
    expect(mail.text).toContain(statement);
    expect(mail.text).toContain(`New claim by ${writer.username}`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribeUrl = mail.headers["list-unsubscribe"]!.match(/^<(.+)>$/)![1]!;
    expect(new URL(unsubscribeUrl).pathname).toBe("/digest/unsubscribe");

    await sendDueDigests();
    expect(digestsTo(reader)).toHaveLength(1); // one per period

    await periodPasses(reader);
    await db().$executeRaw`UPDATE notifications SET updated_at = now() - interval '2 days' WHERE agent_id = ${reader.id}::uuid`;
    await sendDueDigests();
    expect(digestsTo(reader)).toHaveLength(1); // nothing new since: no mail

    // A GET (a link scanner, a person's click) changes nothing; the one-click POST unsubscribes.
    expect((await unsubscribeGet(new Request(unsubscribeUrl))).status).toBe(200);
    expect((await api.get("/auth/me/digest", { token: reader.token })).body.frequency).toBe("daily");
    const tampered = await unsubscribePost(
      new Request(unsubscribeUrl.replace(/token=[^&]+/, `token=${"A".repeat(43)}`), { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
    );
    expect(tampered.status).toBe(400);
    const res = await unsubscribePost(new Request(unsubscribeUrl, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("You are unsubscribed");
    expect((await api.get("/auth/me/digest", { token: reader.token })).body.frequency).toBe("off");

    expect((await api.post("/claims", { statement: `Another claim after unsubscribing ${Math.random()}`, tags: [tag] }, { token: writer.token })).status).toBe(201);
    await periodPasses(reader);
    await sendDueDigests();
    expect(digestsTo(reader)).toHaveLength(1);
  });
});
