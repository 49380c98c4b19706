import { describe, expect, it } from "vitest";
import { toModelContent, toModelText, type ModelContentPart } from "../src/index.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("toModelText", () => {
  it("joins the text of an MCP result's content blocks", () => {
    const text = toModelText({
      success: true,
      data: {
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
    });
    expect(text).toBe("first\nsecond");
  });

  it("shows images, audio, resource links and embedded resources as text", () => {
    const text = toModelText({
      success: true,
      data: {
        content: [
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          {
            type: "resource_link",
            uri: "file:///tmp/a.txt",
            name: "a.txt",
            mimeType: "text/plain",
            description: "the notes",
          },
          { type: "resource", resource: { uri: "test://doc", mimeType: "text/markdown", text: "# Title" } },
          { type: "resource", resource: { uri: "test://bin", mimeType: "application/pdf", blob: "AAAAAAAA" } },
        ],
      },
    });
    expect(text).toContain("[image: image/png, 70 B, not shown as text]");
    expect(text).toContain("[audio: audio/wav, 3 B, not shown as text]");
    expect(text).toContain("[resource link: a.txt <file:///tmp/a.txt> (text/plain): the notes]");
    expect(text).toContain("[resource: <test://doc> (text/markdown)]\n# Title");
    expect(text).toContain("[resource: <test://bin> (application/pdf), 6 B of binary data not shown]");
  });

  it("adds structuredContent as JSON unless the text already carries it (as JSON, or every value of it)", () => {
    const structured = { total: 42, items: ["a"] };
    const withOnlyStructured = toModelText({ success: true, data: { content: [], structuredContent: structured } });
    expect(JSON.parse(withOnlyStructured)).toEqual(structured);
    const alreadyThere = toModelText({
      success: true,
      data: { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured },
    });
    expect(alreadyThere).toBe(JSON.stringify(structured));
    const readable = toModelText({
      success: true,
      data: { content: [{ type: "text", text: "42 items: a" }], structuredContent: structured },
    });
    expect(readable).toBe("42 items: a");
    const summaryOnly = toModelText({
      success: true,
      data: { content: [{ type: "text", text: "42 things" }], structuredContent: structured },
    });
    expect(summaryOnly.split("\n")[0]).toBe("42 things");
    expect(summaryOnly).toContain('"total": 42');
  });

  it("renders results of non-MCP tools: strings as they are, other values as JSON, nothing as a note", () => {
    expect(toModelText({ success: true, data: "plain" })).toBe("plain");
    expect(toModelText({ success: true, data: 3 })).toBe("3");
    expect(JSON.parse(toModelText({ success: true, data: { a: [1, 2] } }))).toEqual({ a: [1, 2] });
    expect(toModelText({ success: true })).toBe("(the tool returned no content)");
    expect(toModelText({ success: true, data: { content: [] } })).toBe("(the tool returned no content)");
  });

  it("never throws on values JSON cannot show", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(toModelText({ success: true, data: circular })).toBe("[a object value that cannot be shown as JSON]");
    expect(toModelText({ success: true, data: 10n })).toBe("[a bigint value that cannot be shown as JSON]");
    expect(toModelText({ success: true, data: { content: [null, 7, { type: "text" }] } })).toBe("null\n7");
  });

  it("cuts text past the budget with a visible marker", () => {
    const text = toModelText(
      {
        success: true,
        data: {
          content: [
            { type: "text", text: "a".repeat(30) },
            { type: "text", text: "b".repeat(30) },
          ],
        },
      },
      { maxChars: 40 },
    );
    expect(text).toBe(
      `${"a".repeat(30)}\n${"b".repeat(10)}\n[truncated: showing 40 of 60 characters. Ask the tool for less (a narrower query, a smaller range) to see the rest.]`,
    );
  });

  it("does not split a surrogate pair when cutting", () => {
    const text = toModelText({ success: true, data: "ab😀cd" }, { maxChars: 3 });
    expect(text.startsWith("ab\n[truncated: showing 2 of 6 characters")).toBe(true);
  });

  describe("failures", () => {
    it.each([
      ["validation", /Fix the arguments/],
      ["not_found", /pick another tool/],
      ["timeout", /Try again later/],
      ["server_error", /fix them and call again; otherwise try again later/],
      ["connection_lost", /Try again later/],
      ["result_too_large", /asking for less/],
      ["cancelled", /Do not retry/],
      ["handler_error", /Try again later/],
      ["something_new", /Try again later, or continue without this tool/],
    ])("names errorKind %s and what the model can do next", (errorKind, nextStep) => {
      const text = toModelText({ success: false, errorKind, error: "what went wrong" });
      expect(text.startsWith(`Error (errorKind: ${errorKind}): what went wrong\nNext step: `)).toBe(true);
      expect(text).toMatch(nextStep);
    });

    it("says so when a failure has no message or kind", () => {
      expect(toModelText({ success: false })).toBe(
        "Error (errorKind: unknown): the tool call failed without a message\nNext step: Try again later, or continue without this tool.",
      );
    });

    it("truncates a huge error message too", () => {
      const text = toModelText({ success: false, errorKind: "server_error", error: "x".repeat(50_000) });
      expect(text.length).toBeLessThan(20_200);
      expect(text).toMatch(/\[truncated: showing 20,000 of 50,\d{3} characters/);
    });
  });
});

describe("toModelContent", () => {
  it("keeps images and audio as parts, text as text", () => {
    const content = toModelContent({
      success: true,
      data: {
        content: [
          { type: "text", text: "see" },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        ],
      },
    });
    expect(content).toEqual({
      isError: false,
      truncated: false,
      parts: [
        { type: "text", text: "see" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ] satisfies ModelContentPart[],
    });
  });

  it("replaces media over the byte limit with a note", () => {
    const content = toModelContent(
      { success: true, data: { content: [{ type: "image", data: PNG, mimeType: "image/png" }] } },
      { maxMediaBytes: 10 },
    );
    expect(content.parts).toEqual([
      { type: "text", text: "[image: image/png, 70 B, more than the 10 B limit, left out]" },
    ]);
  });

  it("reports failures and truncation", () => {
    expect(toModelContent({ success: false, errorKind: "timeout", error: "late" })).toMatchObject({
      isError: true,
      truncated: false,
    });
    const cut = toModelContent({ success: true, data: "x".repeat(100) }, { maxChars: 10 });
    expect(cut.truncated).toBe(true);
    expect(cut.parts).toHaveLength(2);
  });
});
