// The claim's structured data as a script element (app/_lib/open-web/json-ld.ts). React writes a
// script's text as given (no HTML escaping, no raw-HTML prop needed): jsonLdText escapes `<` itself.
import type { Claim } from "~/server/contract/claims.ts";
import { claimJsonLd, jsonLdText } from "../../_lib/open-web/json-ld.ts";
import { siteOrigin } from "../../_lib/open-web/metadata.ts";

export function ClaimJsonLd({ claim }: { claim: Claim }) {
  if (claim.moderation) return null;
  return <script type="application/ld+json">{jsonLdText(claimJsonLd(claim, siteOrigin()))}</script>;
}
