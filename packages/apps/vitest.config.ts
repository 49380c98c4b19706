import { packageTestConfig } from "../../vitest.shared.js";

// The browser suite starts real servers and a real Chromium: generous, bounded timeouts for a
// loaded CI machine. Line coverage counts Node only: src/app-frame.ts, src/app-host.ts and the CSP
// encoding run in the browser page (the browser suite drives them there), where v8 coverage of this
// process does not look.
export default packageTestConfig(import.meta.dirname, { lineCoverage: 55, testTimeoutMs: 90_000 });
