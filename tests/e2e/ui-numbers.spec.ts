// Numbers that agree with each other and with their words (docs/features/friction.md#numbers-that-agree):
// the leaderboard says what a peer score is (below 0 included) and stays readable on a phone, the tier
// badge is no "New" on everyone, a profile's percentile is an ordinal and its counts are plural as
// English wants, and Discover says what its picks are based on.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, createClaim, createPerson, screenshot, signIn, unique } from "./ui-helpers.ts";

/** Where each number of a row is drawn (its text, not its cell), and whether its cell cuts it off. */
async function numberBoxes(row: Locator) {
  return row.locator("td[data-label]").evaluateAll((cells) =>
    cells.map((c) => {
      const text = [...c.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "") ?? c;
      const range = document.createRange();
      range.selectNodeContents(text);
      const r = range.getBoundingClientRect();
      const cell = c.getBoundingClientRect();
      return {
        label: c.getAttribute("data-label"),
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        clipped: c.scrollWidth > c.clientWidth + 1 || r.right > cell.right + 0.5 || r.left < cell.left - 0.5,
      };
    }),
  );
}

async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`the leaderboard is readable on a ${viewport.name}: no sideways scroll, each number apart in its own cell`, async ({ page, request }) => {
    // Someone with reputation: evidence another person found helpful.
    const author = await createPerson(request, "board_");
    const fan = await createPerson(request, "boardfan_");
    const claim = await createClaim(request, author, { statement: `Leaderboard test ${unique("l")}: octopuses dream.` });
    const ev = await api<{ id: string }>(request, author, "POST", `/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Colour changes during sleep." });
    expect((await api(request, fan, "POST", `/evidence/${ev.body.id}/vote`, { direction: "up" })).status).toBe(200);

    await page.setViewportSize(viewport);
    await page.goto("/leaderboard");
    await expect(page.getByTestId("leaderboard-subtitle")).toHaveText(/above 0 is better than the crowd, below 0 worse/);
    await page.goto("/leaderboard?by=reputation");
    const board = page.getByTestId("leaderboard");
    await expect(board).toBeVisible();
    await expectNoSidewaysScroll(page);
    // Reputation under 100 is the lowest tier: no "New" badge on it.
    await expect(board.getByText("new", { exact: true })).toHaveCount(0);
    const rows = board.locator("tbody tr");
    const count = Math.min(await rows.count(), 5);
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const boxes = await numberBoxes(rows.nth(i));
      expect(boxes.map((b) => b.label)).toEqual(["Peer score", "Brier score", "Scored votes", "Reputation"]);
      for (const b of boxes) expect(b.clipped, `${b.label} cut off`).toBe(false);
      for (const b of boxes) expect(b.right).toBeLessThanOrEqual(viewport.width);
      // Any two numbers on one line stand apart by a visible gap (at least 8 px).
      for (const a of boxes) {
        for (const b of boxes) {
          if (a === b || a.bottom <= b.top || b.bottom <= a.top || a.left >= b.left) continue;
          expect(b.left - a.right, `${a.label} runs into ${b.label}`).toBeGreaterThanOrEqual(8);
        }
      }
    }
    await screenshot(page, `leaderboard-${viewport.name}`);
  });
}

test("a profile's percentile is an ordinal and its count of changes is plural as English wants", async ({ page, request }) => {
  const person = await createPerson(request, "ordinal_");
  const fan = await createPerson(request, "ordfan_");
  const claim = await createClaim(request, person, { statement: `Ordinal test ${unique("o")}: bees recognise faces.` });
  const ev = await api<{ id: string }>(request, person, "POST", `/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "A study with photographs." });
  expect((await api(request, fan, "POST", `/evidence/${ev.body.id}/vote`, { direction: "up" })).status).toBe(200);
  await page.goto(`/profiles/${person.username}`);
  const contributions = page.getByRole("region", { name: "Contributions" });
  await expect(contributions.getByRole("definition").nth(4)).toHaveText(/^\d+(st|nd|rd|th)$/);
  await expect(page.getByRole("region", { name: "Reputation journey" })).toContainText("1 recent change;");
  await expect(page.getByText("new", { exact: true })).toHaveCount(0);
});

test("Discover says what its picks are based on", async ({ page, request }) => {
  const person = await createPerson(request, "picks_");
  const other = await createPerson(request, "picksby_");
  await createClaim(request, other, { statement: `Discover test ${unique("d")}: sloths swim well.`, tags: ["biology"] });
  await signIn(page, person, "/discover");
  // No expertise yet: the picks are recent claims, and the line says so (no topics named).
  await expect(page.getByTestId("recommended-basis")).toHaveText(/^Recent claims you have not voted on\./);
  await expect(page.getByRole("region", { name: "Recommended for you" })).toContainText("Recent, and you have not voted on it");
});
