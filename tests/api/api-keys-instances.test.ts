// A revoked API key is refused by every instance from its next call on (docs/api.md#api-keys): two API server
// processes on one PostgreSQL database (this file's schema); the key is used on both, revoked through
// one, and must answer 401 on the other at once. Only meaningful with a shared database: on PGlite
// (one process owns the database) the file is skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbReady } from "../../server/db/client.ts";
import { startApiProcess, type ApiProcess } from "../helpers/api-process.ts";

const onPostgres = !!process.env.DATABASE_URL;

type Server = ApiProcess;

function stop(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    process.kill(-server.child.pid!, "SIGTERM");
  });
}

async function call(server: Server, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(!onPostgres)("API keys across instances", () => {
  let a: Server | undefined;
  let b: Server | undefined;

  beforeAll(async () => {
    await dbReady();
    [a, b] = await Promise.all([startApiProcess(), startApiProcess()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  it("a key revoked through one instance answers 401 on the other at its next call", async () => {
    const username = `keys_${process.pid}_${Date.now() % 1e6}`;
    const email = `${username}@example.test`;
    expect((await call(a!, "POST", "/auth/register", undefined, { email, password: "Password123", username })).status).toBe(201);
    const token = (await call(a!, "POST", "/auth/login", undefined, { email, password: "Password123" })).body.access_token as string;
    const created = await call(a!, "POST", "/auth/api-keys", token, { name: "fleet", scopes: ["read"] });
    expect(created.status).toBe(201);
    const key = created.body.key as string;

    // Both instances have seen the key valid (anything cached would be cached now).
    for (let i = 0; i < 3; i++) {
      expect((await call(a!, "GET", "/auth/me", key)).status).toBe(200);
      expect((await call(b!, "GET", "/auth/me", key)).status).toBe(200);
    }
    expect((await call(a!, "DELETE", `/auth/api-keys/${created.body.id}`, token)).status).toBe(204);
    const onB = await call(b!, "GET", "/auth/me", key);
    expect([onB.status, onB.body.detail]).toEqual([401, "Invalid or expired token"]);
    expect((await call(a!, "GET", "/auth/me", key)).status).toBe(401);
  }, 60_000);
});
