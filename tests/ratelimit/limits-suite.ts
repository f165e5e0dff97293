import { afterAll, afterEach, expect, it } from "vitest";
import {
  createRateLimiter,
  type RateLimitResult,
  type RateLimiter,
  type RateLimiterOptions,
  type Tier,
} from "~/server/ratelimit";
import { inOneBucket } from "../helpers/time.ts";
import { uniquePrefix } from "./helpers";

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;

/**
 * The limit checks every backend must pass. `backendOpts()` gives the backend's connection options;
 * each test gets its own key prefix. `testTimeoutMs` is for slow transports (1000+ sequential calls).
 */
export function limitSuite(
  backend: RateLimiter["backend"],
  backendOpts: () => Partial<RateLimiterOptions>,
  testTimeoutMs?: number,
): void {
  const open: RateLimiter[] = [];
  // the store must never fail in these tests (a fallback answer would hide a broken backend)
  const logs: string[] = [];
  afterEach(() => {
    expect(logs.splice(0)).toEqual([]);
  });
  const make = (name: string, opts: Partial<RateLimiterOptions> = {}) => {
    const rl = createRateLimiter({
      prefix: uniquePrefix(`${backend}-${name}`),
      // correctness, not latency, is tested here: a loaded CI machine must not trip the fallback
      timeoutMs: 5_000,
      logger: (msg, err) => logs.push(`${msg} ${String(err)}`),
      ...backendOpts(),
      ...opts,
    });
    open.push(rl);
    expect(rl.backend).toBe(backend);
    return rl;
  };
  afterAll(async () => {
    await Promise.all(open.map((rl) => rl.close()));
  });

  async function expectExactLimit(call: () => Promise<RateLimitResult>, limit: number, windowS: number) {
    for (let i = 0; i < limit; i++) {
      const r = await call();
      const nowS = Date.now() / 1000;
      expect(r.success, `call ${i + 1} of ${limit}`).toBe(true);
      expect(r.limit).toBe(limit);
      expect(r.remaining).toBe(limit - i - 1);
      expect(r.retryAfter).toBe(0);
      expect(Number.isInteger(r.reset)).toBe(true);
      expect(r.reset).toBeGreaterThan(nowS);
      expect(r.reset).toBeLessThanOrEqual(Math.ceil(nowS) + windowS);
    }
    const over = await call();
    expect(over.success, `call ${limit + 1} must fail`).toBe(false);
    expect(over.limit).toBe(limit);
    expect(over.remaining).toBe(0);
    expect(over.retryAfter).toBeGreaterThanOrEqual(1);
    expect(over.retryAfter).toBeLessThanOrEqual(windowS);
    expect(over.reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + over.retryAfter - 1);
    // a rejected call is not counted: still rejected, same numbers
    const again = await call();
    expect(again.success).toBe(false);
    expect(again.remaining).toBe(0);
  }

  const test = (name: string, fn: () => Promise<void>) => it(name, fn, testTimeoutMs);

  const tiers: [Tier, number][] = [
    ["new", 120],
    ["established", 300],
    ["trusted", 1000],
  ];

  test("anonymous callers: 60 per 60 s per IP, exactly", async () => {
    const rl = make("anon");
    await inOneBucket(MINUTE, async (n) => {
      await expectExactLimit(() => rl.limitRequest({ ip: `203.0.113.${n}` }), 60, 60);
      // another IP has its own budget
      expect((await rl.limitRequest({ ip: `203.0.113.${100 + n}` })).remaining).toBe(59);
    });
  });

  for (const [tier, limit] of tiers) {
    test(`${tier} agents: ${limit} per 60 s per agent, exactly`, async () => {
      const rl = make(tier);
      await inOneBucket(MINUTE, async (n) => {
        await expectExactLimit(() => rl.limitRequest({ agentId: `agent-1-${n}`, tier }), limit, 60);
        const other = await rl.limitRequest({ agentId: `agent-2-${n}`, tier });
        expect(other).toMatchObject({ success: true, remaining: limit - 1 });
      });
    });
  }

  test("an agent's count is kept when its tier changes, and is separate from its IP's", async () => {
    const rl = make("tier-change");
    await inOneBucket(MINUTE, async (n) => {
      for (let i = 0; i < 100; i++) await rl.limitRequest({ agentId: `a${n}`, tier: "new" });
      expect(await rl.limitRequest({ agentId: `a${n}`, tier: "established" })).toMatchObject({
        success: true,
        limit: 300,
        remaining: 199,
      });
      expect((await rl.limitRequest({ ip: `a${n}` })).remaining).toBe(59);
    });
  });

  test("a request costing n units is charged n; one that does not fit is refused and counts nothing", async () => {
    const rl = make("cost");
    await inOneBucket(MINUTE, async (n) => {
      const who = { ip: `203.0.113.${200 + n}` };
      expect(await rl.limitRequest(who, 10)).toMatchObject({ success: true, limit: 60, remaining: 50, retryAfter: 0 });
      for (let i = 0; i < 4; i++) expect((await rl.limitRequest(who, 10)).remaining).toBe(40 - 10 * i);
      expect(await rl.peekRequest(who)).toMatchObject({ success: true, limit: 60, remaining: 10 });
      const refused = await rl.limitRequest(who, 11);
      expect(refused).toMatchObject({ success: false, limit: 60, remaining: 10 });
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect((await rl.peekRequest(who)).remaining).toBe(10);
      expect((await rl.limitRequest(who, 10)).remaining).toBe(0);
      expect((await rl.limitRequest(who)).success).toBe(false);
      expect(await rl.peekRequest(who)).toMatchObject({ success: false, remaining: 0 });
    });
  });

  test("page renders: their own per-IP budget (PAGE_RATE_LIMIT, scaled), apart from the API's", async () => {
    const rl = make("page", { scale: 0.01, pageLimit: 500 });
    await inOneBucket(MINUTE, async (n) => {
      const ip = `192.0.2.${n + 10}`;
      await expectExactLimit(() => rl.limitPage(ip), 5, 60);
      // The API budget of that IP is untouched (anonymous 60 × 0.01 → 1).
      expect(await rl.limitRequest({ ip })).toMatchObject({ success: true, limit: 1, remaining: 0 });
    });
    expect((await make("page-default").limitPage("192.0.2.99")).limit).toBe(600);
  });

  test("scale multiplies every limit (0.05 → new 6, anonymous 3, established 15, trusted 50)", async () => {
    const rl = make("scale", { scale: 0.05 });
    await inOneBucket(MINUTE, async (n) => {
      await expectExactLimit(() => rl.limitRequest({ agentId: `s${n}`, tier: "new" }), 6, 60);
      await expectExactLimit(() => rl.limitRequest({ ip: `198.51.100.${n}` }), 3, 60);
    });
    expect((await rl.limitRequest({ agentId: "e", tier: "established" })).limit).toBe(15);
    expect((await rl.limitRequest({ agentId: "t", tier: "trusted" })).limit).toBe(50);
    const big = make("scale-big", { scale: 2.5 });
    expect((await big.limitRequest({ agentId: "t", tier: "trusted" })).limit).toBe(2500);
    expect((await big.limitAuthAttempt("198.51.100.200")).limit).toBe(25);
  });

  test("password guesses: 5 failures per account per client; past 10 on the account, only clients that never failed may try", async () => {
    const rl = make("password");
    await inOneBucket(QUARTER, async (n) => {
      const account = `Victim${n}@Example.com`;
      const attacker = `192.0.${n}.1`;
      for (let i = 0; i < 5; i++) {
        expect((await rl.passwordTryAllowed(account, attacker)).success, `try ${i + 1}`).toBe(true);
        await rl.recordPasswordFailure(i % 2 ? account : ` victim${n}@example.com`, attacker);
      }
      const refused = await rl.passwordTryAllowed(account.toUpperCase(), attacker);
      expect(refused).toMatchObject({ success: false, remaining: 0, limit: 5 });
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfter).toBeLessThanOrEqual(900);
      // another account from that client, and this account from another client, are untouched
      expect((await rl.passwordTryAllowed(`other${n}@example.com`, attacker)).success).toBe(true);
      // ten failures on the account from ten clients: the account is guarded now
      for (let i = 0; i < 10; i++) await rl.recordPasswordFailure(account, `198.51.${n}.${i + 1}`);
      // a client that failed on it once is refused…
      expect((await rl.passwordTryAllowed(account, `198.51.${n}.1`)).success).toBe(false);
      // …the owner's own client, which never failed, still gets its try
      expect((await rl.passwordTryAllowed(account, `203.0.${n}.7`)).success).toBe(true);
      // IPv6: one /64 is one client
      for (let i = 0; i < 5; i++) await rl.recordPasswordFailure(`v6${n}@example.com`, `2001:db8:${n}:1::${i + 1}`);
      expect((await rl.passwordTryAllowed(`v6${n}@example.com`, `2001:db8:${n}:1:ffff::9`)).success).toBe(false);
      expect((await rl.passwordTryAllowed(`v6${n}@example.com`, `2001:db8:${n}:2::9`)).success).toBe(true);
    });
  });

  test("IPv6 clients are limited by /64 (configurable); IPv4-mapped addresses are their IPv4 client", async () => {
    const rl = make("ipv6", { scale: 0.05 });
    const narrow = make("ipv6-48", { scale: 0.05, ipv6Prefix: 48 });
    await inOneBucket(MINUTE, async (n) => {
      for (let i = 0; i < 3; i++) expect((await rl.limitRequest({ ip: `2001:db8:${n}:7:${i + 1}::1` })).success).toBe(true);
      expect((await rl.limitRequest({ ip: `2001:db8:${n}:7:abcd::42` })).success).toBe(false);
      expect((await rl.limitRequest({ ip: `2001:db8:${n}:8::1` })).success).toBe(true);
      for (let i = 0; i < 3; i++) expect((await narrow.limitRequest({ ip: `2001:db8:${n}:${i + 100}::1` })).success).toBe(true);
      expect((await narrow.limitRequest({ ip: `2001:db8:${n}:ffff::1` })).success).toBe(false);
      // a dual-stack socket's ::ffff:a.b.c.d is the same client as a.b.c.d
      for (let i = 0; i < 3; i++) expect((await rl.limitRequest({ ip: i % 2 ? `::ffff:198.51.99.${n}` : `198.51.99.${n}` })).success).toBe(true);
      expect((await rl.limitRequest({ ip: `::ffff:198.51.99.${n}` })).success).toBe(false);
    });
  });

  test("auth: 10 attempts per 15 min per client", async () => {
    const rl = make("auth-ip");
    await inOneBucket(QUARTER, async (n) => {
      const ip = `192.0.2.${50 + n}`;
      for (let i = 0; i < 10; i++) {
        const r = await rl.limitAuthAttempt(ip);
        expect(r, `attempt ${i + 1}`).toMatchObject({ success: true, remaining: 9 - i });
      }
      const r = await rl.limitAuthAttempt(ip);
      expect(r).toMatchObject({ success: false, remaining: 0, limit: 10 });
      expect(r.retryAfter).toBeGreaterThanOrEqual(1);
      expect((await rl.limitAuthAttempt(`192.0.2.${150 + n}`)).success).toBe(true);
      // the API limit is a different budget
      expect((await rl.limitRequest({ ip })).remaining).toBe(59);
    });
  });
}
