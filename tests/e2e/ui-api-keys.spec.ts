// API keys in the web UI (/settings/api-keys): create one, see it once with a warning and copy it,
// find it in the list by its prefix, use it against the REST API, revoke it after confirming — and
// the revoked key is refused.
import { expect, test } from "@playwright/test";
import { createPerson, expectAccessible, screenshot, signIn, unique } from "./ui-helpers.ts";

test("create → shown once → copy → list → revoke", async ({ page, request, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const person = await createPerson(request, "keys_");
  await signIn(page, person);
  await page.getByRole("banner").getByRole("link", { name: "Settings", exact: true }).click();
  await page.waitForURL("**/settings");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await page.waitForURL("**/settings/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("No keys yet")).toBeVisible();

  // A name is required: the server's message appears next to the field.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("The name must be 1 to 100 characters long.")).toBeVisible();

  const name = unique("crawler-");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: /vote/ }).check();
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Create key" }).click();

  // Shown once, with the warning and a copy button.
  await expect(page.getByRole("alert").filter({ hasText: "shown only once" })).toBeVisible();
  const keyField = page.getByLabel("Your new API key");
  const key = await keyField.inputValue();
  expect(key).toMatch(/^clm_[0-9A-Za-z]{40}$/);
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page, "API keys with a new key");
  await screenshot(page, "api-keys-created");

  // The list shows the prefix, scopes and expiry — never the key.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`${key.slice(0, 12)}…`);
  await expect(row).toContainText("read, vote");
  await expect(row).toContainText("Never"); // last used
  await page.getByRole("button", { name: "Done" }).click();
  await expect(keyField).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
  await page.reload();
  expect(await page.content()).not.toContain(key);

  // The key works against the REST API as this person, within its scopes.
  const me = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).id).toBe(person.id);
  const write = await request.post("/api/v1/claims", { headers: { Authorization: `Bearer ${key}` }, data: { statement: "Keys without write cannot do this." } });
  expect(write.status()).toBe(403);

  // Revoke: a confirmation first; cancel keeps the key.
  await page.reload();
  const listed = page.getByRole("row").filter({ hasText: name });
  // The calls above are its last use now.
  await expect(listed.getByRole("cell").nth(3).locator("time")).toBeVisible();
  await listed.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(listed.getByText("Programs using it stop working at once")).toBeVisible();
  await listed.getByRole("button", { name: "Cancel" }).click();
  expect((await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  await listed.getByRole("button", { name: `Revoke ${name}` }).click();
  await listed.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  await expect(page.getByText("No keys yet")).toBeVisible();
  await screenshot(page, "api-keys-revoked");

  const after = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});

test("signed out, the page sends you to sign in", async ({ page }) => {
  await page.goto("/settings/api-keys");
  await page.waitForURL(/\/signin\?redirect_to=%2Fsettings%2Fapi-keys/);
});
