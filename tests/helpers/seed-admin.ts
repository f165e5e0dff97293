// Run as a script before a built server starts on the same database (its DATA_DIR, or DATABASE_URL's
// schema): creates a verified admin that can sign in with a password, the way `npm run admin:grant`
// would promote one. Usage: node --import tsx tests/helpers/seed-admin.ts <email> <password>
import { closeDb, db, dbReady } from "../../server/db/client.ts";
import { hashPassword } from "../../server/auth/passwords.ts";

const [email, password] = process.argv.slice(2);
await dbReady();
const username = `admin_${Date.now() % 1_000_000_000}`;
await db().agent.create({
  data: { email, username, usernameKey: username, displayName: "Admin", passwordHash: await hashPassword(password), emailVerified: new Date(), role: "admin" },
});
await closeDb();
