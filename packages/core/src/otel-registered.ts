/**
 * Where every copy of @opentelemetry/api 1.x keeps what was registered with it (see its
 * internal/global-utils: `Symbol.for("opentelemetry.js.api.<major>")` on globalThis). Reading it
 * tells, without loading the API, whether anything could be observed: with no provider,
 * propagator or context manager registered every span is a no-op. The adapter's
 * test/telemetry-lazy.test.ts checks the major against the real API.
 */
export const OTEL_GLOBAL_KEY: unique symbol = Symbol.for("opentelemetry.js.api.1");

/** What the API registers globally, by the names it keeps them under. */
export type OTelGlobalApi = "trace" | "metrics" | "propagation" | "context";

/**
 * Whether any of `apis` is registered with the OpenTelemetry API in this process now (also when
 * registered after this was loaded). A property read and a loop: cheap enough to ask per request.
 */
export function otelRegistered(apis: readonly OTelGlobalApi[]): boolean {
  const registered = (globalThis as Record<symbol, Partial<Record<OTelGlobalApi, unknown>> | undefined>)[
    OTEL_GLOBAL_KEY
  ];
  if (registered === undefined) return false;
  for (const api of apis) if (registered[api] !== undefined) return true;
  return false;
}
