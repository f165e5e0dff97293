// Checks against the world in the browser (docs/features/checks.md): a claim written with "How will this
// be checked?" on the new-claim form (a past date is refused in the page's words), a vote while the check
// is open, its countdown (served with the page, readable without JavaScript, then ticking, and gone
// with the state moved on once its date passes) and state, the outcome proposed by an account with enough reputation, disputed
// by another, settled by a moderator, and the result; the voter's profile then shows the world track
// record and its calibration plot, and the leaderboard switches to scores against the world.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, createClaim, createPerson, expectAccessible, screenshot, signIn, unique, verifiedAdmin, type Person } from "./ui-helpers.ts";

/** A datetime-local value `seconds` from now, in the browser's own time zone. */
function localIn(page: Page, seconds: number): Promise<string> {
  return page.evaluate((s) => {
    const d = new Date(Date.now() + s * 1000);
    const two = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  }, seconds);
}

/** Screenshots of the page on a desktop (1280×800) and a phone (390×844), then back to the desktop. */
async function onBoth(page: Page, name: string) {
  for (const [label, size] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1280, height: 800 }]] as const) {
    await page.setViewportSize(size);
    await screenshot(page, `${name}-${label}`);
  }
}

async function pageOf(browser: Browser, person: Pick<Person, "email" | "password">, path: string): Promise<Page> {
  const page = await browser.newPage();
  await signIn(page, person, path);
  return page;
}

test("a claim checked against the world: created with its check, voted, proposed, disputed, settled, scored", async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const author = await createPerson(request, "chauthor_");
  const proposer = await createPerson(request, "chprop_");
  const disputer = await createPerson(request, "chdisp_");
  const voter = await createPerson(request, "chvoter_");
  const other = await createPerson(request, "chother_");
  // The proposer earns the reputation proposing needs (OUTCOME_MIN_REPUTATION, 10): two pieces of
  // evidence another person found helpful, 5 points each.
  const fan = await createPerson(request, "chfan_");
  const elsewhere = await createClaim(request, fan, { statement: `Checks test ${unique("r")}: rivers carry more silt in spring.` });
  for (const content of ["Snowmelt raises the flow.", "Spring storms wash soil into rivers."]) {
    const ev = await api<{ id: string }>(request, proposer, "POST", `/claims/${elsewhere.id}/evidence`, { position: "supports", content_type: "text", content });
    expect(ev.status).toBe(201);
    expect((await api(request, fan, "POST", `/evidence/${ev.body.id}/vote`, { direction: "up" })).status).toBe(200);
  }
  expect((await api<{ reputation_score: number }>(request, proposer, "GET", `/profiles/${proposer.id}`)).body.reputation_score).toBeGreaterThanOrEqual(10);

  // 1. The new-claim form, with its optional check.
  const statement = `Checks test ${unique("s")}: the harbour gauge reads above 2 metres at noon.`;
  await signIn(page, author, "/claims/new");
  await page.getByLabel("Statement").fill(statement);
  await page.getByText("How will this be checked? (optional)").click();
  await page.getByLabel("Criteria").fill("True if the harbour authority's noon reading is above 2.00 m; false otherwise.");
  await page.getByLabel("Source (optional)").fill("https://harbour.example.test/gauge");
  await page.getByLabel("Assumptions (optional)").fill("the gauge is working");
  // A date already past is refused, in the page's words, at its field.
  await page.getByLabel("Checked on").fill(await localIn(page, -3600));
  await page.getByRole("button", { name: "Submit claim" }).click();
  await expect(page.getByText("The check date must be in the future.")).toBeVisible();
  await expect(page.getByLabel("Checked on")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "new-claim form with its check");
  await onBoth(page, "checks-new-claim-form");
  // Scoring closes, and the outcome can be known, 60 seconds from now.
  await page.getByLabel("Checked on").fill(await localIn(page, 60));
  await page.getByRole("button", { name: "Submit claim" }).click();
  await page.waitForURL(/\/claims\/[0-9a-f-]{36}$/);
  const claimId = page.url().split("/").pop()!;
  const checkAt = (await (await request.get(`/api/v1/claims/${claimId}`)).json()).check.check_at as string;

  // 2. The check on the claim's page: its criteria, the countdown, the state; a vote while it is open
  // (by someone else: an author does not vote on their own claim).
  const section = page.getByTestId("check-section");
  await expect(section).toContainText("True if the harbour authority's noon reading is above 2.00 m");
  await expect(section).toContainText("Assuming the gauge is working");
  await expect(page.getByTestId("check-state")).toHaveText("Open: votes cast now are scored against the outcome");
  await expect(section.getByText(/^in \d+ (seconds?|minute)$/).first()).toBeVisible();
  // The live countdown to the next date ticks: its words change within a couple of seconds.
  const countdown = section.getByTestId("check-countdown");
  await expect(countdown).toHaveText(/^Scoring closes and the outcome may be proposed in (1 min 00|\d+) s$/);
  const shown = (await countdown.textContent())!;
  await expect(countdown).not.toHaveText(shown, { timeout: 5_000 });
  await expect(countdown).toHaveText(/^Scoring closes and the outcome may be proposed in \d+ s$/);
  // Without JavaScript the page is served with the countdown's words of its render.
  const still = await browser.newContext({ javaScriptEnabled: false });
  const stillPage = await still.newPage();
  await stillPage.goto(`/claims/${claimId}`);
  await expect(stillPage.getByTestId("check-countdown")).toHaveText(/^Scoring closes and the outcome may be proposed in (1 min 00|\d+) s$/);
  await still.close();
  const voterPage = await pageOf(browser, voter, `/claims/${claimId}`);
  await expect(voterPage.getByTestId("check-state")).toHaveText("Open: votes cast now are scored against the outcome");
  await voterPage.getByRole("slider", { name: /Your vote/ }).fill("0.8");
  await voterPage.getByRole("button", { name: "Cast vote" }).click();
  await expect(voterPage.getByTestId("vote-confirmation")).toHaveText("Vote saved: 80% true.");
  await voterPage.close();
  expect((await api(request, other, "POST", `/claims/${claimId}/vote`, { value: 0.3 })).status).toBe(200);

  // 3. Once check_at has passed, the proposer (enough reputation) proposes the outcome.
  await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(checkAt) - Date.now() + 1500)));
  // The author's page, left open, moved on by itself: the countdown is gone, the state says so.
  await expect(page.getByTestId("check-state")).toHaveText("Awaiting an outcome: anyone with standing may propose it");
  await expect(page.getByTestId("check-countdown")).toHaveCount(0);
  const proposerPage = await pageOf(browser, proposer, `/claims/${claimId}`);
  await expect(proposerPage.getByTestId("check-state")).toHaveText("Awaiting an outcome: anyone with standing may propose it");
  const propose = proposerPage.getByRole("form", { name: "Propose the outcome" });
  await propose.getByLabel("Outcome").selectOption("true");
  await propose.getByLabel("Evidence (a link)").fill("https://harbour.example.test/gauge/noon");
  await propose.getByLabel("Note").fill("The noon reading was 2.14 m.");
  await propose.getByRole("button", { name: "Propose (stakes reputation)" }).click();
  await expect(proposerPage.getByTestId("check-state")).toHaveText("Outcome proposed: it may be disputed until the window ends");
  // The countdown now runs to the end of the dispute window (a day: it ticks by the minute).
  await expect(proposerPage.getByTestId("check-countdown")).toHaveText(/^Final unless disputed in (1 day 0 h|23 h \d\d min)$/);
  await expect(proposerPage.getByTestId("check-proposal")).toContainText("The noon reading was 2.14 m.");
  await proposerPage.close();

  // 4. Another account disputes it.
  const disputerPage = await pageOf(browser, disputer, `/claims/${claimId}`);
  await expect(disputerPage.getByTestId("check-proposal")).toContainText("proposed True");
  const dispute = disputerPage.getByRole("form", { name: "Dispute the proposed outcome" });
  await dispute.getByLabel("Reason").fill("That reading is from the afternoon.");
  await dispute.getByLabel("Evidence (a link)").fill("https://harbour.example.test/gauge/log");
  await dispute.getByRole("button", { name: "Dispute (stakes reputation)" }).click();
  await expect(disputerPage.getByTestId("check-state")).toHaveText("Disputed: a moderator will settle it");
  await expect(disputerPage.getByTestId("check-dispute")).toContainText("That reading is from the afternoon.");
  await disputerPage.close();

  // 5. A moderator settles it; everyone sees the result.
  const moderatorPage = await pageOf(browser, await verifiedAdmin(request), `/claims/${claimId}`);
  const settle = moderatorPage.getByRole("form", { name: "Settle the dispute" });
  await settle.getByLabel("Outcome").selectOption("true");
  await settle.getByLabel("Reason").fill("The noon log shows 2.14 m.");
  await settle.getByRole("button", { name: "Settle" }).click();
  await expect(moderatorPage.getByTestId("check-state")).toHaveText("Outcome: True");
  await moderatorPage.close();
  await page.reload();
  await expect(page.getByTestId("check-state")).toHaveText("Outcome: True");
  await expect(page.getByTestId("check-dispute")).toContainText("That reading is from the afternoon.");
  await expectAccessible(page, "claim page with a settled check");
  await onBoth(page, "checks-claim-settled");

  // 6. The voter's profile: the world track record beside the consensus-based one, with its plot.
  await page.goto(`/profiles/${voter.username}`);
  const world = page.getByTestId("world-record");
  await expect(page.getByTestId("track-record")).toBeVisible();
  await expect(world.getByTestId("world-scored")).toHaveText("1");
  await expect(world.getByTestId("world-brier")).toHaveText("0.040"); // (0.8 − 1)²
  await expect(world.getByTestId("world-peer")).toHaveText("+0.450"); // (0.3 − 1)² − (0.8 − 1)²
  await expect(world.getByTestId("world-calibration").getByTestId("reliability-point")).toHaveCount(1);
  await expectAccessible(page, "profile with the world track record");
  await page.getByTestId("world-record").scrollIntoViewIfNeeded();
  await onBoth(page, "checks-profile-world");

  // 7. The leaderboard's basis switch.
  await page.goto("/leaderboard");
  await page.getByRole("navigation", { name: "Scored against" }).getByRole("link", { name: "Against the world" }).click();
  await expect(page).toHaveURL(/\/leaderboard\?basis=world$/);
  await expect(page.getByRole("link", { name: "Against the world" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("leaderboard-basis")).toContainText("Scores against the world");
  await page.getByRole("link", { name: "By reputation" }).click();
  await expect(page).toHaveURL(/\/leaderboard\?by=reputation&basis=world$/);
  await expect(page.getByTestId("leaderboard")).toBeVisible();
  await expectAccessible(page, "leaderboard against the world");
  await onBoth(page, "checks-leaderboard-world");
});
