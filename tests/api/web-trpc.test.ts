// The web UI's tRPC endpoint (app/api/trpc): the same procedures as /api/v1, with the caller taken from
// the NextAuth session cookie — or from a Bearer credential, resolved exactly as on /api/v1 (API keys:
// tests/api/api-keys.test.ts) — and errors carrying the contract's detail.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "../../app/api/trpc/[trpc]/route.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

async function sessionCookie(agentId: string): Promise<string> {
  const token = await encode({ token: { sub: agentId, authTime: Math.floor(Date.now() / 1000) }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${token}`;
}

function call(method: "GET" | "POST", procedure: string, input: unknown, headers: Record<string, string> = {}) {
  const base = `http://localhost/api/trpc/${procedure}`;
  if (method === "GET") {
    return GET(new Request(`${base}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers }));
  }
  return POST(new Request(base, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(input) }));
}

describe("web tRPC endpoint", () => {
  it("runs a mutation as the agent of the NextAuth session cookie", async () => {
    const agent = await createAgent(api);
    const res = await call("POST", "claims.create", { statement: "Web endpoint claims are the same claims." }, { cookie: await sessionCookie(agent.id) });
    expect(res.status).toBe(200);
    const created = (await res.json()).result.data;
    expect(created.author.id).toBe(agent.id);
    // The REST API sees the very same claim.
    const viaRest = await api.get(`/claims/${created.id}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.statement).toBe("Web endpoint claims are the same claims.");
  });

  it("answers 401 with the contract's detail without a session or with a bad Bearer credential", async () => {
    const agent = await createAgent(api);
    for (const headers of [{}, { authorization: `Bearer ${agent.token}x` }, { authorization: `Bearer ${agent.refreshToken}` }] as Record<string, string>[]) {
      const res = await call("POST", "claims.create", { statement: "Nobody is signed in here at all." }, headers);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body.error.detail).toBe("Invalid or expired token");
      expect(body.error.data.error_code).toBe(headers.authorization ? "invalid_token" : "unauthenticated");
    }
    const list = await api.get("/claims?q=signed");
    expect(list.body.total).toBe(0);
  });

  it("takes a Bearer access token as the same agent /api/v1 would", async () => {
    const agent = await createAgent(api);
    const res = await call("GET", "auth.me", {}, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(200);
    expect((await res.json()).result.data.id).toBe(agent.id);
  });

  it("puts the validation detail and the field errors in the error shape", async () => {
    const agent = await createAgent(api);
    const res = await call("POST", "claims.create", { statement: "short" }, { cookie: await sessionCookie(agent.id) });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.detail).toBe("statement: must be 10-5000 characters");
    expect(error.errors).toEqual([{ field: "statement", message: "statement: must be 10-5000 characters", rule: "too_short", min: 10, max: 5000 }]);
    // The contract's code beside tRPC's own: tRPC's client reads `code` (a number) and `data.code`.
    expect(error.data.error_code).toBe("validation_failed");
    expect(error.data.code).toBe("BAD_REQUEST");
    expect(typeof error.code).toBe("number");
  });

  it("fills the caller's fields of public queries from the session", async () => {
    const author = await createAgent(api);
    const voter = await createAgent(api);
    const claim = await api.post("/claims", { statement: "Session callers see their own vote." }, { token: author.token });
    await api.post(`/claims/${claim.body.id}/vote`, { value: 0.25 }, { token: voter.token });
    const asVoter = await call("GET", "claims.get", { claim_id: claim.body.id }, { cookie: await sessionCookie(voter.id) });
    expect((await asVoter.json()).result.data).toMatchObject({ user_vote: 0.25, is_bookmarked: false });
    const anonymous = await call("GET", "claims.get", { claim_id: claim.body.id });
    expect((await anonymous.json()).result.data).toMatchObject({ user_vote: null, is_bookmarked: null });
  });

  it("treats a forged or foreign session cookie as no session", async () => {
    const forged = await encode({ token: { sub: crypto.randomUUID() }, secret: "another-secret-another-secret-another-secret" });
    const res = await call("GET", "claims.bookmarks", {}, { cookie: `next-auth.session-token=${forged}` });
    expect(res.status).toBe(401);
  });

  it("refuses cross-site calls that would ride on the session cookie", async () => {
    const agent = await createAgent(api);
    const res = await call("POST", "claims.create", { statement: "Forged from another site entirely." }, {
      cookie: await sessionCookie(agent.id),
      "sec-fetch-site": "cross-site",
    });
    expect(res.status).toBe(403);
    expect((await api.get(`/claims?q=forged`)).body.total).toBe(0);
  });

  it("refuses a call whose Origin is another site, without Sec-Fetch-Site (older browsers)", async () => {
    const agent = await createAgent(api);
    const cookie = await sessionCookie(agent.id);
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1.evil.example"]) {
      const res = await call("POST", "claims.create", { statement: `Forged with Origin ${origin} only.` }, { cookie, origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ code: "forbidden", detail: "Cross-site request refused" });
    }
    for (const site of ["same-site", "cross-site"]) {
      const res = await call("POST", "claims.create", { statement: "Forged from a sibling site." }, { cookie, "sec-fetch-site": site });
      expect(res.status, site).toBe(403);
    }
    expect((await api.get(`/claims?q=forged`)).body.total).toBe(0);
    // the app's own origin passes
    const own = await call("POST", "claims.create", { statement: "Posted from the app's own pages." }, { cookie, origin: "http://localhost:3000", "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
  });

  it("answers 404 for an unknown procedure", async () => {
    const res = await call("GET", "claims.nope", {});
    expect(res.status).toBe(404);
  });
});
