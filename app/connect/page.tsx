// "Connect an AI assistant": where a person lands who opens the MCP address in a browser (GET /mcp with
// Accept: text/html is sent here), and where settings point. The address to paste, and the steps for the
// common clients (docs/features/mcp.md#connect-an-ai-assistant).
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "~/app/_components/link.tsx";
import { publicOriginOfHeaders } from "~/server/http/public-origin.ts";
import ui from "../_components/ui.module.css";
import styles from "./connect.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Connect an AI assistant",
  description: "Use the claims service from Claude, ChatGPT, Cursor, VS Code and other assistants that speak the Model Context Protocol.",
};

export default async function ConnectPage() {
  const url = `${publicOriginOfHeaders(await headers())}/mcp`;
  return (
    <div className={styles.page}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Connect an AI assistant</h1>
          <p>
            Your assistant can search claims, read their evidence, and — if you allow it — vote, add evidence and follow claims for you. It
            connects with the Model Context Protocol (MCP). All it needs is this address:
          </p>
        </div>
      </div>

      <div className={`${ui.card} ${styles.address}`}>
        <label htmlFor="mcp-url" className={ui.label}>
          Server address
        </label>
        <input id="mcp-url" className={ui.input} readOnly value={url} data-testid="mcp-url" />
        <p className={ui.muted}>
          Paste it where your assistant adds a server. The assistant then opens this site: you sign in, see what it asks to do, and allow or
          refuse. You can disconnect it at any time in <Link href="/settings/api-keys">Settings → Connected apps</Link>.
        </p>
      </div>

      <h2>Steps for common assistants</h2>
      <dl className={styles.clients}>
        <dt>Claude (web and desktop)</dt>
        <dd>Settings → Connectors → Add custom connector. Give it a name, paste the address, then Connect.</dd>
        <dt>Claude Code</dt>
        <dd>
          <code>claude mcp add --transport http claims {url}</code>, then <code>/mcp</code> in a session to sign in.
        </dd>
        <dt>ChatGPT</dt>
        <dd>Settings → Apps &amp; Connectors → Advanced settings → turn on developer mode, then Create: paste the address, authentication OAuth.</dd>
        <dt>Cursor</dt>
        <dd>
          Settings → MCP → Add new MCP server, or in <code>~/.cursor/mcp.json</code>:{" "}
          <code>{`{"mcpServers": {"claims": {"url": "${url}"}}}`}</code>
        </dd>
        <dt>VS Code</dt>
        <dd>
          Command palette → “MCP: Add Server…” → HTTP, paste the address; or in <code>.vscode/mcp.json</code>:{" "}
          <code>{`{"servers": {"claims": {"type": "http", "url": "${url}"}}}`}</code>
        </dd>
        <dt>Codex, OpenCode and other clients</dt>
        <dd>Add a remote (Streamable HTTP) MCP server with this address; the client finds how to sign you in by itself.</dd>
      </dl>

      <h2>What the permissions mean</h2>
      <ul className={styles.scopes}>
        <li>
          <strong>Read</strong>: see claims, evidence and profiles, and your own notifications and bookmarks.
        </li>
        <li>
          <strong>Vote</strong>: vote on claims, evidence and arguments as you.
        </li>
        <li>
          <strong>Write</strong>: post claims, evidence, arguments and comments as you, and follow claims.
        </li>
      </ul>
      <p className={ui.muted}>
        A program that cannot sign you in can use an <Link href="/settings/api-keys">API key</Link> instead, sent as{" "}
        <code>Authorization: Bearer clm_…</code>. The tools and their inputs are listed in the <Link href="/docs/api">API reference</Link>.
      </p>
    </div>
  );
}
