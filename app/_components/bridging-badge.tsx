// The viewpoint model's reading of a claim (bridged consensus, docs/features/bridging.md): whether voters
// who usually disagree agree on it, with a sentence saying what that means and the model's score.
import type { Claim } from "~/server/contract/claims.ts";
import ui from "./ui.module.css";

type Bridging = Pick<Claim["bridging"], "score" | "status">;

// The badge speaks of viewpoints only, never a verdict of its own: the verdict is the claim's consensus
// status (consensus.tsx), which follows from this model when it has enough data.
const LABELS: Record<Bridging["status"], { label: string; tone: string; meaning: string }> = {
  bridged_true: {
    label: "Viewpoints agree: true",
    tone: "badge--true",
    meaning: "Voters who usually disagree with each other both rate this claim as true.",
  },
  bridged_false: {
    label: "Viewpoints agree: false",
    tone: "badge--false",
    meaning: "Voters who usually disagree with each other both rate this claim as false.",
  },
  divided: {
    label: "Viewpoints split",
    tone: "badge--neutral",
    meaning:
      "Votes split along the usual lines of disagreement: one group rates it high, another low. A high or low average here reflects which group voted more, not agreement.",
  },
  undecided: {
    label: "Viewpoints: no clear agreement",
    tone: "badge--neutral",
    meaning: "Voters from different viewpoints have rated it, but neither clearly true nor clearly false.",
  },
  insufficient_data: {
    label: "Viewpoints: not enough data",
    tone: "",
    meaning: "Too few votes from people with a voting history to tell whether different viewpoints agree.",
  },
};

export function BridgingBadge({ bridging, withMeaning = false }: { bridging: Bridging; withMeaning?: boolean }) {
  const l = LABELS[bridging.status];
  return (
    <span data-testid="bridging-badge" data-status={bridging.status}>
      <span className={`${ui.badge} ${l.tone ? ui[l.tone] : ""}`} style={{ textTransform: "none" }} title={withMeaning ? undefined : l.meaning}>
        {l.label}
        {bridging.score !== null ? ` · score ${bridging.score.toFixed(2)}` : ""}
      </span>
      {/* With its meaning written out beside it, the badge needs no tooltip saying the same. */}
      {withMeaning ? (
        <span className={ui.note} style={{ display: "block", marginTop: "0.35rem" }}>
          {l.meaning}
        </span>
      ) : null}
    </span>
  );
}
