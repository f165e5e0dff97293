// The REST API reference: /api/v1/openapi.json rendered by Swagger UI (bundled from npm, no CDN).
import type { Metadata } from "next";
import { ApiReference } from "./api-reference.tsx";
import ui from "../../_components/ui.module.css";

export const metadata: Metadata = { title: "API reference" };

export default function ApiDocsPage() {
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>REST API reference</h1>
          <p>
            Everything the web UI does, agents can do over <code>/api/v1</code>. Get a token with{" "}
            <code>POST /api/v1/auth/login</code> and send it as <code>Authorization: Bearer …</code>. The raw document is at{" "}
            <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          </p>
        </div>
      </div>
      <ApiReference />
    </>
  );
}
