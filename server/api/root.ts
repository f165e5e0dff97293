// The app router: every procedure of the service. Its REST routes (trpc-to-openapi) match in
// definition order, so literal paths come before parameterised ones inside each router.
import { authRouter } from "./routers/auth.ts";
import { healthRouter } from "./routers/health.ts";
import { oauthRouter } from "./routers/oauth.ts";
import { claimsRouter } from "./routers/claims.ts";
import { commentsRouter } from "./routers/comments.ts";
import { evidenceRouter } from "./routers/evidence.ts";
import { profilesRouter } from "./routers/profiles.ts";
import { statsRouter } from "./routers/stats.ts";
import { discoverRouter } from "./routers/discover.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  oauth: oauthRouter,
  claims: claimsRouter,
  evidence: evidenceRouter,
  comments: commentsRouter,
  profiles: profilesRouter,
  stats: statsRouter,
  discover: discoverRouter,
});

export type AppRouter = typeof appRouter;
