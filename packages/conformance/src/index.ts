export { EXPECTED_FAILURES } from "./expected-failures.js";
export {
  clientCommand,
  isToleratedWarning,
  listClientScenarios,
  runClientScenario,
  type ConformanceCheck,
  type RunOptions,
  type ScenarioVerdict,
} from "./runner.js";
export { SCENARIO_CLIENTS, type ScenarioClient } from "./scenarios/index.js";
