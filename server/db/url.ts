// DATABASE_URL's shape, shared by the pool (client.ts) and the connections of their own that the
// bridging worker opens (vote-stream.ts) without loading Prisma.

/** `postgres://…?schema=x` (Prisma's convention) → the schema to use, and the URL without it. */
export function splitSchema(url: string): { connectionString: string; schema?: string } {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? undefined;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error("DATABASE_URL: the schema parameter must be a plain identifier");
  }
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), schema };
}
