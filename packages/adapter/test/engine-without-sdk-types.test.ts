// The low-level SDK Server is what lets a test send raw messages of its own choosing.
/* eslint-disable @typescript-eslint/no-deprecated */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeResultSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  LATEST_PROTOCOL_VERSION as SDK_LATEST,
  SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED,
} from "@modelcontextprotocol/sdk/types.js";
import type { MCPEngineConnection, MCPEngineMessage } from "@mcp-tool-adapter/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkInitializeResult,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../src/engine/initialize-result.js";
import { JsonRpcEngine } from "../src/engine/json-rpc-engine.js";
import { notificationProblem } from "../src/engine/notification-checks.js";
import { RpcCode } from "../src/rpc-error.js";

/**
 * The default engine speaks JSON-RPC without loading SDK 1.x's `types.js` (its Zod schemas): the
 * facts and checks it took from there are written out, and must stay the SDK's.
 */

const opened: MCPEngineConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

describe("what the engine writes out instead of importing it from SDK 1.x", () => {
  it("the JSON-RPC codes are SDK 1.x's ErrorCode values", () => {
    for (const [name, code] of Object.entries(RpcCode))
      expect(code, name).toBe(ErrorCode[name as keyof typeof ErrorCode]);
  });

  it("the protocol revisions are SDK 1.x's", () => {
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
  });

  const base = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } };
  const answers: [string, unknown][] = [
    ["the least answer", base],
    [
      "every field",
      { ...base, instructions: "i", _meta: {}, serverInfo: { ...base.serverInfo, title: "t", icons: [] } },
    ],
    [
      "capabilities",
      {
        ...base,
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: false },
          prompts: {},
          logging: {},
          experimental: { x: {} },
        },
      },
    ],
    ["not an object", [base]],
    ["null", null],
    ["no protocolVersion", { ...base, protocolVersion: undefined }],
    ["a numeric protocolVersion", { ...base, protocolVersion: 2025 }],
    ["no capabilities", { ...base, capabilities: undefined }],
    ["capabilities as an array", { ...base, capabilities: [] }],
    ["a tools capability that is not an object", { ...base, capabilities: { tools: true } }],
    ["a listChanged that is not a boolean", { ...base, capabilities: { tools: { listChanged: "yes" } } }],
    ["an experimental capability that is not an object", { ...base, capabilities: { experimental: { x: 1 } } }],
    ["a logging capability that is not an object", { ...base, capabilities: { logging: "on" } }],
    ["no serverInfo", { ...base, serverInfo: undefined }],
    ["a serverInfo without a name", { ...base, serverInfo: { version: "1" } }],
    ["a serverInfo without a version", { ...base, serverInfo: { name: "s" } }],
    ["a numeric serverInfo title", { ...base, serverInfo: { ...base.serverInfo, title: 1 } }],
    ["instructions that are not a string", { ...base, instructions: 7 }],
  ];

  it.each(answers)("checkInitializeResult agrees with SDK 1.x's InitializeResultSchema on %s", (_what, answer) => {
    const expected = InitializeResultSchema.safeParse(answer).success;
    let accepted: boolean;
    try {
      checkInitializeResult(answer);
      accepted = true;
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid initialize result from the server: .+ must be/u);
      accepted = false;
    }
    expect(accepted).toBe(expected);
  });
});

describe("the followed notifications, checked without SDK 1.x's schemas", () => {
  const schemas = {
    "notifications/tools/list_changed": ToolListChangedNotificationSchema,
    "notifications/resources/list_changed": ResourceListChangedNotificationSchema,
    "notifications/prompts/list_changed": PromptListChangedNotificationSchema,
    "notifications/resources/updated": ResourceUpdatedNotificationSchema,
    "notifications/message": LoggingMessageNotificationSchema,
  } as const;
  const paramsTried: (Record<string, unknown> | undefined)[] = [
    undefined,
    {},
    { _meta: {} },
    { _meta: [] },
    { _meta: "m" },
    { uri: "file:///a" },
    { uri: 7 },
    { level: "info", data: "x" },
    { level: "info", data: null, logger: "l" },
    { level: "info", data: 1, logger: 2 },
    { level: "verbose", data: "x" },
    { level: "error" },
    { data: "x" },
    { level: "emergency", data: { a: 1 }, extra: true },
  ];
  const cases = Object.keys(schemas).flatMap((method) =>
    paramsTried.map((params) => [method as keyof typeof schemas, params] as const),
  );

  it.each(cases)("%s with params %j: accepted exactly when SDK 1.x's schema accepts it", (method, params) => {
    const message = params === undefined ? { method } : { method, params };
    const expected = schemas[method].safeParse(message).success;
    expect(notificationProblem(method, params) === undefined).toBe(expected);
  });

  it("a notification sent before a response reaches the host before the response", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: "in-process", version: "1" }, { capabilities: { tools: {}, logging: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: "before" } });
      return { content: [{ type: "text", text: request.params.name }] };
    });
    await server.connect(serverSide);
    const heard: string[] = [];
    const engine = new JsonRpcEngine({ transport: clientSide, closeTimeoutMs: 5_000 });
    const connection = await engine.connect({
      server: { name: "mem", transport: "stdio" },
      clientInfo: { name: "engine-test", version: "0.0.1" },
      capabilities: {},
      requestHandlers: {},
      listeners: {
        notification: (message: MCPEngineMessage) => heard.push(`${message.method}: ${String(message.params?.data)}`),
        closed: () => heard.push("closed"),
        error: (error) => heard.push(`error: ${error.message}`),
      },
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    opened.push(connection);
    for (const name of ["t1", "t2"]) {
      await connection.request({ method: "tools/call", params: { name } });
      heard.push(`answer ${name}`);
    }
    expect(heard).toEqual(["notifications/message: before", "answer t1", "notifications/message: before", "answer t2"]);
  });
});
