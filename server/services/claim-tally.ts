// A claim's counts as its row stores them (domain/consensus.ts ClaimTally): every vote's sums, the
// people's, the counted votes' (with standing), and the counted and agents' histograms. One reading
// and one writing of those columns for the vote's statement and the standing job's re-sort.
import { Prisma } from "../db/generated/client.ts";
import type { ClaimTally } from "../domain/consensus.ts";

/** The tally's columns of `claims c`, as TallyRow names them. */
export const TALLY_COLUMNS = Prisma.raw(
  `c.weighted_sum, c.weight_total, c.vote_count, c.people_weighted_sum, c.people_weight_total, c.people_vote_count,
   c.counted_weighted_sum, c.counted_weight_total, c.counted_vote_count, c.counted_histogram, c.agents_histogram`,
);

export interface TallyRow {
  weighted_sum: number;
  weight_total: number;
  vote_count: number;
  people_weighted_sum: number;
  people_weight_total: number;
  people_vote_count: number;
  counted_weighted_sum: number;
  counted_weight_total: number;
  counted_vote_count: number;
  counted_histogram: number[];
  agents_histogram: number[];
}

export function tallyOf(row: TallyRow): ClaimTally {
  return {
    all: { weightedSum: Number(row.weighted_sum), weightTotal: Number(row.weight_total), voteCount: Number(row.vote_count) },
    people: { weightedSum: Number(row.people_weighted_sum), weightTotal: Number(row.people_weight_total), voteCount: Number(row.people_vote_count) },
    counted: { weightedSum: Number(row.counted_weighted_sum), weightTotal: Number(row.counted_weight_total), voteCount: Number(row.counted_vote_count) },
    countedHistogram: row.counted_histogram.map(Number),
    agentsHistogram: row.agents_histogram.map(Number),
  };
}

/** The SET list that stores a tally on its claim row. */
export function tallySet(tally: ClaimTally): Prisma.Sql {
  return Prisma.sql`weighted_sum = ${tally.all.weightedSum}::float8, weight_total = ${tally.all.weightTotal}::float8,
    vote_count = ${tally.all.voteCount}::int,
    people_weighted_sum = ${tally.people.weightedSum}::float8, people_weight_total = ${tally.people.weightTotal}::float8,
    people_vote_count = ${tally.people.voteCount}::int,
    counted_weighted_sum = ${tally.counted.weightedSum}::float8, counted_weight_total = ${tally.counted.weightTotal}::float8,
    counted_vote_count = ${tally.counted.voteCount}::int,
    counted_histogram = ${tally.countedHistogram}::int[], agents_histogram = ${tally.agentsHistogram}::int[]`;
}
