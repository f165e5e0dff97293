// Text search with a bounded cost (docs/features/arguments.md#what-a-search-reads, docs/security.md#what-a-call-costs),
// on PGlite or DATABASE_URL's PostgreSQL, over a few thousand claims: a 5,000-character similar-claims
// text and a 200-character typo search answer 200 quickly, and a cheap read issued meanwhile is not held
// up (PGlite runs in this process: one long statement stalls every request); on PostgreSQL a search
// that outlasts its own timeout answers what it found instead of a 503; and a search is charged more
// than a plain read, on every way in.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/api/trpc/[trpc]/route.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { inOneBucket } from "../helpers/time.ts";
import { rawSql } from "../../server/db/client.ts";
import { handleMcp } from "../../server/mcp/handler.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { rateLimiter } from "../../server/ratelimit/limiter.ts";
import { SIMILAR_CLAIMS_COST, TEXT_SEARCH_COST } from "../../server/ratelimit/costs.ts";
import { TEXT_SEARCH_TIMEOUT_MS } from "../../server/services/similar-claims.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

/** Claims written straight into the table before the tests: a few thousand, a third of them long. */
const CLAIMS = 3000;
/**
 * What a cheap read may take while the searches run, and the searches themselves: generous (a loaded
 * 2-core machine), and far below what the unbounded searches took and held it for (seconds).
 */
const BOUND_MS = 1000;

const WORDS = [
  "climate", "ocean", "carbon", "forest", "glacier", "drought", "rainfall", "vaccine", "antibiotic", "virus",
  "protein", "genome", "inflation", "interest", "currency", "market", "wage", "housing", "pension", "election",
  "parliament", "treaty", "budget", "policy", "regulation", "court", "battery", "solar", "turbine", "reactor",
  "hydrogen", "grid", "algorithm", "database", "network", "encryption", "satellite", "robot", "galaxy", "planet",
  "telescope", "orbit", "school", "teacher", "student", "university", "hospital", "doctor", "therapy", "diet",
  "exercise", "sleep", "stress", "city", "village", "highway", "railway", "airport", "bicycle", "traffic",
  "river", "mountain", "desert", "island", "coffee", "tea", "water", "energy", "health", "growth",
  "increases", "reduces", "causes", "improves", "predicts", "depends", "on", "the", "of", "most",
  "people", "every", "more", "than", "with", "from", "which", "that", "after", "before",
];

/**
 * The words of the long statements: a few, without vowels, so their trigrams are few (cheap to index)
 * and none of the searches' here; a comparison with a whole statement still reads every letter.
 */
const FILLER = ["bcdf", "ghjkl", "mnpqr", "stvwx", "zbdg", "hkmp", "rtvz", "cfjlnq", "sxwd", "pbkg", "lmrt", "vzcx"];

let api: TestApi;
let author: Voter;
let cheapClaimId: string;
const tag = `sc${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(",")}]::text[]`;
  const filler = `ARRAY[${FILLER.map((w) => `'${w}'`).join(",")}]::text[]`;
  // One transaction: the same session for setseed and the insert, and no statement timeout for it.
  await rawSql(`
    BEGIN;
    SET LOCAL statement_timeout = 0;
    SELECT setseed(0.35);
    INSERT INTO claims (id, statement, author_id, created_at, updated_at)
    SELECT gen_random_uuid(),
           CASE WHEN n % 3 = 0
             -- Long statements (3,500–4,900 characters) of words no search here asks for: what a trigram
             -- comparison costs grows with them, but the trigram index never offers them.
             THEN left((SELECT string_agg((${filler})[1 + floor(random() * ${FILLER.length} + g * 0)::int], ' ') FROM generate_series(1, 600 + n % 200) g), 4900)
             ELSE (SELECT string_agg((${words})[1 + floor(random() * ${WORDS.length} + g * 0)::int], ' ') FROM generate_series(1, 6 + n % 20) g)
           END || ' ${tag} ' || n,
           '${author.id}'::uuid, now() - make_interval(secs => n), now()
    FROM generate_series(1, ${CLAIMS}) AS n;
    COMMIT`);
  // What a live PostgreSQL looks like: autovacuum has merged the indexes' pending entries and gathered
  // statistics. PGlite has no autovacuum: it is searched as written.
  if (process.env.DATABASE_URL) await rawSql("VACUUM ANALYZE claims");
  cheapClaimId = (await newClaim(api, author.token, { statement: `A cheap claim to read while searches run ${tag}` })).id;
}, 120_000);
afterAll(() => api.close());

const randomLetters = (n: number) => Array.from({ length: n }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");
/** `n` characters of random words (1–12 letters) and spaces: no claim has them, every trigram is new. */
function randomText(n: number): string {
  let s = "";
  while (s.length < n) s += `${randomLetters(1 + Math.floor(Math.random() * 12))} `;
  return s.slice(0, n);
}

/**
 * Runs `requests` together and, meanwhile, cheap reads of one claim one after another: the answers,
 * how long they took all together, and the slowest of those reads.
 */
async function whileReading(requests: (() => Promise<{ status: number; body: any }>)[]) {
  const started = Date.now();
  let answeredIn: number | undefined;
  const answers = Promise.all(requests.map((r) => r())).finally(() => (answeredIn = Date.now() - started));
  const reads: number[] = [];
  await new Promise((r) => setTimeout(r, 20));
  while (answeredIn === undefined) {
    const t = Date.now();
    const res = await api.get(`/claims/${cheapClaimId}`);
    expect(res.status).toBe(200);
    reads.push(Date.now() - t);
  }
  return { answers: await answers, answeredIn: answeredIn!, slowestRead: Math.max(0, ...reads) };
}

describe("a search of a few thousand claims holds nothing up", () => {
  it("GET /claims/similar with 5,000 characters: 200 with the claim its text begins with, and cheap reads stay fast", async () => {
    // A statement of 180–200 characters, then a word that crosses the 200th: what is read is the statement.
    const statement = `Coffee improves sleep quality for most people after exercise, and the effect grows with every cup taken before noon in the cities that were studied by the teachers ${tag}`.padEnd(190, "!");
    const known = await newClaim(api, author.token, { statement });
    const texts = [`${statement} ${randomLetters(30)} ${randomText(5000)}`.slice(0, 5000), randomText(5000), randomText(5000)];
    const { answers, answeredIn, slowestRead } = await whileReading(texts.map((q) => () => api.get(`/claims/similar?q=${encodeURIComponent(q)}&limit=3`)));
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(answers[0].body.claims[0]).toMatchObject({ id: known.id, similarity: 1 });
    for (const res of answers.slice(1)) expect(res.body.claims).toEqual([]);
    expect(answeredIn).toBeLessThan(BOUND_MS);
    expect(slowestRead).toBeLessThan(BOUND_MS);
  });

  it("GET /claims?q= with 200 characters that full text does not find (the typo fallback): 200, and cheap reads stay fast", async () => {
    // Ten words (the most a search may have) of 19 letters: 200 characters. PostgreSQL runs them side
    // by side on its pool (the review sent 12 at once), PGlite one after another.
    const typos = Array.from({ length: process.env.DATABASE_URL ? 10 : 4 }, () => Array.from({ length: 10 }, () => randomLetters(19)).join(" ").slice(0, 200));
    const { answers, answeredIn, slowestRead } = await whileReading(typos.map((q) => () => api.get(`/claims?q=${encodeURIComponent(q)}`)));
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ claims: [], total: 0 });
    }
    expect(answeredIn).toBeLessThan(BOUND_MS);
    expect(slowestRead).toBeLessThan(BOUND_MS);
    // The fallback still finds a typo ("coffe" is not a word of any claim; "coffee" is of many).
    const coffee = await api.get("/claims?q=coffe&limit=1");
    expect(coffee.status).toBe(200);
    expect(coffee.body.total).toBeGreaterThan(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL, a search past its own timeout", () => {
  let locker: pg.Client;
  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const schema = url.searchParams.get("schema")!;
    url.searchParams.delete("schema");
    locker = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
    await locker.connect();
  });
  afterAll(() => locker?.end());

  it(`answers 200 with no claims after about ${TEXT_SEARCH_TIMEOUT_MS} ms instead of a 503, and frees its connection`, async () => {
    // A lock the search's statement must wait for: waiting counts against the statement timeout, so
    // nothing here depends on how fast the machine is.
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE claims IN ACCESS EXCLUSIVE MODE");
    try {
      const started = Date.now();
      const res = await api.get(`/claims/similar?q=${encodeURIComponent(`Coffee improves sleep quality ${tag}`)}`);
      const took = Date.now() - started;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ claims: [] });
      expect(took).toBeGreaterThanOrEqual(TEXT_SEARCH_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(3000);
    } finally {
      await locker.query("ROLLBACK");
    }
    // The connection went back to the pool in working order.
    expect((await api.get(`/claims/similar?q=${encodeURIComponent(`Coffee improves sleep quality ${tag}`)}`)).status).toBe(200);
  });
});

describe("a search is charged more than a plain read", () => {
  const remaining = (res: { headers: Headers }) => Number(res.headers.get("x-ratelimit-remaining"));

  it(`/api/v1: similar claims ${SIMILAR_CLAIMS_COST} units, a list search ${TEXT_SEARCH_COST}, a plain read 1`, async () => {
    await inOneBucket(60_000, async () => {
      const { token } = await quickAgent();
      const opts = { token };
      const first = await api.get(`/claims/${cheapClaimId}`, opts);
      const similar = await api.get(`/claims/similar?q=${encodeURIComponent("Coffee improves sleep quality")}`, opts);
      const search = await api.get("/claims?q=coffee", opts);
      const list = await api.get("/claims?limit=1", opts);
      expect([first, similar, search, list].map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(remaining(first) - remaining(similar)).toBe(SIMILAR_CLAIMS_COST);
      expect(remaining(similar) - remaining(search)).toBe(TEXT_SEARCH_COST);
      expect(remaining(search) - remaining(list)).toBe(1);
    });
    expect(SIMILAR_CLAIMS_COST).toBeGreaterThan(1);
    expect(TEXT_SEARCH_COST).toBeGreaterThan(1);
  });

  it("/api/trpc (a batch sums its calls) and the MCP tools cost the same", async () => {
    await inOneBucket(60_000, async () => {
      const agent = await quickAgent();
      const caller = { agentId: agent.id, tier: "new" as const };
      const left = async () => (await rateLimiter().peekRequest(caller)).remaining;
      const before = await left();
      const input = (i: unknown) => encodeURIComponent(JSON.stringify(i));
      const batch = await GET(
        new Request(`http://localhost/api/trpc/claims.similar,claims.list,claims.get?batch=1&input=${input({ 0: { q: "Coffee improves sleep quality" }, 1: { q: "coffee" }, 2: { claim_id: cheapClaimId } })}`, {
          headers: { authorization: `Bearer ${agent.token}` },
        }),
      );
      expect(batch.status).toBe(200);
      const afterWeb = await left();
      expect(before - afterWeb).toBe(SIMILAR_CLAIMS_COST + TEXT_SEARCH_COST + 1);

      const tool = await handleMcp(
        new Request("http://localhost:3000/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            [CLIENT_IP_HEADER]: sealedClientIp("10.9.8.7"),
            authorization: `Bearer ${agent.token}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "similar_claims", arguments: { q: "Coffee improves sleep quality" } } }),
        }),
      );
      expect(tool.status).toBe(200);
      expect((await tool.json()).result.isError).toBeFalsy();
      expect(afterWeb - (await left())).toBe(SIMILAR_CLAIMS_COST);
    });
  });
});
