// Shared steps of the web UI specs (tests/e2e/ui-*.spec.ts): accounts and claims made through the REST
// API (fast, and a second person for votes), sign-in through the real sign-in page, the axe scan,
// and screenshots kept under test-results/screenshots (CI artifacts).
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

export const PASSWORD = "Password123";

export interface Person {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Registers and logs in through /api/v1 (what an agent would do). */
export async function createPerson(request: APIRequestContext, prefix = "user_"): Promise<Person> {
  const username = unique(prefix);
  const email = `${username}@example.test`;
  const reg = await request.post("/api/v1/auth/register", {
    data: { email, password: PASSWORD, username, display_name: `${username[0].toUpperCase()}${username.slice(1, 8)} Tester` },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const login = await request.post("/api/v1/auth/login", { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const id = (await reg.json()).id as string;
  return { id, username, email, password: PASSWORD, token: (await login.json()).access_token };
}

export async function api<T = Record<string, unknown>>(
  request: APIRequestContext,
  person: Person,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  data?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await request.fetch(`/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${person.token}` },
    data: data as object | undefined,
  });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : null) as T };
}

export interface ClaimOut {
  id: string;
  statement: string;
  gradient: number;
  vote_count: number;
}

export async function createClaim(
  request: APIRequestContext,
  author: Person,
  body: { statement: string; tags?: string[]; complexity_tier?: string; parent_ids?: string[] },
): Promise<ClaimOut> {
  const res = await api<ClaimOut>(request, author, "POST", "/claims", body);
  expect(res.status).toBe(201);
  return res.body;
}

/** Signs in through the sign-in page (NextAuth credentials) and waits for the landing page. */
export async function signIn(page: Page, person: Pick<Person, "email" | "password">, redirectTo = "/") {
  await page.goto(redirectTo === "/" ? "/signin" : `/signin?redirect_to=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === redirectTo.split("?")[0]);
}

/** The header shows who is signed in: a link to their profile, named by their display name. */
export async function expectSignedInAs(page: Page, username: string) {
  await expect(page.getByRole("banner").getByRole("link", { name: /Your profile/ })).toHaveAttribute("href", `/profiles/${encodeURIComponent(username)}`);
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** axe-core on the whole page (WCAG 2.1 A/AA): no serious or critical violation. */
export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(blocking).toEqual([]);
}

/** The gauge's number, e.g. "72%". */
export function gradientValue(page: Page) {
  return page.getByTestId("gradient-value");
}

/**
 * The link (to `path`, e.g. "/reset-password") of the newest mail to `to` whose subject matches, as
 * read from the SMTP server the app sends to (tests/e2e/smtp-sink-server.ts). Waits for it to arrive.
 */
export async function mailedLink(to: string, subject: RegExp, path: string, since = 0): Promise<string> {
  const mailbox = `http://127.0.0.1:${process.env.E2E_SMTP_HTTP_PORT}/mails?to=${encodeURIComponent(to)}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = (await (await fetch(mailbox)).json()) as { subject: string; text: string; at: number }[];
    const mail = mails.filter((m) => subject.test(m.subject) && m.at >= since).at(-1);
    const link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(path));
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} with a ${path} link`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The address playwright.config.ts lists in ADMIN_EMAILS. */
export const ADMIN_EMAIL = "e2e-admin@example.test";

/**
 * The e2e admin: registered once, then its address verified through the mailed link, since
 * ADMIN_EMAILS grants admin to a verified address only (docs/features/accounts.md).
 */
export async function verifiedAdmin(request: APIRequestContext): Promise<Pick<Person, "email" | "password">> {
  const reg = await request.post("/api/v1/auth/register", { data: { email: ADMIN_EMAIL, password: PASSWORD, username: unique("admin_") } });
  expect([201, 409]).toContain(reg.status());
  if (reg.status() === 201) {
    expect((await reg.json()).role).toBe("member");
    const since = Date.now();
    const login = await request.post("/api/v1/auth/login", { data: { email: ADMIN_EMAIL, password: PASSWORD } });
    const token = (await login.json()).access_token as string;
    expect((await request.post("/api/v1/auth/email/verify", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(202);
    const link = await mailedLink(ADMIN_EMAIL, /Verify your email/, "/verify-email", since);
    const confirm = await request.post("/api/v1/auth/email/verify/confirm", { data: { token: new URL(link).searchParams.get("token") } });
    expect(confirm.status()).toBe(204);
  }
  return { email: ADMIN_EMAIL, password: PASSWORD };
}
