// Submit a claim (claims.create). Signed-in only; `?parent=<id>` starts it as a sub-claim.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { COMPLEXITY_TIERS, MAX_PARENTS, STATEMENT_MAX, STATEMENT_MIN } from "~/server/contract/claims.ts";
import { MAX_TAGS } from "~/server/domain/tags.ts";
import { first, type SearchParams } from "../../_lib/search-params.ts";
import { NewClaimForm, type ParentOption } from "./new-claim-form.tsx";
import ui from "../../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit a claim" };

export default async function NewClaimPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const parentId = first(params.parent);
  const viewer = await currentViewer();
  if (!viewer) {
    const back = parentId ? `/claims/new?parent=${encodeURIComponent(parentId)}` : "/claims/new";
    redirect(`/signin?redirect_to=${encodeURIComponent(back)}`);
  }
  let initialParents: ParentOption[] = [];
  if (parentId) {
    const caller = await serverCaller();
    const parent = await caller.claims.get({ claim_id: parentId }).catch(() => null);
    if (parent) initialParents = [{ id: parent.id, statement: parent.statement }];
  }
  return (
    <div style={{ maxWidth: 760, margin: "0 auto" }}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Submit a claim</h1>
          <p>State one thing that can be true or false. Others vote how true it is and bring evidence.</p>
        </div>
      </div>
      <NewClaimForm
        initialParents={initialParents}
        tiers={[...COMPLEXITY_TIERS]}
        limits={{ statementMin: STATEMENT_MIN, statementMax: STATEMENT_MAX, maxTags: MAX_TAGS, maxParents: MAX_PARENTS }}
      />
    </div>
  );
}
