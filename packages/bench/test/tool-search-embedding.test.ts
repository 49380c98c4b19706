import { describe, expect, it } from "vitest";
import { createSentenceEncoderEmbed } from "../src/scenarios/tool-search-embedding.js";

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  a.forEach((x, index) => {
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  });
  return dot / Math.sqrt(normA * normB);
}

// The hybrid figure's model: its weights come from node_modules (no network at bench or test time).
describe("tool-search embedding model", () => {
  it("embeds texts in order, 512 numbers each, closer for the same meaning in other words", async () => {
    const embed = createSentenceEncoderEmbed();
    const [query, rename, weather] = await embed([
      "give report.txt a new name",
      "move_file: Move or rename files and directories",
      "maps_elevation: Get the elevation of locations on the earth",
    ]);
    expect(query).toHaveLength(512);
    expect(cosine(query ?? [], rename ?? [])).toBeGreaterThan(cosine(query ?? [], weather ?? []));
    // More texts than one model call takes (batches of 128) come back one vector per text.
    const many = await embed(Array.from({ length: 130 }, (_, index) => `tool ${index}`));
    expect(many).toHaveLength(130);
  }, 120_000);
});
