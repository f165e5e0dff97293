// Prometheus metrics of this process (prom-client), on one registry per process (server/process-singleton.ts; Next's bundles
// and main.ts share it). Served by server/metrics/server.ts on METRICS_PORT, never on the public port.
//
// Other modules record into the instruments exported here, or register a source read at scrape time:
// the job queue its depth (server/queue/pg-boss.ts), the webhook worker the end of every delivery attempt
// (server/services/webhooks.ts).
import client, { Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton, processSlot } from "../process-singleton.ts";

/**
 * How a delivery attempt ended: delivered (2xx); failed, another attempt scheduled; gave_up, failed
 * with no attempt left; disabled, failed and the endpoint is (now) disabled.
 */
export const WEBHOOK_OUTCOMES = ["delivered", "failed", "gave_up", "disabled"] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];
/** The receiver's answer by class; `none` when there was none (refused, timed out, not sent). */
export const WEBHOOK_STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "none"] as const;
export type WebhookStatusClass = (typeof WEBHOOK_STATUS_CLASSES)[number];

/** Jobs not yet taken by a worker: ready to run now, or scheduled for later (a webhook's next retry). */
export interface QueueDepth {
  ready: number;
  scheduled: number;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route">;
  httpInFlight: Gauge;
  dbPool: Gauge<"pool" | "state">;
  /** Jobs waiting per queue and state (ready, scheduled), from the source registered by the job queue. */
  queueDepth: Gauge<"queue" | "state">;
  /** Webhook delivery attempts by outcome and the receiver's status class. */
  webhookDeliveries: Counter<"outcome" | "status_class">;
  /** Reads sent to the replica or, for read-your-writes or without one, the primary. */
  dbReads: Counter<"target">;
}

type PoolSource = () => Record<string, PoolStats>;
type QueueSource = () => Promise<Record<string, QueueDepth>>;

const poolSource = processSlot<PoolSource>("claims.metricsPoolSource");
const queueSource = processSlot<QueueSource>("claims.metricsQueueSource");

function create(): Metrics {
  const registry = new Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "claims_" });
  const httpRequests = new Counter({
    name: "claims_http_requests_total",
    help: "HTTP requests answered, by method, route (template) and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "claims_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its response, by method and route",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpInFlight = new Gauge({
    name: "claims_http_requests_in_flight",
    help: "Requests being handled",
    registers: [registry],
  });
  const dbPool = new Gauge({
    name: "claims_db_pool_connections",
    help: "Database pool connections by pool (primary, jobs, replica) and state (total, idle, waiting = clients queued for one)",
    labelNames: ["pool", "state"] as const,
    registers: [registry],
    collect() {
      const pools = poolSource.get()?.() ?? {};
      for (const [pool, s] of Object.entries(pools)) {
        this.set({ pool, state: "total" }, s.total);
        this.set({ pool, state: "idle" }, s.idle);
        this.set({ pool, state: "waiting" }, s.waiting);
      }
    },
  });
  const queueDepth = new Gauge({
    name: "claims_job_queue_depth",
    help: "Jobs not yet taken by a worker, by queue and state (ready = due now, scheduled = due later)",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      const source = queueSource.get();
      if (!source) return;
      let depths: Record<string, QueueDepth>;
      try {
        depths = await source();
      } catch {
        // The database is unreachable: the scrape still answers (readiness reports the database).
        return;
      }
      for (const [queue, depth] of Object.entries(depths)) {
        this.set({ queue, state: "ready" }, depth.ready);
        this.set({ queue, state: "scheduled" }, depth.scheduled);
      }
    },
  });
  const webhookDeliveries = new Counter({
    name: "claims_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome (delivered; failed = will retry; gave_up = no attempt left; disabled = endpoint disabled) and the receiver's status class",
    labelNames: ["outcome", "status_class"] as const,
    registers: [registry],
  });
  // Every possible series from the start, so that rates and alerts see a 0 before the first increment.
  webhookDeliveries.inc({ outcome: "delivered", status_class: "2xx" }, 0);
  for (const outcome of WEBHOOK_OUTCOMES.filter((o) => o !== "delivered")) {
    for (const status_class of WEBHOOK_STATUS_CLASSES.filter((c) => c !== "2xx")) webhookDeliveries.inc({ outcome, status_class }, 0);
  }
  const dbReads = new Counter({
    name: "claims_db_reads_total",
    help: "Reads outside transactions by where they went (replica, primary)",
    labelNames: ["target"] as const,
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration, httpInFlight, dbPool, queueDepth, webhookDeliveries, dbReads };
}

/** The instruments of this process. */
export function metrics(): Metrics {
  return processSingleton("claims.metrics", create);
}

/** The database module tells where its pool counts come from (read at scrape time). */
export function setPoolStatsSource(source: PoolSource | undefined): void {
  poolSource.set(source);
}

/** The job queue tells how to count waiting jobs (read at scrape time). */
export function setQueueDepthSource(source: QueueSource | undefined): void {
  queueSource.set(source);
}

export function statusClassOf(status: number | null): WebhookStatusClass {
  if (status === null || status < 200 || status >= 600) return "none";
  return `${Math.floor(status / 100)}xx` as WebhookStatusClass;
}

/** One delivery attempt ended (recorded once, by the worker that recorded it in the delivery log). */
export function recordWebhookOutcome(outcome: WebhookOutcome, status: number | null): void {
  metrics().webhookDeliveries.inc({ outcome, status_class: statusClassOf(status) });
}

/** The exposition text and its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
