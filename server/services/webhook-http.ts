// One webhook HTTP attempt: POST, 10 seconds at most, redirects never followed (a 3xx is a failure),
// and the address checked on the connection itself: request-filtering-agent validates the address the
// socket actually connects to (after DNS), so a name that resolved to a public address at registration
// and to 127.0.0.1 now (DNS rebinding) is refused here. WEBHOOK_ALLOW_PRIVATE=1 lifts the check.
import http from "node:http";
import https from "node:https";
import { NOT_PUBLIC } from "../domain/webhook-url.ts";
import { publicOnlyAgent } from "../outbound/public-agent.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is kept of a failure's response body or error in the delivery log. */
const ERROR_MAX = 300;

export interface AttemptResult {
  status: number | null;
  durationMs: number;
  error?: string;
}

/** getaddrinfo's failures: the name does not resolve (now). */
const DNS_FAILURES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "ENODATA"]);
/** What the delivery log says of a refused or unresolvable host; "not allowed" as the agent's own refusal says. */
export const HOST_REFUSED = `connection not allowed: the host ${NOT_PUBLIC}`;

/**
 * An attempt's error as the delivery log keeps it. A host that does not resolve and one refused for
 * its address read alike, and the address is never named (docs/security.md#webhook-addresses): a
 * public name turned into an alias of an internal one after registration would otherwise learn from
 * the log which internal names exist and what they resolve to.
 */
function attemptError(err: NodeJS.ErrnoException, allowPrivate: boolean): string {
  if (!allowPrivate && (DNS_FAILURES.has(err.code ?? "") || /^DNS lookup .* is not allowed/.test(err.message))) return HOST_REFUSED;
  return err.message.slice(0, ERROR_MAX);
}

export function postWebhook({
  url: rawUrl,
  body,
  headers,
  allowPrivate,
}: {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** WEBHOOK_ALLOW_PRIVATE: a private or loopback address may be reached. */
  allowPrivate: boolean;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      resolve({ status: null, durationMs: 0, error: "invalid URL" });
      return;
    }
    const send = url.protocol === "https:" ? https.request : http.request;
    const post = (fresh: boolean) => {
      const req = send(
        url,
        {
          method: "POST",
          agent: publicOnlyAgent(url.protocol, allowPrivate),
          headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "claims-webhooks/1" },
          timeout: DELIVERY_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            if (size < ERROR_MAX) chunks.push(c);
            size += c.length;
          });
          res.on("end", () => {
            const status = res.statusCode ?? null;
            const ok = status !== null && status >= 200 && status < 300;
            const text = Buffer.concat(chunks).toString("utf8").slice(0, ERROR_MAX);
            const redirect = status !== null && status >= 300 && status < 400 ? ` (redirect to ${res.headers.location ?? "?"} not followed)` : "";
            resolve({ status, durationMs: elapsed(), error: ok ? undefined : `HTTP ${status}${redirect}${text ? `: ${text}` : ""}` });
          });
          res.on("error", (err) => resolve({ status: res.statusCode ?? null, durationMs: elapsed(), error: err.message }));
        },
      );
      // The whole attempt, not only socket idleness, is bounded by the timeout.
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)), DELIVERY_TIMEOUT_MS);
      req.on("timeout", () => req.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)));
      req.on("error", (err: NodeJS.ErrnoException) => {
        clearTimeout(deadline);
        // A kept-alive connection the receiver closed while idle fails before it carries anything: sent
        // again at once on a fresh one (Node's documented pattern), not counted as the endpoint's failure.
        if (!fresh && req.reusedSocket && err.code === "ECONNRESET") post(true);
        else resolve({ status: null, durationMs: elapsed(), error: attemptError(err, allowPrivate) });
      });
      req.on("close", () => clearTimeout(deadline));
      req.end(body);
    };
    post(false);
  });
}
