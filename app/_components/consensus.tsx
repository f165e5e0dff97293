// Where consensus on a claim stands, in words: the same words on the claim page, on every card, on
// home, profiles and the leaderboard (docs/features/consensus-ui.md). The words follow the claim's
// `consensus` as the API gives it; nothing here decides a status. Plain components: usable from server
// and client components alike.
import type { CSSProperties } from "react";
import Link from "~/app/_components/link.tsx";
import type { Claim, ClaimDetail, Consensus } from "~/server/contract/claims.ts";
import { consensusHeadline, hasVerdict, type ConsensusCall } from "../_lib/consensus-words.ts";
import { histogramBin, MIN_CONSENSUS_VOTERS } from "~/server/domain/consensus.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW } from "~/server/domain/gradient.ts";
import { durationWords, longDate, percent, plural } from "../_lib/format.ts";
import type { GradientTone } from "../_lib/format.ts";
import ui from "./ui.module.css";
import consensusStyles from "./consensus.module.css";

type ClaimConsensus = Pick<Claim, "consensus"> & { bridging: Pick<Claim["bridging"], "status"> };

// The status in words (consensusHeadline) lives in app/_lib/consensus-words.ts, where the pictures, feeds
// and embeds of docs/features/open-web.md read the same words without importing a component.
export { consensusHeadline, hasVerdict, type ConsensusCall } from "../_lib/consensus-words.ts";

/** Which rule decided, in a sentence (the claim page). */
export function consensusReason({ consensus, bridging }: ClaimConsensus): string {
  switch (consensus.status) {
    case "no_votes":
      return "Nothing to call until people vote (only votes of accounts with standing count).";
    case "too_few_votes":
      return `A call needs at least ${MIN_CONSENSUS_VOTERS} voters with standing.`;
    case "consensus_true":
    case "consensus_false": {
      const side = consensus.status === "consensus_true" ? "true" : "false";
      return consensus.decided_by === "viewpoints"
        ? `People who usually disagree both rate it ${side}.`
        : `Decided by votes alone (average ${consensus.status === "consensus_true" ? `above ${percent(CONSENSUS_HIGH)}` : `below ${percent(CONSENSUS_LOW)}`}); not enough voting history to compare viewpoints.`;
    }
    case "divided":
      return "People who usually disagree rate it differently: one group high, the other low. The average shows which group voted more, not agreement.";
    case "open":
      return bridging.status === "undecided"
        ? "People from different viewpoints have rated it, but not clearly true and not clearly false."
        : `Votes alone, between ${percent(CONSENSUS_LOW)} and ${percent(CONSENSUS_HIGH)}; not enough voting history to compare viewpoints.`;
  }
}

/** Which rule decided, in two or three words (cards). */
export function consensusBasis(consensus: ConsensusCall): string | null {
  if (consensus.decided_by === "viewpoints") return "across viewpoints";
  if (consensus.decided_by === "votes") return "by votes alone";
  return null;
}

/** The colour of a status: true and false only for a consensus. */
export function consensusTone(consensus: ConsensusCall): GradientTone {
  return consensus.status === "consensus_true" ? "true" : consensus.status === "consensus_false" ? "false" : "neutral";
}

/** "At consensus" is not "resolved": the sentence that says so, wherever either word is shown. */
export function atConsensusVersusResolved(stableSeconds: number): string {
  const held = stableSeconds > 0 ? `has held consensus for ${durationWords(stableSeconds)}` : "has reached consensus";
  return `At consensus: where the votes stand now. Resolved: a claim that ${held} with at least 10 votes; only then are votes on it scored for reputation and track records.`;
}

/** The status on the claim page: headline, who decided, since when. */
export function ConsensusStatus({ claim }: { claim: ClaimConsensus & { vote_count?: number } }) {
  const { consensus } = claim;
  const tone = consensusTone(consensus);
  return (
    <div className={consensusStyles.status} data-testid="consensus-status" data-status={consensus.status}>
      <p className={`${consensusStyles.status__headline} ${consensusStyles[`tone--${tone}`]}`}>
        {consensusHeadline({ ...consensus, votes: claim.vote_count })}
      </p>
      <p className={`${ui.small} ${consensusStyles.status__reason}`} data-testid="consensus-reason">
        {consensusReason(claim)}
      </p>
      {consensus.since && hasVerdict(consensus) ? (
        <p className={ui.note} style={{ margin: 0 }}>
          Since {longDate(consensus.since)}
        </p>
      ) : null}
    </div>
  );
}

/** The status on a card: the headline and, for a consensus, which rule decided. */
export function ConsensusLine({ consensus }: { consensus: ConsensusCall }) {
  const basis = consensusBasis(consensus);
  return (
    <span className={consensusStyles.line} data-testid="card-consensus" data-status={consensus.status}>
      <span className={consensusStyles[`tone--${consensusTone(consensus)}`]}>{consensusHeadline(consensus)}</span>
      {basis ? <span className={ui.muted}> · {basis}</span> : null}
    </span>
  );
}

/** The standing settings the page words its explanations with (docs/features/consensus.md#standing). */
export interface StandingWords {
  minAgeSeconds: number;
  minVotes: number;
}

/** An age in the largest whole unit: "a day", "3 days", "12 hours", "an hour". */
export function ageWords(seconds: number): string {
  if (seconds === 86_400) return "a day";
  if (seconds === 3_600) return "an hour";
  return seconds > 0 && seconds % 86_400 === 0 ? plural(seconds / 86_400, "day") : durationWords(seconds);
}

type Reasons = ClaimDetail["not_counted_reasons"];

/** Why votes do not count, in the order the page names them, each with its words for `n` votes. */
function reasonPhrases(reasons: Reasons, rule: StandingWords): string[] {
  const from = (n: number, what: string) => `${plural(n, "vote")} from ${what}`;
  const phrases: string[] = [];
  if (reasons.too_new > 0) phrases.push(from(reasons.too_new, `${reasons.too_new === 1 ? "an account" : "accounts"} less than ${ageWords(rule.minAgeSeconds)} old`));
  if (reasons.unverified > 0) phrases.push(from(reasons.unverified, `${reasons.unverified === 1 ? "an account" : "accounts"} without a verified email`));
  if (reasons.too_few_votes > 0) phrases.push(from(reasons.too_few_votes, `${reasons.too_few_votes === 1 ? "an account" : "accounts"} with fewer than ${rule.minVotes} votes`));
  if (reasons.suspended > 0) phrases.push(from(reasons.suspended, `${reasons.suspended === 1 ? "a suspended account" : "suspended accounts"}`));
  if (reasons.restating > 0) phrases.push(`${plural(reasons.restating, "vote")} about to count`);
  return phrases;
}

/**
 * The votes the status does not read, and why (the claim page): people's votes whose accounts have no
 * standing yet, and the automated accounts' votes (shown apart as the agents' view). Nothing when every
 * vote counts.
 */
export function notCountedSentence(consensus: Pick<Consensus, "not_counted">, reasons: Reasons, rule: StandingWords): string | null {
  const { people, automated } = consensus.not_counted;
  if (people === 0 && automated === 0) return null;
  const parts: string[] = [];
  if (people > 0) {
    const phrases = reasonPhrases(reasons, rule);
    const explained = reasons.too_new + reasons.unverified + reasons.too_few_votes + reasons.suspended + reasons.restating;
    // At most 1,000 are looked at: beyond that, what they show is named as a part.
    if (phrases.length === 0) parts.push(plural(people, "vote") + " from people without standing yet");
    else if (explained < people) parts.push(`${plural(people, "vote")} from people without standing yet (of the first ${explained}: ${phrases.join(", ")})`);
    else parts.push(phrases.join(", "));
  }
  if (automated > 0) parts.push(`${plural(automated, "vote")} from automated accounts (the agents' view)`);
  return `Not counted: ${parts.join("; ")}.`;
}

/**
 * Who decides and who else voted, each with its sample size: the votes that count (accounts with
 * standing), the agents' (automated accounts, when any voted) and everyone's, when it differs. Below
 * five counted votes no percentage of theirs is shown (docs/features/consensus-ui.md).
 */
export function ConsensusSamples({ claim, rule }: { claim: Pick<Claim, "consensus" | "agents" | "gradient" | "vote_count"> & { not_counted_reasons: Reasons }; rule: StandingWords }) {
  const { consensus, agents } = claim;
  const notCounted = notCountedSentence(consensus, claim.not_counted_reasons, rule);
  const counted = hasVerdict(consensus) && consensus.gradient !== null ? `${percent(consensus.gradient)} · ` : "";
  const everyoneDiffers = claim.vote_count > consensus.voters && (consensus.gradient === null || percent(consensus.gradient) !== percent(claim.gradient));
  if (consensus.status === "no_votes" && claim.vote_count === 0) return null;
  return (
    <div className={`${ui.small} ${consensusStyles.samples}`} data-testid="consensus-samples">
      <p data-testid="counted-view">
        Counted: <strong>{counted}{plural(consensus.voters, "vote")}</strong>
        <span className={ui.muted}> from people with standing</span>
      </p>
      {agents.voters > 0 ? (
        <p data-testid="agents-view">
          Agents: <strong>{agents.gradient === null ? "" : `${percent(agents.gradient)} · `}{plural(agents.voters, "agent")}</strong>
          <span className={ui.muted}> (automated accounts, shown beside; they never decide)</span>
        </p>
      ) : null}
      {everyoneDiffers && hasVerdict(consensus) ? (
        <p data-testid="everyone-view">
          Everyone: <strong>{percent(claim.gradient)} · {plural(claim.vote_count, "vote")}</strong>
        </p>
      ) : null}
      {notCounted ? (
        <p data-testid="not-counted">
          {notCounted} <Link href="/docs/standing">Whose votes count</Link>
        </p>
      ) : null}
    </div>
  );
}

const BIN_LABELS = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${i === 9 ? "1.0" : ((i + 1) / 10).toFixed(1)}`);

/**
 * How the counted votes spread over the scale (10 bins), the bin of the viewer's own vote marked; the
 * caption says "counted" when some votes do not count (`someNotCounted`). A
 * chart for the eye and a table for screen readers, both from the same numbers. `ownVote` is known only
 * in the browser (the server's render is the same for every viewer): null there.
 */
export function VoteHistogram({ histogram, ownVote, someNotCounted = false }: { histogram: readonly number[]; ownVote: number | null; someNotCounted?: boolean }) {
  const total = histogram.reduce((a, b) => a + b, 0);
  const tallest = Math.max(1, ...histogram);
  const ownBin = ownVote === null ? null : histogramBin(ownVote);
  return (
    <figure className={consensusStyles.histogram} data-testid="vote-histogram" aria-labelledby="vote-histogram-caption">
      {/* One element a column: the count is its text, the bar its ::after (consensus.module.css). */}
      <div className={consensusStyles.histogram__bars} aria-hidden="true">
        {histogram.map((count, bin) => (
          <span key={bin} data-own={bin === ownBin ? "" : undefined} style={{ "--h": `${Math.round((count / tallest) * 1000) / 10}%` } as CSSProperties}>
            {count > 0 ? count : ""}
          </span>
        ))}
      </div>
      <div className={consensusStyles.histogram__marks} aria-hidden="true">
        {ownBin === null ? null : (
          <span data-testid="own-vote-marker" style={{ gridColumn: ownBin + 1 }}>
            ▲ you
          </span>
        )}
      </div>
      <div className={consensusStyles.histogram__axis} aria-hidden="true">
        <span>0 · false</span>
        <span>0.5</span>
        <span>1 · true</span>
      </div>
      <figcaption id="vote-histogram-caption" className={ui.note}>
        {total === 0
          ? "How votes spread: no votes yet."
          : `How the ${plural(total, someNotCounted ? "counted vote" : "vote")} spread from false (0) to true (1)${ownVote !== null ? `; yours (${percent(ownVote)}) is marked` : ""}.`}
      </figcaption>
      <table className="visually-hidden">
        <caption>Votes per tenth of the scale</caption>
        <thead>
          <tr>
            <th scope="col">Vote value</th>
            <th scope="col">Votes</th>
          </tr>
        </thead>
        <tbody>
          {histogram.map((count, bin) => (
            <tr key={bin}>
              <th scope="row">{BIN_LABELS[bin]}</th>
              <td>
                {count}
                {bin === ownBin ? " (including yours)" : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
