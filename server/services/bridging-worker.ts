// The bridging fit off the API's event loop. The worker thread lowers its own scheduling priority
// (BRIDGING_WORKER_NICE; on Linux a thread has its own nice value), so the API's threads run first; then it
// reads the votes itself on PostgreSQL (a connection of its own: the API's pool never carries them)
// or receives them as typed arrays (PGlite, whose one connection is the main thread's; transferred,
// not copied), fits the model and transfers the parameters back.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { fitBridging, type BridgingOptions, type VoteMatrix } from "../domain/bridging.ts";
import { yieldPauseMs } from "../domain/yielding.ts";
import { streamVotesFromPostgres } from "../db/vote-stream.ts";
import type { FitSource } from "./bridging-fit.ts";

parentPort?.on("message", async (msg: { source: FitSource; options?: Partial<BridgingOptions>; nice: number; busy?: Float64Array }) => {
  if (process.platform === "linux" && msg.nice > 0) {
    try {
      setPriority(msg.nice);
    } catch {
      // not allowed here: run at the API's priority
    }
  }
  try {
    const started = performance.now();
    // In the background the read yields to the API after each batch, by how busy the main thread is.
    const busy = msg.busy;
    const pace = busy ? (tookMs: number) => new Promise<void>((r) => setTimeout(r, yieldPauseMs(tookMs, busy[0]))) : undefined;
    const snapshot = "postgres" in msg.source ? await streamVotesFromPostgres(msg.source.postgres, undefined, pace) : msg.source.snapshot;
    const readMs = performance.now() - started;
    const matrix: VoteMatrix = snapshot.matrix;
    const fit = fitBridging(matrix, msg.options);
    parentPort!.postMessage(
      { ok: true, fit, claimIds: snapshot.claimIds, agentIds: snapshot.agentIds, votes: matrix.length, readMs },
      [
        fit.agentIntercept.buffer,
        fit.agentFactor.buffer,
        fit.claimIntercept.buffer,
        fit.claimFactor.buffer,
        fit.agentVotes.buffer,
        fit.claimVotes.buffer,
      ] as ArrayBuffer[],
    );
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort?.postMessage("ready");
