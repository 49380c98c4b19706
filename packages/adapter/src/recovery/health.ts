/**
 * Where a server's connection stands:
 * - `disconnected`: never connected, or disconnect() was called (no recovery runs)
 * - `connected`: a live session
 * - `reconnecting`: the connection dropped and restarts are under way (calls wait for them)
 * - `down`: restarts gave up (or the first connect failed); the circuit is open and calls fail
 *   fast until `probeAt`, when a call or the probe timer tries the server again
 * - `probing`: down, and one half-open attempt is running (calls wait for it)
 */
export type MCPServerHealthState = "disconnected" | "connected" | "reconnecting" | "down" | "probing";

/** A server's health at one moment; times are on the adapter's clock (`now`, ms). */
export interface MCPServerHealth {
  readonly serverName: string;
  readonly state: MCPServerHealthState;
  /** When this state began. */
  readonly since: number;
  /** Restart attempts made in the current outage (0 while connected). */
  readonly attempt: number;
  /** Successful automatic recoveries since the adapter was created. */
  readonly recoveries: number;
  /** Why the connection was last lost, or why the last attempt failed. */
  readonly lastFailure?: string;
  /** While down: from when on the next call probes the server again (the probe timer fires soon after). */
  readonly probeAt?: number;
  /** Whether automatic recovery is on for this server. */
  readonly recovery: boolean;
}

/** One change of health, with the reason in words. */
export interface HealthChangeEvent {
  readonly serverName: string;
  readonly from: MCPServerHealthState;
  readonly to: MCPServerHealthState;
  readonly reason: string;
  readonly health: MCPServerHealth;
}

export type HealthChangeListener = (event: HealthChangeEvent) => void;
