// A profile's activity lists, editing a claim before its first vote, and following a topic (issue 41:
// docs/features/activity.md, edits.md, following.md#topics-and-people), in the browser.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, screenshot, signIn, unique } from "./ui-helpers.ts";

test("a profile lists its claims and evidence, paged; the Claims tile opens the list; your own has Edit profile and your votes", async ({ page, request }) => {
  const author = await createPerson(request, "lister_");
  const other = await createPerson(request, "otherl_");
  const statements: string[] = [];
  for (let i = 0; i < 12; i++) {
    const c = await createClaim(request, author, { statement: `Activity list ${unique("a")}: claim number ${i} about rivers.` });
    statements.push(c.statement);
  }
  const target = await createClaim(request, other, { statement: `Activity list ${unique("b")}: a claim the lister votes on.` });
  expect((await api(request, author, "POST", `/claims/${target.id}/vote`, { value: 0.25 })).status).toBe(200);

  await page.goto(`/profiles/${author.username}`);
  const list = page.getByTestId("activity-claims");
  await expect(list.getByRole("listitem")).toHaveCount(10);
  await expect(list).toContainText(statements[11]!);
  await expect(list).not.toContainText(statements[0]!);
  await page.getByRole("button", { name: "Show more" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(12);
  await expect(list).toContainText(statements[0]!);
  await expect(page.getByRole("button", { name: "Show more" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Your votes" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Edit profile" })).toHaveCount(0);

  await page.getByRole("button", { name: "Evidence", exact: true }).click();
  await expect(page.getByText("No evidence yet.")).toBeVisible();
  await page.getByRole("link", { name: "12" }).click();
  await expect(page).toHaveURL(/#activity-claims$/);
  await expect(page.getByRole("button", { name: "Claims", exact: true })).toHaveAttribute("aria-pressed", "true");

  await signIn(page, author, `/profiles/${author.username}`);
  await expect(page.getByRole("link", { name: "Edit profile" })).toBeVisible();
  await page.getByRole("button", { name: "Your votes" }).click();
  await expect(page.getByTestId("activity-votes")).toContainText(target.statement);
  await expect(page.getByTestId("activity-votes")).toContainText("You said 25 % likely true");
  await screenshot(page, "profile-activity");
});

test("the author edits a claim before the first vote; the page shows it edited with its versions; after a vote Edit is gone and the API refuses", async ({ page, request }) => {
  const author = await createPerson(request, "editor_");
  const voter = await createPerson(request, "evoter_");
  const claim = await createClaim(request, author, { statement: `Edit test ${unique("e")}: the lake freezes every January.` });
  const corrected = `Edit test ${unique("f")}: the lake freezes in most Januaries.`;

  await signIn(page, author, `/claims/${claim.id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel(/Statement/).fill(corrected);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("claim-statement")).toHaveText(corrected);
  const versions = page.getByTestId("claim-versions");
  await expect(versions).toContainText("2 versions");
  await versions.locator("summary").click();
  await expect(versions).toContainText(claim.statement);
  await expect(versions).toContainText(corrected);
  await screenshot(page, "claim-edited");

  expect((await api(request, voter, "POST", `/claims/${claim.id}/vote`, { value: 0.6 })).status).toBe(200);
  const refused = await api<{ code: string }>(request, author, "PATCH", `/claims/${claim.id}`, { statement: `${corrected} Again.` });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe("edit_locked");
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("claim-statement")).toHaveText(corrected, { timeout: 2000 });
    await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
});

test("follow a topic from its page, and a new claim there reaches the inbox saying who wrote it", async ({ page, request }) => {
  const reader = await createPerson(request, "topicf_");
  const writer = await createPerson(request, "topicw_");
  const tag = unique("ftopic").toLowerCase();
  await createClaim(request, writer, { statement: `Follow test ${unique("g")}: a first claim in the topic.`, tags: [tag] });

  await signIn(page, reader, `/topics/${tag}`);
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page.getByRole("button", { name: "Following" })).toHaveAttribute("aria-pressed", "true");

  const fresh = await createClaim(request, writer, { statement: `Follow test ${unique("h")}: a new claim the follower hears of.`, tags: [tag] });
  await page.goto("/notifications");
  const group = page.getByTestId("inbox-group-topic");
  await expect(group.getByRole("heading", { name: "New in topics you follow" })).toBeVisible();
  const thread = group.getByTestId("notification").filter({ hasText: fresh.statement });
  await expect(thread).toContainText("New claim by");
  await screenshot(page, "inbox-topic");

  await page.goto(`/topics/${tag}`);
  await page.getByRole("button", { name: "Following" }).click();
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
  const later = await createClaim(request, writer, { statement: `Follow test ${unique("k")}: after unfollowing.`, tags: [tag] });
  const inbox = await api<{ notifications: { claim: { id: string } }[] }>(request, reader, "GET", "/notifications");
  expect(inbox.body.notifications.some((n) => n.claim.id === later.id)).toBe(false);
});
