import { packageTestConfig } from "../../vitest.shared.js";

// The browser suite starts real servers and a real Chromium: generous, bounded timeouts for a
// loaded CI machine. src/app-frame.ts and src/app-host.ts run only in the browser page (the browser
// suite drives them there), where this process's v8 coverage does not look, so the line floor
// counts the Node side alone.
export default packageTestConfig(import.meta.dirname, {
  lineCoverage: 85,
  testTimeoutMs: 90_000,
  coverageExclude: ["src/app-frame.ts", "src/app-host.ts"],
});
