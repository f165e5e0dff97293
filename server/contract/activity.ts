// Request and response shapes of a profile's activity lists (docs/features/activity.md).
import { z } from "zod";
import { boundedInt, isoDate, pathId } from "./common.ts";

export const ACTIVITY_TYPES = ["claims", "evidence", "arguments", "votes"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * A page's end: `<created_at in Unix milliseconds>_<id>` of the last item of the page before. Every
 * string of this form is a place in the order (newest first, ties by id), so none is refused.
 */
export const ACTIVITY_CURSOR_PATTERN = "^[0-9]{1,15}_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const cursorMessage = "cursor: must be the next_cursor of a page";

export const activityInput = z.object({
  agent_id: pathId,
  type: z
    .enum(ACTIVITY_TYPES, { message: `type: must be one of ${ACTIVITY_TYPES.join(", ")}` })
    .default("claims"),
  limit: boundedInt("limit", 1, 50, 20),
  cursor: z.string({ message: cursorMessage }).regex(new RegExp(ACTIVITY_CURSOR_PATTERN), { message: cursorMessage }).optional(),
});
export type ActivityInput = z.infer<typeof activityInput>;

export const activityItemSchema = z
  .object({
    type: z.enum(["claim", "evidence", "argument", "vote"]),
    /** The row's id: the claim, the piece of evidence, the argument or the vote. */
    id: z.string(),
    created_at: isoDate,
    /** The claim it is about: the claim itself, the claim evidence or an argument is on, the claim voted on. */
    claim: z.object({ id: z.string(), statement: z.string() }),
    /** Evidence: supports, opposes or neutral; an argument: supports or opposes. */
    position: z.string().nullable(),
    /** Evidence: its title, else the start of its content; an argument: the arguing claim's statement. */
    text: z.string().nullable(),
    /** An argument: the claim that argues. */
    child_claim_id: z.string().nullable(),
    /** A vote: its current value (0–1). */
    value: z.number().nullable(),
  })
  .meta({ id: "ActivityItem" });
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityPageSchema = z
  .object({
    type: z.enum(ACTIVITY_TYPES),
    items: z.array(activityItemSchema),
    /** Pass as `cursor` for the next page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "ActivityPage" });
export type ActivityPage = z.infer<typeof activityPageSchema>;
