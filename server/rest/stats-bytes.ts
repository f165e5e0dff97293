// GET /api/v1/stats/platform served from bytes kept in this process (docs/api.md#discovery): the
// statistics change at most every 5 minutes, and through tRPC, trpc-to-openapi and zod a request cost
// ten times the JSON's own size in work (docs/benchmarks/2026-11-25-api-path.md). The shared cache's
// text is still read on every request, so every instance serves the value the others serve, and the
// answer is made again (checked against the contract's schema, as the procedure's output is) as soon
// as that text changes. A miss, or a value the schema refuses, goes through the procedure.
import { platformStatsSchema } from "../contract/stats.ts";
import { platformStatsText } from "../services/stats.ts";

let kept: { text: string; body: string } | undefined;

/** The answer's body, or undefined when the procedure must answer (nothing cached, or not the contract's shape). */
export async function platformStatsBody(): Promise<string | undefined> {
  const text = await platformStatsText();
  if (text === undefined) return undefined;
  if (kept?.text === text) return kept.body;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const checked = platformStatsSchema.safeParse(value);
  if (!checked.success) return undefined;
  kept = { text, body: JSON.stringify(checked.data) };
  return kept.body;
}
