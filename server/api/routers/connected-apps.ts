// The MCP clients a person has allowed through OAuth (docs/features/mcp.md#oauth, "Granted clients"):
// settings lists them and revokes one. Managing them needs a web session or an access token (scope
// `account`): neither an API key nor an MCP client's own token can see or end the grants.
import { z } from "zod";
import { connectedAppIdInput, connectedAppListSchema } from "../../contract/connected-apps.ts";
import * as grants from "../../oauth/grants.ts";
import { agentProcedure, router } from "../trpc.ts";

export const connectedAppsRouter = router({
  list: agentProcedure
    .meta({ scope: "account" })
    .input(z.object({}))
    .output(connectedAppListSchema)
    .query(({ ctx }) => grants.listConnectedApps(ctx.agent.id)),

  revoke: agentProcedure
    .meta({ scope: "account" })
    .input(connectedAppIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => grants.revokeMcpGrant({ agentId: ctx.agent.id, grantId: input.grant_id })),
});
