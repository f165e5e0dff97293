// Automated accounts counted apart (docs/features/mcp.md). An account says whether it is automated;
// each claim vote records what its account was when the vote was written, and the claim's people
// sums (gradient_people) count exactly the votes recorded as a person's, the agents' view the others
// — updated in the vote's own statement (services/votes.ts), O(1) per vote. An automated account has
// no standing (docs/features/consensus.md#standing): its votes never decide a status.
//
// Changing the flag re-sorts the account's existing votes through the standing module
// (services/standing.ts restateStanding): claims in id order with their rows locked as a vote locks
// them, each vote moved from its own flags as they are under the lock, so concurrent changes and votes
// converge on the flag that committed last and the counts match the votes as recorded at every commit.
import { sqlTransaction } from "../db/client.ts";
import { updateProfile } from "./accounts.ts";
import type { UpdateProfileInput } from "../contract/accounts.ts";
import { Prisma } from "../db/generated/client.ts";
import { restateStanding } from "./standing.ts";
import { me } from "./auth.ts";
import { announcePagesChanged } from "../queue/live.ts";
import { logError } from "../log/logger.ts";

/**
 * PATCH /auth/me: applies what the account says about itself. Returns the account as GET /auth/me
 * shows it, and how many claims' gradient_people moved (their shared page renders are stale).
 */
export async function updateSelf(agentId: string, input: { automated?: boolean } & UpdateProfileInput) {
  // The profile fields of the same PATCH /auth/me (docs/features/accounts.md).
  if (input.display_name !== undefined || input.bio !== undefined) await updateProfile(agentId, { display_name: input.display_name, bio: input.bio });
  const resorted = input.automated === undefined ? 0 : await setAutomated(agentId, input.automated);
  // Claims whose gradient_people moved: every instance drops its shared page renders.
  if (resorted > 0) await announcePagesChanged().catch((err) => logError("[accounts] page cache announcement failed", err));
  return me(agentId);
}

/**
 * Sets the account's flag and re-sorts its votes at once (the standing job would too: the flag is one
 * of the facts its standing is decided from); returns the number of claims whose counts moved.
 */
export async function setAutomated(agentId: string, automated: boolean): Promise<number> {
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`UPDATE agents SET automated = ${automated}::boolean, updated_at = now() WHERE id = ${agentId}::uuid`),
  );
  // Busy: another transaction holds the account's row for a moment (a moderator's action).
  for (let attempt = 1; ; attempt++) {
    const outcome = await restateStanding(agentId);
    if (outcome.kind === "done") return outcome.claims;
    if (outcome.kind === "gone" || attempt >= 20) return 0; // the job re-sorts them later
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
