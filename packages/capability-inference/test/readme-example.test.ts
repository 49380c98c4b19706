import { expect, it } from "vitest";
import { inferCapabilities, splitToolName } from "../src/index.js";

it("gives what the README example says", () => {
  expect(inferCapabilities("list_repos")).toEqual({
    readOnly: true,
    writes: false,
    decidedBy: { readOnly: "name", writes: "name" },
  });
  expect(inferCapabilities("search_and_update")).toMatchObject({ readOnly: false, writes: true });
  expect(inferCapabilities("run_pipeline")).toEqual({
    readOnly: false,
    writes: false,
    decidedBy: { readOnly: "default", writes: "default" },
  });
  expect(inferCapabilities("get_config", { readOnlyHint: false })).toMatchObject({ readOnly: false, writes: true });
  expect(inferCapabilities("delete_cache", {}, { readOnly: true })).toMatchObject({ readOnly: true, writes: false });
  expect(splitToolName("getHTTPStatus")).toEqual(["get", "http", "status"]);
});
