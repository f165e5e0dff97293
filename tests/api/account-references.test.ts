// The list of everything that points at an account (server/services/account-references.ts) against
// the database's own catalog, after every migration: each foreign key to agents is listed with its
// real ON DELETE rule, each uuid column without a foreign key is either listed or named here as
// pointing at something else, and nothing that goes with an account is held back by a foreign key
// that would refuse the delete. A new table or column that points at agents fails here until
// deletion knows what to do with it (docs/features/accounts.md, "Deletion").
import { beforeAll, describe, expect, it } from "vitest";
import { dbReady, readSql } from "../../server/db/client.ts";
import { AGENT_REFERENCES, type AgentReference } from "../../server/services/account-references.ts";

/** uuid columns without a foreign key that point at something other than an account. */
const NOT_AN_AGENT: Record<string, string> = {
  "bridging_pending.claim_id": "a claim waiting for its bridging score",
  "outbox_events.claim_id": "the claim of the event",
  "outbox_events.evidence_id": "the evidence of the event",
  "outbox_events.comment_id": "the comment of the event",
  "outbox_events.argument_id": "the argument of the event",
  "refresh_tokens.parent_id": "the refresh token this one replaced",
  "reputation_events.claim_id": "the claim that moved the reputation",
  "reputation_events.evidence_id": "the evidence that moved the reputation",
  "standing_pending.token": "the mark's token: a pass removes the mark only if nothing marked the account again",
};

const RULE = { c: "cascade", n: "set null", r: "restrict", a: "no action", d: "set default" } as const;

interface ForeignKey {
  tbl: string;
  col: string;
  ref: string;
  del: keyof typeof RULE;
}

let foreignKeys: ForeignKey[];
let columns: { table_name: string; column_name: string; data_type: string }[];

beforeAll(async () => {
  await dbReady();
  foreignKeys = await readSql<ForeignKey>`
    SELECT c.conrelid::regclass::text AS tbl, a.attname::text AS col, c.confrelid::regclass::text AS ref, c.confdeltype::text AS del
    FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`;
  columns = await readSql`
    SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type
    FROM information_schema.columns WHERE table_schema = current_schema()`;
});

const key = (table: string, column: string) => `${table}.${column}`;
const listed = new Map<string, AgentReference>(AGENT_REFERENCES.map((r) => [key(r.table, r.column), r]));

describe("the list of references to an account", () => {
  it("holds every foreign key to agents, with its real ON DELETE rule, and a disposal that rule allows", () => {
    const toAgents = foreignKeys.filter((f) => f.ref === "agents");
    expect(toAgents.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const fk of toAgents) {
      const ref = listed.get(key(fk.tbl, fk.col));
      if (!ref) {
        problems.push(`${key(fk.tbl, fk.col)}: a foreign key to agents (ON DELETE ${RULE[fk.del]}) that server/services/account-references.ts does not list`);
        continue;
      }
      if (ref.foreignKey !== RULE[fk.del]) problems.push(`${key(fk.tbl, fk.col)}: listed as ON DELETE ${ref.foreignKey}, the schema says ${RULE[fk.del]}`);
      // A restricting key refuses the delete unless deletion moves the rows first.
      if ((fk.del === "r" || fk.del === "a") && !["tombstone", "set_null", "delete"].includes(ref.onDeletion)) {
        problems.push(`${key(fk.tbl, fk.col)}: ON DELETE ${RULE[fk.del]} refuses the delete, but the list says "${ref.onDeletion}"`);
      }
      if (ref.onDeletion === "cascade" && fk.del !== "c") problems.push(`${key(fk.tbl, fk.col)}: listed as going with the account, but the key does not cascade`);
      if (ref.onDeletion === "kept") problems.push(`${key(fk.tbl, fk.col)}: a foreign key cannot keep an id of a deleted row`);
    }
    expect(problems).toEqual([]);
  });

  it("names every uuid column without a foreign key: listed, or pointing at something else", () => {
    const withKey = new Set(foreignKeys.map((f) => key(f.tbl, f.col)));
    const unclassified = columns
      .filter((c) => c.data_type === "uuid" && c.column_name !== "id" && !withKey.has(key(c.table_name, c.column_name)))
      .map((c) => key(c.table_name, c.column_name))
      .filter((k) => !listed.has(k) && !NOT_AN_AGENT[k]);
    expect(unclassified, "uuid columns that may point at an account: list them in account-references.ts or here").toEqual([]);
  });

  it("lists only columns that exist", () => {
    const existing = new Set(columns.map((c) => key(c.table_name, c.column_name)));
    expect([...listed.keys(), ...Object.keys(NOT_AN_AGENT)].filter((k) => !existing.has(k))).toEqual([]);
  });

  it("lets every row that goes with an account go: nothing below it restricts the delete", () => {
    // Rows deleted with the account (its cascade, its reversed rows, its delete rows), and everything
    // that cascades from them in turn: a foreign key into any of them must cascade or set null.
    const goes = new Set<string>(["agents"]);
    for (const r of AGENT_REFERENCES) if (r.onDeletion === "cascade" || r.onDeletion === "reversed" || r.onDeletion === "delete") goes.add(r.table);
    for (let grew = true; grew; ) {
      grew = false;
      for (const fk of foreignKeys) if (goes.has(fk.ref) && fk.del === "c" && !goes.has(fk.tbl)) (goes.add(fk.tbl), (grew = true));
    }
    const refusing = foreignKeys
      .filter((fk) => goes.has(fk.ref) && fk.ref !== "agents" && fk.del !== "c" && fk.del !== "n")
      .map((fk) => `${key(fk.tbl, fk.col)} → ${fk.ref} (ON DELETE ${RULE[fk.del]})`);
    expect(refusing).toEqual([]);
  });
});
