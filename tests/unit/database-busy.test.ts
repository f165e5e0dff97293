// What the API answers 503 for instead of 500 (docs/api.md#errors): the database too busy to take the
// statement or the transaction. Under load, parallel writes that found no free connection within the
// transaction's maxWait answered 500 before.
import { describe, expect, it } from "vitest";
import { Prisma } from "~/server/db/generated/client.ts";
import { isDatabaseBusy } from "~/server/db/client.ts";

const prismaError = (message: string, code: string) => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: Prisma.prismaVersion.client });

describe("a busy database", () => {
  it("is a cancelled statement (57014) or a transaction that found no connection in time, at any depth", () => {
    expect(isDatabaseBusy(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBe(true);
    const noConnection = prismaError("Transaction API error: Unable to start a transaction in the given time.", "P2028");
    expect(isDatabaseBusy(noConnection)).toBe(true);
    expect(isDatabaseBusy(new Error("claims.create failed", { cause: noConnection }))).toBe(true);
  });

  it("is not another transaction error or a constraint", () => {
    expect(isDatabaseBusy(prismaError("Transaction API error: Transaction not found.", "P2028"))).toBe(false);
    expect(isDatabaseBusy(prismaError("Unique constraint failed", "P2002"))).toBe(false);
    expect(isDatabaseBusy(new Error("boom"))).toBe(false);
  });
});
