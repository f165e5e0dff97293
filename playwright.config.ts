// End-to-end tests in Chromium (tests/e2e/*.spec.ts) against the PRODUCTION build: `next build`, then
// server/main.ts (what `npm start` runs) on a free port, with a fresh embedded database and all
// three OAuth providers pointed at a local OAuth server (tests/e2e/oauth-server.ts).
//
//   npm run test:e2e                      builds, starts both servers, runs every spec
//   E2E_SKIP_BUILD=1 npm run test:e2e     reuses the existing .next build
//   DATABASE_URL=postgresql://… …         runs the app on PostgreSQL instead of a fresh PGlite
//
// Mail goes to a real SMTP server started beside them (tests/e2e/smtp-sink-server.ts); specs read it
// with readMail (tests/e2e/ui-helpers.ts).
//
// Screenshots of every test are kept under test-results/ (traces too, for failures).
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { mockProviderEnv } from "./tests/e2e/oauth-server.ts";

/** A port nobody listens on now. Set once in the runner; its workers inherit the environment. */
function freePort(): string {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

process.env.E2E_APP_PORT ??= freePort();
process.env.E2E_OAUTH_PORT ??= freePort();
process.env.E2E_SMTP_PORT ??= freePort();
process.env.E2E_SMTP_HTTP_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "claims-e2e-"));

const APP_URL = `http://127.0.0.1:${process.env.E2E_APP_PORT}`;
const OAUTH_URL = `http://127.0.0.1:${process.env.E2E_OAUTH_PORT}`;
/** The specs read the mail the app sent here (tests/e2e/smtp-sink-server.ts). */
const MAILBOX_URL = `http://127.0.0.1:${process.env.E2E_SMTP_HTTP_PORT}`;
const START_APP = "node --import tsx server/main.ts";
const TIME_SCALE = Math.max(1, Number(process.env.E2E_TIME_SCALE ?? 1) || 1);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  // E2E_TIME_SCALE=<n> stretches every wait, for a machine busy with other work (docs/testing.md).
  timeout: 60_000 * TIME_SCALE,
  expect: { timeout: 10_000 * TIME_SCALE },
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }]],
  use: {
    baseURL: APP_URL,
    screenshot: "on",
    trace: "retain-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium" }],
  webServer: [
    {
      // A real SMTP server: the app sends password-reset and verification mails to it (SMTP_URL).
      command: "node --import tsx tests/e2e/smtp-sink-server.ts",
      url: `${MAILBOX_URL}/mails`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: "node --import tsx tests/e2e/oauth-server.ts",
      url: `${OAUTH_URL}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: process.env.E2E_SKIP_BUILD ? START_APP : `npx next build && ${START_APP}`,
      // /auth/me answers (401) only after the database is open and migrated.
      url: `${APP_URL}/api/v1/auth/me`,
      reuseExistingServer: false,
      timeout: 420_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: process.env.E2E_APP_PORT!,
        DATA_DIR: process.env.E2E_DATA_DIR!,
        NEXTAUTH_URL: APP_URL,
        NEXTAUTH_SECRET: "e2e-nextauth-secret-e2e-nextauth-secret-0123456789",
        JWT_SECRET: "e2e-jwt-secret-e2e-jwt-secret-e2e-jwt-secret-0123456789",
        WEBHOOK_SECRET_KEY: "e2e-webhook-key-e2e-webhook-key-0123456789",
        // The tests sign in many times from one address.
        RATE_LIMIT_SCALE: "100",
        // The webhook specs call a receiver on 127.0.0.1.
        WEBHOOK_ALLOW_PRIVATE: "1",
        // A claim resolves in the vote that brings it to a consensus it may resolve on (the track
        // record specs watch it happen); docs/features/consensus.md.
        RESOLUTION_STABLE_SECONDS: "0",
        LOG_LEVEL: "error",
        // The viewpoint model refits every 10 s (not every 5 minutes), so the consensus spec sees its
        // claims scored by real fits (docs/features/consensus-ui.md).
        BRIDGING_INTERVAL_SECONDS: "10",
        // Every account that is neither automated nor suspended has standing (the specs' voters are
        // fresh): the standing spec shows automated accounts' votes beside the status, never in it
        // (docs/features/consensus.md#standing; tests/ops/demo-seed.test.ts runs the defaults).
        STANDING_MIN_AGE_SECONDS: "0",
        STANDING_MIN_VOTES: "0",
        STANDING_REQUIRE_VERIFIED: "0",
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        // The moderation spec registers this account and verifies its address: it becomes an admin.
        ADMIN_EMAILS: "e2e-admin@example.test",
        ...mockProviderEnv(OAUTH_URL),
      },
    },
  ],
});
