// `npm run dev` loads the demo data in its Next process while Next starts (server/seed/on-start.ts), and
// every request waits for it: the first request, sent at once, gets the demo site — never an empty or
// half-loaded one — and a second call in the same process (the preload's, then instrumentation.ts's)
// loads nothing again.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it, vi } from "vitest";
import { handleNodeRest } from "../../server/rest/node.ts";
import { loadDemoBeforeRequests } from "../../server/seed/on-start.ts";
import { DEMO_AGENTS, DEMO_CLAIMS } from "../../server/seed/demo-data.ts";
import { db, dbReady } from "../../server/db/client.ts";
import type { Claim } from "../../server/contract/claims.ts";

// What `npm run dev` gives its Next process (server/cli/dev.ts); the rest as on a first run.
vi.hoisted(() => {
  process.env.DEMO_SEED = "start";
  process.env.RESOLUTION_STABLE_SECONDS = "1800";
  process.env.STANDING_MIN_AGE_SECONDS = "86400";
  process.env.STANDING_MIN_VOTES = "5";
  process.env.STANDING_REQUIRE_VERIFIED = "true";
});

let server: Server | undefined;
afterAll(() => server?.close());

it("holds the first request until the demo data is in, and loads it once", async () => {
  loadDemoBeforeRequests();
  loadDemoBeforeRequests();
  // No dbReady() first: the REST handler waits for it, as every page and route does.
  server = createServer((req, res) => void handleNodeRest(req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/claims?limit=100`);
  expect(res.status).toBe(200);
  const { claims } = (await res.json()) as { claims: Claim[] };
  expect(claims.length).toBeGreaterThanOrEqual(DEMO_CLAIMS.length);
  expect(claims.filter((c) => c.vote_count > 0).length).toBeGreaterThan(DEMO_CLAIMS.length / 2);
  await dbReady();
  expect(await db().agent.count()).toBe(DEMO_AGENTS.length);
}, 300_000);
