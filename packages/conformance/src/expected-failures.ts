/**
 * Client scenarios we know fail, each with the reason it cannot pass (empty when every scenario
 * passes). The test fails when a scenario listed here passes, so a fix removes its entry.
 */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = {};
