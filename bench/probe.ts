// Preloaded into both servers by the benchmark (`node --import tsx --import ./bench/probe.ts`) and
// driven by the harness over the IPC channel:
// - counts the statements sent to PostgreSQL through `pg` (Prisma's driver adapter uses it too,
//   transactions' BEGIN/COMMIT included), the HTTP requests received and the responses finished — one
//   increment each — so the harness can report queries and CPU time per request as the server saw
//   them, and wait until the server has finished what a run left in flight;
// - starts and stops a V8 CPU profile on request, so a profile covers exactly one measured run
//   (not start-up, module compilation or the other endpoints);
// - samples the process's memory ten times a second and keeps the breakdown at the highest RSS seen,
//   so the report can say where the peak went (V8's heap, buffers, the rest).
import { writeFileSync } from "node:fs";
import { Server, ServerResponse } from "node:http";
import { Session } from "node:inspector";
import { getHeapSpaceStatistics } from "node:v8";
import { statementsSent } from "./pg-statements.ts";

let requests = 0;
let closed = 0;
let responses = 0;
const emit = Server.prototype.emit as (event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function countedEmit(this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === "request") {
    requests++;
    // 'close' comes when the response is sent or the client has gone: either way, nothing is pending.
    (args[1] as ServerResponse).once("close", () => closed++);
  }
  return emit.call(this, event, ...args);
} as typeof Server.prototype.emit;
const end = ServerResponse.prototype.end as (...args: unknown[]) => ServerResponse;
ServerResponse.prototype.end = function countedEnd(this: ServerResponse, ...args: unknown[]) {
  if (!this.writableEnded) responses++;
  return end.apply(this, args);
} as typeof ServerResponse.prototype.end;

let session: Session | null = null;
const post = (method: string, params?: object) =>
  new Promise<any>((resolve, reject) => session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));

/** process.memoryUsage() at the highest RSS sampled so far. */
let memoryAtPeak: NodeJS.MemoryUsage = process.memoryUsage();
setInterval(() => {
  const now = process.memoryUsage();
  if (now.rss > memoryAtPeak.rss) {
    memoryAtPeak = now;
    heapProfileAtPeak(now.rss);
  }
}, 100).unref();

// BENCH_HEAP_PROFILE=<file> npm run bench …: V8's sampling heap profiler runs from the start (one sample
// per 128 KB allocated, what is still alive), and its profile is written to <file> at each new peak of
// RSS 8 MB above the last one written (at most every 2 s): open it in Chrome DevTools (Memory tab).
const HEAP_PROFILE_FILE = process.env.BENCH_HEAP_PROFILE;
let heapSession: Session | null = null;
let heapWrittenRss = 0;
let heapWrittenAt = 0;
let heapWriting = false;
if (HEAP_PROFILE_FILE) {
  heapSession = new Session();
  heapSession.connect();
  heapSession.post("HeapProfiler.enable", () =>
    heapSession!.post("HeapProfiler.startSampling", { samplingInterval: 128 * 1024 }, () => undefined),
  );
}
function heapProfileAtPeak(rss: number): void {
  if (!heapSession || heapWriting || rss < heapWrittenRss + 8 * 1024 * 1024 || Date.now() - heapWrittenAt < 2000) return;
  heapWriting = true;
  heapSession.post("HeapProfiler.getSamplingProfile", (err, result) => {
    heapWriting = false;
    if (err || !result) return;
    heapWrittenRss = rss;
    heapWrittenAt = Date.now();
    writeFileSync(HEAP_PROFILE_FILE!, JSON.stringify({ rss, at: new Date().toISOString(), memory: process.memoryUsage(), spaces: getHeapSpaceStatistics(), ...result }));
  });
}

type Message = { type: "queries" } | { type: "memory" } | { type: "profile-start" } | { type: "profile-stop"; file: string };

async function answer(message: Message): Promise<object> {
  switch (message.type) {
    case "queries":
      return { queries: statementsSent(), requests, closed, responses };
    case "memory":
      return { ...memoryAtPeak };
    case "profile-start":
      session = new Session();
      session.connect();
      await post("Profiler.enable");
      await post("Profiler.setSamplingInterval", { interval: 500 });
      await post("Profiler.start");
      return { ok: true };
    case "profile-stop": {
      const { profile } = await post("Profiler.stop");
      session!.disconnect();
      writeFileSync(message.file, JSON.stringify(profile));
      return { ok: true };
    }
  }
}

if (process.send) {
  process.on("message", (message: Message) => {
    if (typeof message !== "object" || message === null || !String(message.type ?? "")) return;
    answer(message).then(
      (reply) => process.send!({ ...reply, replyTo: message.type }),
      (err) => process.send!({ error: String(err), replyTo: message.type }),
    );
  });
  // The channel must not keep a server alive once it is told to stop.
  process.channel?.unref();
}
