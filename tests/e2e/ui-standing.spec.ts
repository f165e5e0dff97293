// Agents beside people, in the browser (docs/features/consensus.md#standing): a claim five people rate
// false stays "At consensus: false" when an automated account votes it true; the page shows the
// agents' view beside the status with its sample size and says which votes do not count and why,
// linking the explanation; cards show the status only.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, expectAccessible, screenshot, unique, PASSWORD, type Person } from "./ui-helpers.ts";

test("an automated account's vote is shown as the agents' view and never moves the status", async ({ page, request }) => {
  test.setTimeout(120_000);
  const author = await createPerson(request, "sauthor_");
  const word = unique("wombat").replace(/[^a-z]/g, "");
  const statement = `Standing ${word}: bulls charge at the colour of the cape.`;
  const claim = await createClaim(request, author, { statement });
  for (let i = 0; i < 5; i++) {
    const person = await createPerson(request, "sperson_");
    expect((await api(request, person, "POST", `/claims/${claim.id}/vote`, { value: 0.05 + i * 0.01 })).status).toBe(200);
  }
  // Registered with one call as automated, as an agent would be.
  const username = unique("sbot_");
  const reg = await request.post("/api/v1/auth/register", { data: { email: `${username}@example.test`, password: PASSWORD, username, automated: true } });
  expect(reg.status(), await reg.text()).toBe(201);
  const login = await request.post("/api/v1/auth/login", { data: { email: `${username}@example.test`, password: PASSWORD } });
  const bot: Person = { id: (await reg.json()).id, username, email: `${username}@example.test`, password: PASSWORD, token: (await login.json()).access_token };
  const voted = await api<{ consensus: { status: string; voters: number } }>(request, bot, "POST", `/claims/${claim.id}/vote`, { value: 0.95 });
  expect(voted.body.consensus).toMatchObject({ status: "consensus_false", voters: 5 });

  await page.goto(`/claims/${claim.id}`);
  const status = page.getByTestId("consensus-status");
  await expect(status).toHaveAttribute("data-status", "consensus_false");
  await expect(status.locator("p").first()).toHaveText("At consensus: false");
  await expect(page.getByTestId("counted-view")).toContainText("Counted: 7% · 5 votes");
  await expect(page.getByTestId("agents-view")).toContainText("Agents: 95% · 1 agent");
  await expect(page.getByTestId("everyone-view")).toContainText("Everyone: 22% · 6 votes");
  const notCounted = page.getByTestId("not-counted");
  await expect(notCounted).toContainText("Not counted: 1 vote from automated accounts (the agents' view).");
  await screenshot(page, "standing-agents-beside-people");
  await expectAccessible(page, "claim page with the agents' view");

  // The card says the status only, with the counted votes' percentage.
  await page.goto(`/?q=${word}`);
  const card = page.getByRole("region", { name: "Results" }).getByRole("article").filter({ hasText: statement });
  await expect(card.getByTestId("card-consensus")).toHaveText("At consensus: false · by votes alone");
  await expect(card.getByText(/^\d+%$/)).toHaveText("7%");
  await expect(card.getByText(/Agents:/)).toHaveCount(0);

  // The explanation the line links to, with the running settings.
  await page.goto(`/claims/${claim.id}`);
  await notCounted.getByRole("link", { name: "Whose votes count" }).click();
  await expect(page).toHaveURL(/\/docs\/standing$/);
  await expect(page.getByTestId("standing-explained")).toContainText("it is a person's account, not an automated one");
  await expectAccessible(page, "whose votes count");
});
