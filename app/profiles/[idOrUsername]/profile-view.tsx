"use client";
// A profile's page, drawn in the browser and on the server from the data page.tsx reads: a client
// component, so the page's React payload carries that data once instead of the page's tree
// (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import type { Profile, ReputationJourney, Timeline } from "~/server/contract/profiles.ts";
import type { ActivityPage } from "~/server/contract/activity.ts";
import type { TrackRecordOut } from "./track-record-types.ts";
import { atConsensusVersusResolved } from "../../_components/consensus.tsx";
import { Avatar, TierBadge } from "../../_components/bits.tsx";
import { ReportButtonForOthers } from "../../_components/report-button.tsx";
import { percent, shortDate } from "../../_lib/format.ts";
import { ActivityChart } from "./activity-chart.tsx";
import { ActivityLists } from "./activity-lists.tsx";
import { EditProfileLink } from "./edit-profile-link.tsx";
import { ReputationChart } from "./reputation-chart.tsx";
import { CalibrationChart } from "./calibration-chart.tsx";
import { ReliabilityDiagram } from "../../_components/reliability-diagram.tsx";
import profileStyles from "./profile.module.css";
import ui from "../../_components/ui.module.css";

/** 26.3 → "26th", 1 → "1st", 100 → "100th": a percentile as people say it, to the whole (English suffixes). */
function ordinal(n: number): string {
  const whole = Math.round(n);
  const suffix = whole % 100 >= 11 && whole % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[whole % 10] ?? "th";
  return `${whole}${suffix}`;
}

const signed = (x: number | null) => (x === null ? "–" : `${x < 0 ? "\u2212" : x > 0 ? "+" : ""}${Math.abs(x).toFixed(3)}`);

/**
 * The track record against the world (docs/features/checks.md#scores), beside the consensus-based one:
 * votes cast before a check closed, on claims whose outcome came out true or false, with how many.
 */
function WorldRecord({ world }: { world: TrackRecordOut["world"] }) {
  return (
    <section className={ui.card} aria-labelledby="world-title" data-testid="world-record">
      <h2 id="world-title" className={ui.card__title}>
        Against the world
      </h2>
      <dl className={profileStyles["metric-grid"]}>
        <div>
          <dt>Brier score</dt>
          <dd data-testid="world-brier">{world.brier === null ? "–" : world.brier.toFixed(3)}</dd>
        </div>
        <div>
          <dt>Log score</dt>
          <dd data-testid="world-log">{signed(world.log)}</dd>
        </div>
        <div>
          <dt>Peer score</dt>
          <dd data-testid="world-peer">{signed(world.peer)}</dd>
        </div>
        <div>
          <dt>Scored votes</dt>
          <dd data-testid="world-scored">{world.scored}</dd>
        </div>
      </dl>
      <p className={ui.note}>
        Scored against what happened, not against the crowd: each vote cast before a check closed, on a claim whose outcome
        came out true or false (ambiguous and annulled ones are not scored). Brier: 0 is perfect. Log: the mean log of the
        chance given to what happened, 0 is best. Peer: above 0 is closer than the others who voted on the same claims.
      </p>
      {world.scored === 0 ? (
        <p className={ui.note} style={{ margin: 0 }}>
          No scored votes yet: they appear once a checked claim this person voted on has a final outcome.
        </p>
      ) : (
        <figure style={{ margin: 0 }}>
          <ReliabilityDiagram
            bins={world.calibration}
            idPrefix="world-calibration"
            title="Calibration against the world"
            description="Each dot is a tenth of the vote scale: across, this person's mean vote; up, how often those claims came out true. Dots on the diagonal are perfectly calibrated."
            xLabel="Their vote said"
            unit="vote"
            testId="world-calibration"
          />
          <figcaption className={ui.note}>Larger dots stand for more votes; the dashed diagonal is perfect calibration.</figcaption>
        </figure>
      )}
    </section>
  );
}

export function ProfileView({
  profile,
  timeline,
  journey,
  journeyComplete,
  track,
  firstClaims,
  resolutionStableSeconds,
}: {
  profile: Profile;
  timeline: Timeline;
  journey: ReputationJourney;
  /** Whether `journey` holds every event (it is cut at the page's limit). */
  journeyComplete: boolean;
  track: TrackRecordOut;
  /** The first page of the person's claims, read with the profile. */
  firstClaims: ActivityPage;
  resolutionStableSeconds: number;
}) {
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
          <div className={profileStyles["profile-head__actions"]}>
            <EditProfileLink agentId={profile.id} name={profile.display_name} />
            <ReportButtonForOthers ownerId={profile.id} targetType="agent" targetId={profile.id} label="Report profile" />
          </div>
        </div>
        <div style={{ textAlign: "right" }}>
          <div className={ui.note}>Reputation</div>
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
                <dd>
                  <a href="#activity-claims">{stats.claims_authored}</a>
                </dd>
              </div>
              <div>
                <dt>Evidence</dt>
                <dd>
                  <a href="#activity-evidence">{stats.evidence_submitted}</a>
                </dd>
              </div>
              <div>
                <dt>Votes</dt>
                <dd>{stats.votes_cast}</dd>
              </div>
              <div>
                <dt>Rank</dt>
                <dd>
                  #{stats.reputation_rank} <span className={ui.note}>of {stats.total_agents}</span>
                </dd>
              </div>
              <div>
                <dt>Percentile</dt>
                <dd>{ordinal(stats.percentile)}</dd>
              </div>
            </dl>
          </section>

          <section className={ui.card} aria-labelledby="activity-list-title" id="activity">
            <ActivityLists agentId={profile.id} titleId="activity-list-title" firstClaims={firstClaims} />
          </section>

          <section className={ui.card} aria-labelledby="activity-title">
            <ActivityChart agentId={profile.id} initial={timeline} titleId="activity-title" />
          </section>

          <section className={ui.card} aria-labelledby="journey-title">
            <h2 id="journey-title" className={ui.card__title}>
              Reputation journey
            </h2>
            <ReputationChart journey={journey} joinedAt={profile.created_at} complete={journeyComplete} />
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
              <span className={ui.note}>of 1.00</span>
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
            {learning.accuracy_rate !== null ? (
              <p className={ui.note} data-testid="learning-parts">
                {/* The score is not the accuracy (docs/api.md, learning score): half of it is accuracy, the other
                    half steadiness and trend across 30-day windows, which count as middling until two windows
                    have resolved votes (docs/features/friction.md#numbers-that-agree). */}
                Half of the score is accuracy ({percent(learning.accuracy_rate)} gives{" "}
                {(0.5 * learning.accuracy_rate).toFixed(2)}); the other half is how steady and how improving that accuracy is
                across 30-day windows ({Math.max(0, learning.score - 0.5 * learning.accuracy_rate).toFixed(2)} of 0.50), which stays
                at 0.25 until two windows have resolved votes.
              </p>
            ) : null}
            <p className={ui.note} style={{ margin: 0 }}>
              {learning.total_resolved_votes === 0
                ? "No resolved votes yet."
                : `${learning.correct_resolved_votes} of ${learning.total_resolved_votes} resolved votes matched the outcome${learning.accuracy_rate !== null ? ` (${percent(learning.accuracy_rate)})` : ""}.`}
            </p>
            <p className={ui.note} data-testid="consensus-vocabulary" style={{ marginBottom: 0 }}>
              {atConsensusVersusResolved(resolutionStableSeconds)}
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
            <p className={ui.note}>
              Brier: the mean squared gap between each vote and the outcome (0 is perfect, 0.25 is always voting 0.5). Peer: how
              much closer than the crowd at the time of the vote (above 0 is better than the crowd).
            </p>
            <CalibrationChart bins={track.calibration} />
          </section>

          <WorldRecord world={track.world} />

          <section className={ui.card} aria-labelledby="expertise-title">
            <h2 id="expertise-title" className={ui.card__title}>
              Expertise
            </h2>
            {profile.expertise.length === 0 ? (
              <p className={ui.note} style={{ margin: 0 }}>
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
