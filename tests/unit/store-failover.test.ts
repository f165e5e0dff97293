// The one choice and failover rule of the rate limiter and the cache (server/store/failover.ts): which
// backend the settings name, and what happens while the shared store fails. The stores here are plain
// objects counting their calls; tests/ratelimit and tests/api/stats.test.ts run the rule on real
// Redis, Upstash and black-holed stores.
import { describe, expect, it } from "vitest";
import { failover, type FailoverOptions } from "../../server/store/failover.ts";

interface Probe {
  name: string;
  calls: number;
  answer(): Promise<string>;
}

function probe(name: string, behave: () => Promise<string> = async () => name): Probe {
  const p: Probe = {
    name,
    calls: 0,
    answer: () => {
      p.calls += 1;
      return behave();
    },
  };
  return p;
}

function pair(settings: Partial<FailoverOptions<Probe>>, shared = probe("shared")) {
  const local = probe("local");
  const lines: string[] = [];
  const opened: string[] = [];
  const stores = failover<Probe>({
    tag: "test",
    open: {
      upstash: (url, token) => (opened.push(`upstash ${url} ${token}`), shared),
      redis: (url) => (opened.push(`redis ${url}`), shared),
    },
    local,
    fallback: "using the local one",
    logger: (msg, err) => lines.push(`${msg} | ${String(err)}`),
    ...settings,
  });
  return { stores, shared, local, lines, opened };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("choosing the backend", () => {
  it("Upstash when its URL and token are both set, else Redis when its URL is, else memory alone", () => {
    const both = pair({ upstash: { url: "https://u.example", token: "t" }, redisUrl: "redis://r" });
    expect([both.stores.backend, both.opened]).toEqual(["upstash", ["upstash https://u.example t"]]);
    const noToken = pair({ upstash: { url: "https://u.example", token: "" }, redisUrl: "redis://r" });
    expect([noToken.stores.backend, noToken.opened]).toEqual(["redis", ["redis redis://r"]]);
    const none = pair({});
    expect([none.stores.backend, none.opened, none.stores.shared]).toEqual(["memory", [], undefined]);
  });

  it("memory alone: every call goes to the local store and nothing is logged", async () => {
    const { stores, local, lines } = pair({});
    expect(await stores.run((s) => s.answer())).toBe("local");
    expect([local.calls, lines]).toEqual([1, []]);
  });
});

describe("failing over", () => {
  it("a failed call is answered locally, the store is left alone for the cool-down, then tried again", async () => {
    let down = true;
    const shared = probe("shared", async () => {
      if (down) throw new Error("connection refused");
      return "shared";
    });
    const { stores, local, lines } = pair({ redisUrl: "redis://r", cooldownMs: 150 }, shared);
    expect(await stores.run((s) => s.answer())).toBe("local");
    expect(await stores.run((s) => s.answer())).toBe("local");
    expect([shared.calls, local.calls]).toEqual([1, 2]);
    expect(lines).toEqual(["[test] redis store failed; using the local one | Error: connection refused"]);
    down = false;
    await sleep(200);
    expect(await stores.run((s) => s.answer())).toBe("shared");
    expect(shared.calls).toBe(2);
  });

  it("with timeoutMs, a store that does not answer in time counts as failed", async () => {
    const shared = probe("shared", () => new Promise(() => {}));
    const { stores, lines } = pair({ upstash: { url: "https://u.example", token: "t" }, timeoutMs: 50 }, shared);
    const started = performance.now();
    expect(await stores.run((s) => s.answer())).toBe("local");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(lines[0]).toMatch(/^\[test\] upstash store failed; using the local one \| Error: upstash test did not answer within 50 ms/);
  });

  it("failures are logged at most once per 10 s, with a count of the ones left out", async () => {
    const shared = probe("shared", async () => {
      throw new Error("down");
    });
    const { stores, lines } = pair({ redisUrl: "redis://r", cooldownMs: 0 }, shared);
    for (let i = 0; i < 5; i++) await stores.run((s) => s.answer());
    expect(shared.calls).toBe(5);
    expect(lines).toHaveLength(1);
  });
});
