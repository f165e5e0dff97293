// Starting the production build (`next build` output served by server/main.ts, what `npm start`
// runs) as a child process, on a fresh embedded database or the test file's PostgreSQL schema.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** tests/global-setup.ts builds once before any file runs; a file never builds on its own. */
export function ensureBuilt(): void {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: tests/global-setup.ts should have run `next build`");
}

export interface BuiltServer {
  child: ChildProcess;
  pid: number;
  base: string;
  /** What it wrote before its pipes were closed. */
  output(): string;
  /** Closes our ends of its stdout and stderr pipes, like a log shipper that went away. */
  closePipes(): void;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string>;
  stop(): void;
}

type ExtraEnv = Record<string, string | undefined>;

/**
 * `extraEnv` may be a function of the server's own address (`http://127.0.0.1:<port>`), for settings
 * that name it: `(base) => ({ NEXTAUTH_URL: base })`.
 */
export async function startBuiltServer(extraEnv: ExtraEnv | ((base: string) => ExtraEnv) = {}): Promise<BuiltServer> {
  ensureBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "claims-built-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir };
  delete env.PGLITE_DATA_DIR;
  for (const [k, v] of Object.entries(typeof extraEnv === "function" ? extraEnv(base) : extraEnv)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  // What `npm start` runs, in its own process group so that nothing outlives the test.
  const child = spawn(process.execPath, ["--max-old-space-size=320", "--import", "tsx", "server/main.ts"], {
    cwd: root,
    env,
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const stop = () => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (!/Ready on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    pid: child.pid!,
    base,
    output: () => out,
    closePipes() {
      child.stdout!.destroy();
      child.stderr!.destroy();
    },
    exited,
    stop,
  };
}

/** CPU time (user + system) the process has used, in seconds, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** The share of one core the process used over the next `ms` milliseconds. */
export async function cpuShare(pid: number, ms: number): Promise<number> {
  const t0 = performance.now();
  const c0 = cpuSeconds(pid);
  await new Promise((r) => setTimeout(r, ms));
  return (cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000);
}
