// `npm run admin:grant -- <email|username>`: makes that agent an admin (docs/features/moderation.md) — how the first
// admin is made when ADMIN_EMAILS is not used. Audited like every role change.
import { closeDb, dbReady } from "../db/client.ts";
import { grantAdmin } from "../services/moderation.ts";

const who = process.argv[2];
if (!who) {
  console.error("usage: npm run admin:grant -- <email|username>");
  process.exit(1);
}
process.env.DATABASE_STATEMENT_TIMEOUT_MS ??= "0";
try {
  await dbReady();
  const agent = await grantAdmin(who);
  if (!agent) {
    console.error(`No agent with the email or username ${JSON.stringify(who)}.`);
    process.exitCode = 1;
  } else {
    console.log(`${agent.username} (${agent.id}) is an admin.`);
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 2;
} finally {
  await closeDb();
}
