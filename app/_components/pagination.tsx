// Previous / next links for limit+offset lists; the page's other query parameters are kept.
import Link from "~/app/_components/link.tsx";
import { plural } from "../_lib/format.ts";
import paginationStyles from "./pagination.module.css";
import ui from "./ui.module.css";

export function Pagination({
  basePath,
  params,
  total,
  limit,
  offset,
  noun = "claim",
}: {
  basePath: string;
  params: Record<string, string | undefined>;
  total: number;
  limit: number;
  offset: number;
  /** Singular; the plural adds an "s". */
  noun?: string;
}) {
  if (total === 0) return null;
  const href = (nextOffset: number) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
    if (nextOffset > 0) query.set("offset", String(nextOffset));
    const qs = query.toString();
    return qs ? `${basePath}?${qs}` : basePath;
  };
  const first = Math.min(offset + 1, total);
  const last = Math.min(offset + limit, total);
  const hasPrevious = offset > 0;
  const hasNext = offset + limit < total;
  return (
    <nav className={paginationStyles.pagination} aria-label="Pagination">
      {hasPrevious ? (
        <Link className={`${ui.button} ${ui["button--secondary"]}`} href={href(Math.max(0, offset - limit))} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className={paginationStyles.pagination__info}>
        {/* One page of results is just counted ("1 claim"); ranges only when there are more pages. */}
        {first === 1 && last === total ? plural(total, noun) : `${first}–${last} of ${plural(total, noun)}`}
      </span>
      {hasNext ? (
        <Link className={`${ui.button} ${ui["button--secondary"]}`} href={href(offset + limit)} rel="next">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
