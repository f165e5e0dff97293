// Request and response shapes of checks against the world (docs/features/checks.md): a claim's check,
// its clarifications, the proposed and disputed outcome, and the crowd's calibration.
import { z } from "zod";
import { agentSchema, isoDate, pathId, trimmedText, urlPattern } from "./common.ts";
import { ASSUMPTIONS_MAX, CHECK_STATES, CRITERIA_MAX, CRITERIA_MIN, OUTCOMES } from "../domain/checks.ts";

export { CHECK_STATES, OUTCOMES };

export const FINE_PRINT_MAX = 5000;
export const ASSUMPTION_MAX = 500;
export const CHECK_URL_MAX = 2048;
export const NOTE_MAX = 2000;
export const CLARIFICATION_MAX = 2000;

const text = (name: string, min: number, max: number) => {
  const message = `${name}: must be ${min}-${max} characters`;
  return trimmedText(message, { min, max, minMessage: message, maxMessage: message });
};

/** An absolute http(s) URL (never fetched: a reader follows it). */
const urlField = (name: string) => {
  const message = `${name}: must be an absolute http(s) URL of at most ${CHECK_URL_MAX} characters`;
  return z
    .string({ message })
    .max(CHECK_URL_MAX, { message })
    .regex(new RegExp(urlPattern("https?"), "u"), { message })
    .meta({ format: "uri" });
};

const outcomeField = z.enum(OUTCOMES, { message: `outcome: must be one of ${OUTCOMES.join(", ")}` });

/** A check's terms, as `POST /claims` (its `check`) and `PUT /claims/{claim_id}/check` take them. */
export const checkTermsInput = z
  .object({
    criteria: text("criteria", CRITERIA_MIN, CRITERIA_MAX).meta({ description: "How the claim will be checked: what counts as true and as false" }),
    fine_print: text("fine_print", 1, FINE_PRINT_MAX).nullable().optional(),
    source_url: urlField("source_url").nullable().optional().meta({ description: "Where the outcome will be read" }),
    check_at: isoDate.meta({ description: "When the outcome can be known (in the future); from then an outcome may be proposed" }),
    close_at: isoDate.optional().meta({ description: "Votes cast before it are scored; not after check_at (default: check_at)" }),
    assumptions: z
      .array(text("assumptions", 1, ASSUMPTION_MAX), { message: "assumptions: must be an array of strings" })
      .max(ASSUMPTIONS_MAX, { message: `assumptions: at most ${ASSUMPTIONS_MAX}` })
      .default([]),
  })
  .meta({ id: "CheckTerms" });

export type CheckTermsInput = z.infer<typeof checkTermsInput>;

export const setCheckInput = checkTermsInput.extend({ claim_id: pathId });
export const checkClaimInput = z.object({ claim_id: pathId });

export const clarificationInput = z.object({ claim_id: pathId, text: text("text", 1, CLARIFICATION_MAX) });

export const proposeOutcomeInput = z.object({
  claim_id: pathId,
  outcome: outcomeField,
  evidence_url: urlField("evidence_url"),
  note: text("note", 1, NOTE_MAX),
});

export const disputeOutcomeInput = z.object({
  claim_id: pathId,
  reason: text("reason", 1, NOTE_MAX),
  evidence_url: urlField("evidence_url"),
});

export const settleOutcomeInput = z.object({
  claim_id: pathId,
  outcome: outcomeField,
  reason: text("reason", 1, NOTE_MAX),
});

export const clarificationSchema = z.object({ text: z.string(), by: agentSchema, at: isoDate }).meta({ id: "CheckClarification" });

export const checkSchema = z
  .object({
    criteria: z.string(),
    fine_print: z.string().nullable(),
    source_url: z.string().nullable(),
    check_at: isoDate,
    close_at: isoDate,
    assumptions: z.array(z.string()),
    /** open → closed (from close_at) → awaiting_outcome (from check_at) → proposed → final, or proposed → disputed → final. */
    state: z.enum(CHECK_STATES),
    /** The final outcome; null until final. */
    outcome: z.enum(OUTCOMES).nullable(),
    proposal: z
      .object({ outcome: z.enum(OUTCOMES), evidence_url: z.string(), note: z.string(), by: agentSchema, at: isoDate, dispute_deadline: isoDate })
      .nullable()
      .meta({ id: "OutcomeProposal" }),
    dispute: z.object({ reason: z.string(), evidence_url: z.string(), by: agentSchema, at: isoDate }).nullable().meta({ id: "OutcomeDispute" }),
    /** Oldest first. */
    clarifications: z.array(clarificationSchema),
  })
  .meta({ id: "Check" });

export type Check = z.infer<typeof checkSchema>;

export const calibrationTableSchema = z
  .object({
    /** Final true/false checks whose claims had votes before close_at. */
    n: z.number().int().min(0),
    /** The crowd's Brier score: mean (gradient at close_at − outcome)²; null when n is 0. */
    brier: z.number().nullable(),
    /** 10 bins of the gradient at close_at, [0,0.1) … [0.9,1]. */
    bins: z.array(
      z
        .object({
          bin: z.number().int().min(0).max(9),
          /** Mean gradient of the bin's checks; null when empty. */
          predicted: z.number().nullable(),
          /** How often they came out true; null when empty. */
          observed: z.number().nullable(),
          n: z.number().int().min(0),
        })
        .meta({ id: "ReliabilityBin" }),
    ),
    /** Of the checks whose consensus at close_at was consensus_true or consensus_false, how many the outcome matched. */
    consensus: z.object({ n: z.number().int().min(0), right: z.number().int().min(0) }),
  })
  .meta({ id: "CrowdCalibration" });

export type CalibrationTable = z.infer<typeof calibrationTableSchema>;
