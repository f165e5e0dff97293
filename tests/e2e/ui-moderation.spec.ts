// Moderation in the browser (docs/features/moderation.md): one person reports a claim, a moderator hides it from the
// queue with one click, and a third person no longer finds it; its author sees the hidden banner.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, PASSWORD, signIn, unique, verifiedAdmin } from "./ui-helpers.ts";

test("report a claim, hide it from the queue, gone for a third person", async ({ browser, request }) => {
  const author = await createPerson(request, "author_");
  const reporter = await createPerson(request, "reporter_");
  // ADMIN_EMAILS (playwright.config.ts) makes this account an admin once its address is verified.
  const { email: adminEmail } = await verifiedAdmin(request);
  const statement = `Miracle pills cure everything ${unique("")}`;
  const claim = await createClaim(request, author, { statement });

  // 1. The reporter reports it from the claim page.
  const reporterContext = await browser.newContext();
  const reporterPage = await reporterContext.newPage();
  await signIn(reporterPage, reporter, `/claims/${claim.id}`);
  await reporterPage.getByTestId(`report-claim-${claim.id}`).click();
  await reporterPage.getByTestId("report-reason").selectOption("spam");
  await reporterPage.getByLabel("Note").fill("Selling pills");
  await reporterPage.getByTestId("report-submit").click();
  await expect(reporterPage.getByTestId(`report-status-${claim.id}`)).toContainText("Reported");
  await reporterContext.close();

  // 2. The moderator hides it from the queue with one click.
  const modContext = await browser.newContext();
  const modPage = await modContext.newPage();
  await signIn(modPage, { email: adminEmail, password: PASSWORD }, "/moderation");
  const item = modPage.getByTestId(`queue-item-${claim.id}`);
  await expect(item).toContainText(statement);
  await expect(item).toContainText("spam ×1");
  await modPage.getByTestId(`hide-${claim.id}`).click();
  await expect(modPage.getByTestId("moderation-status")).toContainText("Hidden");
  await expect(modPage.getByTestId(`queue-item-${claim.id}`)).toHaveCount(0);
  await expect(modPage.getByTestId("audit-log")).toContainText("resolve hide");
  await modContext.close();

  // 3. A third person: not on the explore page, not in search, and the claim page is "not found".
  const thirdContext = await browser.newContext();
  const third = await thirdContext.newPage();
  await third.goto("/");
  await expect(third.getByText(statement)).toHaveCount(0);
  // The page streams behind its loading state: a "soft" 404 (as in ui-claims.spec.ts).
  await third.goto(`/claims/${claim.id}`);
  await expect(third.getByRole("heading", { name: "Claim not found" })).toBeVisible();
  await expect(third.getByText(statement)).toHaveCount(0);
  const search = await request.get(`/api/v1/claims?q=${encodeURIComponent("Miracle pills")}`);
  expect(((await search.json()).claims as { id: string }[]).some((c) => c.id === claim.id)).toBe(false);
  await thirdContext.close();

  // 4. Its author still sees it, with the banner.
  const authorContext = await browser.newContext();
  const authorPage = await authorContext.newPage();
  await signIn(authorPage, author, `/claims/${claim.id}`);
  await expect(authorPage.getByTestId("hidden-banner")).toContainText("Hidden by a moderator");
  await authorContext.close();
});

test("report evidence, a comment and a profile from their pages", async ({ browser, request }) => {
  const author = await createPerson(request, "writer_");
  const reporter = await createPerson(request, "flagger_");
  const claim = await createClaim(request, author, { statement: `A claim with things to report ${unique("")}` });
  const evidence = await api<{ id: string }>(request, author, "POST", `/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Buy cheap pills at this link." });
  expect(evidence.status).toBe(201);
  const comment = await api<{ id: string }>(request, author, "POST", `/claims/${claim.id}/comments`, { content: "Visit my shop for pills." });
  expect(comment.status).toBe(201);

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, reporter, `/claims/${claim.id}`);
  for (const [type, id] of [["evidence", evidence.body.id], ["comment", comment.body.id]] as const) {
    await page.getByTestId(`report-${type}-${id}`).click();
    await page.getByTestId("report-reason").selectOption("spam");
    await page.getByTestId("report-submit").click();
    await expect(page.getByTestId(`report-status-${id}`)).toContainText("Reported");
  }
  await page.goto(`/profiles/${author.username}`);
  await page.getByTestId(`report-agent-${author.id}`).click();
  await page.getByTestId("report-reason").selectOption("abuse");
  await page.getByTestId("report-submit").click();
  await expect(page.getByTestId(`report-status-${author.id}`)).toContainText("Reported");
  // Nobody is offered to report their own profile.
  await page.goto(`/profiles/${reporter.username}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId(`report-agent-${reporter.id}`)).toHaveCount(0);
  await context.close();

  // The report was recorded: a second one of the same target is refused while the first is open.
  const again = await api(request, reporter, "POST", "/reports", { target_type: "comment", target_id: comment.body.id, reason: "spam" });
  expect(again.status).toBe(409);
});
