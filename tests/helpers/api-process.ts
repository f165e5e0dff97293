// The REST API as its own process (tests/helpers/api-server.ts) on this test file's database: for tests
// that need a second instance, or one to kill with SIGKILL.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { readBody } from "./response-body.ts";

const root = path.resolve(import.meta.dirname, "../..");

export interface ApiProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>/api/v1 */
  base: string;
  output(): string;
}

export function startApiProcess(extraEnv: Record<string, string> = {}): Promise<ApiProcess> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
    delete env.PGLITE_DATA_DIR;
    const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/api-server.ts"], { cwd: root, env, detached: true });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the API server did not start:\n${output}`)), 90_000);
    child.stdout!.on("data", (d) => {
      output += d;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${port}/api/v1`, output: () => output });
      }
    });
    child.stderr!.on("data", (d) => (output += d));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the API server exited (${code}):\n${output}`));
    });
  });
}

/** SIGKILL to the process group; resolves once it is gone. */
export function kill9(server: ApiProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    process.kill(-server.child.pid!, "SIGKILL");
  });
}

/** A JSON call to the process's REST API. */
export async function callApi(server: ApiProcess, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const { body: parsed, text } = await readBody(res);
  return { status: res.status, body: parsed, text };
}
