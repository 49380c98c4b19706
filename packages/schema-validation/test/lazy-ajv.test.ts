import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const CHILD_SCRIPT = fileURLToPath(new URL("fixtures/lazy-ajv.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

// Issue 36: ajv and ajv-formats are loaded by the first schema the interpreter cannot handle, not
// by importing the package, so a host whose tools all have simple schemas never pays for them.
// In a child process: the require cache is the process's, and this test must see a fresh one.
describe("ajv on Node", () => {
  it("is not loaded by the import or by simple schemas, and is by the first schema that needs it", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "--conditions=@mcp-tool-adapter/source", CHILD_SCRIPT],
      { cwd: PACKAGE_DIR, timeout: 60_000 },
    );
    const steps = stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { step: string; ajvLoaded: boolean; valid?: boolean });
    expect(steps).toEqual([
      { step: "imported", ajvLoaded: false },
      { step: "simple schema compiled and used", ajvLoaded: false, valid: true },
      { step: "a schema only ajv handles compiled and used", ajvLoaded: true, valid: true },
    ]);
  });
});
