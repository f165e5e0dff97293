// GET /health: liveness and database reachability.
import { z } from "zod";

export const healthInput = z.object({});
export const healthSchema = z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }).meta({ id: "Health" });
export type Health = z.infer<typeof healthSchema>;
