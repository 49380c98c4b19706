import { describe, expect, it } from "vitest";
import { splitToolName } from "../src/index.js";

describe("splitToolName", () => {
  it.each([
    ["get-user-details", ["get", "user", "details"]],
    ["getUserDetails", ["get", "user", "details"]],
    ["GetUserDetails", ["get", "user", "details"]],
    ["get_user.details/v1", ["get", "user", "details", "v", "1"]],
    ["get user  details", ["get", "user", "details"]],
    ["getHTTPStatus", ["get", "http", "status"]],
    ["parseJSON", ["parse", "json"]],
    ["HTTPServer2Go", ["http", "server", "2", "go"]],
    ["list2Items", ["list", "2", "items"]],
    ["s3_put_object", ["s", "3", "put", "object"]],
    ["READ_FILE", ["read", "file"]],
    ["__private__", ["private"]],
    ["repo:list@v2", ["repo", "list", "v", "2"]],
    ["überSicht", ["über", "sicht"]],
    ["", []],
    ["-_./ ", []],
  ])("%j -> %j", (name, words) => {
    expect(splitToolName(name)).toEqual(words);
  });
});
