import { createInMemoryTestServer, type InMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import {
  MCPConfigError,
  MCPToolAdapter,
  StdioTransportError,
  type MCPToolErrorKind,
  type MCPToolResult,
} from "../../src/index.js";
import { trackAdapter, useReliabilityChecks, watchServerGroups } from "./support.js";

useReliabilityChecks();

// Fixed seeds keep failures reproducible; FC_SEED overrides for exploratory runs.
const seed = process.env.FC_SEED === undefined ? 20_240_611 : Number(process.env.FC_SEED);

const ERROR_KINDS: readonly MCPToolErrorKind[] = [
  "not_found",
  "validation",
  "timeout",
  "cancelled",
  "server_error",
  "connection_lost",
  "result_too_large",
];

const anythingAtAll = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** Values of the wrong type for a string field (or an empty string, below minLength 1). */
const notANonEmptyString = fc.oneof(
  fc.constant(""),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);
const notAStringArray = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.boolean()), { minLength: 1, maxLength: 3 }),
);
const notAStringMap = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ minLength: 1 }), fc.oneof(fc.integer(), fc.constant(null), fc.boolean()), {
    minKeys: 1,
    maxKeys: 3,
  }),
);

const validStdio = { name: "fuzzed", transport: "stdio", command: "node", args: ["x"], env: { A: "b" }, cwd: "/tmp" };
const validHttp = { name: "fuzzed", transport: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: { A: "b" } };

/** A valid config with one field broken, and the name of that field. */
const oneBrokenField = fc.oneof(
  fc.record({
    base: fc.constant(validStdio),
    field: fc.constantFrom("name", "command", "cwd"),
    value: notANonEmptyString,
  }),
  fc.record({ base: fc.constant(validStdio), field: fc.constant("args"), value: notAStringArray }),
  fc.record({ base: fc.constant(validStdio), field: fc.constant("env"), value: notAStringMap }),
  fc.record({ base: fc.constant(validHttp), field: fc.constantFrom("name", "url"), value: notANonEmptyString }),
  fc.record({ base: fc.constant(validHttp), field: fc.constant("headers"), value: notAStringMap }),
  fc.record({
    base: fc.constantFrom(validStdio, validHttp),
    field: fc.constant("transport"),
    value: fc.oneof(notANonEmptyString, fc.constantFrom("STDIO", "http", "ws", " stdio")),
  }),
);

function configErrorOf(run: () => unknown): unknown {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("fuzz: server configs", () => {
  it("any value at all is accepted or rejected with MCPConfigError, never a TypeError", () => {
    fc.assert(
      fc.property(anythingAtAll, (value) => {
        const error = configErrorOf(() => new MCPToolAdapter(value as never));
        if (error !== undefined) {
          expect(MCPConfigError.isInstance(error), inspect(error)).toBe(true);
          expect((error as MCPConfigError).issues.length).toBeGreaterThan(0);
        }
      }),
      { seed, numRuns: 1000 },
    );
  });

  it("a config with one broken field is rejected naming that field", () => {
    fc.assert(
      fc.property(oneBrokenField, ({ base, field, value }) => {
        const error = configErrorOf(() => new MCPToolAdapter({ ...base, [field]: value } as never));
        expect(MCPConfigError.isInstance(error), `${field}=${JSON.stringify(value)} was accepted`).toBe(true);
        const { issues, message } = error as MCPConfigError;
        expect(issues.some((issue) => issue.path === `/${field}` || issue.path.startsWith(`/${field}/`))).toBe(true);
        expect(message).toContain(field);
      }),
      { seed, numRuns: 500 },
    );
  });
});

/** JSON Schemas built from the keywords MCP servers use, nested, with local $refs now and then. */
const jsonSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<Record<string, unknown>>(
      { type: "string" },
      { type: "number" },
      { type: "integer", minimum: 0 },
      { type: "boolean" },
      { type: "null" },
      {},
      { type: "string", maxLength: 3 },
      { type: "string", pattern: "^[a-z]+$" },
      { type: "string", format: "email" },
      { type: "string", format: "date-time" },
      { enum: [1, "a", null] },
      { const: "fixed" },
      { not: {} },
      { type: ["string", "null"] },
    ),
    fc.record({ type: fc.constant("array"), items: tie("schema"), maxItems: fc.nat(3) }),
    fc
      .dictionary(fc.constantFrom("a", "b", "c", "__proto__", "constructor"), tie("schema"), { maxKeys: 3 })
      .chain((properties) =>
        fc.record({
          type: fc.constant("object"),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
          additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
        }),
      ),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    tie("schema").map((inner) => ({ $defs: { d: inner }, $ref: "#/$defs/d" })),
  ),
})).schema;

/** A tool input schema: mostly well-formed objects, sometimes garbage JSON. */
const inputSchema = fc.oneof(
  {
    weight: 4,
    arbitrary: jsonSchema.map((schema) => ({ type: "object", properties: { x: schema }, required: ["x"] })),
  },
  { weight: 2, arbitrary: jsonSchema.filter((schema) => schema.type === "object") },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
      .map((junk) => ({ ...junk, type: "object" })),
  },
);

/** Arguments of every kind, including ones JSON cannot carry (BigInt, cycles) and non-objects. */
const toolArguments = fc.oneof(
  { weight: 4, arbitrary: fc.record({ x: fc.jsonValue({ maxDepth: 3 }) }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: anythingAtAll },
  {
    weight: 1,
    arbitrary: fc.constant(null).map(() => {
      const cyclic: Record<string, unknown> = { x: 1 };
      cyclic.self = cyclic;
      return cyclic;
    }),
  },
);

function expectVerdict(result: MCPToolResult): void {
  expect(typeof result.success).toBe("boolean");
  expect(typeof result.durationMs).toBe("number");
  if (result.success) {
    expect(result.error).toBeNull();
  } else {
    expect(typeof result.error).toBe("string");
    expect(ERROR_KINDS).toContain(result.errorKind);
  }
}

describe("fuzz: arguments against tool schemas", () => {
  it("the schema validator gives a verdict for any schema and value, never a throw", () => {
    const validator = createSchemaValidator();
    fc.assert(
      fc.property(
        fc.oneof(jsonSchema, fc.jsonValue({ maxDepth: 3 }), anythingAtAll),
        toolArguments,
        (schema, value) => {
          const verdict = validator.validate(schema, value);
          expect(typeof verdict.valid).toBe("boolean");
          expect(Array.isArray(verdict.errors)).toBe(true);
        },
      ),
      { seed, numRuns: 1000 },
    );
  });

  it("invoke through the adapter gives a verdict for any arguments against any schema, never a throw", async () => {
    const verdicts = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(inputSchema, toolArguments), { minLength: 1, maxLength: 4 }),
        async (cases) => {
          const server: InMemoryTestServer = createInMemoryTestServer({
            tools: cases.map(([schema], i) => ({ name: `tool_${i}`, inputSchema: schema as { type: "object" } })),
          });
          const adapter = trackAdapter(
            new MCPToolAdapter(
              { name: "fuzz", transport: "stdio", command: "unused" },
              { transport: () => server.connect() },
            ),
          );
          try {
            await adapter.connect();
            for (const [i, [, args]] of cases.entries()) {
              const result = await adapter.invoke(`tool_${i}`, args as Record<string, unknown>, { timeoutMs: 10_000 });
              expectVerdict(result);
              const verdict = result.errorKind ?? "success";
              verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
            }
          } finally {
            await adapter.disconnect();
            await server.close();
          }
        },
      ),
      { seed, numRuns: 150 },
    );
    // The generators reach both sides of the validator, not just one.
    expect(verdicts.get("success") ?? 0).toBeGreaterThan(0);
    expect(verdicts.get("validation") ?? 0).toBeGreaterThan(0);
  });
});

/**
 * A real child process that writes whatever bytes it is sent (base64 in a `fuzz` notification)
 * to its stdout, then a newline and a `sentinel` notification: the transport's reader gets
 * arbitrary bytes, and the sentinel shows it found its footing again.
 */
const BYTE_ECHO_SCRIPT = `
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const { params } = JSON.parse(line);
  process.stdout.write(Buffer.from(params.b64, "base64"));
  process.stdout.write("\\n" + JSON.stringify({ jsonrpc: "2.0", method: "sentinel", params: { n: params.n } }) + "\\n");
});
`;

const fuzzBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }),
  fc.string({ unit: "binary", maxLength: 512 }).map((s) => Buffer.from(s, "utf8")),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v), "utf8")),
  fc
    .record(
      {
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
        method: fc.string({ maxLength: 12 }),
        result: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((m) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...m }), "utf8")),
  fc
    .array(
      fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        "\n",
        "\r",
        "\r\n",
        '{"jsonrpc":"2.0"',
        ",",
        ":",
        "\u0000",
        "\u00ff",
        "\ud800",
      ),
      { maxLength: 64 },
    )
    .map((parts) => Buffer.from(parts.join(""), "utf8")),
  fc.nat(20_000).map((n) => Buffer.alloc(n, 0x61)),
);

describe("fuzz: byte streams into the stdio transport", () => {
  for (const maxMessageBytes of [undefined, 256]) {
    it(`arbitrary stdout bytes are reported as errors, never a crash (maxMessageBytes ${maxMessageBytes ?? "default"})`, async () => {
      const transport = createStdioTransport(
        { command: process.execPath, args: ["-e", BYTE_ECHO_SCRIPT] },
        maxMessageBytes === undefined ? {} : { maxMessageBytes },
      );
      const errors: unknown[] = [];
      const messages: JSONRPCMessage[] = [];
      const sentinels = new Map<number, () => void>();
      transport.onerror = (error) => errors.push(error);
      transport.onmessage = (message) => {
        messages.push(message);
        if ("method" in message && message.method === "sentinel")
          sentinels.get((message.params as { n: number }).n)?.();
      };
      await transport.start();
      watchServerGroups();
      let n = 0;
      try {
        await fc.assert(
          fc.asyncProperty(fuzzBytes, async (bytes) => {
            n += 1;
            const arrived = new Promise<void>((resolve, reject) => {
              const timer = setTimeout(
                () => reject(new Error(`sentinel ${n} never arrived after ${bytes.length} fuzz bytes`)),
                10_000,
              );
              sentinels.set(n, () => {
                clearTimeout(timer);
                resolve();
              });
            });
            await transport.send({
              jsonrpc: "2.0",
              method: "fuzz",
              params: { b64: Buffer.from(bytes).toString("base64"), n },
            });
            await arrived;
          }),
          { seed, numRuns: 300 },
        );
      } finally {
        await transport.close();
      }
      expect(transport.exit).toBeDefined();
      for (const error of errors) expect(StdioTransportError.isInstance(error), String(error)).toBe(true);
      for (const message of messages) expect((message as { jsonrpc?: unknown }).jsonrpc).toBe("2.0");
      // The fuzz did reach the reader: garbage was reported, not silently accepted.
      expect(errors.length).toBeGreaterThan(0);
    });
  }
});
