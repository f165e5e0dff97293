// `npm run bench:outcomes`: what the finalising job (docs/features/checks.md) costs for a backlog of due
// checks. A fresh PostgreSQL database is migrated and seeded in SQL (generate_series, nothing crosses
// the wire): 1,000 proposers with standing and --checks claims (10,000 by default), each with a check
// whose proposal's dispute window ended a day ago, outcomes spread over true/false/ambiguous/annulled.
// Then the job's rounds run as the background task runs them (batches of FINALISE_BATCH until one
// comes back short), timed, with the statements this process sent to PostgreSQL counted
// (bench/pg-statements.ts). It checks the result: every check final, every bond back with 1 more,
// one `claim.outcome_final` event per check. The relay and fan-out of those events are not timed here
// (bench/webhook-latency.ts measures the road from an event to a webhook).
//
//   npm run bench:outcomes -- [--checks <n>] [--pg <server url>] [--keep]
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { statementsSent } from "./pg-statements.ts";

const { values } = parseArgs({
  options: {
    checks: { type: "string", default: "10000" },
    pg: { type: "string", default: process.env.BENCH_PG ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
    keep: { type: "boolean", default: false },
  },
});
// Nothing that reads the server's configuration is imported before DATABASE_URL names the bench's
// database (bench/orchestration.ts does, through bench/seed.ts): its helpers are written out here.
async function adminQuery(serverUrl: string, sql: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    return rows[0] ? String(Object.values(rows[0])[0]) : undefined;
  } finally {
    await client.end();
  }
}
const databaseUrl = (serverUrl: string, name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

const checks = Number(values.checks);
const PROPOSERS = 1_000;
const BOND = 5;
const database = `bench_outcomes_${process.pid}`;
const url = databaseUrl(values.pg!, database);

await adminQuery(values.pg!, `CREATE DATABASE ${database}`);
process.env.DATABASE_URL = url;
// Imported after DATABASE_URL is set: the server's configuration is read once.
const { closeDb, dbReady } = await import("../server/db/client.ts");
const { finaliseDueOutcomes, FINALISE_BATCH } = await import("../server/services/checks.ts");

await dbReady(); // the migrations

const agentId = (i: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
const claimId = (i: string) => `('00000001-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
const seeder = new pg.Client({ connectionString: url });
await seeder.connect();
const seedStarted = performance.now();
await seeder.query(`
  INSERT INTO agents (id, email, username, username_key, display_name, standing, reputation, created_at, updated_at)
  SELECT ${agentId("i")}, 'bench-outcomes-' || i || '@example.test', 'bench_o_' || i, 'bench_o_' || i, 'Proposer ' || i,
         true, 20, now() - interval '100 days', now() - interval '100 days'
  FROM generate_series(1, ${PROPOSERS}) AS i`);
await seeder.query(`
  INSERT INTO claims (id, statement, author_id, created_at, updated_at)
  SELECT ${claimId("i")}, 'Outcome bench claim ' || i, ${agentId(`1 + i % ${PROPOSERS}`)}, now() - interval '10 days', now() - interval '10 days'
  FROM generate_series(1, ${checks}) AS i`);
await seeder.query(`
  INSERT INTO claim_checks (claim_id, criteria, close_at, check_at, stage, proposed_outcome, proposal_evidence_url, proposal_note,
                            proposer_id, proposed_at, dispute_deadline, bond, updated_at)
  SELECT ${claimId("i")}, 'The bench criteria of claim ' || i, now() - interval '3 days', now() - interval '2 days', 'proposed',
         (ARRAY['true', 'false', 'ambiguous', 'annulled'])[1 + i % 4], 'https://example.org/report/' || i, 'The report says so',
         ${agentId(`1 + (i * 7) % ${PROPOSERS}`)}, now() - interval '2 days', now() - interval '1 day' - (i * interval '1 second'), ${BOND}, now()
  FROM generate_series(1, ${checks}) AS i`);
await seeder.query("ANALYZE");
const seedSeconds = (performance.now() - seedStarted) / 1000;

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");
const loadBefore = load();
const statementsBefore = statementsSent();
const started = performance.now();
let finalised = 0;
let rounds = 0;
for (;;) {
  const n = await finaliseDueOutcomes();
  rounds += 1;
  finalised += n;
  if (n < FINALISE_BATCH) break;
}
const seconds = (performance.now() - started) / 1000;
const statements = statementsSent() - statementsBefore;
const loadAfter = load();

const { rows: [result] } = await seeder.query(`
  SELECT (SELECT count(*)::int FROM claim_checks WHERE stage = 'final') AS final,
         (SELECT count(*)::int FROM outbox_events WHERE type = 'claim.outcome_final') AS events,
         (SELECT count(*)::int FROM reputation_events WHERE reason = 'outcome_bond_returned' AND delta = ${BOND + 1}) AS bonds_back,
         (SELECT sum(reputation)::float8 FROM agents) AS reputation`);
await seeder.end();
await closeDb();
const problems = [
  result.final !== checks && `${result.final} of ${checks} checks final`,
  result.events !== checks && `${result.events} outcome_final events for ${checks} checks`,
  result.bonds_back !== checks && `${result.bonds_back} bonds back for ${checks} checks`,
  result.reputation !== PROPOSERS * 20 + checks * (BOND + 1) && `reputation sums to ${result.reputation}`,
].filter(Boolean);

const report = {
  checks,
  finalised,
  rounds,
  seconds: Number(seconds.toFixed(2)),
  msPerCheck: Number(((seconds * 1000) / checks).toFixed(3)),
  statements,
  statementsPerCheck: Number((statements / checks).toFixed(2)),
  seedSeconds: Number(seedSeconds.toFixed(2)),
  postgres: await adminQuery(values.pg!, "SHOW server_version"),
  cores: os.cpus().length,
  loadBefore,
  loadAfter,
  problems,
};
console.log(JSON.stringify(report, null, 2));
if (!values.keep) await adminQuery(values.pg!, `DROP DATABASE ${database} WITH (FORCE)`);
process.exit(problems.length ? 1 : 0);
