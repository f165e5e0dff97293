// A first run is not an empty room: the demo set loads once, and what a visitor then sees through the
// API is a living site — demo agents who can sign in, claims across tags with votes, evidence, comments.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { databaseIsEmpty, demoEmail, loadDemoData } from "../../server/seed/demo.ts";
import { DEMO_AGENTS, DEMO_ARGUMENTS, DEMO_CLAIMS, DEMO_PASSWORD } from "../../server/seed/demo-data.ts";

/** Demo claims, and the claims written as arguments. */
const ALL_CLAIMS = DEMO_CLAIMS.length + DEMO_ARGUMENTS.filter((a) => a.statement).length;

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
}, 120_000);
afterAll(() => api?.close());

describe("demo data", () => {
  it("loads into an empty database once, through the same rules as the API", async () => {
    expect(await databaseIsEmpty()).toBe(true);
    const first = await loadDemoData();
    expect(first).toMatchObject({ loaded: true, agents: DEMO_AGENTS.length, claims: ALL_CLAIMS });
    expect(first.claims).toBeGreaterThanOrEqual(20);
    expect(await databaseIsEmpty()).toBe(false);
    expect((await loadDemoData()).loaded).toBe(false);
  }, 180_000);

  it("lets a visitor sign in as a demo agent and find claims with votes, evidence and comments", async () => {
    const login = await api.post("/auth/login", { email: demoEmail("ada"), password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const me = await api.get("/auth/me", { token: login.body.access_token });
    expect(me.body.username).toBe("ada");

    const list = await api.get("/claims?limit=100");
    expect(list.status).toBe(200);
    expect(list.body.claims.length).toBe(ALL_CLAIMS);
    const lightning = list.body.claims.find((c: { statement: string }) => c.statement.startsWith("Lightning never strikes"));
    expect(lightning.vote_count).toBe(4);
    expect(lightning.gradient).toBeLessThan(0.1);

    const tags = new Set(list.body.claims.flatMap((c: { tags: string[] }) => c.tags));
    expect(tags.size).toBeGreaterThanOrEqual(5);
    const evidence = await api.get(`/claims/${lightning.id}/evidence`);
    expect(evidence.body.evidence.length).toBeGreaterThan(0);
    const remote = list.body.claims.find((c: { statement: string }) => c.statement.startsWith("Fully remote"));
    const comments = await api.get(`/claims/${remote.id}/comments`);
    expect(comments.body.comments.length).toBeGreaterThan(0);
    expect(JSON.stringify(list.body)).not.toMatch(/lorem|ipsum/i);

    // Arguments three levels deep, rated, so the claim page's tree has something to show.
    const ev = list.body.claims.find((c: { statement: string }) => c.statement.startsWith("Over its lifetime, a battery electric car"));
    const tree = await api.get(`/claims/${ev.id}/tree?depth=3`);
    expect(tree.status).toBe(200);
    expect(tree.body.arguments.length).toBe(3);
    const deep = tree.body.arguments.flatMap((a: any) => a.arguments).flatMap((a: any) => a.arguments);
    expect(deep.length).toBeGreaterThan(0);
    expect(tree.body.arguments.every((a: any) => a.impact !== null)).toBe(true);
  });
});
