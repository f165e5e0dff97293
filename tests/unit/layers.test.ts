// Imports only point down. Every import under server/ is read from the source and checked against the
// table below: a file may import its own layer and the layers listed after it, never one above.
// A layer is a folder of server/ (or one of the few files that stand alone at its top), with no exceptions:
// a file that would need one lives in the wrong folder.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The layers, top to bottom: the folders of server/, and the files at its top.
 * - main.ts, cli: the processes (the production server, the command-line tools) compose everything.
 * - seed: demo data, written through the services.
 * - rest: the /api/v1 adapter over the tRPC routers; uses http's shared guards (bodies, client IP).
 *   mcp: the MCP endpoint beside it (tools generated from the routers) and the site as agents read it.
 * - api: tRPC (context, procedures, middlewares, routers) and the web UI's context.
 * - nextauth: NextAuth's options and its calls; above services (sign-in creates or checks agents).
 * - http: what every entry point shares (node-level guard, bounded bodies, client IP, the request log).
 * - door: what every way in does before and after a procedure (docs/architecture.md#the-door): the
 *   budgets (the limiter's only caller for requests), the per-call checks the base procedure runs, the
 *   one error answer. Below api, whose procedure builder runs its checks, and below http and nextauth,
 *   whose page guard and web sign-in charge through it.
 * - jobs: the background workers (outbox relay, fan-out, deliveries, the bridging schedule); call the services.
 * - services: transactions and queries that apply the rules (and the bridging fit's worker thread).
 * - queue: what services hand on: jobs enqueued for the workers, events on the live channel.
 * - ratelimit, cache: the limiter policy and its backends; shared caches.
 * - mail: outgoing mail (SMTP, or files in development).
 * - auth: tokens, passwords, API keys, identities, providers' credentials.
 * - oauth: the authorization server for MCP clients (its provider, storage, consent and grants); below
 *   auth, whose identities accept its access tokens at /mcp.
 * - contract: request/response schemas, imported by routers and services alike.
 * - errors.ts: the service's own errors (AppError), mapped to tRPC in server/api/trpc.ts only.
 * - db, store, log, metrics, config.ts: database, Redis connections, process output, counters, configuration.
 * - process-singleton.ts: the one home of process-wide state (one value per process although Next loads modules twice).
 * - source-maps.ts: which source maps the process keeps (imported first by main.ts; it imports nothing of ours).
 * - outbound: connections to addresses others name (webhooks, MCP clients' metadata documents), to public addresses only.
 * - domain: pure rules, importing nothing but each other.
 */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ["main.ts", "cli"],
  ["seed"],
  ["rest", "mcp"],
  ["api"],
  ["nextauth"],
  ["http"],
  ["door"],
  ["jobs"],
  ["services"],
  ["queue"],
  ["ratelimit"],
  ["mail"],
  ["auth"],
  ["oauth"],
  ["contract"],
  ["errors.ts"],
  ["db"],
  ["cache"],
  ["store"],
  ["log"],
  ["metrics"],
  ["config.ts"],
  ["process-singleton.ts"],
  ["source-maps.ts"],
  ["outbound"],
  ["domain"],
];

/** A file's layer: the folder (or top-level file) of server/ it stands in. */
function layerOf(file: string): { name: string; rank: number } | null {
  const top = file.split("/")[1];
  if (!file.startsWith("server/") || !top) return null;
  const rank = LAYERS.findIndex((names) => names.includes(top));
  return rank < 0 ? null : { name: top, rank };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(rel);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

// import … from "x", export … from "x", import "x", import("x") — type-only imports count too.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

function importsOf(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  return [...source.matchAll(IMPORT)].map((m) => m[1]);
}

/** The project-relative file an import names, or null for a package. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return specifier.slice(2);
  if (!specifier.startsWith(".")) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles("server")) {
    const from = layerOf(file);
    for (const specifier of importsOf(file)) {
      const target = resolve(file, specifier);
      if (target === null) continue;
      if (!target.startsWith("server/")) {
        found.push(`${file} imports ${specifier}: server/ imports nothing outside server/`);
        continue;
      }
      const to = layerOf(target);
      if (!from) found.push(`${file} is in no layer: add it to LAYERS in tests/unit/layers.test.ts`);
      else if (!to) found.push(`${file} imports ${specifier}, which is in no layer: add it to LAYERS`);
      else if (to.rank < from.rank) found.push(`${file} (${from.name}) imports ${specifier} (${to.name}): an arrow pointing up`);
    }
  }
  return [...new Set(found)];
}

describe("layers", () => {
  it("reads the imports it checks (the parser is not blind)", () => {
    expect(importsOf("server/api/trpc.ts")).toContain("../errors.ts");
    expect(importsOf("server/services/oauth.ts")).toContain("../db/client.ts");
    expect(layerOf("server/nextauth/session.ts")?.name).toBe("nextauth");
    expect(layerOf("server/auth/tokens.ts")?.name).toBe("auth");
    expect(layerOf("server/main.ts")?.rank).toBe(layerOf("server/cli/seed.ts")?.rank);
  });

  it("has every import under server/ point down", () => {
    expect(violations()).toEqual([]);
  });

  it("keeps services, domain, db, auth, contract and errors free of api, rest and tRPC (they throw AppError)", () => {
    const lower = sourceFiles("server").filter((f) =>
      /^server\/(services|domain|db|auth|contract|ratelimit|cache|http|log|store)\/|^server\/(errors|config)\.ts$/.test(f),
    );
    const upward = lower.flatMap((file) =>
      importsOf(file)
        .filter((s) => /^server\/(api|rest)\//.test(resolve(file, s) ?? "") || s.startsWith("@trpc/"))
        .map((s) => `${file} imports ${s}`),
    );
    expect(upward).toEqual([]);
  });
});
