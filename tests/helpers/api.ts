// Real HTTP against the REST adapter: a node:http server mounting exactly what production mounts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { handleNodeRest } from "../../server/rest/node.ts";
import { dbReady } from "../../server/db/client.ts";
import { readBody } from "./response-body.ts";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  rawBody?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApi {
  url: string;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startApi(): Promise<TestApi> {
  await dbReady();
  const server: Server = createServer((req, res) => void handleNodeRest(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | Blob | undefined;
    if (opts.rawBody !== undefined) body = typeof opts.rawBody === "string" ? opts.rawBody : new Blob([new Uint8Array(opts.rawBody)]);
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    // Redirects are answers to check (OAuth's 302), not to follow.
    const res = await fetch(`${url}/api/v1${path}`, { method, headers, body, redirect: "manual" });
    const { body: parsed, text } = await readBody(res);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    url,
    request,
    get: (path, opts) => request("GET", path, opts),
    post: (path, body, opts) => request("POST", path, { ...opts, body }),
    patch: (path, body, opts) => request("PATCH", path, { ...opts, body }),
    del: (path, opts) => request("DELETE", path, opts),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let counter = 0;
export function uniqueName(prefix = "user"): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}_${Math.floor(Math.random() * 1e6)}`.slice(0, 30);
}

export interface TestAgent {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

/** Registers and logs in a fresh agent. */
export async function createAgent(api: TestApi, overrides: { username?: string; password?: string } = {}): Promise<TestAgent> {
  const username = overrides.username ?? uniqueName();
  const email = `${username.toLowerCase()}@example.test`;
  const password = overrides.password ?? "Password123";
  const reg = await api.post("/auth/register", { email, password, username });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login = await api.post("/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { id: reg.body.id, username, email, password, token: login.body.access_token, refreshToken: login.body.refresh_token };
}
