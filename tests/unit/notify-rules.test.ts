// Pure rules of following: who hears an event, the webhook retry schedule and auto-disable, the URL
// rules, and Last-Modified for polling.
import { describe, expect, it } from "vitest";
import { audienceHears, followerHears, reachesVoters, reasonOf } from "../../server/domain/webhook-events.ts";
import { disableReason, MAX_ATTEMPTS, outcomeOf, retryDelayMs } from "../../server/domain/webhook-retry.ts";
import { isPublicAddress, refusedUrlShape } from "../../server/domain/webhook-url.ts";
import { conditionalGet } from "../../server/domain/last-modified.ts";

const follow = (flags: Partial<{ v: boolean; e: boolean; c: boolean }> = {}) => ({
  agent_id: "f",
  notify_on_vote: flags.v ?? true,
  notify_on_evidence: flags.e ?? true,
  notify_on_comment: flags.c ?? true,
});

describe("who hears an event", () => {
  it("never the actor; flags filter votes, evidence and comments; a resolution always", () => {
    expect(followerHears("claim.voted", follow(), "f")).toBe(false);
    expect(followerHears("claim.voted", follow(), "someone")).toBe(true);
    expect(followerHears("claim.voted", follow({ v: false }), "someone")).toBe(false);
    expect(followerHears("claim.evidence_added", follow({ e: false }), "someone")).toBe(false);
    expect(followerHears("claim.commented", follow({ c: false }), "someone")).toBe(false);
    expect(followerHears("claim.resolved", follow({ v: false, e: false, c: false }), null)).toBe(true);
    expect(reasonOf("claim.evidence_added")).toBe("evidence");
  });

  it("each step of a check's outcome reaches every follower whatever the flags, but not the one who took it", () => {
    for (const type of ["claim.outcome_proposed", "claim.outcome_disputed", "claim.outcome_final"] as const) {
      expect(followerHears(type, follow({ v: false, e: false, c: false }), "someone")).toBe(true);
      expect(followerHears(type, follow(), "f")).toBe(false);
      expect(reasonOf(type)).toBe("outcomes");
    }
    expect(followerHears("claim.outcome_final", follow({ v: false, e: false, c: false }), null)).toBe(true);
  });

  it("a voter who does not follow hears the steps of the check only, never their own; a follower who voted hears as a follower", () => {
    const voter = { agent_id: "v", follow: null };
    for (const type of ["claim.outcome_proposed", "claim.outcome_disputed", "claim.outcome_final"] as const) {
      expect(reachesVoters(type)).toBe(true);
      expect(audienceHears(type, voter, "someone")).toBe(true);
      expect(audienceHears(type, voter, null)).toBe(true);
      expect(audienceHears(type, voter, "v")).toBe(false);
    }
    for (const type of ["claim.voted", "claim.evidence_added", "claim.commented", "claim.resolved", "claim.argument_added"] as const) {
      expect(reachesVoters(type)).toBe(false);
      expect(audienceHears(type, voter, "someone")).toBe(false);
    }
    const followerWhoVoted = { agent_id: "f", follow: follow({ v: false }) };
    expect(audienceHears("claim.voted", followerWhoVoted, "someone")).toBe(false);
    expect(audienceHears("claim.evidence_added", followerWhoVoted, "someone")).toBe(true);
    expect(audienceHears("claim.outcome_final", followerWhoVoted, "f")).toBe(false);
  });
});

describe("retry schedule", () => {
  it("at least 8 retries spanning at least 24 hours at the default base of 60 s", () => {
    // The schedule without jitter (random() = 0.5 is the middle of the ±20 % band).
    const schedule = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, 60_000, () => 0.5)!);
    expect(schedule.length).toBeGreaterThanOrEqual(8);
    expect(schedule.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });
  it("grows exponentially with ±20 % jitter and stops after the last attempt", () => {
    expect(retryDelayMs(1, 1000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, 1000, () => 0.5)).toBe(3000);
    expect(retryDelayMs(2, 1000, () => 0)).toBe(2400);
    expect(retryDelayMs(2, 1000, () => 1)).toBe(3600);
    expect(retryDelayMs(MAX_ATTEMPTS, 1000)).toBeNull();
  });
  it("only 2xx is success; 410 disables at once; 3 days of failures disable", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    expect(outcomeOf(204).kind).toBe("succeeded");
    expect(outcomeOf(302).kind).toBe("failed");
    expect(disableReason(outcomeOf(410), null, now)).toMatch(/410/);
    expect(disableReason(outcomeOf(500), new Date(now.getTime() - 71 * 3600e3), now)).toBeNull();
    expect(disableReason(outcomeOf(500), new Date(now.getTime() - 72 * 3600e3), now)).toMatch(/3 days/);
    expect(disableReason(outcomeOf(200), new Date(0), now)).toBeNull();
  });
});

describe("webhook URL rules", () => {
  it("refuses loopback, private, link-local (metadata), IPv4-mapped and other non-public addresses", () => {
    const refused = ["127.0.0.1", "::1", "::ffff:127.0.0.1", "169.254.169.254", "10.1.2.3", "192.168.0.1", "172.16.0.1", "fc00::1", "fe80::1", "0.0.0.0", "100.64.0.1", "224.0.0.1"];
    // what ipaddr.js 1.9 (once hoisted here undeclared) let through: NAT64, site-local, discard, benchmarking, IPv4-compatible
    refused.push("64:ff9b::7f00:1", "64:ff9b:1::a00:1", "fec0::1", "100::1", "198.18.0.1", "198.19.255.1", "::7f00:1", "::a00:1", "::1.2.3.4", "2001:db8::1", "5f00::1", "not-an-ip");
    for (const a of refused) expect(isPublicAddress(a), a).toBe(false);
    expect(isPublicAddress("93.184.215.14")).toBe(true);
    expect(isPublicAddress("2606:4700::1111")).toBe(true);
  });
  it("https only (http when private addresses are allowed), no credentials", () => {
    expect(refusedUrlShape("http://example.com/h", false)).toMatch(/https/);
    expect(refusedUrlShape("http://example.com/h", true)).toBeNull();
    expect(refusedUrlShape("https://u:p@example.com/h", false)).toMatch(/credentials/);
    expect(refusedUrlShape("not a url", false)).toMatch(/absolute/);
    expect(refusedUrlShape("ftp://example.com", true)).toMatch(/https/);
  });
});

describe("Last-Modified", () => {
  const at = (s: number) => new Date(s * 1000 + 300);
  it("a settled change is its own Last-Modified and allows 304", () => {
    const r = conditionalGet(at(100), at(105), new Date(100_000).toUTCString());
    expect(r).toEqual({ lastModified: 100, notModified: true });
  });
  it("a change in the current second never answers 304 and claims the second before", () => {
    expect(conditionalGet(at(105), at(105), new Date(105_000).toUTCString())).toEqual({ lastModified: 104, notModified: false });
  });
  it("a later change is modified", () => {
    expect(conditionalGet(at(106), at(108), new Date(105_000).toUTCString()).notModified).toBe(false);
  });
});
