// Where this app relies on a library's internals rather than its documented API, the exact behaviour
// relied upon is asserted here, so an upgrade that changes it fails this file with a message naming
// what changed (not a mysterious 500 somewhere else):
// - server/rest/openapi-call.ts: trpc-to-openapi's node handler on a hand-made request and response;
// - server/nextauth/handler-call.ts: NextAuth's Pages-API handler on a hand-made pair;
// - server/nextauth/session.ts: getToken on a request that carries only cookies.
// (server/http/install-guard.ts and server/log/safe-output.ts wrap node's own http.Server#emit and
// stream write: tests/security/entrypoints.test.ts and tests/unit/safe-output.test.ts cover them.)
import { initTRPC, TRPCError } from "@trpc/server";
import { encode, getToken } from "next-auth/jwt";
import type { OpenApiMeta } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ABSENT_RESPONSE_MEMBERS as NEXTAUTH_ABSENT,
  callNextAuth,
  REQUEST_MEMBERS as NEXTAUTH_REQUEST,
  RESPONSE_MEMBERS as NEXTAUTH_RESPONSE,
} from "../../server/nextauth/handler-call.ts";
import { CredentialsProvider, GitHubProvider } from "../../server/nextauth/library.ts";
import { cookieOnlyRequest } from "../../server/nextauth/session.ts";
import { ABSENT_REQUEST_MEMBERS, openApiCaller, procedureRequest, REQUEST_MEMBERS, RESPONSE_MEMBERS } from "../../server/rest/openapi-call.ts";

/** A wrapper recording every member read of the objects it wraps that is not in `allowed`. */
function watcher(allowed: readonly string[]) {
  const unexpected = new Set<string>();
  const wrap = <T extends object>(value: T): T =>
    new Proxy(value, {
      get(target, prop, receiver) {
        if (typeof prop === "string" && !allowed.includes(prop)) unexpected.add(prop);
        return Reflect.get(target, prop, receiver);
      },
      has(target, prop) {
        if (typeof prop === "string" && !allowed.includes(prop)) unexpected.add(`in:${prop}`);
        return Reflect.has(target, prop);
      },
    });
  return { wrap, unexpected: () => [...unexpected].sort() };
}

describe("trpc-to-openapi on a hand-made request and response (server/rest/openapi-call.ts)", () => {
  const t = initTRPC.context<{ who: string }>().meta<OpenApiMeta>().create();
  const router = t.router({
    get: t.procedure
      .meta({ openapi: { method: "GET", path: "/things/{id}" } })
      .input(z.object({ id: z.string(), q: z.string().optional() }))
      .output(z.object({ id: z.string(), q: z.string().nullable(), who: z.string() }))
      .query(({ input, ctx }) => ({ id: input.id, q: input.q ?? null, who: ctx.who })),
    create: t.procedure
      .meta({ openapi: { method: "POST", path: "/things" } })
      .input(z.object({ name: z.string().min(2) }))
      .output(z.object({ name: z.string() }))
      .mutation(({ input }) => ({ name: input.name })),
    missing: t.procedure
      .meta({ openapi: { method: "GET", path: "/missing" } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        throw new TRPCError({ code: "NOT_FOUND", message: "No such thing" });
      }),
  });
  const allowed = [...REQUEST_MEMBERS, ...RESPONSE_MEMBERS, ...ABSENT_REQUEST_MEMBERS];

  it("builds a request with exactly the members it lists, the absent ones absent", () => {
    const req = procedureRequest("GET", "/things/abc", {});
    expect(req).toBeInstanceOf(Request);
    expect(Object.getOwnPropertyNames(req).sort()).toEqual([...REQUEST_MEMBERS].sort());
    for (const member of ABSENT_REQUEST_MEMBERS) expect(member in req).toBe(false);
  });

  it("answers path, query, body, context and errors from only the members provided", async () => {
    const watch = watcher(allowed);
    const call = openApiCaller<{ who: string }>(router, () => {}, watch.wrap);

    const got = await call("GET", "/things/abc?q=x", {}, { who: "ctx" });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toEqual({ id: "abc", q: "x", who: "ctx" });

    const created = await call("POST", "/things", { name: "Ada" }, { who: "ctx" });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body)).toEqual({ name: "Ada" });

    const invalid = await call("POST", "/things", { name: "A" }, { who: "ctx" });
    expect(invalid.status).toBe(400);

    const missing = await call("GET", "/missing", {}, { who: "ctx" });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ message: "No such thing" });

    expect(watch.unexpected(), "trpc-to-openapi now reads members server/rest/openapi-call.ts does not provide").toEqual([]);
  });
});

describe("NextAuth's Pages-API handler on a hand-made request and response (server/nextauth/handler-call.ts)", () => {
  const options = {
    secret: "library-internals-test-secret-0123456789",
    session: { strategy: "jwt" as const },
    providers: [
      GitHubProvider({
        clientId: "client-id",
        clientSecret: "client-secret",
        authorization: { url: "http://127.0.0.1:9/authorize", params: { scope: "read:user" } },
        token: "http://127.0.0.1:9/token",
        userinfo: "http://127.0.0.1:9/user",
        checks: ["pkce", "state"],
      }),
      CredentialsProvider({ credentials: {}, authorize: async () => null }),
    ],
  };
  const allowed = [...NEXTAUTH_REQUEST, ...NEXTAUTH_RESPONSE, ...NEXTAUTH_ABSENT];

  it("hands out a CSRF token and starts an OAuth sign-in with state and PKCE, from only the members provided", async () => {
    const watch = watcher(allowed);
    const csrf = await callNextAuth({ method: "GET", route: ["csrf"] }, options, watch.wrap);
    const csrfToken = (csrf.body as { csrfToken?: string }).csrfToken;
    expect(csrfToken, "NextAuth's csrf route no longer answers {csrfToken} through res.json/send").toEqual(expect.any(String));
    const csrfCookie = csrf.setCookies.find((c) => c.startsWith("next-auth.csrf-token="));
    expect(csrfCookie, "NextAuth no longer sets next-auth.csrf-token through res.setHeader").toBeDefined();

    const [name, value] = csrfCookie!.split(";")[0].split("=");
    const signIn = await callNextAuth(
      { method: "POST", route: ["signin", "github"], body: { csrfToken: csrfToken!, callbackUrl: "/auth/complete" }, cookies: { [name]: decodeURIComponent(value) } },
      options,
      watch.wrap,
    );
    expect(signIn.location, "NextAuth's sign-in no longer redirects through the Location header").toMatch(/^http:\/\/127\.0\.0\.1:9\/authorize\?/);
    const url = new URL(signIn.location!);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(signIn.setCookies.some((c) => c.includes("next-auth.pkce.code_verifier="))).toBe(true);

    expect(watch.unexpected(), "NextAuth now reads members server/nextauth/handler-call.ts does not provide").toEqual([]);
  });
});

describe("next-auth's getToken on a request carrying only cookies (server/nextauth/session.ts)", () => {
  const secret = "library-internals-test-secret-0123456789";

  it("reads the session from req.cookies, and ignores a Bearer header it is never given", async () => {
    const token = await encode({ token: { sub: "agent-1" }, secret });
    const req = cookieOnlyRequest({ "next-auth.session-token": token });
    const watch = watcher(["cookies", "headers", "authorization", "next-auth.session-token"]);
    const read = await getToken({ req: watch.wrap(req as object) as never, secret, cookieName: "next-auth.session-token" });
    expect(read?.sub, "getToken no longer reads the session JWT from req.cookies").toBe("agent-1");
    expect(watch.unexpected(), "getToken now reads members of the request session.ts does not provide").toEqual([]);

    const none = await getToken({ req: cookieOnlyRequest({}), secret, cookieName: "next-auth.session-token" });
    expect(none).toBeNull();
  });
});
