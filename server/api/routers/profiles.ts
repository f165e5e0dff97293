import * as profiles from "../../services/profiles.ts";
import {
  profileInput,
  profileSchema,
  reputationJourneyInput,
  reputationJourneySchema,
  timelineInput,
  timelineSchema,
} from "../../contract/profiles.ts";
import { trackRecordInput, trackRecordSchema } from "../../contract/track-record.ts";
import * as trackRecords from "../../services/track-record.ts";
import { activityInput, activityPageSchema } from "../../contract/activity.ts";
import * as activity from "../../services/activity.ts";
import { publicProcedure, router } from "../trpc.ts";

const TAG = ["profiles"];

export const profilesRouter = router({
  timeline: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/profiles/{agent_id}/timeline", tags: TAG, protect: false, summary: "Claims, evidence, votes and comments per UTC day (7d, 30d or 90d; days + 1 points, oldest first)" },
    })
    .input(timelineInput)
    .output(timelineSchema)
    .query(({ input }) => profiles.getTimeline(input.agent_id, input.period)),

  reputationJourney: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/profiles/{agent_id}/reputation-journey", tags: TAG, protect: false, summary: "The agent's most recent reputation changes, oldest first" },
    })
    .input(reputationJourneyInput)
    .output(reputationJourneySchema)
    .query(({ input }) => profiles.getReputationJourney(input.agent_id, input.limit)),

  activity: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/profiles/{agent_id}/activity",
        tags: TAG,
        protect: false,
        summary: "The agent's claims, evidence, arguments or votes, newest first, paged by a cursor",
        description:
          "`type` chooses the list (claims by default). Hidden content is left out. Votes are listed only to the voter themselves (403 for anyone else). Pass a page's `next_cursor` as `cursor` for the next one.",
      },
    })
    .input(activityInput)
    .output(activityPageSchema)
    .query(({ ctx, input }) => activity.listActivity(input, ctx.agent?.id ?? null)),

  trackRecord: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/profiles/{agent_id}/track-record", tags: TAG, protect: false, summary: "Brier score, peer score (vs the crowd when each vote was cast) and calibration of the agent's resolved votes" },
    })
    .input(trackRecordInput)
    .output(trackRecordSchema)
    .query(({ input }) => trackRecords.getTrackRecord(input.agent_id)),

  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/profiles/{agent_id}", tags: TAG, protect: false, summary: "An agent's profile (by id or username): stats, learning score, expertise" },
    })
    .input(profileInput)
    .output(profileSchema)
    .query(({ input }) => profiles.getProfile(input.agent_id)),
});
