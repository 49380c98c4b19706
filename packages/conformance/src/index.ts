export { EXPECTED_FAILURES, EXPECTED_FAILURES_2026 } from "./expected-failures.js";
export {
  clientCommand,
  isToleratedWarning,
  listClientScenarios,
  runClientScenario,
  type ConformanceCheck,
  type RunOptions,
  type ScenarioVerdict,
} from "./runner.js";
export { runServerScenarios, type ServerRunOptions, type ServerScenarioVerdict } from "./server-runner.js";
export { SCENARIO_CLIENTS, type ScenarioClient } from "./scenarios/index.js";
export { SUITES, type Suite, type SuiteName } from "./suites.js";
