// The life of a check's outcome as pure rules (docs/features/checks.md): its states by time and stage,
// who may propose and dispute when, and where the bonds go.
import { describe, expect, it } from "vitest";
import {
  bondPayout,
  checkDatesProblem,
  checkState,
  disputeDeadline,
  disputeRefusal,
  finalisable,
  proposalRefusal,
  termsEditable,
} from "../../server/domain/checks.ts";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
const dates = { closeAt: at(100), checkAt: at(200) };

describe("a check's state", () => {
  it("is open before close_at, closed until check_at, then awaits an outcome", () => {
    expect(checkState({ stage: "pending", ...dates }, at(99))).toBe("open");
    expect(checkState({ stage: "pending", ...dates }, at(100))).toBe("closed");
    expect(checkState({ stage: "pending", ...dates }, at(199))).toBe("closed");
    expect(checkState({ stage: "pending", ...dates }, at(200))).toBe("awaiting_outcome");
  });

  it("is its stage once proposed, disputed or final, whatever the time", () => {
    for (const stage of ["proposed", "disputed", "final"] as const) {
      expect(checkState({ stage, ...dates }, at(0))).toBe(stage);
      expect(checkState({ stage, ...dates }, at(10_000))).toBe(stage);
    }
  });

  it("needs check_at in the future and close_at not after it", () => {
    expect(checkDatesProblem(dates, at(0))).toBeNull();
    expect(checkDatesProblem({ closeAt: at(200), checkAt: at(200) }, at(0))).toBeNull();
    expect(checkDatesProblem(dates, at(200))).toBe("check_at: must be in the future");
    expect(checkDatesProblem({ closeAt: at(201), checkAt: at(200) }, at(0))).toBe("close_at: must not be after check_at");
  });

  it("is set by the author alone, and only while the claim has no votes", () => {
    expect(termsEditable({ viewerIsAuthor: true, voteCount: 0 })).toBe("ok");
    expect(termsEditable({ viewerIsAuthor: true, voteCount: 1 })).toBe("check_immutable");
    expect(termsEditable({ viewerIsAuthor: false, voteCount: 0 })).toBe("forbidden");
  });
});

describe("proposing and disputing", () => {
  const able = { standing: true, reputation: 10 };
  it("a proposal needs a check awaiting its outcome, standing and the minimum reputation", () => {
    expect(proposalRefusal({ state: "awaiting_outcome", proposer: able, minReputation: 10 })).toBeNull();
    for (const state of ["open", "closed", "proposed", "disputed", "final"] as const) {
      expect(proposalRefusal({ state, proposer: able, minReputation: 10 })).toBe("outcome_not_open");
    }
    expect(proposalRefusal({ state: "awaiting_outcome", proposer: { ...able, standing: false }, minReputation: 10 })).toBe("insufficient_standing");
    expect(proposalRefusal({ state: "awaiting_outcome", proposer: { standing: true, reputation: 9.5 }, minReputation: 10 })).toBe("insufficient_reputation");
  });

  it("a dispute needs a proposal inside its window, by another account with standing", () => {
    const base = { stage: "proposed" as const, disputeDeadline: at(300), now: at(299), disputer: { id: "b", standing: true }, proposerId: "a" };
    expect(disputeRefusal(base)).toBeNull();
    expect(disputeRefusal({ ...base, now: at(300) })).toBe("outcome_not_open");
    expect(disputeRefusal({ ...base, stage: "disputed" })).toBe("outcome_not_open");
    expect(disputeRefusal({ ...base, stage: "final" })).toBe("outcome_not_open");
    expect(disputeRefusal({ ...base, disputer: { id: "a", standing: true } })).toBe("own_proposal");
    expect(disputeRefusal({ ...base, disputer: { id: "b", standing: false } })).toBe("insufficient_standing");
  });

  it("an undisputed proposal is final once its window has ended, and only then", () => {
    const deadline = disputeDeadline(at(200), 60);
    expect(deadline).toEqual(at(260));
    expect(finalisable({ stage: "proposed", disputeDeadline: deadline }, at(259))).toBe(false);
    expect(finalisable({ stage: "proposed", disputeDeadline: deadline }, at(260))).toBe(true);
    expect(finalisable({ stage: "disputed", disputeDeadline: deadline }, at(999))).toBe(false);
    expect(finalisable({ stage: "final", disputeDeadline: deadline }, at(999))).toBe(false);
  });
});

describe("bonds", () => {
  it("undisputed: the proposer's bond comes back with 1 more", () => {
    expect(bondPayout({ bond: 5, proposed: "true", final: "true", disputed: false })).toEqual({ proposer: 6, disputer: 0 });
  });

  it("settled for the proposal: the proposer takes both bonds", () => {
    expect(bondPayout({ bond: 5, proposed: "false", final: "false", disputed: true })).toEqual({ proposer: 10, disputer: 0 });
  });

  it("settled against the proposal (another outcome, ambiguous or annulled included): the disputer takes both", () => {
    for (const final of ["true", "ambiguous", "annulled"] as const) {
      expect(bondPayout({ bond: 5, proposed: "false", final, disputed: true })).toEqual({ proposer: 0, disputer: 10 });
    }
  });
});
