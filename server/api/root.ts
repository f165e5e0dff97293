// The app router: every procedure of the service. Its REST routes (trpc-to-openapi) match in
// definition order, so literal paths come before parameterised ones inside each router.
import { accountRouter } from "./routers/account.ts";
import { apiKeysRouter } from "./routers/api-keys.ts";
import { connectedAppsRouter } from "./routers/connected-apps.ts";
import { authRouter } from "./routers/auth.ts";
import { healthRouter } from "./routers/health.ts";
import { oauthRouter } from "./routers/oauth.ts";
import { claimsRouter } from "./routers/claims.ts";
import { argumentsRouter } from "./routers/arguments.ts";
import { commentsRouter } from "./routers/comments.ts";
import { evidenceRouter } from "./routers/evidence.ts";
import { profilesRouter } from "./routers/profiles.ts";
import { statsRouter } from "./routers/stats.ts";
import { discoverRouter } from "./routers/discover.ts";
import { moderationRouter } from "./routers/moderation.ts";
import { notificationsRouter } from "./routers/notifications.ts";
import { webhooksRouter } from "./routers/webhooks.ts";
import { researchRouter } from "./routers/research.ts";
import { checksRouter } from "./routers/checks.ts";
import { editsRouter } from "./routers/edits.ts";
import { socialFollowsRouter } from "./routers/social-follows.ts";
import { digestRouter } from "./routers/digest.ts";
import { router } from "./trpc.ts";
import { knowInputSchemas } from "./errors.ts";

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  account: accountRouter,
  apiKeys: apiKeysRouter,
  connectedApps: connectedAppsRouter,
  oauth: oauthRouter,
  claims: claimsRouter,
  arguments: argumentsRouter,
  evidence: evidenceRouter,
  comments: commentsRouter,
  profiles: profilesRouter,
  stats: statsRouter,
  discover: discoverRouter,
  moderation: moderationRouter,
  notifications: notificationsRouter,
  webhooks: webhooksRouter,
  research: researchRouter,
  checks: checksRouter,
  edits: editsRouter,
  follows: socialFollowsRouter,
  digest: digestRouter,
});

// Field errors read their bounds from the procedures' input schemas (a too-short statement's error says how long it may be).
knowInputSchemas(appRouter);

export type AppRouter = typeof appRouter;
