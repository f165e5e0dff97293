// The MCP project's own conformance scenarios (@modelcontextprotocol/conformance, its `server` suite),
// run against /mcp: a client we did not write, checking what the specification asks of servers. The
// route's handler serves a real HTTP port here; the scenarios' client cannot send a credential, so the
// one thing in front of the handler adds an access token to every request (nothing else is changed).
// Which scenarios pass, and why each other one does not apply, is recorded below and in
// docs/features/mcp.md#conformance: a scenario that starts failing, or one listed as not applying
// that starts passing, fails this test.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dbReady } from "../../server/db/client.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { handleMcp } from "../../server/mcp/handler.ts";
import { quickAgent } from "./claims-fixtures.ts";

// A development server without a configured public URL, as `npm run dev` runs: the scenarios reach it at
// http://localhost:<port>, and its DNS-rebinding check holds a browser's Origin to the Host it named.
vi.hoisted(() => {
  delete process.env.NEXTAUTH_URL;
});

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/**
 * Scenarios of the suite that do not apply to this server, each with its reason. They are run all the
 * same: one that passes after all is a surprise this test reports.
 */
const FIXTURE_TOOL = "calls a tool of the suite's reference server (test_*), which a service with its own tool set does not have";
const NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": "argument completion is for prompts and resource templates, and the server offers neither",
  "elicitation-sep1034-defaults": `${FIXTURE_TOOL}; and the server never asks the person mid-call (stateless: no stream to ask on)`,
  "elicitation-sep1330-enums": `${FIXTURE_TOOL}; and the server never asks the person mid-call (stateless: no stream to ask on)`,
  "tools-call-elicitation": `${FIXTURE_TOOL}; and the server never asks the person mid-call (stateless: no stream to ask on)`,
  "tools-call-sampling": `${FIXTURE_TOOL}; and the server never asks the client's model (stateless)`,
  "json-schema-2020-12": `${FIXTURE_TOOL}; every schema of ours is 2020-12 (tools-list validates them)`,
  "logging-set-level": "the logging capability is not offered: the server's log stays on the server",
  "tools-call-with-logging": "the logging capability is not offered: the server's log stays on the server",
  "prompts-list": "the server offers no prompts",
  "prompts-get-simple": "the server offers no prompts",
  "prompts-get-with-args": "the server offers no prompts",
  "prompts-get-with-image": "the server offers no prompts",
  "prompts-get-embedded-resource": "the server offers no prompts",
  "resources-list": "the server offers no resources: claims are read with tools, and as Markdown at /claims/{id}.md",
  "resources-read-text": "the server offers no resources: claims are read with tools, and as Markdown at /claims/{id}.md",
  "resources-read-binary": "the server offers no resources: claims are read with tools, and as Markdown at /claims/{id}.md",
  "resources-templates-read": "the server offers no resources: claims are read with tools, and as Markdown at /claims/{id}.md",
  "resources-subscribe": "the server offers no resources: claims are followed with follow_claim",
  "resources-unsubscribe": "the server offers no resources: claims are followed with follow_claim",
  "tools-call-simple-text": FIXTURE_TOOL,
  "tools-call-image": FIXTURE_TOOL,
  "tools-call-audio": FIXTURE_TOOL,
  "tools-call-embedded-resource": FIXTURE_TOOL,
  "tools-call-mixed-content": FIXTURE_TOOL,
  "tools-call-error": `${FIXTURE_TOOL}; a refused call of ours is an isError result with its code (tests/api/mcp-guards.test.ts)`,
  "tools-call-with-progress": `${FIXTURE_TOOL}; no call of ours runs long enough to report progress`,
};

/** The scenarios that apply, all passing. */
const APPLIES = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "server-sse-polling", "dns-rebinding-protection"];

let server: Server;
let url: string;
let token: string;

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  await dbReady();
  token = (await quickAgent()).token;
  server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    if (!headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    headers.set(CLIENT_IP_HEADER, sealedClientIp("127.0.0.1"));
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(await bodyOf(req));
    const answer = await handleMcp(new Request(`${url.replace(/\/mcp$/, "")}${req.url}`, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

describe("MCP conformance (server scenarios)", () => {
  it("passes every scenario that applies to this server, and knows why each other one does not apply", { timeout: 300_000 }, async () => {
    const out = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
    try {
      // Asynchronously: the server answering it runs in this process.
      const run = await promisify(execFile)(process.execPath, [CLI, "server", "--url", url, "--suite", "all", "-o", out], { cwd: out, encoding: "utf8", timeout: 240_000 }).catch(
        (err: { stdout: string; stderr: string }) => err,
      );
      const results = new Map<string, Check[]>();
      for (const dir of readdirSync(out)) {
        const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
        const checks = JSON.parse(readFileSync(path.join(out, dir, "checks.json"), "utf8")) as Check[];
        results.set(scenario, checks);
      }
      const summary = [...results].map(([scenario, checks]) => {
        const failed = checks.filter((c) => c.status === "FAILURE");
        return { scenario, passed: failed.length === 0, failures: failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`) };
      });
      expect(results.size, run.stdout + run.stderr).toBeGreaterThan(0);
      // Every scenario is known: one the suite adds is decided here before it counts.
      expect(summary.map((r) => r.scenario).sort()).toEqual([...APPLIES, ...Object.keys(NOT_APPLICABLE)].sort());
      for (const { scenario, passed, failures } of summary) {
        if (scenario in NOT_APPLICABLE) expect(passed, `${scenario} passes now: take it off NOT_APPLICABLE`).toBe(false);
        else expect(failures, scenario).toEqual([]);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
