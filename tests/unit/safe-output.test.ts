// The output guard in a child process whose stdout and stderr pipes have been closed by the reader,
// with an uncaughtException handler that logs the error, as Next installs one. Node's own console
// swallows some write errors, but not all (in the production server a console.warn's EPIPE became an
// uncaught exception), and a logger writing to the stream (pino) swallows none: unguarded, the
// handler's own write fails again, forever.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

const script = (guarded: boolean) => `
import { guardProcessOutput, outputBroken, safeWrite } from "./server/log/safe-output.ts";
${guarded ? "guardProcessOutput();" : ""}
let uncaught = 0;
process.on("uncaughtException", (err) => {
  uncaught++;
  process.stderr.write(\`uncaught: \${err}\\n\`);
});
process.stdin.once("data", () => {
  for (let i = 0; i < 20; i++) {
    console.log("a line", i);
    console.warn("a warning", new Error("with a stack"));
    console.error("an error", i);
    process.stdout.write("raw\\n");
    safeWrite("stderr", "raw\\n");
  }
  // Only reached if the event loop still turns. 4: write errors became uncaught exceptions.
  setTimeout(() => process.exit(uncaught > 0 ? 4 : outputBroken("stdout") && outputBroken("stderr") ? 0 : 3), 300);
});
`;

function runWithClosedPipes(guarded: boolean): Promise<number | string> {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(guarded)], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve("hung");
    }, 15_000);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal ?? -1);
    });
    child.once("spawn", () => {
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.write("go\n");
    });
  });
}

describe("output guard", () => {
  it("drops writes to closed pipes and lets the process carry on", async () => {
    expect(await runWithClosedPipes(true)).toBe(0);
  });

  it("is what stands between a closed pipe and an endless EPIPE loop", async () => {
    // Unguarded, failed writes surface as uncaught exceptions (how many depends on the Node version:
    // 4 on Node 20, 3 on Node 24); guarded, none do.
    expect(await runWithClosedPipes(false)).toBeGreaterThan(0);
  }, 30_000);
});
