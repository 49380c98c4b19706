import { describe, expect, it } from "vitest";
import { isToleratedWarning, type ConformanceCheck } from "../src/index.js";

const timing = (
  details: Record<string, unknown>,
  status: ConformanceCheck["status"] = "WARNING",
): ConformanceCheck => ({
  id: "client-sse-retry-timing",
  name: "ClientRespectsRetryField",
  status,
  details,
});

describe("which conformance warnings a loaded machine may cause", () => {
  it("tolerates a reconnect the suite calls slightly late", () => {
    expect(isToleratedWarning(timing({ slightlyLate: true, veryLate: false, tooEarly: false }))).toBe(true);
  });

  it("does not tolerate a very late or early reconnect, another warning, or a failure", () => {
    expect(isToleratedWarning(timing({ slightlyLate: true, veryLate: true }))).toBe(false);
    expect(isToleratedWarning(timing({ slightlyLate: false, tooEarly: true }))).toBe(false);
    expect(isToleratedWarning({ id: "x", name: "Other", status: "WARNING" })).toBe(false);
    expect(isToleratedWarning(timing({ slightlyLate: true }, "FAILURE"))).toBe(false);
  });
});
