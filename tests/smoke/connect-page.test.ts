// A person who opens the MCP address in a browser is shown how to connect an assistant, on the
// production build: GET /mcp accepting HTML → 303 to /connect, a page with the address to paste and the
// steps for the common clients. What an MCP client sends to the same address is unchanged (a GET that
// does not accept HTML stays 405; POST is the endpoint).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";

let server: BuiltServer;

beforeAll(async () => {
  server = await startBuiltServer((base) => ({ LOG_LEVEL: "error", NEXTAUTH_URL: base }));
}, 240_000);

afterAll(() => server?.stop());

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("GET /mcp from a browser", () => {
  it("is sent to the page that explains how to connect an assistant", async () => {
    const res = await fetch(`${server.base}/mcp`, { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/connect");
  });

  it("shows the address to paste and the steps for the common clients", async () => {
    const res = await fetch(`${server.base}/connect`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Connect an AI assistant");
    expect(html).toContain(`value="${server.base}/mcp"`);
    for (const client of ["Claude", "ChatGPT", "Cursor", "VS Code"]) expect(html).toContain(client);
  });

  it("leaves what MCP clients send alone: a GET that does not accept HTML is 405, a POST without credentials 401", async () => {
    const get = await fetch(`${server.base}/mcp`, { headers: { accept: "application/json, text/event-stream" }, redirect: "manual" });
    expect(get.status).toBe(405);
    const post = await fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(post.status).toBe(401);
  });
});
