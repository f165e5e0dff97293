// A claim's picture (docs/features/open-web.md#cards): 1200×630 PNG with the statement, where
// consensus stands in the page's words, and the histogram of the counted votes, drawn by next/og
// (Satori and resvg, in process, with the font it ships). Only characters that font has are drawn:
// for any other, next/og would fetch a font from Google Fonts with the text in the address, which the
// service never does (the picture would send the statement elsewhere, and it runs offline).
import { ImageResponse } from "next/og";
import { histogramBin } from "~/server/domain/consensus.ts";
import { consensusHeadline, hasVerdict } from "../consensus-words.ts";
import { percent, plural } from "../format.ts";
import { CARD_HEIGHT, CARD_WIDTH, cardVersion, type CardClaim } from "./card-version.ts";
import { bodyFor, failed, visibleClaim, visitorCaller } from "./http.ts";

/** Latin, Latin-1, Latin Extended-A/B, general punctuation, currency: what the bundled Geist draws. */
const DRAWN = /[^\u0020-\u007E\u00A0-\u024F\u2010-\u2027\u2030-\u205E\u20AC]+/g;

export function drawable(text: string): string {
  return text.replace(DRAWN, "·").replace(/·{2,}/g, "·");
}

const STATEMENT_CHARS = 220;

const TONE = { consensus_true: "#15803d", consensus_false: "#b91c1c" } as Record<string, string>;

function Card({ claim }: { claim: CardClaim }) {
  const statement = claim.statement.length > STATEMENT_CHARS ? `${claim.statement.slice(0, STATEMENT_CHARS - 1)}…` : claim.statement;
  const { consensus } = claim;
  const headline = consensusHeadline({ ...consensus, votes: claim.vote_count });
  const tone = TONE[consensus.status] ?? "#374151";
  const max = Math.max(1, ...consensus.histogram);
  const statementSize = statement.length > 140 ? 40 : statement.length > 70 ? 48 : 58;
  return (
    <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", background: "#ffffff", padding: "56px 64px", fontSize: 28, color: "#111827" }}>
      <div style={{ display: "flex", fontSize: 26, color: "#6b7280", letterSpacing: 1 }}>CLAIMS · WHERE CONSENSUS STANDS</div>
      <div style={{ display: "flex", marginTop: 24, fontSize: statementSize, fontWeight: 600, lineHeight: 1.2, flexGrow: 1 }}>{drawable(statement)}</div>
      <div style={{ display: "flex", alignItems: "flex-end", justifyContent: "space-between", marginTop: 24 }}>
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ display: "flex", fontSize: 44, fontWeight: 700, color: tone }}>{headline}</div>
          <div style={{ display: "flex", marginTop: 8, color: "#4b5563" }}>
            {hasVerdict(consensus) && consensus.gradient !== null
              ? `${percent(consensus.gradient)} true · ${plural(consensus.voters, "counted vote")}`
              : plural(claim.vote_count, "vote")}
          </div>
        </div>
        <div style={{ display: "flex", flexDirection: "column", alignItems: "center" }}>
          <div style={{ display: "flex", alignItems: "flex-end", height: 150, borderBottom: "3px solid #9ca3af" }}>
            {consensus.histogram.map((n, i) => (
              <div
                key={i}
                style={{
                  display: "flex",
                  width: 34,
                  marginLeft: i === 0 ? 0 : 6,
                  height: Math.max(3, Math.round((n / max) * 146)),
                  background: i < histogramBin(0.2) ? "#dc2626" : i >= histogramBin(0.8) ? "#16a34a" : "#9ca3af",
                  opacity: n === 0 ? 0.25 : 1,
                }}
              />
            ))}
          </div>
          <div style={{ display: "flex", width: "100%", justifyContent: "space-between", fontSize: 20, color: "#6b7280", marginTop: 6 }}>
            <span>false</span>
            <span>true</span>
          </div>
        </div>
      </div>
    </div>
  );
}

/** GET /claims/{id}/card.png: the picture of a visible claim (404 for a hidden or unknown one). */
export async function cardResponse(request: Request, claimId: string): Promise<Response> {
  try {
    const caller = await visitorCaller(request);
    const claim = await visibleClaim(caller, claimId);
    const etag = `"${cardVersion(claim)}"`;
    const headers = { "Cache-Control": "public, max-age=300", ETag: etag, "X-Content-Type-Options": "nosniff" };
    if (request.headers.get("if-none-match")?.split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
    const image = new ImageResponse(<Card claim={claim} />, { width: CARD_WIDTH, height: CARD_HEIGHT });
    const png = await image.arrayBuffer();
    return new Response(bodyFor(request, png), { status: 200, headers: { ...headers, "Content-Type": "image/png" } });
  } catch (err) {
    return failed(err, "Claim", "[open-web] claim card failed");
  }
}
