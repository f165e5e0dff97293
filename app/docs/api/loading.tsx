"use client";
// A client component: every page's React payload names its loading state instead of carrying its tree
// (docs/architecture.md#pages-from-data).
import docsStyles from "./api-docs.module.css";
export default function Loading() {
  return (
    <div aria-busy="true">
      <h1>REST API reference</h1>
      <div className={docsStyles["api-docs"]} />
    </div>
  );
}
