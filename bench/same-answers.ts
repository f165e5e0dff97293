// The yardstick must answer what our server answers: the same SQL, the same JSON. Before the API table,
// one request of each read endpoint the two share goes to both, and every difference is printed, so a
// yardstick left behind by a change of the contract (a new field, a new filter) shows in the report
// instead of quietly flattering the ratios.
import type { Endpoint } from "./load.ts";
import type { Server } from "./orchestration.ts";

/** Fields that say when an answer was computed (a cached ranking or statistics), not what it is. */
const WHEN_COMPUTED = new Set(["updated_at"]);

function differences(ours: unknown, bare: unknown, at: string, out: string[]): void {
  if (out.length >= 5) return;
  if (Array.isArray(ours) && Array.isArray(bare)) {
    if (ours.length !== bare.length) out.push(`${at}: ${ours.length} items vs ${bare.length}`);
    ours.slice(0, bare.length).forEach((item, i) => differences(item, bare[i], `${at}[${i}]`, out));
    return;
  }
  if (ours && bare && typeof ours === "object" && typeof bare === "object") {
    const o = ours as Record<string, unknown>;
    const b = bare as Record<string, unknown>;
    for (const key of new Set([...Object.keys(o), ...Object.keys(b)])) {
      if (at === "" && WHEN_COMPUTED.has(key)) continue;
      if (!(key in b)) out.push(`${at}.${key}: only ours`);
      else if (!(key in o)) out.push(`${at}.${key}: only the yardstick's`);
      else differences(o[key], b[key], `${at}.${key}`, out);
    }
    return;
  }
  if (ours !== bare) out.push(`${at}: ${JSON.stringify(ours)?.slice(0, 40)} vs ${JSON.stringify(bare)?.slice(0, 40)}`);
}

async function answer(server: Server, endpoint: Endpoint, spec: ReturnType<Endpoint["next"]>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.base}${endpoint.pathPrefix ?? "/api/v1"}${spec.path}`, { headers: spec.headers });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** One line per read endpoint whose answer differs between the two servers (none when they agree). */
export async function differingAnswers(ours: Server, bare: Server, endpoints: Endpoint[]): Promise<string[]> {
  const lines: string[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.kind !== "read" || !endpoint.bare) continue;
    const spec = endpoint.next();
    const [o, b] = await Promise.all([answer(ours, endpoint, spec), answer(bare, endpoint, spec)]);
    const found: string[] = o.status === b.status ? [] : [`status ${o.status} vs ${b.status}`];
    differences(o.body, b.body, "", found);
    if (found.length) lines.push(`${endpoint.label} (${spec.path}): ${found.join("; ")}`);
  }
  return lines;
}
