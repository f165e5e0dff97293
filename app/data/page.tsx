// GET /data: the open data (docs/features/open-data.md). The kept snapshots with their files, and how to
// download, verify and rescore one: every verdict the service publishes can be recomputed from them. A
// program asking for JSON is sent the same list as JSON (next.config.mjs: /data.json).
import type { Metadata } from "next";
import { headers } from "next/headers";
import { publicOriginOfHeaders } from "~/server/http/public-origin.ts";
import { KEY_PATH } from "~/server/http/open-data.ts";
import { listSnapshots } from "~/server/services/open-data-snapshot.ts";
import { plural } from "../_lib/format.ts";
import ui from "../_components/ui.module.css";
import styles from "./data.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Open data",
  description: "Every claim, vote and verdict as signed snapshots, and a scorer anyone can rerun to confirm each published status.",
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export default async function DataPage() {
  const origin = publicOriginOfHeaders(await headers());
  const snapshots = await listSnapshots();
  const latest = snapshots[0];
  const name = latest?.name ?? "<snapshot>";
  const commit = latest?.manifest.code_version.split("+")[1];
  return (
    <div className={styles.page}>
      <div className={ui["page-header"]}>
        <div>
          <h1>Open data</h1>
          <p>
            Every published claim, every vote (under a pseudonym), the arguments, evidence and the verdicts — the bridging model&apos;s outputs and
            each claim&apos;s consensus status — as signed snapshots. The scorer that comes with the code recomputes every verdict from the
            snapshot&apos;s inputs alone, on a laptop, and names anything that does not match.
          </p>
        </div>
      </div>

      <h2>Verify and rescore</h2>
      <p className={ui.muted}>
        With Node.js 24 and git. The manifest names the code version that wrote the snapshot; the public key is at{" "}
        <a href={KEY_PATH}>{KEY_PATH}</a>. What each file holds, every column, and what is left out and why: <code>docs/features/open-data.md</code>{" "}
        in the repository. A program reads this list as JSON at <a href="/data.json">/data.json</a>.
      </p>
      <pre className={`${ui.card} ${styles.commands}`} data-testid="verify-commands">
        {[
          `git clone <this service's repository> claims && cd claims${commit ? ` && git checkout ${commit}` : ""}`,
          "npm ci",
          `curl -fsS ${origin}${KEY_PATH} -o claims-data-key.pem`,
          `npm run data:score -- ${origin}/data/${name} --key claims-data-key.pem`,
        ].join("\n")}
      </pre>
      <p className={ui.muted}>
        The last command downloads the snapshot into a folder named after it, checks the signature and every file&apos;s SHA-256, refits the
        model and restates every status, and prints each mismatch (none: exit code 0). A folder already downloaded is rescored with{" "}
        <code>npm run data:score -- {name} --key claims-data-key.pem</code>.
      </p>

      <h2>Snapshots</h2>
      {snapshots.length === 0 ? (
        <p className={ui["empty-state"]}>No snapshot has been taken yet.</p>
      ) : (
        snapshots.map((s) => (
          <section key={s.name} className={`${ui.card} ${styles.snapshot}`} data-testid="snapshot">
            <h3>{s.name}</h3>
            <p className={ui.muted}>
              Inputs read at <time dateTime={s.manifest.cutoff}>{s.manifest.cutoff}</time> · written{" "}
              <time dateTime={s.manifest.created_at}>{s.manifest.created_at}</time> · code {s.manifest.code_version} · {size(s.bytes)}
            </p>
            <table className={styles.files}>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Size</th>
                  <th scope="col">SHA-256</th>
                </tr>
              </thead>
              <tbody>
                {[
                  ...Object.entries(s.extra).map(([file, f]) => [file, null, f] as const),
                  ...Object.entries(s.manifest.files).map(([file, f]) => [file, f.rows, f] as const),
                ].map(([file, rows, f]) => (
                  <tr key={file}>
                    <td>
                      <a href={`/data/${s.name}/${file}`}>{file}</a>
                    </td>
                    <td className={styles.number}>{rows === null ? "–" : plural(rows, "row")}</td>
                    <td className={styles.number}>{size(f.bytes)}</td>
                    <td className={styles.hash}>{f.sha256.slice(0, 16)}…</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))
      )}
    </div>
  );
}
