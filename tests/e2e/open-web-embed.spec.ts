// A claim's embed on another site (docs/features/open-web.md#embeds): a page of another origin frames
// /embed/claims/{id} (frame-ancestors *), the card shows the statement and the status in the claim
// page's words, and redraws itself when a vote arrives, without the host page doing anything; the claim
// page itself refuses to be framed (frame-ancestors 'none').
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { api, createClaim, createPerson, unique } from "./ui-helpers.ts";

test("another site frames the live card; the claim page itself stays unframed", async ({ page, request, baseURL }) => {
  const author = await createPerson(request, "embedauthor_");
  const voter = await createPerson(request, "embedvoter_");
  const claim = await createClaim(request, author, { statement: `Embed test ${unique("e")}: octopuses have three hearts.` });

  // Another origin's page with two frames, the embed and the claim page, served from loopback by a
  // server of its own (Chromium keeps a page that did not come from a local address off local ones).
  const host = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>A blog</title><h1>A blog post</h1>
        <iframe id="embed" src="${baseURL}/embed/claims/${claim.id}" width="560" height="260"></iframe>
        <iframe id="page" src="${baseURL}/claims/${claim.id}" width="560" height="260"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const HOST = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const refused = page.waitForEvent("console", { predicate: (m) => /frame-ancestors|Refused to (display|frame)/i.test(m.text()), timeout: 15_000 }).catch(() => null);
  await page.goto(`${HOST}/post`);

  const card = page.frameLocator("#embed");
  await expect(card.getByRole("link", { name: claim.statement })).toBeVisible();
  await expect(card.getByTestId("embed-status")).toHaveText("No votes yet");

  // A vote elsewhere: the card redraws itself (it listens to the claim's stream).
  expect((await api(request, voter, "POST", `/claims/${claim.id}/vote`, { value: 0.9 })).status).toBe(200);
  await expect(card.getByTestId("embed-status")).toHaveText("1 vote so far — too few to call", { timeout: 15_000 });

  // The claim page in a frame is refused by the browser: nothing of it renders there.
  expect(await refused).not.toBeNull();
  await expect(page.frameLocator("#page").getByTestId("consensus-status")).toHaveCount(0);
  host.close();
});
