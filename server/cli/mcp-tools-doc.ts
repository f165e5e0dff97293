// `npm run docs:mcp-tools`: rewrites the tool list in docs/features/mcp.md from the tool definitions.
import { readFileSync, writeFileSync } from "node:fs";
import { withCurrentTools } from "../mcp/tools-doc.ts";

const file = "docs/features/mcp.md";
writeFileSync(file, withCurrentTools(readFileSync(file, "utf8")));
console.log(`${file}: tool list rewritten`);
process.exit(0);
