// Connections this server opens to addresses others name — a webhook's URL, an MCP client's metadata
// document — go only to public addresses (docs/security.md#webhook-addresses): request-filtering-agent
// checks the address the socket actually connects to (after DNS), so a name that resolves to a public
// address when it is checked and to 127.0.0.1 when it is fetched (DNS rebinding) is refused all the
// same. `allowPrivate` (the test knob WEBHOOK_ALLOW_PRIVATE) lifts the check for tests' local servers.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { DENIED_RANGES } from "../domain/webhook-url.ts";

const agents = new Map<string, http.Agent>();

/** The agent for `protocol` ("http:" or "https:"): one per process and setting, its connections kept alive. */
export function publicOnlyAgent(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    // The registration's rule (server/domain/webhook-url.ts): the library's non-unicast ranges with the
    // same ipaddr.js, and our DENIED_RANGES.
    const options = {
      keepAlive: true,
      maxSockets: 50,
      allowPrivateIPAddress: allowPrivate,
      allowMetaIPAddress: false,
      denyIPAddressList: allowPrivate ? [] : [...DENIED_RANGES],
    };
    agent = protocol === "https:" ? new RequestFilteringHttpsAgent(options) : new RequestFilteringHttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

export interface PublicGet {
  /** At most this much of the body is read; a longer body fails the request. */
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal | null;
}

/**
 * GET `url` through publicOnlyAgent: https only (http too when private addresses are allowed), no
 * redirects followed (a 3xx is answered as it is), the body bounded, the whole request bounded in time.
 */
export function getPublic(url: URL, { maxBytes, timeoutMs, allowPrivate, headers = {}, signal }: PublicGet): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return reject(new Error("only https URLs are fetched"));
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      reject(err);
    };
    const send = url.protocol === "https:" ? https.request : http.request;
    const req = send(url, { method: "GET", agent: publicOnlyAgent(url.protocol, allowPrivate), headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(new Error("response too large"));
        else chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") answer.set(name, value);
        const status = res.statusCode ?? 502;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
      });
    });
    const deadline = setTimeout(() => fail(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    signal?.addEventListener("abort", () => fail(new Error("aborted")), { once: true });
    req.on("timeout", () => fail(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", fail);
    req.end();
  });
}
