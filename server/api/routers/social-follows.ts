// Following topics and people (docs/features/following.md#topics-and-people). DELETE takes no body.
import { z } from "zod";
import {
  followingSchema,
  personFollowInput,
  personFollowSchema,
  topicFollowInput,
  topicFollowSchema,
} from "../../contract/social-follows.ts";
import * as follows from "../../services/social-follows.ts";
import { agentProcedure, router } from "../trpc.ts";

const TAG = ["following"];

export const socialFollowsRouter = router({
  list: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/follows", tags: TAG, protect: true, summary: "The topics and people the caller follows, newest first" },
    })
    .input(z.object({}))
    .output(followingSchema)
    .query(({ ctx }) => follows.listFollowing(ctx.agent.id)),

  followTopic: agentProcedure
    .meta({
      scope: "write",
      openapi: {
        method: "POST",
        path: "/topics/{tag}/follow",
        tags: TAG,
        protect: true,
        summary: "Follow a topic: new claims with the tag reach the caller's inbox (idempotent)",
      },
    })
    .input(topicFollowInput)
    .output(topicFollowSchema)
    .mutation(({ ctx, input }) => follows.followTopic(ctx.agent.id, input.tag)),

  unfollowTopic: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/topics/{tag}/follow", tags: TAG, protect: true, summary: "Stop following a topic (204 either way)" },
    })
    .input(topicFollowInput)
    .output(z.void())
    .mutation(({ ctx, input }) => follows.unfollowTopic(ctx.agent.id, input.tag)),

  followPerson: agentProcedure
    .meta({
      scope: "write",
      openapi: {
        method: "POST",
        path: "/profiles/{agent_id}/follow",
        tags: TAG,
        protect: true,
        summary: "Follow a person: the claims they write reach the caller's inbox (idempotent)",
      },
    })
    .input(personFollowInput)
    .output(personFollowSchema)
    .mutation(({ ctx, input }) => follows.followPerson(ctx.agent.id, input.agent_id)),

  unfollowPerson: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/profiles/{agent_id}/follow", tags: TAG, protect: true, summary: "Stop following a person (204 either way; 404 for an unknown one)" },
    })
    .input(personFollowInput)
    .output(z.void())
    .mutation(({ ctx, input }) => follows.unfollowPerson(ctx.agent.id, input.agent_id)),
});
