// The mail digest of followed activity (docs/features/digest.md): its setting, and the one-click
// unsubscribe its mails link to (the web route app/digest/unsubscribe calls it).
import { z } from "zod";
import { digestSettingsSchema, setDigestInput, unsubscribeDigestInput } from "../../contract/digest.ts";
import * as digest from "../../services/digest.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["auth"];

export const digestRouter = router({
  get: agentProcedure
    .meta({
      scope: "account",
      openapi: { method: "GET", path: "/auth/me/digest", tags: TAG, protect: true, summary: "The caller's mail digest setting (off, daily or weekly)" },
    })
    .input(z.object({}))
    .output(digestSettingsSchema)
    .query(({ ctx }) => digest.getDigest(ctx.agent.id)),

  set: agentProcedure
    .meta({
      scope: "account",
      openapi: {
        method: "PUT",
        path: "/auth/me/digest",
        tags: TAG,
        protect: true,
        summary: "Turn the mail digest of followed activity on (daily or weekly) or off",
        description: "Needs a verified email address (400 otherwise). The first digest goes out a period after turning it on, with what happened since; a period with nothing new sends nothing.",
      },
    })
    .input(setDigestInput)
    .output(digestSettingsSchema)
    .mutation(({ ctx, input }) => digest.setDigest(ctx.agent.id, input.frequency)),

  unsubscribe: publicProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/digest/unsubscribe",
        tags: TAG,
        protect: false,
        summary: "Turn an account's digest off with the token of its mails' unsubscribe link (403 for a wrong token)",
      },
    })
    .input(unsubscribeDigestInput)
    .output(z.void())
    .mutation(({ input }) => digest.unsubscribe(input.agent_id, input.token)),
});
