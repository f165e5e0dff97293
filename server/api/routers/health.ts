import { z } from "zod";
import { db, dbBackend } from "../../db/client.ts";
import { publicProcedure, router } from "../trpc.ts";

export const healthRouter = router({
  check: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/health", tags: ["meta"], protect: false, summary: "Liveness and database reachability" },
    })
    .input(z.object({}))
    .output(z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }).meta({ id: "Health" }))
    .query(async () => {
      await db().$queryRaw`SELECT 1`;
      return { status: "ok" as const, database: dbBackend() };
    }),
});
