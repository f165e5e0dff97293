// For tests/security/storms.test.ts: writes, into the database the environment names (DATA_DIR for
// PGlite), a claim whose vote_count disagrees with its votes, and prints the claim's id.
import { randomUUID } from "node:crypto";
import { closeDb, db, dbReady } from "../../server/db/client.ts";

await dbReady();
const username = `broken_${randomUUID().slice(0, 8)}`;
const agent = await db().agent.create({ data: { username, usernameKey: username, displayName: username } });
const claim = await db().claim.create({ data: { statement: "A claim with a wrong vote count", authorId: agent.id, voteCount: 3 } });
await db().platformCounter.update({ where: { name: "claims" }, data: { value: { increment: 1 } } });
console.log(claim.id);
await closeDb();
