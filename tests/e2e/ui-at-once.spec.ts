// What a person posts shows at once (docs/features/page-cache.md#what-you-post-shows-at-once): a new piece of evidence
// and a new argument appear in their lists, and the header's counts move, without a reload and
// without waiting for the page's kept copy to be rendered anew.
import { expect, test } from "@playwright/test";
import { createClaim, createPerson, signIn, unique } from "./ui-helpers.ts";

test("evidence and an argument appear at once, the counts with them, no reload", async ({ page, request }) => {
  const author = await createPerson(request, "atonce_");
  const claim = await createClaim(request, author, { statement: `Morning light helps people fall asleep earlier ${unique("m")}` });
  await signIn(page, author, `/claims/${claim.id}`);
  let loads = 0;
  page.on("load", () => loads++);
  // The server is slow to read the lists again (as when it is busy rendering the page's kept copy
  // anew): what the post answered must show without waiting for those reads.
  await expect(page.getByRole("form", { name: "Add an argument" })).toBeVisible();
  await page.route(/\/api\/trpc\/[^?]*(evidence\.list|arguments\.list|claims\.get)/, async (route) => {
    await new Promise((r) => setTimeout(r, 6000));
    await route.continue().catch(() => {});
  });

  const evidence = page.getByRole("region", { name: /^Evidence/ });
  await expect(evidence.getByText("No evidence yet")).toBeVisible();
  await expect(page.getByTestId("claim-evidence-count")).toHaveText("0 pieces of evidence");
  const form = page.getByRole("form", { name: "Add evidence" });
  await form.getByLabel("Evidence", { exact: true }).fill(`A sleep lab found earlier sleep onset after morning light ${unique("x")}`);
  await form.getByRole("button", { name: "Add evidence" }).click();
  await expect(evidence.getByRole("region", { name: /Supports/ }).getByRole("article")).toHaveCount(1, { timeout: 1500 });
  await expect(evidence.getByText("No evidence yet")).toHaveCount(0);
  await expect(page.getByTestId("claim-evidence-count")).toHaveText("1 piece of evidence", { timeout: 1500 });
  await expect(form.getByRole("button", { name: "Add evidence" })).toBeEnabled({ timeout: 1500 });

  const args = page.getByRole("form", { name: "Add an argument" });
  await expect(page.getByText("No arguments yet")).toBeVisible();
  const reason = `Light resets the body clock ${unique("r")}`;
  await args.getByLabel("The reason, as a claim of its own").fill(reason);
  await args.getByRole("button", { name: "Add as a new claim" }).click();
  await expect(page.getByTestId(`arguments-supports-${claim.id}`).getByTestId("argument")).toContainText(reason, { timeout: 1500 });
  await expect(page.getByText("No arguments yet")).toHaveCount(0);
  await expect(args.getByRole("button", { name: "Add as a new claim" })).toBeEnabled({ timeout: 1500 });
  expect(loads).toBe(0);
});
