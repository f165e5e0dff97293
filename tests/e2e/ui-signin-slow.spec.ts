// A slow sign-in says so: the form never sits on a silent "Signing in…" (under `next dev` the first
// sign-in waits for NextAuth's route to compile: docs/benchmarks/2026-11-28-dev-start.md). The
// credentials callback is held back in the browser for longer than the form waits before it speaks.
import { expect, test } from "@playwright/test";
import { createPerson, expectSignedInAs } from "./ui-helpers.ts";

test("signing in slowly: after 10 s the form says it is still signing in, then the sign-in completes", async ({ page, request }) => {
  test.setTimeout(60_000);
  const person = await createPerson(request, "slow_");
  await page.route("**/api/auth/callback/credentials", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    await route.continue();
  });
  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("button", { name: "Signing in…" })).toBeVisible();
  const slow = page.getByRole("status").filter({ hasText: "Still signing in" });
  await expect(slow).toBeHidden();
  await expect(slow).toBeVisible({ timeout: 11_500 });
  await page.waitForURL((url) => url.pathname === "/");
  await expectSignedInAs(page, person.username);
});
