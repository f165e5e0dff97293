// Accounts people manage, end to end in Chromium (docs/features/accounts.md): the welcome after
// sign-up, email verification and password reset through mail read from a real SMTP server (the link
// followed in the browser), profile and password in /settings, sign-out that ends the session on the
// server, sign out everywhere, the export download, and account deletion.
import { readFile } from "node:fs/promises";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createClaim, createPerson, expectAccessible, expectSignedInAs, mailedLink, PASSWORD, screenshot, signIn, unique } from "./ui-helpers.ts";

/** auth.me through the web tRPC endpoint with exactly these cookies: what a copied cookie gets. */
async function meWithCookies(page: Page, context: BrowserContext): Promise<number> {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await page.request.fetch(`/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { cookie } });
  return res.status();
}

test("sign up → welcome → verify the email from the mailed link", async ({ page }) => {
  const username = unique("welcome_");
  const email = `${username}@example.test`;
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("/welcome");
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
  const steps = page.getByTestId("welcome-steps");
  await expect(steps.getByRole("heading", { level: 2 })).toHaveText(["Verify your email", "Vote on a claim", "Post your first claim"]);
  await expectAccessible(page, "welcome");
  await screenshot(page, "welcome");

  const since = Date.now();
  await page.getByRole("button", { name: "Send verification link" }).click();
  await expect(page.getByRole("status")).toContainText(`We sent a link to ${email}`);
  const link = await mailedLink(email, /Verify your email/, "/verify-email", since);
  await page.goto(link);
  await page.getByRole("button", { name: "Verify my email address" }).click();
  await expect(page.getByRole("status")).toContainText("Your email address is verified");
  await page.goto("/settings");
  await expect(page.getByTestId("email-status")).toHaveText("Verified");
  // The link works once.
  await page.goto(link);
  await page.getByRole("button", { name: "Verify my email address" }).click();
  await expect(page.getByText("This link does not work any more")).toBeVisible();
});

test("forgot password → mailed link → new password → sign in with it", async ({ page, request }) => {
  const person = await createPerson(request, "forgot_");
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL("/forgot-password");
  const since = Date.now();
  await page.getByLabel("Email").fill(person.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status")).toContainText("a link to choose a new password is on its way");
  const link = await mailedLink(person.email, /Reset your password/, "/reset-password", since);
  await page.goto(link);
  await page.getByLabel("New password").fill("weakpass");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByLabel("New password")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("New password").fill("Renewed123");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password has been changed");
  await screenshot(page, "reset-password-done");
  await signIn(page, { email: person.email, password: "Renewed123" });
  await expectSignedInAs(page, person.username);
});

test("settings: profile, password, export", async ({ page, request }) => {
  const person = await createPerson(request, "settings_");
  await createClaim(request, person, { statement: `Settings export holds my claim ${unique("")}` });
  await signIn(page, person);
  await page.getByRole("banner").getByRole("link", { name: "Settings", exact: true }).click();
  await page.waitForURL("/settings");
  await expectAccessible(page, "settings");
  await screenshot(page, "settings");

  await page.getByLabel("Display name").fill("Renamed Person");
  await page.getByLabel(/^Bio/).fill("I weigh claims for a living.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  const profile = await (await request.get(`/api/v1/profiles/${person.username}`)).json();
  expect(profile).toMatchObject({ display_name: "Renamed Person", bio: "I weigh claims for a living." });

  await page.getByLabel("Current password").fill("Wrong1234");
  await page.getByLabel("New password").fill("Changed123");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The current password is not right.")).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed.")).toBeVisible();
  // This session goes on.
  await page.reload();
  await expectSignedInAs(page, person.username);
  expect((await request.post("/api/v1/auth/login", { data: { email: person.email, password: "Changed123" } })).status()).toBe(200);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).click();
  const file = await (await download).path();
  const exported = JSON.parse(await readFile(file, "utf8"));
  expect(exported.account).toMatchObject({ username: person.username, display_name: "Renamed Person" });
  expect(exported.claims).toHaveLength(1);
});

test("sign out ends the session on the server: a copied cookie stops working", async ({ page, context, request }) => {
  const person = await createPerson(request, "signout_");
  await signIn(page, person);
  const copied = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  expect(await meWithCookies(page, context)).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  const replay = await request.fetch(`/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { cookie: copied } });
  expect(replay.status()).toBe(401);
});

test("sign out everywhere ends the other browser's session too", async ({ browser, request }) => {
  const person = await createPerson(request, "everywhere_");
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, person);
  expect(await meWithCookies(otherPage, other)).toBe(200);

  const mine = await browser.newContext();
  const page = await mine.newPage();
  await signIn(page, person, "/settings");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
  await page.waitForURL("/signin");
  expect(await meWithCookies(otherPage, other)).toBe(401);
  await otherPage.goto("/settings");
  await otherPage.waitForURL(/\/signin/);
  await other.close();
  await mine.close();
});

test("delete the account: gone, its claim stays under “Deleted account”", async ({ page, request }) => {
  const person = await createPerson(request, "leaving_");
  const claim = await createClaim(request, person, { statement: `A claim outliving its author ${unique("")}` });
  await signIn(page, person, "/settings");
  await page.getByLabel("Your password, to confirm").fill("Wrong1234");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("The password is not right.")).toBeVisible();
  await page.getByLabel("Your password, to confirm").fill(PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(/\/\?account=deleted/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  expect((await request.get(`/api/v1/profiles/${person.id}`)).status()).toBe(404);
  expect((await request.post("/api/v1/auth/login", { data: { email: person.email, password: PASSWORD } })).status()).toBe(401);
  await page.goto(`/claims/${claim.id}`);
  await expect(page.getByText("Deleted account").first()).toBeVisible();
});
