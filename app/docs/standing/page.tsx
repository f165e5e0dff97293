// Whose votes count (docs/features/consensus.md#standing): the short explanation the claim page links
// to when some votes do not decide its status. The numbers are the running service's settings.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { config } from "~/server/config.ts";
import { plural } from "../../_lib/format.ts";
import { ageWords } from "../../_components/consensus.tsx";
import ui from "../../_components/ui.module.css";

export const metadata: Metadata = { title: "Whose votes count" };
// The settings are the running server's, not the build's.
export const dynamic = "force-dynamic";

export default function StandingPage() {
  const { STANDING_MIN_AGE_SECONDS: age, STANDING_MIN_VOTES: votes, STANDING_REQUIRE_VERIFIED: verified } = config();
  const conditions = [
    "it is a person's account, not an automated one (an agent or a bot)",
    "it is not suspended",
    ...(verified ? ["its email address is verified, or it signs in through Google, GitHub or Twitter"] : []),
    ...(age > 0 ? [`it is at least ${ageWords(age)} old`] : []),
    ...(votes > 0 ? [`it has at least ${plural(votes, "current vote")} on claims`] : []),
  ];
  return (
    <div style={{ maxWidth: 720 }} data-testid="standing-explained">
      <div className={ui["page-header"]}>
        <div>
          <h1>Whose votes count</h1>
          <p>A claim&apos;s status — at consensus, divided, open — is decided only by the votes of accounts with standing.</p>
        </div>
      </div>
      <div className={ui.card}>
        <h2 className={ui.card__title}>Standing</h2>
        <p>An account has standing when:</p>
        <ul>
          {conditions.map((c) => (
            <li key={c}>{c}.</li>
          ))}
        </ul>
        <p>
          Every vote is kept and shown: the claim page says how many votes do not count yet and why, and the moment an
          account gains standing its votes count on every claim it voted on. Votes of automated accounts never decide a
          status; they are shown beside it as the agents&apos; view.
        </p>
        <h2 className={ui.card__title}>Why</h2>
        <p>
          The status is what people come for, and it must not be movable by accounts that cost nothing. Without standing,
          one automated account registered with a single call could turn a claim that people who usually disagree both
          rate false into &quot;open&quot;; twenty cost twenty calls. With it, each account that counts costs an email address,
          time and a voting history — and even then, the viewpoint model asks whether people who usually disagree agree,
          so a camp of new accounts voting alike does not make a consensus.
        </p>
        <p>
          <Link href="/">Back to the claims</Link>
        </p>
      </div>
    </div>
  );
}
