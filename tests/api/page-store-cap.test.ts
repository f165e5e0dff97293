// The kept pages' store has a size cap (docs/features/page-cache.md#the-stores-size): with
// PAGE_STORE_MAX_MB=1 and renders of ≈0.4 MB, the store holds the two written last; a third write removes
// the one written longest ago (its next view renders anew), a page written again counts as new, and a
// process that starts on a folder an earlier one filled counts what is there. The store is the one Next
// uses (server/cache/page-store.ts, on Next's own file-system cache; in Redis when REDIS_URL is set),
// handed page renders of the shape Next hands it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import PageStore, { keptPageKey } from "../../server/cache/page-store.ts";
import { pageStoreState } from "../../server/cache/page-store-state.ts";
import { config } from "../../server/config.ts";

// Before anything reads the configuration: a 1 MB cap, and a data directory of this file's own.
const dataDir = mkdtempSync(path.join(tmpdir(), "page-store-cap-"));
process.env.DATA_DIR = dataDir;
process.env.PAGE_STORE_MAX_MB = "1";

// A build of its own (the store is namespaced by build id): <dist>/../BUILD_ID.
const buildDir = path.join(dataDir, "build");
const serverDistDir = path.join(buildDir, "server");
mkdirSync(serverDistDir, { recursive: true });
writeFileSync(path.join(buildDir, "BUILD_ID"), `cap-test-${randomUUID()}`);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const { nodeFs } = (await import("next/dist/server/lib/node-fs-methods.js")) as unknown as { nodeFs: unknown };

function store(): PageStore {
  return new PageStore({ serverDistDir, fs: nodeFs, flushToDisk: true, maxMemoryCacheSize: 50 * 1024 * 1024, dev: false });
}

/** A page render as Next hands it to the store, ≈410 KB. */
function render(marker: string) {
  return {
    kind: "APP_PAGE",
    html: `<!DOCTYPE html><title>${marker}</title>${"x".repeat(300_000)}`,
    rscData: Buffer.alloc(100_000, 1),
    segmentData: new Map([["/_index", Buffer.alloc(10_000, 2)]]),
    headers: { "x-next-cache-tags": "_N_T_/layout" },
    status: 200,
    postponed: undefined,
  };
}

const SET_CONTEXT = { cacheControl: { revalidate: 300, expire: undefined }, isRoutePPREnabled: false, isFallback: false, tags: [] };

async function keep(page: string): Promise<void> {
  await store().set(keptPageKey(page)!, render(page), SET_CONTEXT);
}

const held = (page: string) => store().holds(page);
const claimPage = () => `/claims/${randomUUID()}`;

/** The bytes of the file-system store's folder (the file-system store only). */
function folderBytes(): number {
  const dir = pageStoreState().fileSystemDir!;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
}

const onFileSystem = !config().REDIS_URL;

describe("the kept pages' store stays within PAGE_STORE_MAX_MB", () => {
  it("a write past the cap removes the page written longest ago; its next view is not served from the store", async () => {
    const [first, second, third] = [claimPage(), claimPage(), claimPage()];
    await keep(first);
    await keep(second);
    expect(await held(first)).toBe(true);
    expect(await held(second)).toBe(true);
    await keep(third);
    expect(await held(first)).toBe(false);
    expect(await held(second)).toBe(true);
    expect(await held(third)).toBe(true);
    if (onFileSystem) expect(folderBytes()).toBeLessThanOrEqual(1024 * 1024);
  });

  it("a page written again (an event's re-render) counts as new: the next one out is the other", async () => {
    const [a, b, c] = [claimPage(), claimPage(), claimPage()];
    await keep(a);
    await keep(b);
    await keep(a);
    await keep(c);
    expect(await held(b)).toBe(false);
    expect(await held(a)).toBe(true);
    expect(await held(c)).toBe(true);
  });

  it.runIf(onFileSystem)("a process starting on a folder an earlier one filled counts what is there", async () => {
    const [old, newer] = [claimPage(), claimPage()];
    await keep(old);
    await keep(newer);
    // A new process: no ledger yet, Next's in-process copy empty; the folder as the last one left it.
    const state = pageStoreState();
    state.cap = undefined;
    (store() as unknown as { inner: { constructor: { memoryCache?: { remove(key: string): void } } } }).inner.constructor.memoryCache?.remove(keptPageKey(old)!);
    store();
    // The ledger reads the folder in the background.
    await pageStoreState().cap?.seeded;
    const latest = claimPage();
    await keep(latest);
    expect(await held(old)).toBe(false);
    expect(await held(newer)).toBe(true);
    expect(await held(latest)).toBe(true);
    expect(folderBytes()).toBeLessThanOrEqual(1024 * 1024);
  });
});
