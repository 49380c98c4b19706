import { packageTestConfig } from "../../vitest.shared.js";

export default packageTestConfig(import.meta.dirname, { testTimeoutMs: 60_000 });
