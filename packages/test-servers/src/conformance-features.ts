import { MCP_LOG_LEVELS } from "@mcp-tool-adapter/core/protocol";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { z } from "zod";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// A 1x1 red PNG and a 44-byte silent WAV header (no samples): the smallest valid files of each kind.
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const SILENT_WAV = Buffer.from(
  "524946462400000057415645666d7420100000000100010044ac000088580100020010006461746100000000",
  "hex",
).toString("base64");

const PROMPT_ARGUMENT_WORDS = ["paris", "park", "party", "test", "testing"];

/** What one session of the conformance server saw, for assertions next to the suite's. */
export interface ConformanceSessionState {
  /** URIs this session subscribed to and has not unsubscribed from. */
  readonly subscriptions: ReadonlySet<string>;
}

/**
 * A fresh SDK 1.x `McpServer` (one per session: an SDK server serves one transport) with every
 * tool, resource, prompt, completion, log, progress, subscription, elicitation and sampling
 * behaviour the official conformance suite's server scenarios (0.1.16) ask of a server.
 */
export function createConformanceMcpServer(): { server: McpServer; state: ConformanceSessionState } {
  const server = new McpServer(
    { name: "conformance-test-server", version: "1.0.0" },
    {
      capabilities: {
        tools: {},
        prompts: {},
        resources: { subscribe: true },
        logging: {},
        completions: {},
      },
    },
  );
  const subscriptions = new Set<string>();
  let minimumLevel: LoggingLevel = "info";
  registerTools(server, () => minimumLevel);
  registerResources(server);
  registerPrompts(server);
  // The session's own level, so logs below it are not sent (the suite sets `debug`, then expects three `info`).
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimumLevel = request.params.level;
    return {};
  });
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  return { server, state: { subscriptions } };
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function registerTools(server: McpServer, minimumLevel: () => LoggingLevel): void {
  const noArguments = { inputSchema: {} };
  server.registerTool("test_simple_text", { ...noArguments, description: "Returns one text block" }, () =>
    text("This is a simple text response for testing."),
  );
  server.registerTool("test_image_content", { ...noArguments, description: "Returns a 1x1 PNG" }, () => ({
    content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
  }));
  server.registerTool("test_audio_content", { ...noArguments, description: "Returns a silent WAV" }, () => ({
    content: [{ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }],
  }));
  server.registerTool(
    "test_embedded_resource",
    { ...noArguments, description: "Returns an embedded text resource" },
    () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_multiple_content_types",
    { ...noArguments, description: "Returns text, an image and a resource" },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_tool_with_logging",
    { ...noArguments, description: "Logs three info messages while it runs" },
    async (_args, extra) => {
      const log = (data: string): Promise<void> => sendLog(extra, { level: "info", data, minimum: minimumLevel() });
      await log("Tool execution started");
      await delay(50);
      await log("Tool processing data");
      await delay(50);
      await log("Tool execution completed");
      return text("Logged three messages.");
    },
  );
  server.registerTool("test_error_handling", { ...noArguments, description: "Always fails" }, () => {
    // Thrown: McpServer turns it into the `isError` result the spec asks for a failed tool.
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.registerTool(
    "test_tool_with_progress",
    { ...noArguments, description: "Reports progress 0, 50 and 100 of 100" },
    async (_args, extra) => {
      const token = extra._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total: 100 },
          });
        }
        if (progress < 100) await delay(50);
      }
      return text("Progress reported.");
    },
  );
  server.registerTool(
    "test_sampling",
    { description: "Asks the client's model to answer a prompt", inputSchema: { prompt: z.string() } },
    async ({ prompt }, extra) => {
      if (server.server.getClientCapabilities()?.sampling === undefined) {
        return { ...text("The client did not declare the sampling capability."), isError: true };
      }
      const answer = await extra.sendRequest(
        {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 },
        },
        CreateMessageResultSchema,
      );
      const reply = answer.content.type === "text" ? answer.content.text : `(${answer.content.type} content)`;
      return text(`LLM response: ${reply}`);
    },
  );
  registerElicitationTools(server);
}

function registerElicitationTools(server: McpServer): void {
  const elicit = async (params: ElicitRequest["params"], extra: Extra): Promise<CallToolResult> => {
    if (server.server.getClientCapabilities()?.elicitation === undefined) {
      return { ...text("The client did not declare the elicitation capability."), isError: true };
    }
    const answer = await extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema);
    return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  };
  server.registerTool(
    "test_elicitation",
    { description: "Asks the user for a username and an email", inputSchema: { message: z.string() } },
    ({ message }, extra) =>
      elicit(
        {
          message,
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        },
        extra,
      ),
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { inputSchema: {}, description: "Elicits one field of each primitive type, each with a default (SEP-1034)" },
    (_args, extra) =>
      elicit(
        {
          message: "Please review your profile",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", default: "John Doe" },
              age: { type: "integer", default: 30 },
              score: { type: "number", default: 95.5 },
              status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
              verified: { type: "boolean", default: true },
            },
          },
        },
        extra,
      ),
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { inputSchema: {}, description: "Elicits the five enum shapes of SEP-1330" },
    (_args, extra) =>
      elicit(
        {
          message: "Please pick your options",
          requestedSchema: {
            type: "object",
            properties: {
              untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
              titledSingle: {
                type: "string",
                oneOf: [
                  { const: "value1", title: "First Option" },
                  { const: "value2", title: "Second Option" },
                  { const: "value3", title: "Third Option" },
                ],
              },
              legacyEnum: {
                type: "string",
                enum: ["opt1", "opt2", "opt3"],
                enumNames: ["Option One", "Option Two", "Option Three"],
              },
              untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
              titledMulti: {
                type: "array",
                items: {
                  anyOf: [
                    { const: "value1", title: "First Choice" },
                    { const: "value2", title: "Second Choice" },
                    { const: "value3", title: "Third Choice" },
                  ],
                },
              },
            },
          },
        },
        extra,
      ),
  );
}

async function sendLog(extra: Extra, log: { level: LoggingLevel; data: string; minimum: LoggingLevel }): Promise<void> {
  if (MCP_LOG_LEVELS.indexOf(log.level) < MCP_LOG_LEVELS.indexOf(log.minimum)) return;
  // Through `extra`: related to the call, so it travels on the call's own response stream.
  await extra.sendNotification({
    method: "notifications/message",
    params: { level: log.level, logger: "conformance-test-server", data: log.data },
  });
}

function registerResources(server: McpServer): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A fixed text resource", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A fixed 1x1 PNG", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: RED_PIXEL_PNG }] }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource clients may subscribe to", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Watched resource content." }] }),
  );
  server.registerResource(
    "template-data",
    new ResourceTemplate("test://template/{id}/data", { list: undefined }),
    { description: "JSON data for any id", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ id: String(id), templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt("test_simple_prompt", { description: "A prompt without arguments" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments (arg1 completes from a word list)",
      argsSchema: {
        arg1: completable(z.string().describe("First test argument"), (value) =>
          PROMPT_ARGUMENT_WORDS.filter((word) => word.startsWith(value)),
        ),
        arg2: z.string().describe("Second test argument"),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds the resource it is given",
      argsSchema: { resourceUri: z.string().describe("URI of the resource to embed") },
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
}
