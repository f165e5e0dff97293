// Demo claims checked against the world (docs/features/checks.md): one in every state of a check's life
// and enough final outcomes for /calibration to draw its diagram on the first page load. Made through
// the services the API uses — the claim with its check, the votes, the proposal, the dispute, the
// finalising — with time passing as the one thing done by hand: the votes and the claims' gradient
// history are moved back ten days, then close_at and check_at behind them, as if the checks' dates had
// come. The figures are well-known public facts, rounded.
import { createClaimInput } from "../contract/claims.ts";
import { readSql } from "../db/client.ts";
import { config } from "../config.ts";
import { createClaim } from "../services/claims.ts";
import { disputeOutcome, finaliseDueOutcomes, proposeOutcome } from "../services/checks.ts";
import { castVote } from "../services/votes.ts";
import type { Outcome } from "../domain/checks.ts";
import { demoVotes, type DemoClaim } from "./demo-data.ts";

type Target = "open" | "closed" | "awaiting_outcome" | "proposed" | "disputed" | "final";

interface DemoCheck {
  key: string;
  by: string;
  statement: string;
  criteria: string;
  source_url: string;
  /** What each viewpoint thinks (see DemoClaim.crowd). */
  crowd: { a: number; b: number };
  target: Target;
  /** The outcome proposed (and, for final checks, the one that stands). */
  outcome?: Outcome;
  evidence_url?: string;
}

const DEMO_CHECKS: DemoCheck[] = [
  { key: "chk-co2-2025", by: "ada", statement: "The annual mean CO2 concentration at Mauna Loa in 2025 was above 420 ppm.", criteria: "NOAA's Mauna Loa annual mean for 2025 is above 420.0 ppm.", source_url: "https://gml.noaa.gov/ccgg/trends/", crowd: { a: 0.95, b: 0.9 }, target: "final", outcome: "true" },
  { key: "chk-ice-2025", by: "grace", statement: "Arctic sea ice reached a new record low minimum extent in September 2025.", criteria: "NSIDC's September 2025 minimum extent is below every earlier year on record.", source_url: "https://nsidc.org/arcticseaicenews/", crowd: { a: 0.35, b: 0.2 }, target: "final", outcome: "false" },
  { key: "chk-temp-2025", by: "alan", statement: "2025 was among the three warmest years in the instrumental record.", criteria: "Copernicus ranks 2025 first, second or third warmest since 1850.", source_url: "https://climate.copernicus.eu/", crowd: { a: 0.85, b: 0.75 }, target: "final", outcome: "true" },
  { key: "chk-solar-2025", by: "katherine", statement: "Solar cycle 25's smoothed sunspot number peaked above 150.", criteria: "SILSO's smoothed monthly sunspot number for cycle 25 exceeds 150 at its maximum.", source_url: "https://www.sidc.be/SILSO/", crowd: { a: 0.6, b: 0.55 }, target: "final", outcome: "true" },
  { key: "chk-pop-2025", by: "edsger", statement: "India's population passed 1.5 billion by mid-2025.", criteria: "The UN World Population Prospects estimate for India on 1 July 2025 is above 1.5 billion.", source_url: "https://population.un.org/wpp/", crowd: { a: 0.3, b: 0.4 }, target: "final", outcome: "false" },
  { key: "chk-el-nino", by: "barbara", statement: "An El Niño was declared during 2025.", criteria: "NOAA's Climate Prediction Center issued an El Niño advisory at any time in 2025.", source_url: "https://www.cpc.ncep.noaa.gov/", crowd: { a: 0.15, b: 0.2 }, target: "final", outcome: "false" },
  { key: "chk-ozone", by: "donald", statement: "The 2025 Antarctic ozone hole was smaller at its peak than the 2024 one.", criteria: "NASA Ozone Watch's peak area for 2025 is below 2024's.", source_url: "https://ozonewatch.gsfc.nasa.gov/", crowd: { a: 0.5, b: 0.45 }, target: "final", outcome: "true" },
  { key: "chk-moon", by: "frances", statement: "A crewed spacecraft flew around the Moon before the end of 2025.", criteria: "A crewed mission passed behind the Moon before 1 January 2026 (UTC).", source_url: "https://www.nasa.gov/artemis/", crowd: { a: 0.2, b: 0.1 }, target: "final", outcome: "false" },
  { key: "chk-glacier", by: "john", statement: "Swiss glaciers lost more than 2 % of their volume in 2025.", criteria: "GLAMOS reports a 2025 volume loss above 2 %.", source_url: "https://www.glamos.ch/", crowd: { a: 0.7, b: 0.6 }, target: "final", outcome: "annulled" },
  { key: "chk-sea-2026", by: "margaret", statement: "Global mean sea level rose more than 4 mm in 2026.", criteria: "NASA's satellite sea level record shows a 2026 rise above 4 mm.", source_url: "https://sealevel.nasa.gov/", crowd: { a: 0.65, b: 0.55 }, target: "disputed", outcome: "true", evidence_url: "https://sealevel.nasa.gov/understanding-sea-level/key-indicators/global-mean-sea-level/" },
  { key: "chk-co2-2026", by: "dennis", statement: "The annual mean CO2 concentration at Mauna Loa in 2026 was above 423 ppm.", criteria: "NOAA's Mauna Loa annual mean for 2026 is above 423.0 ppm.", source_url: "https://gml.noaa.gov/ccgg/trends/", crowd: { a: 0.8, b: 0.75 }, target: "proposed", outcome: "true" },
  { key: "chk-ice-2026", by: "radia", statement: "Arctic sea ice minimum extent in September 2026 was below 4.5 million km².", criteria: "NSIDC's September 2026 monthly mean extent is below 4.5 million km².", source_url: "https://nsidc.org/arcticseaicenews/", crowd: { a: 0.45, b: 0.35 }, target: "awaiting_outcome" },
  { key: "chk-temp-2026", by: "tim", statement: "2026 will be warmer than 2025 in the Copernicus global record.", criteria: "Copernicus's 2026 global mean surface temperature anomaly exceeds 2025's.", source_url: "https://climate.copernicus.eu/", crowd: { a: 0.55, b: 0.45 }, target: "closed" },
  { key: "chk-pop-2027", by: "hedy", statement: "The world's population will pass 8.3 billion by 1 July 2027.", criteria: "The UN World Population Prospects estimate for 1 July 2027 is above 8.3 billion.", source_url: "https://population.un.org/wpp/", crowd: { a: 0.75, b: 0.7 }, target: "open" },
];

const DAY = 86_400_000;

/** A demo check made by castDemoChecks, for settleDemoChecks. */
export interface MadeCheck {
  claimId: string;
  check: DemoCheck;
}

/**
 * The demo claims with their checks and votes, and the time that passes for them; before the standing
 * is drained and the viewpoint model fits, so their statuses are the rule's like every other claim's.
 * `agent` maps a demo username to its id.
 */
export async function castDemoChecks(agent: (username: string) => string): Promise<MadeCheck[]> {
  const made: MadeCheck[] = [];
  for (const [index, c] of DEMO_CHECKS.entries()) {
    const input = createClaimInput.parse({
      statement: c.statement,
      tags: ["checked"],
      check: { criteria: c.criteria, source_url: c.source_url, check_at: new Date(Date.now() + 40 * DAY).toISOString(), close_at: new Date(Date.now() + 30 * DAY).toISOString() },
    });
    const claim = await createClaim(agent(c.by), input);
    made.push({ claimId: claim.id, check: c });
    const asClaim = { key: c.key, by: c.by, statement: c.statement, tags: [], crowd: c.crowd } as unknown as DemoClaim;
    for (const [voter, value] of demoVotes(asClaim, index)) await castVote({ agentId: agent(voter), claimId: claim.id, value });
    if (c.target === "open") continue;
    // Time passes: the votes were cast ten days ago; then the dates come (votes first, so that nothing
    // is kept as changed after close_at).
    await readSql`UPDATE claim_votes SET created_at = created_at - interval '10 days', updated_at = updated_at - interval '10 days' WHERE claim_id = ${claim.id}::uuid`;
    await readSql`UPDATE gradient_history SET recorded_at = recorded_at - interval '10 days' WHERE claim_id = ${claim.id}::uuid`;
    if (c.target === "closed") {
      await readSql`UPDATE claim_checks SET close_at = now() - interval '2 days', check_at = now() + interval '20 days' WHERE claim_id = ${claim.id}::uuid`;
    } else {
      await readSql`UPDATE claim_checks SET close_at = now() - interval '3 days', check_at = now() - interval '1 day' WHERE claim_id = ${claim.id}::uuid`;
    }
  }
  return made;
}

/**
 * Their outcomes, once the accounts have their standing: proposed by the demo account with the most
 * reputation (standing, enough to stake, not the author), disputed by the next, and made final when
 * the window passes undisputed.
 */
export async function settleDemoChecks(made: readonly MadeCheck[], agent: (username: string) => string, usernames: readonly string[]): Promise<void> {
  const { OUTCOME_MIN_REPUTATION } = config();
  const ids = usernames.map(agent);
  for (const { claimId, check: c } of made) {
    if (!c.outcome || !["proposed", "disputed", "final"].includes(c.target)) continue;
    const [proposer] = await readSql<{ id: string }>`
      SELECT id::text FROM agents WHERE id = ANY(${ids}::uuid[]) AND standing AND NOT automated
        AND reputation >= ${OUTCOME_MIN_REPUTATION} AND id <> ${agent(c.by)}::uuid
      ORDER BY reputation DESC, id LIMIT 1`;
    if (!proposer) continue;
    const proposed = await proposeOutcome({ claimId, proposerId: proposer.id, outcome: c.outcome, evidenceUrl: c.evidence_url ?? c.source_url, note: `The source gives it as ${c.outcome}.` });
    if (!proposed.ok) continue;
    if (c.target === "disputed") {
      const [disputer] = await readSql<{ id: string }>`
        SELECT id::text FROM agents WHERE id = ANY(${ids}::uuid[]) AND standing AND NOT automated AND id <> ${proposer.id}::uuid
        ORDER BY reputation DESC, id LIMIT 1`;
      if (disputer) await disputeOutcome({ claimId, disputerId: disputer.id, reason: "The figure quoted is the preliminary one; the final record differs.", evidenceUrl: c.source_url });
    } else if (c.target === "final") {
      // The dispute window passes undisputed.
      await readSql`UPDATE claim_checks SET dispute_deadline = now() WHERE claim_id = ${claimId}::uuid`;
      await finaliseDueOutcomes();
    }
  }
}
