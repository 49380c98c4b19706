/** A thrown value's message, without ever throwing itself (the value may be a hostile object). */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return "an unprintable error";
  }
}
