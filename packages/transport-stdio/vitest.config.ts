import { packageTestConfig } from "../../vitest.shared.js";

// Its tests count the process's exit/signal listeners and event-loop handles: fresh modules per file.
export default packageTestConfig(import.meta.dirname, { testTimeoutMs: 60_000, isolateFiles: true });
