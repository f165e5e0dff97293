// Live claim pages (docs/features/following.md): two people on the same claim page in two browsers; when one votes,
// comments or adds evidence, the other's page shows it without a reload (Server-Sent Events from
// /api/live/claims/{id}, refetching what changed).
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, gradientValue, screenshot, signIn, unique } from "./ui-helpers.ts";

test("one person votes and the other's gauge, count, evidence and comments move without a reload", async ({ browser, request }) => {
  const author = await createPerson(request, "liveauthor_");
  const voter = await createPerson(request, "livevoter_");
  const claim = await createClaim(request, author, { statement: `Live test ${unique("l")}: sourdough keeps longer than yeasted bread.` });

  // The watcher is signed out: the live page is for every reader.
  const watcher = await (await browser.newContext()).newPage();
  const stream = watcher.waitForResponse((r) => r.url().includes(`/api/live/claims/${claim.id}`));
  await watcher.goto(`/claims/${claim.id}`);
  expect((await stream).status()).toBe(200);
  // No votes: no needle and no percentage, the status in words.
  await expect(watcher.getByTestId("consensus-status")).toContainText("No votes yet");
  await expect(gradientValue(watcher)).toHaveCount(0);
  await expect(watcher.getByTestId("gauge-votes")).toContainText("0 votes");
  // Survives only as long as the document does: a reload would wipe it.
  await watcher.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  const voterPage = await (await browser.newContext()).newPage();
  await signIn(voterPage, voter, `/claims/${claim.id}`);
  await voterPage.getByRole("slider", { name: /Your vote/ }).fill("0.9");
  await voterPage.getByRole("button", { name: "Cast vote" }).click();
  await expect(voterPage.getByTestId("vote-confirmation")).toHaveText("Vote saved: 90% true.");

  await expect(watcher.getByTestId("consensus-status")).toContainText("1 vote so far — too few to call");
  await expect(watcher.getByTestId("gauge-votes")).toContainText("1 vote ·");
  await expect(watcher.getByTestId("vote-histogram").getByRole("row", { name: "0.9–1.0 1" })).toHaveCount(1);

  expect((await api(request, voter, "POST", `/claims/${claim.id}/comments`, { content: "Watched it rise live." })).status).toBe(201);
  await expect(watcher.getByText("Watched it rise live.")).toBeVisible();
  const evidence = await api(request, voter, "POST", `/claims/${claim.id}/evidence`, {
    position: "supports",
    content_type: "link",
    content: "https://example.org/sourdough-shelf-life",
  });
  expect(evidence.status).toBe(201);
  await expect(watcher.getByRole("link", { name: /example\.org\/sourdough-shelf-life/ })).toBeVisible();

  expect(await watcher.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await screenshot(watcher, "claim-live");
});
