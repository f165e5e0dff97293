// Profiles: the numbers, the learning score with its insight, and the two charts (activity per day for
// 7/30/90 days, and the reputation journey) drawn from the profile procedures.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, screenshot, unique } from "./ui-helpers.ts";

test("a profile shows stats, learning score, and renders the activity and reputation charts", async ({ page, request }) => {
  const person = await createPerson(request, "profiled_");
  const other = await createPerson(request, "fan_");
  const claim = await createClaim(request, person, { statement: `Profile test ${unique("p")}: tea has more caffeine than coffee.`, tags: ["drinks"] });
  const theirs = await createClaim(request, other, { statement: `Profile test ${unique("q")}: green tea lowers blood pressure.`, tags: ["drinks"] });
  expect((await api(request, person, "POST", `/claims/${theirs.id}/vote`, { value: 0.7 })).status).toBe(200);
  const evidence = await api<{ id: string }>(request, person, "POST", `/claims/${claim.id}/evidence`, {
    position: "supports",
    content_type: "text",
    content: "Per leaf weight, tea has more caffeine.",
  });
  expect(evidence.status).toBe(201);
  expect((await api(request, other, "POST", `/evidence/${evidence.body.id}/vote`, { direction: "up" })).status).toBe(200);

  await page.goto(`/profiles/${person.username}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(person.username.slice(1, 8));
  const contributions = page.getByRole("region", { name: "Contributions" });
  await expect(contributions.getByRole("definition").nth(0)).toHaveText("1"); // claims
  await expect(contributions.getByRole("definition").nth(1)).toHaveText("1"); // evidence
  await expect(contributions.getByRole("definition").nth(2)).toHaveText("1"); // votes
  await expect(page.getByTestId("reputation-score")).toHaveText("5");
  await expect(page.getByTestId("learning-score")).toHaveText("0.50");
  await expect(page.getByRole("region", { name: "Learning score" })).toContainText("No resolved votes yet.");

  // Activity: stacked bars, one group per day; the period switch reloads it.
  const activity = page.getByTestId("activity-chart");
  await expect(activity.getByRole("img", { name: "Activity per day, last 30 days" })).toBeVisible();
  await expect(activity.getByTestId("activity-day").locator('rect[fill^="var(--series"]').first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Activity" })).toContainText("Last 30 days: 1 claim, 1 piece of evidence, 1 vote, 0 comments.");
  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Activity" })).toContainText("Last 7 days:");
  const ticks = await activity.getByTestId("x-tick").count();
  expect(ticks).toBeGreaterThan(0);
  expect(ticks).toBeLessThanOrEqual(8);

  // Reputation journey: the +5 of the up-voted evidence.
  const journey = page.getByTestId("reputation-chart");
  await expect(journey.getByRole("img", { name: "Reputation after each change" })).toBeVisible();
  await expect(journey.getByTestId("reputation-line")).toBeVisible();
  await expect(page.getByRole("region", { name: "Reputation journey" })).toContainText("latest: Evidence voted up (+5). Now 5.");
  await screenshot(page, "profile");

  // By id too; an unknown name is a not-found page.
  await page.goto(`/profiles/${person.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.goto(`/profiles/${unique("nobody_")}`);
  await expect(page.getByRole("heading", { name: "Profile not found" })).toBeVisible();
});
