// Errors that programs act on (docs/api.md#errors): one table of codes (server/errors.ts) that the tRPC
// conversion, the body, the OpenAPI document, docs/api.md and the web UI's sentences all read; field
// errors that name their rule and bounds; sentences chosen by code and rule, never by the API's words.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { describe, expect, it } from "vitest";
import { appRouter } from "../../server/api/root.ts";
import { API_ERRORS, errorBody, fieldErrors, toTRPCError, type ErrorBody } from "../../server/api/errors.ts";
import { AppError, badRequest, ERROR_CODE_LIST, ERROR_CODES, type ErrorCode } from "../../server/errors.ts";
import { createClaimInput, listClaimsInput } from "../../server/contract/claims.ts";
import { createCommentInput } from "../../server/contract/comments.ts";
import { createApiKeyInput } from "../../server/contract/api-keys.ts";
import { createEvidenceInput } from "../../server/contract/evidence.ts";
import { buildOpenApiDocument } from "../../server/rest/openapi.ts";
import { humanError, humanFieldErrors } from "../../app/_lib/human-errors.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "generated" ? [] : files(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The body a procedure's refusal of `input` answers with (its input is checked before anything runs). */
async function refusalOf(run: (caller: ReturnType<typeof appRouter.createCaller>) => Promise<unknown>, procedurePath: string): Promise<ErrorBody> {
  const caller = appRouter.createCaller({ identity: { kind: "anonymous" }, ip: "192.0.2.1" });
  try {
    await run(caller);
  } catch (err) {
    expect(err).toBeInstanceOf(TRPCError);
    return errorBody(err as TRPCError, procedurePath);
  }
  throw new Error("the call was not refused");
}

/** The field errors zod gives for `input`, with the bounds the schema declares. */
function problemsOf(schema: { safeParse(v: unknown): { error?: ZodError } } & Parameters<typeof fieldErrors>[1], input: unknown) {
  const { error } = schema.safeParse(input);
  if (!error) throw new Error("the input was accepted");
  return fieldErrors(error, schema);
}

describe("the table of codes", () => {
  it("has snake_case codes whose status is the one tRPC (and trpc-to-openapi after it) derives from their tRPC code", () => {
    for (const code of ERROR_CODE_LIST) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      const { status, trpc } = API_ERRORS[code];
      expect(getHTTPStatusCodeFromError(new TRPCError({ code: trpc })), code).toBe(status);
    }
  });

  it("has no code nothing answers: each is named where an error is made", () => {
    const sources = files("server")
      .filter((f) => f !== "server/errors.ts")
      .map(read)
      .join("\n");
    const unused = ERROR_CODE_LIST.filter((code) => !sources.includes(`"${code}"`) && code !== "validation_failed");
    // validation_failed is named by server/api/errors.ts; the others by a throw site or a transport.
    expect(sources).toContain('"validation_failed"');
    expect(unused).toEqual([]);
  });

  it("docs/api.md's table is the code's table: the same codes in the same order, with their status and meaning", () => {
    const doc = read("docs/api.md");
    const lines = doc.split("\n");
    const at = lines.findIndex((l) => l.trim() === "## Errors");
    expect(at).toBeGreaterThan(0);
    const rest = lines.slice(at);
    const start = rest.findIndex((l) => l.startsWith("| Code |"));
    const rows = rest
      .slice(start + 2)
      .filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|")))
      .map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
    expect(rows.map(([code, status, when]) => ({ code: code.replace(/`/g, ""), status: Number(status), when }))).toEqual(
      ERROR_CODE_LIST.map((code) => ({ code, status: ERROR_CODES[code].status, when: ERROR_CODES[code].when })),
    );
  });
});

describe("the body of an error", () => {
  it("a refused input is validation_failed with every field named, its rule and both bounds of the field", async () => {
    const body = await refusalOf((c) => c.claims.list({ q: "a" } as never), "claims.list");
    expect(body).toEqual({
      code: "validation_failed",
      detail: "q: must be 2-200 characters",
      errors: [{ field: "q", message: "q: must be 2-200 characters", rule: "too_short", min: 2, max: 200 }],
    });
    const register = await refusalOf((c) => c.auth.register({ email: "nope", password: "weakpass", username: "a!" } as never), "auth.register");
    expect(register.code).toBe("validation_failed");
    expect(register.errors).toEqual([
      { field: "email", message: "email: must be a valid email address", rule: "format", format: "email" },
      { field: "password", message: "password: must contain an uppercase letter", rule: "format", format: "pattern", pattern: "[A-Z]" },
      { field: "password", message: "password: must contain a digit", rule: "format", format: "pattern", pattern: "[0-9]" },
      { field: "username", message: "username: must be 3-30 characters of letters, digits and underscore", rule: "format", format: "pattern", pattern: "^[A-Za-z0-9_]{3,30}$" },
    ]);
  });

  it("a rule across fields names the field it compares with", async () => {
    const body = await refusalOf((c) => c.claims.list({ min_gradient: 0.9, max_gradient: 0.1 } as never), "claims.list");
    expect(body.errors).toEqual([
      { field: "min_gradient", message: "min_gradient: must not be greater than max_gradient", rule: "not_above", other: "max_gradient" },
    ]);
  });

  it("a service's error keeps its code, its detail and the fields beside it", () => {
    const duplicate = new AppError("duplicate_claim", "A claim with this statement already exists", undefined, { existing_claim_id: "c-1" });
    expect(errorBody(toTRPCError(duplicate))).toEqual({ code: "duplicate_claim", detail: "A claim with this statement already exists", existing_claim_id: "c-1" });
    expect(toTRPCError(duplicate).code).toBe("CONFLICT");
    expect(errorBody(toTRPCError(new AppError("email_taken", "Email already registered")))).toEqual({ code: "email_taken", detail: "Email already registered" });
  });

  it("a service's validation message names its fields in errors (the request as a whole: body)", () => {
    expect(errorBody(toTRPCError(badRequest("parent_ids: claim x does not exist")))).toEqual({
      code: "validation_failed",
      detail: "parent_ids: claim x does not exist",
      errors: [{ field: "parent_ids", message: "parent_ids: claim x does not exist", rule: "invalid" }],
    });
    expect(errorBody(toTRPCError(badRequest("Something is off")))).toEqual({
      code: "validation_failed",
      detail: "Something is off",
      errors: [{ field: "body", message: "Something is off", rule: "invalid" }],
    });
  });

  it("an unexpected failure says nothing of itself; tRPC's own refusals get their code", () => {
    const failure = new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: 'relation "agents" does not exist', cause: new Error("db") });
    expect(errorBody(failure)).toEqual({ code: "internal_error", detail: "Internal server error" });
    expect(errorBody(new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: "Method not allowed" })).code).toBe("method_not_allowed");
    expect(errorBody(new TRPCError({ code: "UNAUTHORIZED" }))).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
  });
});

describe("the OpenAPI document's errors", () => {
  const doc = buildOpenApiDocument();
  const operations = Object.entries<Record<string, { responses: Record<string, any>; "x-error-codes": ErrorCode[]; security: unknown[] }>>(doc.paths).flatMap(
    ([p, item]) => Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, op })),
  );

  it("the Error schema requires a code of the table", () => {
    expect(doc.components.schemas.Error.required).toEqual(["code", "detail"]);
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(ERROR_CODE_LIST);
  });

  it("each error status of each operation lists the codes it can carry there, all of that status", () => {
    for (const { where, op } of operations) {
      const listed: string[] = [];
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const [ref, own] = response.content["application/json"].schema.allOf;
        expect(ref, where).toEqual({ $ref: "#/components/schemas/Error" });
        for (const code of own.properties.code.enum as ErrorCode[]) {
          expect(ERROR_CODES[code].status, `${where} ${code}`).toBe(Number(status));
          expect(response.description, `${where} ${status}`).toContain(`\`${code}\``);
          listed.push(code);
        }
      }
      expect(op["x-error-codes"], where).toEqual(ERROR_CODE_LIST.filter((c) => listed.includes(c)));
      for (const always of ["invalid_token", "rate_limited", "internal_error", "service_unavailable"]) expect(listed, where).toContain(always);
    }
  });

  it("an operation lists the codes its shape implies and those its procedure declares", () => {
    const codes = (where: string) => operations.find((o) => o.where === where)!.op["x-error-codes"];
    expect(codes("POST /claims")).toEqual(expect.arrayContaining(["validation_failed", "unauthenticated", "duplicate_claim", "payload_too_large"]));
    expect(codes("POST /auth/register")).toEqual(expect.arrayContaining(["email_taken", "username_taken"]));
    expect(codes("POST /auth/register")).not.toContain("unauthenticated");
    expect(codes("POST /auth/password-reset")).toEqual(expect.arrayContaining(["mail_not_configured", "mail_not_sent"]));
    expect(codes("GET /auth/oauth/{provider}")).toEqual(expect.arrayContaining(["not_configured", "not_found"]));
    expect(codes("GET /claims/{claim_id}")).toContain("not_found");
    expect(codes("GET /claims/{claim_id}")).not.toContain("payload_too_large");
  });
});

describe("the web UI's sentences", () => {
  it("words each field's rule, with today's sentences", () => {
    expect(humanFieldErrors(problemsOf(createClaimInput, { statement: "Too short" }))).toBe("The statement must be 10 to 5000 characters long.");
    expect(humanFieldErrors(problemsOf(createClaimInput, { statement: "A long enough statement", tags: ["tides", "x".repeat(51)] }))).toBe(
      "Each tag can use letters, digits, “-” and “_”, up to 50 characters.",
    );
    expect(humanFieldErrors(problemsOf(createClaimInput, { statement: "A long enough statement", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }))).toBe(
      "Use at most 10 tags.",
    );
    expect(humanFieldErrors(problemsOf(createCommentInput, { claim_id: "00000000-0000-0000-0000-000000000000", content: "" }))).toBe(
      "The text must be 1 to 5000 characters long.",
    );
    expect(humanFieldErrors(problemsOf(createApiKeyInput, { name: "", scopes: ["read"] }))).toBe("The name must be 1 to 100 characters long.");
    expect(
      humanFieldErrors(problemsOf(createEvidenceInput, { claim_id: "00000000-0000-0000-0000-000000000000", content_type: "link", content: "not a url", position: "supports" })),
    ).toBe("Enter a full web address, starting with https:// or http://.");
    expect(humanFieldErrors(problemsOf(listClaimsInput, { q: "a" }))).toBe("The search text must be 2 to 200 characters long.");
    expect(humanFieldErrors(problemsOf(listClaimsInput, { min_gradient: 0.9, max_gradient: 0.1 }))).toBe("The lowest gradient must not be above the highest.");
  });

  it("puts a password's missing kinds of characters in one sentence", async () => {
    const body = await refusalOf((c) => c.auth.register({ email: "a@example.test", password: "weakpass", username: "someone" } as never), "auth.register");
    expect(humanError(body.code, body.detail, body.errors)).toBe("The password needs an uppercase letter and a digit.");
    const short = await refusalOf((c) => c.auth.register({ email: "a@example.test", password: "Ab1", username: "someone" } as never), "auth.register");
    expect(humanFieldErrors(short.errors!)).toBe("The password must be at least 8 characters long.");
    const username = await refusalOf((c) => c.auth.register({ email: "nope", password: "Password123", username: "a!" } as never), "auth.register");
    expect(humanFieldErrors(username.errors!)).toBe("Enter an email address like name@example.com. A username has 3 to 30 characters: letters, digits and “_”.");
  });

  it("chooses a sentence by code whatever the detail says", () => {
    expect(humanError("email_taken", "anything at all")).toBe("An account with this email address already exists. Sign in instead?");
    expect(humanError("username_taken", "anything at all")).toBe("This username is taken. Please choose another.");
    expect(humanError("forbidden", "anything at all")).toBe("You are not allowed to do that.");
    expect(humanError("invalid_token", "anything at all")).toBe("Your session has ended. Please sign in again.");
    expect(humanError("rate_limited", "anything at all")).toBe("Too many requests. Please wait a minute and try again.");
    expect(humanError("internal_error", "anything at all")).toBe("Something went wrong on our side. Please try again.");
    // A code without a sentence of its own shows the detail as one.
    expect(humanError("not_found", "Claim not found")).toBe("Claim not found.");
  });

  it("never matches the API's detail in app/ (a reworded detail cannot change what people see)", () => {
    const matching = /(\bdetail\b[^;\n]*\.(test|match|includes|startsWith|endsWith|search)\(|\.(test|match)\([^)\n]*\bdetail\b|(?<!typeof [\w.?]*)\bdetail\s*[!=]==)/;
    const offenders = files("app").filter((f) => matching.test(read(f)));
    expect(offenders).toEqual([]);
    // The check finds what it looks for.
    expect(matching.test('const field = /\\bemail\\b/i.test(error.detail) ? "email" : null;')).toBe(true);
    expect(matching.test('if (body.detail === "Email already registered") field = "email";')).toBe(true);
    expect(matching.test('const text = typeof shape.detail === "string" ? shape.detail : "";')).toBe(false);
  });
});
