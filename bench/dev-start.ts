// npm run bench:dev: what a developer waits for in their first minute (docs/benchmarks/2026-11-28-dev-start.md).
// Starts `npm run dev` (server/cli/dev.ts) on a free port, times it to "Ready", then the first load of
// each page people open first (home, a claim, a profile, the leaderboard, a topic, GET /api/v1/claims),
// then the road an MCP client's authorization takes a new person: /oauth/authorize → the consent page
// → sign in (NextAuth's providers, csrf, credentials callback, session) → back to the consent page.
// A second pass loads the same addresses again (the compiled cost gone). Prints figures, asserts nothing.
//
//   npm run bench:dev                 # as found: keeps .next (Turbopack's cache) and .data
//   npm run bench:dev -- --cold       # a fresh clone's first run: removes .next first (not .data)
//   npm run bench:dev -- --cold --fresh-data  # and removes .data: the demo data is loaded again
//   npm run bench:dev -- --warm       # DEV_WARM=on: the background warm-up of home and the sign-in road
//   npm run bench:dev -- --warm --wait-warm  # and wait for it before the first page
//   npm run bench:dev -- --typing=10  # seconds the person takes to type (default 10)
// The sign-in page asks for NextAuth's route when it opens (as its script does in development), then
// the bench waits the typing time before pressing "Sign in".
// Run it in a clone, not in a tree whose `next dev` or `next build` others use: --cold removes .next.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { DEMO_AGENTS, DEMO_EMAIL_DOMAIN, DEMO_PASSWORD } from "../server/seed/demo-data.ts";

const args = new Set(process.argv.slice(2));
const cold = args.has("--cold");
const freshData = args.has("--fresh-data");
const warm = args.has("--warm");
const typingMs = Number(process.argv.find((a) => a.startsWith("--typing="))?.slice(9) ?? 10) * 1000;
const waitWarm = args.has("--wait-warm");
const root = process.cwd();

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rows: { what: string; url: string; first: number; status: number; again?: number }[] = [];

class Jar {
  cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function main() {
  if (cold) rmSync(path.join(root, ".next"), { recursive: true, force: true });
  if (freshData) rmSync(path.join(root, process.env.DATA_DIR ?? ".data"), { recursive: true, force: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.log(`dev-start: ${cold ? "cold (.next removed)" : "warm cache (.next kept)"}${freshData ? ", .data removed" : ""}, warm-up ${warm ? "on" : "off"}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}, ${os.cpus().length} cores`);
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "server/cli/dev.ts", "--port", String(port)], {
    cwd: root,
    env: { ...process.env, PORT: String(port), NEXTAUTH_URL: base, DEV_WARM: warm ? "on" : "off" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  let warmedAt = 0;
  let seededAt = 0;
  let demoAt = 0;
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      out += text;
      if (process.env.BENCH_VERBOSE) process.stderr.write(text);
      if (/Ready in/.test(text)) resolve(performance.now() - started);
      if (/warmed/i.test(text) && !warmedAt) warmedAt = performance.now() - started;
      if (/Next\.js \d/.test(text) && !seededAt) seededAt = performance.now() - started;
      if (/Demo data in/.test(text) && !demoAt) demoAt = performance.now() - started;
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`npm run dev exited (${code}):\n${out}`)));
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  try {
    const readyMs = await ready;
    console.log(`next dev starting                    ${seededAt ? secs(seededAt) : "?"}`);
    console.log(`ready (the "Ready in" line)          ${secs(readyMs)}`);
    if (waitWarm && warm) {
      while (!warmedAt) await new Promise((r) => setTimeout(r, 250));
      console.log(`warm-up finished                      ${secs(warmedAt)} after start`);
    }

    const load = async (what: string, url: string, init: RequestInit = {}, again = false) => {
      const t = performance.now();
      const res = await fetch(`${base}${url}`, { redirect: "manual", ...init });
      const body = await res.text();
      const ms = performance.now() - t;
      rows.push({ what, url: again ? url : "", first: ms, status: res.status });
      return { res, body, ms };
    };

    const home = await load("home /", "/", {}, true);
    const claim = /href="(\/claims\/(?!new")[A-Za-z0-9_-]+)"/.exec(home.body)?.[1] ?? "/claims";
    const profile = /href="(\/profiles\/[A-Za-z0-9_.-]+)"/.exec(home.body)?.[1] ?? `/profiles/${DEMO_AGENTS[0].username}`;
    await load(`a claim ${claim}`, claim, {}, true);
    await load(`a profile ${profile}`, profile, {}, true);
    await load("leaderboard", "/leaderboard", {}, true);
    const topic = /href="(\/topics\/[^"?#]+)"/.exec(home.body)?.[1] ?? "/topics/science";
    await load(`a topic ${topic}`, topic, {}, true);
    await load("GET /api/v1/claims", "/api/v1/claims", {}, true);

    // An MCP client's authorization, as a new person meets it in the browser.
    const redirectUri = "http://127.0.0.1:33418/callback";
    const reg = await load("POST /oauth/register", "/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], client_name: "Dev bench", scope: "read vote write" }),
    });
    const clientId = (JSON.parse(reg.body) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const jar = new Jar();
    const withJar = (init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, scope: "read vote write", state: "st", code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/mcp` });
    const authz = await load("GET /oauth/authorize", `/oauth/authorize?${q}`, withJar());
    jar.take(authz.res);
    const consentPath = new URL(authz.res.headers.get("location") ?? "/", base).pathname;
    const consent1 = await load(`GET ${consentPath.replace(/[^/]+$/, "<uid>")} (signed out)`, consentPath, withJar());
    const signinPath = consent1.res.headers.get("location") ?? `/signin?redirect_to=${encodeURIComponent(consentPath)}`;
    await load("GET /signin?redirect_to=…", new URL(signinPath, base).pathname + new URL(signinPath, base).search, withJar());
    // The page's script asks for NextAuth's route when it opens, in development; the person types meanwhile.
    const onMount = fetch(`${base}/api/auth/csrf`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, typingMs));
    // What "Sign in" does (next-auth/react's signIn): providers, csrf, the credentials callback, then the session.
    const signInStart = performance.now();
    await load("  GET /api/auth/providers", "/api/auth/providers", withJar());
    const csrf = await load("  GET /api/auth/csrf", "/api/auth/csrf", withJar());
    jar.take(csrf.res);
    const csrfToken = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken;
    const cb = await load("  POST /api/auth/callback/credentials", "/api/auth/callback/credentials", withJar({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
      body: new URLSearchParams({ email: `${DEMO_AGENTS[0].username}@${DEMO_EMAIL_DOMAIN}`, password: DEMO_PASSWORD, csrfToken, callbackUrl: `${base}${consentPath}`, json: "true" }),
    }));
    jar.take(cb.res);
    await load("  GET /api/auth/session", "/api/auth/session", withJar());
    const consent2 = await load(`GET ${consentPath.replace(/[^/]+$/, "<uid>")} (signed in)`, consentPath, withJar());
    const signInMs = performance.now() - signInStart;
    await onMount;
    const signedIn = [...jar.cookies.keys()].some((k) => k.includes("session-token"));

    // The second pass: the same addresses, compiled now.
    for (const row of rows) {
      if (!row.url) continue;
      const t = performance.now();
      await fetch(`${base}${row.url}`, { redirect: "manual" }).then((r) => r.text());
      row.again = performance.now() - t;
    }

    console.log(`\n${"first load".padEnd(44)}${"status".padStart(7)}${"first".padStart(10)}${"again".padStart(10)}`);
    for (const r of rows) console.log(`${r.what.slice(0, 43).padEnd(44)}${String(r.status).padStart(7)}${secs(r.first).padStart(10)}${(r.again === undefined ? "" : secs(r.again)).padStart(10)}`);
    if (warm && warmedAt) console.log(`\nbackground warm-up finished ${secs(warmedAt)} after start`);
    // The demo data loads in Next's process while the first page compiles; pages wait for it.
    console.log(`\ndemo data ${freshData ? (demoAt ? `loaded ${secs(demoAt)} after start` : "not seen loading") : "kept (.data not removed)"}`);
    console.log(`\n"Sign in" pressed ${typingMs / 1000} s after the sign-in page opened → consent page shown: ${secs(signInMs)} (signed in: ${signedIn}; consent page ${consent2.res.status})`);
    console.log(`slowest first load: ${secs(Math.max(...rows.map((r) => r.first)))}; load now ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
