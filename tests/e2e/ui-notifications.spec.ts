// Following in the web UI (docs/features/following.md): the header's bell counts unread threads, the inbox lists them
// and marks them read (one and all); the webhooks page creates an endpoint (secret shown once), sends a
// test ping and shows its delivery, redelivers, rotates the secret and deletes the endpoint.
import { expect, test } from "@playwright/test";
import { startReceiver } from "../helpers/webhook-receiver.ts";
import { api, createClaim, createPerson, expectAccessible, screenshot, signIn, unique } from "./ui-helpers.ts";

test("one person follows, another votes and comments: the bell counts it, the inbox shows the thread, mark read", async ({ page, request }) => {
  const author = await createPerson(request, "inauthor_");
  const follower = await createPerson(request, "follower_");
  const actor = await createPerson(request, "actor_");
  const first = await createClaim(request, author, { statement: `Inbox test ${unique("i")}: green tea keeps you awake like coffee.` });
  const second = await createClaim(request, author, { statement: `Inbox test ${unique("j")}: cold water boils faster than hot.` });

  await signIn(page, follower, `/claims/${first.id}`);
  await page.getByRole("button", { name: "Follow" }).click();
  await expect(page.getByRole("button", { name: "Unfollow" })).toBeVisible();
  expect((await api(request, follower, "POST", `/claims/${second.id}/follow`)).status).toBe(200);
  await expect(page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();

  expect((await api(request, actor, "POST", `/claims/${first.id}/vote`, { value: 0.8 })).status).toBe(200);
  expect((await api(request, actor, "POST", `/claims/${first.id}/comments`, { content: "I drink it at night and sleep fine." })).status).toBe(201);
  expect((await api(request, actor, "POST", `/claims/${second.id}/vote`, { value: 0.1 })).status).toBe(200);

  // The fan-out runs in the background: the bell shows it once it has (a reload looks again).
  await expect(async () => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Notifications (2 unread)" })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("notification-count")).toHaveText("2");

  await page.getByRole("link", { name: "Notifications (2 unread)" }).click();
  await page.waitForURL("**/notifications");
  await expect(page.getByRole("heading", { name: "2 unread threads" })).toBeVisible();
  const thread = page.getByTestId("notification").filter({ hasText: first.statement });
  await expect(thread).toContainText("New: 1 vote, 1 comment");
  await expectAccessible(page, "inbox");
  await screenshot(page, "inbox");

  await page.getByRole("button", { name: `Mark read: ${first.statement}` }).click();
  await expect(thread).toContainText("Read");
  await expect(page.getByRole("heading", { name: "1 unread thread" })).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveText("1");

  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByRole("heading", { name: "All read" })).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
  const inbox = await api<{ unread_count: number; total: number }>(request, follower, "GET", "/notifications");
  expect(inbox.body).toMatchObject({ unread_count: 0, total: 2 });
});

test("webhooks: create (secret shown once), test ping and its delivery, redeliver, rotate the secret, delete", async ({ page, request }) => {
  const owner = await createPerson(request, "hooker_");
  const receiver = await startReceiver();
  try {
    await signIn(page, owner, "/settings/webhooks");
    await expect(page.getByText("No endpoints yet.")).toBeVisible();

    const form = page.getByRole("form", { name: "Add an endpoint" });
    await form.getByLabel("URL").fill("ftp://example.com/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByText(/The address must be an https:\/\/ URL/)).toBeVisible();

    await form.getByLabel("URL").fill(receiver.url);
    await form.getByLabel("claim.commented").uncheck();
    await form.getByLabel("ping").check();
    await form.getByLabel("Description (optional)").fill("UI test receiver");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await expectAccessible(page, "webhooks");
    await screenshot(page, "webhooks-created");
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

    const hook = page.getByTestId("webhook").filter({ hasText: receiver.url });
    await expect(hook).toContainText(
      "claim.voted, claim.evidence_added, claim.resolved, claim.argument_added, claim.outcome_proposed, claim.outcome_disputed, claim.outcome_final, ping",
    );
    await hook.getByRole("button", { name: "Send test ping" }).click();
    await receiver.waitFor((all) => all.some((r) => r.body?.type === "ping" && r.verified));
    await expect(hook.getByTestId("delivery").first()).toContainText("succeeded");
    await expect(hook.getByTestId("delivery").first()).toContainText("200");

    await hook.getByTestId("delivery").first().getByRole("button", { name: "Redeliver" }).click();
    await receiver.waitFor((all) => all.filter((r) => r.body?.type === "ping").length >= 2);
    const pings = receiver.received.filter((r) => r.body?.type === "ping");
    expect(pings[1].id).toBe(pings[0].id);
    await expect(hook.getByTestId("delivery")).toHaveCount(2);

    await hook.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = await page.getByTestId("webhook-secret").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole("button", { name: "Done" }).click();

    await hook.getByRole("button", { name: "Delete" }).click();
    await hook.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByText("No endpoints yet.")).toBeVisible();
    expect((await api<{ webhooks: unknown[] }>(request, owner, "GET", "/webhooks")).body.webhooks).toEqual([]);
  } finally {
    await receiver.close();
  }
});
