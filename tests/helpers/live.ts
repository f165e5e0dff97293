// The claim pages' live channel over real HTTP: a node:http server that runs the node-level guard on
// every request (as `npm start` does), serves /api/live/claims/{id} with the same handler as the Next
// route (server/api/live-stream.ts, through the Web Request/Response the route handler gets) and
// /api/v1 with the REST adapter; and an SSE client that parses what a browser's EventSource would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleLiveStream } from "../../server/api/live-stream.ts";
import { dbReady } from "../../server/db/client.ts";
import { guarded } from "../../server/http/guard.ts";
import { handleNodeRest } from "../../server/rest/node.ts";

const LIVE = /^\/api\/live\/claims\/([^/?]+)$/;

/** What Next does for a route handler: a Web Request whose signal aborts when the client goes away. */
async function serveLive(req: IncomingMessage, res: ServerResponse, claimId: string): Promise<void> {
  const aborted = new AbortController();
  res.on("close", () => aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(", "));
  }
  const response = await handleLiveStream(new Request(`http://${req.headers.host}${req.url}`, { headers, signal: aborted.signal }), claimId);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

export interface LiveServer {
  url: string;
  close(): Promise<void>;
}

export async function startLiveServer(): Promise<LiveServer> {
  await dbReady();
  const server: Server = createServer((req, res) =>
    guarded(req, res, () => {
      const match = LIVE.exec(req.url ?? "");
      if (match) {
        serveLive(req, res, decodeURIComponent(match[1])).catch((err) => {
          console.error("[live test server]", err);
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
      } else void handleNodeRest(req, res);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Parsed events so far. */
  messages: SseMessage[];
  /** Comment lines (": heartbeat") so far. */
  comments: string[];
  /** The next message that matches (already received ones included), or a rejection after `timeoutMs`. */
  waitFor(match: (m: SseMessage) => boolean, timeoutMs: number): Promise<SseMessage>;
  /** The body of a refused stream. */
  text(): Promise<string>;
  close(): void;
}

/** Opens an SSE stream and parses it as EventSource does (fields, blank-line-terminated events, comments). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const aborted = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: aborted.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      let current: Partial<SseMessage> & { data?: string } = {};
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let nl: number;
          while ((nl = buffer.indexOf("\n")) !== -1) {
            const line = buffer.slice(0, nl).replace(/\r$/, "");
            buffer = buffer.slice(nl + 1);
            if (line === "") {
              if (current.data !== undefined) messages.push({ event: current.event ?? "message", data: current.data, id: current.id });
              current = {};
              for (const w of waiters) w();
            } else if (line.startsWith(":")) {
              comments.push(line.slice(1).trim());
              for (const w of waiters) w();
            } else {
              const colon = line.indexOf(":");
              const field = colon === -1 ? line : line.slice(0, colon);
              const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
              if (field === "data") current.data = current.data === undefined ? value : `${current.data}\n${value}`;
              else if (field === "event") current.event = value;
              else if (field === "id") current.id = value;
            }
          }
        }
      } catch {
        // closed
      }
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    messages,
    comments,
    text: () => res.text(),
    close: () => aborted.abort(),
    waitFor: (match, timeoutMs) =>
      new Promise<SseMessage>((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms (got: ${messages.map((m) => m.event).join(", ") || "none"})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}
