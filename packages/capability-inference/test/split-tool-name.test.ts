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

describe("splitToolName on ASCII names (their own patterns) and on any other name (the Unicode ones)", () => {
  // A trailing U+00B7 (punctuation: a separator) sends a name down the Unicode patterns and adds
  // no word, so both paths must give the same words for every ASCII name.
  const unicodePath = (name: string) => splitToolName(`${name}\u00b7`);

  it("splits every pair of ASCII characters the same way", () => {
    const differing: string[] = [];
    for (let first = 0; first < 128; first += 1) {
      for (let second = 0; second < 128; second += 1) {
        const name = `a${String.fromCharCode(first, second)}Z9`;
        if (JSON.stringify(splitToolName(name)) !== JSON.stringify(unicodePath(name))) differing.push(name);
      }
    }
    expect(differing).toEqual([]);
  });

  it("splits mixed ASCII names the same way", () => {
    const alphabet = "aZbY0912_-./ :@+AbCDeF";
    let seed = 37;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 2_000; round += 1) {
      const length = next() % 16;
      const name = Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
      expect(splitToolName(name), name).toEqual(unicodePath(name));
    }
  });
});
