// Every counted claim vote (with standing: docs/features/consensus.md#standing), read for the bridging fit on a PostgreSQL connection of its own (the fit's worker
// thread opens it: the API's pool and event loop never see these rows). A server-side cursor
// streams a sequential scan in batches of plain arrays into flat typed arrays, so memory stays at the
// arrays' 16 bytes a vote plus one batch, however many votes there are.
import pg from "pg";
import { VoteMatrixBuilder, type VoteMatrix } from "../domain/bridging.ts";
import { splitSchema } from "./url.ts";

export interface VoteSnapshot {
  matrix: VoteMatrix;
  claimIds: string[];
  agentIds: string[];
}

/** Rows per FETCH: a short burst of the server's work each (a background read yields between them). */
const FETCH_ROWS = 5_000;

/** `pace`, if given, is awaited after each batch with how long the batch took (a background read yields). */
export async function streamVotesFromPostgres(
  databaseUrl: string,
  fetchRows = FETCH_ROWS,
  pace?: (tookMs: number) => Promise<void>,
): Promise<VoteSnapshot> {
  const { connectionString, schema } = splitSchema(databaseUrl);
  const client = new pg.Client({
    connectionString,
    options: schema ? `-c search_path=${schema}` : undefined,
    application_name: "bridging-fit",
  });
  await client.connect();
  try {
    // One snapshot for the whole read; READ ONLY needs no locks beyond the scan's.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // The planner's row estimate sizes the arrays once (they double if it was low).
    const { rows: estimate } = await client.query<{ n: number }>(
      "SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'claim_votes'::regclass",
    );
    const builder = new VoteMatrixBuilder(Math.ceil((estimate[0]?.n ?? 0) * 1.05) + 1024);
    // No ORDER BY: a sequential scan, the cheapest read; the builder numbers ids in a fixed order.
    await client.query("DECLARE bridging_votes NO SCROLL CURSOR FOR SELECT claim_id, agent_id, value FROM claim_votes WHERE counted");
    for (;;) {
      const started = performance.now();
      const { rows } = await client.query<[string, string, number]>({
        text: `FETCH ${fetchRows} FROM bridging_votes`,
        rowMode: "array",
      });
      for (const [claimId, agentId, value] of rows) builder.add(claimId, agentId, value);
      if (rows.length < fetchRows) break;
      await pace?.(performance.now() - started);
    }
    await client.query("COMMIT");
    return builder.build();
  } finally {
    await client.end();
  }
}
