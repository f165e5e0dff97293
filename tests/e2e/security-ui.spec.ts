// Browser-side security on the production build: the pages' security headers (next.config.mjs) and
// that the pages still work under them (no CSP violation, the Swagger reference renders), hostile
// text from the API rendered as text (never markup that runs), and sign-in's redirect_to kept on
// this site.
import { expect, test, type Page } from "@playwright/test";
import { api, createClaim, createPerson, unique } from "./ui-helpers.ts";

/** Collects CSP violations and page errors; dialogs (alert()) fail the test. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (/Content[- ]Security[- ]Policy|Refused to (execute|load|apply|connect)/i.test(msg.text())) problems.push(msg.text());
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}

const XSS = {
  statement: `<img src=x onerror="window.__xss='statement'"> <script>window.__xss='statement-script'</script> "quoted" & 'single'`,
  text: `<svg/onload="window.__xss='evidence'"><b>not bold</b>`,
  code: `</pre><script>window.__xss='code'</script><pre>`,
  link: `https://example.org/"><img/src=x/onerror=window.__xss='link'>`,
  comment: `<iframe src="javascript:window.__xss='comment'"></iframe>{{constructor.constructor('window.__xss=1')()}}`,
  displayName: `<a href=javascript:alert(1)>Mallory</a>`,
};

test("pages carry the security headers; the API keeps its own", async ({ request }) => {
  for (const path of ["/", "/signin", "/claims/00000000-0000-4000-8000-000000000000", "/docs/api", "/no-such-page"]) {
    const res = await request.get(path);
    const csp = res.headers()["content-security-policy"] ?? "";
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toContain("base-uri 'self'");
    expect(csp, path).not.toContain("unsafe-eval");
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(res.headers()["x-frame-options"], path).toBe("DENY");
    expect(res.headers()["referrer-policy"], path).toBe("same-origin");
    expect(res.headers()["x-powered-by"], path).toBeUndefined();
  }
  const apiRes = await request.get("/api/v1/auth/me");
  expect(apiRes.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(apiRes.headers()["access-control-allow-origin"]).toBe("*");
});

test("the pages work under the policy: no violation, the API reference renders", async ({ page, request }) => {
  const problems = watch(page);
  const author = await createPerson(request, "csp_");
  const claim = await createClaim(request, author, { statement: "A claim rendered under the content security policy", tags: ["csp"] });
  for (const path of ["/", `/claims/${claim.id}`, `/profiles/${author.username}`, "/topics/csp", "/signin"]) {
    await page.goto(path);
    await expect(page.locator("main, [role=main]").first()).toBeVisible();
  }
  await page.goto("/docs/api");
  await expect(page.getByTestId("api-docs")).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(page.getByText("/claims/{claim_id}/vote").first()).toBeVisible();
  expect(problems).toEqual([]);
});

test("hostile text from the API is shown as text on every page, and nothing runs", async ({ page, request }) => {
  const problems = watch(page);
  const author = await createPerson(request, "xssauthor_");
  // The display name is set at registration.
  const username = unique("xssname_");
  const reg = await request.post("/api/v1/auth/register", {
    data: { email: `${username}@example.test`, password: "Password123", username, display_name: XSS.displayName },
  });
  expect(reg.status()).toBe(201);
  const login = await request.post("/api/v1/auth/login", { data: { email: `${username}@example.test`, password: "Password123" } });
  const named = { id: (await reg.json()).id, username, email: `${username}@example.test`, password: "Password123", token: (await login.json()).access_token };

  const claim = await createClaim(request, author, { statement: XSS.statement, tags: ["xss"] });
  for (const [content_type, content] of [["text", XSS.text], ["code", XSS.code], ["link", XSS.link]] as const) {
    const ev = await api(request, named, "POST", `/claims/${claim.id}/evidence`, { position: "neutral", content_type, content });
    expect(ev.status, JSON.stringify(ev.body)).toBe(201);
  }
  expect((await api(request, named, "POST", `/claims/${claim.id}/comments`, { content: XSS.comment })).status).toBe(201);

  await page.goto(`/claims/${claim.id}`);
  await expect(page.getByTestId("claim-statement")).toHaveText(XSS.statement);
  await expect(page.getByText(XSS.text, { exact: true })).toBeVisible();
  await expect(page.getByText(XSS.code, { exact: true })).toBeVisible();
  await expect(page.getByText(XSS.comment, { exact: true })).toBeVisible();
  await expect(page.getByText(XSS.displayName).first()).toBeVisible();
  // The link is a link to exactly the stored URL, as an attribute value, not markup.
  const link = page.locator(`a[href="${XSS.link.replace(/"/g, '\\"')}"]`);
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute("rel", /noopener/);
  // No element the payloads describe was created.
  expect(await page.locator("main img[src='x'], main svg[onload], main iframe, main script:not([src]):not([type='application/ld+json'])").count()).toBe(0);
  // The structured data holds the statement as data: one JSON document whose text is the statement.
  const jsonLd = await page.locator("main script[type='application/ld+json']").allTextContents();
  expect(jsonLd).toHaveLength(1);
  expect(JSON.parse(jsonLd[0])["@graph"][0].text).toBe(XSS.statement);
  expect(await page.locator(`a[href^="javascript:"]`).count()).toBe(0);

  // The home page lists it, the profile shows the name, the search echoes the query: all as text.
  // (Search by its plain words: PostgreSQL's text parser reads `<img …>` as a tag and indexes none of it.)
  await page.goto(`/?q=${encodeURIComponent("quoted single")}`);
  await expect(page.getByRole("region", { name: "Results" }).getByText(XSS.statement)).toBeVisible();
  await page.goto(`/profiles/${named.username}`);
  await expect(page.getByText(XSS.displayName).first()).toBeVisible();
  await page.goto(`/?q=${encodeURIComponent(`"><script>window.__xss='search'</script>`)}`);
  await page.goto(`/topics/${encodeURIComponent("<script>window.__xss='topic'</script>")}`);

  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(problems.filter((p) => !/404|Failed to load resource/.test(p))).toEqual([]);
});

test("signing in never leaves the site, whatever redirect_to says", async ({ page, request, baseURL }) => {
  const person = await createPerson(request, "redir_");
  for (const redirectTo of ["/.//evil.example/", "//evil.example/", "https://evil.example/", "/\\evil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/signin?redirect_to=${encodeURIComponent(redirectTo)}`);
    await page.getByLabel("Email", { exact: true }).fill(person.email);
    await page.getByLabel("Password", { exact: true }).fill(person.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
    expect(new URL(page.url()).origin, redirectTo).toBe(baseURL);
  }
});

test("before the page's script runs, the forms cannot be submitted, so a password never lands in a URL", async ({ browser }) => {
  // No JavaScript at all: the state of every page before hydration, for as long as a slow phone takes.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/signin");
  const form = page.locator("form").filter({ has: page.getByLabel("Password") });
  await expect(form).toHaveAttribute("method", "post");
  await expect(page.getByLabel("Email")).toBeDisabled();
  await expect(page.getByLabel("Password")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeDisabled();
  await page.goto("/signup");
  await expect(page.getByRole("button", { name: "Create account" })).toBeDisabled();
  await context.close();
});
