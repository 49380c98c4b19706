import { pathToFileURL } from "node:url";
import { realpath } from "node:fs/promises";
import {
  createTempDirectory,
  EVERYTHING_TARGETS,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  type RunningEverything,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ClientRequestContext,
  MCPElicitationRequest,
  MCPElicitationResponse,
  MCPSamplingRequest,
} from "@mcp-tool-adapter/adapter";
import { MCPToolAdapter } from "../src/index.js";

// Elicitation, sampling and roots against the real servers. Tools called: trigger-elicitation-request,
// trigger-url-elicitation, trigger-sampling-request, simulate-research-query (a task), get-roots-list (server-everything) and
// list_allowed_directories (server-filesystem). Never get-env nor gzip-file-as-resource.

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

describe.each(EVERYTHING_TARGETS)("server-everything client features over $label", (target) => {
  let running: RunningEverything;
  let adapter: MCPToolAdapter;
  const elicitations: MCPElicitationRequest[] = [];
  const samplings: MCPSamplingRequest[] = [];
  /** The context each handler was called with, in order (elicitation and sampling alike). */
  const contexts: ClientRequestContext[] = [];

  beforeAll(async () => {
    running = await target.start();
    adapter = new MCPToolAdapter(running.config, {
      connectTimeoutMs: 20_000,
      roots: [{ uri: "file:///srv/project", name: "project" }],
      onElicitation: (request, context): MCPElicitationResponse => {
        elicitations.push(request);
        contexts.push(context);
        if (request.mode === "url") return { action: "decline" };
        // simulate-research-query asks which meaning of its topic we want.
        return "interpretation" in (request.requestedSchema.properties as object)
          ? { action: "accept", content: { interpretation: "snake" } }
          : { action: "accept", content: { name: "Ada", check: true, integer: 7 } };
      },
      onSampling: (request, context) => {
        samplings.push(request);
        contexts.push(context);
        return {
          role: "assistant",
          content: { type: "text", text: "sampled by the host" },
          model: "host-model",
          stopReason: "endTurn",
        };
      },
    });
    await adapter.connect();
  });

  afterAll(async () => {
    await adapter.disconnect();
    await running.stop();
    await expectNoLeakedProcesses();
  });

  it("offers the tools that need elicitation, sampling and roots (it saw our capabilities)", async () => {
    const names = (await adapter.discoverTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "trigger-elicitation-request",
        "trigger-url-elicitation",
        "trigger-sampling-request",
        "get-roots-list",
      ]),
    );
  });

  it("answers a form elicitation through onElicitation, checked against the server's schema", async () => {
    const result = await adapter.invoke("trigger-elicitation-request", {});
    expect(result.success).toBe(true);
    expect(textOf(result)).toContain("User provided the requested information");
    expect(textOf(result)).toContain("Ada");
    expect(elicitations.at(-1)).toMatchObject({ mode: "form", requestedSchema: { required: ["name"] } });
  });

  it("passes a URL elicitation with its URL and id", async () => {
    const result = await adapter.invoke("trigger-url-elicitation", {
      url: "https://example.invalid/consent",
      elicitationId: "consent-1",
    });
    expect(result.success).toBe(true);
    expect(elicitations.at(-1)).toEqual({
      mode: "url",
      message: "Please open the link to complete this action.",
      url: "https://example.invalid/consent",
      elicitationId: "consent-1",
    });
  });

  it("answers sampling/createMessage with the host model", async () => {
    const result = await adapter.invoke("trigger-sampling-request", { prompt: "capital of France?", maxTokens: 30 });
    expect(result.success).toBe(true);
    expect(textOf(result)).toContain("sampled by the host");
    expect(samplings.at(-1)).toMatchObject({
      maxTokens: 30,
      systemPrompt: "You are a helpful test server.",
      messages: [{ role: "user" }],
    });
  });

  it("runs a task-based tool (MCP tasks) to its final result, its clarification asked through onElicitation", async () => {
    const result = await adapter.invoke("simulate-research-query", { topic: "python", ambiguous: true });
    expect(result.error).toBeNull();
    expect(result.success).toBe(true);
    expect(textOf(result)).toContain("# Research Report: python (snake)");
    // Its question came on the response stream of the call's tasks/result: linked to the call too.
    expect(contexts.at(-1)?.relatedCall).toEqual(
      target.label === "stdio" ? undefined : { tool: "simulate-research-query", caller: undefined },
    );
    expect(elicitations.at(-1)).toMatchObject({
      mode: "form",
      requestedSchema: {
        properties: {
          interpretation: {
            oneOf: expect.arrayContaining([{ const: "snake", title: "Python snake species" }]) as unknown,
          },
        },
        required: ["interpretation"],
      },
    });
  });

  it("tells the handlers which tool call asked, with the invoker's caller, where the wire links the two (streamable HTTP)", async () => {
    const caller = { user: "ada" };
    const linked = (tool: string) => (target.label === "stdio" ? undefined : { tool, caller });
    expect((await adapter.invoke("trigger-elicitation-request", {}, { caller })).success).toBe(true);
    expect(contexts.at(-1)?.relatedCall).toEqual(linked("trigger-elicitation-request"));
    expect((await adapter.invoke("trigger-sampling-request", { prompt: "hi", maxTokens: 5 }, { caller })).success).toBe(
      true,
    );
    expect(contexts.at(-1)?.relatedCall).toEqual(linked("trigger-sampling-request"));
    if (target.label !== "stdio") expect(contexts.at(-1)?.relatedCall?.caller).toBe(caller);
    // A call made without a caller is still named by its tool.
    expect((await adapter.invoke("trigger-elicitation-request", {})).success).toBe(true);
    expect(contexts.at(-1)?.relatedCall).toEqual(
      target.label === "stdio" ? undefined : { tool: "trigger-elicitation-request", caller: undefined },
    );
  });

  it("lists our roots to the server", async () => {
    const result = await adapter.invoke("get-roots-list", {});
    expect(textOf(result)).toContain("file:///srv/project");
  });
});

describe("server-filesystem with roots given by us", () => {
  let adapter: MCPToolAdapter;
  let started: TempDirectory;
  let first: TempDirectory;
  let second: TempDirectory;

  beforeAll(async () => {
    [started, first, second] = await Promise.all([
      createTempDirectory("fs-start-"),
      createTempDirectory("fs-root-a-"),
      createTempDirectory("fs-root-b-"),
    ]);
  });

  afterAll(async () => {
    await adapter.disconnect();
    await Promise.all([started.remove(), first.remove(), second.remove()]);
    await expectNoLeakedProcesses();
  });

  async function allowed(): Promise<string[]> {
    const result = await adapter.invoke("list_allowed_directories", {});
    return textOf(result)
      .split("\n")
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .sort();
  }

  it("sees exactly our roots, and the new ones after setRoots()", async () => {
    const firstPath = await realpath(first.path);
    const secondPath = await realpath(second.path);
    adapter = new MCPToolAdapter(
      { name: "files", transport: "stdio", ...filesystemStdioServer([started.path]) },
      {
        connectTimeoutMs: 20_000,
        roots: [{ uri: pathToFileURL(firstPath).href, name: "a" }],
      },
    );
    await adapter.connect();
    await expect.poll(allowed, { timeout: 10_000 }).toEqual([firstPath]);
    await adapter.setRoots([{ uri: pathToFileURL(firstPath).href }, { uri: pathToFileURL(secondPath).href }]);
    await expect.poll(allowed, { timeout: 10_000 }).toEqual([firstPath, secondPath].sort());
  });
});
