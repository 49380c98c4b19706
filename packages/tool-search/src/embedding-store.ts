import type { RegisteredTool } from "@mcp-tool-adapter/registry";
import { oneLine } from "./search-text.js";
import { ToolSearchError } from "./tool-search-error.js";

/** Your embedding model: one vector per text, in order (any length, the same for every text). */
export type EmbedFunction = (texts: readonly string[]) => Promise<readonly (readonly number[])[]>;

/**
 * Tool vectors, computed on the first search that needs them and forgotten when a tool changes,
 * so a tools/list_changed costs an embedding of the changed tools only, at the next search.
 */
export class EmbeddingStore {
  readonly #vectors = new Map<string, readonly number[]>();

  constructor(private readonly embed: EmbedFunction) {}

  forget(name: string): void {
    this.#vectors.delete(name);
  }

  async rank(
    query: string,
    tools: readonly RegisteredTool[],
    limit: number,
  ): Promise<{ name: string; similarity: number }[]> {
    const missing = tools.filter((tool) => !this.#vectors.has(tool.name));
    const texts = [query, ...missing.map((tool) => `${tool.name}: ${oneLine(tool.description, 400)}`)];
    const vectors = await this.#call(texts);
    missing.forEach((tool, index) => this.#vectors.set(tool.name, vectors[index + 1] as readonly number[]));
    const queryVector = vectors[0] as readonly number[];
    return tools
      .map((tool) => ({ name: tool.name, similarity: cosine(queryVector, this.#vectors.get(tool.name) ?? []) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);
  }

  async #call(texts: readonly string[]): Promise<readonly (readonly number[])[]> {
    let vectors: unknown;
    try {
      vectors = await this.embed(texts);
    } catch (error) {
      throw new ToolSearchError(
        "EMBEDDING_FAILED",
        `Tool search: the embed function failed: ${error instanceof Error ? error.message : String(error)}.`,
        { cause: error },
      );
    }
    if (
      !Array.isArray(vectors) ||
      vectors.length !== texts.length ||
      !vectors.every((vector) => Array.isArray(vector) && vector.every((value) => typeof value === "number"))
    ) {
      throw new ToolSearchError(
        "EMBEDDING_FAILED",
        `Tool search: the embed function must return one array of numbers per text (${texts.length} texts).`,
      );
    }
    return vectors;
  }
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
