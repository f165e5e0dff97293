// Stack traces map our own TypeScript (tsx's inline maps), not the libraries': Node keeps every source
// map it reads for as long as the process lives, and those of node_modules (Next's compiled server,
// Prisma's client, …) were ≈15 MB of the production server's heap at rest
// (docs/benchmarks/2026-11-28-server-memory-and-first-views.md). Imported first by server/main.ts, so
// it runs before the libraries' CommonJS modules are compiled. Node < 22.14 lacks the setting: no change.
import * as nodeModule from "node:module";

const support = (nodeModule as { getSourceMapsSupport?: () => { enabled: boolean } }).getSourceMapsSupport?.();
if (support?.enabled) nodeModule.setSourceMapsSupport?.(true, { nodeModules: false, generatedCode: false });
