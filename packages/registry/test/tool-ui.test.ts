import { describe, expect, it } from "vitest";
import { isVisibleToModel, parseToolUiMeta, TOOL_UI_METADATA_KEY, toolUiOf } from "../src/index.js";

describe("parseToolUiMeta", () => {
  it("reads the resource URI and defaults the visibility to model and app", () => {
    expect(parseToolUiMeta({ ui: { resourceUri: "ui://get-time/app.html" } })).toEqual({
      resourceUri: "ui://get-time/app.html",
      visibility: ["model", "app"],
    });
  });

  it("keeps a declared visibility, without duplicates or unknown entries", () => {
    expect(parseToolUiMeta({ ui: { visibility: ["app", "app", "robot"] } })).toEqual({ visibility: ["app"] });
  });

  it("reads the extension's legacy flat key", () => {
    expect(parseToolUiMeta({ "ui/resourceUri": "ui://legacy/app.html" })?.resourceUri).toBe("ui://legacy/app.html");
  });

  it("has nothing for a tool without UI metadata, or with a resource outside ui://", () => {
    expect(parseToolUiMeta(undefined)).toBeUndefined();
    expect(parseToolUiMeta({ other: 1 })).toBeUndefined();
    expect(parseToolUiMeta({ ui: { resourceUri: "https://evil.example/app.html" } })).toBeUndefined();
  });
});

describe("isVisibleToModel", () => {
  const withUi = (ui: unknown) => ({ sourceMetadata: ui === undefined ? {} : { [TOOL_UI_METADATA_KEY]: ui } });

  it("hides only tools meant for the app alone", () => {
    expect(isVisibleToModel(withUi(undefined))).toBe(true);
    expect(isVisibleToModel(withUi(parseToolUiMeta({ ui: { resourceUri: "ui://a/b" } })))).toBe(true);
    expect(isVisibleToModel(withUi(parseToolUiMeta({ ui: { visibility: ["model"] } })))).toBe(true);
    expect(isVisibleToModel(withUi(parseToolUiMeta({ ui: { visibility: ["app"] } })))).toBe(false);
  });

  it("ignores source metadata that is not a UI reference", () => {
    expect(toolUiOf(withUi("ui://a/b"))).toBeUndefined();
    expect(isVisibleToModel(withUi({ resourceUri: "ui://a/b" }))).toBe(true);
  });
});
