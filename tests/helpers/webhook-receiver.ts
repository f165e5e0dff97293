// A real local webhook receiver for tests: verifies every request with the `standardwebhooks` package
// itself (as a receiver in the wild would) and answers with whatever status the test scripts.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: string;
  body: any;
  raw: string;
  verified: boolean;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret signatures are checked with (set after creating the webhook). */
  secret: string;
  /** Status to answer with, per request (default 200). */
  respond: (r: Received) => number;
  waitFor(pred: (all: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    received: [],
    secret: "",
    respond: () => 200,
    async waitFor(pred, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!pred(receiver.received)) {
        if (Date.now() > until) throw new Error(`receiver: condition not met in ${timeoutMs} ms (got ${receiver.received.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return receiver.received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    let verified = false;
    let body: any = null;
    try {
      body = new Webhook(receiver.secret).verify(raw, headers);
      verified = true;
    } catch {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const r: Received = { id: headers["webhook-id"], timestamp: headers["webhook-timestamp"], body, raw, verified, at: Date.now() };
    receiver.received.push(r);
    res.writeHead(receiver.respond(r), { "content-type": "text/plain" });
    res.end("ok");
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Polls until `fn` returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`eventually: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
