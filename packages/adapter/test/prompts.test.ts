import { describe, expect, it } from "vitest";
import { MCPNotConnectedError, type PromptsChangedEvent } from "../src/index.js";
import { connectedHarness, createHarness, waitFor } from "./helpers.js";

const PROMPTS = [
  { name: "greet", description: "Says hello", arguments: [{ name: "who", required: true }, { name: "tone" }] },
  { name: "plain" },
];

describe("prompts", () => {
  it("lists every prompt over all pages with its declared arguments", async () => {
    const { adapter } = await connectedHarness({ prompts: [...PROMPTS, { name: "third" }], pageSize: 2 });
    const prompts = await adapter.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["greet", "plain", "third"]);
    expect(prompts[0]!.arguments).toEqual([{ name: "who", required: true }, { name: "tone" }]);
  });

  it("gets a prompt with its arguments", async () => {
    const { adapter } = await connectedHarness({ prompts: PROMPTS });
    const result = await adapter.getPrompt("greet", { who: "Ada", tone: "warm" });
    expect(result).toMatchObject({ success: true, error: null });
    expect(result.data?.messages[0]).toEqual({
      role: "user",
      content: { type: "text", text: 'greet {"who":"Ada","tone":"warm"}' },
    });
    expect((await adapter.getPrompt("plain")).success).toBe(true);
  });

  it("checks the arguments against the declared ones before sending anything", async () => {
    const { adapter, server } = await connectedHarness({ prompts: PROMPTS });
    const missing = await adapter.getPrompt("greet", { tone: "dry" });
    expect(missing).toMatchObject({ success: false, errorKind: "validation" });
    expect(missing.error).toContain('required argument "who" is missing');
    const unknown = await adapter.getPrompt("greet", { who: "Ada", mood: "x" });
    expect(unknown.error).toContain('"mood" is not an argument of this prompt (it takes "who", "tone")');
    const notString = await adapter.getPrompt("greet", { who: 42 } as never);
    expect(notString.error).toContain('"who" must be a string');
    const none = await adapter.getPrompt("plain", { extra: "x" });
    expect(none.error).toContain("(it takes none)");
    expect(server.promptGetCount).toBe(0);
  });

  it("says not_found for a prompt the server does not list", async () => {
    const { adapter, server } = await connectedHarness({ prompts: PROMPTS });
    const result = await adapter.getPrompt("nope");
    expect(result).toMatchObject({ success: false, errorKind: "not_found" });
    expect(result.error).toContain("listPrompts()");
    expect(server.promptGetCount).toBe(0);
  });

  it("says not_supported on a server without prompts, and lists none", async () => {
    const { adapter } = await connectedHarness({});
    expect(await adapter.listPrompts()).toEqual([]);
    expect(await adapter.getPrompt("greet", { who: "x" })).toMatchObject({
      success: false,
      errorKind: "not_supported",
    });
  });

  it("validates against the new list after prompts/list_changed and tells the listeners", async () => {
    const events: PromptsChangedEvent[] = [];
    const { adapter, server } = await connectedHarness({ prompts: PROMPTS });
    adapter.onPromptsChanged((event) => events.push(event));
    expect((await adapter.getPrompt("greet", { who: "a" })).success).toBe(true);
    await server.setPrompts([{ name: "greet", arguments: [{ name: "name", required: true }] }]);
    await waitFor(() => events.length === 1);
    expect(events[0]!.prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await adapter.getPrompt("greet", { who: "a" })).errorKind).toBe("validation");
    expect((await adapter.getPrompt("greet", { name: "a" })).success).toBe(true);
  });

  it("throws MCPNotConnectedError when not connected", async () => {
    const { adapter } = createHarness({ prompts: PROMPTS });
    await expect(adapter.listPrompts()).rejects.toThrow(MCPNotConnectedError);
    expect(() => adapter.getPrompt("greet")).toThrow(MCPNotConnectedError);
  });
});

describe("complete", () => {
  const complete = ({
    ref,
    argument,
    context,
  }: {
    ref: unknown;
    argument: { name: string; value: string };
    context?: unknown;
  }) => [`${JSON.stringify(ref)}:${argument.name}=${argument.value}`, JSON.stringify(context ?? null)];

  it("completes prompt arguments and resource-template variables, passing the context", async () => {
    const { adapter } = await connectedHarness({ prompts: PROMPTS, complete });
    const prompt = await adapter.complete(
      { type: "ref/prompt", name: "greet" },
      { name: "who", value: "A" },
      { context: { tone: "warm" } },
    );
    expect(prompt).toMatchObject({
      success: true,
      data: { values: ['{"type":"ref/prompt","name":"greet"}:who=A', '{"arguments":{"tone":"warm"}}'], hasMore: false },
    });
    const template = await adapter.complete({ type: "ref/resource", uri: "test://t/{id}" }, { name: "id", value: "1" });
    expect(template.data?.values[0]).toBe('{"type":"ref/resource","uri":"test://t/{id}"}:id=1');
  });

  it("classifies a malformed reference and a server without completions", async () => {
    const { adapter } = await connectedHarness({ prompts: PROMPTS, complete });
    expect(await adapter.complete({ type: "ref/tool", name: "x" } as never, { name: "a", value: "" })).toMatchObject({
      success: false,
      errorKind: "validation",
    });
    expect(await adapter.complete({ type: "ref/prompt", name: "greet" }, { name: "a" } as never)).toMatchObject({
      success: false,
      errorKind: "validation",
    });
    const plain = await connectedHarness({ prompts: PROMPTS });
    expect(
      await plain.adapter.complete({ type: "ref/prompt", name: "greet" }, { name: "who", value: "" }),
    ).toMatchObject({ success: false, errorKind: "not_supported" });
  });
});
