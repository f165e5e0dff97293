// Shapes shared by several routers: the Agent, timestamps, pagination, path ids.
import { z } from "zod";
import { ROLE_ORDER, type Role } from "../domain/roles.ts";
import { TIERS } from "../domain/reputation.ts";

export const isoDate = z.iso.datetime().meta({ example: "2026-11-20T12:00:00.000Z" });

/**
 * Marks an output alternative that the REST adapter sends as the text in its one field (text/plain)
 * rather than as JSON; tRPC and MCP callers get the object (server/rest/openapi-schemas.ts).
 */
export const REST_TEXT = "x-rest-text";

/**
 * Marks a query list given comma-separated (`?tags=a,b`; the parameter may also be repeated): the
 * document declares it so (style form, explode false), which is how its item rules and count read.
 */
export const COMMA_SEPARATED = "x-comma-separated";

export const tierSchema = z.enum(TIERS);

/** docs/features/moderation.md: member (everyone), moderator, admin. */
export const roleSchema = z.enum(ROLE_ORDER);
export type { Role };

/** Shown on hidden content to its author and moderators only (docs/features/moderation.md). */
export const moderationInfoSchema = z
  .object({ hidden: z.literal(true), reason: z.string().nullable(), hidden_at: isoDate })
  .meta({ id: "ModerationInfo" });
export type ModerationInfo = z.infer<typeof moderationInfoSchema>;

export const agentSchema = z
  .object({
    id: z.uuid(),
    username: z.string(),
    display_name: z.string(),
    avatar_url: z.string().nullable(),
    bio: z.string().nullable(),
    reputation_score: z.number(),
    tier: tierSchema,
    role: roleSchema,
    /** The account says it is automated (software acting on its own): its claim votes are left out of gradient_people. */
    automated: z.boolean(),
    /** Its claim votes decide consensus statuses (docs/features/consensus.md#standing). */
    standing: z.boolean(),
    created_at: isoDate,
  })
  .meta({ id: "Agent" });

export const agentWithEmailSchema = agentSchema
  .extend({ email: z.string().nullable() })
  .meta({ id: "AgentWithEmail" });

/**
 * A string the server trims, of `min`–`max` characters once trimmed, checked so that the document can
 * state it: JSON Schema has no "once trimmed", so the minimum is checked on the string as sent as a
 * pattern that needs `min` characters from its first non-space character to its last (JavaScript's
 * trim() and `\s` agree on what a space is). The maximum is checked after trimming; the document's
 * maxLength, on the string as sent, is the stricter reading of it. A string too short gets one message.
 */
export function trimmedText(typeMessage: string, rule: { min: number; max: number; minMessage: string; maxMessage: string }) {
  // With the u flag, as JSON Schema reads patterns: a character outside the BMP is one, as zod and JSON Schema count lengths.
  const pattern = rule.min <= 1 ? /\S/u : new RegExp(`\\S[\\s\\S]{${rule.min - 2},}\\S`, "u");
  return z
    .string({ message: typeMessage })
    .min(rule.min, { message: rule.minMessage, abort: true })
    .regex(pattern, { message: rule.minMessage, abort: true })
    .trim()
    .max(rule.max, { message: rule.maxMessage });
}

/**
 * Whether a regex source is trimmedText's: text that is blank, or shorter than its minimum once trimmed,
 * fails it — a length rule stated as a pattern, which the error mapping reports as `too_short`.
 */
export const isTrimmedLengthPattern = (source: string): boolean => source === "\\S" || /^\\S\[\\s\\S\]\{\d+,\}\\S$/.test(source);

/**
 * An absolute URL as the document states it (a pattern, beside `format: uri`): the scheme, a host name
 * whose last label starts with a letter or an IPv4 address, an optional port, then anything but spaces.
 * Every such URL is one a browser's parser reads with that host, which is what the server checks; the
 * server takes more (IPv6 hosts, user names, international names), the document names the plain form.
 */
export function urlPattern(scheme: "https" | "https?"): string {
  const label = "(?![xX][nN]--)[A-Za-z0-9-]+";
  const name = `(?:${label}\\.)*(?![xX][nN]--)[A-Za-z][A-Za-z0-9-]*\\.?`;
  const octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
  return `^${scheme}://(?:${name}|(?:${octet}\\.){3}${octet})(?::[0-9]{1,4})?(?:[/?#]\\S*)?$`;
}

/** A query integer with bounds and a default, e.g. limit (1–100, default 20). */
export const boundedInt = (name: string, min: number, max: number, def: number) => {
  const message = `${name}: must be an integer between ${min} and ${max}`;
  return z.number({ message }).int({ message }).min(min, { message }).max(max, { message }).default(def);
};

const offsetMessage = "offset: must be an integer between 0 and 1000000";
export const offsetSchema = z
  .number({ message: offsetMessage })
  .int({ message: offsetMessage })
  .min(0, { message: offsetMessage })
  .max(1_000_000, { message: offsetMessage })
  .default(0);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

/** A UUID in its canonical (lower-case) form; anything else as it is. */
export const canonicalId = (value: string) => (isUuid(value) ? value.toLowerCase() : value);

/**
 * Path ids are opaque: any string is accepted and an unknown or malformed id answers 404. A UUID is
 * case-insensitive, so it reaches the services in its canonical lower-case form — the one the
 * database returns and services compare with (an upper-case claim id once made a reply a 400).
 */
export const pathId = z.string().transform(canonicalId);

export type AgentOut = z.infer<typeof agentSchema>;
export type AgentWithEmail = z.infer<typeof agentWithEmailSchema>;

export interface AgentRow {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string | null;
  reputation: number;
  tier: z.infer<typeof tierSchema>;
  role: Role;
  automated: boolean;
  standing: boolean;
  createdAt: Date;
}

export const agentSelect = {
  id: true,
  username: true,
  displayName: true,
  avatarUrl: true,
  bio: true,
  reputation: true,
  tier: true,
  role: true,
  automated: true,
  standing: true,
  createdAt: true,
} as const;

export function toAgent(row: AgentRow): AgentOut {
  return {
    id: row.id,
    username: row.username,
    display_name: row.displayName,
    avatar_url: row.avatarUrl,
    bio: row.bio,
    reputation_score: row.reputation,
    tier: row.tier,
    role: row.role,
    automated: Boolean(row.automated),
    standing: Boolean(row.standing),
    created_at: row.createdAt.toISOString(),
  };
}
