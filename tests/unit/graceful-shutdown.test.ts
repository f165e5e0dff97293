// The shutdown sequence of the production server, on a real node:http server and real sockets; only
// process.exit is observed instead of called.
import { createServer, request, Agent, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { installGracefulShutdown } from "../../server/http/shutdown.ts";

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A server whose /slow requests wait for `release()`; everything else answers at once. */
async function startServer() {
  const waiting: Array<() => void> = [];
  server = createServer((req, res) => {
    if (req.url === "/slow") waiting.push(() => res.end("slow done"));
    else res.end("ok");
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, waiting, finishSlow: () => waiting.splice(0).forEach((f) => f()) };
}

function get(url: string, agent?: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve(text));
    })
      .on("error", reject)
      .end();
  });
}

function observe(graceMs: number) {
  const exits: number[] = [];
  const logged: string[] = [];
  let released = 0;
  let exited!: (code: number) => void;
  const exitCode = new Promise<number>((r) => (exited = r));
  const { shutdown } = installGracefulShutdown({
    server: server!,
    graceMs,
    signals: [],
    release: async () => void released++,
    log: (line) => logged.push(line),
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
  });
  return { shutdown, exits, logged, exitCode, released: () => released };
}

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
};

describe("graceful shutdown", () => {
  it("lets a request in flight finish, closes idle keep-alive connections, releases pools, then exits 0", async () => {
    const { base, waiting, finishSlow } = await startServer();
    const agent = new Agent({ keepAlive: true });
    expect(await get(`${base}/fast`, agent)).toBe("ok"); // leaves an idle keep-alive connection
    const slow = get(`${base}/slow`);
    await until(() => waiting.length === 1);

    const s = observe(10_000);
    s.shutdown("SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    expect(s.exits).toEqual([]);
    expect(s.released()).toBe(0); // pools stay open while a request may still need them

    finishSlow();
    expect(await slow).toBe("slow done");
    expect(await s.exitCode).toBe(0);
    expect(s.released()).toBe(1);
    expect(s.exits).toEqual([0]);
    agent.destroy();
  });

  it("exits at once (1) when the grace period runs out, dropping what is still in flight", async () => {
    const { base, waiting } = await startServer();
    const slow = get(`${base}/slow`).catch((err: Error) => err);
    await until(() => waiting.length === 1);

    const s = observe(300);
    s.shutdown("SIGTERM");
    expect(await s.exitCode).toBe(1);
    expect(await slow).toBeInstanceOf(Error); // its connection was closed
    expect(s.logged.at(-1)).toMatch(/grace period over/);
  });

  it("exits at once (1) on a second signal", async () => {
    const { base, waiting } = await startServer();
    void get(`${base}/slow`).catch(() => {});
    await until(() => waiting.length === 1);

    const s = observe(60_000);
    s.shutdown("SIGTERM");
    expect(s.exits).toEqual([]);
    s.shutdown("SIGINT");
    expect(s.exits).toEqual([1]);
    expect(s.logged.at(-1)).toMatch(/SIGINT again/);
  });
});
