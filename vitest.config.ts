import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": import.meta.dirname,
      // Tests run server modules in plain Node, as Next's server bundles do: "server-only" is the empty
      // module there (its default export throws, for the browser's bundles).
      "server-only": path.join(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/contract/**/*.test.ts", "tests/ratelimit/**/*.test.ts", "tests/smoke/**/*.test.ts", "tests/security/**/*.test.ts", "tests/ops/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup.ts"],
    pool: "forks",
    // Test files are isolated (own database) and mostly wait on I/O: more workers than the default
    // (cores − 1, i.e. one on a 2-core machine) keep both cores busy.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
