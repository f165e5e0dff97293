// Outgoing mail (docs/features/accounts.md). With SMTP_URL, through that server with nodemailer.
// Without it, outside production, each mail is written to DATA_DIR/mail/ and its link logged, so
// `npm run dev` needs no mail server; in production the mail endpoints refuse with 503 rather than
// pretend a mail went out.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config.ts";
import { AppError } from "../errors.ts";
import { log } from "../log/logger.ts";

export const MAIL_NOT_CONFIGURED = "Mail is not configured";
export const MAIL_NOT_SENT = "The mail could not be sent; try again later";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail is about: logged when mails go to files (development). */
  link: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) of the digest. */
  headers?: Record<string, string>;
}

type Delivery = { kind: "smtp"; transport: Transporter } | { kind: "files"; dir: string } | { kind: "none" };

let cached: { url: string | undefined; delivery: Delivery } | undefined;

function delivery(): Delivery {
  const cfg = config();
  if (cached && cached.url === cfg.SMTP_URL) return cached.delivery;
  const chosen: Delivery = cfg.SMTP_URL
    ? { kind: "smtp", transport: nodemailer.createTransport(cfg.SMTP_URL) }
    : cfg.NODE_ENV === "production"
      ? { kind: "none" }
      : { kind: "files", dir: path.join(/*turbopackIgnore: true*/ cfg.DATA_DIR, "mail") };
  cached = { url: cfg.SMTP_URL, delivery: chosen };
  return chosen;
}

/** Whether mail can go out at all (SMTP, or files outside production). */
export function mailAvailable(): boolean {
  return delivery().kind !== "none";
}

/** 503 `Mail is not configured` when no mail can go out: checked before any work is done. */
export function assertMailAvailable(): void {
  if (delivery().kind === "none") throw new AppError("mail_not_configured", MAIL_NOT_CONFIGURED);
}

/** The web UI's absolute URL for `pathAndQuery` (mailed links). */
export function webUrl(pathAndQuery: string): string {
  const cfg = config();
  const origin = cfg.NEXTAUTH_URL ? new URL(cfg.NEXTAUTH_URL).origin : `http://localhost:${cfg.PORT}`;
  return `${origin}${pathAndQuery}`;
}

function fromAddress(): string {
  const cfg = config();
  if (cfg.MAIL_FROM) return cfg.MAIL_FROM;
  const host = cfg.NEXTAUTH_URL ? new URL(cfg.NEXTAUTH_URL).hostname : "localhost";
  return `Claims <no-reply@${host}>`;
}

/** Sends one mail; a failure of the SMTP server is a 503 with a clean detail (and is logged). */
export async function sendMail(mail: Mail): Promise<void> {
  const how = delivery();
  if (how.kind === "none") throw new AppError("mail_not_configured", MAIL_NOT_CONFIGURED);
  const message = { from: fromAddress(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.headers ? { headers: mail.headers } : {}) };
  if (how.kind === "files") {
    await mkdir(how.dir, { recursive: true });
    const file = path.join(how.dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.subject.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}.txt`);
    const extra = Object.entries(mail.headers ?? {}).map(([name, value]) => `${name}: ${value}\n`).join("");
    await writeFile(file, `From: ${message.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n${extra}\n${mail.text}\n`, { mode: 0o600 });
    log().info({ file }, `[mail] "${mail.subject}" to ${mail.to} (no SMTP_URL, written to a file): ${mail.link}`);
    return;
  }
  try {
    await how.transport.sendMail(message);
  } catch (err) {
    log().error({ err: (err as Error).message }, "[mail] sending failed");
    throw new AppError("mail_not_sent", MAIL_NOT_SENT);
  }
}
