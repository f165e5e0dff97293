// Prisma CLI configuration. The CLI is only used offline here: `prisma generate` and
// `prisma migrate diff` (schema to schema, see server/cli/new-migration.ts). The JS schema engine
// runs on an in-memory PGlite, so no native engine is ever downloaded.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    const { PrismaPGliteMigrationAdapterFactory } = await import("./server/db/pglite-cli-adapter.ts");
    return new PrismaPGliteMigrationAdapterFactory();
  },
});
