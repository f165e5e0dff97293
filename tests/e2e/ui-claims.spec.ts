// Claims in the web UI: create one, find it, vote and watch the gradient move, bring evidence and vote
// on it, bookmark, follow and discuss. Every action goes through the same procedures as /api/v1, so the
// tests check the result through the REST API too.
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, gradientValue, screenshot, signIn, unique, type ClaimOut } from "./ui-helpers.ts";

test("create a claim: the server's detail shows at the field, then the claim page renders it server-side", async ({ page, request }) => {
  const author = await createPerson(request, "author_");
  const parent = await createClaim(request, author, { statement: `Parent claim ${unique("p")} about tides and the moon`, tags: ["tides"] });
  await signIn(page, author, "/claims/new");

  await page.getByLabel("Statement").fill("Too short");
  await page.getByRole("button", { name: "Submit claim" }).click();
  await expect(page.getByLabel("Statement")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("The statement must be 10 to 5000 characters long.")).toBeVisible();

  const statement = `The moon causes ocean tides ${unique("c")} on Earth.`;
  await page.getByLabel("Statement").fill(statement);
  await page.getByLabel("Tags").fill(`Tides, ${"x".repeat(51)}`);
  await page.getByRole("button", { name: "Submit claim" }).click();
  await expect(page.getByText("Each tag can use letters, digits, “-” and “_”, up to 50 characters.")).toBeVisible();
  await page.getByLabel("Tags").fill("Tides, astronomy");
  await page.getByLabel("Complexity").selectOption("moderate");
  await page.getByLabel("Search for a parent claim").fill("tides moon");
  await page.getByRole("button", { name: `Link parent claim: ${parent.statement}` }).click();
  await expect(page.getByRole("list", { name: "Chosen parent claims" })).toContainText(parent.statement);
  await screenshot(page, "new-claim");
  await page.getByRole("button", { name: "Submit claim" }).click();

  await page.waitForURL(/\/claims\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(statement);
  await expect(page.getByRole("link", { name: "#tides" }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Builds on" })).toContainText(parent.statement);
  await expect(page.getByText("This is your claim.")).toBeVisible();

  // Server-rendered: the statement is in the HTML itself.
  const html = await (await request.get(`/claims/${id}`)).text();
  expect(html).toContain(statement);
  const stored = await request.get(`/api/v1/claims/${id}`);
  expect(await stored.json()).toMatchObject({ statement, tags: ["tides", "astronomy"], complexity_tier: "moderate", parent_ids: [parent.id] });

  // The parent lists it as a sub-claim.
  await page.goto(`/claims/${parent.id}`);
  await expect(page.getByRole("region", { name: /Sub-claims/ })).toContainText(statement);
});

test("search and filter claims on Explore", async ({ page, request }) => {
  const author = await createPerson(request, "searcher_");
  const word = unique("zebra").replace(/[^a-z]/g, "");
  const tag = unique("t").replace(/[^a-z0-9]/g, "");
  const match = await createClaim(request, author, { statement: `Striped ${word} animals outrun lions over long distances.`, tags: [tag] });
  await createClaim(request, author, { statement: `Unrelated claim about ${unique("x")} weather patterns in spring.` });

  await page.goto("/");
  await expect(page.getByRole("region", { name: "Trending now" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search claims" }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  const results = page.getByRole("region", { name: "Results" });
  await expect(results.getByRole("article")).toHaveCount(1);
  await expect(results.getByRole("link", { name: match.statement })).toBeVisible();
  await screenshot(page, "explore-search");

  // A tag filter and a gradient range narrow the list; an invalid range is explained at the field.
  await page.goto(`/?tags=${tag}&min_gradient=0.4&max_gradient=0.6`);
  await expect(results.getByRole("article")).toHaveCount(1);
  await page.goto(`/?q=a`);
  await expect(page.getByRole("searchbox", { name: "Search claims" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("The search text must be 2 to 200 characters long.")).toBeVisible();
  await page.goto(`/?min_gradient=0.9&max_gradient=0.1`);
  await expect(page.getByText("The lowest gradient must not be above the highest.")).toBeVisible();
  await page.goto(`/?q=${unique("nothingmatches")}`);
  await expect(page.getByRole("heading", { name: "No claims match these filters" })).toBeVisible();
});

test("vote with the slider, see the gradient move, change and remove the vote", async ({ page, request }) => {
  const author = await createPerson(request, "claimant_");
  const voter = await createPerson(request, "voter_");
  const claim = await createClaim(request, author, { statement: `Vote test ${unique("v")}: bread rises faster in a warm kitchen.` });
  await signIn(page, voter, `/claims/${claim.id}`);

  // No votes: the status in words, no needle, no percentage, and nothing reads as a vote of 50%.
  const status = page.getByTestId("consensus-status");
  await expect(status).toHaveAttribute("data-status", "no_votes");
  await expect(status).toContainText("No votes yet");
  await expect(gradientValue(page)).toHaveCount(0);
  await expect(page.getByText("No votes yet: the history starts with the first vote.")).toBeVisible();
  const slider = page.getByRole("slider", { name: /Your vote/ });
  await expect(page.getByTestId("slider-value")).toHaveText("not cast yet");
  await expect(page.getByTestId("vote-state")).toHaveText("You have not voted yet. Move the slider, then cast your vote.");
  await expect(page.getByText("Your vote: 50%")).toHaveCount(0);
  // Where the person votes: why one vote moves the number a little, with their own weight (reputation 0).
  await expect(page.getByTestId("vote-weight")).toContainText("Your votes count 0.10 (reputation 0)");

  await slider.fill("0.9");
  await expect(page.getByText("Your vote: 90% true")).toBeVisible();
  await expect(page.getByTestId("vote-state")).toHaveText("Not saved yet: cast your vote to save 90%.");
  await page.getByRole("button", { name: "Cast vote" }).click();
  // The confirmation is on screen (not only for screen readers), and the focus stays on the control.
  const confirmation = page.getByTestId("vote-confirmation");
  await expect(confirmation).toHaveText("Vote saved: 90% true.");
  await expect(confirmation).toBeVisible();
  await expect(page.getByRole("button", { name: "Update vote" })).toBeFocused();
  // One vote is too few to call: no percentage as a verdict; the label and the saved vote agree.
  await expect(status).toHaveAttribute("data-status", "too_few_votes");
  await expect(status).toContainText("1 vote so far — too few to call");
  await expect(gradientValue(page)).toHaveCount(0);
  await expect(page.getByTestId("vote-state")).toHaveText("Your current vote: 90%.");
  await expect(page.getByTestId("slider-value")).toHaveText("90% true");
  await expect(page.getByTestId("own-vote-marker")).toHaveText("▲ you");
  await expect(page.getByTestId("gradient-history-chart").getByRole("img", { name: "How the gauge moved over time" })).toBeVisible();
  // One vote: one point, a flat line across (no height, so "attached" rather than "visible").
  await expect(page.getByTestId("gradient-history-chart").getByTestId("gradient-line")).toHaveCount(1);
  expect((await api<ClaimOut>(request, voter, "GET", `/claims/${claim.id}`)).body).toMatchObject({
    gradient: 0.9,
    vote_count: 1,
    user_vote: 0.9,
    consensus: { status: "too_few_votes", voters: 1, decided_by: null },
  });
  await screenshot(page, "claim-voted");

  // A moved slider says it is not saved yet, beside the saved vote; saving makes them one again.
  await slider.fill("0.2");
  await expect(page.getByTestId("vote-state")).toHaveText("Your current vote: 90%. Not saved yet: 20%.");
  await expect(confirmation).toHaveText("");
  await page.getByRole("button", { name: "Update vote" }).click();
  await expect(confirmation).toHaveText("Vote saved: 20% true.");
  await expect(page.getByTestId("vote-state")).toHaveText("Your current vote: 20%.");
  await page.reload();
  await expect(page.getByTestId("vote-state")).toHaveText("Your current vote: 20%.");
  await expect(page.getByTestId("slider-value")).toHaveText("20% true");
  expect((await api<ClaimOut>(request, voter, "GET", `/claims/${claim.id}`)).body).toMatchObject({ gradient: 0.2, user_vote: 0.2 });

  await page.getByRole("button", { name: "Remove vote" }).click();
  await expect(confirmation).toHaveText("Your vote was removed.");
  // The pressed button is gone: the focus is on the slider, not lost.
  await expect(slider).toBeFocused();
  await expect(status).toHaveAttribute("data-status", "no_votes");
  await expect(page.getByTestId("slider-value")).toHaveText("not cast yet");
  await expect(page.getByTestId("own-vote-marker")).toHaveCount(0);
  expect((await api<ClaimOut>(request, voter, "GET", `/claims/${claim.id}`)).body).toMatchObject({ gradient: 0.5, vote_count: 0, user_vote: null });
});

test("add evidence (with the server's detail at the field) and vote on someone else's evidence", async ({ browser, request }) => {
  const author = await createPerson(request, "evauthor_");
  const witness = await createPerson(request, "witness_");
  const claim = await createClaim(request, author, { statement: `Evidence test ${unique("e")}: walking 10k steps a day improves sleep.` });

  const witnessPage = await (await browser.newContext()).newPage();
  await signIn(witnessPage, witness, `/claims/${claim.id}`);
  const form = witnessPage.getByRole("form", { name: "Add evidence" });
  await form.getByLabel("Opposes").check();
  await form.getByLabel("Kind of evidence").selectOption("link");
  await form.getByLabel("Link (http or https)").fill("not a url");
  await form.getByRole("button", { name: "Add evidence" }).click();
  await expect(form.getByText("Enter a full web address, starting with https:// or http://.")).toBeVisible();
  await form.getByLabel("Link (http or https)").fill("https://example.org/sleep-study");
  await form.getByRole("button", { name: "Add evidence" }).click();
  await expect(form.getByText("Evidence added. Thank you!")).toBeVisible();
  const opposes = witnessPage.getByRole("region", { name: /Opposes/ });
  await expect(opposes.getByRole("link", { name: /example\.org\/sleep-study/ })).toBeVisible();
  // Nobody votes on their own evidence: no vote buttons on one's own.
  await expect(opposes.getByRole("button", { name: /Helpful/ })).toHaveCount(0);

  const authorPage = await (await browser.newContext()).newPage();
  await signIn(authorPage, author, `/claims/${claim.id}`);
  const item = authorPage.getByRole("region", { name: /Opposes/ }).getByRole("article").first();
  await item.getByRole("button", { name: /Helpful/ }).click();
  await expect(item.getByTestId("evidence-score")).toHaveText("1");
  await expect(item.getByRole("button", { name: /Helpful/ })).toHaveAttribute("aria-pressed", "true");
  await screenshot(authorPage, "claim-evidence");
  await item.getByRole("button", { name: /Not helpful/ }).click();
  await expect(item.getByTestId("evidence-score")).toHaveText("-1");

  const list = await api<{ evidence: { vote_score: number; user_vote: string | null; upvotes: number; downvotes: number }[] }>(
    request,
    author,
    "GET",
    `/claims/${claim.id}/evidence`,
  );
  expect(list.body.evidence[0]).toMatchObject({ vote_score: -1, user_vote: "down", upvotes: 0, downvotes: 1 });
  // The down vote moved the witness's reputation (+5 then reversed, −3; never below 0).
  const profile = await (await request.get(`/api/v1/profiles/${witness.id}`)).json();
  expect(profile.reputation_score).toBe(0);

  // Pressing the same direction again removes the vote.
  await item.getByRole("button", { name: /Not helpful/ }).click();
  await expect(item.getByTestId("evidence-score")).toHaveText("0");
});

test("bookmark and follow a claim, and find it on the Bookmarks and Following pages", async ({ page, request }) => {
  const author = await createPerson(request, "bmauthor_");
  const reader = await createPerson(request, "reader_");
  const claim = await createClaim(request, author, { statement: `Bookmark test ${unique("b")}: cats sleep sixteen hours a day.` });
  await signIn(page, reader, "/bookmarks");
  await expect(page.getByRole("heading", { name: "No bookmarks yet" })).toBeVisible();

  await page.goto(`/claims/${claim.id}`);
  await page.getByRole("button", { name: "Bookmark", exact: true }).click();
  await expect(page.getByRole("button", { name: "Remove bookmark", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unfollow", exact: true })).toBeVisible();
  // The follow's notification flags: all on by default; turning one off is kept by the server.
  await page.getByText("Notification settings").click();
  const onEvidence = page.getByRole("checkbox", { name: "Notify me about new evidence" });
  await expect(onEvidence).toBeChecked();
  await onEvidence.uncheck();
  await expect(onEvidence).not.toBeChecked();

  await page.getByRole("link", { name: "Bookmarks" }).click();
  await expect(page.getByRole("link", { name: claim.statement })).toBeVisible();
  await screenshot(page, "bookmarks");
  await page.getByRole("link", { name: "Following" }).click();
  await expect(page.getByRole("link", { name: claim.statement })).toBeVisible();
  await screenshot(page, "following");

  // The state survives a reload (server-rendered from is_bookmarked / is_following), and toggles back.
  await page.goto(`/claims/${claim.id}`);
  await page.getByText("Notification settings").click();
  await expect(page.getByRole("checkbox", { name: "Notify me about new evidence" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Notify me about new votes" })).toBeChecked();
  await page.getByRole("button", { name: "Remove bookmark", exact: true }).click();
  await expect(page.getByRole("button", { name: "Bookmark", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unfollow", exact: true }).click();
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
  const fromApi = (await api<{ is_bookmarked: boolean; is_following: boolean }>(request, reader, "GET", `/claims/${claim.id}`)).body;
  expect(fromApi).toMatchObject({ is_bookmarked: false, is_following: false });
});

test("discuss: comment, reply, edit and delete one's own comment", async ({ page, request }) => {
  const author = await createPerson(request, "cmauthor_");
  const talker = await createPerson(request, "talker_");
  const claim = await createClaim(request, author, { statement: `Comment test ${unique("m")}: honey never spoils.` });
  await signIn(page, talker, `/claims/${claim.id}`);
  const discussion = page.getByRole("region", { name: /Discussion/ });

  await discussion.getByLabel("Add a comment").fill("   ");
  await discussion.getByRole("button", { name: "Post comment" }).click();
  await expect(discussion.getByText("The text must be 1 to 5000 characters long.")).toBeVisible();
  await discussion.getByLabel("Add a comment").fill("Archaeologists found edible honey in tombs.");
  await discussion.getByRole("button", { name: "Post comment" }).click();
  const first = discussion.getByRole("article", { name: `Comment by` }).first();
  await expect(first).toContainText("Archaeologists found edible honey in tombs.");

  await first.getByRole("button", { name: "Reply" }).click();
  await discussion.getByLabel(/Reply to/).fill("Source please?");
  await discussion.getByRole("button", { name: "Post reply" }).click();
  await expect(discussion.getByText("Source please?")).toBeVisible();

  await first.getByRole("button", { name: "Edit" }).click();
  await discussion.getByLabel("Edit your comment").fill("Archaeologists found edible honey in Egyptian tombs.");
  await discussion.getByRole("button", { name: "Save" }).click();
  await expect(first).toContainText("Egyptian tombs");
  await expect(first).toContainText("(edited)");

  page.once("dialog", (d) => void d.accept());
  await first.getByRole("button", { name: "Delete" }).click();
  await expect(first).toContainText("[deleted]");
  await expect(discussion.getByText("Source please?")).toBeVisible();
});

test("an unknown claim shows the not-found page, kept out of search engines", async ({ page }) => {
  // The page streams behind its loading state, so the status is already sent: a "soft" 404 with noindex.
  await page.goto("/claims/not-a-claim-id");
  await expect(page.getByRole("heading", { name: "Claim not found" })).toBeVisible();
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);
});

test("a signed-in person served the page everyone shares sees their own vote, bookmark and menu", async ({ page, request }) => {
  const author = await createPerson(request, "author_");
  const voter = await createPerson(request, "voter_");
  const claim = await createClaim(request, author, { statement: `Shared pages still know you ${unique("s")}`, tags: ["sharing"] });
  expect((await api(request, voter, "POST", `/claims/${claim.id}/vote`, { value: 0.7 })).status).toBe(200);
  expect((await api(request, voter, "POST", `/claims/${claim.id}/bookmark`)).status).toBeLessThan(300);
  await signIn(page, voter, "/");
  // An anonymous view (the API's request context has no session) leaves the copy everyone is served.
  const anonymous = await request.get(`/claims/${claim.id}`, { headers: { cookie: "" } });
  expect(anonymous.status()).toBe(200);
  expect(await anonymous.text()).not.toContain(voter.username);

  const response = await page.goto(`/claims/${claim.id}`);
  // The kept page everyone is served (Next's incremental cache), not a render for this viewer: it
  // names nothing of theirs; what is theirs is filled in by the browser below.
  expect(response?.headers()["x-nextjs-cache"]).toBe("HIT");
  expect(await response!.text()).not.toContain(voter.username);
  await expect(page.getByText("Your current vote: 70%.")).toBeVisible();
  // The viewer's own vote is marked on the histogram in the browser, never in the HTML everyone shares.
  await expect(page.getByTestId("own-vote-marker")).toHaveText("▲ you");
  expect(await response!.text()).not.toContain("own-vote-marker");
  await expect(page.getByRole("button", { name: /Remove bookmark/ })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: /Your profile/ })).toHaveAttribute("href", `/profiles/${voter.username}`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Bookmarks" })).toBeVisible();
  // The author is offered no vote on their own claim, and no report button.
  await page.context().clearCookies();
  await signIn(page, author, `/claims/${claim.id}`);
  await expect(page.getByText("This is your claim.")).toBeVisible();
  await expect(page.getByTestId(`report-claim-${claim.id}`)).toHaveCount(0);
});
