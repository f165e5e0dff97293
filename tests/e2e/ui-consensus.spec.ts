// Where consensus stands, in the browser (docs/features/consensus-ui.md): each status of the rule —
// no votes, too few, at consensus across viewpoints (true, false), divided, open, at consensus by votes
// alone (true, false) and open by votes — in the same words on the claim page and on its card, driven
// by real votes and the real viewpoint model (the e2e server refits every 10 s); no percentage before
// a verdict; the vote histogram with the viewer's own vote marked; dates on the history's time axis.
import { expect, test, type Page } from "@playwright/test";
import { api, createClaim, createPerson, gradientValue, screenshot, signIn, unique, type ClaimOut, type Person } from "./ui-helpers.ts";

interface ConsensusOut {
  status: string;
  decided_by: string | null;
  voters: number;
  histogram: number[];
}

type Case = {
  kind: string;
  status: string;
  decidedBy: string | null;
  headline: string;
  reason: RegExp;
  card: string;
  verdict: boolean;
};

const CASES: Record<string, Case> = {
  none: { kind: "none", status: "no_votes", decidedBy: null, headline: "No votes yet", reason: /Nothing to call until people vote/, card: "No votes yet", verdict: false },
  few: { kind: "few", status: "too_few_votes", decidedBy: null, headline: "3 votes so far — too few to call", reason: /at least 5 voters/, card: "3 votes so far — too few to call", verdict: false },
  agreeTrue: { kind: "agreeTrue", status: "consensus_true", decidedBy: "viewpoints", headline: "At consensus: true", reason: /People who usually disagree both rate it true/, card: "At consensus: true · across viewpoints", verdict: true },
  agreeFalse: { kind: "agreeFalse", status: "consensus_false", decidedBy: "viewpoints", headline: "At consensus: false", reason: /People who usually disagree both rate it false/, card: "At consensus: false · across viewpoints", verdict: true },
  divided: { kind: "divided", status: "divided", decidedBy: null, headline: "Divided", reason: /one group high, the other low/, card: "Divided", verdict: true },
  undecided: { kind: "undecided", status: "open", decidedBy: null, headline: "Open: no consensus yet", reason: /different viewpoints have rated it, but not clearly/, card: "Open: no consensus yet", verdict: true },
  votesTrue: { kind: "votesTrue", status: "consensus_true", decidedBy: "votes", headline: "At consensus: true", reason: /votes alone .*not enough voting history/, card: "At consensus: true · by votes alone", verdict: true },
  votesFalse: { kind: "votesFalse", status: "consensus_false", decidedBy: "votes", headline: "At consensus: false", reason: /votes alone .*not enough voting history/, card: "At consensus: false · by votes alone", verdict: true },
  votesOpen: { kind: "votesOpen", status: "open", decidedBy: null, headline: "Open: no consensus yet", reason: /Votes alone, between 20% and 80%/, card: "Open: no consensus yet", verdict: true },
};

async function vote(request: Parameters<typeof api>[0], person: Person, claimId: string, value: number) {
  const res = await api(request, person, "POST", `/claims/${claimId}/vote`, { value });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function expectClaimPage(page: Page, claim: ClaimOut, c: Case) {
  await page.goto(`/claims/${claim.id}`);
  const status = page.getByTestId("consensus-status");
  await expect(status).toHaveAttribute("data-status", c.status);
  await expect(status.locator("p").first()).toHaveText(c.headline);
  await expect(page.getByTestId("consensus-reason")).toHaveText(c.reason);
  // A number only once there is something to call; never beside "no votes" or "too few".
  await expect(gradientValue(page)).toHaveCount(c.verdict ? 1 : 0);
  await expect(page.getByTestId("consensus-vocabulary")).toContainText("Resolved:");
}

test("each status of the rule, in the same words on the claim page and on its card", async ({ page, request }) => {
  test.setTimeout(240_000);
  const word = unique("quokka").replace(/[^a-z]/g, "");
  const author = await createPerson(request, "cauthor_");
  const claims: Record<string, ClaimOut> = {};
  const make = async (kind: string, n = 0) =>
    (claims[`${kind}${n || ""}`] = await createClaim(request, author, { statement: `Consensus ${word} ${kind} ${n} ${unique("s")}: a statement.` }));

  // Ten regular voters in two camps: they agree on some claims, part ways on others, and each votes on
  // twelve claims, enough history for the viewpoint model to place them.
  const regulars: Person[] = [];
  for (let i = 0; i < 10; i++) regulars.push(await createPerson(request, i % 2 ? "campb_" : "campa_"));
  const plan: [kind: string, value: (camp: number) => number][] = [
    ...[1, 2, 3, 4].map((n) => [`agreeTrue${n === 1 ? "" : n}`, () => 0.95] as [string, (camp: number) => number]),
    ...[1, 2, 3, 4].map((n) => [`agreeFalse${n === 1 ? "" : n}`, () => 0.05] as [string, (camp: number) => number]),
    ...[1, 2, 3].map((n) => [`divided${n === 1 ? "" : n}`, (camp: number) => (camp ? 0.95 : 0.05)] as [string, (camp: number) => number]),
    ["undecided", () => 0.55],
  ];
  for (const [key] of plan) {
    const kind = key.replace(/\d+$/, "");
    const n = Number(key.slice(kind.length)) || 0;
    await make(kind, n);
  }
  for (const [key, value] of plan) {
    for (const [i, person] of regulars.entries()) await vote(request, person, claims[key].id, value(i % 2));
  }

  // Newcomers with three votes each: too little history for the model, so the votes alone decide.
  await make("none");
  await make("few");
  await make("votesTrue");
  await make("votesFalse");
  await make("votesOpen");
  const newcomers: Person[] = [];
  for (let i = 0; i < 5; i++) newcomers.push(await createPerson(request, "newbie_"));
  for (const [i, person] of newcomers.entries()) {
    await vote(request, person, claims.votesTrue.id, 0.9);
    await vote(request, person, claims.votesFalse.id, 0.1);
    await vote(request, person, claims.votesOpen.id, 0.4 + i * 0.05);
    if (i < 3) await vote(request, person, claims.few.id, 0.7);
  }

  // The model refits in the background: wait until the API says what the rule says.
  for (const c of Object.values(CASES)) {
    await expect
      .poll(async () => {
        const got = await api<ClaimOut & { consensus: ConsensusOut }>(request, author, "GET", `/claims/${claims[c.kind].id}`);
        return `${got.body.consensus.status}/${got.body.consensus.decided_by}`;
      }, { timeout: 90_000, intervals: [1_000, 2_000, 5_000] })
      .toBe(`${c.status}/${c.decidedBy}`);
  }

  for (const c of Object.values(CASES)) await expectClaimPage(page, claims[c.kind], c);
  // The viewpoint model's badge agrees with the status: one verdict per page.
  await page.goto(`/claims/${claims.divided.id}`);
  await expect(page.getByTestId("bridging-badge")).toHaveAttribute("data-status", "divided");
  await expect(page.getByTestId("bridging-badge")).toContainText("Viewpoints split");
  await screenshot(page, "consensus-divided");
  await page.goto(`/claims/${claims.agreeTrue.id}`);
  await expect(page.getByTestId("bridging-badge")).toContainText("Viewpoints agree: true");
  await screenshot(page, "consensus-true");

  // The same words on every card (Explore, searched by the claims' shared word).
  await page.goto(`/?q=${word}`);
  const results = page.getByRole("region", { name: "Results" });
  for (const c of Object.values(CASES)) {
    const card = results.getByRole("article").filter({ hasText: claims[c.kind].statement });
    await expect(card.getByTestId("card-consensus")).toHaveAttribute("data-status", c.status);
    await expect(card.getByTestId("card-consensus")).toHaveText(c.card);
    // No percentage on a card before a verdict.
    await expect(card.getByText(/^\d+%$/)).toHaveCount(c.verdict ? 1 : 0);
  }
  await screenshot(page, "consensus-cards");
  // Home explains "at consensus" beside its count, and how it differs from "resolved".
  await page.goto("/");
  await expect(page.getByTestId("consensus-vocabulary")).toContainText("At consensus: where the votes stand now.");
});

/** The history's time axis: every tick carries a date, and no two read the same. */
async function expectDatedAxis(page: Page) {
  const ticks = page.getByTestId("gradient-history-chart").getByTestId("x-tick");
  await expect(ticks.first()).toBeVisible();
  const labels = await ticks.allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).toMatch(/^\d{1,2} [A-Z][a-z]{2}( \d{4})?( \d\d:\d\d(:\d\d)?)?$/);
  expect(new Set(labels).size).toBe(labels.length);
}

test("the vote histogram beside the gauge, the viewer's own vote marked, and dates on the time axis", async ({ page, request }) => {
  const author = await createPerson(request, "hauthor_");
  const voters: Person[] = [];
  for (let i = 0; i < 6; i++) voters.push(await createPerson(request, "hvoter_"));
  const claim = await createClaim(request, author, { statement: `Histogram ${unique("h")}: sea water is salty everywhere.` });
  const values = [0.05, 0.12, 0.15, 0.55, 0.91, 0.99];
  for (const [i, person] of voters.entries()) {
    // The last vote a second later: the history spans more than one second, so its axis has ticks to compare.
    if (i === voters.length - 1) await new Promise((resolve) => setTimeout(resolve, 1_100));
    await vote(request, person, claim.id, values[i]);
  }

  // Signed out: the spread, no mark of anyone's own vote.
  await page.goto(`/claims/${claim.id}`);
  const histogram = page.getByTestId("vote-histogram");
  await expect(histogram).toBeVisible();
  await expect(histogram.getByRole("table")).toContainText("Votes per tenth of the scale");
  await expect(histogram.getByRole("row", { name: "0.0–0.1 1" })).toHaveCount(1);
  await expect(histogram.getByRole("row", { name: "0.1–0.2 2" })).toHaveCount(1);
  await expect(histogram.getByRole("row", { name: "0.9–1.0 2" })).toHaveCount(1);
  await expect(page.getByTestId("own-vote-marker")).toHaveCount(0);
  await expect(histogram).toContainText("How the 6 votes spread from false (0) to true (1).");
  await expectDatedAxis(page);

  // Signed in as the voter of 0.55: their bin is marked, in the chart and in its table.
  await signIn(page, voters[3], `/claims/${claim.id}`);
  await expect(page.getByTestId("own-vote-marker")).toHaveText("▲ you");
  await expect(histogram.getByRole("row", { name: "0.5–0.6 1 (including yours)" })).toHaveCount(1);
  await expect(histogram).toContainText("yours (55%) is marked");

  await expectDatedAxis(page);
  await screenshot(page, "consensus-histogram");
});
