/**
 * The narrow logger every mcp-tool-adapter package accepts; each method is optional, and
 * `console` fits. `data` carries structured fields (the error, the server name, ...).
 */
export interface Logger {
  debug?(message: string, data?: Record<string, unknown>): void;
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}
