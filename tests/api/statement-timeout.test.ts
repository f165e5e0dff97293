// A statement that runs past DATABASE_STATEMENT_TIMEOUT_MS is cut off by PostgreSQL and answered with a
// clean 503 {detail} + Retry-After, never a 500 with a database message. Reproduced by holding a lock
// the API's statements must wait for (a wait counts against statement_timeout), so nothing is timed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";
import { parseConfig } from "../../server/config.ts";
import { DATABASE_BUSY } from "../../server/errors.ts";
import { claimMarkdownResponse } from "../../server/mcp/site.ts";

// Read when the database opens (in startApi), after this line.
process.env.DATABASE_STATEMENT_TIMEOUT_MS = "300";

describe("DATABASE_STATEMENT_TIMEOUT_MS is validated at start-up", () => {
  it.each(["-1", "abc", "1.5", "600001"])("refuses %s naming the variable", (value) => {
    expect(() => parseConfig({ DATABASE_STATEMENT_TIMEOUT_MS: value, JWT_SECRET: "x".repeat(32), NEXTAUTH_SECRET: "y".repeat(32) })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
  });

  it("defaults to 5000 ms; 0 turns it off", () => {
    const secrets = { JWT_SECRET: "x".repeat(32), NEXTAUTH_SECRET: "y".repeat(32) };
    expect(parseConfig(secrets).DATABASE_STATEMENT_TIMEOUT_MS).toBe(5000);
    expect(parseConfig({ ...secrets, DATABASE_STATEMENT_TIMEOUT_MS: "0" }).DATABASE_STATEMENT_TIMEOUT_MS).toBe(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL, a statement past the timeout", () => {
  let api: TestApi;
  let locker: pg.Client;
  let claimId: string;

  beforeAll(async () => {
    api = await startApi();
    const agent = await createAgent(api);
    const res = await api.post("/claims", { statement: "Statement timeouts answer 503" }, { token: agent.token });
    claimId = res.body.id;
    const url = new URL(process.env.DATABASE_URL!);
    const schema = url.searchParams.get("schema")!;
    url.searchParams.delete("schema");
    locker = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await api?.close();
  });

  it("answers 503 with a clean detail and Retry-After, and works again once the database does", async () => {
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE claims IN ACCESS EXCLUSIVE MODE");
    try {
      // The search (driver path) and the comments list (its claim check goes through Prisma).
      for (const path of ["/claims?q=timeouts", `/claims/${claimId}/comments`]) {
        const res = await api.get(path);
        expect(res.status, path).toBe(503);
        expect(res.body, path).toEqual({ code: "service_unavailable", detail: DATABASE_BUSY });
        expect(res.headers.get("retry-after"), path).toBe("1");
        expect(res.headers.get("x-ratelimit-limit"), path).not.toBeNull();
      }
      // The claim as Markdown for agents (server/mcp/site.ts) answers the same 503, not a 500.
      const markdown = await claimMarkdownResponse(new Request(`http://localhost:3000/claims/${claimId}.md`), claimId);
      expect(markdown.status).toBe(503);
      expect(await markdown.text()).toBe(`${DATABASE_BUSY}\n`);
      expect(markdown.headers.get("retry-after")).toBe("1");
    } finally {
      await locker.query("ROLLBACK");
    }
    const after = await api.get("/claims?q=timeouts");
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(1);
  });
});
