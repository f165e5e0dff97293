// Runs one bridging fit in a worker thread (server/services/bridging-worker.ts) so the API's event loop
// keeps serving while ≈1M votes are read and fitted. The worker is started per fit and ended after it: a fit
// runs every few minutes at most, and an idle thread would hold its heap for nothing.
import { existsSync } from "node:fs";
import { performance as perf } from "node:perf_hooks";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { fitBridging, type BridgingFit, type BridgingOptions } from "../domain/bridging.ts";
import { streamVotesFromPostgres, type VoteSnapshot } from "../db/vote-stream.ts";

/** Where the votes come from: read by the fit itself on PostgreSQL (this URL), or already read (PGlite). */
export type FitSource = { postgres: string } | { snapshot: VoteSnapshot };

export interface FitResult {
  fit: BridgingFit;
  claimIds: string[];
  agentIds: string[];
  votes: number;
  readMs: number;
}

/**
 * The worker's source. Looked up from the working directory first: under `next start`/`next dev` this
 * module is bundled and its own URL points into .next, where no .ts source is.
 */
function workerPath(): string {
  const fromCwd = path.resolve(process.cwd(), "server/services/bridging-worker.ts");
  return existsSync(fromCwd) ? fromCwd : new URL("./bridging-worker.ts", import.meta.url).pathname;
}

/**
 * The worker's old generation, in MB: its code, plus the claim and agent ids it holds while it reads
 * (on PostgreSQL; ≈200 bytes each with their Map entries, generously). A read churns through a
 * million rows of short-lived strings, and V8, left to itself, lets the heap grow well past what stays
 * alive before it collects (≈80 MB for 1M votes); a cap sized to the live data makes it collect
 * instead (docs/benchmarks/2026-11-23-bridging-1m.md: 290 → 230 MB peak RSS at 1M votes).
 */
/**
 * Below this cap a worker cannot even start: Node 24's isolate dies while deserialising its start-up
 * snapshot, a fatal error that takes the whole process with it instead of the catchable
 * ERR_WORKER_OUT_OF_MEMORY that the retry below handles.
 */
const MIN_WORKER_OLD_GENERATION_MB = 8;

export function workerOldGenerationMb(ids: number): number {
  return 32 + Math.ceil((ids * 200) / 2 ** 20);
}

/**
 * How busy this process's event loop is (its utilisation, smoothed over ≈1 s), in shared memory so that
 * the fit's worker thread can read it too. Sampled 4 times a second until stopped.
 */
export class EventLoopGauge {
  readonly shared = new Float64Array(new SharedArrayBuffer(8));
  private last = perf.eventLoopUtilization();
  private readonly timer = setInterval(() => {
    const now = perf.eventLoopUtilization();
    this.shared[0] = 0.5 * this.shared[0] + 0.5 * perf.eventLoopUtilization(now, this.last).utilization;
    this.last = now;
  }, 250).unref();

  get busy(): number {
    return this.shared[0];
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface FitThreadOptions {
  options?: Partial<BridgingOptions>;
  /** Read and fit on the calling thread (tests). */
  inline?: boolean;
  /** The worker thread's nice value (Linux; 0 = the caller's priority). */
  nice?: number;
  /** Set in the background: the worker's read yields to the API by it (domain/yielding.ts). */
  busy?: Float64Array;
  /** The worker's old-generation cap (workerOldGenerationMb); none: V8's default. */
  oldGenerationMb?: number;
}

/** Reads (on PostgreSQL) and fits in a worker thread, or `inline` on the calling thread. */
export async function fitOffThread(source: FitSource, thread: FitThreadOptions = {}): Promise<FitResult> {
  const { options = {}, nice = 0 } = thread;
  if (thread.inline) {
    const started = performance.now();
    const snapshot = "postgres" in source ? await streamVotesFromPostgres(source.postgres) : source.snapshot;
    const readMs = performance.now() - started;
    return { fit: fitBridging(snapshot.matrix, options), claimIds: snapshot.claimIds, agentIds: snapshot.agentIds, votes: snapshot.matrix.length, readMs };
  }
  const { oldGenerationMb } = thread;
  try {
    return await runWorker(source, { options, nice, oldGenerationMb, busy: thread.busy });
  } catch (err) {
    // Sized too small after all (the counts are read before the votes): once more, uncapped.
    if (oldGenerationMb === undefined || (err as { code?: string }).code !== "ERR_WORKER_OUT_OF_MEMORY") throw err;
    return runWorker(source, { options, nice, busy: thread.busy });
  }
}

async function runWorker(
  source: FitSource,
  { options, nice, oldGenerationMb, busy }: Omit<FitThreadOptions, "inline"> & { options: Partial<BridgingOptions>; nice: number },
): Promise<FitResult> {
  // The worker source is TypeScript: a small bootstrap registers tsx's require hook in the worker first
  // (however this process was started: tsx, vitest or Next), then loads it. The CommonJS hook, not the
  // ESM loader: that one runs its hooks on a thread of their own, ≈15 MB more for the fit to carry.
  const tsxPackage = createRequire(path.join(process.cwd(), "package.json")).resolve("tsx/package.json");
  const tsxApi = path.join(path.dirname(tsxPackage), "dist/cjs/api/index.cjs");
  const bootstrap = `require(${JSON.stringify(tsxApi)}).register(); require(${JSON.stringify(workerPath())});`;
  // A small young generation: the read makes short-lived rows by the million, and V8 would otherwise
  // grow its nursery (and the RSS) to keep up with them; scavenging more often costs little here.
  const worker = new Worker(bootstrap, {
    eval: true,
    resourceLimits: {
      maxYoungGenerationSizeMb: 6,
      ...(oldGenerationMb ? { maxOldGenerationSizeMb: Math.max(oldGenerationMb, MIN_WORKER_OLD_GENERATION_MB) } : {}),
    },
  });
  try {
    return await new Promise<FitResult>((resolve, reject) => {
      worker.on("message", (msg: "ready" | ({ ok: true } & FitResult) | { ok: false; error: string }) => {
        if (msg === "ready") {
          const transfer = "snapshot" in source ? [source.snapshot.matrix.claimIdx.buffer, source.snapshot.matrix.agentIdx.buffer, source.snapshot.matrix.value.buffer] : [];
          worker.postMessage({ source, options, nice, busy }, transfer as ArrayBuffer[]);
        } else if (msg.ok) resolve({ fit: msg.fit, claimIds: msg.claimIds, agentIds: msg.agentIds, votes: msg.votes, readMs: msg.readMs });
        else reject(new Error(`bridging fit failed: ${msg.error}`));
      });
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`bridging worker exited with code ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}
