import { mergeConfig } from "vitest/config";
import { packageTestConfig } from "../../vitest.shared.js";

export default mergeConfig(packageTestConfig(import.meta.dirname, { testTimeoutMs: 60_000 }), {
  test: { globalSetup: ["test/fixtures/isolated-cache-dir.ts"] },
});
