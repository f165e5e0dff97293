// The signed-in agent's bookmarks (claims.bookmarks), paged.
import type { Metadata } from "next";
import { MyClaimsPage } from "../_components/my-claims-page.tsx";
import type { SearchParams } from "../_lib/search-params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Bookmarks" };

export default function BookmarksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <MyClaimsPage
      list="bookmarks"
      title="Bookmarks"
      intro="Claims you saved, newest bookmark first."
      emptyTitle="No bookmarks yet"
      emptyText="Bookmark a claim from its page to find it here again."
      searchParams={searchParams}
    />
  );
}
