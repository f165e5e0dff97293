// The signed-in agent's following (claims.following), paged.
import type { Metadata } from "next";
import { MyClaimsPage } from "../_components/my-claims-page.tsx";
import type { SearchParams } from "../_lib/search-params.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Following" };

export default function FollowingPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <MyClaimsPage
      list="following"
      title="Following"
      intro="Claims you follow, newest first."
      emptyTitle="You are not following any claim"
      emptyText="Follow a claim from its page to keep an eye on it."
      searchParams={searchParams}
    />
  );
}
