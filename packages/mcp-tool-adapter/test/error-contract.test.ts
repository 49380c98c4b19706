import * as adapter from "@mcp-tool-adapter/adapter";
import * as aiSdk from "@mcp-tool-adapter/ai-sdk";
import * as capabilityInference from "@mcp-tool-adapter/capability-inference";
import * as codeMode from "@mcp-tool-adapter/code-mode";
import * as core from "@mcp-tool-adapter/core";
import * as engine2026 from "@mcp-tool-adapter/engine-2026";
import * as langchain from "@mcp-tool-adapter/langchain";
import * as modelTools from "@mcp-tool-adapter/model-tools";
import * as oauth from "@mcp-tool-adapter/oauth";
import * as openaiAgents from "@mcp-tool-adapter/openai-agents";
import * as registry from "@mcp-tool-adapter/registry";
import * as schemaValidation from "@mcp-tool-adapter/schema-validation";
import * as toolSearch from "@mcp-tool-adapter/tool-search";
import * as transportHttp from "@mcp-tool-adapter/transport-http";
import * as transportStdio from "@mcp-tool-adapter/transport-stdio";
import { describe, expect, it } from "vitest";
import { CliUsageError } from "../src/cli/usage-error.js";
import * as umbrellaConfigSchema from "../src/config-schema-entry.js";
import * as umbrellaHttp from "../src/http-entry.js";
import * as umbrella from "../src/index.js";
import * as umbrellaModelTools from "../src/model-tools-entry.js";
import * as umbrellaOAuth from "../src/oauth-entry.js";

type ErrorClass = typeof core.MCPToolAdapterError & (new (...args: never[]) => core.MCPToolAdapterError);

const MARKER = Symbol.for("mcp-tool-adapter.error");
const LINEAGE = Symbol.for("mcp-tool-adapter.error.lineage");

/** Every public package's entry, the umbrella's sub-entries, and the one error class the umbrella keeps internal (the CLI's). */
const ENTRIES: Record<string, Record<string, unknown>> = {
  "@mcp-tool-adapter/core": core,
  "@mcp-tool-adapter/capability-inference": capabilityInference,
  "@mcp-tool-adapter/registry": registry,
  "@mcp-tool-adapter/schema-validation": schemaValidation,
  "@mcp-tool-adapter/transport-stdio": transportStdio,
  "@mcp-tool-adapter/transport-http": transportHttp,
  "@mcp-tool-adapter/adapter": adapter,
  "@mcp-tool-adapter/engine-2026": engine2026,
  "@mcp-tool-adapter/model-tools": modelTools,
  "@mcp-tool-adapter/tool-search": toolSearch,
  "@mcp-tool-adapter/oauth": oauth,
  "@mcp-tool-adapter/ai-sdk": aiSdk,
  "@mcp-tool-adapter/langchain": langchain,
  "@mcp-tool-adapter/openai-agents": openaiAgents,
  "@mcp-tool-adapter/code-mode": codeMode,
  "mcp-tool-adapter": umbrella,
  "mcp-tool-adapter/http": umbrellaHttp,
  "mcp-tool-adapter/model-tools": umbrellaModelTools,
  "mcp-tool-adapter/oauth": umbrellaOAuth,
  "mcp-tool-adapter/config-schema": umbrellaConfigSchema,
  "mcp-tool-adapter (cli)": { CliUsageError },
};

/** One instance of each error class, built with `cause`; a new exported error class must be added here. */
const SAMPLES: Record<string, (cause: Error) => core.MCPToolAdapterError> = {
  CodeModeError: (cause) => new codeMode.CodeModeError("INVALID_OPTIONS", "bad options", { cause }),
  RegistryError: (cause) => new registry.RegistryError("INVALID_TOOL", "bad tool", { cause }),
  SchemaValidationError: (cause) =>
    new schemaValidation.SchemaValidationError("SCHEMA_INVALID", "bad schema", { cause }),
  StdioTransportError: (cause) => new transportStdio.StdioTransportError("SPAWN_FAILED", "no such command", { cause }),
  HttpTransportError: (cause) =>
    new transportHttp.HttpTransportError("CONNECTION_FAILED", "nothing listening", { cause }),
  MCPAdapterError: (cause) => new adapter.MCPAdapterError("CONNECTION_FAILED", "failed", { cause }),
  MCPConfigError: (cause) => new adapter.MCPConfigError("bad config", [], { cause }),
  MCPConnectionError: (cause) =>
    new adapter.MCPConnectionError("failed", { serverName: "s", transportType: "stdio", cause }),
  MCPNotConnectedError: (cause) => new adapter.MCPNotConnectedError("not connected", { serverName: "s", cause }),
  MCPUsageError: (cause) => new adapter.MCPUsageError("bad argument", { cause }),
  MCPServerUnavailableError: (cause) =>
    new adapter.MCPServerUnavailableError("server is down", { serverName: "s", cause }),
  MCPDiscoveryError: (cause) => new adapter.MCPDiscoveryError("discovery failed", { serverName: "s", cause }),
  MCPServerSetError: (cause) =>
    new umbrella.MCPServerSetError("SERVER_TIMEOUT", "too slow", { serverName: "s", cause }),
  MCPConfigFileError: (cause) =>
    new umbrella.MCPConfigFileError("CONFIG_FILE_INVALID", "bad file", { file: "mcp.json", cause }),
  ModelToolsError: (cause) => new modelTools.ModelToolsError("UNKNOWN_TOOL", "no such tool", { cause }),
  ToolSearchError: (cause) => new toolSearch.ToolSearchError("INVALID_OPTIONS", "bad limit", { cause }),
  LangChainToolCallError: (cause) =>
    new langchain.LangChainToolCallError("ns/tool", "failed", { success: false, error: "failed" }, { cause }),
  OpenAIAgentsBridgeError: (cause) =>
    new openaiAgents.OpenAIAgentsBridgeError("NAME_COLLISION", "two tools, one name", { cause }),
  CliUsageError: (cause) => new CliUsageError("bad arguments", { cause }),
  MCPAuthError: (cause) => new oauth.MCPAuthError("AUTH_REQUIRED", "needs a login", { cause }),
  AISDKSamplingError: (cause) =>
    new aiSdk.AISDKSamplingError("SAMPLING_REQUEST_INVALID", "tool_result without tool_use", { cause }),
  LangChainSamplingError: (cause) =>
    new langchain.LangChainSamplingError("SAMPLING_TOOLS_UNSUPPORTED", "no bindTools", { cause }),
  OpenAIAgentsSamplingError: (cause) =>
    new openaiAgents.OpenAIAgentsSamplingError("SAMPLING_ANSWER_INVALID", "arguments not an object", { cause }),
  Engine2026Error: (cause) =>
    new engine2026.Engine2026Error("HTTP_ERROR", "502 from the proxy", { status: 502, cause }),
  MCPProtocolError: (cause) => new core.MCPProtocolError(-32602, "unknown tool", { cause }),
  MCPToolLockError: (cause) =>
    new umbrella.MCPToolLockError("LOCK_INVALID", "bad lock", { path: "mcp-tools.lock.json", cause }),
};

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && (value as { prototype?: unknown }).prototype instanceof Error;
}

/** Each exported error class once (the umbrella re-exports the leaves' classes), with where it was found. */
function exportedErrorClasses(): Map<ErrorClass, string> {
  const found = new Map<ErrorClass, string>();
  for (const [entry, exports] of Object.entries(ENTRIES)) {
    for (const [name, value] of Object.entries(exports)) {
      if (isErrorClass(value) && value !== core.MCPToolAdapterError && !found.has(value))
        found.set(value, `${entry} ${name}`);
    }
  }
  return found;
}

const classes = exportedErrorClasses();
const samples = new Map(
  [...classes.keys()].map((errorClass) => [errorClass, SAMPLES[errorClass.name]?.(new Error("root cause"))]),
);

describe("every public error class follows the contract of @mcp-tool-adapter/core", () => {
  it("finds the error classes of every package and has a sample of each", () => {
    expect([...classes.keys()].map((errorClass) => errorClass.name).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [errorClass, where] of classes) {
    describe(where, () => {
      const sample = (): core.MCPToolAdapterError => {
        const error = samples.get(errorClass);
        if (error === undefined) throw new Error(`add a sample of ${errorClass.name} to SAMPLES`);
        return error;
      };

      it("extends the base, has a string code, its class's name and the marker, and passes the cause through", () => {
        const error = sample();
        expect(error).toBeInstanceOf(errorClass);
        expect(error).toBeInstanceOf(core.MCPToolAdapterError);
        expect(error).toBeInstanceOf(Error);
        expect(typeof error.code).toBe("string");
        expect(error.code).toMatch(/^[A-Z][A-Z_]+$/);
        expect(Object.hasOwn(errorClass, "errorName")).toBe(true);
        expect(errorClass.errorName).toBe(errorClass.name);
        expect(error.name).toBe(errorClass.name);
        expect((error as unknown as Record<symbol, unknown>)[MARKER]).toBe(true);
        expect(error.cause).toEqual(new Error("root cause"));
        expect(error.message).not.toBe("");
      });

      it("isInstance: true for its instances, false for a plain Error and for every other class's errors", () => {
        expect(errorClass.isInstance(sample())).toBe(true);
        expect(core.MCPToolAdapterError.isInstance(sample())).toBe(true);
        expect(errorClass.isInstance(new Error(sample().message))).toBe(false);
        expect(errorClass.isInstance({ name: errorClass.name, code: sample().code })).toBe(false);
        for (const [otherClass, other] of samples) {
          if (other === undefined || otherClass === errorClass) continue;
          // Only a subclass's errors are also this class's (MCPConfigError is an MCPAdapterError).
          expect(errorClass.isInstance(other), `${errorClass.name}.isInstance(a ${otherClass.name})`).toBe(
            other instanceof errorClass,
          );
        }
      });

      it("isInstance: true for its errors from a second copy of the package", () => {
        const { code, message } = sample();
        const older = { [MARKER]: true, name: errorClass.name, code, message };
        expect(errorClass.isInstance(older)).toBe(true);
        const subclassFromOtherCopy = Object.assign(new Error(message), {
          name: "SubclassInOtherCopy",
          code,
          [MARKER]: true,
          [LINEAGE]: ["SubclassInOtherCopy", errorClass.name],
        });
        expect(errorClass.isInstance(subclassFromOtherCopy)).toBe(true);
        expect(errorClass.isInstance({ ...older, [MARKER]: false })).toBe(false);
      });
    });
  }
});
