// Named options (docs/architecture.md#named-options): a function of the service layers that takes more
// than three parameters takes one object of named options instead, so that every call reads by name and
// two values of one type (two uuids, three numbers) cannot trade places unnoticed. Read from the source
// of every file in the folders below: every function at a module's top level, exported or not (a
// module's own helpers are read by the same people), and the methods of its top-level classes. Functions
// nested inside others are the enclosing function's business and are not counted.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The folders whose functions callers reach by name: the services and the rules and helpers below them. */
const FOLDERS = ["server/services", "server/domain", "server/auth", "server/mail", "server/oauth"];

/** The most positional parameters a function may take. */
const MAX_PARAMETERS = 3;

/**
 * `file#function` → why it keeps its positional parameters. Empty: a new entry needs a reason a reader
 * accepts (a signature a library or the platform dictates), not "there are many callers".
 */
const EXCEPTIONS = new Map<string, string>([]);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

interface Source {
  file: string;
  ast: ts.SourceFile;
}

const parse = (file: string, text: string): Source => ({ file, ast: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) });

const SOURCES: Source[] = FOLDERS.flatMap(sourceFiles).map((file) => parse(file, readFileSync(path.join(ROOT, file), "utf8")));

type Callable = ts.SignatureDeclarationBase & { parameters: ts.NodeArray<ts.ParameterDeclaration> };

/** The module's top-level functions, `const f = (…) =>` and `function` expressions, and its classes' methods. */
function topLevelFunctions(ast: ts.SourceFile): { name: string; fn: Callable }[] {
  const found: { name: string; fn: Callable }[] = [];
  for (const statement of ast.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) found.push({ name: statement.name.text, fn: statement });
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (init && ts.isIdentifier(d.name) && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) found.push({ name: d.name.text, fn: init });
      }
    }
    if (ts.isClassDeclaration(statement)) {
      const owner = statement.name?.text ?? "(class)";
      for (const member of statement.members) {
        if (ts.isConstructorDeclaration(member)) found.push({ name: `${owner}.constructor`, fn: member });
        if (ts.isMethodDeclaration(member)) found.push({ name: `${owner}.${member.name.getText(ast)}`, fn: member });
      }
    }
  }
  return found;
}

/** A TypeScript `this` parameter declares a type, not an argument. */
const argumentsOf = (fn: Callable) => fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this"));

/** `file:line  name(n parameters)` of every function taking more than MAX_PARAMETERS, exceptions left out. */
function longSignatures(sources: Source[], exceptions: ReadonlyMap<string, string> = EXCEPTIONS): string[] {
  const hits: string[] = [];
  for (const { file, ast } of sources) {
    for (const { name, fn } of topLevelFunctions(ast)) {
      const n = argumentsOf(fn).length;
      if (n <= MAX_PARAMETERS || exceptions.has(`${file}#${name}`)) continue;
      const { line } = ast.getLineAndCharacterOfPosition(fn.getStart(ast));
      hits.push(`${file}:${line + 1}  ${name}(${n} parameters)`);
    }
  }
  return hits;
}

describe("named options (docs/architecture.md#named-options)", () => {
  it(`no function of ${FOLDERS.join(", ")} takes more than ${MAX_PARAMETERS} positional parameters`, () => {
    expect(longSignatures(SOURCES)).toEqual([]);
  });

  it("lists only exceptions that still exist and still need it", () => {
    const stale = [...EXCEPTIONS.keys()].filter((key) => {
      const [file, name] = key.split("#");
      const source = SOURCES.find((s) => s.file === file);
      const fn = source && topLevelFunctions(source.ast).find((f) => f.name === name)?.fn;
      return !fn || argumentsOf(fn).length <= MAX_PARAMETERS;
    });
    expect(stale).toEqual([]);
  });

  it("reads every file of the folders (the scan finds the services it is for)", () => {
    const files = new Set(SOURCES.map((s) => s.file));
    for (const file of ["server/services/moderation.ts", "server/domain/bridging.ts", "server/auth/identity.ts", "server/mail/mailer.ts"]) {
      expect(files).toContain(file);
    }
  });

  it("finds what it is for (planted functions)", () => {
    const plant = (text: string) => longSignatures([parse("server/services/x.ts", text)], new Map());
    // Too many, however the function is written.
    expect(plant("export async function hide(actor: Actor, type: string, id: string, reason: string) {}")).toEqual([
      "server/services/x.ts:1  hide(4 parameters)",
    ]);
    expect(plant("function audit(tx: Tx, actorId: string, action: string, targetId: string) {}")).toHaveLength(1);
    expect(plant("export const score = (mu: number, i: number, f: number, n: number) => mu + i * f * n;")).toHaveLength(1);
    expect(plant("const f = function (a: 1, b: 2, c: 3, d?: 4) {};")).toHaveLength(1);
    expect(plant("export class Ledger { constructor(a: 1, b: 2, c: 3, d: 4) {} add(a: 1, b: 2, c: 3, ...rest: 4[]) {} }")).toEqual([
      "server/services/x.ts:1  Ledger.constructor(4 parameters)",
      "server/services/x.ts:1  Ledger.add(4 parameters)",
    ]);
    // Named options, three or fewer, a `this` type, and nested functions pass.
    expect(plant("export async function hide({ actor, type, id, reason }: Hide) {}")).toEqual([]);
    expect(plant("export async function setEvidenceVoteIn(tx: SqlTx, { agentId, evidenceId, next, hidden }: Change) {}")).toEqual([]);
    expect(plant("export function timeAxis(start: number, end: number, count = 5) {}")).toEqual([]);
    expect(plant("function bound(this: Window, a: 1, b: 2, c: 3) {}")).toEqual([]);
    expect(plant("export function outer() { const inner = (a: 1, b: 2, c: 3, d: 4) => a; return inner; }")).toEqual([]);
    // An exception is named by file and function.
    const text = "export function handle(a: 1, b: 2, c: 3, d: 4) {}";
    expect(longSignatures([parse("server/services/x.ts", text)], new Map([["server/services/x.ts#handle", "the platform's shape"]]))).toEqual([]);
  });
});
