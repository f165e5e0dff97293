// Open data (docs/features/open-data.md) on the demo data, plus what the demo lacks (an automated voter,
// a hidden claim with its votes, hidden evidence, a deleted account): a snapshot rescores with no
// mismatch and its verdicts are the ones the API shows; two snapshots of the same data are the same
// bytes; no file holds an email address, an agent id, password data or hidden text; a changed vote, a
// removed row or a changed manifest is caught, naming the file; the published key verifies the signature.
// Runs on PGlite, and on PostgreSQL with DATABASE_URL set.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readSql, sqlTransaction } from "../../server/db/client.ts";
import { setCheckIn } from "../../server/services/checks.ts";
import { loadDemoData } from "../../server/seed/demo.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { manifestBytes, sha256Hex, signManifest, type Manifest } from "../../server/services/open-data-format.ts";
import { publicKeyPem, signingKey } from "../../server/services/open-data-key.ts";
import { rescoreSnapshot, type RescoreReport } from "../../server/services/open-data-score.ts";
import { SNAPSHOT_FILES, takeSnapshot, voterPseudonyms } from "../../server/services/open-data-snapshot.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";

vi.hoisted(() => {
  // The signing key is generated into DATA_DIR: this file's own.
  process.env.DATA_DIR = `${process.env.TMPDIR ?? "/tmp"}/claims-open-data-${process.pid}-${Date.now()}`;
});

let api: TestApi;
let work: string;
let snapshot: string;
const publicKey = () => createPublicKey(publicKeyPem(signingKey()));

/** What must not appear in any file. */
const secret = { hiddenStatement: "", hiddenEvidence: "", hiddenCheck: "", deletedAgent: "" };

beforeAll(async () => {
  api = await startApi();
  work = mkdtempSync(path.join(tmpdir(), "claims-open-data-"));
  expect((await loadDemoData()).loaded).toBe(true);

  const [admin, bot, leaving] = await Promise.all([createAgent(api), createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
  const claims = (await api.get<{ claims: { id: string }[] }>("/claims?limit=15&sort_by=vote_count&sort_order=desc")).body.claims;
  // An automated account's votes: in the votes file, not counted.
  const automated = await api.patch("/auth/me", { automated: true }, { token: bot.token });
  expect(automated.status, automated.text).toBe(200);
  for (const c of claims.slice(0, 5)) expect((await api.post(`/claims/${c.id}/vote`, { value: 0.05 }, { token: bot.token })).status).toBe(200);
  // A hidden claim with votes, and hidden evidence on a visible claim.
  secret.hiddenStatement = `A claim a moderator hid ${process.pid}: nothing of it is published.`;
  const hidden = await api.post<{ id: string }>("/claims", { statement: secret.hiddenStatement }, { token: admin.token });
  expect(hidden.status, hidden.text).toBe(201);
  // Checks against the world: one on a published claim, one on the claim about to be hidden.
  const checked = await api.post<{ id: string }>("/claims", { statement: `A claim checked against the world ${process.pid}.` }, { token: admin.token });
  secret.hiddenCheck = `Hidden check criteria ${process.pid}.`;
  for (const [claimId, criteria] of [[checked.body.id, `Published check criteria ${process.pid}.`], [hidden.body.id, secret.hiddenCheck]]) {
    const terms = { criteria, finePrint: null, sourceUrl: null, checkAt: new Date(Date.now() + 86_400_000), closeAt: null, assumptions: [] };
    expect(await sqlTransaction((tx) => setCheckIn(tx, { claimId, viewerId: admin.id, terms, now: new Date() }))).toEqual({ ok: true });
  }
  for (const who of [admin, bot, leaving]) await api.post(`/claims/${hidden.body.id}/vote`, { value: 0.9 }, { token: who.token });
  secret.hiddenEvidence = `Hidden evidence ${process.pid}, never in the open data.`;
  const evidence = await api.post<{ id: string }>(`/claims/${claims[0].id}/evidence`, { position: "supports", content_type: "text", content: secret.hiddenEvidence }, { token: admin.token });
  expect(evidence.status, evidence.text).toBe(201);
  for (const [type, id] of [["claim", hidden.body.id], ["evidence", evidence.body.id]]) {
    const res = await api.post(`/moderation/${type}/${id}/hide`, { reason: "spam" }, { token: admin.token });
    expect(res.status, res.text).toBe(204);
  }
  // Counted votes cast after the demo's fit, by a voter with enough of them to enter the model: the
  // snapshot's fit (which includes them) is what the service publishes from then on, not the demo's.
  expect(claims.length).toBe(15);
  for (const c of claims) expect((await api.post(`/claims/${c.id}/vote`, { value: 0.15 }, { token: admin.token })).status).toBe(200);
  // A deleted account: its votes go with it.
  for (const c of claims.slice(0, 3)) expect((await api.post(`/claims/${c.id}/vote`, { value: 0.5 }, { token: leaving.token })).status).toBe(200);
  secret.deletedAgent = leaving.id;
  expect((await api.post("/auth/me/delete", { password: leaving.password }, { token: leaving.token })).status).toBe(204);

  snapshot = path.join(work, "first");
  await takeSnapshot({ out: snapshot, inline: true, foreground: true });
}, 600_000);

afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

const dataFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tsv.gz")).sort();
const text = (dir: string, file: string) => gunzipSync(readFileSync(path.join(dir, file))).toString("utf8");
const rows = (dir: string, file: string) => text(dir, file).split("\n").filter(Boolean).map((l) => l.split("\t"));

/** A copy of the snapshot, `edit` applied to one file; with `resign`, the manifest updated and signed again with the real key. */
function tampered(label: string, file: string, edit: (lines: string[]) => string[], { resign }: { resign: boolean }): string {
  const dir = path.join(work, label);
  cpSync(snapshot, dir, { recursive: true });
  const lines = text(dir, file).split("\n").filter(Boolean);
  const edited = edit(lines);
  const bytes = gzipSync(`${edited.join("\n")}\n`);
  writeFileSync(path.join(dir, file), bytes);
  if (resign) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
    manifest.files[file] = { sha256: sha256Hex(bytes), rows: edited.length - 1, bytes: bytes.length };
    const signed = manifestBytes(manifest);
    writeFileSync(path.join(dir, "manifest.json"), signed);
    writeFileSync(path.join(dir, "manifest.sig"), signManifest(signed, signingKey()));
  }
  return dir;
}

const filesNamed = (report: RescoreReport) => [...new Set(report.mismatches.map((m) => m.file))].sort();

describe("a snapshot", () => {
  it("has every file of the table with its header row, and a manifest that lists them with their hashes", () => {
    const manifest = JSON.parse(readFileSync(path.join(snapshot, "manifest.json"), "utf8")) as Manifest;
    expect(Object.keys(manifest)).toEqual(["created_at", "cutoff", "code_version", "scorer_version", "parameters", "files"]);
    expect(dataFiles(snapshot)).toEqual(SNAPSHOT_FILES.map((f) => `${f.name}.tsv.gz`).sort());
    for (const f of SNAPSHOT_FILES) {
      const [header, ...body] = rows(snapshot, `${f.name}.tsv.gz`);
      expect(header, f.name).toEqual([...f.columns]);
      const entry = manifest.files[`${f.name}.tsv.gz`];
      expect(entry.rows, f.name).toBe(body.length);
      expect(entry.sha256).toBe(sha256Hex(readFileSync(path.join(snapshot, `${f.name}.tsv.gz`))));
    }
    expect(manifest.files["votes.tsv.gz"].rows).toBeGreaterThan(100);
    // The published check beside the demo's (the hidden one is left out: the privacy scan below).
    const outcomes = rows(snapshot, "outcomes.tsv.gz").slice(1).map((r) => [r[1], r[5]]);
    expect(outcomes).toContainEqual([`Published check criteria ${process.pid}.`, "pending"]);
    expect(outcomes.filter(([criteria]) => criteria.startsWith("Published check criteria"))).toHaveLength(1);
  });

  it("rescores with no mismatch: every bridging output and every status recomputed from the inputs alone", async () => {
    const report = await rescoreSnapshot(snapshot, publicKey());
    expect(report.mismatches).toEqual([]);
    expect(report.claims).toBeGreaterThan(20);
    expect(report.fittedVotes).toBeGreaterThan(0);
    // The model decided some claims, and the rule some by the votes alone: both paths were checked.
    const consensus = rows(snapshot, "consensus_history.tsv.gz");
    expect(consensus.some((r) => r[2] === "viewpoints")).toBe(true);
    expect(consensus.some((r) => r[2] === "votes")).toBe(true);
  });

  it("holds the verdicts the service publishes: each claim's status in the API is the snapshot's", async () => {
    const listed = (await api.get<{ claims: { id: string; consensus: { status: string; since: string | null }; bridging: { status: string; score: number | null } }[] }>("/claims?limit=100")).body.claims;
    const consensus = new Map(rows(snapshot, "consensus_history.tsv.gz").slice(1).map((r) => [r[0], r]));
    const bridging = new Map(rows(snapshot, "bridging.tsv.gz").slice(1).map((r) => [r[0], r]));
    expect(listed.length).toBe(consensus.size);
    for (const c of listed) {
      expect(consensus.get(c.id)?.[1], c.id).toBe(c.consensus.status);
      expect(consensus.get(c.id)?.[5], c.id).toBe(c.consensus.since ?? "\\N");
      expect(bridging.get(c.id)?.[6], c.id).toBe(c.bridging.status);
      expect(bridging.get(c.id)?.[4], c.id).toBe(c.bridging.score === null ? "\\N" : String(c.bridging.score));
    }
  });

  it("is the same bytes when taken again from the same data (but for the manifest's timestamps)", async () => {
    const again = path.join(work, "again");
    await takeSnapshot({ out: again, inline: true, foreground: true });
    for (const file of dataFiles(snapshot)) expect(readFileSync(path.join(again, file)).equals(readFileSync(path.join(snapshot, file))), file).toBe(true);
    const strip = (dir: string) => ({ ...(JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest), created_at: "", cutoff: "" });
    expect(strip(again)).toEqual(strip(snapshot));
  });

  it("holds no email address, agent id, password data, deleted account or hidden text", async () => {
    const agents = await readSql<{ id: string; email: string | null; password_hash: string | null }>`SELECT id::text AS id, email, password_hash FROM agents`;
    expect(agents.length).toBeGreaterThan(10);
    const forbidden = [
      ...agents.flatMap((a) => [a.id, a.email, a.password_hash]),
      secret.hiddenStatement,
      secret.hiddenEvidence,
      secret.hiddenCheck,
      secret.deletedAgent,
      voterPseudonyms()(secret.deletedAgent),
    ].filter((s): s is string => !!s);
    const everything = [...dataFiles(snapshot).map((f) => text(snapshot, f)), readFileSync(path.join(snapshot, "manifest.json"), "utf8")].join("\n");
    expect(forbidden.filter((s) => everything.includes(s))).toEqual([]);
    expect(everything).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/); // no address at all
    // The votes are there, under pseudonyms: the automated voter's among them, not counted.
    const votes = rows(snapshot, "votes.tsv.gz").slice(1);
    expect(votes.some((v) => v[5] === "true" && v[6] === "false")).toBe(true);
    expect(votes.every((v) => /^[0-9a-f]{32}$/.test(v[1]))).toBe(true);
  });

  it("is signed with the key served at /.well-known/claims-data-key, and another key does not verify it", async () => {
    expect((await rescoreSnapshot(snapshot, publicKey())).mismatches).toEqual([]);
    const other = createPublicKey(generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }) as string);
    expect((await rescoreSnapshot(snapshot, other)).mismatches).toEqual([
      { file: "manifest.json", detail: "the signature in manifest.sig does not verify it with this public key" },
    ]);
  });
});

describe("a changed snapshot", () => {
  /**
   * The line of a counted vote that the model fits: on a claim the fit scored, by the voter with the
   * most counted votes (the model's minimums: docs/features/bridging.md).
   */
  function countedVoteLine(lines: string[]): number {
    const fitted = new Set(rows(snapshot, "bridging.tsv.gz").slice(1).filter((r) => r[1] !== "0").map((r) => r[0]));
    const perVoter = new Map<string, number>();
    for (const l of lines.slice(1)) if (l.endsWith("\ttrue")) perVoter.set(l.split("\t")[1], (perVoter.get(l.split("\t")[1]) ?? 0) + 1);
    let best = -1;
    lines.forEach((l, i) => {
      const [claim, voter] = l.split("\t");
      if (i === 0 || !l.endsWith("\ttrue") || !fitted.has(claim)) return;
      if (best < 0 || perVoter.get(voter)! > perVoter.get(lines[best].split("\t")[1])!) best = i;
    });
    expect(perVoter.get(lines[best].split("\t")[1])).toBeGreaterThanOrEqual(10);
    return best;
  }
  const changeValue = (lines: string[]) => {
    const at = countedVoteLine(lines);
    const cells = lines[at].split("\t");
    cells[2] = cells[2] === "0" ? "1" : "0";
    return lines.map((l, i) => (i === at ? cells.join("\t") : l));
  };

  it("a changed vote value: the file's hash no longer matches the manifest", async () => {
    const report = await rescoreSnapshot(tampered("value", "votes.tsv.gz", changeValue, { resign: false }), publicKey());
    expect(filesNamed(report)).toContain("votes.tsv.gz");
    expect(report.mismatches.some((m) => m.file === "votes.tsv.gz" && /^SHA-256 [0-9a-f]{64}, the manifest says/.test(m.detail))).toBe(true);
  });

  it("a changed vote value with a manifest signed anew: the rescore disagrees with the published verdicts", async () => {
    const report = await rescoreSnapshot(tampered("value-signed", "votes.tsv.gz", changeValue, { resign: true }), publicKey());
    expect(filesNamed(report)).toEqual(["bridging.tsv.gz", "consensus_history.tsv.gz"]);
    expect(report.mismatches.some((m) => m.file === "consensus_history.tsv.gz" && /gradient/.test(m.detail))).toBe(true);
  });

  it("a removed vote with a manifest signed anew: the claim's voters and status are rescored and differ", async () => {
    const report = await rescoreSnapshot(tampered("removed-vote", "votes.tsv.gz", (lines) => lines.filter((_, i) => i !== countedVoteLine(lines)), { resign: true }), publicKey());
    expect(report.mismatches.some((m) => m.file === "consensus_history.tsv.gz" && /voters \d+, rescored \d+/.test(m.detail))).toBe(true);
  });

  it("a removed output row: named, with its claim", async () => {
    let claim = "";
    const dir = tampered("removed-output", "bridging.tsv.gz", (lines) => {
      claim = lines[1].split("\t")[0];
      return lines.filter((_, i) => i !== 1);
    }, { resign: true });
    expect((await rescoreSnapshot(dir, publicKey())).mismatches).toEqual([{ file: "bridging.tsv.gz", detail: `claim ${claim}: no row (the rescore has one)` }]);
  });

  it("a changed manifest: the signature no longer verifies it", async () => {
    const dir = path.join(work, "manifest");
    cpSync(snapshot, dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
    manifest.cutoff = new Date(0).toISOString();
    writeFileSync(path.join(dir, "manifest.json"), manifestBytes(manifest));
    expect((await rescoreSnapshot(dir, publicKey())).mismatches).toEqual([
      { file: "manifest.json", detail: "the signature in manifest.sig does not verify it with this public key" },
    ]);
  });
});
