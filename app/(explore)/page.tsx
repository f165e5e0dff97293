// Explore: search and filter every claim (claims.list), with the platform's numbers above and what is
// trending beside. The form is a plain GET form: the URL is the state, and it works without JavaScript.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { Suspense } from "react";
import { callErrorBody } from "~/server/api/trpc.ts";
import { COMPLEXITY_TIERS, type ListClaimsInput } from "~/server/contract/claims.ts";
import { publicCaller } from "~/server/api/server-caller.ts";
import { parseTagQuery } from "~/server/domain/tags.ts";
import { TRPCError } from "@trpc/server";
import { EmptyState } from "../_components/bits.tsx";
import { ClaimList } from "../_components/claim-card.tsx";
import { Pagination } from "../_components/pagination.tsx";
import { SidebarCardSkeleton } from "../_components/list-skeleton.tsx";
import { TopicsCard, TrendingCard } from "../_components/sidebar.tsx";
import { StatsBar, StatsBarFallback } from "../_components/stats-bar.tsx";
import { first, offsetParam, type SearchParams } from "../_lib/search-params.ts";
import { humanError, humanFieldErrors, topField } from "../_lib/human-errors.ts";
import { SearchForm } from "./search-form.tsx";
import exploreStyles from "./page.module.css";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Explore claims" };

const PAGE_SIZE = 20;

const SORTS = {
  "": "Best match",
  "created_at:desc": "Newest first",
  "created_at:asc": "Oldest first",
  "gradient:desc": "Most true first",
  "gradient:asc": "Most false first",
  "vote_count:desc": "Most votes",
} as const;
type SortKey = keyof typeof SORTS;

function numberParam(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return Number(value);
}

export default async function ExplorePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const form = {
    q: first(params.q) ?? "",
    tags: first(params.tags) ?? "",
    complexity: first(params.complexity) ?? "",
    min_gradient: first(params.min_gradient) ?? "",
    max_gradient: first(params.max_gradient) ?? "",
    sort: (first(params.sort) ?? "") as SortKey,
  };
  const [sortBy, sortOrder] = form.sort in SORTS && form.sort ? form.sort.split(":") : [undefined, undefined];

  const input = {
    q: form.q.trim() === "" ? undefined : form.q,
    tags: form.tags.trim() === "" ? undefined : parseTagQuery(form.tags),
    complexity: form.complexity === "" ? undefined : form.complexity,
    min_gradient: numberParam(form.min_gradient),
    max_gradient: numberParam(form.max_gradient),
    sort_by: sortBy,
    sort_order: sortOrder,
    limit: PAGE_SIZE,
    offset: offsetParam(params.offset),
  } as ListClaimsInput;

  const caller = await publicCaller();
  let result: Awaited<ReturnType<typeof caller.claims.list>> | null = null;
  let fieldErrors: Record<string, string> = {};
  let listError: string | null = null;
  try {
    result = await caller.claims.list(input);
  } catch (err) {
    if (!(err instanceof TRPCError) || err.code !== "BAD_REQUEST") throw err;
    const body = callErrorBody(err, { path: "claims.list", log: "[explore] claims failed" });
    listError = humanError(body.code, body.detail, body.errors);
    const fields = [...new Set((body.errors ?? []).map((e) => topField(e.field)))];
    fieldErrors = Object.fromEntries(fields.map((field) => [field, humanFieldErrors((body.errors ?? []).filter((e) => topField(e.field) === field))]));
  }
  const filtersActive = Boolean(input.q || input.tags || input.complexity || form.min_gradient || form.max_gradient);

  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Explore claims</h1>
          <p>Search what people claim, see how true the crowd thinks it is, and weigh in.</p>
        </div>
        <Link className={ui.button} href="/claims/new">
          Submit a claim
        </Link>
      </div>

      <Suspense fallback={<StatsBarFallback />}>
        <StatsBar />
      </Suspense>

      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <SearchForm
            form={form}
            sorts={Object.entries(SORTS)}
            tiers={COMPLEXITY_TIERS}
            fieldErrors={fieldErrors}
            filtersActive={filtersActive}
          />

          <section aria-labelledby="results-title">
            <h2 id="results-title" className="visually-hidden">
              Results
            </h2>
            {listError && Object.keys(fieldErrors).length === 0 ? (
              <p className={ui["form-error"]} role="alert">
                {listError}
              </p>
            ) : null}
            {result ? (
              <>
                <p className={exploreStyles["results-summary"]} aria-live="polite">
                  {result.total === 0
                    ? "No claims match."
                    : `${result.total.toLocaleString("en-US")} ${result.total === 1 ? "claim" : "claims"}${input.q ? ` for “${input.q}”` : ""}`}
                </p>
                {result.claims.length === 0 ? (
                  <div className={ui.card}>
                    {filtersActive ? (
                      <EmptyState title="No claims match these filters">
                        <p>Try fewer words or tags, or a wider gradient range.</p>
                        <Link href="/">Clear the filters</Link>
                      </EmptyState>
                    ) : (
                      <EmptyState title="No claims yet">
                        <p>Be the first to submit one.</p>
                        <Link className={ui.button} href="/claims/new">
                          Submit a claim
                        </Link>
                      </EmptyState>
                    )}
                  </div>
                ) : (
                  <ClaimList claims={result.claims} />
                )}
                <Pagination
                  basePath="/"
                  params={{ q: form.q, tags: form.tags, complexity: form.complexity, min_gradient: form.min_gradient, max_gradient: form.max_gradient, sort: form.sort }}
                  total={result.total}
                  limit={result.limit}
                  offset={result.offset}
                />
              </>
            ) : null}
          </section>
        </div>

        <div className={ui.stack}>
          <Suspense fallback={<SidebarCardSkeleton title="Trending now" minHeight={180} />}>
            <TrendingCard />
          </Suspense>
          <Suspense fallback={<SidebarCardSkeleton title="Topics" minHeight={140} />}>
            <TopicsCard />
          </Suspense>
        </div>
      </div>
    </>
  );
}
