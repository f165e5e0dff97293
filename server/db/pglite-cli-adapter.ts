// Driver adapter for the Prisma CLI (prisma.config.ts): an in-memory PGlite, so that schema-to-schema
// diffs run offline with the WASM schema engine. Never used by the running service.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

export class PrismaPGliteMigrationAdapterFactory extends PrismaPGlite {
  constructor() {
    super(new PGlite("memory://"));
  }
}
