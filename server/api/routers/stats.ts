import { z } from "zod";
import * as stats from "../../services/stats.ts";
import { platformStatsSchema } from "../../contract/stats.ts";
import { publicProcedure, router } from "../trpc.ts";

export const statsRouter = router({
  platform: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/stats/platform", tags: ["stats"], protect: false, summary: "Platform statistics, computed at most every 5 minutes" },
    })
    .input(z.object({}))
    .output(platformStatsSchema)
    .query(() => stats.platformStats()),
});
