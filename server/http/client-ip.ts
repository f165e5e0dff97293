// The one rule for "which IP is this client" (rate limits, auth brute-force limits), for every way in
// (REST, /api/trpc, /api/auth, pages) and every way the app starts (`npm start`, `next start`, `next dev`).
//
// Without TRUST_PROXY it is the socket's peer, whatever the headers say. With TRUST_PROXY=N (N proxies
// of ours in front, each appending the address it saw) it is the N-th address from the RIGHT of
// X-Forwarded-For: the one our outermost proxy wrote. Everything left of it is whatever the client sent,
// so the leftmost hop would let a client pick a fresh IP per request.
//
// Under Next the socket is out of reach (a route handler gets a Web Request, and Next keeps a client-sent
// X-Forwarded-For), so the decision is taken at the node:http level — server/http/guard.ts, which
// main.ts and, under `next start`/`next dev`, instrumentation.ts run on every request — and handed on
// in a header sealed with a per-process secret: a client cannot forge it.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { config } from "../config.ts";
import { log } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

function hops(forwardedFor: string | string[] | null | undefined): string[] {
  const raw = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  return raw
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
}

/** The client IP from the X-Forwarded-For received, the socket's peer and the number of trusted hops. */
export function clientIpOf(forwardedFor: string | string[] | null | undefined, peer: string | undefined, trustedHops: number): string {
  if (trustedHops > 0) {
    const list = hops(forwardedFor);
    // Fewer hops than trusted proxies: the request did not come through them all; only the peer is sure.
    if (list.length >= trustedHops) return list[list.length - trustedHops];
  }
  return peer || "unknown";
}

/** The header carrying the decided client IP from the node:http level to Next's route handlers and pages. */
export const CLIENT_IP_HEADER = "x-claims-client-ip";

// One per process, shared by main.ts and Next's bundles.
const seal = () => processSingleton("claims.clientIpSeal", () => randomBytes(18).toString("base64url"));

/** The value of CLIENT_IP_HEADER recording `ip` (only this process can make one). */
export function sealedClientIp(ip: string): string {
  return `${seal()} ${ip}`;
}

/** Decides the client IP of a node request and records it on the request (overwriting anything the client sent). */
export function stampClientIp(req: IncomingMessage, trustedHops: number): string {
  const ip = clientIpOf(req.headers["x-forwarded-for"], req.socket?.remoteAddress, trustedHops);
  req.headers[CLIENT_IP_HEADER] = sealedClientIp(ip);
  return ip;
}

let warnedUnsealed = false;

/**
 * The client IP the node:http level recorded, read from a Web request's headers (route handlers, server
 * components). Without a genuine stamp nothing here is trustworthy: "unknown" (all such callers share
 * one budget), and a warning, because it means the node-level guard did not run.
 */
export function clientIpFromHeaders(headers: Headers | Record<string, unknown> | undefined): string {
  const raw = headers instanceof Headers ? headers.get(CLIENT_IP_HEADER) : headers?.[CLIENT_IP_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value === "string") {
    const space = value.indexOf(" ");
    if (space > 0 && value.slice(0, space) === seal()) return value.slice(space + 1);
  }
  if (!warnedUnsealed && headers && config().NODE_ENV !== "test") {
    warnedUnsealed = true;
    log().warn("[client-ip] a request reached Next without the node-level guard (server/http/guard.ts); its client IP is unknown");
  }
  return "unknown";
}
