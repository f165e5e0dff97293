// The background runner (docs/architecture.md#background-work): startBackground() runs every task of
// the table (here the relay, resolution, the related-sets refresher and the bridging refit are seen at
// work; the fan-out and delivery workers are the notifications and webhooks suites'); stop waits for the
// round in flight and starts none after it; a wake-up during a round runs one more; a once-per-period
// task runs once per period however many instances look for it; the runner's timers never keep a
// process alive. Runs on PGlite by default and on PostgreSQL with DATABASE_URL.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The bridging refit on its shortest period (tests/setup.ts turns it off elsewhere); claims resolve
  // a second after their consensus, found by the resolution task (every 0.5 s).
  process.env.BRIDGING_INTERVAL_SECONDS = "10";
  process.env.RESOLUTION_STABLE_SECONDS = "1";
});

import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { readSql } from "../../server/db/client.ts";
import { BACKGROUND_TASKS, startBackground, stopBackground } from "../../server/jobs/index.ts";
import { startRunner, type PeriodicTask } from "../../server/jobs/runner.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(async () => {
  await stopBackground();
  await api.close();
});

/** A round that waits for `open()`, counting the rounds begun and ended. */
function gatedRound() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const counts = { begun: 0, ended: 0 };
  return {
    counts,
    open: () => open(),
    round: async () => {
      counts.begun++;
      await gate;
      counts.ended++;
    },
  };
}

describe("the runner", () => {
  it("stop waits for the round in flight, and no round begins after it", async () => {
    const g = gatedRound();
    const runner = await startRunner([{ kind: "periodic", name: "gated", everyMs: () => 20, instances: "each-instance", runAtStart: true, round: g.round }]);
    await eventually(async () => g.counts.begun === 1);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await sleep(300);
    expect(stopped).toBe(false);
    g.open();
    await stopping;
    expect(g.counts).toEqual({ begun: 1, ended: 1 });
    await sleep(200);
    expect(g.counts.begun).toBe(1);
  });

  it("a wake-up during a round runs one more round right after it, however many came", async () => {
    const g = gatedRound();
    let wake!: () => void;
    const runner = await startRunner([
      {
        kind: "periodic",
        name: "woken",
        // The timer never fires within the test: only the start and the wake-ups run rounds.
        everyMs: () => 3_600_000,
        instances: "each-instance",
        runAtStart: true,
        wakeUp: (w) => {
          wake = w;
          return { close: async () => {} };
        },
        round: g.round,
      },
    ]);
    await eventually(async () => g.counts.begun === 1);
    wake();
    wake();
    wake();
    g.open();
    await eventually(async () => g.counts.ended === 2);
    await sleep(200);
    expect(g.counts).toEqual({ begun: 2, ended: 2 });
    await runner.stop();
  });

  it("a once-per-period task runs once per period across instances", { timeout: 30_000 }, async () => {
    // Three instances' runners on this database (each would run the round every second on its own).
    const rounds: number[] = [];
    const task: PeriodicTask = {
      kind: "periodic",
      name: "test-once",
      everyMs: () => 1000,
      instances: "once-per-period",
      runAtStart: true,
      round: async () => void rounds.push(Date.now()),
    };
    const runners = await Promise.all([startRunner([task]), startRunner([task]), startRunner([task])]);
    const began = Date.now();
    await sleep(4_500);
    await Promise.all(runners.map((r) => r.stop()));
    const periods = Math.floor(Date.now() / 1000) - Math.floor(began / 1000) + 1;
    expect(rounds.length).toBeGreaterThanOrEqual(3);
    expect(rounds.length).toBeLessThanOrEqual(periods);
  });

  it("its timers never keep a process alive: a script that started it ends by itself", { timeout: 90_000 }, async () => {
    const script = `
      const { startRunner } = await import(${JSON.stringify(path.join(ROOT, "server/jobs/runner.ts"))});
      let rounds = 0;
      await startRunner([{ kind: "periodic", name: "tick", everyMs: () => 20, instances: "each-instance", runAtStart: true, round: async () => void rounds++ }]);
      setTimeout(() => console.log("rounds " + rounds), 300);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, env: process.env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await eventually(async () => /rounds \d+/.test(output), 60_000);
    const code = await Promise.race([exited, sleep(5_000).then(() => "still running" as const)]);
    if (code === "still running") child.kill("SIGKILL");
    expect(code, output).toBe(0);
    // It did run meanwhile: a round every 20 ms.
    expect(Number(/rounds (\d+)/.exec(output)![1])).toBeGreaterThan(3);
  });
});

describe("startBackground", () => {
  it("declares each task once, by name", () => {
    const names = BACKGROUND_TASKS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["relay", "fan-out", "deliveries", "resolution", "related-refresh", "bridging"]));
  });

  it("runs the table: events are relayed, a due claim resolves, a stale related set is refreshed, the bridging model is fitted", { timeout: 90_000 }, async () => {
    const tag = `bg-${process.pid}`;
    const claim = await newClaim(api, author.token, { tags: [tag] });
    await newClaim(api, author.token, { tags: [tag] });
    // The claim's related set exists once read; a vote on the claim marks it stale.
    expect((await api.get(`/discover/related/${claim.id}`)).status).toBe(200);
    const voters = await quickAgents(10);
    for (const [i, v] of voters.entries()) {
      const res = await api.post(`/claims/${claim.id}/vote`, { value: i < 9 ? 0.8 : 1 }, { token: v.token });
      expect(res.status, res.text).toBe(200);
    }
    const state = async () => {
      const [row] = await readSql<{ unrelayed: number; resolved: boolean; stale: boolean; fitted: boolean }>`
        SELECT (SELECT count(*)::int FROM outbox_events WHERE claim_id = ${claim.id}::uuid AND relayed_at IS NULL) AS unrelayed,
               (SELECT resolved_at IS NOT NULL FROM claims WHERE id = ${claim.id}::uuid) AS resolved,
               (SELECT stale FROM related_sets WHERE claim_id = ${claim.id}::uuid) AS stale,
               EXISTS (SELECT 1 FROM bridging_model) AS fitted`;
      return row;
    };
    // Nothing runs them yet: the work waits.
    await sleep(1_500);
    const waiting = await state();
    expect(waiting).toMatchObject({ resolved: false, stale: true, fitted: false });
    expect(waiting.unrelayed).toBe(voters.length);

    await startBackground();
    // The relay and resolution within seconds, the refresher within its 2 s, the refit at its first round (10 s).
    const done = { unrelayed: 0, resolved: true, stale: false, fitted: true };
    const isDone = (s: typeof done) => s.unrelayed === 0 && s.resolved && !s.stale && s.fitted;
    await eventually(async () => isDone(await state()), 45_000).catch(() => {});
    expect(await state()).toEqual(done);
  });
});
