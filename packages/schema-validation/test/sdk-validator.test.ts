import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createInMemoryTestServer, type InMemoryTestServer, type TestTool } from "@mcp-tool-adapter/test-servers";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { createSchemaValidator, createSdkJsonSchemaValidator, type SdkJsonSchemaValidator } from "../src/index.js";

// 2020-12 keywords the SDK's default (draft-07) validator does not know, so it lets violations through.
const POINT_OUTPUT = {
  type: "object",
  properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] } },
  dependentRequired: { label: ["color"] },
};

const servers: InMemoryTestServer[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const BROKEN_TOOL: TestTool = {
  name: "broken",
  outputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } as never,
  handler: () => ({ content: [], structuredContent: { a: 1 } }),
};

async function connectClient(
  structuredContent: Record<string, unknown>,
  options: ConstructorParameters<typeof Client>[1] = {},
  extraTools: TestTool[] = [],
) {
  const server = createInMemoryTestServer({
    tools: [
      {
        name: "locate",
        outputSchema: POINT_OUTPUT as never,
        handler: () => ({ content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent }),
      },
      ...extraTools,
    ],
  });
  servers.push(server);
  const client = new Client({ name: "schema-validation-test", version: "1.0.0" }, options);
  clients.push(client);
  await client.connect(await server.connect());
  await client.listTools();
  return client;
}

describe("createSdkJsonSchemaValidator with a real SDK Client", () => {
  it("makes the SDK reject structured content that breaks 2020-12 keywords", async () => {
    const client = await connectClient(
      { point: ["north", 2], label: "home" },
      { jsonSchemaValidator: createSdkJsonSchemaValidator() },
    );
    const call = client.callTool({ name: "locate", arguments: {} });
    await expect(call).rejects.toThrow(/does not match the tool's output schema/);
    await expect(call).rejects.toThrow("/point/0 must be number");
    await expect(call).rejects.toThrow("must have property color when property label is present");
  });

  it("lets conforming structured content through", async () => {
    const client = await connectClient(
      { point: [1, 2], label: "home", color: "red" },
      { jsonSchemaValidator: createSdkJsonSchemaValidator() },
    );
    const result = await client.callTool({ name: "locate", arguments: {} });
    expect(result.structuredContent).toEqual({ point: [1, 2], label: "home", color: "red" });
  });

  it("is needed: the SDK's default validator accepts the same violating content", async () => {
    const client = await connectClient({ point: ["north", 2], label: "home" });
    const result = await client.callTool({ name: "locate", arguments: {} });
    expect(result.structuredContent).toEqual({ point: ["north", 2], label: "home" });
  });

  it("rejects results of a tool whose output schema cannot be compiled, without breaking listTools", async () => {
    const client = await connectClient({ point: [1, 2] }, { jsonSchemaValidator: createSdkJsonSchemaValidator() }, [
      BROKEN_TOOL,
    ]);
    await expect(client.callTool({ name: "broken", arguments: {} })).rejects.toThrow(
      /output schema cannot be used: JSON Schema \$ref "#\/\$defs\/missing"/,
    );
    await expect(client.callTool({ name: "locate", arguments: {} })).resolves.toMatchObject({
      structuredContent: { point: [1, 2] },
    });
  });
});

describe("createSdkJsonSchemaValidator", () => {
  it("describes the SDK's jsonSchemaValidator in its own types, assignable both ways", () => {
    expectTypeOf<SdkJsonSchemaValidator>().toExtend<jsonSchemaValidator>();
    expectTypeOf<jsonSchemaValidator>().toExtend<SdkJsonSchemaValidator>();
    expectTypeOf(createSdkJsonSchemaValidator()).toExtend<jsonSchemaValidator>();
  });

  it("shares the given validator's cache", () => {
    const validator = createSchemaValidator();
    const sdkValidator = createSdkJsonSchemaValidator(validator);
    const check = sdkValidator.getValidator<{ n: number }>({ type: "object", properties: { n: { type: "number" } } });
    sdkValidator.getValidator({ properties: { n: { type: "number" } }, type: "object" });
    expect(validator.cacheSize).toBe(1);
    expect(check({ n: 1 })).toEqual({ valid: true, data: { n: 1 }, errorMessage: undefined });
    expect(check({ n: "1" })).toEqual({ valid: false, data: undefined, errorMessage: "/n must be number" });
  });

  it("reports any error a custom validator throws while compiling", () => {
    const sdkValidator = createSdkJsonSchemaValidator({
      compile: () => {
        throw new Error("custom failure");
      },
      validate: () => ({ valid: true, errors: [] }),
      cacheSize: 0,
    });
    expect(sdkValidator.getValidator({})(1)).toEqual({
      valid: false,
      data: undefined,
      errorMessage: "the output schema cannot be used: custom failure",
    });
  });
});
