// What a newcomer stumbles over, each checked as a person would notice it (docs/features/friction.md):
// a quiet report control with no reason chosen for you, moderation actions that look as different as
// they are, sentences instead of validation text, cleaned tags, evidence with a title and a quote,
// counts that follow the page's own changes, labelled evidence votes, a header that fits, a phone
// menu with every destination, selected tabs, honest counts, and real 404s.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { api, createClaim, createPerson, signIn, unique, verifiedAdmin, type Person } from "./ui-helpers.ts";


async function admin(request: Parameters<typeof createPerson>[0]): Promise<Pick<Person, "email" | "password">> {
  return verifiedAdmin(request);
}

const look = (locator: Locator) =>
  locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, color: s.color, border: s.borderTopColor, height: el.getBoundingClientRect().height };
  });
const TRANSPARENT = "rgba(0, 0, 0, 0)";

test("report is a quiet control, and nothing is chosen for the reporter", async ({ page, request }) => {
  const author = await createPerson(request, "repauthor_");
  const reader = await createPerson(request, "repreader_");
  const claim = await createClaim(request, author, { statement: `Quiet report ${unique("r")}: the sea is salty.` });
  const ev = await api<{ id: string }>(request, author, "POST", `/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Taste it." });
  const comment = await api<{ id: string }>(request, author, "POST", `/claims/${claim.id}/comments`, { content: "Also, measure it." });

  await signIn(page, reader, `/claims/${claim.id}`);
  const castVote = page.getByRole("button", { name: "Cast vote" });
  await expect(castVote).toBeVisible();
  const primary = await look(castVote);
  for (const testId of [`report-claim-${claim.id}`, `report-evidence-${ev.body.id}`, `report-comment-${comment.body.id}`]) {
    const report = page.getByTestId(testId);
    await expect(report).toBeVisible();
    const quiet = await look(report);
    // No fill, and smaller than the page's main action.
    expect(quiet.background, testId).toBe(TRANSPARENT);
    expect(quiet.background).not.toBe(primary.background);
    expect(quiet.height).toBeLessThan(primary.height);
  }

  await page.getByTestId(`report-claim-${claim.id}`).click();
  await expect(page.getByTestId("report-reason")).toHaveValue("");
  await expect(page.getByTestId("report-submit")).toBeDisabled();
  await page.getByTestId("report-reason").selectOption("misinformation");
  await page.getByTestId("report-submit").click();
  await expect(page.getByTestId(`report-status-${claim.id}`)).toContainText("Reported");
  const queueLooksRight = await request.get("/api/v1/moderation/reports", { headers: { Authorization: `Bearer ${reader.token}` } });
  expect(queueLooksRight.status()).toBe(403);
});

test("moderation: distinct actions, a reason for suspension in a dialog, names in the audit log", async ({ browser, request }) => {
  const author = await createPerson(request, "modauthor_");
  const reporter = await createPerson(request, "modreporter_");
  const statement = `Buy cheap followers now ${unique("m")}`;
  const claim = await createClaim(request, author, { statement });
  expect((await api(request, reporter, "POST", "/reports", { target_type: "claim", target_id: claim.id, reason: "spam" })).status).toBe(201);

  const context = await browser.newContext();
  const page = await context.newPage();
  // A bare confirm() is what this replaces: any browser dialog fails the test.
  page.on("dialog", (d) => {
    throw new Error(`unexpected browser dialog: ${d.message()}`);
  });
  await signIn(page, await admin(request), "/moderation");
  const item = page.getByTestId(`queue-item-${claim.id}`);
  await expect(item).toContainText(statement);
  const [hide, dismiss, suspend] = await Promise.all([look(page.getByTestId(`hide-${claim.id}`)), look(page.getByTestId(`dismiss-${claim.id}`)), look(page.getByTestId(`suspend-${claim.id}`))]);
  const styleOf = (s: typeof hide) => `${s.background}|${s.color}|${s.border}`;
  expect(new Set([styleOf(hide), styleOf(dismiss), styleOf(suspend)]).size).toBe(3);

  await page.getByTestId(`suspend-${claim.id}`).click();
  const dialog = page.getByRole("dialog", { name: /Suspend/ });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole("button", { name: "Suspend", exact: true });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Reason/).fill("Sells followers in every claim");
  await dialog.getByLabel("For how long").selectOption("7");
  await confirm.click();
  await expect(page.getByTestId("moderation-status")).toContainText("Suspended");
  await expect(dialog).toBeHidden();
  // The suspended author's token stopped working at once.
  expect((await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${author.token}` } })).status()).toBe(401);

  await page.getByTestId(`hide-${claim.id}`).click();
  await expect(page.getByTestId("moderation-status")).toContainText("Hidden");
  await page.reload();
  const log = page.getByTestId("audit-log");
  await expect(log).toContainText(`@${author.username}`);
  await expect(log).toContainText("Sells followers in every claim");
  await expect(log).toContainText(statement);
  await expect(log).not.toContainText(claim.id.slice(0, 8));
  await context.close();
});

test("forms speak in sentences, and tags are cleaned as they are typed", async ({ page, request }) => {
  const author = await createPerson(request, "formauthor_");
  await signIn(page, author, "/claims/new");
  await page.getByLabel("Statement").fill("Too short");
  await page.getByRole("button", { name: "Submit claim" }).click();
  await expect(page.getByText("The statement must be 10 to 5000 characters long.")).toBeVisible();
  await expect(page.getByText(/statement: must/)).toHaveCount(0);

  const statement = `Tags get cleaned ${unique("t")} in the claim form.`;
  await page.getByLabel("Statement").fill(statement);
  await page.getByLabel("Tags").fill("Climate Change, Café!, climate change");
  await expect(page.getByTestId("tags-preview")).toHaveText("#climate-change #cafe");
  await page.getByLabel("Statement").focus();
  await expect(page.getByLabel("Tags")).toHaveValue("climate-change, cafe");
  await page.getByRole("button", { name: "Submit claim" }).click();
  await page.waitForURL(/\/claims\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  expect((await api<{ tags: string[] }>(request, author, "GET", `/claims/${id}`)).body.tags).toEqual(["climate-change", "cafe"]);
});

test("link evidence with a title and a quote; the header's count and the labelled votes follow without a reload", async ({ browser, request }) => {
  const author = await createPerson(request, "evtauthor_");
  const witness = await createPerson(request, "evtwitness_");
  const claim = await createClaim(request, author, { statement: `Evidence described ${unique("e")}: green tea lowers blood pressure.` });

  const page = await (await browser.newContext()).newPage();
  await signIn(page, witness, `/claims/${claim.id}`);
  await expect(page.getByTestId("claim-evidence-count")).toHaveText("0 pieces of evidence");
  const form = page.getByRole("form", { name: "Add evidence" });
  await form.getByLabel("Kind of evidence").selectOption("link");
  await form.getByLabel("Link (http or https)").fill("https://example.org/tea-trial");
  await form.getByLabel(/Title of the page/).fill("Green tea and blood pressure: a meta-analysis");
  await form.getByLabel(/Quote or why it matters/).fill("Systolic pressure fell by 2 mmHg on average.");
  await form.getByRole("button", { name: "Add evidence" }).click();
  await expect(form.getByText("Evidence added. Thank you!")).toBeVisible();

  const card = page.getByRole("region", { name: /Supports/ }).getByRole("article").first();
  await expect(card).toContainText("Green tea and blood pressure: a meta-analysis");
  await expect(card.getByRole("link", { name: /example\.org\/tea-trial/ })).toBeVisible();
  await expect(card.getByTestId("evidence-excerpt")).toHaveText("Systolic pressure fell by 2 mmHg on average.");
  // The header follows the page's own change.
  await expect(page.getByTestId("claim-evidence-count")).toHaveText("1 piece of evidence");
  // Each number says what it counts.
  await expect(card.getByText(/Helpful 0/).first()).toBeVisible();
  await expect(card.getByText(/Not helpful 0/)).toBeVisible();
  await expect(card.getByTestId("evidence-net")).toHaveText("Net 0");

  // Someone else sees labelled buttons and votes.
  const other = await (await browser.newContext()).newPage();
  await signIn(other, author, `/claims/${claim.id}`);
  const theirCard = other.getByRole("region", { name: /Supports/ }).getByRole("article").first();
  await theirCard.getByRole("button", { name: /^Helpful/ }).click();
  await expect(theirCard.getByRole("button", { name: /^Helpful/ })).toHaveText(/Helpful 1/);
  await expect(theirCard.getByTestId("evidence-net")).toHaveText("Net 1");
});

/** How many rows the header's links and buttons sit in (centres more than 16 px apart start a new row). */
async function headerRowCount(page: Page): Promise<number> {
  return page.getByRole("banner").evaluate((header) => {
    const centres = [...header.querySelectorAll("a, button")]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => r.top + r.height / 2)
      .sort((a, b) => a - b);
    return centres.filter((c, i) => i === 0 || c - centres[i - 1] > 16).length;
  });
}

test.describe("desktop header", () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test("fits one row at 1280 px, signed in as a moderator with a long username", async ({ page, request }) => {
    await signIn(page, await admin(request), "/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Moderation" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
    const height = await page.getByRole("banner").evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThan(72);
    expect(await headerRowCount(page)).toBe(1);
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  });

  test("leaderboard tabs show which one is selected", async ({ page }) => {
    await page.goto("/leaderboard?by=reputation");
    const tabs = page.getByRole("navigation", { name: "Order" });
    const current = tabs.getByRole("link", { name: "By reputation" });
    const other = tabs.getByRole("link", { name: "By peer score" });
    await expect(current).toHaveAttribute("aria-current", "page");
    await expect(other).not.toHaveAttribute("aria-current", /.+/);
    expect((await look(current)).background).not.toBe((await look(other)).background);
  });

  test("one page of results is counted, not ranged", async ({ page, request }) => {
    const author = await createPerson(request, "countauthor_");
    const tag = unique("onlyone").toLowerCase().slice(0, 40);
    await createClaim(request, author, { statement: `A single claim with its own tag ${unique("s")}.`, tags: [tag] });
    await page.goto(`/topics/${tag}`);
    const info = page.getByRole("navigation", { name: "Pagination" });
    await expect(info).toContainText("1 claim");
    await expect(info).not.toContainText("1–1 of");
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test("a menu shows every destination", async ({ page, request }) => {
    const person = await createPerson(request, "phone_");
    await signIn(page, person, "/");
    const menuButton = page.getByRole("button", { name: "Menu" });
    await expect(menuButton).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await menuButton.click();
    const menu = page.getByRole("navigation", { name: "Menu" });
    const destinations = ["Explore", "Discover", "Leaderboard", "New claim", "Bookmarks", "Following", "API", "Your profile", "Notifications", "Settings"];
    for (const name of destinations) {
      const link = menu.getByRole("link", { name, exact: true });
      await expect(link, name).toBeInViewport({ ratio: 1 });
    }
    await expect(menu.getByRole("button", { name: "Sign out" })).toBeInViewport({ ratio: 1 });
    await menu.getByRole("link", { name: "Leaderboard", exact: true }).click();
    await page.waitForURL("/leaderboard");
    await expect(menu).toBeHidden();
  });
});

test("missing claims, profiles and topics answer a real 404, every time, and a topic name is decoded once", async ({ page, request }) => {
  const author = await createPerson(request, "found_");
  const claim = await createClaim(request, author, { statement: `A claim that exists ${unique("x")}.`, tags: ["exists", "a"] });
  for (const path of [`/claims/${claim.id}`, `/profiles/${author.username}`, "/topics/exists"]) {
    expect((await request.get(path)).status(), path).toBe(200);
  }
  const missing = ["/claims/00000000-0000-4000-8000-000000000000", "/claims/not-a-uuid", "/profiles/nobody_by_this_name", "/topics/no-claim-has-this-tag"];
  for (const path of missing) {
    // Twice: the shared page cache must not keep (or turn) it into a 200.
    for (let i = 0; i < 2; i++) {
      const res = await request.get(path);
      expect(res.status(), `${path} #${i + 1}`).toBe(404);
    }
  }
  // "%2561" is the topic "%61", not the topic "a" (which exists).
  expect((await request.get("/topics/%2561")).status()).toBe(404);
  const res = await page.goto("/topics/%2525");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("topic-not-found")).toHaveText("No claim is tagged #%25.");
  await page.goto("/claims/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Claim not found" })).toBeVisible();
});
