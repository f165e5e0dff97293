// The author of a claim, evidence or comment as raw SQL sees it: the columns of `agents a` that the API
// shows, prefixed `author_`, and the API's Agent built from them. One definition for every raw read
// that joins the author in.
import { Prisma } from "../db/generated/client.ts";
import { toAgent, type AgentOut, type AgentRow } from "../contract/common.ts";

export const AUTHOR_COLUMNS = Prisma.raw(
  `a.id::text AS author_id, a.username AS author_username, a.display_name AS author_display_name,
   a.avatar_url AS author_avatar_url, a.bio AS author_bio, a.reputation AS author_reputation,
   a.tier::text AS author_tier, a.role::text AS author_role, a.automated AS author_automated, a.standing AS author_standing, a.created_at AS author_created_at`,
);

export interface AuthorColumns {
  author_id: string;
  author_username: string;
  author_display_name: string;
  author_avatar_url: string | null;
  author_bio: string | null;
  author_reputation: number;
  author_tier: AgentRow["tier"];
  author_role: AgentRow["role"];
  author_automated: boolean;
  author_standing: boolean;
  author_created_at: Date;
}

export function authorOf(row: AuthorColumns): AgentOut {
  return toAgent({
    id: row.author_id,
    username: row.author_username,
    displayName: row.author_display_name,
    avatarUrl: row.author_avatar_url,
    bio: row.author_bio,
    reputation: Number(row.author_reputation),
    tier: row.author_tier,
    role: row.author_role,
    automated: row.author_automated,
    standing: row.author_standing,
    createdAt: row.author_created_at,
  });
}
