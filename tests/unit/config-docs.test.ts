// The configuration by reader (docs/operating.md#configuration, docs/testing.md#test-knobs): every
// variable of server/config.ts has one row, in the operator's table or among the test knobs, in the
// schema's order; a default the docs write as one value is the one the schema gives.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATOR_SETTINGS, parseConfig, TEST_KNOBS } from "../../server/config.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Row {
  names: string[];
  /** The Default cell, as written. */
  fallback: string;
}

/** The rows of the first table under `heading` in a document; topic rows (no variable) are skipped. */
function tableRows(markdown: string, heading: string): Row[] {
  const lines = markdown.split("\n");
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) throw new Error(`no heading ${heading}`);
  const rest = lines.slice(at + 1);
  const start = rest.findIndex((l) => l.startsWith("|"));
  const table = rest.slice(start, start + rest.slice(start).findIndex((l) => !l.startsWith("|")));
  return table.slice(2).flatMap((line) => {
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    const names = [...cells[0].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);
    return names.length === 0 ? [] : [{ names, fallback: cells[cells.length - 1] }];
  });
}

const doc = (file: string) => readFileSync(path.join(ROOT, "docs", file), "utf8");
const operatorRows = () => tableRows(doc("operating.md"), "## Configuration");
const knobRows = () => tableRows(doc("testing.md"), "## Test knobs");
const secrets = { JWT_SECRET: "jwt-Kq8vT2mZ9xLp4RbN7cWd1YhF6sJe3Ug5", NEXTAUTH_SECRET: "na-Hs5Pw1Qz8Tn3Vx6By0Cm4Dk7Fj2Gl9Rt", WEBHOOK_SECRET_KEY: "wh-Vb6Nm2Qa9Ws3Ed7Rf1Tg5Yh8Uj4Ik0Ol" };

describe("the configuration's two tables", () => {
  it("the operator's table names every operator setting, by topic in the schema's order, and nothing else", () => {
    expect(operatorRows().flatMap((r) => r.names)).toEqual(OPERATOR_SETTINGS);
  });

  it("the test knobs' table names every test knob in the schema's order, and nothing else", () => {
    expect(knobRows().flatMap((r) => r.names)).toEqual(TEST_KNOBS);
  });

  it("no variable is both an operator setting and a test knob", () => {
    expect(OPERATOR_SETTINGS.filter((name) => TEST_KNOBS.includes(name))).toEqual([]);
  });

  it("a default written as one value is what the schema gives when the variable is unset", () => {
    const { checked, wrong } = defaultsAgainstSchema([...operatorRows(), ...knobRows()]);
    expect(wrong).toEqual([]);
    // Most single-valued defaults are checked (a reworded cell must not silently skip them all).
    expect(checked.length).toBeGreaterThan(25);
  });

  it("finds what it checks: a row in the wrong table, a missing row, a wrong default", () => {
    const operating = doc("operating.md");
    const moved = operating.replace("| **The server** | | |", "| `LIVE_HEARTBEAT_MS` | heartbeat | `15000` |\n| **The server** | | |");
    expect(tableRows(moved, "## Configuration").flatMap((r) => r.names)).not.toEqual(OPERATOR_SETTINGS);
    const missing = operating.replace(/^\| `PAGE_RATE_LIMIT` .*\n/m, "");
    expect(tableRows(missing, "## Configuration").flatMap((r) => r.names)).not.toEqual(OPERATOR_SETTINGS);
    const port = operating.replace("| HTTP port of `npm start` | `3000` |", "| HTTP port of `npm start` | `8080` |");
    expect(defaultsAgainstSchema(tableRows(port, "## Configuration")).wrong).toEqual(["PORT: the docs say 8080, the schema gives 3000"]);
  });
});

/** Each row whose Default is one backticked value: setting the variable to it must change nothing. */
function defaultsAgainstSchema(rows: Row[]): { checked: string[]; wrong: string[] } {
  const defaults = parseConfig(secrets) as unknown as Record<string, unknown>;
  const checked: string[] = [];
  const wrong: string[] = [];
  for (const { names, fallback } of rows) {
    const literal = /^`([^`]+)`$/.exec(fallback)?.[1];
    if (names.length !== 1 || literal === undefined) continue;
    const [name] = names;
    const set = parseConfig({ ...secrets, [name]: literal }) as unknown as Record<string, unknown>;
    checked.push(name);
    if (JSON.stringify(set[name]) !== JSON.stringify(defaults[name])) wrong.push(`${name}: the docs say ${literal}, the schema gives ${JSON.stringify(defaults[name])}`);
  }
  return { checked, wrong };
}
