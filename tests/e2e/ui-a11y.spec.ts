// An axe-core scan (WCAG 2.1 A and AA) of every page, signed out and signed in: no serious or critical
// violation. Each page is also kept as a screenshot (test-results/screenshots).
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, expectAccessible, screenshot, signIn, unique } from "./ui-helpers.ts";

test("every page passes axe, signed out and signed in", async ({ page, request }) => {
  // Seventeen pages, each loaded, scanned and photographed: minutes on a busy machine.
  test.setTimeout(420_000);
  const author = await createPerson(request, "a11yauthor_");
  const reader = await createPerson(request, "a11yreader_");
  const tag = "accessibility";
  const parent = await createClaim(request, author, { statement: `Accessibility ${unique("a")}: captions help everyone follow videos.`, tags: [tag, "media"] });
  const claim = await createClaim(request, author, {
    statement: `Accessibility ${unique("b")}: high-contrast text is easier to read for most people.`,
    tags: [tag],
    parent_ids: [parent.id],
    complexity_tier: "moderate",
  });
  await api(request, reader, "POST", `/claims/${claim.id}/vote`, { value: 0.8 });
  await api(request, reader, "POST", `/claims/${claim.id}/evidence`, { position: "supports", content_type: "link", content: "https://example.org/contrast" });
  await api(request, reader, "POST", `/claims/${claim.id}/evidence`, { position: "neutral", content_type: "code", content: "contrast(#000, #fff) = 21" });
  await api(request, reader, "POST", `/claims/${claim.id}/comments`, { content: "Depends on the lighting, too." });
  await api(request, reader, "POST", `/claims/${claim.id}/bookmark`);
  await api(request, reader, "POST", `/claims/${claim.id}/follow`);

  const publicPages: [string, string][] = [
    ["/", "explore"],
    [`/claims/${claim.id}`, "claim"],
    [`/topics/${tag}`, "topic"],
    ["/discover", "discover"],
    ["/calibration", "calibration"],
    [`/profiles/${author.username}`, "profile"],
    ["/signin", "signin-page"],
    ["/signup", "signup"],
    ["/docs/api", "api-docs"],
    ["/nowhere-at-all", "not-found"],
  ];
  for (const [path, name] of publicPages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // Swagger UI builds its operations from the OpenAPI document after loading a large script.
    if (name === "api-docs") await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, path);
    await screenshot(page, `${name}-signed-out`);
  }

  await signIn(page, reader);
  const signedInPages: [string, string][] = [
    ["/", "explore-signed-in"],
    [`/claims/${claim.id}`, "claim-signed-in"],
    ["/claims/new", "new-claim-empty"],
    ["/discover", "discover-signed-in"],
    ["/bookmarks", "bookmarks-list"],
    ["/following", "following-list"],
    [`/profiles/${reader.username}`, "profile-own"],
  ];
  for (const [path, name] of signedInPages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expectAccessible(page, path);
    await screenshot(page, name);
  }
});

test("keyboard: the skip link is the first stop and moves focus to the content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});
