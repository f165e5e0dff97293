// End-to-end webhook latency: from a vote being acknowledged to the subscriber's endpoint being
// called (outbox → relay → fan-out job → delivery job → HTTP POST), at a steady rate (default
// 100 votes/s, open loop: a slow answer does not slow the sending). One agent follows a set of claims
// with a webhook to a local receiver; distinct voters vote on them, each (voter, claim) once, so a
// delivery's (actor_id, claim.id) names the vote it reports. Target: p99 < 2 s.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Fixtures } from "./endpoints.ts";
import { log } from "./log.ts";
import type { Server } from "./orchestration.ts";

export const WEBHOOK_LATENCY = "webhook-latency";
export const WEBHOOK_P99_TARGET_MS = 2000;
const FOLLOWED_CLAIMS = 50;
/** How long to wait for the last deliveries after the last vote. */
const GRACE_MS = 30_000;

export interface LatencyFigures {
  rate: number;
  seconds: number;
  votes: number;
  acknowledged: number;
  delivered: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
  met: boolean;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function api(server: Server, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Needs our server started with WEBHOOK_ALLOW_PRIVATE=1 (the receiver is on 127.0.0.1). */
export async function measureWebhookLatency(server: Server, f: Fixtures, opts: { rate: number; seconds: number }): Promise<LatencyFigures> {
  const arrivals = new Map<string, number>();
  const receiver: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (event.type === "claim.voted") {
          const key = `${event.data.actor_id}|${event.data.claim.id}`;
          if (!arrivals.has(key)) arrivals.set(key, at);
        }
      } catch {
        // not ours
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const [owner, ...voters] = f.voters;
    // Claims nobody else follows: the time measured is the pipeline's, not a big fan-out's.
    const hot = new Set(f.hotClaims);
    const claims = f.claims.filter((id) => !hot.has(id)).slice(0, FOLLOWED_CLAIMS);
    for (const id of claims) {
      const r = await api(server, "POST", `/claims/${id}/follow`, owner.token);
      if (r.status !== 200) throw new Error(`follow: ${r.status} ${r.text}`);
    }
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await api(server, "POST", "/webhooks", owner.token, { url, events: ["claim.voted"] });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`);

    const total = Math.round(opts.rate * opts.seconds);
    const acknowledged = new Map<string, number>();
    const sends: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      // Each (voter, claim) once: voters first, then the next claim.
      const voter = voters[i % voters.length];
      const claim = claims[Math.floor(i / voters.length) % claims.length];
      const due = started + (i * 1000) / opts.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends.push(
        api(server, "POST", `/claims/${claim}/vote`, voter.token, { value: (i % 101) / 100 })
          .then((r) => {
            if (r.status === 200) acknowledged.set(`${voter.id}|${claim}`, performance.now());
          })
          .catch(() => {}),
      );
    }
    await Promise.all(sends);
    const until = performance.now() + GRACE_MS;
    while (performance.now() < until && [...acknowledged.keys()].some((k) => !arrivals.has(k))) await new Promise((r) => setTimeout(r, 100));

    const latencies = [...acknowledged]
      .filter(([k]) => arrivals.has(k))
      .map(([k, at]) => Math.max(0, arrivals.get(k)! - at))
      .sort((a, b) => a - b);
    const round = (n: number | null) => (n === null ? null : Math.round(n));
    const p99 = round(percentile(latencies, 99));
    const figures: LatencyFigures = {
      rate: opts.rate,
      seconds: opts.seconds,
      votes: total,
      acknowledged: acknowledged.size,
      delivered: latencies.length,
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99,
      max: round(latencies.at(-1) ?? null),
      met: p99 !== null && p99 < WEBHOOK_P99_TARGET_MS && latencies.length === acknowledged.size,
    };
    log(
      `webhook latency at ${opts.rate} votes/s for ${opts.seconds} s: ${figures.delivered}/${figures.acknowledged} delivered, ` +
        `p50 ${figures.p50} ms, p90 ${figures.p90} ms, p99 ${figures.p99} ms, max ${figures.max} ms`,
    );
    return figures;
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
