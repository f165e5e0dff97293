// One road per concern (docs/architecture.md#one-road-per-concern): each of these has one way in, read
// from the source of every running file (server/, the server parts of app/, instrumentation.ts) and
// failing with the file and line that takes another:
//   - the environment through config() (server/config.ts), with the stated exceptions;
//   - logs through server/log/logger.ts: no console.* (the command-line tools of server/cli print);
//   - Redis connections from server/store (type imports of ioredis elsewhere are fine);
//   - the database rule of server/db/client.ts: no raw read on db() (rule 1), only writes or, inside a
//     Prisma transaction, reads that must see it (rule 3); never a $queryRawUnsafe/$executeRawUnsafe;
//   - process-wide state through server/process-singleton.ts: nothing else touches globalThis.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" || entry.name === "node_modules" ? [] : sourceFiles(rel);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

interface Source {
  file: string;
  ast: ts.SourceFile;
  /** A client component: runs in the browser (its console is the browser's). */
  client: boolean;
}

const RUNNING: Source[] = [...sourceFiles("server"), ...sourceFiles("app"), "instrumentation.ts"].map((file) => {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const ast = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const first = ast.statements[0];
  const client = Boolean(
    first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === "use client",
  );
  return { file, ast, client };
});

const isCli = (file: string) => file.startsWith("server/cli/");

/** `file:line  text` of every node `match` picks in the given files. */
function find(sources: Source[], match: (node: ts.Node, src: Source) => boolean): string[] {
  const hits: string[] = [];
  for (const src of sources) {
    const visit = (node: ts.Node) => {
      if (match(node, src)) {
        const { line } = src.ast.getLineAndCharacterOfPosition(node.getStart());
        hits.push(`${src.file}:${line + 1}  ${node.getText().split("\n")[0].slice(0, 100)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src.ast);
  }
  return hits;
}

const isAccess = (node: ts.Node, object: string, name?: string): node is ts.PropertyAccessExpression =>
  ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === object && (name === undefined || node.name.text === name);

/** Next's own signals, read by instrumentation.ts before any server module may load. */
const NEXT_SIGNALS = new Set(["NEXT_RUNTIME", "NEXT_PHASE"]);

function envReads(sources: Source[]): string[] {
  return find(sources, (node, src) => {
    if (!isAccess(node, "process", "env")) return false;
    if (src.file === "server/config.ts" || isCli(src.file)) return false;
    const parent = node.parent;
    if (src.file === "instrumentation.ts" && ts.isPropertyAccessExpression(parent) && NEXT_SIGNALS.has(parent.name.text)) return false;
    return true;
  });
}

function consoleCalls(sources: Source[]): string[] {
  return find(sources, (node, src) => isAccess(node, "console") && !isCli(src.file) && !src.client);
}

function globalThisUses(sources: Source[]): string[] {
  return find(sources, (node, src) => ts.isIdentifier(node) && node.text === "globalThis" && src.file !== "server/process-singleton.ts");
}

function redisOutsideStore(sources: Source[]): string[] {
  return find(
    sources,
    (node, src) =>
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === "ioredis" &&
      !node.importClause?.isTypeOnly &&
      !src.file.startsWith("server/store/"),
  );
}

const WRITES = /^\s*(INSERT|UPDATE|DELETE)\b/i;

/** The SQL a raw call starts with (its template's head), or "" when it is not a literal template. */
function sqlHead(node: ts.Node): string {
  if (ts.isTaggedTemplateExpression(node)) {
    const t = node.template;
    return ts.isNoSubstitutionTemplateLiteral(t) ? t.text : t.head.text;
  }
  return "";
}

function rawReadsOffTransaction(sources: Source[]): string[] {
  return find(sources, (node) => {
    const callee = ts.isTaggedTemplateExpression(node) ? node.tag : ts.isCallExpression(node) ? node.expression : undefined;
    if (!callee || !ts.isPropertyAccessExpression(callee)) return false;
    const method = callee.name.text;
    if (method === "$queryRawUnsafe" || method === "$executeRawUnsafe") return true;
    if (method !== "$queryRaw") return false;
    // Rule 3: inside a Prisma transaction (its client is `tx`) a read may need to see the transaction.
    if (ts.isIdentifier(callee.expression) && callee.expression.text === "tx") return false;
    // Rule 3: a write the model API cannot express, read back with RETURNING.
    return !WRITES.test(sqlHead(node));
  });
}

describe("one road per concern (docs/architecture.md#one-road-per-concern)", () => {
  it("reads the environment only through config() (config.ts, Next's signals in instrumentation.ts, server/cli excepted)", () => {
    expect(envReads(RUNNING)).toEqual([]);
  });

  it("logs only through the logger: no console.* in running server code (server/cli and client components excepted)", () => {
    expect(consoleCalls(RUNNING)).toEqual([]);
  });

  it("keeps process-wide state only through server/process-singleton.ts", () => {
    expect(globalThisUses(RUNNING)).toEqual([]);
  });

  it("opens Redis connections only in server/store", () => {
    expect(redisOutsideStore(RUNNING)).toEqual([]);
  });

  it("reads SQL outside a transaction only through readSql: no raw read on db(), no $queryRawUnsafe", () => {
    expect(rawReadsOffTransaction(RUNNING)).toEqual([]);
  });

  it("each check finds what it is for (a planted violation of each rule)", () => {
    const plant = (file: string, text: string): Source[] => [
      { file, ast: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true), client: false },
    ];
    expect(envReads(plant("server/services/x.ts", "const a = process.env.REDIS_URL;"))).toHaveLength(1);
    expect(envReads(plant("instrumentation.ts", "const a = process.env.NEXT_RUNTIME; const b = process.env.PORT;"))).toHaveLength(1);
    expect(envReads(plant("server/cli/x.ts", "process.env.X ??= '0';"))).toEqual([]);
    expect(consoleCalls(plant("server/jobs/x.ts", "console.error('[x]', err);"))).toHaveLength(1);
    expect(consoleCalls(plant("server/cli/x.ts", "console.log('done');"))).toEqual([]);
    expect(globalThisUses(plant("server/queue/x.ts", "const g = globalThis as unknown as { a?: 1 };"))).toHaveLength(1);
    expect(redisOutsideStore(plant("server/queue/x.ts", 'import { Redis } from "ioredis";'))).toHaveLength(1);
    expect(redisOutsideStore(plant("server/queue/x.ts", 'import type IORedis from "ioredis";'))).toEqual([]);
    const rows = (code: string) => rawReadsOffTransaction(plant("server/services/x.ts", code));
    expect(rows("await db().$queryRaw<R[]>`SELECT id FROM claims WHERE id = ${id}`;")).toHaveLength(1);
    expect(rows("await db().$queryRawUnsafe('SELECT 1');")).toHaveLength(1);
    expect(rows("await db().$queryRaw`INSERT INTO t (a) VALUES (${a}) ON CONFLICT DO NOTHING RETURNING id`;")).toEqual([]);
    expect(rows("await tx.$queryRaw`SELECT id FROM agents WHERE id = ${id} FOR UPDATE`;")).toEqual([]);
  });
});
