// Crash safety: the API runs as its own process (tests/helpers/api-server.ts) on this file's
// PostgreSQL schema; a write storm (claim votes, evidence, evidence votes, comments) runs against it
// and records every answer; the process is killed with SIGKILL in the middle; a new one starts on the
// same database. Every write that was answered 2xx must be there, a write whose answer never came
// may or may not be, and every derived field must still agree with the rows (checkInvariants).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { quickAgents, type Voter } from "../api/claims-fixtures.ts";
import { callApi as call, kill9, startApiProcess as startServer, type ApiProcess as Server } from "../helpers/api-process.ts";

const onPostgres = !!process.env.DATABASE_URL;

type Write =
  | { kind: "vote"; claimId: string; value: number }
  | { kind: "unvote"; claimId: string }
  | { kind: "evidence"; claimId: string; content: string }
  | { kind: "evidence-vote"; evidenceId: string; direction: "up" | "down" }
  | { kind: "evidence-unvote"; evidenceId: string }
  | { kind: "comment"; claimId: string; content: string };

/** One agent's history: the writes answered 2xx (with their answer) and the one left unanswered by the kill. */
interface History {
  agent: Voter;
  acknowledged: { write: Write; body: any }[];
  unanswered: Write | null;
}

describe.skipIf(!onPostgres)("crash safety: kill -9 in the middle of a write storm (PostgreSQL only — on PGlite the database lives inside the killed process; there is no separate server whose commits could survive)", () => {
  let server: Server | undefined;
  beforeAll(() => dbReady());
  afterAll(async () => {
    if (server) await kill9(server);
  });

  it("every write answered 2xx survives, unanswered ones are all-or-nothing, invariants hold", { timeout: 300_000 }, async () => {
    server = await startServer();
    const [author, ...agents] = await quickAgents(17);
    const claims: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(server, "POST", "/claims", author.token, { statement: `Crash-test claim number ${i}`, tags: ["crash"] });
      expect(res.status).toBe(201);
      claims.push(res.body.id);
    }
    const seedEvidence = await call(server, "POST", `/claims/${claims[0]}/evidence`, author.token, { position: "supports", content_type: "text", content: "Seed evidence" });
    const evidenceIds = [seedEvidence.body.id as string];

    let acknowledgedCount = 0;
    const KILL_AFTER = 150;
    let killed: Promise<void> | undefined;
    const live = server;

    const histories: History[] = await Promise.all(
      agents.map(async (agent, i): Promise<History> => {
        const history: History = { agent, acknowledged: [], unanswered: null };
        for (let step = 0; step < 200; step++) {
          const pick = (i * 7 + step * 13) % 10;
          const claimId = claims[(i + step) % claims.length];
          const evidenceId = evidenceIds[(i + step) % evidenceIds.length];
          const write: Write =
            pick < 3
              ? { kind: "vote", claimId, value: ((i + step) % 11) / 10 }
              : pick === 3
                ? { kind: "unvote", claimId }
                : pick === 4
                  ? { kind: "evidence", claimId, content: `Evidence ${randomUUID()}` }
                  : pick < 7
                    ? { kind: "evidence-vote", evidenceId, direction: step % 3 ? "up" : "down" }
                    : pick === 7
                      ? { kind: "evidence-unvote", evidenceId }
                      : { kind: "comment", claimId, content: `Comment ${randomUUID()}` };
          let res: { status: number; body: any };
          try {
            res = await send(live, agent.token, write);
          } catch {
            history.unanswered = write; // the connection died with the server
            return history;
          }
          // 403: own evidence (the agent wrote it earlier in the storm). Anything else is a failure.
          if (res.status === 403 && write.kind === "evidence-vote") continue;
          expect(res.status, `${write.kind}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
          history.acknowledged.push({ write, body: res.body });
          if (write.kind === "evidence") evidenceIds.push(res.body.id);
          if (++acknowledgedCount === KILL_AFTER) killed = kill9(live);
        }
        return history;
      }),
    );
    await killed;
    expect(acknowledgedCount).toBeGreaterThanOrEqual(KILL_AFTER);
    // The kill landed mid-storm: some agents were waiting for an answer.
    expect(histories.filter((h) => h.unanswered).length).toBeGreaterThan(0);

    server = await startServer();

    for (const { agent, acknowledged, unanswered } of histories) {
      // Evidence and comments answered 201 are there, as answered.
      for (const { write, body } of acknowledged) {
        if (write.kind === "evidence") {
          const ev = await call(server, "GET", `/evidence/${body.id}`, agent.token);
          expect(ev.status).toBe(200);
          expect(ev.body).toMatchObject({ claim_id: write.claimId, content: write.content });
        }
        if (write.kind === "comment") {
          const comment = await call(server, "GET", `/comments/${body.id}`, agent.token);
          expect(comment.status).toBe(200);
          expect(comment.body.content).toBe(write.content);
        }
      }
      const created = (kind: "evidence" | "comment") => acknowledged.filter((a) => a.write.kind === kind).length;
      const maybe = (kind: Write["kind"]) => (unanswered?.kind === kind ? 1 : 0);
      expect(await db().evidence.count({ where: { authorId: agent.id } })).toBeGreaterThanOrEqual(created("evidence"));
      expect(await db().evidence.count({ where: { authorId: agent.id } })).toBeLessThanOrEqual(created("evidence") + maybe("evidence"));
      expect(await db().comment.count({ where: { authorId: agent.id } })).toBeGreaterThanOrEqual(created("comment"));
      expect(await db().comment.count({ where: { authorId: agent.id } })).toBeLessThanOrEqual(created("comment") + maybe("comment"));

      // Votes: the last answered state, or the unanswered write's (it committed or it did not).
      for (const claimId of claims) {
        const answered = lastVote(acknowledged.map((a) => a.write), claimId);
        const pending = (unanswered?.kind === "vote" || unanswered?.kind === "unvote") && unanswered.claimId === claimId ? lastVote([unanswered], claimId) : undefined;
        const row = await db().claimVote.findUnique({ where: { claimId_agentId: { claimId, agentId: agent.id } } });
        const stored = row ? row.value : null;
        expect([answered, ...(pending === undefined ? [] : [pending])], `vote of ${agent.id} on ${claimId}`).toContainEqual(stored);
      }
      const touched = [...acknowledged.map((a) => a.write), ...(unanswered ? [unanswered] : [])];
      for (const evidenceId of new Set(touched.flatMap((w) => ("evidenceId" in w ? [w.evidenceId] : [])))) {
        const answered = lastEvidenceVote(acknowledged.map((a) => a.write), evidenceId);
        const pending = unanswered && "evidenceId" in unanswered && unanswered.evidenceId === evidenceId ? lastEvidenceVote([unanswered], evidenceId) : undefined;
        const row = await db().evidenceVote.findUnique({ where: { evidenceId_agentId: { evidenceId, agentId: agent.id } } });
        expect([answered, ...(pending === undefined ? [] : [pending])], `evidence vote of ${agent.id} on ${evidenceId}`).toContainEqual(row ? row.direction : null);
      }
    }

    expect(await checkInvariants()).toEqual([]);
    // The restarted server takes writes as before.
    const after = await call(server, "POST", `/claims/${claims[0]}/vote`, agents[0].token, { value: 0.5 });
    expect(after.status).toBe(200);
    expect(await checkInvariants()).toEqual([]);
  });
});

function send(server: Server, token: string, write: Write) {
  switch (write.kind) {
    case "vote":
      return call(server, "POST", `/claims/${write.claimId}/vote`, token, { value: write.value });
    case "unvote":
      return call(server, "DELETE", `/claims/${write.claimId}/vote`, token);
    case "evidence":
      return call(server, "POST", `/claims/${write.claimId}/evidence`, token, { position: "neutral", content_type: "text", content: write.content });
    case "evidence-vote":
      return call(server, "POST", `/evidence/${write.evidenceId}/vote`, token, { direction: write.direction });
    case "evidence-unvote":
      return call(server, "DELETE", `/evidence/${write.evidenceId}/vote`, token);
    case "comment":
      return call(server, "POST", `/claims/${write.claimId}/comments`, token, { content: write.content });
  }
}

/** The vote value a sequence of writes leaves on a claim (null: none); undefined if it never touches it. */
function lastVote(writes: Write[], claimId: string): number | null {
  let value: number | null = null;
  for (const w of writes) {
    if (w.kind === "vote" && w.claimId === claimId) value = w.value;
    if (w.kind === "unvote" && w.claimId === claimId) value = null;
  }
  return value;
}

function lastEvidenceVote(writes: Write[], evidenceId: string): "up" | "down" | null {
  let direction: "up" | "down" | null = null;
  for (const w of writes) {
    if (w.kind === "evidence-vote" && w.evidenceId === evidenceId) direction = w.direction;
    if (w.kind === "evidence-unvote" && w.evidenceId === evidenceId) direction = null;
  }
  return direction;
}
