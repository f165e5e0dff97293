// `npm run data:score -- DIR|URL [--key FILE|URL]`: verifies a snapshot of the open data and recomputes
// every verdict in it from its inputs alone (docs/features/open-data.md#rescoring): no database, the
// service's own rules. DIR is a snapshot's folder; URL a snapshot's address (https://…/data/<name>),
// downloaded first into ./<name> (or --into DIR). --key is the service's public key
// (/.well-known/claims-data-key, as a file or its URL); without it, this installation's own key.
// Prints every mismatch, naming its file; exit code 0 when everything matches, 1 otherwise.
import { createPublicKey, type KeyObject } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { MANIFEST_FILE, SIGNATURE_FILE, SNAPSHOT_NAME, type Manifest } from "../services/open-data-format.ts";
import { existingSigningKey } from "../services/open-data-key.ts";
import { rescoreSnapshot } from "../services/open-data-score.ts";

const USAGE = `npm run data:score -- DIR|URL [--key FILE|URL] [--into DIR]
  DIR          a snapshot's folder (manifest.json, manifest.sig and the files it lists)
  URL          a snapshot's address, https://<service>/data/<name>: downloaded into ./<name> (or --into) first
  --key        the public key that signs the snapshots: a PEM file, or https://<service>/.well-known/claims-data-key
               (default: this installation's own key, DATA_SIGNING_KEY or the one generated in DATA_DIR)`;

const isUrl = (s: string) => /^https?:\/\//.test(s);

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${res.statusText}`);
  return res;
}

async function publicKey(source: string | undefined): Promise<KeyObject> {
  if (source) return createPublicKey(isUrl(source) ? await (await fetchOk(source)).text() : await readFile(source, "utf8"));
  const own = existingSigningKey();
  if (!own) throw new Error("no public key: pass --key with the service's /.well-known/claims-data-key");
  return createPublicKey(own);
}

/** Downloads a snapshot (its manifest, signature and every file the manifest lists) into `into`. */
async function download(url: string, into: string | undefined): Promise<string> {
  const base = url.replace(/\/+$/, "");
  const name = base.split("/").pop() ?? "";
  if (!SNAPSHOT_NAME.test(name)) throw new Error(`${url} is not a snapshot's address (…/data/<name>, the name like 20261128T120000Z)`);
  const dir = path.resolve(into ?? name);
  await mkdir(dir, { recursive: true });
  const manifestBytes = Buffer.from(await (await fetchOk(`${base}/${MANIFEST_FILE}`)).arrayBuffer());
  await writeFile(path.join(dir, MANIFEST_FILE), manifestBytes);
  await writeFile(path.join(dir, SIGNATURE_FILE), Buffer.from(await (await fetchOk(`${base}/${SIGNATURE_FILE}`)).arrayBuffer()));
  const manifest = JSON.parse(manifestBytes.toString("utf8")) as Manifest;
  for (const file of Object.keys(manifest.files)) {
    if (file.includes("/") || file.startsWith(".")) throw new Error(`the manifest lists ${JSON.stringify(file)}, not a file name`);
    await writeFile(path.join(dir, file), Buffer.from(await (await fetchOk(`${base}/${file}`)).arrayBuffer()));
    console.log(`downloaded ${file}`);
  }
  return dir;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { key: { type: "string" }, into: { type: "string" }, help: { type: "boolean" } } });
if (values.help || positionals.length !== 1) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
try {
  const key = await publicKey(values.key);
  const dir = isUrl(positionals[0]) ? await download(positionals[0], values.into) : path.resolve(positionals[0]);
  const report = await rescoreSnapshot(dir, key);
  for (const m of report.mismatches) console.log(`${m.file}: ${m.detail}`);
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const summary = `${report.claims} claims and ${report.votes} votes (${report.fittedVotes} fitted) rescored in ${report.seconds.toFixed(1)} s, peak memory ${maxRssMb} MB`;
  if (report.mismatches.length === 0) console.log(`${dir}: the signature, every file and every verdict match. ${summary}.`);
  else {
    console.log(`${dir}: ${report.mismatches.length} mismatch(es). ${summary}.`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`data:score failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
