// Imports only point down. Every import under server/ is read from the source and checked against the
// table below: a file may import its own layer and the layers listed after it, never one above.
//
// Re-pointing code written against the old layout (schemas in server/api/schemas, errors in
// server/api/errors.ts, the redirect rule in server/auth, the limiter in server/rest, NextAuth in one file):
//   sed -i 's#\.\./api/errors\.ts#../errors.ts#; s#/api/schemas/#/contract/#; s#auth/redirect\.ts#domain/redirect.ts#; s#rest/limiter\.ts#ratelimit/limiter.ts#' FILES
// (in server/api/routers/*: `../schemas/` → `../../contract/`; services keep importing `../errors.ts`;
// server/auth/nextauth.ts became server/auth/nextauth/{options,session,sign-in,cookies}.ts.)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The layers, top to bottom. The longest matching prefix decides a file's layer.
 * - entry: the processes (the production server, the command-line tools) compose everything.
 * - rest: the /api/v1 adapter over the tRPC routers; uses http's shared guards (bodies, client IP).
 * - api: tRPC (context, procedures, middlewares, routers) and the web UI's context.
 * - nextauth: NextAuth's options and its calls; above services (sign-in creates or checks agents).
 * - http: what every entry point shares (node-level guard, bounded bodies, client IP).
 * - services: transactions and queries that apply the rules.
 * - ratelimit, cache: the limiter policy and its backends; shared caches.
 * - mail: outgoing mail (SMTP, or files in development).
 * - auth: tokens, passwords, API keys, identities, providers' credentials.
 * - contract: request/response schemas, imported by routers and services alike.
 * - errors: the service's own errors (AppError), mapped to tRPC in server/api/trpc.ts only.
 * - db, store, log, config: database, Redis connections, process output, configuration.
 * - domain: pure rules, importing nothing but each other.
 */
const LAYERS: ReadonlyArray<readonly [layer: string, prefixes: readonly string[]]> = [
  ["entry", ["server/http/main.ts", "server/cli/"]],
  ["seed", ["server/seed/"]],
  ["rest", ["server/rest/"]],
  ["api", ["server/api/"]],
  ["nextauth", ["server/auth/nextauth/"]],
  // The request log belongs with the guard that writes it (it labels routes the http layer knows).
  ["http", ["server/http/", "server/log/request-log.ts"]],
  ["jobs", ["server/jobs/"]],
  // The bridging fit's worker-thread launcher runs only a domain function: the service calls it.
  ["services", ["server/services/", "server/jobs/bridging-fit.ts"]],
  ["ratelimit", ["server/ratelimit/"]],
  // Outgoing mail: the services send it; it knows only the configuration, the log and the errors.
  ["mail", ["server/mail/"]],
  ["auth", ["server/auth/"]],
  ["contract", ["server/contract/"]],
  ["errors", ["server/errors.ts"]],
  ["db", ["server/db/"]],
  ["cache", ["server/cache/"]],
  ["store", ["server/store/"]],
  ["log", ["server/log/"]],
  ["metrics", ["server/metrics/"]],
  ["config", ["server/config.ts"]],
  ["domain", ["server/domain/"]],
];

function layerOf(file: string): { name: string; rank: number } | null {
  let best: { name: string; rank: number; length: number } | null = null;
  LAYERS.forEach(([name, prefixes], rank) => {
    for (const prefix of prefixes) {
      if (file.startsWith(prefix) && (!best || prefix.length > best.length)) best = { name, rank, length: prefix.length };
    }
  });
  return best;
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
    expect(layerOf("server/auth/nextauth/session.ts")?.name).toBe("nextauth");
    expect(layerOf("server/auth/tokens.ts")?.name).toBe("auth");
    expect(layerOf("server/http/main.ts")?.name).toBe("entry");
  });

  it("has every import under server/ point down", () => {
    expect(violations()).toEqual([]);
  });

  it("keeps services, domain, db, auth, contract and errors free of api and rest", () => {
    const lower = sourceFiles("server").filter((f) =>
      /^server\/(services|domain|db|auth|contract|ratelimit|cache|http|log|store)\/|^server\/(errors|config)\.ts$/.test(f),
    );
    const upward = lower.flatMap((file) =>
      importsOf(file)
        .filter((s) => !(file === "server/http/main.ts") && /^server\/(api|rest)\//.test(resolve(file, s) ?? ""))
        .map((s) => `${file} imports ${s}`),
    );
    expect(upward).toEqual([]);
  });
});
