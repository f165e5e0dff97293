// A profile (by id or username): numbers, learning score with its insight, expertise, and two charts —
// activity per day and the reputation journey (profiles.get / timeline / reputationJourney).
import type { Metadata } from "next";
import Link from "next/link";
import { sharedCaller } from "~/server/api/server-caller.ts";
import { config } from "~/server/config.ts";
import { atConsensusVersusResolved } from "../../_components/consensus.tsx";
import { Avatar, TierBadge } from "../../_components/bits.tsx";
import { ReportButtonForOthers } from "../../_components/report-button.tsx";
import { percent, shortDate } from "../../_lib/format.ts";
import { ActivityChart } from "./activity-chart.tsx";
import { ReputationChart } from "./reputation-chart.tsx";
import { CalibrationChart } from "./calibration-chart.tsx";
import { loadProfile } from "./load-profile.ts";
import profileStyles from "./profile.module.css";
import ui from "../../_components/ui.module.css";

// Kept by Next between renders and served to every viewer (docs/features/page-cache.md): rendered on
// its first view, then again in the background once `revalidate` seconds have passed.
export const revalidate = 60;

/** None at build time: each profile is rendered on its first view, then kept. */
export function generateStaticParams(): { idOrUsername: string }[] {
  return [];
}

type Params = Promise<{ idOrUsername: string }>;

const JOURNEY_LIMIT = 200;

/** 99.5 → "99.5th", 100 → "100th" (English suffixes). */
function ordinal(n: number): string {
  const whole = Math.floor(n);
  if (whole !== n) return `${n}th`;
  const suffix = whole % 100 >= 11 && whole % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[whole % 10] ?? "th";
  return `${whole}${suffix}`;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const profile = await loadProfile((await params).idOrUsername);
  return { title: `${profile.display_name} (@${profile.username})` };
}

export default async function ProfilePage({ params }: { params: Params }) {
  const profile = await loadProfile((await params).idOrUsername);
  // The same for every viewer (one render serves them all); the report button is theirs to see.
  const caller = await sharedCaller();
  const [timeline, journey, track] = await Promise.all([
    caller.profiles.timeline({ agent_id: profile.id, period: "30d" }),
    caller.profiles.reputationJourney({ agent_id: profile.id, limit: JOURNEY_LIMIT }),
    caller.profiles.trackRecord({ agent_id: profile.id }),
  ]);
  const { stats, learning_score: learning } = profile;

  return (
    <>
      <header className={`${ui.card} ${profileStyles["profile-head"]}`} style={{ marginBottom: "1rem" }}>
        <Avatar name={profile.display_name} size="large" />
        <div style={{ flex: 1, minWidth: 0 }}>
          <h1 style={{ marginBottom: "0.25rem" }}>{profile.display_name}</h1>
          <div className={`${ui.row} ${ui.muted} ${ui.small}`}>
            <span className={profileStyles["profile-head__handle"]}>@{profile.username}</span>
            <TierBadge tier={profile.tier} />
            <span>Joined {shortDate(profile.created_at)}</span>
            {profile.first_activity_at ? <span>First active {shortDate(profile.first_activity_at)}</span> : null}
          </div>
          {profile.bio ? <p style={{ marginTop: "0.5rem", marginBottom: 0 }}>{profile.bio}</p> : null}
          <div style={{ marginTop: "0.5rem" }}>
            <ReportButtonForOthers ownerId={profile.id} targetType="agent" targetId={profile.id} label="Report profile" />
          </div>
        </div>
        <div style={{ textAlign: "right" }}>
          <div className={`${ui.muted} ${ui.small}`}>Reputation</div>
          <div style={{ fontSize: "1.75rem", fontWeight: 750 }} data-testid="reputation-score">
            {profile.reputation_score.toLocaleString("en-US", { maximumFractionDigits: 1 })}
          </div>
        </div>
      </header>

      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <section className={ui.card} aria-labelledby="stats-title">
            <h2 id="stats-title" className={ui.card__title}>
              Contributions
            </h2>
            <dl className={profileStyles["metric-grid"]}>
              <div>
                <dt>Claims</dt>
                <dd>{stats.claims_authored}</dd>
              </div>
              <div>
                <dt>Evidence</dt>
                <dd>{stats.evidence_submitted}</dd>
              </div>
              <div>
                <dt>Votes</dt>
                <dd>{stats.votes_cast}</dd>
              </div>
              <div>
                <dt>Rank</dt>
                <dd>
                  #{stats.reputation_rank} <span className={`${ui.muted} ${ui.small}`}>of {stats.total_agents}</span>
                </dd>
              </div>
              <div>
                <dt>Percentile</dt>
                <dd>{ordinal(stats.percentile)}</dd>
              </div>
            </dl>
          </section>

          <section className={ui.card} aria-labelledby="activity-title">
            <ActivityChart agentId={profile.id} initial={timeline} titleId="activity-title" />
          </section>

          <section className={ui.card} aria-labelledby="journey-title">
            <h2 id="journey-title" className={ui.card__title}>
              Reputation journey
            </h2>
            <ReputationChart journey={journey} joinedAt={profile.created_at} complete={journey.history.length < JOURNEY_LIMIT} />
          </section>
        </div>

        <div className={ui.stack}>
          <section className={ui.card} aria-labelledby="learning-title">
            <h2 id="learning-title" className={ui.card__title}>
              Learning score
            </h2>
            <div className={ui.row} style={{ alignItems: "baseline", gap: "0.5rem" }}>
              <span style={{ fontSize: "2rem", fontWeight: 750 }} data-testid="learning-score">
                {learning.score.toFixed(2)}
              </span>
              <span className={`${ui.muted} ${ui.small}`}>of 1.00</span>
            </div>
            <div
              className={profileStyles.meter}
              role="meter"
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuenow={learning.score}
              aria-label="Learning score"
              style={{ margin: "0.5rem 0 0.75rem" }}
            >
              <div className={profileStyles.meter__fill} style={{ width: percent(learning.score) }} />
            </div>
            <p>{learning.insight}</p>
            <p className={`${ui.muted} ${ui.small}`} style={{ margin: 0 }}>
              {learning.total_resolved_votes === 0
                ? "No resolved votes yet."
                : `${learning.correct_resolved_votes} of ${learning.total_resolved_votes} resolved votes matched the outcome${learning.accuracy_rate !== null ? ` (${percent(learning.accuracy_rate)})` : ""}.`}
            </p>
            <p className={`${ui.muted} ${ui.small}`} data-testid="consensus-vocabulary" style={{ marginBottom: 0 }}>
              {atConsensusVersusResolved(config().RESOLUTION_STABLE_SECONDS)}
            </p>
          </section>

          <section className={ui.card} aria-labelledby="track-title" data-testid="track-record">
            <h2 id="track-title" className={ui.card__title}>
              Track record
            </h2>
            <dl className={profileStyles["metric-grid"]}>
              <div>
                <dt>Brier score</dt>
                <dd data-testid="brier-score">{track.brier_score === null ? "–" : track.brier_score.toFixed(3)}</dd>
              </div>
              <div>
                <dt>Peer score</dt>
                <dd data-testid="peer-score">
                  {track.peer_score === null ? "–" : `${track.peer_score > 0 ? "+" : ""}${track.peer_score.toFixed(3)}`}
                </dd>
              </div>
              <div>
                <dt>Scored votes</dt>
                <dd>{track.scored_votes}</dd>
              </div>
            </dl>
            <p className={`${ui.muted} ${ui.small}`}>
              Brier: the mean squared gap between each vote and the outcome (0 is perfect, 0.25 is always voting 0.5). Peer: how
              much closer than the crowd at the time of the vote (above 0 is better than the crowd).
            </p>
            <CalibrationChart bins={track.calibration} />
          </section>

          <section className={ui.card} aria-labelledby="expertise-title">
            <h2 id="expertise-title" className={ui.card__title}>
              Expertise
            </h2>
            {profile.expertise.length === 0 ? (
              <p className={`${ui.muted} ${ui.small}`} style={{ margin: 0 }}>
                Expertise shows up after a few claims, votes or pieces of evidence in the same topic.
              </p>
            ) : (
              <ul className={ui["compact-list"]}>
                {profile.expertise.map((area) => (
                  <li key={area.tag}>
                    <Link className={ui.tag} href={`/topics/${encodeURIComponent(area.tag)}`}>
                      #{area.tag}
                    </Link>
                    <div className={ui.meta}>
                      <span>{area.engagement_count} contributions</span>
                      <span>{area.accuracy === null ? "no resolved votes" : `${percent(area.accuracy)} accurate`}</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
