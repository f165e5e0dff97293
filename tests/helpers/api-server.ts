// A standalone REST server for tests that need separate processes (two app instances on one Redis,
// kill -9 in the middle of writes): `tsx tests/helpers/api-server.ts` listens on TEST_SERVER_PORT (default: any free port) and prints
// "listening <port>" once the database is migrated.
import { createServer } from "node:http";
import { dbReady } from "../../server/db/client.ts";
import { handleNodeRest } from "../../server/rest/node.ts";
import { startBackground } from "../../server/jobs/index.ts";

await dbReady();
// Delivery is observable from outside: the worker runs here too (TEST_JOBS=0 leaves it off).
if (process.env.TEST_JOBS !== "0") await startBackground();
const server = createServer((req, res) => void handleNodeRest(req, res));
server.listen(Number(process.env.TEST_SERVER_PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : "?"}`);
});
