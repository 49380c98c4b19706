import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MCPConfigError, type MCPElicitationRequest, type MCPSamplingRequest } from "../src/index.js";
import { connectedHarness, createHarness, sleep } from "./helpers.js";

const FORM = {
  mode: "form",
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: { name: { type: "string", minLength: 2 }, age: { type: "integer", minimum: 0 } },
    required: ["name"],
  },
};
const SAMPLING = {
  messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
  maxTokens: 20,
  modelPreferences: { hints: [{ name: "small" }] },
};
const ANSWER = { role: "assistant", content: { type: "text", text: "hi" }, model: "host-model", stopReason: "endTurn" };

function codeOf(error: unknown): number | undefined {
  return (error as { code?: number }).code;
}

describe("capabilities", () => {
  it("declares nothing without handlers or roots", async () => {
    const { server } = await connectedHarness({});
    expect(server.clientCapabilities).toEqual({});
  });

  it("declares elicitation (form and url), sampling and roots only for what was given", async () => {
    const { server } = await connectedHarness(
      {},
      {
        onElicitation: () => ({ action: "decline" }),
        onSampling: () => ANSWER as never,
        samplingTools: true,
        roots: [],
      },
    );
    expect(server.clientCapabilities).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: { tools: {} },
      roots: { listChanged: true },
      // Both kinds of request can run as tasks on our side (server-everything's trigger-*-async tools, end to end in the umbrella).
      tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } },
    });
  });

  it("runs a sampling request as a task when the server asks: tasks/get, tasks/result, tasks/list and tasks/cancel follow it", async () => {
    let release: (() => void) | undefined;
    const { server } = await connectedHarness(
      {},
      {
        onSampling: async (_request, context) => {
          await new Promise<void>((resolve) => {
            release = resolve;
            context.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          return ANSWER as never;
        },
      },
    );
    const created = (await server.requestFromClient("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
      task: { ttl: 60_000 },
    })) as { task: { taskId: string; status: string; ttl: number } };
    expect(created.task).toMatchObject({ status: "working", ttl: 60_000 });
    const { taskId } = created.task;
    expect(await server.requestFromClient("tasks/get", { taskId })).toMatchObject({ taskId, status: "working" });
    expect(await server.requestFromClient("tasks/list", {})).toMatchObject({ tasks: [{ taskId }] });
    const result = server.requestFromClient("tasks/result", { taskId });
    await expect.poll(() => release).toBeDefined();
    release?.();
    expect(await result).toMatchObject({ ...ANSWER, _meta: { "io.modelcontextprotocol/related-task": { taskId } } });
    expect(await server.requestFromClient("tasks/get", { taskId })).toMatchObject({ status: "completed" });
    await expect(server.requestFromClient("tasks/cancel", { taskId })).rejects.toThrow(/already ended \(completed\)/u);
    await expect(server.requestFromClient("tasks/get", { taskId: "nope" })).rejects.toThrow(/No task nope/u);
  });

  it("tasks/cancel aborts the handler's signal and marks the task cancelled", async () => {
    let aborted = false;
    const { server } = await connectedHarness(
      {},
      {
        onSampling: (_request, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () => {
              aborted = true;
              reject(new Error("stopped"));
            });
          }),
      },
    );
    const { task } = (await server.requestFromClient("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      maxTokens: 5,
      task: {},
    })) as { task: { taskId: string } };
    expect(await server.requestFromClient("tasks/cancel", { taskId: task.taskId })).toMatchObject({
      status: "cancelled",
    });
    expect(aborted).toBe(true);
    await expect(server.requestFromClient("tasks/result", { taskId: task.taskId })).rejects.toThrow(/was cancelled/u);
  });
});

describe("elicitation", () => {
  it("passes a form request to the handler and sends its checked answer", async () => {
    const seen: MCPElicitationRequest[] = [];
    const { server } = await connectedHarness(
      {},
      {
        onElicitation: (request, context) => {
          seen.push(request);
          expect(context.serverName).toBe("test-server");
          return { action: "accept", content: { name: "Ada", age: 36 } };
        },
      },
    );
    expect(await server.requestFromClient("elicitation/create", FORM)).toEqual({
      action: "accept",
      content: { name: "Ada", age: 36 },
    });
    expect(seen).toEqual([FORM]);
  });

  it("passes a URL-mode request", async () => {
    const seen: MCPElicitationRequest[] = [];
    const { server } = await connectedHarness(
      {},
      { onElicitation: (request) => (seen.push(request), { action: "cancel" }) },
    );
    const params = { mode: "url", message: "Sign in", url: "https://example.invalid/login", elicitationId: "e1" };
    expect(await server.requestFromClient("elicitation/create", params)).toEqual({ action: "cancel" });
    expect(seen).toEqual([params]);
  });

  it("fills in the requestedSchema's defaults for the fields an accepted answer omits (SEP-1034)", async () => {
    const { server } = await connectedHarness(
      {},
      { onElicitation: () => ({ action: "accept", content: { name: "Bo" } }) },
    );
    const withDefaults = {
      mode: "form",
      message: "Settings?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", default: "John Doe" },
          age: { type: "integer", default: 30 },
          status: { type: "string", enum: ["active", "inactive"], default: "active" },
          verified: { type: "boolean", default: false },
          note: { type: "string" },
        },
        required: ["age"],
      },
    };
    expect(await server.requestFromClient("elicitation/create", withDefaults)).toEqual({
      action: "accept",
      content: { name: "Bo", age: 30, status: "active", verified: false },
    });
  });

  it("refuses an answer that does not match requestedSchema; nothing of it reaches the server", async () => {
    const { server } = await connectedHarness(
      {},
      { onElicitation: () => ({ action: "accept", content: { name: "A", age: -1 } }) },
    );
    const error = await server.requestFromClient("elicitation/create", FORM).catch((e: unknown) => e);
    expect(codeOf(error)).toBe(ErrorCode.InternalError);
    expect(String(error)).toMatch(
      /does not match its requestedSchema: .*\/name.*\/age|does not match its requestedSchema: .*\/age.*\/name/,
    );
  });

  it("declines a hostile requestedSchema with the reason, without asking the user", async () => {
    let asked = 0;
    const { server } = await connectedHarness(
      {},
      { onElicitation: () => (asked++, { action: "accept", content: {} }) },
    );
    // Passes the SDK's shape check (a flat object of primitive fields) but is no valid JSON Schema.
    const hostile = {
      mode: "form",
      message: "x",
      requestedSchema: { type: "object", properties: { a: { type: "string", minLength: -1 } } },
    };
    const error = await server.requestFromClient("elicitation/create", hostile).catch((e: unknown) => e);
    expect(codeOf(error)).toBe(ErrorCode.InvalidParams);
    expect(String(error)).toContain("requestedSchema is not a usable JSON Schema");
    const nested = {
      mode: "form",
      message: "x",
      requestedSchema: { type: "object", properties: { a: { type: "object", properties: {} } } },
    };
    // A schema outside the spec's flat shape is refused by the SDK's request check, also with the reason.
    const refused = await server.requestFromClient("elicitation/create", nested).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/requestedSchema/);
    expect(asked).toBe(0);
  });

  it("answers an elicitation at once with method-not-found when no handler was given", async () => {
    const { server } = await connectedHarness({});
    const error = await server
      .requestFromClient("elicitation/create", FORM, { timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    expect(codeOf(error)).toBe(ErrorCode.MethodNotFound);
  });

  it("turns a throwing or hanging handler into an error for the server, never a crash of the host", async () => {
    const throwing = await connectedHarness(
      {},
      {
        onElicitation: () => {
          throw new Error("ui crashed");
        },
      },
    );
    const thrown = await throwing.server.requestFromClient("elicitation/create", FORM).catch((e: unknown) => e);
    expect(codeOf(thrown)).toBe(ErrorCode.InternalError);
    expect(String(thrown)).toContain("ui crashed");
    let aborted = false;
    const hanging = await connectedHarness(
      {},
      {
        clientRequestTimeoutMs: 30,
        onElicitation: (_request, context) =>
          new Promise(() => {
            context.signal.addEventListener("abort", () => (aborted = true));
          }),
      },
    );
    const timedOut = await hanging.server.requestFromClient("elicitation/create", FORM).catch((e: unknown) => e);
    expect(codeOf(timedOut)).toBe(ErrorCode.RequestTimeout);
    expect(String(timedOut)).toContain("did not answer within 30 ms");
    expect(aborted).toBe(true);
    // The adapter is still usable afterwards.
    expect(await hanging.adapter.listResources()).toEqual([]);
  });
});

describe("sampling", () => {
  it("gives the handler the messages, model preferences and tools, and sends its answer", async () => {
    const seen: MCPSamplingRequest[] = [];
    const { server } = await connectedHarness(
      {},
      { onSampling: (request) => (seen.push(request), ANSWER as never), samplingTools: true },
    );
    const withTools = { ...SAMPLING, tools: [{ name: "lookup", inputSchema: { type: "object" } }] };
    expect(await server.requestFromClient("sampling/createMessage", withTools)).toMatchObject({
      model: "host-model",
      content: { text: "hi" },
    });
    expect(seen[0]).toMatchObject({
      maxTokens: 20,
      modelPreferences: { hints: [{ name: "small" }] },
      tools: [{ name: "lookup" }],
    });
  });

  it("answers a sampling request with method-not-found when no handler was given", async () => {
    const { server } = await connectedHarness({});
    expect(codeOf(await server.requestFromClient("sampling/createMessage", SAMPLING).catch((e: unknown) => e))).toBe(
      ErrorCode.MethodNotFound,
    );
  });

  it("sends a rejecting handler's failure and a malformed answer back as errors", async () => {
    const failing = await connectedHarness({}, { onSampling: () => Promise.reject(new Error("model offline")) });
    expect(
      String(await failing.server.requestFromClient("sampling/createMessage", SAMPLING).catch((e: unknown) => e)),
    ).toContain("model offline");
    const malformed = await connectedHarness({}, { onSampling: () => ({ nope: true }) as never });
    expect(
      codeOf(await malformed.server.requestFromClient("sampling/createMessage", SAMPLING).catch((e: unknown) => e)),
    ).toBe(ErrorCode.InvalidParams);
  });
});

describe("roots", () => {
  it("lists the configured roots and announces setRoots()", async () => {
    const { adapter, server } = await connectedHarness({}, { roots: [{ uri: "file:///srv/a", name: "a" }] });
    expect(await server.requestFromClient("roots/list")).toEqual({ roots: [{ uri: "file:///srv/a", name: "a" }] });
    await adapter.setRoots([{ uri: "file:///srv/b" }]);
    await sleep(10);
    expect(server.rootsChangedCount).toBe(1);
    expect(await server.requestFromClient("roots/list")).toEqual({ roots: [{ uri: "file:///srv/b" }] });
    expect(adapter.roots).toEqual([{ uri: "file:///srv/b" }]);
  });

  it("rejects a root that is not a file:// URI, naming it", async () => {
    expect(() => createHarness({}, { roots: [{ uri: "/srv/a" }] })).toThrow(MCPConfigError);
    const { adapter } = await connectedHarness({}, { roots: [] });
    await expect(adapter.setRoots([{ uri: "file:///ok" }, { uri: "http://x" }])).rejects.toThrow(
      /\/roots\/1\/uri must be a "file:\/\/" URI/,
    );
  });

  it("answers each roots/list through onRootsList, given the adapter's roots; a bad answer is the server's error", async () => {
    const asked: unknown[] = [];
    let answer: { uri: string }[] = [{ uri: "file:///srv/for-this-call" }];
    const { server } = await connectedHarness(
      {},
      {
        roots: [{ uri: "file:///srv/shared" }],
        onRootsList: (context) => {
          asked.push({
            serverName: context.serverName,
            roots: context.roots,
            signal: context.signal instanceof AbortSignal,
          });
          return answer;
        },
      },
    );
    expect(server.clientCapabilities?.roots).toEqual({ listChanged: true });
    expect(await server.requestFromClient("roots/list")).toEqual({ roots: [{ uri: "file:///srv/for-this-call" }] });
    expect(asked).toEqual([{ serverName: "test-server", roots: [{ uri: "file:///srv/shared" }], signal: true }]);
    answer = [{ uri: "http://not-a-folder" }];
    const error = await server.requestFromClient("roots/list").catch((e: unknown) => e);
    expect(codeOf(error)).toBe(ErrorCode.InternalError);
    expect((error as Error).message).toMatch(/onRootsList handler .*must be a "file:\/\/" URI/);
  });

  it("declares roots set on an adapter made without them from the next connect on", async () => {
    const { adapter, server } = await connectedHarness({});
    expect(codeOf(await server.requestFromClient("roots/list").catch((e: unknown) => e))).toBe(
      ErrorCode.MethodNotFound,
    );
    await adapter.setRoots([{ uri: "file:///srv/c" }]);
    expect(server.rootsChangedCount).toBe(0);
    await adapter.reconnect();
    expect(await server.requestFromClient("roots/list")).toEqual({ roots: [{ uri: "file:///srv/c" }] });
  });
});
