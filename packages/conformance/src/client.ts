// The client the conformance suite drives: `conformance client --command "<this>"` starts it once
// per scenario with the scenario's name in MCP_CONFORMANCE_SCENARIO and the test server's URL as
// the last argument. It exits 0 when the scenario's client side ran through, 1 otherwise.
import { SCENARIO_CLIENTS } from "./scenarios/index.js";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const serverUrl = process.argv.at(-1);

try {
  if (scenario === undefined || serverUrl === undefined || !/^https?:\/\//.test(serverUrl)) {
    throw new Error("usage: MCP_CONFORMANCE_SCENARIO=<name> client <server-url> (the conformance CLI sets both)");
  }
  const play = SCENARIO_CLIENTS[scenario];
  if (play === undefined) {
    throw new Error(`no client for scenario "${scenario}"; add one in src/scenarios/index.ts`);
  }
  await play(serverUrl);
} catch (error) {
  console.error(`conformance client (${scenario ?? "no scenario"}) failed:`, error);
  process.exitCode = 1;
}
