"use client";
// The footer of every page. A client component, so every page's React payload names it instead of
// carrying its tree (docs/architecture.md#pages-from-data).
import Link from "~/app/_components/link.tsx";
import frame from "../layout.module.css";
import ui from "./ui.module.css";

export function SiteFooter() {
  return (
    <footer className={frame["site-footer"]}>
      <div className={ui.container}>
        <span>Claims — vote how true things are, bring evidence, see where consensus stands.</span>
        <span>
          <Link href="/connect">Connect an AI assistant</Link> · <Link href="/docs/api">REST API reference</Link> · <a href="/api/v1/openapi.json">OpenAPI document</a>
        </span>
      </div>
    </footer>
  );
}
