"use client";
// A profile's activity as paged lists (profiles.activity, docs/features/activity.md): claims, evidence,
// arguments, and on your own profile your votes. The tab follows the address's hash
// (#activity-claims…), so the Contributions tiles link straight to their list.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useEffect, useState } from "react";
import type { ActivityItem, ActivityPage, ActivityType } from "~/server/contract/activity.ts";
import { shortDate } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import { ACTIVITY_PAGE } from "./activity-page.ts";
import ui from "../../_components/ui.module.css";

const TABS: { type: ActivityType; label: string; empty: string }[] = [
  { type: "claims", label: "Claims", empty: "No claims yet." },
  { type: "evidence", label: "Evidence", empty: "No evidence yet." },
  { type: "arguments", label: "Arguments", empty: "No arguments yet." },
  { type: "votes", label: "Your votes", empty: "You have not voted yet." },
];

/** The list a hash names ("#activity-evidence" → evidence), if any. */
function typeOfHash(hash: string): ActivityType | null {
  const found = TABS.find((t) => hash === `#activity-${t.type}`);
  return found ? found.type : null;
}

export function ActivityLists({ agentId, titleId, firstClaims }: { agentId: string; titleId: string; firstClaims: ActivityPage }) {
  const { viewer } = useViewer();
  const own = viewer?.id === agentId;
  const [type, setType] = useState<ActivityType>("claims");
  useEffect(() => {
    const follow = () => {
      const named = typeOfHash(window.location.hash);
      if (!named) return;
      setType(named);
      document.getElementById("activity")?.scrollIntoView();
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const shown = type === "votes" && !own ? "claims" : type;
  const tabs = TABS.filter((t) => t.type !== "votes" || own);

  return (
    <>
      <div className={ui.card__title}>
        <h2 id={titleId} style={{ fontSize: "1rem", margin: 0 }}>
          Recent contributions
        </h2>
        <div className={ui.segmented} role="group" aria-label="Which contributions">
          {tabs.map((t) => (
            <button key={t.type} type="button" aria-pressed={t.type === shown} onClick={() => setType(t.type)}>
              {t.label}
            </button>
          ))}
        </div>
      </div>
      <ActivityList
        key={shown}
        agentId={agentId}
        type={shown}
        empty={TABS.find((t) => t.type === shown)!.empty}
        first={shown === "claims" ? firstClaims : undefined}
      />
    </>
  );
}

/**
 * One list. `first`, the page the server read with the profile, is drawn at once (the list is in the
 * page's HTML, not a "Loading…" a phone waits a fetch for) and asked again on mount: the profile is
 * kept up to a minute, the list is this moment's.
 */
function ActivityList({ agentId, type, empty, first }: { agentId: string; type: ActivityType; empty: string; first?: ActivityPage }) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.profiles.activity.infiniteQueryOptions(
      { agent_id: agentId, type, limit: ACTIVITY_PAGE },
      {
        getNextPageParam: (page) => page.next_cursor ?? undefined,
        // The first page's parameter is "no cursor" (undefined, as tRPC starts an infinite query; its
        // type says string | null, and a null would be sent as a cursor and refused).
        ...(first ? { initialData: { pages: [first], pageParams: [undefined as unknown as string | null] }, initialDataUpdatedAt: 0 } : {}),
      },
    ),
  );
  if (query.isPending) return <p className={ui.note}>Loading…</p>;
  if (query.isError) return <p className={ui.note}>This list could not be loaded. Try again later.</p>;
  const items = query.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <p className={ui.note} style={{ margin: 0 }}>{empty}</p>;
  return (
    <>
      <ul className={ui["compact-list"]} data-testid={`activity-${type}`}>
        {items.map((item) => (
          <li key={item.id}>
            <ActivityLine item={item} />
          </li>
        ))}
      </ul>
      {query.hasNextPage ? (
        <button
          type="button"
          className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
          style={{ marginTop: "0.5rem" }}
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? "Loading…" : "Show more"}
        </button>
      ) : null}
    </>
  );
}

const POSITION_WORDS: Record<string, string> = { supports: "Supports", opposes: "Opposes", neutral: "Neutral on" };

function ActivityLine({ item }: { item: ActivityItem }) {
  const claimLink = <Link href={`/claims/${item.claim.id}`}>{item.claim.statement}</Link>;
  const when = <span>{shortDate(item.created_at)}</span>;
  switch (item.type) {
    case "claim":
      return (
        <>
          {claimLink}
          <div className={ui.meta}>{when}</div>
        </>
      );
    case "evidence":
      return (
        <>
          <span>{item.text}</span>
          <div className={ui.meta}>
            <span>
              {POSITION_WORDS[item.position ?? ""] ?? "On"}: {claimLink}
            </span>
            {when}
          </div>
        </>
      );
    case "argument":
      return (
        <>
          {item.child_claim_id ? <Link href={`/claims/${item.child_claim_id}`}>{item.text}</Link> : <span>{item.text}</span>}
          <div className={ui.meta}>
            <span>
              {item.position === "opposes" ? "Argues against" : "Argues for"}: {claimLink}
            </span>
            {when}
          </div>
        </>
      );
    case "vote":
      return (
        <>
          {claimLink}
          <div className={ui.meta}>
            <span>You said {Math.round((item.value ?? 0) * 100)} % likely true</span>
            {when}
          </div>
        </>
      );
  }
}
