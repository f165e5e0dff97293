// Arguments that speak plainly and find their way (docs/features/arguments.md#in-plain-words,
// #where-it-argues, #adding-one), and the new-claim form that says an exact duplicate at once
// (#duplicates).
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, screenshot, signIn, unique } from "./ui-helpers.ts";

test("an argument speaks plain words, takes its parent's tags, and its own page links back to where it argues", async ({ page, request }) => {
  const author = await createPerson(request, "argwords_");
  const root = await createClaim(request, author, { statement: `Cats sleep most of the day ${unique("c")}`, tags: ["cats"] });
  await signIn(page, author, `/claims/${root.id}`);
  const form = page.getByRole("form", { name: "Add an argument" });
  const reason = `Cats are crepuscular hunters ${unique("r")}`;
  await form.getByLabel("The reason, as a claim of its own").fill(reason);
  await form.getByRole("button", { name: "Add as a new claim" }).click();
  const item = page.getByTestId(`arguments-supports-${root.id}`).getByTestId("argument").filter({ hasText: reason });
  await expect(item.getByTestId("argument-relevance")).toHaveText("Relevance not rated yet");
  await expect(item.getByTestId("argument-impact")).toHaveText("No weight yet: it needs votes on it and a relevance rating");
  await expect(page.getByTestId("arguments-balance")).toContainText("No argument carries weight yet (1 for, 0 against)");
  await expect(page.getByRole("region", { name: "Arguments" })).not.toContainText(/Relevance \d|Impact \d|Balance of arguments/);
  await screenshot(page, "arguments-plain-words");

  // The new claim is under its parent's topic, not a stray.
  const child = (await api<{ arguments: { claim: { id: string; tags: string[] } }[] }>(request, author, "GET", `/claims/${root.id}/arguments`)).body.arguments[0].claim;
  expect(child.tags).toEqual(["cats"]);

  // Rated and voted on: the words follow.
  const rater = await createPerson(request, "rater_");
  expect((await api(request, rater, "POST", `/claims/${child.id}/vote`, { value: 0.9 })).status).toBe(200);
  await item.getByLabel("How much does it bear on the claim?").selectOption("0.75");
  await expect(item.getByTestId("argument-relevance")).toHaveText("Strongly relevant, by 1 rating");
  await expect(item.getByTestId("argument-impact")).toHaveText("Weight: strong (68 of 100)");
  await expect(page.getByTestId("arguments-balance")).toContainText("The arguments lean towards the claim (1 for, 0 against; 1 of 1 weighed).");

  // The way back: the argument's own page says where it argues, and links there.
  await item.getByRole("link", { name: reason }).click();
  await page.waitForURL(new RegExp(`/claims/${child.id}`));
  const back = page.getByTestId("argues-in");
  await expect(back).toContainText("This claim is an argument in another claim");
  await expect(back).toContainText("For");
  await expect(back.getByRole("link", { name: root.statement })).toHaveAttribute("href", `/claims/${root.id}#arguments`);
  await screenshot(page, "argument-way-back");
  await back.getByRole("link", { name: root.statement }).click();
  await page.waitForURL(new RegExp(`/claims/${root.id}`));
});

test("the new-claim form says an exact duplicate at once, with each suggestion's status and votes as buttons", async ({ page, request }) => {
  const author = await createPerson(request, "exact_");
  const word = unique("narwhal").replace(/[^a-z]/g, "");
  const existing = await createClaim(request, author, { statement: `Male ${word}s use their tusks to sense the water.` });
  const voter = await createPerson(request, "exactvoter_");
  expect((await api(request, voter, "POST", `/claims/${existing.id}/vote`, { value: 0.7 })).status).toBe(200);
  await signIn(page, author, "/claims/new");
  await expect(page.getByLabel("Statement")).toBeEnabled();
  // Another case and other punctuation: the same claim once folded.
  await page.getByLabel("Statement").pressSequentially(`male ${word}s use their tusks to sense the water!`, { delay: 10 });
  const exact = page.getByTestId("exact-claim");
  await expect(exact).toContainText("This exact claim already exists — open it");
  await expect(exact).toContainText(existing.statement);
  await expect(exact.getByTestId("similar-standing")).toContainText("1 vote");
  const open = exact.getByRole("link", { name: "Open" });
  await expect(open).toHaveAttribute("href", `/claims/${existing.id}`);
  // A real button: the button style, a target of at least 24 px.
  const box = await open.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(24);
  await screenshot(page, "new-claim-exact");

  // A near statement: no "exact" line; the suggestion with status, votes and both buttons.
  await page.getByLabel("Statement").fill("");
  await page.getByLabel("Statement").pressSequentially(`Male ${word}s use their tusks to sense salt in the water`, { delay: 10 });
  const similar = page.getByTestId("similar-claims");
  await expect(similar).toContainText(existing.statement);
  await expect(page.getByTestId("exact-claim")).toHaveCount(0);
  await expect(similar.getByTestId("similar-standing").first()).toContainText("1 vote");
  const instead = similar.getByRole("link", { name: "Add mine as an argument to it instead" }).first();
  expect((await instead.boundingBox())!.height).toBeGreaterThanOrEqual(24);
});
