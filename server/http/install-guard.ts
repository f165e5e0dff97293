// Wraps the "request" event of node http servers in this process with the node-level guard. Next
// creates its server itself (`next start`, `next dev`) and offers no hook before its handler runs, so
// the event is intercepted on http.Server's prototype: the guard runs first, then Next's listener, or
// the guard answers and Next never sees the request. Installed once per process.
import { Server } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { guarded } from "./guard.ts";

const INSTALLED = Symbol.for("claims.guard-installed");

export function installGuardOnHttpServers(): void {
  const proto = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== "request") return emit.apply(this, [event, ...args]);
    const [req, res] = args as [IncomingMessage, ServerResponse];
    guarded(req, res, () => {
      emit.apply(this, [event, req, res]);
    });
    return this.listenerCount("request") > 0;
  } as Server["emit"];
}
