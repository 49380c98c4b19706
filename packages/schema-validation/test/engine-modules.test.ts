import { describe, expect, it } from "vitest";
import * as eager from "../src/engine-modules-eager.js";
import * as onNode from "../src/engine-modules-node.js";

// Node loads ajv (every build), ajv-formats and RE2 on first use; other runtimes get them with the
// package. Both must hand out working engines.
describe.each([
  ["on Node (required on first use)", onNode],
  ["elsewhere (imported with the package)", eager],
])("the optional engines %s", (_where, modules) => {
  it("validate with ajv's 2019-09 and 2020-12 builds", () => {
    const Ajv2019 = modules.loadAjv2019();
    const Ajv2020 = modules.loadAjv2020();
    const schema = {
      type: "object",
      required: ["a"],
      unevaluatedProperties: false,
      properties: { a: { type: "number" } },
    };
    for (const validate of [new Ajv2019().compile(schema), new Ajv2020().compile(schema)]) {
      expect(validate({ a: 1 })).toBe(true);
      expect(validate({ a: 1, b: 2 })).toBe(false);
    }
  });

  it("validate draft-07 with ajv and its formats", () => {
    const ajv = new (modules.loadAjv())();
    modules.loadAjvFormats()(ajv);
    const validate = ajv.compile({ type: "string", format: "email" });
    expect(validate("someone@example.com")).toBe(true);
    expect(validate("not an address")).toBe(false);
  });

  it("match with RE2", () => {
    const RE2JS = modules.loadRe2();
    expect(RE2JS.compile("^(a+)+$").matches("aaaa")).toBe(true);
    expect(RE2JS.compile("^(a+)+$").matches("aaab")).toBe(false);
  });
});
