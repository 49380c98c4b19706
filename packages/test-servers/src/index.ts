export {
  createInMemoryTestServer,
  echoResult,
  type InMemoryTestServer,
  type InMemoryTestServerOptions,
  type TestTool,
  type TestToolHandler,
} from "./in-memory.js";
