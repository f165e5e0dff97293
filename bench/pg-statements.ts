// Counts the statements sent to PostgreSQL through `pg` in this process (Prisma's driver adapter uses
// it too, transactions' BEGIN/COMMIT included): one increment per query call. Shared by the servers'
// probe (bench/probe.ts) and the in-process micro-run (bench/micro.ts).
import pg from "pg";

let sent = 0;
const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const original = proto.query;
proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
  sent++;
  return original.apply(this, args);
};

/** How many statements this process has sent so far. */
export function statementsSent(): number {
  return sent;
}
