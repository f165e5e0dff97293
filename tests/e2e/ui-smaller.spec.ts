// The smaller things people noticed (docs/features/friction.md#home-on-a-phone, #smaller-things): a claim
// above the fold on a phone's home page, every chart that takes the keyboard named, deleting with an
// empty password asks for it, and "Not verified" as written.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, expectAccessible, screenshot, signIn, unique } from "./ui-helpers.ts";

test("on a phone the home page shows a claim above the fold; the filters open on demand", async ({ page, request }) => {
  const author = await createPerson(request, "fold_");
  await createClaim(request, author, { statement: `Above the fold ${unique("f")}: sea otters hold hands while sleeping.` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const firstClaim = page.getByRole("region", { name: "Results" }).getByRole("listitem").first();
  await expect(firstClaim).toBeVisible();
  const box = (await firstClaim.boundingBox())!;
  expect(box.y).toBeLessThan(844 - 40);
  // The filters are one tap away, and work.
  await expect(page.locator("#tags")).toBeHidden();
  await page.getByText("Filters and sort").click();
  await expect(page.locator("#tags")).toBeVisible();
  await screenshot(page, "home-phone");
  // Set filters open the fold on arrival.
  await page.goto("/?tags=otters");
  await expect(page.locator("#tags")).toHaveValue("otters");
  await expect(page.locator("#tags")).toBeVisible();

  // On a desktop the filters show as before, with no fold to open.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.locator("#tags")).toBeVisible();
  await expect(page.getByText("Filters and sort")).toBeHidden();
  await expectAccessible(page, "home");
});

test("every chart has a name, and its numbers are in a table a keyboard reaches", async ({ page, request }) => {
  const person = await createPerson(request, "charts_");
  const other = await createPerson(request, "chartsby_");
  const claim = await createClaim(request, other, { statement: `Charts test ${unique("c")}: koalas sleep 20 hours a day.` });
  const vote = await api(request, person, "POST", `/claims/${claim.id}/vote`, { value: 0.7 });
  expect(vote.status, JSON.stringify(vote.body)).toBe(200);
  for (const path of [`/profiles/${person.username}`, `/claims/${claim.id}`]) {
    await page.goto(path);
    const charts = page.locator("figure svg[role=img]");
    await charts.first().waitFor();
    const count = await charts.count();
    expect(count, path).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) await expect(charts.nth(i), `${path}: chart ${i} has no name`).toHaveAccessibleName(/\S/);
  }
  await page.goto(`/profiles/${person.username}`);
  await expect(page.getByRole("img", { name: /Activity per day, last 30 days/ })).toHaveCount(1);
  // The day's figures: the fold opens from the keyboard and shows the table.
  const activity = page.getByRole("region", { name: "Activity" });
  await activity.getByText("The numbers").focus();
  await page.keyboard.press("Enter");
  const table = activity.getByRole("table", { name: /Activity per day, last 30 days/ });
  await expect(table).toBeVisible();
  // A header and a row per day of the 30.
  expect(await table.getByRole("row").count()).toBeGreaterThan(28);
});

test("deleting with an empty password asks for it; the email badge says Not verified", async ({ page, request }) => {
  const person = await createPerson(request, "emptypw_");
  await signIn(page, person, "/settings");
  await expect(page.getByTestId("email-status")).toHaveText("Not verified");
  await expect(page.getByTestId("email-status")).toHaveCSS("text-transform", "none");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Enter your password to confirm.")).toBeVisible();
  await expect(page.getByText("The password is not right.")).toHaveCount(0);
  await page.getByLabel("Your password, to confirm").fill("Wrong1234");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("The password is not right.")).toBeVisible();
  expect((await request.get(`/api/v1/profiles/${person.id}`)).status()).toBe(200);
});
