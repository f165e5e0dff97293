// The project's Node runs the suite (docs/operating.md#which-node): where npm installed a node-<platform>
// binary into node_modules/.bin, this process and every `node` a test or script starts by name are that
// binary, Node 24 LTS, whatever Node the machine has.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const bundled = path.join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "node.cmd" : "node");

describe.runIf(existsSync(bundled))("the runtime", () => {
  const version = execFileSync(bundled, ["-p", "process.version"], { encoding: "utf8" }).trim();

  it("is the project's Node 24", () => {
    expect(version).toMatch(/^v24\./);
    expect(process.version).toBe(version);
  });

  it("is the `node` a child process finds on its PATH", () => {
    expect(execFileSync("node", ["-p", "process.version"], { encoding: "utf8" }).trim()).toBe(version);
  });
});
