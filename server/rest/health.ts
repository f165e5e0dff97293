// Liveness and readiness for load balancers and orchestrators (GET /api/v1/health/live and /ready).
// Live: the process answers (no dependency is touched, so a database outage never gets it restarted).
// Ready: the database answers (after the migrations), the replica when one is configured, and Redis when
// REDIS_URL is set; otherwise 503, so the balancer sends traffic elsewhere. A readiness answer is
// reused for a second, so a storm of probes costs at most one database round trip a second.
import type IORedis from "ioredis";
import { config } from "../config.ts";
import { dbReady, pingDatabases } from "../db/client.ts";
import { closeRedis, openRedis, redisReady } from "../store/redis.ts";
import { throttledLogger } from "../store/throttled-log.ts";
import { log } from "../log/logger.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

type Check = "ok" | "failed" | "not_configured";

export interface HealthAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

const CHECK_TIMEOUT_MS = 2000;
const REUSE_MS = 1000;

export function liveness(): HealthAnswer {
  return { status: 200, body: { status: "ok" } };
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const healthRedis = processSlot<IORedis>("claims.healthRedis");
const lastReadiness = processSlot<{ at: number; answer: Promise<HealthAnswer> }>("claims.readiness");

const warn = throttledLogger("health", (msg, err) => log().warn({ detail: err instanceof Error ? err.message : String(err ?? "") }, msg));

async function checkRedis(url: string | undefined): Promise<Check> {
  if (!url) return "not_configured";
  const client = processSingleton("claims.healthRedis", () => openRedis(url, CHECK_TIMEOUT_MS, warn));
  try {
    await redisReady(client, CHECK_TIMEOUT_MS);
    await within(client.ping(), CHECK_TIMEOUT_MS);
    return "ok";
  } catch (err) {
    warn("redis not ready", err);
    return "failed";
  }
}

async function checkDatabases(): Promise<{ database: Check; replica: Check }> {
  try {
    await within(dbReady(), CHECK_TIMEOUT_MS);
    return await within(pingDatabases(), CHECK_TIMEOUT_MS);
  } catch (err) {
    warn("database not ready", err);
    return { database: "failed", replica: config().DATABASE_REPLICA_URL ? "failed" : "not_configured" };
  }
}

async function probe(): Promise<HealthAnswer> {
  const [{ database, replica }, redis] = await Promise.all([checkDatabases(), checkRedis(config().REDIS_URL)]);
  const checks = { database, replica, redis };
  const ready = Object.values(checks).every((c) => c !== "failed");
  return { status: ready ? 200 : 503, body: { status: ready ? "ready" : "not_ready", checks } };
}

export function readiness(): Promise<HealthAnswer> {
  const cached = lastReadiness.get();
  const now = performance.now();
  if (cached && now - cached.at < REUSE_MS) return cached.answer;
  const answer = probe();
  lastReadiness.set({ at: now, answer });
  return answer;
}

export async function closeHealthChecks(): Promise<void> {
  const c = healthRedis.take();
  lastReadiness.take();
  if (c) await closeRedis(c);
}
