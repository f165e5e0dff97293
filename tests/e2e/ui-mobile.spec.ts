// A phone-sized screen (375×812): nothing overflows sideways, and the main flows still work.
import { expect, test, type Page } from "@playwright/test";
import { createClaim, createPerson, gradientValue, screenshot, signIn, unique } from "./ui-helpers.ts";

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

async function expectNoSidewaysScroll(page: Page) {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The innermost elements that reach past the right edge: what a fix has to change.
    // (Inside a scrolling box, such as the phone's swipeable navigation, reaching further is fine.)
    const scrolls = (el: Element) => ["auto", "scroll", "hidden"].includes(getComputedStyle(el).overflowX);
    const insideScroller = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (scrolls(up)) return true;
      return false;
    };
    const wide = [...document.body.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > width + 0.5 && !insideScroller(el));
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    return {
      overflow: document.documentElement.scrollWidth - width,
      culprits: innermost.slice(0, 5).map((el) => `<${el.tagName.toLowerCase()} class="${el.className}"> ${(el.textContent ?? "").slice(0, 60)}`),
    };
  });
  expect(overflow, `wider than the screen: ${culprits.join(" | ")}`).toBeLessThanOrEqual(0);
}

test("on a phone: explore, open a claim, vote, and read a profile without sideways scrolling", async ({ page, request }) => {
  const author = await createPerson(request, "mobauthor_");
  // As long a username as allowed (30 characters with the suffix): the header has to fit it too.
  const voter = await createPerson(request, "mobile_voter_longer_");
  const claim = await createClaim(request, author, {
    statement: `Mobile test ${unique("m")}: a very long statement with averyveryverylongwordthatshouldwrapnicely so it fits.`,
    tags: ["mobile", "layout"],
  });

  await page.goto("/");
  await expect(page.getByRole("searchbox", { name: "Search claims" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, "mobile-explore");

  await signIn(page, voter, `/claims/${claim.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(claim.statement);
  await expectNoSidewaysScroll(page);
  await page.getByRole("slider", { name: /Your vote/ }).fill("0.75");
  await page.getByRole("button", { name: "Cast vote" }).click();
  // One vote is too few to call: the saved vote is confirmed, no percentage stands for a verdict.
  await expect(page.getByTestId("vote-confirmation")).toHaveText("Vote saved: 75% true.");
  await expect(page.getByTestId("consensus-status")).toContainText("1 vote so far — too few to call");
  await expect(gradientValue(page)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await screenshot(page, "mobile-claim");

  await page.goto(`/profiles/${voter.username}`);
  await expect(page.getByTestId("activity-chart").getByRole("img", { name: /Activity per day/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, "mobile-profile");

  for (const path of ["/discover", "/signup", "/claims/new", "/bookmarks", "/docs/api"]) {
    await page.goto(path);
    // first(): the API reference page also contains the OpenAPI viewer's own title heading.
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  }
});
