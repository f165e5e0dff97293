// fast-check arbitraries read from the JSON Schemas of the served OpenAPI document, and nothing else:
// valid values of a schema (every keyword the document uses: types, enums, lengths, patterns, formats,
// bounds, item counts, `x-max-utf8-bytes`, rules across fields), and values that each break one of its
// rules, labelled with the rule. The document's one rule on every string (storable text: no NUL, no
// unpaired surrogate) is kept by every valid string and broken by one breach per string.
import fc from "fast-check";

export type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Doc {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Leaves the field out (a fixture that says "do not send one"). */
export const OMIT = Symbol("omit");

/** Values that must exist in the running service (ids, credentials, deliverable URLs), by field name. */
export type Fixtures = Record<string, fc.Arbitrary<unknown>>;

// ---- reading schemas ----

/** The schema behind a $ref (one level at a time, as often as needed). */
export function deref(doc: Doc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  while (typeof s.$ref === "string") s = doc.components?.schemas?.[s.$ref.replace("#/components/schemas/", "")] ?? {};
  return s;
}

function typesOf(s: Schema): string[] {
  if (s.type === undefined) return [];
  return Array.isArray(s.type) ? s.type : [s.type];
}

/** The alternatives of a schema (`anyOf`/`oneOf` of types, or a `type` list), each with one type. */
function alternatives(doc: Doc, schema: Schema): Schema[] {
  const s = deref(doc, schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants && !s.properties) return variants.flatMap((v: Schema) => alternatives(doc, v));
  const types = typesOf(s);
  if (types.length > 1) return types.map((type) => ({ ...s, type }));
  return [s];
}

export function isNullable(doc: Doc, schema: Schema): boolean {
  return alternatives(doc, schema).some((s) => s.type === "null");
}

/** The one non-null alternative of a schema (a nullable string is a string). */
export function nonNull(doc: Doc, schema: Schema): Schema {
  const rest = alternatives(doc, schema).filter((s) => s.type !== "null");
  return rest.length === 1 ? rest[0] : deref(doc, schema);
}

interface StringRules {
  min: number;
  max: number;
  patterns: RegExp[];
  format?: string;
  maxBytes?: number;
  enum?: unknown[];
}

/** A string schema's rules, `allOf` parts included: patterns are read as JSON Schema reads them (u flag). */
export function stringRules(doc: Doc, schema: Schema): StringRules {
  const rules: StringRules = { min: 0, max: Infinity, patterns: [] };
  const visit = (s: Schema) => {
    s = deref(doc, s);
    if (s.minLength !== undefined) rules.min = Math.max(rules.min, s.minLength);
    if (s.maxLength !== undefined) rules.max = Math.min(rules.max, s.maxLength);
    if (s.pattern) rules.patterns.push(new RegExp(s.pattern, "u"));
    if (s.format) rules.format = s.format;
    if (s["x-max-utf8-bytes"] !== undefined) rules.maxBytes = s["x-max-utf8-bytes"];
    if (s.enum) rules.enum = s.enum;
    for (const part of s.allOf ?? []) visit(part);
  };
  visit(schema);
  return rules;
}

// ---- text ----

export const codePoints = (s: string) => [...s].length;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** The document's rule on every string. */
export const storable = (s: string) => !s.includes("\u0000") && !UNPAIRED_SURROGATE.test(s);

/** Text an injection or rendering bug would trip over; all of it storable. */
const HOSTILE = [
  "' OR '1'='1' --",
  "<script>alert('xss')</script>",
  "\u202Egnp.exe\u202C \u200F\u05E9\u05DC\u05D5\u05DD",
  "e\u0301\u0301 Z\u0351\u0360",
  "😀👩🏽‍💻🏳️‍🌈 𝕳𝖊𝖑𝖑𝖔",
  "..%2f..%2fetc%2fpasswd",
  "\r\n\tHeader-Injection: yes",
  "{{7*7}} ${7*7}",
  "ｆｕｌｌｗｉｄｔｈ ﷽",
];
const WORDS = ["the", "moon", "is", "made", "of", "cheese", "claim", "evidence", "Ünïcödé", "日本語", "😀", "O'Brien", "x", "42", "or", "-", "&"];

/** Storable text of min..max characters (code points), mostly short, sometimes at a bound. */
export function textArb(min: number, max: number): fc.Arbitrary<string> {
  // Unbounded text is tried at 2,000 characters: long enough to matter, short enough for a URL.
  const top = Math.min(max, max === Infinity ? 2000 : 60_000);
  const fit = (s: string) => {
    let out = s;
    while (codePoints(out) < min) out += codePoints(out) % 2 ? " lorem" : "x";
    return [...out].slice(0, top).join("");
  };
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.tuple(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 9 }), fc.constantFrom(" ", ", ", "\n", "_")).map(([ws, sep]) => ws.join(sep)) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 24 }) },
      { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 60 }) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) },
      // At the bounds, and text that is only spaces around too little (a schema that does not say
      // "once trimmed" lets these through).
      { weight: 1, arbitrary: fc.constantFrom("x".repeat(Math.max(1, min)), "y".repeat(Math.max(1, top)), " ".repeat(Math.max(1, min)), ` ${"z".repeat(Math.max(0, min - 1))} `) },
    )
    .map(fit);
}

/** Whether fast-check can generate from a pattern (it knows no lookaround). */
function generates(pattern: RegExp): boolean {
  try {
    fc.stringMatching(pattern);
    return true;
  } catch {
    return false;
  }
}

export function satisfiesString(rules: StringRules, v: string): boolean {
  const n = codePoints(v);
  return (
    n >= rules.min &&
    n <= rules.max &&
    rules.patterns.every((p) => p.test(v)) &&
    (rules.maxBytes === undefined || Buffer.byteLength(v, "utf8") <= rules.maxBytes) &&
    storable(v)
  );
}

function stringArb(rules: StringRules): fc.Arbitrary<string> {
  if (rules.enum) return fc.constantFrom(...(rules.enum as string[]));
  const anchored = rules.patterns.find((p) => p.source.startsWith("^") && p.source.endsWith("$") && generates(p));
  let base: fc.Arbitrary<string>;
  if (rules.format === "uuid") base = fc.uuid({ version: 4 });
  else if (rules.format === "email") {
    const part = (max: number) => fc.stringMatching(new RegExp(`^[a-z0-9]{1,${max}}$`));
    base = fc.tuple(part(20), fc.constantFrom("", ".x", "+tag"), part(12), fc.constantFrom("example", "test", "co.uk")).map(([a, b, c, d]) => `${a}${b}@${c}.${d}`);
  } else if (rules.format === "date-time") {
    base = fc
      .tuple(fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2199-12-31T00:00:00Z"), noInvalidDate: true }), fc.constantFrom("Z", "+02:00", "-11:30", ".000Z"))
      .map(([d, zone]) => d.toISOString().replace(/\.\d{3}Z$/, zone === ".000Z" ? ".000Z" : zone));
  } else if (anchored) base = fc.stringMatching(anchored);
  else if (rules.format === "uri") base = fc.webUrl({ validSchemes: ["https", "http"], withQueryParameters: true, withFragments: true });
  else base = textArb(rules.min, rules.max);
  return base.filter((v) => satisfiesString(rules, v));
}

// ---- valid values ----

const items = (doc: Doc, s: Schema) => deref(doc, s.items ?? {});

/** A valid value of `schema`; a fixture of the same name replaces it. */
export function valueArb(doc: Doc, schema: Schema, name: string, fixtures: Fixtures): fc.Arbitrary<unknown> {
  if (fixtures[name]) return fixtures[name];
  const s = deref(doc, schema);
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = alternatives(doc, s);
  if (alts.length > 1) return fc.oneof(...alts.map((a) => valueArb(doc, a, name, fixtures)));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.minimum ?? -1000;
      const max = s.maximum ?? 1_000_000;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case "number": {
      const min = s.minimum ?? -1e6;
      const max = s.maximum ?? 1e6;
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max, (min + max) / 2));
    }
    case "array": {
      const item = valueArb(doc, s.items ?? {}, `${name}[]`, fixtures);
      const min = s.minItems ?? 0;
      const few = fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? 6, 6)) });
      if (s.maxItems === undefined || s.maxItems > 100 || s.maxItems <= 6) return few;
      // As many as the schema allows, different ones (a server may count repeats once).
      const most = items(doc, s).enum ? fc.array(item, { minLength: s.maxItems, maxLength: s.maxItems }) : fc.uniqueArray(item, { minLength: s.maxItems, maxLength: s.maxItems });
      return fc.oneof({ weight: 3, arbitrary: few }, { weight: 1, arbitrary: most });
    }
    case "object":
      return objectArb(doc, s, fixtures);
    default:
      return stringArb(stringRules(doc, s));
  }
}

/**
 * A valid object: required fields always, the others half the time; fixtures that answer OMIT leave
 * their field out. A rule `if: … then: …` that holds gets the fields it names drawn again under both
 * schemas. (Rules across fields such as `oneOf` are the caller's to check, with the validator.)
 */
export function objectArb(doc: Doc, schema: Schema, fixtures: Fixtures): fc.Arbitrary<Record<string, unknown>> {
  const s = deref(doc, schema);
  const props: Record<string, Schema> = s.properties ?? {};
  const required = new Set<string>(s.required ?? []);
  const fields = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, valueArb(doc, p, k, fixtures)]));
  let arb: fc.Arbitrary<Record<string, unknown>> = fc
    .record(fields, { requiredKeys: [...required].filter((k) => k in props) })
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== OMIT)));
  for (const rule of (s.allOf ?? []).filter((r: Schema) => r.if && r.then)) {
    arb = arb.chain((o) => {
      if (!holds(doc, rule.if, o)) return fc.constant(o);
      const redrawn = Object.entries<Schema>(rule.then.properties ?? {})
        .filter(([k]) => k in o || required.has(k))
        .map(([k, extra]) => [k, fixtures[k] ?? valueArb(doc, { allOf: [props[k] ?? {}, extra] }, k, {})] as const);
      return fc.record(Object.fromEntries(redrawn)).map((again) => ({ ...o, ...again }));
    });
  }
  return arb;
}

/** The part of JSON Schema an `if` of this document uses: properties with `const`/`enum`, and `required`. */
function holds(doc: Doc, condition: Schema, o: Record<string, unknown>): boolean {
  for (const k of condition.required ?? []) if (!(k in o)) return false;
  for (const [k, p] of Object.entries<Schema>(condition.properties ?? {})) {
    if (!(k in o)) continue;
    if ("const" in p && o[k] !== p.const) return false;
    if (p.enum && !p.enum.includes(o[k])) return false;
  }
  return true;
}

// ---- values that break one rule ----

export interface Breach {
  /** The rule broken, e.g. "maxLength 200". */
  rule: string;
  value: fc.Arbitrary<unknown>;
}

/** Strings that break common patterns; each is used only against a pattern it does not match. */
const PATTERN_BREAKERS = [
  "has spaces & symbols!",
  "   ",
  "ä",
  "bidi\u202Eoverride",
  "//evil.example",
  "ftp://files.example/x",
  "one two three four five six seven eight nine ten eleven",
  "2026-13-45T99:99:99Z",
  "not-an-email",
  "lowercase only",
  "UPPERCASE ONLY",
];
const FORMAT_BREAKERS: Record<string, string> = {
  uuid: "not-a-uuid",
  email: "not-an-email",
  "date-time": "2026-02-30T25:61:00Z",
  uri: "not a url",
};

/**
 * Values of `schema` that each break one rule, for a body field (`json`), or as the text of a query or
 * path value (`text`: numbers and lists as they would be written there).
 */
export function breachesOf(doc: Doc, schema: Schema, mode: "json" | "text", listItemsArb?: fc.Arbitrary<string>): Breach[] {
  const nullable = isNullable(doc, schema);
  const s = nonNull(doc, schema);
  const out: Breach[] = [];
  const add = (rule: string, value: unknown) => out.push({ rule, value: fc.constant(value) });
  const type = typesOf(s)[0] ?? (s.enum ? "string" : undefined);
  switch (type) {
    case "string": {
      const r = stringRules(doc, s);
      if (mode === "json") add("type", 12345);
      if (mode === "json" && !nullable) add("type", null);
      if (r.enum) {
        add("enum", "not-a-member");
        break;
      }
      if (r.min > 0) add(`minLength ${r.min}`, "x".repeat(r.min - 1));
      if (r.max < 60_000) add(`maxLength ${r.max}`, "y".repeat(r.max + 1));
      for (const p of r.patterns) {
        const bad = PATTERN_BREAKERS.find((c) => !p.test(c));
        if (bad !== undefined) add(`pattern ${p.source.slice(0, 40)}`, bad);
      }
      if (r.format && FORMAT_BREAKERS[r.format]) add(`format ${r.format}`, FORMAT_BREAKERS[r.format]);
      if (r.maxBytes !== undefined) add(`x-max-utf8-bytes ${r.maxBytes}`, `Aa1${"é".repeat(Math.ceil((r.maxBytes - 2) / 2))}`);
      add("storable text", "nul\u0000inside");
      break;
    }
    case "integer":
    case "number": {
      add("type", mode === "json" ? "12" : "twelve");
      if (mode === "json" && !nullable) add("type", null);
      const step = type === "integer" ? 1 : 0.5;
      if (s.minimum !== undefined) add(`minimum ${s.minimum}`, asText(s.minimum - step, mode));
      if (s.maximum !== undefined) add(`maximum ${s.maximum}`, asText(s.maximum + step, mode));
      if (type === "integer" && (s.maximum ?? Infinity) >= (s.minimum ?? 0) + 1) add("integer", asText((s.minimum ?? 0) + 0.5, mode));
      break;
    }
    case "boolean":
      add("type", mode === "json" ? "true" : "maybe");
      if (mode === "json" && !nullable) add("type", null);
      break;
    case "array": {
      if (mode === "json") add("type", "not a list");
      const items = deref(doc, s.items ?? {});
      const item = listItemsArb ?? valueArb(doc, items, "item", {});
      // Items that differ: a server may count repeated items once.
      if (s.maxItems !== undefined && s.maxItems < 200) {
        const n = s.maxItems + 1;
        const values = items.enum && items.enum.length < n ? fc.array(item, { minLength: n, maxLength: n }) : fc.uniqueArray(item, { minLength: n, maxLength: n });
        out.push({ rule: `maxItems ${s.maxItems}`, value: values });
      }
      if (s.minItems) out.push({ rule: `minItems ${s.minItems}`, value: fc.array(item, { minLength: s.minItems - 1, maxLength: s.minItems - 1 }) });
      for (const b of breachesOf(doc, items, mode)) out.push({ rule: `items: ${b.rule}`, value: b.value.map((v) => [v]) });
      break;
    }
  }
  return out;
}

function asText(n: number, mode: "json" | "text"): unknown {
  return mode === "json" ? n : String(n);
}

// ---- valid values at the edges ----

/**
 * Values at the edges of a schema: the shortest and the longest text (in characters outside the BMP
 * too), spaces around too little text, as many items as allowed, a number's bounds. Random drawing
 * meets them rarely, and a schema that says less than the server enforces shows there. Some of these
 * are outside the schema (a pattern, say): the caller keeps those the schema admits.
 */
export function edgesOf(doc: Doc, schema: Schema, listItemsArb?: fc.Arbitrary<string>): Breach[] {
  const s = nonNull(doc, schema);
  const out: Breach[] = [];
  const add = (rule: string, value: unknown) => out.push({ rule, value: fc.constant(value) });
  switch (typesOf(s)[0]) {
    case "string": {
      const r = stringRules(doc, s);
      if (r.enum) break;
      const min = Math.max(1, r.min);
      add(`${min} characters`, "x".repeat(min));
      add("only spaces", " ".repeat(min));
      add("spaces around too little", ` ${"z".repeat(min - 1)} `);
      // A valid value filled up to the longest the schema allows (2,000 characters when it sets no
      // limit), with a letter or a character outside the BMP; kept only where it still fits the schema.
      const longest = r.max < 60_000 ? r.max : 2000;
      const samples = fc.sample(stringArb(r), { numRuns: 20, seed: 7 });
      for (const [fill, what] of [["x", ""], ["😀", " outside the BMP"]] as const) {
        const filled = samples.map((v) => v + fill.repeat(Math.max(0, longest - codePoints(v)))).find((v) => satisfiesString(r, v));
        if (filled !== undefined) add(`${longest} characters${what}`, filled);
      }
      break;
    }
    case "integer":
    case "number":
      if (s.minimum !== undefined) add(`minimum ${s.minimum}`, s.minimum);
      if (s.maximum !== undefined) add(`maximum ${s.maximum}`, s.maximum);
      break;
    case "array": {
      const its = items(doc, s);
      if (s.maxItems !== undefined && s.maxItems <= 100 && !its.enum) {
        out.push({ rule: `${s.maxItems} items`, value: fc.uniqueArray(listItemsArb ?? valueArb(doc, its, "item", {}), { minLength: s.maxItems, maxLength: s.maxItems }) });
      }
      break;
    }
  }
  return out;
}
