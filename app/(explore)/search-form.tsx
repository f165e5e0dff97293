"use client";
// The explore page's search and filters: a plain GET form (the URL is the state; it works without
// JavaScript). A client component given its values (docs/architecture.md#pages-from-data), so the page's
// React payload carries these few values instead of the form's tree.
import Link from "~/app/_components/link.tsx";
import exploreStyles from "./page.module.css";
import ui from "../_components/ui.module.css";

export interface SearchFormValues {
  q: string;
  tags: string;
  complexity: string;
  min_gradient: string;
  max_gradient: string;
  sort: string;
}

export function SearchForm({
  form,
  sorts,
  tiers,
  fieldErrors,
  filtersActive,
}: {
  form: SearchFormValues;
  /** [value, label] of each sort order, the default ("") first. */
  sorts: [string, string][];
  tiers: readonly string[];
  fieldErrors: Record<string, string>;
  filtersActive: boolean;
}) {
  const invalid = (field: string) => (fieldErrors[field] ? { "aria-invalid": true, "aria-describedby": `${field}-error` } : {});
  const fieldError = (field: string) =>
    fieldErrors[field] ? (
      <p id={`${field}-error`} className={ui["field-error"]}>
        {fieldErrors[field]}
      </p>
    ) : null;
  return (
    <form className={ui.card} role="search" action="/" method="get" aria-label="Search claims">
      <div className={ui.field} style={{ marginBottom: 0 }}>
        <label htmlFor="q">Search claims</label>
        <div className={exploreStyles["search-row"]}>
          <input
            id="q"
            name="q"
            type="search"
            className={ui.input}
            defaultValue={form.q}
            placeholder="e.g. coffee improves focus"
            {...invalid("q")}
          />
          <button type="submit" className={ui.button}>
            Search
          </button>
        </div>
        {fieldError("q")}
      </div>
      {/* On a phone the filters fold under "Filters and sort" (open when some are set), so a claim shows
          above the fold; wider screens show them always (page.module.css, docs/features/friction.md#home-on-a-phone). */}
      <details className={exploreStyles["filters-fold"]} open={filtersActive || Object.keys(fieldErrors).length > 0}>
        <summary>Filters and sort</summary>
        <div className={exploreStyles.filters}>
          <div className={ui.field}>
            <label htmlFor="tags">Tags</label>
            <input id="tags" name="tags" className={ui.input} defaultValue={form.tags} placeholder="health, science" {...invalid("tags")} />
            {fieldError("tags")}
          </div>
          <div className={ui.field}>
            <label htmlFor="complexity">Complexity</label>
            <select id="complexity" name="complexity" className={ui.select} defaultValue={form.complexity} {...invalid("complexity")}>
              <option value="">Any</option>
              {tiers.map((tier) => (
                <option key={tier} value={tier}>
                  {tier[0].toUpperCase() + tier.slice(1)}
                </option>
              ))}
            </select>
            {fieldError("complexity")}
          </div>
          <div className={ui.field}>
            <label htmlFor="min_gradient">Gradient from</label>
            <input id="min_gradient" name="min_gradient" type="number" inputMode="decimal" min="0" max="1" step="0.05" className={ui.input} defaultValue={form.min_gradient} placeholder="0" {...invalid("min_gradient")} />
            {fieldError("min_gradient")}
          </div>
          <div className={ui.field}>
            <label htmlFor="max_gradient">Gradient to</label>
            <input id="max_gradient" name="max_gradient" type="number" inputMode="decimal" min="0" max="1" step="0.05" className={ui.input} defaultValue={form.max_gradient} placeholder="1" {...invalid("max_gradient")} />
            {fieldError("max_gradient")}
          </div>
          <div className={ui.field}>
            <label htmlFor="sort">Sort by</label>
            <select id="sort" name="sort" className={ui.select} defaultValue={sorts.some(([value]) => value === form.sort) ? form.sort : ""}>
              {sorts.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className={ui["form-actions"]}>
          <button type="submit" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}>
            Apply filters
          </button>
          {filtersActive ? (
            <Link href="/" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}>
              Clear all
            </Link>
          ) : null}
        </div>
      </details>
    </form>
  );
}
