import { describe, expect, it } from "vitest";
import { needsApproval, type ApprovalPolicy, type ApprovalSubject } from "../src/index.js";

const reader: ApprovalSubject = { capabilities: { readOnly: true, writes: false } };
const writer: ApprovalSubject = { capabilities: { readOnly: false, writes: true, destructive: false } };
const deleter: ApprovalSubject = { capabilities: { readOnly: false, writes: true } };

describe("needsApproval (the one approval policy)", () => {
  it("decides on anything with capabilities, not only a ModelTool", async () => {
    expect(await needsApproval("writes", reader, {})).toBe(false);
    expect(await needsApproval("writes", writer, {})).toBe(true);
    expect(await needsApproval("destructive", writer, {})).toBe(false);
    expect(await needsApproval("destructive", deleter, {})).toBe(true);
    expect(await needsApproval("never", deleter, {})).toBe(false);
  });

  it("passes the subject and arguments to a policy function, and fails closed when it throws", async () => {
    const seen: unknown[] = [];
    const policy: ApprovalPolicy<ApprovalSubject & { name: string }> = (tool, args) => {
      seen.push([tool.name, args]);
      return args.force === true;
    };
    expect(await needsApproval(policy, { ...writer, name: "rm" }, { force: true })).toBe(true);
    expect(seen).toEqual([["rm", { force: true }]]);
    expect(await needsApproval(() => Promise.reject(new Error("down")), reader, {})).toBe(true);
  });
});
