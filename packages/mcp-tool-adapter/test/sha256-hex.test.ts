import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/cache/sha256-hex.js";

const nodeSha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("sha256Hex (the file cache's entry names)", () => {
  it("gives the published digests", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("gives node:crypto's digest of the UTF-8 bytes at every length across the block boundaries", () => {
    const differing: string[] = [];
    for (let length = 0; length < 200; length += 1) {
      for (const unit of ["k", "é", "€", "😀", "\u0000"]) {
        const text = `mcp-tool-adapter/tools/${unit.repeat(length)}`;
        if (sha256Hex(text) !== nodeSha256(text)) differing.push(`${JSON.stringify(unit)} x ${length}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it("names a lone surrogate's entry as node:crypto does (both encode it as U+FFFD)", () => {
    expect(sha256Hex("a\ud800b")).toBe(nodeSha256("a\ud800b"));
  });
});
