import * as assert from "node:assert/strict";
import { realpath } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  createInMemoryTestServer,
  createTempDirectory,
  everythingStdioServer,
  filesystemStdioServer,
  startEverythingHttp,
  type InMemoryTestServer,
} from "@mcp-tool-adapter/test-servers";
import {
  MCPToolAdapter,
  type MCPCompletion,
  type MCPPrompt,
  type MCPPromptMessages,
  type MCPRequestResult,
  type MCPResource,
  type MCPResourceContents,
  type MCPResourceSubscription,
  type MCPResourceTemplate,
  type MCPServerConfig,
  type MCPServerLogEntry,
  type MCPToolAdapterOptions,
} from "mcp-tool-adapter";
import { adapterOptionsOn } from "../support/engine.js";
import { waitFor } from "../support/real-servers.js";
import type { AdapterWorld } from "../support/world.js";

/** What the resource, prompt, log and client-feature steps remember between steps. */
interface ProtocolState {
  resources?: MCPResource[];
  templates?: MCPResourceTemplate[];
  read?: MCPRequestResult<MCPResourceContents>;
  updates: string[];
  subscription?: MCPResourceSubscription;
  prompts?: MCPPrompt[];
  prompt?: MCPRequestResult<MCPPromptMessages>;
  completion?: MCPRequestResult<MCPCompletion>;
  logs: MCPServerLogEntry[];
  loggerLines: string[];
  server?: InMemoryTestServer;
  serverError?: unknown;
  roots: string[];
}

const states = new WeakMap<AdapterWorld, ProtocolState>();
function state(world: AdapterWorld): ProtocolState {
  let found = states.get(world);
  if (found === undefined) {
    found = { updates: [], logs: [], loggerLines: [], roots: [] };
    states.set(world, found);
  }
  return found;
}

async function everythingConfig(world: AdapterWorld, transport: string): Promise<MCPServerConfig> {
  if (transport === "stdio") return { name: "everything", transport: "stdio", ...everythingStdioServer() };
  const server = await startEverythingHttp({ mode: "streamableHttp" });
  world.onCleanup(() => server.stop());
  return { name: "everything", transport: "streamable-http", url: server.url };
}

async function connect(
  world: AdapterWorld,
  config: MCPServerConfig,
  options: MCPToolAdapterOptions,
): Promise<MCPToolAdapter> {
  const s = state(world);
  const adapter = new MCPToolAdapter(
    config,
    adapterOptionsOn(world.engine, {
      connectTimeoutMs: 30_000,
      onLog: (entry) => s.logs.push(entry),
      logger: {
        info: (line) => s.loggerLines.push(line),
        warn: (line) => s.loggerLines.push(line),
        error: (line) => s.loggerLines.push(line),
        debug: (line) => s.loggerLines.push(line),
      },
      ...options,
    }),
  );
  world.onCleanup(() => adapter.disconnect());
  world.adapter = adapter;
  await adapter.connect();
  return adapter;
}

function inMemory(
  world: AdapterWorld,
  options: Parameters<typeof createInMemoryTestServer>[0],
  adapterOptions: MCPToolAdapterOptions,
): Promise<MCPToolAdapter> {
  const server = createInMemoryTestServer(options);
  world.onCleanup(() => server.close());
  state(world).server = server;
  return connect(
    world,
    { name: "in-process", transport: "stdio", command: "unused" },
    { ...adapterOptions, transport: () => server.connect() },
  );
}

// ---------------------------------------------------------------- Given

Given(
  /^an adapter to server-everything over (stdio|streamable-http)$/,
  async function (this: AdapterWorld, transport: string) {
    await connect(this, await everythingConfig(this, transport), {});
  },
);

Given(
  "an adapter to server-everything over stdio asking for log messages from level {string}",
  async function (this: AdapterWorld, level: string) {
    await connect(this, await everythingConfig(this, "stdio"), {
      logLevel: level as MCPToolAdapterOptions["logLevel"],
    });
  },
);

Given(
  /^an adapter to server-everything over (stdio|streamable-http) whose user answers forms with (\{.*\})$/,
  async function (this: AdapterWorld, transport: string, json: string) {
    const content = JSON.parse(json) as Record<string, string | number | boolean>;
    await connect(this, await everythingConfig(this, transport), {
      onElicitation: () => ({ action: "accept", content }),
    });
  },
);

Given(
  "an adapter to server-everything over stdio whose model answers {string}",
  async function (this: AdapterWorld, text: string) {
    await connect(this, await everythingConfig(this, "stdio"), {
      onSampling: () => ({
        role: "assistant",
        content: { type: "text", text },
        model: "host-model",
        stopReason: "endTurn",
      }),
    });
  },
);

Given(
  "an adapter to an in-process server with a {int} MB document, allowing results of {int} MB",
  async function (this: AdapterWorld, size: number, limit: number) {
    await inMemory(
      this,
      { resources: [{ uri: "test://huge", name: "huge", text: "x".repeat(size * 1024 * 1024) }] },
      { maxResultBytes: limit * 1024 * 1024 },
    );
  },
);

Given(
  "an adapter to an in-process server that logs, forwarding at most {int} log messages a second",
  async function (this: AdapterWorld, max: number) {
    // A clock that never moves: the whole flood falls in one second.
    await inMemory(this, { logging: true, tools: [{ name: "ping" }] }, { maxLogMessagesPerSecond: max, now: () => 0 });
  },
);

Given(
  /^an adapter to an in-process server whose user answers forms with (\{.*\})$/,
  async function (this: AdapterWorld, json: string) {
    const content = JSON.parse(json) as Record<string, string | number | boolean>;
    await inMemory(this, {}, { onElicitation: () => ({ action: "accept", content }) });
  },
);

Given("an adapter to an in-process server with no client handlers", async function (this: AdapterWorld) {
  await inMemory(this, {}, {});
});

Given(
  "an adapter to server-filesystem over stdio with two temporary folders as roots",
  async function (this: AdapterWorld) {
    const folders = await Promise.all([
      createTempDirectory("roots-start-"),
      createTempDirectory("roots-a-"),
      createTempDirectory("roots-b-"),
    ]);
    for (const folder of folders) this.onCleanup(() => folder.remove());
    const [started, a, b] = folders;
    const s = state(this);
    s.roots = [await realpath(a.path), await realpath(b.path)];
    await connect(
      this,
      { name: "files", transport: "stdio", ...filesystemStdioServer([started.path]) },
      { roots: s.roots.map((path) => ({ uri: pathToFileURL(path).href })) },
    );
  },
);

// ---------------------------------------------------------------- resources

When("I list the server's resources", async function (this: AdapterWorld) {
  const s = state(this);
  s.resources = await this.requireAdapter().listResources();
  s.templates = await this.requireAdapter().listResourceTemplates();
});

Then("the server should offer static documents", function (this: AdapterWorld) {
  const resources = state(this).resources ?? [];
  assert.ok(
    resources.some((resource) => resource.uri.startsWith("demo://resource/static/document/")),
    `Resources: ${resources.map((r) => r.uri).join(", ")}`,
  );
});

Then("the resource templates should include {string}", function (this: AdapterWorld, template: string) {
  assert.ok((state(this).templates ?? []).some((t) => t.uriTemplate === template));
});

When("I read the resource {string}", async function (this: AdapterWorld, uri: string) {
  state(this).read = await this.requireAdapter().readResource(uri);
});

function readItem(world: AdapterWorld): { text?: string; blob?: string } {
  const read = state(world).read;
  assert.ok(read?.success === true, `The read failed: ${read?.error ?? "no read yet"}`);
  return read.data.contents[0] as { text?: string; blob?: string };
}

Then("the resource text should start with {string}", function (this: AdapterWorld, prefix: string) {
  assert.ok(readItem(this).text?.startsWith(prefix), `Text: ${String(readItem(this).text)}`);
});

Then("the resource blob should decode to text starting with {string}", function (this: AdapterWorld, prefix: string) {
  const decoded = Buffer.from(readItem(this).blob ?? "", "base64").toString();
  assert.ok(decoded.startsWith(prefix), `Decoded: ${decoded}`);
});

Then("the read should fail with error kind {string}", function (this: AdapterWorld, kind: string) {
  const read = state(this).read;
  assert.ok(read !== undefined && !read.success, "The read did not fail");
  assert.equal(read.errorKind, kind, read.error);
});

When("I follow the resource {string}", async function (this: AdapterWorld, uri: string) {
  const s = state(this);
  const result = await this.requireAdapter().subscribeResource(uri, (event) => s.updates.push(event.uri));
  assert.ok(result.success, result.error ?? "");
  s.subscription = result.data;
});

Then("I should hear that {string} changed", async function (this: AdapterWorld, uri: string) {
  await waitFor(() => state(this).updates.includes(uri), 15_000, `an update for ${uri}`);
});

When("I stop following the resource", async function (this: AdapterWorld) {
  const result = await state(this).subscription?.unsubscribe();
  assert.equal(result?.success, true, result?.error ?? "no subscription");
});

// ---------------------------------------------------------------- prompts and completions

When("I list the server's prompts", async function (this: AdapterWorld) {
  state(this).prompts = await this.requireAdapter().listPrompts();
});

Then(
  "prompt {string} should need the argument {string}",
  function (this: AdapterWorld, name: string, argument: string) {
    const prompt = (state(this).prompts ?? []).find((p) => p.name === name);
    assert.ok(
      prompt?.arguments?.some((a) => a.name === argument && a.required === true),
      `Prompt: ${JSON.stringify(prompt)}`,
    );
  },
);

When(
  /^I get the prompt "([^"]*)" with arguments (\{.*\})$/,
  async function (this: AdapterWorld, name: string, json: string) {
    state(this).prompt = await this.requireAdapter().getPrompt(name, JSON.parse(json) as Record<string, string>);
  },
);

Then("the prompt's first message should be {string}", function (this: AdapterWorld, text: string) {
  const prompt = state(this).prompt;
  assert.ok(prompt?.success === true, prompt?.error ?? "no prompt yet");
  assert.deepEqual(prompt.data.messages[0]?.content, { type: "text", text });
});

Then(
  "the prompt request should fail with error kind {string} mentioning {string}",
  function (this: AdapterWorld, kind: string, text: string) {
    const prompt = state(this).prompt;
    assert.ok(prompt !== undefined && !prompt.success, "The prompt request did not fail");
    assert.equal(prompt.errorKind, kind);
    assert.ok(prompt.error.includes(text), prompt.error);
  },
);

When(
  "I ask for suggestions for {string} of prompt {string} starting with {string}",
  async function (this: AdapterWorld, argument: string, prompt: string, value: string) {
    state(this).completion = await this.requireAdapter().complete(
      { type: "ref/prompt", name: prompt },
      { name: argument, value },
    );
  },
);

When(
  "I ask for suggestions for {string} of prompt {string} starting with {string} after choosing department {string}",
  async function (this: AdapterWorld, argument: string, prompt: string, value: string, department: string) {
    state(this).completion = await this.requireAdapter().complete(
      { type: "ref/prompt", name: prompt },
      { name: argument, value },
      { context: { department } },
    );
  },
);

Then("the suggestions should be {string}", function (this: AdapterWorld, list: string) {
  const completion = state(this).completion;
  assert.ok(completion?.success === true, completion?.error ?? "no completion yet");
  assert.equal(completion.data.values.join(", "), list);
});

// ---------------------------------------------------------------- logs

Then("a log message from server {string} should reach my logger", async function (this: AdapterWorld, server: string) {
  const s = state(this);
  await waitFor(() => s.logs.some((entry) => entry.serverName === server), 15_000, `a log message from ${server}`);
  await waitFor(
    () => s.loggerLines.some((line) => line.startsWith(`MCP server "${server}" `)),
    5_000,
    "the logger line",
  );
});

When("the server sends {int} log messages at once", async function (this: AdapterWorld, count: number) {
  const server = state(this).server;
  assert.ok(server !== undefined, "No in-process server");
  await server.floodLogs(count);
});

Then("at most {int} of them should reach my log listener", function (this: AdapterWorld, max: number) {
  const received = state(this).logs.length;
  assert.ok(received > 0 && received <= max, `Received ${received}`);
});

Then("a tool call should still succeed", async function (this: AdapterWorld) {
  const result = await this.requireAdapter().invoke("ping", {});
  assert.equal(result.success, true, String(result.error));
});

// ---------------------------------------------------------------- client features (in-process)

When("the server asks for a form with a required number {string}", async function (this: AdapterWorld, field: string) {
  const s = state(this);
  assert.ok(s.server !== undefined, "No in-process server");
  s.serverError = await s.server
    .requestFromClient("elicitation/create", {
      mode: "form",
      message: "Details?",
      requestedSchema: { type: "object", properties: { [field]: { type: "number" } }, required: [field] },
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
});

Then("the server should get an error mentioning {string}", function (this: AdapterWorld, text: string) {
  assert.ok(String(state(this).serverError).includes(text), String(state(this).serverError));
});

Then("the server should get the error code {int}", function (this: AdapterWorld, code: number) {
  assert.equal((state(this).serverError as { code?: number } | undefined)?.code, code);
});

Then("the server should see no elicitation or sampling capability", function (this: AdapterWorld) {
  const capabilities = state(this).server?.clientCapabilities ?? {};
  assert.equal(capabilities.elicitation, undefined);
  assert.equal(capabilities.sampling, undefined);
});

// ---------------------------------------------------------------- roots

function allowedDirectories(text: string): string[] {
  return text
    .split("\n")
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .sort();
}

When("I change the roots to just the second folder", async function (this: AdapterWorld) {
  await this.requireAdapter().setRoots([{ uri: pathToFileURL(state(this).roots[1]!).href }]);
});

/** Asks server-filesystem until it allows exactly `expected` (it asks for our roots after initialising). */
async function expectAllowed(world: AdapterWorld, expected: string[]): Promise<void> {
  const adapter = world.requireAdapter();
  const want = [...expected].sort();
  let last: string[] = [];
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const result = await adapter.invoke("list_allowed_directories", {});
    last = allowedDirectories(
      (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n"),
    );
    if (JSON.stringify(last) === JSON.stringify(want)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`The server allows ${last.join(", ")}, not ${want.join(", ")}`);
}

Then("the server should soon allow exactly my two folders", async function (this: AdapterWorld) {
  await expectAllowed(this, state(this).roots);
});

Then("the server should soon allow only the second folder", async function (this: AdapterWorld) {
  await expectAllowed(this, [state(this).roots[1]!]);
});
