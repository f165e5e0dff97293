// Standard output and standard error that can never throw into, or loop through, the code that logs.
//
// When the reader of a log pipe goes away (a log shipper restarts, `npm start | tee` is interrupted,
// a supervisor exits), every write fails with EPIPE. Unguarded, Node emits that as an 'error' event
// with no listener, i.e. an uncaught exception; Next's uncaughtException handler logs it with
// console.error, whose write fails again: the process spins at 100 % CPU forever and never shuts down.
//
// Here the first failure marks the stream broken, and from then on writes to it are dropped (as are
// console calls bound to it, before they format anything). This sits under every logger: ours, Next's,
// NextAuth's, and later a structured logger (give pino `outputDestination("stdout")`).
import { format } from "node:util";

export type OutputName = "stdout" | "stderr";

interface OutputState {
  broken: boolean;
}

const GUARD = Symbol.for("claims.outputGuard");
type GuardedStream = NodeJS.WriteStream & { [GUARD]?: OutputState };

type WriteCallback = (err?: Error | null) => void;

function stream(name: OutputName): GuardedStream {
  return process[name] as GuardedStream;
}

/** Whether the stream has failed (or was never guarded and is already destroyed). */
export function outputBroken(name: OutputName): boolean {
  const s = stream(name);
  return s[GUARD]?.broken === true || s.destroyed || s.writableEnded;
}

/** Writes to stdout or stderr; never throws, and drops the text once the stream is broken. */
export function safeWrite(name: OutputName, text: string): void {
  if (outputBroken(name)) return;
  try {
    stream(name).write(text);
  } catch {
    /* the guard marks it broken; nothing else to do with a log line */
  }
}

/** A minimal destination (what pino and similar loggers accept) writing through the guard. */
export function outputDestination(name: OutputName): { write(text: string): boolean } {
  return {
    write(text) {
      safeWrite(name, text);
      return true;
    },
  };
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  return e?.code ?? e?.message ?? String(err);
}

function guardStream(name: OutputName): void {
  const s = stream(name);
  if (s[GUARD]) return;
  const state: OutputState = { broken: false };
  s[GUARD] = state;

  const markBroken = (err: unknown) => {
    if (state.broken) return;
    state.broken = true;
    // The other stream, if it still works, is the only place this can be told.
    const other: OutputName = name === "stdout" ? "stderr" : "stdout";
    safeWrite(other, `[log] ${name} failed (${describe(err)}); its output is dropped from now on\n`);
  };
  // With a listener, a failed write is no longer an uncaught exception.
  s.on("error", markBroken);

  const write = s.write;
  s.write = function guardedWrite(
    chunk: unknown,
    encodingOrCallback?: BufferEncoding | WriteCallback,
    callback?: WriteCallback,
  ): boolean {
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (!state.broken && (s.destroyed || s.writableEnded)) markBroken(new Error("stream closed"));
    if (!state.broken) {
      try {
        return (write as (...args: unknown[]) => boolean).call(s, chunk, encodingOrCallback, callback);
      } catch (err) {
        markBroken(err); // synchronous failures (a file or terminal that went away)
      }
    }
    // Dropped: report success so that callers neither wait for 'drain' nor log the failure.
    if (done) process.nextTick(done);
    return true;
  } as typeof s.write;
}

const CONSOLE_METHODS: Record<OutputName, readonly string[]> = {
  stdout: ["log", "info", "debug", "dir", "dirxml", "table"],
  stderr: ["warn", "error", "trace"],
};

/** Makes console methods return at once when their stream is broken (before formatting or source-mapping). */
function guardConsole(): void {
  const c = console as unknown as Record<string | symbol, unknown>;
  if (c[GUARD]) return;
  c[GUARD] = true;
  for (const name of ["stdout", "stderr"] as const) {
    for (const method of CONSOLE_METHODS[name]) {
      const original = c[method];
      if (typeof original !== "function") continue;
      const guarded = function (this: unknown, ...args: unknown[]) {
        if (outputBroken(name)) return;
        return original.apply(this ?? console, args);
      };
      Object.defineProperty(console, method, { value: guarded, writable: true, configurable: true, enumerable: true });
    }
  }
}

/** Installs the guard on process.stdout, process.stderr and console. Idempotent; call it first. */
export function guardProcessOutput(): void {
  guardStream("stdout");
  guardStream("stderr");
  guardConsole();
}

/** A log line through the guard (for code that must never be held up or broken by logging). */
export function logLine(name: OutputName, ...args: unknown[]): void {
  safeWrite(name, `${format(...args)}\n`);
}
