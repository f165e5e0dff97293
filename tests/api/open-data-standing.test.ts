// The open data under a standing rule that leaves votes out (docs/features/consensus.md#standing): new,
// unverified and automated accounts vote beside accounts with standing, the standing job restates
// those whose second vote gave them standing, and the snapshot rescores with no mismatch — the rescore counts exactly
// the votes the service counted (the votes file's `standing`), and its statuses are the API's.
import { createPublicKey, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../../server/db/client.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { publicKeyPem, signingKey } from "../../server/services/open-data-key.ts";
import { rescoreSnapshot } from "../../server/services/open-data-score.ts";
import { takeSnapshot } from "../../server/services/open-data-snapshot.ts";
import { applyStandingRule, drainAllStanding } from "../../server/services/standing.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

vi.hoisted(() => {
  process.env.DATA_DIR = `${process.env.TMPDIR ?? "/tmp"}/claims-open-data-standing-${process.pid}-${Date.now()}`;
  process.env.STANDING_MIN_AGE_SECONDS = "86400";
  process.env.STANDING_MIN_VOTES = "2";
  process.env.STANDING_REQUIRE_VERIFIED = "true";
});

let api: TestApi;
let dir: string;

/** An account two days old and verified (standing once it has two votes), or new and unverified (never here). */
async function account({ standing, automated = false }: { standing: boolean; automated?: boolean }): Promise<Voter> {
  const username = `s_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const agent = await db().agent.create({
    data: {
      username,
      usernameKey: username,
      displayName: username,
      email: `${username}@example.test`,
      emailVerified: standing ? new Date() : null,
      automated,
      createdAt: new Date(Date.now() - (standing ? 2 * 86_400_000 : 0)),
    },
    select: { id: true },
  });
  return { id: agent.id, token: (await issueTokenPair(agent.id)).access_token };
}

beforeAll(async () => {
  api = await startApi();
  await applyStandingRule();
  await drainAllStanding();
  const author = await quickAgent();
  const claims = [await newClaim(api, author.token), await newClaim(api, author.token), await newClaim(api, author.token)];
  const counted = await Promise.all(Array.from({ length: 6 }, () => account({ standing: true })));
  const newcomers = await Promise.all(Array.from({ length: 3 }, () => account({ standing: false })));
  const bots = await Promise.all(Array.from({ length: 3 }, () => account({ standing: false, automated: true })));
  const vote = async (who: Voter, claim: string, value: number) => expect((await api.post(`/claims/${claim}/vote`, { value }, { token: who.token })).status).toBe(200);
  // Those with standing vote on every claim: their first vote is written before they have two.
  for (const v of counted) for (const c of claims) await vote(v, c.id, 0.9);
  for (const v of [...newcomers, ...bots]) for (const c of claims) await vote(v, c.id, 0.05);
  // The standing job restates the accounts whose second vote gave them standing: their first votes count now.
  await drainAllStanding();
  await vote(counted[0], claims[0].id, 0.85);
  dir = path.join(mkdtempSync(path.join(tmpdir(), "claims-open-data-standing-")), "snapshot");
  await takeSnapshot({ out: dir, inline: true, foreground: true });
}, 300_000);

afterAll(async () => {
  await api?.close();
  rmSync(path.dirname(dir), { recursive: true, force: true });
  rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

const rows = (file: string) => gunzipSync(readFileSync(path.join(dir, file))).toString("utf8").split("\n").filter(Boolean).slice(1).map((l) => l.split("\t"));

describe("open data under the standing rule", () => {
  it("lists every vote with whether it counts, and rescores with no mismatch: only the counted votes decide", async () => {
    const votes = rows("votes.tsv.gz");
    const people = votes.filter((v) => v[5] === "false");
    expect(people.some((v) => v[6] === "false")).toBe(true); // newcomers' votes do not count
    expect(people.some((v) => v[6] === "true")).toBe(true);
    expect(votes.filter((v) => v[5] === "true").every((v) => v[6] === "false")).toBe(true); // nor the automated accounts'
    const report = await rescoreSnapshot(dir, createPublicKey(publicKeyPem(signingKey())));
    expect(report.mismatches).toEqual([]);
    const consensus = rows("consensus_history.tsv.gz");
    const countedPerClaim = new Map<string, number>();
    for (const v of votes) if (v[6] === "true") countedPerClaim.set(v[0], (countedPerClaim.get(v[0]) ?? 0) + 1);
    for (const c of consensus) expect(Number(c[3]), c[0]).toBe(countedPerClaim.get(c[0]) ?? 0);
  });

  it("states the statuses the API shows", async () => {
    for (const c of rows("consensus_history.tsv.gz")) {
      const claim = (await api.get<{ consensus: { status: string; voters: number } }>(`/claims/${c[0]}`)).body;
      expect([claim.consensus.status, claim.consensus.voters], c[0]).toEqual([c[1], Number(c[3])]);
    }
  });
});
