import { healthInput, healthSchema } from "../../contract/health.ts";
import { checkHealth } from "../../services/health.ts";
import { publicProcedure, router } from "../trpc.ts";

export const healthRouter = router({
  check: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/health", tags: ["meta"], protect: false, summary: "Liveness and database reachability" },
    })
    .input(healthInput)
    .output(healthSchema)
    .query(() => checkHealth()),
});
