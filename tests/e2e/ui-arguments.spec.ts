// Arguments in the web UI (docs/features/arguments.md): build a three-level tree on the claim page,
// expand it a level at a time without a page load, rate relevance and watch the order change; the
// new-claim form lists similar claims while the person types.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, signIn, unique } from "./ui-helpers.ts";

test("a three-level argument tree: add, expand, rate relevance, and the order follows impact", async ({ page, request }) => {
  const author = await createPerson(request, "arguer_");
  const voter = await createPerson(request, "voter_");
  const root = await createClaim(request, author, { statement: `Cities should plant more street trees ${unique("r")}` });
  await signIn(page, author, `/claims/${root.id}`);

  const form = page.getByRole("form", { name: "Add an argument" });
  const first = `Trees cool streets by several degrees ${unique("a")}`;
  const second = `Trees reduce flooding after heavy rain ${unique("b")}`;
  for (const statement of [first, second]) {
    await form.getByLabel("The reason, as a claim of its own").fill(statement);
    await form.getByRole("button", { name: "Add as a new claim" }).click();
    await expect(form.getByRole("status")).toContainText(statement);
  }
  const supports = page.getByTestId(`arguments-supports-${root.id}`);
  await expect(supports.getByTestId("argument")).toHaveCount(2);

  // Two more levels under the first argument, through the API.
  const list = await api<{ arguments: { id: string; claim: { id: string; statement: string } }[] }>(request, author, "GET", `/claims/${root.id}/arguments`);
  const byStatement = (s: string) => list.body.arguments.find((a) => a.claim.statement === s)!;
  const level2 = await api<{ claim: { id: string } }>(request, author, "POST", `/claims/${byStatement(first).claim.id}/arguments`, {
    stance: "opposes",
    statement: `Street trees need water in dry summers ${unique("c")}`,
  });
  expect(level2.status).toBe(201);
  const level3Statement = `Rain gardens can water street trees ${unique("d")}`;
  expect((await api(request, author, "POST", `/claims/${level2.body.claim.id}/arguments`, { stance: "opposes", statement: level3Statement })).status).toBe(201);

  // Both children get votes, so their impact follows relevance alone.
  for (const a of list.body.arguments) expect((await api(request, voter, "POST", `/claims/${a.claim.id}/vote`, { value: 0.8 })).status).toBe(200);
  await page.reload();

  // Expand two levels without leaving the page.
  const url = page.url();
  const firstItem = supports.getByTestId("argument").filter({ hasText: first }).first();
  await firstItem.getByRole("button", { name: "Show the arguments under it" }).first().click();
  await expect(firstItem).toContainText("Street trees need water in dry summers");
  await firstItem.getByRole("button", { name: "Show the arguments under it" }).first().click(); // the first one now reads "Hide …"
  await expect(firstItem).toContainText(level3Statement);
  expect(page.url()).toBe(url);

  // Relevance by keyboard-usable selects: the second argument decisive, the first irrelevant …
  const relevanceOf = (statement: string) =>
    supports.locator(":scope > li").filter({ hasText: statement }).getByLabel("How much does it bear on the claim?").first();
  await relevanceOf(second).selectOption("1");
  await relevanceOf(first).selectOption("0");
  await expect(supports.locator(":scope > li").first()).toContainText(second);
  // … then the other way round: the order follows.
  await relevanceOf(first).selectOption("1");
  await relevanceOf(second).selectOption("0.25");
  await expect(supports.locator(":scope > li").first()).toContainText(first);
  await expect(page.getByTestId("arguments-balance")).toBeVisible();
});

test("the new-claim form lists similar claims while typing, with open and add-as-an-argument", async ({ page, request }) => {
  const author = await createPerson(request, "similar_");
  const word = unique("kelp").replace(/[^a-z]/g, "");
  const existing = await createClaim(request, author, { statement: `Giant ${word} forests store large amounts of carbon in the ocean.` });
  await signIn(page, author, "/claims/new");
  // The form is disabled until the page has hydrated; keys pressed before then would go nowhere.
  await expect(page.getByLabel("Statement")).toBeEnabled();
  await page.getByLabel("Statement").pressSequentially(`Giant ${word} forests store a lot of carbon`, { delay: 20 });
  const similar = page.getByTestId("similar-claims");
  await expect(similar).toContainText(existing.statement);
  await expect(similar.getByRole("link", { name: "Open" }).first()).toHaveAttribute("href", `/claims/${existing.id}`);
  await similar.getByRole("link", { name: "Add mine as an argument to it instead" }).first().click();
  await page.waitForURL(new RegExp(`/claims/${existing.id}`));
  await expect(page.getByLabel("The reason, as a claim of its own")).toHaveValue(`Giant ${word} forests store a lot of carbon`);
});
