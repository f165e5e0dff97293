// The reasons the API may answer in a reputation journey are every reason the database records: a
// reason missing from the contract made the journey of anyone who staked a bond fail its output check.
import { describe, expect, it } from "vitest";
import { REPUTATION_REASONS } from "~/server/contract/profiles.ts";
import { ReputationReason } from "~/server/db/generated/enums.ts";

describe("reputation reasons", () => {
  it("the contract's list is the database enum's", () => {
    expect([...REPUTATION_REASONS].sort()).toEqual(Object.values(ReputationReason).sort());
  });
});
