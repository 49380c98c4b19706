import { describe, expect, it } from "vitest";
import { MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE_ERROR_CODE } from "../src/index.js";

describe("shared codes", () => {
  it("keep their published values (transports and clients of other versions compare them)", () => {
    expect(MESSAGE_TOO_LARGE).toBe("MESSAGE_TOO_LARGE");
    // JSON-RPC reserves -32000..-32099 for implementation-defined server errors.
    expect(MESSAGE_TOO_LARGE_ERROR_CODE).toBe(-32050);
  });
});
