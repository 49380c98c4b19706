import { packageTestConfig } from "../../vitest.shared.js";

// Its property tests are CPU-bound (thousands of generated schemas and values): 15 s was too
// little for a hang ceiling on CI's two loaded cores.
export default packageTestConfig(import.meta.dirname, { lineCoverage: 90, testTimeoutMs: 60_000 });
