// The production server's logs and metrics, as an operator sees them: one JSON line per request with
// method, route, status, duration and the request id sent back as X-Request-Id; no token, password or
// cookie in any line, whatever the requests carried; Prometheus metrics on their own port behind a
// token, the job queue's depth and webhook outcomes among them, moved by real deliveries; liveness and
// readiness probes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const PASSWORD = "Sup3r-secret-passw0rd!";
let server: BuiltServer;
let metricsPort: number;

let redisDown: BuiltServer;

// Side by side: a server as deployed, and one whose Redis is unreachable.
beforeAll(async () => {
  metricsPort = await freePort();
  const deadRedis = `redis://127.0.0.1:${await freePort()}`;
  const [a, b] = await Promise.allSettled([
    // Webhooks to this machine's receivers (the SSRF guard refuses loopback otherwise); a failed delivery's
    // retry waits ten minutes, so it sits in the queue while the test looks.
    startBuiltServer({ LOG_LEVEL: "info", METRICS_PORT: String(metricsPort), METRICS_TOKEN, WEBHOOK_ALLOW_PRIVATE: "1", WEBHOOK_RETRY_BASE_MS: "600000" }),
    // No workers: on PostgreSQL it shares the first one's database, and its workers (which refuse
    // loopback webhooks) would otherwise take some of the first one's deliveries.
    startBuiltServer({ REDIS_URL: deadRedis, JOBS_ENABLED: "0" }),
  ]);
  if (a.status === "fulfilled") server = a.value;
  if (b.status === "fulfilled") redisDown = b.value;
  if (a.status === "rejected") throw a.reason;
  if (b.status === "rejected") throw b.reason;
}, 240_000);

afterAll(() => {
  server?.stop();
  redisDown?.stop();
});

async function call(path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const res = await fetch(`${server.base}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  const text = await res.text();
  return { res, status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** The server's JSON log lines (anything else it printed, e.g. Next's banner, is skipped). */
function jsonLines(): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function waitForLogLine(pred: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const hit = jsonLines().find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no such log line in:\n${server.output().slice(-3000)}`);
}

describe("request logs", () => {
  const secrets: string[] = [PASSWORD];

  it("logs every request once as JSON, with the id it sends back as X-Request-Id, and never a credential", async () => {
    const email = `logs-${Date.now()}@example.com`;
    const reg = await call("/api/v1/auth/register", { method: "POST", json: { email, password: PASSWORD, username: `logs${Date.now() % 1e8}` } });
    expect(reg.status).toBe(201);
    const login = await call("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const access = login.body!.access_token as string;
    const refreshToken = login.body!.refresh_token as string;
    secrets.push(access, refreshToken);

    const refreshed = await call("/api/v1/auth/refresh", { method: "POST", json: { refresh_token: refreshToken } });
    expect(refreshed.status).toBe(200);
    secrets.push(refreshed.body!.access_token as string, refreshed.body!.refresh_token as string);
    const auth = { authorization: `Bearer ${refreshed.body!.access_token}` };

    const key = await call("/api/v1/auth/api-keys", { method: "POST", headers: auth, json: { name: "logs", scopes: ["read", "vote"] } });
    expect(key.status).toBe(201);
    secrets.push(key.body!.key as string);

    const claim = await call("/api/v1/claims", { method: "POST", headers: auth, json: { statement: "Logs never hold a credential." } });
    expect(claim.status).toBe(201);
    const claimId = claim.body!.id as string;
    const bookmark = await call(`/api/v1/claims/${claimId}/bookmark`, { method: "POST", headers: auth });
    expect(bookmark.status).toBeLessThan(300);
    const withKey = await call("/api/v1/claims/bookmarks", { headers: { authorization: `Bearer ${key.body!.key}` } });
    expect(withKey.status).toBe(200);

    // Failures log too, still without what was sent: a wrong password, a forged token, a forged cookie,
    // a token in a query string, a reused refresh token (revokes the family).
    expect((await call("/api/v1/auth/login", { method: "POST", json: { email, password: `${PASSWORD}x` } })).status).toBe(401);
    expect((await call("/api/v1/auth/me", { headers: { authorization: `Bearer ${access}x` } })).status).toBe(401);
    expect((await call("/api/v1/auth/refresh", { method: "POST", json: { refresh_token: refreshToken } })).status).toBe(401);
    const cookie = "next-auth.session-token=forged-session-cookie-value-1234567890";
    secrets.push("forged-session-cookie-value-1234567890");
    expect((await fetch(`${server.base}/api/auth/session`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${server.base}/claims/${claimId}?access_token=${access}`)).status).toBe(200);

    // The id a client (or nginx's $request_id) brings is kept; one is made otherwise.
    const given = await call(`/api/v1/claims/${claimId}`, { headers: { "x-request-id": "trace-abc-12345" } });
    expect(given.res.headers.get("x-request-id")).toBe("trace-abc-12345");
    const made = await call(`/api/v1/claims/${claimId}`);
    const madeId = made.res.headers.get("x-request-id");
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);

    const line = await waitForLogLine((l) => l.request_id === madeId && l.msg === "request");
    expect(line).toMatchObject({ level: 30, method: "GET", route: "/api/v1/claims/{claim_id}", status: 200 });
    expect(typeof line.duration_ms).toBe("number");
    await waitForLogLine((l) => l.request_id === "trace-abc-12345" && l.msg === "request");
    // Exactly one line per request.
    expect(jsonLines().filter((l) => l.request_id === madeId && l.msg === "request")).toHaveLength(1);
    const keyLine = await waitForLogLine((l) => l.route === "/api/v1/claims/bookmarks");
    expect(keyLine).toMatchObject({ method: "GET", status: 200 });
    await waitForLogLine((l) => l.route === "page" && l.path === `/claims/${claimId}`);

    const out = server.output();
    for (const s of secrets) {
      expect(s.length).toBeGreaterThan(10);
      expect(out.includes(s), `a credential appeared in the logs: ${s.slice(0, 12)}…`).toBe(false);
    }
    expect(out).not.toMatch(/authorization|cookie/i);
  });
});

describe("metrics and probes", () => {
  const metricsUrl = () => `http://127.0.0.1:${metricsPort}/metrics`;

  /** The samples of one scrape, by `name{labels}` as printed. */
  async function scrapeMetrics(): Promise<Map<string, number>> {
    const res = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const samples = new Map<string, number>();
    for (const line of (await res.text()).split("\n")) {
      const m = /^(\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
      if (m) samples.set(m[1], Number(m[2]));
    }
    return samples;
  }

  it("serves Prometheus metrics on their own port, only with the token, and not on the public port", async () => {
    expect((await fetch(metricsUrl())).status).toBe(401);
    expect((await fetch(metricsUrl(), { headers: { authorization: "Bearer wrong-token-0123456789abc" } })).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`)).status).toBe(404);

    await fetch(`${server.base}/api/v1/claims?limit=1`);
    const res = await fetch(metricsUrl(), { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/claims_http_requests_total\{method="GET",route="\/api\/v1\/claims",status="200"\} [1-9]/);
    expect(text).toMatch(/claims_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v1\/claims"\}/);
    // No per-id labels: a claim's page is "page", its API route a template.
    expect(text).not.toMatch(/route="\/claims\/[0-9a-f-]{36}"/);
    expect(text).toMatch(/claims_job_queue_depth\{queue="webhook-deliver",state="ready"\} \d+/);
    expect(text).toMatch(/claims_job_queue_depth\{queue="notify-fanout",state="scheduled"\} \d+/);
    expect(text).toMatch(/claims_webhook_deliveries_total\{outcome="delivered",status_class="2xx"\} \d+/);
    expect(text).toMatch(/claims_webhook_deliveries_total\{outcome="gave_up",status_class="none"\} 0/);
    expect(text).toMatch(/claims_process_resident_memory_bytes \d+/);
  });

  it("counts webhook outcomes by status class, and the queue depth follows the retry a failure scheduled", { timeout: 60_000 }, async () => {
    const receivers: Receiver[] = [];
    try {
      const email = `hooks-${Date.now()}@example.com`;
      expect((await call("/api/v1/auth/register", { method: "POST", json: { email, password: PASSWORD, username: `hooks${Date.now() % 1e8}` } })).status).toBe(201);
      const login = await call("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } });
      const auth = { authorization: `Bearer ${login.body!.access_token}` };
      // One endpoint that takes the message, one that fails (500: retried later), one that is gone (410: disabled).
      const hooks: Record<"ok" | "failing" | "gone", string> = { ok: "", failing: "", gone: "" };
      const answers = { ok: 200, failing: 500, gone: 410 };
      for (const name of ["ok", "failing", "gone"] as const) {
        const r = await startReceiver();
        receivers.push(r);
        r.respond = () => answers[name];
        const hook = await call("/api/v1/webhooks", { method: "POST", headers: auth, json: { url: r.url, events: ["claim.voted"] } });
        expect(hook.status).toBe(201);
        r.secret = hook.body!.secret as string;
        hooks[name] = hook.body!.id as string;
      }
      const before = await scrapeMetrics();
      expect(before.get(`claims_job_queue_depth{queue="webhook-deliver",state="scheduled"}`)).toBe(0);

      for (const id of Object.values(hooks)) expect((await call(`/api/v1/webhooks/${id}/test`, { method: "POST", headers: auth })).status).toBe(202);
      for (const r of receivers) await r.waitFor((all) => all.length === 1);

      const delta = (m: Map<string, number>, key: string) => (m.get(key) ?? 0) - (before.get(key) ?? 0);
      const after = await eventually(async () => {
        const m = await scrapeMetrics();
        const settled =
          delta(m, `claims_webhook_deliveries_total{outcome="delivered",status_class="2xx"}`) === 1 &&
          delta(m, `claims_webhook_deliveries_total{outcome="failed",status_class="5xx"}`) === 1 &&
          delta(m, `claims_webhook_deliveries_total{outcome="disabled",status_class="4xx"}`) === 1;
        return settled ? m : null;
      }, 20_000);
      // The failed ping's next attempt waits in the queue; nothing else was added to any outcome.
      expect(after.get(`claims_job_queue_depth{queue="webhook-deliver",state="scheduled"}`)).toBe(1);
      const outcomes = [...after.keys()].filter((k) => k.startsWith("claims_webhook_deliveries_total{"));
      expect(outcomes.reduce((sum, k) => sum + delta(after, k), 0)).toBe(3);
      // And the endpoint that answered 410 is disabled, as the metric says.
      const gone = await call(`/api/v1/webhooks/${hooks.gone}`, { headers: auth });
      expect(gone.body).toMatchObject({ status: "disabled" });
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });

  it("splits health into liveness and readiness, neither rate limited", async () => {
    const live = await call("/api/v1/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "ok" });
    const ready = await call("/api/v1/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { database: "ok", replica: "not_configured", redis: process.env.REDIS_URL ? "ok" : "not_configured" } });
    expect(ready.res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("readiness with Redis down", () => {
  it("is live but not ready, and says which dependency failed", async () => {
    expect((await fetch(`${redisDown.base}/api/v1/health/live`)).status).toBe(200);
    const res = await fetch(`${redisDown.base}/api/v1/health/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "not_ready", checks: { database: "ok", redis: "failed" } });
  });
});
