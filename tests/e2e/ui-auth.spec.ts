// Sign-up and sign-in in the web UI: accounts are made by the same procedure as POST /api/v1/auth/register,
// sessions by NextAuth; the server's own messages appear next to the fields they name.
import { expect, test } from "@playwright/test";
import { createPerson, expectSignedInAs, PASSWORD, screenshot, signIn, unique } from "./ui-helpers.ts";

test("sign up: the server's rules show next to the fields, then the new account lands signed in", async ({ page, request }) => {
  const username = unique("newbie_");
  const email = `${username}@example.test`;
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill("weakpass");
  await page.getByRole("button", { name: "Create account" }).click();
  const password = page.getByLabel("Password", { exact: true });
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#" + (await password.getAttribute("aria-describedby"))!.split(" ").pop()!)).toContainText(
    "The password needs an uppercase letter and a digit.",
  );
  await screenshot(page, "signup-errors");

  // Nothing was created by the refused attempt.
  const lookup = await request.get(`/api/v1/profiles/${username}`);
  expect(lookup.status()).toBe(404);

  await page.getByLabel("Display name").fill("Newbie Person");
  await password.fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // A new account lands on the first-run welcome.
  await page.waitForURL("/welcome");
  await expectSignedInAs(page, username);
  const profile = await request.get(`/api/v1/profiles/${username}`);
  expect(profile.status()).toBe(200);
  expect((await profile.json()).display_name).toBe("Newbie Person");
  expect((await profile.json()).automated).toBe(false);
});

test("sign up as an automated account: the account says so", async ({ page, request }) => {
  const username = unique("robot_");
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("This account is automated").check();
  await page.getByRole("button", { name: "Create account" }).click();
  // A new account lands on the first-run welcome.
  await page.waitForURL("/welcome");
  const profile = await request.get(`/api/v1/profiles/${username}`);
  expect((await profile.json()).automated).toBe(true);
});

test("sign up: a taken username is reported at the username field", async ({ page, request }) => {
  const taken = await createPerson(request, "taken_");
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(`${unique("other_")}@example.test`);
  await page.getByLabel("Username").fill(taken.username.toUpperCase());
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("This username is taken. Please choose another.")).toBeVisible();
});

test("sign in with email and password, see it in the header, sign out", async ({ page, request }) => {
  const person = await createPerson(request, "signin_");
  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill("WrongPassword1");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // (Next's route announcer is an empty role="alert" too, hence the text.)
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toHaveText("Invalid email or password.");
  await screenshot(page, "signin");

  await signIn(page, person);
  await expectSignedInAs(page, person.username);
  // Signed-in pages work: bookmarks is reachable and the session is the NextAuth cookie.
  await page.getByRole("link", { name: "Bookmarks" }).click();
  await expect(page.getByRole("heading", { name: "Bookmarks", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("pages for signed-in people send visitors to sign in, and back afterwards", async ({ page, request }) => {
  const person = await createPerson(request, "back_");
  await page.goto("/claims/new");
  await expect(page).toHaveURL(/\/signin\?redirect_to=%2Fclaims%2Fnew/);
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("/claims/new");
  await expect(page.getByRole("heading", { name: "Submit a claim" })).toBeVisible();
});
