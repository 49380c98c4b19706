/**
 * One client scenario of the conformance suite, as our client plays it: it gets the URL of the
 * suite's test server and does what the scenario expects of a client, through the public
 * `mcp-tool-adapter` API only. It throws when something the scenario needs did not work.
 */
export type ScenarioClient = (serverUrl: string) => Promise<void>;
