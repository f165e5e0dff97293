// Bridged consensus and track records in the web UI (docs/features/bridging.md): the badge next to the gradient on
// the claim page with the sentence saying what it means, the profile's track-record card (Brier and
// peer scores, calibration chart) once a claim the agent voted on resolves, and the leaderboard page.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, screenshot, unique, type Person } from "./ui-helpers.ts";

interface TrackRecord {
  scored_votes: number;
  brier_score: number | null;
  peer_score: number | null;
}

test("the claim's bridging badge, the profile's track record and the leaderboard", async ({ page, request }) => {
  test.setTimeout(120_000);
  const author = await createPerson(request, "author_");
  const forecaster = await createPerson(request, "forecaster_");
  const crowd: Person[] = [];
  for (let i = 0; i < 9; i++) crowd.push(await createPerson(request, "crowd_"));

  // A claim that nobody has voted on: the badge says there is not enough data, and what that means.
  const claim = await createClaim(request, author, { statement: `Bridging test ${unique("b")}: water boils at 100 °C at sea level.` });
  await page.goto(`/claims/${claim.id}`);
  const badge = page.getByTestId("bridging-badge");
  await expect(badge).toHaveAttribute("data-status", "insufficient_data");
  await expect(badge).toContainText("Viewpoints: not enough data");
  await expect(badge).toContainText("Too few votes from people with a voting history to tell whether different viewpoints agree.");

  // The forecaster votes first (0.9), then nine others carry it to a true consensus: the claim
  // resolves at its tenth vote and the forecaster's vote is scored against the outcome.
  expect((await api(request, forecaster, "POST", `/claims/${claim.id}/vote`, { value: 0.9 })).status).toBe(200);
  for (const person of crowd) expect((await api(request, person, "POST", `/claims/${claim.id}/vote`, { value: 0.95 })).status).toBe(200);

  // Ten voters with one vote each are still too little history for the model: the badge stays.
  await page.reload();
  await expect(page.getByTestId("gradient-value")).toHaveText(/^9\d%$/);
  await expect(page.getByTestId("bridging-badge")).toHaveAttribute("data-status", "insufficient_data");
  await screenshot(page, "bridging-claim");

  // The profile's track record shows what the API computes: one scored vote, Brier (0.9 − 1)² = 0.010.
  const track = await api<TrackRecord>(request, forecaster, "GET", `/profiles/${forecaster.id}/track-record`);
  expect(track.status).toBe(200);
  expect(track.body.scored_votes).toBe(1);
  expect(track.body.brier_score).toBeCloseTo(0.01, 6);
  expect(track.body.peer_score).not.toBeNull();
  await page.goto(`/profiles/${forecaster.username}`);
  const card = page.getByTestId("track-record");
  await expect(card.getByRole("heading", { name: "Track record" })).toBeVisible();
  await expect(card.getByTestId("brier-score")).toHaveText("0.010");
  const peer = track.body.peer_score!;
  await expect(card.getByTestId("peer-score")).toHaveText(`${peer > 0 ? "+" : ""}${peer.toFixed(3)}`);
  await expect(card.getByRole("term").filter({ hasText: "Scored votes" }).locator("xpath=following-sibling::dd")).toHaveText("1");
  // Calibration: one point (votes in [0.9, 1.0], all of which came true) on the chart, not the empty note.
  const chart = card.getByTestId("calibration-chart");
  await expect(chart.getByTestId("calibration-diagram")).toBeVisible();
  await expect(chart.getByTestId("reliability-point").first()).toBeVisible();
  await expect(card).not.toContainText("No resolved votes yet");
  await screenshot(page, "bridging-track-record");

  // A voter whose claim has not resolved has an empty track record.
  const newcomer = await createPerson(request, "newcomer_");
  await page.goto(`/profiles/${newcomer.username}`);
  const empty = page.getByTestId("track-record");
  await expect(empty.getByTestId("brier-score")).toHaveText("–");
  await expect(empty.getByTestId("peer-score")).toHaveText("–");
  await expect(empty.getByTestId("calibration-chart")).toContainText("No resolved votes yet");

  // The leaderboard, from the header: by peer score (ten scored votes needed, so nobody yet here),
  // then by reputation, where the forecaster's aligned vote counts.
  await page.getByRole("banner").getByRole("link", { name: "Leaderboard" }).click();
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeVisible();
  await expect(page.getByText("at least 10 scored votes", { exact: false })).toBeVisible();
  await expect(page.getByRole("link", { name: "By peer score" })).toHaveAttribute("aria-current", "page");
  const byPeer = await api<{ total: number }>(request, forecaster, "GET", "/discover/leaderboard?by=peer_score");
  expect(byPeer.body.total).toBe(0);
  await expect(page.getByRole("region", { name: "Best forecasters" })).toContainText("Nobody here yet");

  await page.getByRole("link", { name: "By reputation" }).click();
  await expect(page).toHaveURL(/\/leaderboard\?by=reputation$/);
  await expect(page.getByRole("link", { name: "By reputation" })).toHaveAttribute("aria-current", "page");
  const board = page.getByTestId("leaderboard");
  const row = board.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(forecaster.username.slice(1, 8), "i") }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(4)).toHaveText("1"); // scored votes
  await expect(row.getByRole("cell").nth(3)).toHaveText("0.010"); // Brier score
  await screenshot(page, "bridging-leaderboard");
});
