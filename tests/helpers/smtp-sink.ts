// A real SMTP server for tests (the `smtp-server` package), started in-process: the app sends through
// SMTP_URL exactly as in production, and each message is parsed (`mailparser`) and kept for the test
// to read — no mocked transport. `linkIn` finds the mailed link the way a person would: in the text.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every header as sent, by its lower-case name (the raw value, unfolded). */
  headers: Record<string, string>;
  at: number;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /**
   * The first mail to `to` (received at or after `since`, ms, and after the mail `after` in order of
   * arrival) whose subject matches; waits up to timeoutMs. `after` is exact where two mails to one
   * address may land within the same millisecond.
   */
  waitForMail(to: string, opts?: { subject?: RegExp; since?: number; after?: ReceivedMail; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** The first http(s) link in a mail's text that contains `path` (e.g. "/reset-password"). */
export function linkIn(mail: ReceivedMail, path: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(path));
  if (!link) throw new Error(`no ${path} link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** The `token` query parameter of the mail's link to `path`. */
export function tokenIn(mail: ReceivedMail, path: string): string {
  const token = new URL(linkIn(mail, path)).searchParams.get("token");
  if (!token) throw new Error(`the ${path} link carries no token`);
  return token;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: parsed.from?.text ?? "",
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            headers: Object.fromEntries(parsed.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(":") + 1).replace(/\r?\n\s+/g, " ").trim()])),
            at: Date.now(),
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    mails,
    async waitForMail(to, opts = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
      const wanted = to.toLowerCase();
      for (;;) {
        const from = opts.after ? mails.indexOf(opts.after) + 1 : 0;
        const found = mails.slice(from).find((m) => m.to.includes(wanted) && m.at >= (opts.since ?? 0) && (!opts.subject || opts.subject.test(m.subject)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to}${opts.subject ? ` matching ${opts.subject}` : ""} (received: ${mails.map((m) => `${m.to.join(",")}: ${m.subject}`).join("; ") || "none"})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sign-up mails a verification link on its own, after its answer. Before asking for another link, wait
 * for that mail (or give up after a few seconds: no mail at sign-up), so that the link asked for next is
 * the newest: the moment to read newer mail from.
 */
export async function afterSignUpMail(smtp: SmtpSink, email: string): Promise<number> {
  await smtp.waitForMail(email, { subject: /Verify your email/, timeoutMs: 5_000 }).catch(() => undefined);
  const since = Date.now() + 1;
  await new Promise((r) => setTimeout(r, 2));
  return since;
}
