// A profile (by id or username): numbers, learning score with its insight, expertise, and two charts —
// activity per day and the reputation journey (profiles.get / timeline / reputationJourney).
import type { Metadata } from "next";
import { sharedCaller } from "~/server/api/server-caller.ts";
import { profileMetadata } from "../../_lib/open-web/metadata.ts";
import { config } from "~/server/config.ts";
import { ACTIVITY_PAGE } from "./activity-page.ts";
import { loadProfile } from "./load-profile.ts";
import { ProfileView } from "./profile-view.tsx";

// Kept by Next between renders and served to every viewer (docs/features/page-cache.md): rendered on
// its first view, then again in the background once `revalidate` seconds have passed.
export const revalidate = 60;

/** None at build time: each profile is rendered on its first view, then kept. */
export function generateStaticParams(): { idOrUsername: string }[] {
  return [];
}

type Params = Promise<{ idOrUsername: string }>;

const JOURNEY_LIMIT = 200;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const profile = await loadProfile((await params).idOrUsername);
  // Cards, canonical address and the person's feed (docs/features/open-web.md).
  return profileMetadata(profile);
}

export default async function ProfilePage({ params }: { params: Params }) {
  const profile = await loadProfile((await params).idOrUsername);
  // The same for every viewer (one render serves them all); the report button is theirs to see.
  const caller = await sharedCaller();
  const [timeline, journey, track, firstClaims] = await Promise.all([
    caller.profiles.timeline({ agent_id: profile.id, period: "30d" }),
    caller.profiles.reputationJourney({ agent_id: profile.id, limit: JOURNEY_LIMIT }),
    caller.profiles.trackRecord({ agent_id: profile.id }),
    caller.profiles.activity({ agent_id: profile.id, type: "claims", limit: ACTIVITY_PAGE }),
  ]);
  return (
    <ProfileView
      profile={profile}
      timeline={timeline}
      journey={journey}
      journeyComplete={journey.history.length < JOURNEY_LIMIT}
      track={track}
      firstClaims={firstClaims}
      resolutionStableSeconds={config().RESOLUTION_STABLE_SECONDS}
    />
  );
}
