// A signed-in agent's own claim list (bookmarks, following): the same page with other words.
import Link from "~/app/_components/link.tsx";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { EmptyState } from "./bits.tsx";
import { ClaimList } from "./claim-card.tsx";
import { Pagination } from "./pagination.tsx";
import { offsetParam, type SearchParams } from "../_lib/search-params.ts";
import ui from "./ui.module.css";

const PAGE_SIZE = 20;

export interface MyClaimsPageProps {
  list: "bookmarks" | "following";
  title: string;
  intro: string;
  emptyTitle: string;
  emptyText: string;
  searchParams: Promise<SearchParams>;
}

export async function MyClaimsPage({ list, title, intro, emptyTitle, emptyText, searchParams }: MyClaimsPageProps) {
  const basePath = `/${list}`;
  const viewer = await currentViewer();
  if (!viewer) redirect(`/signin?redirect_to=${encodeURIComponent(basePath)}`);
  const offset = offsetParam((await searchParams).offset);
  const caller = await serverCaller();
  const result = await caller.claims[list]({ limit: PAGE_SIZE, offset });
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>{title}</h1>
          <p>{intro}</p>
        </div>
      </div>
      {result.claims.length === 0 ? (
        <div className={ui.card}>
          <EmptyState title={emptyTitle}>
            <p>{emptyText}</p>
            <Link className={ui.button} href="/">
              Explore claims
            </Link>
          </EmptyState>
        </div>
      ) : (
        <ClaimList claims={result.claims} />
      )}
      <Pagination basePath={basePath} params={{}} total={result.total} limit={PAGE_SIZE} offset={offset} />
    </>
  );
}
