// One door (docs/architecture.md#the-door): every way in charges, checks and answers errors through the
// door, read from the source of every running file (server/, app/, instrumentation.ts) and failing with
// the file and line that does it elsewhere:
//   - the limiter is called only by the door (server/door/budgets.ts), and by the two budgets that are
//     the services' own business, each named below with why;
//   - errors are mapped only by the pipeline: no TRPCError built outside the one conversion
//     (server/api/errors.ts), errorBody only in the pipeline, no `detail` body written outside the door;
//   - the suspension rule is read only in server/domain/suspension.ts;
//   - the web UI matches no `detail` (or an error's message): it chooses its words by `code`.
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
}

const parse = (file: string, text: string): Source => ({
  file,
  ast: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS),
});

const RUNNING: Source[] = [...sourceFiles("server"), ...sourceFiles("app"), "instrumentation.ts"].map((file) =>
  parse(file, readFileSync(path.join(ROOT, file), "utf8")),
);

/** `file:line  text` of every node `match` picks. */
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

const inDoor = (file: string) => file.startsWith("server/door/");

/** The name a call is made by: `f(…)` → f, `a.b.f(…)` → f. */
function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

// ---- the limiter ----

/** Everything that spends or reads a budget of the limiter (server/ratelimit). */
const LIMITER_CALLS = new Set([
  "rateLimiter",
  "createRateLimiter",
  "limitRequest",
  "peekRequest",
  "limitPage",
  "limitAuthAttempt",
  "limitRegistration",
  "limitCaller",
  "peekCaller",
  "passwordTryAllowed",
  "recordPasswordFailure",
  "limitMailTo",
]);

/** The limiter's callers besides the door, and what each may call: budgets decided by what a request turns out to be. */
const LIMITER_EXCEPTIONS: Record<string, { calls: string[]; why: string }> = {
  "server/services/auth.ts": {
    calls: ["rateLimiter", "passwordTryAllowed", "recordPasswordFailure"],
    why: "password guesses per account count only wrong passwords, known after the comparison (docs/security.md, password guessing without lockout)",
  },
  "server/services/accounts.ts": {
    calls: ["limitMailTo"],
    why: "mail to one address: over it nothing is sent and the answer is the same 202",
  },
  "server/main.ts": { calls: ["rateLimiter"], why: "names the limiter's backend in the start-up line" },
};

const LIMITER_MODULE = /(^|\/)ratelimit\/(limiter|index)(\.ts)?$/;

function limiterCalls(sources: Source[]): string[] {
  return find(sources, (node, src) => {
    if (inDoor(src.file) || src.file.startsWith("server/ratelimit/")) return false;
    const allowed = LIMITER_EXCEPTIONS[src.file]?.calls ?? [];
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!LIMITER_MODULE.test(node.moduleSpecifier.text) || node.importClause?.isTypeOnly) return false;
      const names = node.importClause?.namedBindings && ts.isNamedImports(node.importClause.namedBindings) ? node.importClause.namedBindings.elements : [];
      // Values of the module other than the limiter itself (mostRestrictive, the result's type) are not a charge.
      return names.some((n) => !n.isTypeOnly && LIMITER_CALLS.has(n.name.text) && !allowed.includes(n.name.text));
    }
    if (!ts.isCallExpression(node)) return false;
    const name = calleeName(node);
    return name !== undefined && LIMITER_CALLS.has(name) && !allowed.includes(name);
  });
}

// ---- error mapping ----

/** The pipeline's error mapping: the one table and conversion, the tRPC end, the door's answers. */
const MAPS_ERRORS = (file: string) => inDoor(file) || file === "server/api/errors.ts" || file === "server/api/trpc.ts" || file === "server/errors.ts";

/** Error bodies written by others than the API, with why. */
const BODY_EXCEPTIONS: Record<string, string> = {
  "server/oauth/": "the authorization server's protocol errors are RFC 6749's {error, error_description} (its door refusals, 429 and 413, are the door's)",
};

const isException = (file: string) => Object.keys(BODY_EXCEPTIONS).some((prefix) => file.startsWith(prefix));

/** Calls that send what they are given as an answer's body. */
const SENDS = /^(json|refuse\w*|refused|reply|answer\w*|send\w*)$/;

function hasDetail(node: ts.Node): boolean {
  return (
    ts.isObjectLiteralExpression(node) &&
    node.properties.some((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === "detail")
  );
}

function errorMappings(sources: Source[]): string[] {
  return find(sources, (node, src) => {
    if (MAPS_ERRORS(src.file)) return false;
    if (ts.isNewExpression(node) && calleeName(node) === "TRPCError") return true;
    if (ts.isCallExpression(node) && calleeName(node) === "errorBody") return true;
    if (isException(src.file)) return false;
    // {detail} handed to something that sends it: Response.json, JSON.stringify, new Response, json(…), refuse(…)…
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      const sends =
        name !== undefined &&
        (SENDS.test(name) || name === "stringify" || (name === "Response" && ts.isNewExpression(node)) || node.expression.getText() === "Response.json");
      return sends && (node.arguments ?? []).some(hasDetail);
    }
    // ctx.body = {detail}
    return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && /\.body$/.test(node.left.getText()) && hasDetail(node.right);
  });
}

// ---- the suspension rule ----

/** The rule's parts (suspended since, no end or an end still ahead), as SQL and as code. */
const SUSPENSION_RULE = [
  /suspended_at\s+IS\s+NOT\s+NULL/i,
  /suspended_until\s+IS\s+NULL\s+OR/i,
  /suspended_until\s*>\s*now\(\)/i,
  /suspendedAt\s*!==?\s*null\s*&&/,
  /suspendedUntil\s*===?\s*null\s*\|\|/,
  /suspendedUntil\s*>\s*[\w(]/,
  /[\w)]\s*<\s*[\w.]*suspendedUntil\b/,
];

function suspensionRules(sources: Source[]): string[] {
  const hits: string[] = [];
  for (const src of sources) {
    if (src.file === "server/domain/suspension.ts") continue;
    src.ast.text.split("\n").forEach((line, i) => {
      if (SUSPENSION_RULE.some((rule) => rule.test(line))) hits.push(`${src.file}:${i + 1}  ${line.trim().slice(0, 100)}`);
    });
  }
  return hits;
}

// ---- the web UI matches no detail ----

/** An error's text: `x.detail`, `x.message`, or a variable named `detail`. */
function isErrorText(node: ts.Node): boolean {
  const inner = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isPropertyAccessExpression(inner)) return inner.name.text === "detail" || inner.name.text === "message";
  return ts.isIdentifier(inner) && inner.text === "detail";
}

const isLiteralText = (node: ts.Node) => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node);

const MATCHERS = new Set(["startsWith", "endsWith", "includes", "match", "matchAll", "search", "replace", "replaceAll", "localeCompare"]);
const COMPARISONS = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

function detailMatches(sources: Source[]): string[] {
  return find(
    sources.filter((s) => s.file.startsWith("app/")),
    (node) => {
      // detail === "Rate limit exceeded"
      if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
        return (isErrorText(node.left) && isLiteralText(node.right)) || (isErrorText(node.right) && isLiteralText(node.left));
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const receiver = node.expression.expression;
        // /^Rate limit/.test(detail), RULES.exec(error.message)
        if ((method === "test" || method === "exec") && node.arguments.some(isErrorText)) return true;
        // detail.startsWith("statement:"), error.message.match(/…/)
        if (MATCHERS.has(method) && isErrorText(receiver)) return node.arguments.length > 0 && isLiteralText(node.arguments[0]);
      }
      // SENTENCES[detail]
      if (ts.isElementAccessExpression(node)) return isErrorText(node.argumentExpression);
      // switch (error.detail) { case "…": }
      if (ts.isSwitchStatement(node)) return isErrorText(node.expression) && node.caseBlock.clauses.some((c) => ts.isCaseClause(c) && isLiteralText(c.expression));
      return false;
    },
  );
}

// ---- the 429's words ----

/** The door writes them; the table of codes (server/errors.ts) quotes them in what `rate_limited` means. */
const QUOTES_429 = new Set(["server/door/answers.ts", "server/errors.ts"]);

function rateLimitedWords(sources: Source[]): string[] {
  return find(sources, (node, src) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text.includes("Rate limit exceeded") && !QUOTES_429.has(src.file));
}

describe("one door (docs/architecture.md#the-door)", () => {
  it("calls the limiter only at the door (and for the two budgets of the services, each with its reason)", () => {
    expect(limiterCalls(RUNNING)).toEqual([]);
  });

  it("maps errors only in the pipeline: no TRPCError built, errorBody called or {detail} sent elsewhere", () => {
    expect(errorMappings(RUNNING)).toEqual([]);
  });

  it("reads the suspension rule only in server/domain/suspension.ts", () => {
    expect(suspensionRules(RUNNING)).toEqual([]);
  });

  it("the web UI matches no detail or error message (it chooses its words by code)", () => {
    expect(detailMatches(RUNNING)).toEqual([]);
  });

  it("writes the 429's words once", () => {
    expect(rateLimitedWords(RUNNING)).toEqual([]);
  });

  it("each check finds what it is for (a planted violation of each rule)", () => {
    const plant = (file: string, text: string) => [parse(file, text)];
    const limiter = (file: string, code: string) => limiterCalls(plant(file, code));
    expect(limiter("server/mcp/x.ts", 'import { limitCaller } from "../ratelimit/limiter.ts";')).toHaveLength(1);
    expect(limiter("server/mcp/x.ts", "await limitCaller(identity, ip, 1);")).toHaveLength(1);
    expect(limiter("server/http/x.ts", "const l = await rateLimiter().limitPage(ip);")).toHaveLength(2);
    expect(limiter("server/api/x.ts", 'import type { RateLimitResult } from "../ratelimit/index.ts";')).toEqual([]);
    expect(limiter("server/door/budgets.ts", "await rateLimiter().limitPage(ip);")).toEqual([]);
    expect(limiter("server/services/auth.ts", "await rateLimiter().passwordTryAllowed(email, ip);")).toEqual([]);
    expect(limiter("server/services/auth.ts", "await rateLimiter().limitPage(ip);")).toHaveLength(1);

    const mapping = (file: string, code: string) => errorMappings(plant(file, code));
    expect(mapping("server/mcp/x.ts", 'throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "x" });')).toHaveLength(1);
    expect(mapping("server/mcp/x.ts", "const body = errorBody(err);")).toHaveLength(1);
    expect(mapping("app/api/x/route.ts", 'return Response.json({ detail: "Nope" }, { status: 400 });')).toHaveLength(1);
    expect(mapping("server/http/x.ts", "res.end(JSON.stringify({ detail }));")).toHaveLength(1);
    expect(mapping("server/rest/x.ts", 'return json(429, { detail: "Slow down" });')).toHaveLength(1);
    expect(mapping("server/log/x.ts", 'log().warn({ detail: "x" }, "msg");')).toEqual([]);
    expect(mapping("server/door/answers.ts", 'JSON.stringify({ code, detail: "x" });')).toEqual([]);
    expect(mapping("server/oauth/x.ts", 'answerJson(res, 400, { error: "invalid_request", detail });')).toEqual([]);

    const suspension = (code: string) => suspensionRules(plant("server/services/x.ts", code));
    expect(suspension("WHERE NOT (a.suspended_at IS NOT NULL AND (a.suspended_until IS NULL OR a.suspended_until > now()))")).toHaveLength(1);
    expect(suspension("return a.suspendedAt !== null && (a.suspendedUntil === null || a.suspendedUntil > now);")).toHaveLength(1);
    expect(suspension("data: { suspendedAt: now, suspendedUntil: until }")).toEqual([]);
    expect(suspension('const ends = s === "suspended" && facts.suspendedUntil !== null;')).toEqual([]);
    expect(suspensionRules(plant("server/domain/suspension.ts", "return a.suspendedAt !== null && (a.suspendedUntil === null || a.suspendedUntil > now);"))).toEqual([]);

    const ui = (code: string) => detailMatches(plant("app/_lib/x.ts", code));
    expect(ui('if (/^Rate limit exceeded$/.test(detail)) return "Wait";')).toHaveLength(1);
    expect(ui('if (error.detail === "Invalid or expired token") signIn();')).toHaveLength(1);
    expect(ui('const tooShort = err.message.startsWith("statement: must be");')).toHaveLength(1);
    expect(ui("const sentence = SENTENCES[body.detail];")).toHaveLength(1);
    expect(ui('switch (e.detail) { case "Not found": return null; }')).toHaveLength(1);
    expect(ui('if (error.code === "rate_limited") return "Wait";')).toEqual([]);
    expect(detailMatches(plant("server/rest/x.ts", 'if (/^Mail /.test(detail)) return 503;'))).toEqual([]);

    expect(rateLimitedWords(plant("server/mcp/x.ts", 'return refused("Rate limit exceeded");'))).toHaveLength(1);
  });
});
