// The parts of the WebAssembly API the sandbox uses, typed here: this repository's `lib` is ES2023,
// which has no WebAssembly types (quickjs-emscripten's options name them; they pass through as `never`).

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

/** A compiled WebAssembly module, opaque here. */
export type WasmModule = object;

interface WasmApi {
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<WasmModule>;
}

export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
