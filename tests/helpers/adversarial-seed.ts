// Adversarial data for the cost suite (tests/security/cost.test.ts): what a patient attacker, or just
// a big community, can put in the database, generated inside the database (generate_series, the way
// bench/seed.ts does) so that 20k+ claims take seconds, on PGlite and PostgreSQL alike:
//   - 20,000 claims of one author, each with 10 tags of 50 characters (the limits), building on one claim;
//   - 300 claims with 5,000-character statements (the limit), the newest, so every list at its
//     largest page shows only maximal texts;
//   - a layered argument DAG: a root and 4 levels of 20 claims, every claim of a level an argument
//     under every claim of the level above (1,220 links; expanded naively, depth 4 is 20^4 paths);
//   - one "hot" claim with 3,000 votes (and a gradient-history point per vote), 150 pieces of evidence
//     of 50,000 characters, 100 comment threads filled to the depth the list embeds (4,000 comments of
//     5,000 characters), one comment with 3,000 replies, and 3,000 open reports with 1,000-character notes;
//   - a reader who bookmarks and follows the maximal claims.
// Every derived field is written from the rows (vote sums, histogram, consensus, history, counters;
// the triggers keep the rest), and checkInvariants() must pass before the seed reports success.
//
// Run as a script on the database a built server will use (its DATA_DIR, or DATABASE_URL's schema):
//   node --import tsx tests/helpers/adversarial-seed.ts
// It prints one line of JSON (AdversarialSeed) last.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Prisma } from "../../server/db/generated/client.ts";
import { closeDb, dbReady, sqlTransaction, type SqlTx } from "../../server/db/client.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { HISTOGRAM_BINS, histogramBinSql, MIN_CONSENSUS_VOTERS } from "../../server/domain/consensus.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW, MIN_VOTE_WEIGHT } from "../../server/domain/gradient.ts";

/** Sizes of the adversarial set; the test derives its bounds from them. */
export const SIZES = {
  bulkClaims: 20_000,
  maxedClaims: 300,
  dagLevels: 4,
  dagWidth: 20,
  voters: 3_000,
  evidence: 150,
  threads: 100,
  /** Replies per comment at each of the 3 reply levels (the list embeds 3). */
  repliesPerLevel: 3,
  longThreadReplies: 3_000,
  tagPool: 400,
  maxedReportTargets: 100,
  reportsPerMaxedTarget: 20,
} as const;

export const LIMITS = {
  statement: 5_000,
  evidence: 50_000,
  title: 200,
  excerpt: 1_000,
  comment: 5_000,
  note: 1_000,
  displayName: 100,
  bio: 500,
  tags: 10,
  tag: 50,
} as const;

export interface AdversarialSeed {
  seconds: number;
  rows: { claims: number; arguments: number; votes: number; evidence: number; comments: number; reports: number };
  hotClaimId: string;
  dagRootId: string;
  /** A claim of the DAG's first level (an argument of the root). */
  dagLevel1Id: string;
  /** A claim of the DAG's last level (nothing under it). */
  dagLeafId: string;
  bulkClaimId: string;
  maxedClaimId: string;
  longThreadCommentId: string;
  threadCommentId: string;
  /** A reply at the deepest level replies may have (3). */
  deepestCommentId: string;
  evidenceId: string;
  tag: string;
  authorId: string;
  readerId: string;
  tokens: { reader: string; admin: string; author: string; maxedAuthor: string };
}

const WORDS = [
  "climate", "ocean", "carbon", "forest", "glacier", "vaccine", "protein", "genome", "inflation", "market",
  "wage", "housing", "election", "treaty", "budget", "battery", "solar", "reactor", "hydrogen", "grid",
  "algorithm", "compiler", "database", "network", "satellite", "galaxy", "planet", "telescope", "school", "teacher",
  "hospital", "therapy", "sleep", "city", "railway", "bridge", "river", "desert", "island", "language",
  "increases", "reduces", "predicts", "doubles", "halves", "explains", "outlasts", "replaces", "limits", "improves",
];
for (const w of WORDS) if (!/^[a-z]+$/.test(w)) throw new Error(`word not safe to inline: ${w}`);
const WORD_ARRAY = `ARRAY[${WORDS.map((w) => `'${w}'`).join(",")}]::text[]`;

/** The `k`-th pseudo-random word for the integer SQL expression `n`. */
const word = (n: string, k: number) => `(${WORD_ARRAY})[1 + abs(hashint4(((${n}) * 7919 + ${k * 104_729})::int)) % ${WORDS.length}]`;
/** A sentence of 8 words that differs per `n`. */
const sentence = (n: string) => Array.from({ length: 8 }, (_, k) => word(n, k)).join(` || ' ' || `);
/** Exactly `length` characters: the number `n`, then sentences repeated (distinct per n, real words for full text). */
const longText = (n: string, length: number, label: string) =>
  `left('${label} ' || (${n})::text || ' ' || repeat(${sentence(n)} || '. ', ${Math.ceil(length / 40)}), ${length})`;
/** A version-4-shaped UUID derived from a text (zod's uuid() checks the version and variant nibbles). */
const uuidFrom = (text: string) => `(overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid)`;
/** A tag of exactly 50 characters from the pool, numbered `n`. */
const tagOf = (n: string) => `('t' || lpad(((${n}) % ${SIZES.tagPool})::text, 4, '0') || '-' || repeat('x', ${LIMITS.tag - 6}))`;
/** 10 distinct tags for claim number `n`. */
const tagsOf = (n: string) => `ARRAY[${Array.from({ length: LIMITS.tags }, (_, k) => tagOf(`(${n}) + ${k * 37}`)).join(", ")}]::text[]`;

const agentId = (name: string) => uuidFrom(`'adv-agent-${name}'`);
const voterId = (i: string) => uuidFrom(`'adv-voter-' || (${i})::text`);
const claimId = (kind: string, i: string) => uuidFrom(`'adv-claim-${kind}-' || (${i})::text`);
const commentId = (path: string) => uuidFrom(`'adv-comment-' || ${path}`);

async function one<T>(tx: SqlTx, sql: string): Promise<T> {
  const [row] = await tx.query<T>(Prisma.raw(sql));
  return row;
}

async function run(tx: SqlTx, sql: string): Promise<void> {
  const t0 = performance.now();
  await tx.execute(Prisma.raw(sql));
  if (process.env.ADVERSARIAL_SEED_DEBUG) process.stderr.write(`${Math.round(performance.now() - t0)} ms: ${sql.replace(/\s+/g, " ").slice(0, 90)}\n`);
}

export async function seedAdversarial(): Promise<AdversarialSeed> {
  const started = performance.now();
  await dbReady();
  const long = (n: number) => `repeat('x', ${n})`;
  await sqlTransaction(async (tx) => {
    // ---- agents: every name and bio at its limit (they travel with every claim, argument and comment) ----
    const namedAgents = ["author", "maxed", "reader", "admin"];
    await run(
      tx,
      `INSERT INTO agents (id, email, username, username_key, display_name, bio, role, standing, created_at, updated_at)
       SELECT ${uuidFrom(`'adv-agent-' || name`)}, 'adv-' || name || '@example.test', 'adv_' || name, 'adv_' || name,
              left('Adversarial ' || name || ' ' || ${long(LIMITS.displayName)}, ${LIMITS.displayName}),
              left('Bio of ' || name || ' ' || ${long(LIMITS.bio)}, ${LIMITS.bio}),
              (CASE WHEN name = 'admin' THEN 'admin' ELSE 'member' END)::"Role", true, now() - interval '100 days', now() - interval '100 days'
       FROM unnest(ARRAY[${namedAgents.map((n) => `'${n}'`).join(",")}]) AS name`,
    );
    await run(
      tx,
      `INSERT INTO agents (id, email, username, username_key, display_name, bio, standing, created_at, updated_at)
       SELECT ${voterId("i")}, 'adv-voter-' || i || '@example.test', 'adv_voter_' || i, 'adv_voter_' || i,
              left('Voter ' || i || ' ' || ${long(LIMITS.displayName)}, ${LIMITS.displayName}), left('Bio ' || ${long(LIMITS.bio)}, ${LIMITS.bio}), true,
              now() - interval '50 days', now() - interval '50 days'
       FROM generate_series(1, ${SIZES.voters}) AS i`,
    );

    // ---- claims ----
    // The hot claim, then 20k bulk claims building on it (its children list), spread over 90 days.
    await run(
      tx,
      `INSERT INTO claims (id, statement, tags, author_id, created_at, updated_at)
       VALUES (${claimId("hot", "0")}, ${longText("0", LIMITS.statement, "Hot claim")}, ${tagsOf("0")}, ${agentId("author")},
               now() - interval '2 days', now() - interval '2 days')`,
    );
    await run(
      tx,
      `INSERT INTO claims (id, statement, complexity_tier, tags, author_id, created_at, updated_at)
       SELECT ${claimId("bulk", "i")}, 'Bulk claim ' || i || ': ' || ${sentence("i")} || ' ' || ${sentence("i + 1")},
              (ARRAY['simple','moderate','complex','contested'])[1 + i % 4]::"ComplexityTier", ${tagsOf("i")}, ${agentId("author")},
              now() - interval '90 days' + (i * interval '1 second' * ${Math.floor((89 * 86_400) / SIZES.bulkClaims)}),
              now() - interval '90 days' + (i * interval '1 second' * ${Math.floor((89 * 86_400) / SIZES.bulkClaims)})
       FROM generate_series(1, ${SIZES.bulkClaims}) AS i`,
    );
    await run(
      tx,
      `INSERT INTO claim_parents (claim_id, parent_id, position)
       SELECT ${claimId("bulk", "i")}, ${claimId("hot", "0")}, 0 FROM generate_series(1, ${SIZES.bulkClaims}) AS i`,
    );
    // The maximal claims, the newest of all; the first of them builds on 5 others (the limit).
    await run(
      tx,
      `INSERT INTO claims (id, statement, complexity_tier, tags, author_id, created_at, updated_at)
       SELECT ${claimId("maxed", "i")}, ${longText("i", LIMITS.statement, "Maximal claim")}, 'contested', ${tagsOf("i")}, ${agentId("maxed")},
              now() - interval '1 hour' + i * interval '1 second', now() - interval '1 hour' + i * interval '1 second'
       FROM generate_series(1, ${SIZES.maxedClaims}) AS i`,
    );
    await run(
      tx,
      `INSERT INTO claim_parents (claim_id, parent_id, position)
       SELECT ${claimId("maxed", "1")}, ${claimId("maxed", "i")}, i - 2 FROM generate_series(2, 6) AS i`,
    );
    // The DAG: level 0 is the root; level L (1..4) has dagWidth claims, each under every claim of level L-1.
    await run(
      tx,
      `INSERT INTO claims (id, statement, tags, author_id, created_at, updated_at)
       SELECT ${claimId("dag", "l * 1000 + k")}, ${longText("l * 1000 + k", LIMITS.statement, "Argument claim")}, ${tagsOf("l * 1000 + k")},
              ${agentId("maxed")}, now() - interval '3 hours' + (l * 100 + k) * interval '1 second', now() - interval '3 hours'
       FROM generate_series(0, ${SIZES.dagLevels}) AS l, generate_series(1, ${SIZES.dagWidth}) AS k
       WHERE l > 0 OR k = 1`,
    );
    await run(
      tx,
      `INSERT INTO arguments (id, parent_claim_id, child_claim_id, stance, author_id, created_at)
       SELECT ${uuidFrom(`'adv-arg-' || l || '-' || p || '-' || k`)}, ${claimId("dag", "(l - 1) * 1000 + p")}, ${claimId("dag", "l * 1000 + k")},
              (CASE WHEN (p + k) % 2 = 0 THEN 'supports' ELSE 'opposes' END)::"ArgumentStance", ${agentId("maxed")},
              now() - interval '2 hours' + (l * 10000 + p * 100 + k) * interval '1 millisecond'
       FROM generate_series(1, ${SIZES.dagLevels}) AS l, generate_series(1, ${SIZES.dagWidth}) AS p, generate_series(1, ${SIZES.dagWidth}) AS k
       WHERE l > 1 OR p = 1`,
    );

    // ---- the hot claim's votes, their sums and history ----
    const hot = claimId("hot", "0");
    await run(
      tx,
      `INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, counted, created_at, updated_at)
       SELECT ${uuidFrom(`'adv-vote-' || i`)}, ${hot}, ${voterId("i")}, ((i * 37) % 101) / 100.0, ${MIN_VOTE_WEIGHT}, 0.5, true,
              now() - interval '20 hours' + i * interval '10 milliseconds', now() - interval '20 hours' + i * interval '10 milliseconds'
       FROM generate_series(1, ${SIZES.voters}) AS i`,
    );
    await run(
      tx,
      `UPDATE claims c SET vote_count = v.n, weighted_sum = v.swv, weight_total = v.sw,
              people_vote_count = v.n, people_weighted_sum = v.swv, people_weight_total = v.sw,
              counted_vote_count = v.n, counted_weighted_sum = v.swv, counted_weight_total = v.sw,
              gradient = least(1, greatest(0, v.swv / v.sw)),
              counted_histogram = ARRAY(SELECT count(x.value)::int FROM generate_series(0, ${HISTOGRAM_BINS - 1}) AS b
                                     LEFT JOIN claim_votes x ON x.claim_id = c.id AND ${histogramBinSql("x.value")} = b GROUP BY b ORDER BY b),
              consensus_status = (CASE WHEN v.n < ${MIN_CONSENSUS_VOTERS} THEN 'too_few_votes'
                                       WHEN v.swv / v.sw > ${CONSENSUS_HIGH} THEN 'consensus_true'
                                       WHEN v.swv / v.sw < ${CONSENSUS_LOW} THEN 'consensus_false' ELSE 'open' END)::"ConsensusStatus",
              consensus_since = now() - interval '19 hours'
       FROM (SELECT count(*)::int AS n, sum(weight * value) AS swv, sum(weight) AS sw FROM claim_votes WHERE claim_id = ${hot}) v
       WHERE c.id = ${hot}`,
    );
    // One point per vote (the detail view returns the newest 1,000); the last is the claim's state.
    await run(
      tx,
      `INSERT INTO gradient_history (claim_id, gradient, vote_count, recorded_at)
       SELECT ${hot}, 0.3 + (i % 40) / 100.0, i, now() - interval '20 hours' + i * interval '10 milliseconds'
       FROM generate_series(1, ${SIZES.voters - 1}) AS i`,
    );
    await run(tx, `INSERT INTO gradient_history (claim_id, gradient, vote_count, recorded_at) SELECT id, gradient, vote_count, now() FROM claims WHERE id = ${hot}`);

    // ---- evidence: 50,000 characters each, with a title and an excerpt at their limits ----
    await run(
      tx,
      `INSERT INTO evidence (id, claim_id, author_id, position, content_type, content, title, excerpt, created_at, updated_at)
       SELECT ${uuidFrom(`'adv-evidence-' || i`)}, ${hot}, ${voterId("i")}, (CASE WHEN i % 2 = 0 THEN 'supports' ELSE 'opposes' END)::"EvidencePosition",
              'text', ${longText("i", LIMITS.evidence, "Evidence")}, left('Title ' || i || ' ' || ${long(LIMITS.title)}, ${LIMITS.title}),
              left('Excerpt ' || i || ' ' || ${long(LIMITS.excerpt)}, ${LIMITS.excerpt}),
              now() - interval '10 hours' + i * interval '1 second', now() - interval '10 hours' + i * interval '1 second'
       FROM generate_series(1, ${SIZES.evidence}) AS i`,
    );

    // ---- comments: full threads (every level the list embeds), and one comment with thousands of replies ----
    const r = SIZES.repliesPerLevel;
    const threadPath = ["t::text", `t || '.' || a`, `t || '.' || a || '.' || b`, `t || '.' || a || '.' || b || '.' || d`];
    const levels = [
      { from: `generate_series(1, ${SIZES.threads}) AS t`, parent: "NULL" },
      { from: `generate_series(1, ${SIZES.threads}) AS t, generate_series(1, ${r}) AS a`, parent: commentId(threadPath[0]) },
      { from: `generate_series(1, ${SIZES.threads}) AS t, generate_series(1, ${r}) AS a, generate_series(1, ${r}) AS b`, parent: commentId(threadPath[1]) },
      {
        from: `generate_series(1, ${SIZES.threads}) AS t, generate_series(1, ${r}) AS a, generate_series(1, ${r}) AS b, generate_series(1, ${r}) AS d`,
        parent: commentId(threadPath[2]),
      },
    ];
    for (const [depth, level] of levels.entries()) {
      await run(
        tx,
        `INSERT INTO comments (id, claim_id, parent_id, author_id, content, depth, created_at, updated_at)
         SELECT ${commentId(threadPath[depth])}, ${hot}, ${level.parent}, ${voterId("t")},
                ${longText("t", LIMITS.comment, "Comment")}, ${depth},
                now() - interval '9 hours' + (t * 100 + ${depth}) * interval '1 second', now() - interval '9 hours'
         FROM ${level.from}`,
      );
    }
    await run(
      tx,
      `INSERT INTO comments (id, claim_id, parent_id, author_id, content, depth, created_at, updated_at)
       SELECT ${commentId(`'long-' || i`)}, ${hot}, ${commentId("'1'")}, ${voterId("i")}, 'Reply number ' || i || ' to the first thread', 1,
              now() - interval '8 hours' + i * interval '1 millisecond', now() - interval '8 hours'
       FROM generate_series(1, ${SIZES.longThreadReplies}) AS i`,
    );
    await run(tx, `UPDATE claims SET evidence_count = ${SIZES.evidence}, comment_count = (SELECT count(*) FROM comments WHERE claim_id = ${hot}) WHERE id = ${hot}`);

    // ---- reports: every voter reports the hot claim, and the maximal claims have some each ----
    const reasons = `(ARRAY['spam','abuse','misinformation','off_topic','other'])[1 + i % 5]::"ReportReason"`;
    await run(
      tx,
      `INSERT INTO reports (id, reporter_id, target_type, target_id, reason, note, created_at)
       SELECT ${uuidFrom(`'adv-report-' || i`)}, ${voterId("i")}, 'claim', ${hot}, ${reasons},
              left('Note ' || i || ' ' || ${long(LIMITS.note)}, ${LIMITS.note}), now() - interval '5 hours' + i * interval '1 millisecond'
       FROM generate_series(1, ${SIZES.voters}) AS i`,
    );
    await run(
      tx,
      `INSERT INTO reports (id, reporter_id, target_type, target_id, reason, note, created_at)
       SELECT ${uuidFrom(`'adv-report-' || m || '-' || i`)}, ${voterId("i")}, 'claim', ${claimId("maxed", "m")}, ${reasons},
              left('Note ' || i || ' ' || ${long(LIMITS.note)}, ${LIMITS.note}), now() - interval '4 hours' + (m * 100 + i) * interval '1 millisecond'
       FROM generate_series(1, ${SIZES.maxedReportTargets}) AS m, generate_series(1, ${SIZES.reportsPerMaxedTarget}) AS i`,
    );

    // ---- the reader bookmarks and follows every maximal claim ----
    for (const table of ["bookmarks", "follows"]) {
      await run(
        tx,
        `INSERT INTO ${table} (agent_id, claim_id, created_at${table === "follows" ? ", updated_at" : ""})
         SELECT ${agentId("reader")}, ${claimId("maxed", "i")}, now() - interval '30 minutes' + i * interval '1 second'${table === "follows" ? ", now()" : ""}
         FROM generate_series(1, ${SIZES.maxedClaims}) AS i`,
      );
    }
  });

  const ids = await sqlTransaction((tx) =>
    one<Record<string, string>>(
      tx,
      `SELECT ${claimId("hot", "0")}::text AS hot, ${claimId("dag", "1")}::text AS root, ${claimId("dag", `${SIZES.dagLevels} * 1000 + 1`)}::text AS leaf,
              ${claimId("dag", "1001")}::text AS level1, ${commentId("'1.1.1.1'")}::text AS deepest,
              ${claimId("bulk", "1")}::text AS bulk, ${claimId("maxed", "1")}::text AS maxed, ${commentId("'1'")}::text AS thread,
              ${commentId("'2'")}::text AS thread2, ${uuidFrom("'adv-evidence-1'")}::text AS evidence, ${tagOf("0")} AS tag,
              ${agentId("author")}::text AS author, ${agentId("maxed")}::text AS maxed_author,
              ${agentId("reader")}::text AS reader, ${agentId("admin")}::text AS admin`,
    ),
  );
  const counts = await sqlTransaction((tx) =>
    one<Record<string, number>>(
      tx,
      `SELECT (SELECT count(*)::int FROM claims) AS claims, (SELECT count(*)::int FROM arguments) AS arguments,
              (SELECT count(*)::int FROM claim_votes) AS votes, (SELECT count(*)::int FROM evidence) AS evidence,
              (SELECT count(*)::int FROM comments) AS comments, (SELECT count(*)::int FROM reports) AS reports`,
    ),
  );
  // What autovacuum would do within a minute of a bulk load: plans for the data that is there.
  await sqlTransaction((tx) => run(tx, "ANALYZE"));
  const violations = await checkInvariants();
  if (violations.length) throw new Error(`the adversarial seed is inconsistent:\n${violations.join("\n")}`);
  const token = async (id: string) => (await issueTokenPair(id)).access_token;
  return {
    seconds: Math.round((performance.now() - started) / 100) / 10,
    rows: counts as AdversarialSeed["rows"],
    hotClaimId: ids.hot,
    dagRootId: ids.root,
    dagLevel1Id: ids.level1,
    dagLeafId: ids.leaf,
    bulkClaimId: ids.bulk,
    maxedClaimId: ids.maxed,
    longThreadCommentId: ids.thread,
    threadCommentId: ids.thread2,
    deepestCommentId: ids.deepest,
    evidenceId: ids.evidence,
    tag: ids.tag,
    authorId: ids.author,
    readerId: ids.reader,
    tokens: { reader: await token(ids.reader), admin: await token(ids.admin), author: await token(ids.author), maxedAuthor: await token(ids.maxed_author) },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const seeded = await seedAdversarial();
  await closeDb();
  process.stdout.write(`${JSON.stringify(seeded)}\n`);
}
