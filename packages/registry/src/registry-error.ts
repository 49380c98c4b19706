const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type RegistryErrorCode = "INVALID_NAME" | "DUPLICATE_TOOL" | "INVALID_TOOL";

/** A registration the registry refused; nothing was changed when one is thrown. */
export class RegistryError extends Error {
  readonly code: RegistryErrorCode;

  constructor(code: RegistryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RegistryError";
    this.code = code;
    Object.defineProperty(this, ERROR_MARKER, { value: true });
  }

  /** True for a RegistryError from any copy of this package (instanceof is not enough across copies). */
  static isInstance(value: unknown): value is RegistryError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<PropertyKey, unknown>)[ERROR_MARKER] === true &&
      (value as { name?: unknown }).name === "RegistryError"
    );
  }
}
