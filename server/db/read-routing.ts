// Where a read outside a transaction goes when a replica is configured (DATABASE_REPLICA_URL).
//
// Reads go to the replica only inside a request's read-only procedure (a tRPC query) whose caller has
// not written in the last REPLICA_STICKY_SECONDS: read-your-writes. A render of a page Next keeps for
// everyone (a claim, a profile) reads the primary: its copy is served until the next event, so a
// lagging replica's answer would stay on the page until then (docs/features/page-cache.md#the-database-a-kept-page-reads).
// After a successful mutation the
// caller is marked — by agent id, and by client IP for anonymous calls (a registration or login is
// followed by the new agent's first read from the same client) — in the shared cache, so the mark holds
// on every instance. Anything else (mutations, scripts, jobs, identity look-ups) reads the primary.
// The choice is carried across awaits by AsyncLocalStorage (process-wide: Next's bundles share it).
import { AsyncLocalStorage } from "node:async_hooks";
import { cache } from "../cache/index.ts";
import { config } from "../config.ts";
import { processSingleton } from "../process-singleton.ts";

interface ReadRoute {
  replica: boolean;
}

const storage = processSingleton("claims.readRouting", () => new AsyncLocalStorage<ReadRoute>());
/** This instance's own marks (saves a cache round trip for the common case: the same instance). */
const recent = processSingleton("claims.recentWriters", () => new Map<string, number>());

export function replicaConfigured(): boolean {
  return Boolean(config().DATABASE_REPLICA_URL);
}

/** Whether the read being made now may go to the replica. */
export function readFromReplica(): boolean {
  return storage.getStore()?.replica === true;
}

export function withReadRoute<T>(replica: boolean, fn: () => Promise<T>): Promise<T> {
  return storage.run({ replica }, fn);
}

function keysOf(agentId: string | null, ip: string): string[] {
  return agentId ? [`rw:agent:${agentId}`, `rw:ip:${ip}`] : [`rw:ip:${ip}`];
}

/** Who is asking: what decides where a query's reads go. */
export interface QueryCaller {
  agentId: string | null;
  ip: string;
  /** A render of a page kept for every viewer (server/api/web-context.ts sharedRenderContext). */
  keptRender?: boolean;
}

/** Whether a query's reads may go to the replica (only asked when one is configured). */
export async function queryReadsReplica(caller: QueryCaller): Promise<boolean> {
  if (caller.keptRender) return false;
  return !(await wroteRecently(caller.agentId, caller.ip));
}

/** Records that this caller just wrote: its reads go to the primary for REPLICA_STICKY_SECONDS. */
export async function markWrote(agentId: string | null, ip: string): Promise<void> {
  const seconds = config().REPLICA_STICKY_SECONDS;
  const until = Date.now() + seconds * 1000;
  const keys = agentId ? [`rw:agent:${agentId}`] : [`rw:ip:${ip}`];
  for (const k of keys) recent.set(k, until);
  if (recent.size > 10_000) {
    const now = Date.now();
    for (const [k, t] of recent) if (t <= now) recent.delete(k);
  }
  await Promise.all(keys.map((k) => cache().set(k, until, seconds)));
}

/** Whether this caller wrote within REPLICA_STICKY_SECONDS (on any instance). */
export async function wroteRecently(agentId: string | null, ip: string): Promise<boolean> {
  const now = Date.now();
  const keys = keysOf(agentId, ip);
  if (keys.some((k) => (recent.get(k) ?? 0) > now)) return true;
  const marks = await Promise.all(keys.map((k) => cache().get<number>(k)));
  return marks.some((t) => typeof t === "number" && t > now);
}
