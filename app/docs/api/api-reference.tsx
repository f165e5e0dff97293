"use client";
// Swagger UI from swagger-ui-dist's self-contained bundle (served from our own build, no CDN): it
// renders into its box in the browser; the box keeps its space while the bundle loads.
import { useEffect, useRef, useState } from "react";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-overrides.css";
import docsStyles from "./api-docs.module.css";
import ui from "../../_components/ui.module.css";

/**
 * Swagger UI renders some selects (the server list, content types) without an accessible name; name
 * them after what they choose, whenever Swagger UI (re-)renders one.
 */
function nameUnlabelledSelects(root: HTMLElement) {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select:not([aria-label])")) {
    // A <label> that only wraps the select has no text of its own (its options are not a name).
    const labelText = [...(select.labels ?? [])].map((l) => (l.textContent ?? "").replace(select.textContent ?? "", "").trim()).join("");
    if (labelText) continue;
    const name = select.id === "servers" ? "Server" : select.closest("[data-name]")?.getAttribute("data-name") ?? select.className.replace(/-/g, " ");
    select.setAttribute("aria-label", name || "Choice");
  }
}

export function ApiReference() {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let cancelled = false;
    const observer = new MutationObserver(() => box.current && nameUnlabelledSelects(box.current));
    if (box.current) observer.observe(box.current, { childList: true, subtree: true });
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then((mod) => {
        if (cancelled || !box.current) return;
        const SwaggerUI = mod.default;
        SwaggerUI({
          domNode: box.current,
          url: "/api/v1/openapi.json",
          docExpansion: "list",
          defaultModelsExpandDepth: 0,
          deepLinking: false,
          // Nothing leaves the site: no validator badge calling validator.swagger.io.
          validatorUrl: null,
          onComplete: () => !cancelled && setState("ready"),
        });
      })
      .catch(() => !cancelled && setState("failed"));
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, []);

  return (
    <div className={`${docsStyles["api-docs"]} api-docs`} data-testid="api-docs" aria-busy={state === "loading"}>
      {state === "loading" ? (
        <p className={ui.muted} role="status" style={{ padding: "1.5rem", margin: 0 }}>
          Loading the API reference…
        </p>
      ) : null}
      {state === "failed" ? (
        <p className={ui["form-error"]} role="alert" style={{ margin: "1.5rem" }}>
          The API reference could not be loaded. The raw document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      ) : null}
      <div ref={box} />
    </div>
  );
}
