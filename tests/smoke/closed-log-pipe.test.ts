// A production server whose log pipes have closed (a log shipper or `npm start | tee` went away) keeps
// serving without spinning on EPIPE, and SIGTERM still ends it within the grace period, also with
// requests in flight. Regression test for a server that looped at 100 % CPU and never exited.
import { request, Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpuShare, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

const GRACE_SECONDS = 8;
let idle: BuiltServer;
let busy: BuiltServer;

function start(): Promise<BuiltServer> {
  return startBuiltServer((base) => ({
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    // NextAuth logs an error for a forged session cookie: an error path of a library's own logger,
    // reachable by any client. (Production requires NEXTAUTH_URL: its own address.)
    NEXTAUTH_URL: base,
    LOG_LEVEL: "info",
  }));
}

// One server per case (each ends with SIGTERM), started side by side to keep the wall time down.
beforeAll(async () => {
  const [a, b] = await Promise.allSettled([start(), start()]);
  if (a.status === "fulfilled") idle = a.value;
  if (b.status === "fulfilled") busy = b.value;
  if (a.status === "rejected") throw a.reason;
  if (b.status === "rejected") throw b.reason;
}, 180_000);

afterAll(() => {
  idle?.stop();
  busy?.stop();
});

/** Makes the server log an error (NextAuth: JWT_SESSION_ERROR). */
async function makeItLog(base: string): Promise<void> {
  const res = await withTimeout(
    fetch(`${base}/api/auth/session`, { headers: { cookie: "next-auth.session-token=forged" } }),
    10_000,
    "GET /api/auth/session",
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref()),
  ]);
}

function stillAnswers(base: string) {
  return withTimeout(
    fetch(`${base}/api/v1/health`).then((r) => r.status),
    10_000,
    "GET /api/v1/health",
  );
}

describe("the built server with closed log pipes", () => {
  it("keeps serving near idle after logging an error, and exits on SIGTERM", async () => {
    const s = idle;
    s.closePipes();
    await makeItLog(s.base);
    await makeItLog(s.base); // and again, once the broken pipes are known

    // The old failure: the EPIPE of a log line was logged again, forever, on the main thread.
    expect(await cpuShare(s.pid, 2000)).toBeLessThan(0.25);
    expect(await stillAnswers(s.base)).toBe(200);

    process.kill(s.pid, "SIGTERM");
    expect(await withTimeout(s.exited, GRACE_SECONDS * 1000, "exit after SIGTERM")).toBe(0);
  }, 60_000);

  it("finishes the requests in flight on SIGTERM, then exits within the grace period", async () => {
    const s = busy;
    s.closePipes();
    await makeItLog(s.base);

    // An idle keep-alive connection must not hold the shutdown up.
    const agent = new Agent({ keepAlive: true });
    const idle = await fetchVia(agent, `${s.base}/api/v1/health`);
    expect(idle.status).toBe(200);

    // A registration whose body is still on its way when SIGTERM arrives. `Expect: 100-continue`
    // tells us the server has the request in hand before the signal is sent.
    const username = `inflight_${process.pid}`;
    const body = JSON.stringify({ email: `${username}@example.test`, password: "Password123", username });
    const req = request(`${s.base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on("error", reject);
    });
    await new Promise<void>((resolve) => req.once("continue", resolve));
    req.write(body.slice(0, 10));

    process.kill(s.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    expect(s.child.exitCode).toBeNull(); // still waiting for the request in flight
    req.end(body.slice(10));

    const answer = await withTimeout(response, GRACE_SECONDS * 1000, "the request in flight");
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).username).toBe(username);
    // A clean exit (0), not the grace period running out (1).
    expect(await withTimeout(s.exited, GRACE_SECONDS * 1000, "exit after SIGTERM")).toBe(0);
    agent.destroy();
  }, 60_000);
});

function fetchVia(agent: Agent, url: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode! }));
    })
      .on("error", reject)
      .end();
  });
}
