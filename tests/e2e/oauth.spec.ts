// Sign-in end to end in Chromium (docs/api.md#sign-in): the sign-in page's provider buttons, the local OAuth
// provider's consent page, NextAuth's callback, the hand-off with `?code=`, the code exchanged for a
// token pair through the REST API, and the account rules (linking by verified email, Twitter without
// email, password accounts not taken over). The servers are started by playwright.config.ts.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

type ProviderName = "GitHub" | "Google" | "Twitter";

interface Person {
  /** The provider's account id */
  sub: string;
  login?: string;
  name?: string;
  email?: string;
  emailVerified?: boolean;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** From the sign-in page through the provider's consent page; returns the code from the landing URL. */
async function signInWith(page: Page, provider: ProviderName, person: Person, redirectTo?: string): Promise<URL> {
  await page.goto(redirectTo ? `/signin?redirect_to=${encodeURIComponent(redirectTo)}` : "/signin");
  const appOrigin = new URL(page.url()).origin;
  await page.getByRole("button", { name: `Sign in with ${provider}` }).click();

  await expect(page.getByRole("heading", { name: `Sign in to ${provider}` })).toBeVisible();
  await page.getByLabel("Account id").fill(person.sub);
  await page.getByLabel("Login").fill(person.login ?? person.sub);
  if (person.name) await page.getByLabel("Name").fill(person.name);
  if (provider !== "Twitter") {
    await page.getByLabel("Email", { exact: true }).fill(person.email ?? "");
    await page.getByLabel("Email verified").setChecked(person.emailVerified ?? true);
  }
  await page.getByRole("button", { name: "Authorize" }).click();

  await page.waitForURL((url) => url.origin === appOrigin && !url.pathname.startsWith("/api/") && url.searchParams.has("code"));
  return new URL(page.url());
}

async function exchange(request: APIRequestContext, code: string) {
  const res = await request.post("/api/v1/auth/oauth/exchange", { data: { code } });
  return { status: res.status(), body: await res.json() };
}

async function me(request: APIRequestContext, accessToken: string) {
  const res = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(res.status()).toBe(200);
  return res.json();
}

/** The page's error message (Next's route announcer is an empty alert too). */
const alertMessage = (page: Page) => page.getByRole("alert").filter({ hasText: /\S/ });

/** The web UI's NextAuth session in this page's browser context. */
async function webSession(page: Page) {
  const res = await page.request.get("/api/auth/session");
  return res.json();
}

test("GitHub: sign in from the sign-in page, land signed in with a code, exchange it for tokens", async ({ page, request, baseURL }) => {
  const login = unique("octo_");
  const email = `${login}@example.test`;
  const landed = await signInWith(page, "GitHub", { sub: String(Date.now()), login, name: "Octo Cat", email });

  expect(landed.origin).toBe(baseURL);
  expect(landed.pathname).toBe("/");
  const code = landed.searchParams.get("code")!;
  expect(code).toMatch(/^oc_[\w-]{40,}$/);

  const session = await webSession(page);
  expect(session.user.id).toMatch(/^[0-9a-f-]{36}$/);

  const pair = await exchange(request, code);
  expect(pair.status).toBe(200);
  expect(pair.body).toMatchObject({ token_type: "bearer", expires_in: 3600 });
  expect(landed.href).not.toContain(pair.body.access_token);
  expect(landed.href).not.toContain(pair.body.refresh_token);

  const agent = await me(request, pair.body.access_token);
  expect(agent).toMatchObject({ id: session.user.id, username: login, display_name: "Octo Cat", email });

  const reused = await exchange(request, code);
  expect(reused.status).toBe(401);
  expect(reused.body).toEqual({ code: "invalid_token", detail: "Invalid or expired code" });
});

test("Google after GitHub with the same verified email: linked to the same agent, redirect_to kept", async ({ browser, request, baseURL }) => {
  const email = `${unique("link_")}@example.test`;
  const first = await browser.newPage();
  const github = await signInWith(first, "GitHub", { sub: String(Date.now() + 1), login: unique("linker_"), email });
  const githubAgent = await me(request, (await exchange(request, github.searchParams.get("code")!)).body.access_token);
  await first.close();

  // Another browser, nobody signed in: only the verified email connects the two accounts.
  const context = await browser.newContext();
  const second = await context.newPage();
  const google = await signInWith(second, "Google", { sub: unique("g-"), name: "Link Tester", email }, "/?from=google#top");
  expect(google.origin).toBe(baseURL);
  expect(google.pathname).toBe("/");
  expect(google.searchParams.get("from")).toBe("google");
  expect(google.hash).toBe("#top");
  const googleAgent = await me(request, (await exchange(request, google.searchParams.get("code")!)).body.access_token);
  expect(googleAgent.id).toBe(githubAgent.id);
  expect(googleAgent.username).toBe(githubAgent.username);
  expect((await webSession(second)).user.id).toBe(githubAgent.id);
  await context.close();
});

test("an unverified email links nothing: the account is created without one", async ({ page, request }) => {
  const email = `${unique("unverified_")}@example.test`;
  const landed = await signInWith(page, "Google", { sub: unique("g-"), name: "Not Verified", email, emailVerified: false });
  const agent = await me(request, (await exchange(request, landed.searchParams.get("code")!)).body.access_token);
  expect(agent.email).toBeNull();
  expect(agent.username).toMatch(/^[A-Za-z0-9_]{3,30}$/);
});

test("Twitter: no email is asked or stored; the username comes from the handle", async ({ page, request }) => {
  const handle = unique("tw_");
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in with Twitter" }).click();
  await expect(page.getByLabel("Email", { exact: true })).toHaveCount(0);
  await page.getByLabel("Account id").fill(unique("tw-id-"));
  await page.getByLabel("Login").fill(handle);
  await page.getByRole("button", { name: "Authorize" }).click();
  await page.waitForURL((url) => url.searchParams.has("code"));
  const code = new URL(page.url()).searchParams.get("code")!;
  const agent = await me(request, (await exchange(request, code)).body.access_token);
  expect(agent).toMatchObject({ username: handle, email: null });
});

test("denying at the provider returns to the sign-in page with a message and no code", async ({ page }) => {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Sign in with GitHub" }).click();
  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.has("error"));
  await expect(alertMessage(page)).toBeVisible();
  expect(new URL(page.url()).searchParams.has("code")).toBe(false);
  expect((await webSession(page)).user).toBeUndefined();
});

test("email and password: sign in through the form; a provider cannot take over the password account", async ({ page, request }) => {
  const username = unique("pw_");
  const email = `${username}@example.test`;
  const password = "Password123";
  const registered = await request.post("/api/v1/auth/register", { data: { email, password, username } });
  expect(registered.status()).toBe(201);
  const agentId = (await registered.json()).id;

  await page.goto("/signin?redirect_to=%2F%3Fwelcome%3D1");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("WrongPassword1");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(alertMessage(page)).toHaveText("Invalid email or password.");

  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("welcome") === "1");
  expect((await webSession(page)).user.id).toBe(agentId);

  // Someone with a Google account for the same (verified) address is sent back to use the password.
  const other = await page.context().browser()!.newContext();
  const stranger = await other.newPage();
  await stranger.goto("/signin");
  await stranger.getByRole("button", { name: "Sign in with Google" }).click();
  await stranger.getByLabel("Account id").fill(unique("g-"));
  await stranger.getByLabel("Email", { exact: true }).fill(email);
  await stranger.getByRole("button", { name: "Authorize" }).click();
  await stranger.waitForURL((url) => url.pathname === "/signin");
  await expect(alertMessage(stranger)).toContainText("signs in with a password");
  expect((await webSession(stranger)).user).toBeUndefined();
  await other.close();
});
