export { bindApi, type ApiBinding, type ApiMethod } from "./api/api-binding.js";
export { generateDeclarations, type ApiDeclarations, type DeclarationOptions } from "./api/declarations.js";
export { createCodeMode, type CodeMode, type CodeModeOptions, type CodeRunOptions } from "./code-mode.js";
export { CodeModeError, type CodeModeErrorCode } from "./errors.js";
export { toRunToolResult } from "./run-report.js";
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./sandbox/limits.js";
export type { CodeRunError, CodeRunErrorCode, CodeRunResult } from "./sandbox/run-types.js";
export type { Logger } from "@mcp-tool-adapter/core";
