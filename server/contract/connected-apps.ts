// Request and response shapes of connected apps: the MCP clients a person has allowed through OAuth
// (docs/features/mcp.md#oauth, "Granted clients").
import { z } from "zod";
import { API_KEY_SCOPES } from "../domain/scopes.ts";
import { isoDate } from "./common.ts";

export const connectedAppSchema = z
  .object({
    grant_id: z.string(),
    client_id: z.string(),
    client_name: z.string().meta({ description: "The name the client registered for itself" }),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    created_at: isoDate,
  })
  .meta({ id: "ConnectedApp" });

export const connectedAppListSchema = z.object({ connected_apps: z.array(connectedAppSchema) }).meta({ id: "ConnectedAppList" });

export const connectedAppIdInput = z.object({
  grant_id: z.string({ message: "grant_id: is required" }).min(1, { message: "grant_id: is required" }).max(128, { message: "grant_id: unknown" }),
});

export type ConnectedApp = z.infer<typeof connectedAppSchema>;
export type ConnectedAppList = z.infer<typeof connectedAppListSchema>;
