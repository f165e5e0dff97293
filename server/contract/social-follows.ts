// Request and response shapes of following topics and people (docs/features/following.md#topics-and-people).
import { z } from "zod";
import { agentSchema, isoDate, pathId } from "./common.ts";

/** Topics one account may follow, and people: bounded, so the list answers in one call. */
export const MAX_TOPIC_FOLLOWS = 100;
export const MAX_PEOPLE_FOLLOWS = 500;

const tagMessage = "tag: must be 1-50 characters of a-z, 0-9, _ and -";
/** A tag as stored: lower-cased (the path may name it in any case). */
export const topicFollowInput = z.object({
  tag: z
    .string({ message: tagMessage })
    .regex(/^[A-Za-z0-9_-]{1,50}$/, { message: tagMessage })
    .transform((t) => t.toLowerCase()),
});

export const topicFollowSchema = z
  .object({ tag: z.string(), is_following: z.literal(true), created_at: isoDate })
  .meta({ id: "TopicFollow" });

export const personFollowInput = z.object({ agent_id: pathId });

export const personFollowSchema = z
  .object({ agent_id: z.string(), is_following: z.literal(true), created_at: isoDate })
  .meta({ id: "PersonFollow" });

export const followingSchema = z
  .object({
    /** Newest first. */
    topics: z.array(z.object({ tag: z.string(), created_at: isoDate })),
    people: z.array(z.object({ agent: agentSchema, created_at: isoDate })),
  })
  .meta({ id: "Following" });

export type TopicFollowOut = z.infer<typeof topicFollowSchema>;
export type PersonFollowOut = z.infer<typeof personFollowSchema>;
export type FollowingOut = z.infer<typeof followingSchema>;
