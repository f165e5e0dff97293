// A claim's embed (docs/features/open-web.md#embeds): GET /embed/claims/{id}, a compact card with no
// site chrome for other sites' iframes, live (it listens to the claim's stream and redraws itself when
// a vote or evidence arrives); GET /oembed?url=<claim page>&format=json, oEmbed 1.0's `rich` answer
// with that iframe. The embed is the one address other origins may frame: next.config.mjs gives it
// its own headers (frame-ancestors *), every other page keeps frame-ancestors 'none'.
import { invalidField } from "~/server/door/answers.ts";
import { histogramBin } from "~/server/domain/consensus.ts";
import { consensusHeadline, hasVerdict } from "../consensus-words.ts";
import { percent, plural } from "../format.ts";
import { SERVICE_NAME } from "./atom.ts";
import { cardPath, CARD_HEIGHT, CARD_WIDTH } from "./card-version.ts";
import { bodyFor, failed, notFound, publicOrigin, refusal, visibleClaim, visitorCaller } from "./http.ts";

/** The iframe's size: a card that fits a column of text or a phone. */
export const EMBED_WIDTH = 560;
export const EMBED_HEIGHT = 260;

const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const TONE: Record<string, string> = { consensus_true: "#15803d", consensus_false: "#b91c1c" };

/** The events that change what the card shows (server/api/live-stream.ts). */
const REDRAW_ON = ["claim.voted", "claim.resolved", "claim.evidence_added"];

/** GET /embed/claims/{id}: the card as a small page of its own (HTML, inline style, one inline script). */
export async function embedResponse(request: Request, claimId: string): Promise<Response> {
  const origin = publicOrigin(request);
  try {
    const caller = await visitorCaller(request);
    const claim = await visibleClaim(caller, claimId);
    const { consensus } = claim;
    const url = `${origin}/claims/${claim.id}`;
    const headline = consensusHeadline({ ...consensus, votes: claim.vote_count });
    const numbers =
      hasVerdict(consensus) && consensus.gradient !== null ? `${percent(consensus.gradient)} true · ${plural(consensus.voters, "counted vote")}` : plural(claim.vote_count, "vote");
    const max = Math.max(1, ...consensus.histogram);
    const bars = consensus.histogram
      .map((n, i) => {
        const colour = i < histogramBin(0.2) ? "#dc2626" : i >= histogramBin(0.8) ? "#16a34a" : "#9ca3af";
        return `<span style="height:${Math.max(2, Math.round((n / max) * 48))}px;background:${colour};opacity:${n === 0 ? 0.3 : 1}" title="${n}"></span>`;
      })
      .join("");
    const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(claim.statement)} · ${SERVICE_NAME}</title>
<link rel="canonical" href="${html(url)}">
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#fff}
.card{border:1px solid #d1d5db;border-radius:10px;padding:14px 16px;max-width:${EMBED_WIDTH}px}
.brand{font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#6b7280;text-decoration:none}
.statement{display:block;margin:6px 0 10px;font-size:18px;font-weight:600;color:inherit;text-decoration:none}
.statement:hover,.statement:focus{text-decoration:underline}
.row{display:flex;justify-content:space-between;align-items:flex-end;gap:12px}
.status{font-weight:700;font-size:16px;color:${TONE[consensus.status] ?? "#374151"}}
.numbers{color:#4b5563;font-size:13px}
.bars{display:flex;align-items:flex-end;gap:3px;height:50px;border-bottom:2px solid #9ca3af}
.bars span{display:block;width:10px}
@media (prefers-color-scheme:dark){body{background:#171b23;color:#e5e7eb}.card{border-color:#374151}.numbers,.brand{color:#9ca3af}}
</style>
</head>
<body>
<div class="card" data-claim-id="${html(claim.id)}" data-status="${consensus.status}">
<a class="brand" href="${html(origin)}/" target="_blank" rel="noopener">${SERVICE_NAME} · where consensus stands</a>
<a class="statement" href="${html(url)}" target="_blank" rel="noopener">${html(claim.statement)}</a>
<div class="row">
<div><div class="status" data-testid="embed-status">${html(headline)}</div><div class="numbers">${html(numbers)}</div></div>
<div class="bars" role="img" aria-label="Counted votes from false (left) to true (right)">${bars}</div>
</div>
</div>
<script>
(function(){if(typeof EventSource==="undefined")return;var s=new EventSource(${JSON.stringify(`/api/live/claims/${claim.id}`).replace(/</g, "\\u003c")});var t=null;
function redraw(){if(t)return;t=setTimeout(function(){s.close();location.reload();},2000);}
${JSON.stringify(REDRAW_ON)}.forEach(function(e){s.addEventListener(e,redraw);});})();
</script>
</body>
</html>
`;
    return new Response(bodyFor(request, page), {
      status: 200,
      // Short: the card redraws itself while it is open; a new view reads it anew within a minute.
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=60" },
    });
  } catch (err) {
    return failed(err, "Claim", "[open-web] claim embed failed");
  }
}

/** The claim id a claim page's address names, on this service's origin; null for any other address. */
export function claimIdOfUrl(raw: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const match = /^\/(?:claims|embed\/claims)\/([^/]+?)(?:\.md)?\/?$/.exec(url.pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

const JSON_ANSWER = { json: true };

/** GET /oembed?url=…&format=json[&maxwidth&maxheight]: a `rich` answer with the embed's iframe (oEmbed 1.0, §2.3). */
export async function oembedResponse(request: Request): Promise<Response> {
  const origin = publicOrigin(request);
  const params = new URL(request.url).searchParams;
  const format = params.get("format") ?? "json";
  // oEmbed §2.3.4 would answer 501 for another format; the error table has no such code, so it is the
  // 400 every unknown enum value gets (docs/features/open-web.md#embeds).
  if (format !== "json") return refusal(invalidField("format", "must be json", { rule: "enum", options: ["json"] }), JSON_ANSWER);
  const target = params.get("url");
  if (!target) return refusal(invalidField("url", "required", { rule: "required" }), JSON_ANSWER);
  const id = claimIdOfUrl(target, origin);
  if (id === null) return notFound("Claim", JSON_ANSWER);
  try {
    const caller = await visitorCaller(request);
    const claim = await visibleClaim(caller, id);
    const bound = (name: string, fallback: number) => {
      const n = Number(params.get(name));
      return Number.isFinite(n) && n > 0 ? Math.min(fallback, Math.floor(n)) : fallback;
    };
    const width = bound("maxwidth", EMBED_WIDTH);
    const height = bound("maxheight", EMBED_HEIGHT);
    const src = `${origin}/embed/claims/${claim.id}`;
    const body = {
      version: "1.0",
      type: "rich",
      title: claim.statement,
      author_name: claim.author.display_name || claim.author.username,
      author_url: `${origin}/profiles/${encodeURIComponent(claim.author.username)}`,
      provider_name: SERVICE_NAME,
      provider_url: `${origin}/`,
      cache_age: 300,
      width,
      height,
      html: `<iframe src="${html(src)}" width="${width}" height="${height}" title="${html(claim.statement.slice(0, 200))}" style="border:0;max-width:100%" loading="lazy"></iframe>`,
      thumbnail_url: `${origin}${cardPath(claim)}`,
      thumbnail_width: CARD_WIDTH,
      thumbnail_height: CARD_HEIGHT,
    };
    return new Response(bodyFor(request, JSON.stringify(body)), {
      status: 200,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" },
    });
  } catch (err) {
    return failed(err, "Claim", "[open-web] oembed failed", JSON_ANSWER);
  }
}
