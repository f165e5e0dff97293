// The live channel of a claim page over Server-Sent Events (docs/features/following.md#live-claim-pages):
// GET /api/live/claims/{id} streams `event: <type>` / `data: {claim_id, type, event_id}` for every
// event the outbox relay publishes on that claim (server/queue/live.ts: PostgreSQL NOTIFY, Redis pub/sub
// or in-process), a comment line every LIVE_HEARTBEAT_MS so proxies keep the connection open, and
// nothing else: the page refetches what it shows. The same guards as every way in: the node-level guard
// has run (client IP), one unit of the caller's API budget per connection (charged at the door), and at
// most LIVE_STREAMS_PER_IP open streams per client IP in this instance.
import "server-only";
import { clientKey } from "../ratelimit/client-key.ts";
import { config } from "../config.ts";
import { AppError } from "../errors.ts";
import { errorAnswer, errorBodyOf, toResponse } from "../door/answers.ts";
import { chargeLiveStream } from "../door/budgets.ts";
import { onClaimEvent, type LiveEvent } from "../queue/live.ts";
import { assertClaimExists } from "../services/claims.ts";
import { callErrorBody } from "./trpc.ts";
import { createWebContext } from "./web-context.ts";
import { processSingleton } from "../process-singleton.ts";

/** What a browser waits before reconnecting after the stream drops (the SSE `retry:` field). */
const RECONNECT_MS = 3000;

/** When a client with all its streams open may try again. */
const STREAM_RETRY_AFTER_SECONDS = 30;

/** Open streams per client IP in this process (Next's bundles and the custom server share it). */
const openStreams = () => processSingleton("claims.liveStreams", () => new Map<string, number>());

/** The number of live streams open in this process (tests, diagnostics). */
export function openLiveStreams(): number {
  let n = 0;
  for (const count of openStreams().values()) n += count;
  return n;
}

function frame(e: LiveEvent): string {
  // Types and ids are ours (no newlines); JSON never contains a raw newline.
  return `id: ${e.event_id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

export async function handleLiveStream(request: Request, claimId: string): Promise<Response> {
  const ctx = await createWebContext(request.headers);
  const charged = await chargeLiveStream(ctx);
  if (charged.refused) return toResponse(charged.refused);
  try {
    await assertClaimExists(claimId);
  } catch (err) {
    if (err instanceof AppError) return toResponse(errorAnswer(callErrorBody(err, { log: "[live] claim check failed" })));
    throw err;
  }

  const { LIVE_STREAMS_PER_IP, LIVE_HEARTBEAT_MS, RATE_LIMIT_IPV6_PREFIX } = config();
  const streams = openStreams();
  // Counted per client as the rate limits count them (an IPv6 client by its prefix).
  const client = clientKey(ctx.ip, RATE_LIMIT_IPV6_PREFIX);
  const open = streams.get(client) ?? 0;
  if (open >= LIVE_STREAMS_PER_IP) {
    const tooMany = errorBodyOf("rate_limited", `Too many live streams open from this address (at most ${LIVE_STREAMS_PER_IP})`);
    return toResponse(errorAnswer(tooMany, { headers: { "Retry-After": String(STREAM_RETRY_AFTER_SECONDS) } }));
  }
  streams.set(client, open + 1);

  const encoder = new TextEncoder();
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          release();
        }
      };
      const stopListening = onClaimEvent(claimId, (e) => send(frame(e)));
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), LIVE_HEARTBEAT_MS);
      heartbeat.unref?.();
      release = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        stopListening();
        const left = (streams.get(client) ?? 1) - 1;
        if (left > 0) streams.set(client, left);
        else streams.delete(client);
        request.signal.removeEventListener("abort", release);
        try {
          controller.close();
        } catch {
          // already closed or errored by the consumer
        }
      };
      request.signal.addEventListener("abort", release);
      if (request.signal.aborted) return release();
      send(`retry: ${RECONNECT_MS}\n: connected\n\n`);
    },
    cancel() {
      release();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: compression would buffer the stream.
      "Cache-Control": "no-cache, no-store, no-transform",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
