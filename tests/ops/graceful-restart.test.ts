// SIGTERM under load: the production server stops accepting, answers every request it had already
// accepted, then exits 0. "Accepted" is made certain with `Expect: 100-continue`: node answers
// "100 Continue" only once it has read a request's headers and handed it to the app, so every request
// that got its 100 before the signal is in the server's hands, and its body is sent only afterwards.
import { request, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;

beforeAll(async () => {
  server = await startBuiltServer({ SHUTDOWN_GRACE_SECONDS: "30" });
}, 180_000);
afterAll(() => server?.stop());

interface Held {
  /** Resolves when the server said 100 Continue (it has the request). */
  accepted: Promise<void>;
  /** Sends the body; resolves with the final status, or rejects if the request failed. */
  finish(): Promise<number>;
}

/** A registration whose body is held back until `finish()`. */
function heldRegistration(base: string, n: number): Held {
  const body = JSON.stringify({ email: `drain-${n}-${Date.now()}@example.com`, password: "Password123", username: `drain${n}x${Date.now() % 1e6}` });
  const url = new URL(`${base}/api/v1/auth/register`);
  let onContinue!: () => void;
  const accepted = new Promise<void>((r) => (onContinue = r));
  const response = new Promise<number>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" } },
      (res: IncomingMessage) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("continue", onContinue);
    req.on("error", reject);
    (req as unknown as { __body: string }).__body = body;
    heldRequests.set(n, req);
  });
  response.catch(() => {});
  return {
    accepted,
    finish() {
      const req = heldRequests.get(n)!;
      req.end((req as unknown as { __body: string }).__body);
      return response;
    },
  };
}
const heldRequests = new Map<number, ReturnType<typeof request>>();

/** GET on a new connection: the status, or "not connected" when the connection was refused or reset. */
function plainGet(url: string): Promise<number | "not connected"> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(-1));
    });
    req.on("error", () => resolve("not connected"));
    req.end();
  });
}

describe("SIGTERM under load", () => {
  it("answers every accepted request, refuses new connections, and exits 0", async () => {
    // Background load on fresh connections (no keep-alive race): reads that keep the cores busy while
    // the signal arrives. Each gets a whole answer, or its connection is refused or reset before the
    // server accepted it (the listener closed); never an error status.
    let loading = true;
    const background = (async () => {
      const tally = { ok: 0, notConnected: 0, statuses: [] as number[] };
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (loading) {
            const outcome = await plainGet(`${server.base}/api/v1/claims?limit=5`);
            if (outcome === 200) tally.ok++;
            else if (outcome === "not connected") {
              tally.notConnected++;
              await new Promise((r) => setTimeout(r, 20));
            } else tally.statuses.push(outcome);
          }
        }),
      );
      return tally;
    })();

    const held = Array.from({ length: 12 }, (_, i) => heldRegistration(server.base, i));
    await Promise.all(held.map((h) => h.accepted));

    process.kill(server.pid, "SIGTERM");
    // The listener closes: a new connection is refused while the accepted requests are still open.
    for (let i = 0; i < 100; i++) {
      const refused = await fetch(`${server.base}/api/v1/health/live`).then(() => false, () => true);
      if (refused) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await expect(fetch(`${server.base}/api/v1/health/live`)).rejects.toThrow();

    // Now the held bodies go out: every accepted request is answered in full.
    const statuses = await Promise.all(held.map((h) => h.finish()));
    expect(statuses).toEqual(held.map(() => 201));

    loading = false;
    const tally = await background;
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.statuses).toEqual([]);
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/SIGTERM: closing/);
  }, 120_000);
});
