export {
  createInMemoryTestServer,
  echoResult,
  type InMemoryTestServer,
  type InMemoryTestServerOptions,
  type TestPrompt,
  type TestResource,
  type TestTool,
  type TestToolHandler,
} from "./in-memory.js";
export {
  findFreePort,
  startEverythingHttp,
  startFaultHttpServer,
  type EverythingHttpMode,
  type EverythingHttpServer,
  type FaultBehavior,
  type FaultHttpServer,
  type FaultPlan,
  type RecordedRequest,
  type StartEverythingHttpOptions,
} from "./http-servers.js";
export { startHttpProxy, type HttpProxyServer, type ProxiedRequest } from "./http-proxy.js";
export {
  startRecordingProxy,
  type PassedRequest,
  type RecordingProxy,
  type RecordingProxyOptions,
} from "./recording-proxy.js";
export { recordingLogger, type RecordedLogger } from "./recording-logger.js";
export {
  deletesSeenBy,
  EVERYTHING_UNKNOWN_SESSION_STATUS,
  exchangesSeenBy,
  holdingCancellations,
  slowCallInFlight,
  sessionFaultPlan,
  sessionsSeenBy,
  statusOfRequestInSession,
} from "./session-checks.js";
export {
  CallFaultTransport,
  CallResultRewriteTransport,
  CloseErrorTransport,
  connectionRefusedError,
  createHangingTransport,
  createRefusingTransport,
  failAfterConnects,
  HangingTransport,
  RefusingTransport,
  startTcpRelay,
  TransportDecorator,
  withCallFault,
  withCallResultRewrite,
  withCloseError,
  type CallFaultMode,
  type CallFaultOptions,
  type CallResultRewriteOptions,
  type CodedError,
  type CountingTransportSource,
  type HangPoint,
  type TcpRelay,
  type TransportSource,
} from "./faults.js";
export { APPS_SERVER_PACKAGES, appsStdioServer, type AppsServerName } from "./apps-servers.js";
export { elicitingEvents, elicitingEventsUntil, elicitingStdioServer } from "./eliciting.js";
export { EVERYTHING_TARGETS, type EverythingTarget, type RunningEverything } from "./everything-targets.js";
export {
  HOSTILE_SERVER_PATH,
  HOSTILE_TOOL_NAMES,
  hostileServerConfig,
  parseGrandchildPids,
  type HostileServerConfig,
  type HostileServerOptions,
  type HostileToolName,
} from "./hostile.js";
export {
  createTempDirectory,
  everythingStdioServer,
  filesystemStdioServer,
  memoryStdioServer,
  REAL_SERVER_ENTRIES,
  type StdioLaunchConfig,
  type TempDirectory,
} from "./real-servers.js";
export {
  expectNoLeakedProcesses,
  hasLeakMarker,
  LEAK_MARKER_ENV_NAME,
  leakMarkerEnv,
  listDescendantProcesses,
  listOwnedProcesses,
  listProcesses,
  readProcess,
  waitForNoDescendants,
  watchProcess,
  watchProcessGroup,
  type LeakCheckOptions,
  type ProcessInfo,
} from "./processes.js";
export type { ProcessIgnore } from "./processes.js";
export {
  OAUTH_MACHINE_CLIENT,
  OAUTH_TEST_SCOPES,
  startOAuthProtectedServer,
  type BrowserOptions,
  type OAuthProtectedServer,
  type OAuthProtectedServerOptions,
} from "./oauth-server.js";
export {
  COUNTER_SERVER_PATH,
  counterServerConfig,
  readCounterState,
  setCounterServerDown,
  startCounterHttpServer,
  type CounterHttpServer,
  type CounterState,
} from "./counter.js";
export {
  startV2HttpServer,
  V2_SERVER_PATH,
  v2StdioServerConfig,
  type V2HttpServer,
  type V2ServerSetup,
} from "./v2-servers.js";
export { startTaskTestServer, type TaskTestServer } from "./task-server.js";
export { startSamplingToolsServer, WEATHER_SAMPLING_TOOL, type SamplingToolsServer } from "./sampling-tools-server.js";
export { startV2TaskHttpServer, type V2ServerTask, type V2TaskHttpServer } from "./v2-task-server.js";
export { startConformanceHttpServer, type ConformanceHttpServer } from "./conformance-server.js";
export { createConformanceMcpServer, type ConformanceSessionState } from "./conformance-features.js";
