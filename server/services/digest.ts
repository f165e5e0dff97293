// The opt-in mail digest of followed activity (docs/features/digest.md): daily or weekly, one mail per
// period with the inbox threads that changed since the last one, and a one-click unsubscribe (RFC 8058:
// List-Unsubscribe with an https URL, List-Unsubscribe-Post) whose token is an HMAC of the account id.
import { createHmac, timingSafeEqual } from "node:crypto";
import { db, readSql, sqlTransaction } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { AppError, forbidden, notFound } from "../errors.ts";
import { config } from "../config.ts";
import { log } from "../log/logger.ts";
import { mailAvailable, sendMail, webUrl } from "../mail/mailer.ts";
import type { DigestFrequency, DigestSettings } from "../contract/digest.ts";
import { isUuid } from "../contract/common.ts";
import { activeAgent, visibleClaim } from "./visibility.ts";

export const DIGEST_PERIOD_MS: Record<Exclude<DigestFrequency, "off">, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };
/** Threads one digest lists (the newest); the rest are counted. */
export const DIGEST_THREADS = 20;
/** Accounts whose digest one round sends. */
export const DIGEST_BATCH = 50;

export const DIGEST_NEEDS_VERIFIED = "frequency: a digest needs a verified email address (verify it in settings first)";

function unsubscribeToken(agentId: string): string {
  return createHmac("sha256", config().JWT_SECRET).update(`digest-unsubscribe:${agentId}`).digest("base64url");
}

/** The one-click unsubscribe link of an account's digests (the web route app/digest/unsubscribe). */
export function unsubscribeUrl(agentId: string): string {
  return webUrl(`/digest/unsubscribe?agent_id=${agentId}&token=${unsubscribeToken(agentId)}`);
}

export async function getDigest(agentId: string): Promise<DigestSettings> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { digest: true, digestSentAt: true, emailVerified: true } });
  if (!agent) throw notFound("Agent not found");
  return {
    frequency: agent.digest as DigestFrequency,
    last_sent_at: agent.digestSentAt?.toISOString() ?? null,
    email_verified: agent.emailVerified !== null,
  };
}

/**
 * PUT /auth/me/digest. Turning it on starts the period now: the first digest goes out a period later
 * with what happened since. Only for a verified address (400 otherwise), so no one can have another
 * person's inbox mailed.
 */
export async function setDigest(agentId: string, frequency: DigestFrequency): Promise<DigestSettings> {
  if (frequency !== "off") {
    const agent = await db().agent.findUnique({ where: { id: agentId }, select: { emailVerified: true, email: true } });
    if (!agent?.email || !agent.emailVerified) throw new AppError("validation_failed", DIGEST_NEEDS_VERIFIED, [{ field: "frequency", message: DIGEST_NEEDS_VERIFIED, rule: "invalid" }]);
  }
  await db().$executeRaw`
    UPDATE agents SET digest = ${frequency},
      digest_sent_at = CASE WHEN ${frequency} <> 'off' AND digest = 'off' THEN now() ELSE digest_sent_at END
    WHERE id = ${agentId}::uuid`;
  return getDigest(agentId);
}

/** POST /digest/unsubscribe (the link's one click): the digest is off; a wrong token is 403. */
export async function unsubscribe(agentId: string, token: string): Promise<void> {
  if (!isUuid(agentId)) throw forbidden();
  const expected = Buffer.from(unsubscribeToken(agentId));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw forbidden();
  await db().$executeRaw`UPDATE agents SET digest = 'off' WHERE id = ${agentId}::uuid`;
}

interface DueAccount {
  id: string;
  email: string;
  digest: Exclude<DigestFrequency, "off">;
  since: Date;
}

interface Thread {
  claim_id: string;
  statement: string;
  votes: number;
  evidence: number;
  comments: number;
  arguments: number;
  resolved: number;
  outcomes: number;
  new_claims: number;
  source: string;
  actor: string | null;
}

function threadLine(t: Thread): string {
  if (t.new_claims > 0 && t.source !== "claim") return `New claim${t.actor ? ` by ${t.actor}` : ""}`;
  const parts = [
    t.resolved > 0 ? "reached consensus" : null,
    t.outcomes > 0 ? "its check's outcome moved" : null,
    t.votes > 0 ? `${t.votes} vote${t.votes === 1 ? "" : "s"}` : null,
    t.evidence > 0 ? `${t.evidence} piece${t.evidence === 1 ? "" : "s"} of evidence` : null,
    t.comments > 0 ? `${t.comments} comment${t.comments === 1 ? "" : "s"}` : null,
    t.arguments > 0 ? `${t.arguments} argument${t.arguments === 1 ? "" : "s"}` : null,
  ].filter(Boolean);
  return `${parts.length ? `New: ${parts.join(", ")}` : "Updated"}${t.actor ? ` · last by ${t.actor}` : ""}`;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Sends the digests that are due at `now`, at most `limit`: each due account is claimed and its period
 * moved on in one statement (SKIP LOCKED: two instances never take the same account), then mailed
 * the threads of its inbox that changed since its last digest. Nothing new: no mail, the period still
 * moves on. A mail that fails is not retried (the next period brings it). Returns the accounts
 * claimed and the mails sent.
 */
export async function sendDueDigests(now = new Date(), limit = DIGEST_BATCH): Promise<{ claimed: number; sent: number }> {
  if (!mailAvailable()) return { claimed: 0, sent: 0 };
  const due = await sqlTransaction((tx) => tx.query<DueAccount>(Prisma.sql`
    WITH due AS (
      SELECT a.id, a.digest_sent_at AS since FROM agents a
      WHERE a.digest <> 'off' AND a.email IS NOT NULL AND a.email_verified IS NOT NULL AND ${activeAgent("a")}
        AND a.digest_sent_at <= ${now}::timestamptz - CASE WHEN a.digest = 'weekly' THEN interval '7 days' ELSE interval '1 day' END
      ORDER BY a.digest_sent_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE agents a SET digest_sent_at = ${now}::timestamptz FROM due WHERE a.id = due.id
    RETURNING a.id::text AS id, a.email, a.digest, due.since`));
  let sent = 0;
  for (const account of due) {
    try {
      if (await sendDigest(account)) sent++;
    } catch (err) {
      log().error({ err: (err as Error).message }, "[digest] a digest could not be sent");
    }
  }
  return { claimed: due.length, sent };
}

async function sendDigest(account: DueAccount): Promise<boolean> {
  const threads = await readSql<Thread & { total: number }>(Prisma.sql`
    SELECT n.claim_id::text AS claim_id, c.statement, n.votes, n.evidence, n.comments, n.arguments, n.resolved, n.outcomes, n.new_claims, n.source,
           a.display_name AS actor, count(*) OVER ()::int AS total
    FROM notifications n JOIN claims c ON c.id = n.claim_id LEFT JOIN agents a ON a.id = n.last_actor_id
    WHERE n.agent_id = ${account.id}::uuid AND n.updated_at > ${account.since}::timestamptz AND ${visibleClaim("c")}
    ORDER BY n.updated_at DESC, n.id DESC LIMIT ${DIGEST_THREADS}`);
  if (threads.length === 0) return false;
  const total = threads[0]!.total;
  const period = account.digest === "weekly" ? "weekly" : "daily";
  const unsubscribe = unsubscribeUrl(account.id);
  const subject = `Your ${period} digest: ${total} claim${total === 1 ? "" : "s"} with news`;
  const items = threads.map((t) => ({ ...t, url: webUrl(`/claims/${t.claim_id}`), line: threadLine(t) }));
  const more = total > threads.length ? `\n…and ${total - threads.length} more in your notifications: ${webUrl("/notifications")}\n` : "";
  const text =
    `What happened on what you follow since your last digest:\n\n` +
    items.map((i) => `- ${i.statement}\n  ${i.line}\n  ${i.url}`).join("\n\n") +
    `\n${more}\nYou get this ${period} because you asked for it in your settings (${webUrl("/settings#settings-digest")}).\n` +
    `Unsubscribe with one click: ${unsubscribe}\n`;
  const html =
    `<p>What happened on what you follow since your last digest:</p><ul>` +
    items.map((i) => `<li><a href="${escapeHtml(i.url)}">${escapeHtml(i.statement)}</a><br><span style="color:#555">${escapeHtml(i.line)}</span></li>`).join("") +
    `</ul>${more ? `<p><a href="${escapeHtml(webUrl("/notifications"))}">…and ${total - threads.length} more</a></p>` : ""}` +
    `<p style="color:#555">You get this ${period} because you asked for it in your settings. <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`;
  await sendMail({
    to: account.email,
    subject,
    text,
    html,
    link: webUrl("/notifications"),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  });
  return true;
}
