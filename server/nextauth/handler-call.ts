// Reliance on next-auth's internals, kept here and nowhere else: its Pages-API request handler driven
// on a hand-made in-memory request and response (the server itself starts an OAuth sign-in, with
// NextAuth's own state, PKCE and cookies). tests/unit/library-internals.test.ts checks the members it
// uses are still the only ones next-auth touches.
import type { AuthOptions } from "next-auth";
import { NextAuth } from "./library.ts";

export interface NextAuthCall {
  method: "GET" | "POST";
  /** e.g. ["csrf"], ["signin", "github"] */
  route: string[];
  body?: Record<string, string>;
  cookies?: Record<string, string>;
}

export interface NextAuthReply {
  status: number;
  location: string | null;
  body: unknown;
  setCookies: string[];
}

/** The members of the request NextAuth's Pages-API handler reads. */
export const REQUEST_MEMBERS = ["method", "query", "body", "cookies", "headers"] as const;
/** The members of the response it uses. */
export const RESPONSE_MEMBERS = ["status", "setHeader", "getHeader", "end", "json", "send"] as const;
/** Read but absent on purpose: a second argument without `params` makes NextAuth(req, res, options) its Pages-API handler. */
export const ABSENT_RESPONSE_MEMBERS = ["params"] as const;

/**
 * Runs NextAuth's own request handler (its Pages-API form) on an in-memory request and response.
 * `wrap` lets the internals test watch them; the running code passes none.
 */
export async function callNextAuth(
  call: NextAuthCall,
  options: AuthOptions,
  wrap: <T extends object>(value: T) => T = (value) => value,
): Promise<NextAuthReply> {
  const reply: NextAuthReply = { status: 200, location: null, body: undefined, setCookies: [] };
  const headers = new Map<string, unknown>();
  const req = {
    method: call.method,
    query: { nextauth: call.route },
    body: call.body ?? {},
    cookies: call.cookies ?? {},
    headers: {},
  };
  const res = {
    status(code: number) {
      reply.status = code;
      return res;
    },
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), value);
      return res;
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    end: () => {},
    json: (body: unknown) => void (reply.body = body),
    send: (body: unknown) => void (reply.body = body),
  };
  // @ts-expect-error: NextAuth's Pages-API handler only uses the members provided above.
  await NextAuth(wrap(req), wrap(res), options);
  const cookies = headers.get("set-cookie");
  reply.setCookies = cookies === undefined ? [] : ([] as string[]).concat(cookies as string | string[]);
  reply.location = (headers.get("location") as string | undefined) ?? null;
  return reply;
}
