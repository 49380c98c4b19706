import { describe, expect, it } from "vitest";
import { isStepUpAuthProvider, type StepUpAuthProvider } from "../src/index.js";

describe("isStepUpAuthProvider", () => {
  it("accepts a provider with both step-up methods, including ones on a class prototype", () => {
    class Provider implements StepUpAuthProvider {
      noteInsufficientScope(): Promise<void> {
        return Promise.resolve();
      }
      takeFreshLogin(): boolean {
        return false;
      }
    }
    expect(isStepUpAuthProvider(new Provider())).toBe(true);
  });

  it("refuses a provider with one method, methods that are not functions, and non-objects", () => {
    expect(isStepUpAuthProvider({ noteInsufficientScope: () => Promise.resolve() })).toBe(false);
    expect(isStepUpAuthProvider({ takeFreshLogin: () => true })).toBe(false);
    expect(isStepUpAuthProvider({ noteInsufficientScope: "yes", takeFreshLogin: () => true })).toBe(false);
    expect(isStepUpAuthProvider(undefined)).toBe(false);
    expect(isStepUpAuthProvider(null)).toBe(false);
    expect(isStepUpAuthProvider("provider")).toBe(false);
  });
});
