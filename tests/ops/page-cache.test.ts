// Anonymous page views share one render (server/http/page-cache.ts), on the production server:
//   - a second anonymous view of a page within PAGE_CACHE_SECONDS is the first one's HTML, and a burst
//     of anonymous views of a page nobody has asked for yet renders it once;
//   - a signed-in viewer always gets their own render, and sees their own vote on the next load;
//   - others see a write within PAGE_CACHE_SECONDS;
//   - every view, shared or not, is charged to the page budget (PAGE_RATE_LIMIT);
//   - client navigations (RSC payloads) and responses that set a cookie are never shared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

const TTL_SECONDS = 2;
const PAGE_LIMIT = 40;
let server: BuiltServer;
let author: { token: string; username: string };
let voter: { token: string; username: string; email: string; password: string };
let claimId: string;

async function register(name: string) {
  const email = `${name}-${Date.now()}@example.org`;
  const password = "Page-cache-passw0rd";
  const res = await fetch(`${server.base}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, username: `${name}${Date.now() % 1_000_000}` }),
  });
  expect(res.status).toBe(201);
  const { username } = (await res.json()) as { username: string };
  const login = await fetch(`${server.base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  return { token: access_token, username, email, password };
}

/** Signs in as a browser does (NextAuth's credentials flow) and returns the Cookie header to send. */
async function webSession(email: string, password: string): Promise<string> {
  const csrf = await fetch(`${server.base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${server.base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const cookies = [...jar, ...res.headers.getSetCookie().map((c) => c.split(";")[0])];
  const session = cookies.find((c) => c.includes("next-auth.session-token"));
  expect(session, `no session cookie after sign-in (status ${res.status})`).toBeDefined();
  return cookies.join("; ");
}

async function page(path: string, headers: Record<string, string> = {}, clientIp = "10.0.0.1") {
  const res = await fetch(`${server.base}${path}`, { headers: { "user-agent": "Mozilla/5.0 (test)", "x-forwarded-for": clientIp, ...headers } });
  return { status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text(), headers: res.headers };
}

beforeAll(async () => {
  // Behind one trusted proxy, so that each test can be a client of its own (its own page budget).
  server = await startBuiltServer({
    PAGE_CACHE_SECONDS: String(TTL_SECONDS),
    PAGE_RATE_LIMIT: String(PAGE_LIMIT),
    RATE_LIMIT_SCALE: "1",
    TRUST_PROXY: "1",
    LOG_LEVEL: "error",
  });
  author = await register("pcauthor");
  voter = await register("pcvoter");
  const res = await fetch(`${server.base}/api/v1/claims`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${author.token}` },
    body: JSON.stringify({ statement: "Shared renders make a busy claim page cheap to serve.", complexity_tier: "simple", tags: ["caching"] }),
  });
  expect(res.status).toBe(201);
  claimId = ((await res.json()) as { id: string }).id;
}, 240_000);

afterAll(() => server?.stop());

describe("anonymous page views", () => {
  it("serve the first render to the next anonymous viewer, byte for byte", async () => {
    const first = await page(`/claims/${claimId}`);
    const second = await page(`/claims/${claimId}`);
    expect(first.status).toBe(200);
    expect(first.cache).toBe("miss");
    expect(second.cache).toBe("hit");
    expect(second.html).toBe(first.html);
    expect(second.html).toContain("Shared renders make a busy claim page cheap to serve.");
    // Per response, not per page: each answer has its own request id.
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(second.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
  });

  it("render a page once for a burst of viewers who all ask at the same moment", async () => {
    const burst = await Promise.all(Array.from({ length: 12 }, () => page("/topics/caching")));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(burst.filter((r) => r.cache === "miss")).toHaveLength(1);
    expect(new Set(burst.map((r) => r.html)).size).toBe(1);
  });

  it("show another viewer's write within PAGE_CACHE_SECONDS", async () => {
    const before = await page(`/claims/${claimId}`);
    const vote = await fetch(`${server.base}/api/v1/claims/${claimId}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${voter.token}` },
      body: JSON.stringify({ value: 0.9 }),
    });
    expect(vote.status).toBe(200);
    await new Promise((r) => setTimeout(r, TTL_SECONDS * 1000 + 200));
    const after = await page(`/claims/${claimId}`);
    expect(after.cache).toBe("miss");
    expect(after.html).not.toBe(before.html);
    expect(after.html).toMatch(/1\s*(<!-- -->)?\s*vote\b/);
  });

  it("are never shared with a signed-in viewer, who sees their own vote on the next load", async () => {
    const cookie = await webSession(voter.email, voter.password);
    await page(`/claims/${claimId}`); // an anonymous copy exists
    const vote = await fetch(`${server.base}/api/v1/claims/${claimId}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${voter.token}` },
      body: JSON.stringify({ value: 0.1 }),
    });
    expect(vote.status).toBe(200);
    const mine = await page(`/claims/${claimId}`, { cookie });
    expect(mine.cache).toBeNull();
    expect(mine.html).toContain(voter.username);
    expect(mine.html).toMatch(/Your vote[^<]*<\/?[^>]*>?\s*(<!-- -->)?\s*10\s*%|10%/);
    const anonymous = await page(`/claims/${claimId}`);
    expect(anonymous.html).not.toContain(voter.username);
  });

  it("never share client navigations (RSC payloads) or API calls", async () => {
    const rsc = await page(`/claims/${claimId}`, { rsc: "1" });
    expect(rsc.cache).toBeNull();
    const api = await fetch(`${server.base}/api/v1/claims/${claimId}`);
    expect(api.headers.get("x-page-cache")).toBeNull();
  });
});

describe("the page budget", () => {
  it("charges shared views too", async () => {
    const statuses: (string | number)[] = [];
    for (let i = 0; i < PAGE_LIMIT + 2; i++) {
      const res = await page("/signin", {}, "10.0.0.2");
      statuses.push(res.status === 200 ? (res.cache ?? "none") : res.status);
    }
    expect(statuses.slice(0, PAGE_LIMIT).filter((s) => s === "hit").length).toBeGreaterThan(PAGE_LIMIT / 2);
    expect(statuses.slice(PAGE_LIMIT)).toEqual([429, 429]);
  });
});
