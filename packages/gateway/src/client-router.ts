/** Where an upstream server's request (elicitation, sampling) goes: a client, or why none can be named. */
export type Attribution<Session> =
  | { readonly session: Session; readonly problem?: undefined }
  | { readonly session?: undefined; readonly problem: string };

/**
 * Which downstream client an upstream server's request belongs to. Upstream connections are shared
 * by every client, and an upstream asks while one of its tool calls runs. When the wire links the
 * request to the call (streamable HTTP: it came on that call's response stream, and the adapter
 * hands back the call's `caller`), it belongs to the client that made that call, however many
 * clients have calls running there. Without a link (stdio, legacy SSE, the standalone GET stream)
 * it belongs to the client whose calls are running on that server; when calls of two or more
 * clients run there at once it is not attributed: guessing would show one client's question to
 * another client's user.
 */
export class ClientRouter<Session> {
  readonly #sessions = new Set<Session>();
  /**
   * Per upstream server: how many calls of each client are running on it. A connected session's
   * entry stays at 0 between its calls and a server's map stays when it empties: sequential calls
   * then make and drop no Map (nor entry) each. Only counts above 0 are calls running.
   */
  readonly #calls = new Map<string, Map<Session, number>>();

  get sessions(): ReadonlySet<Session> {
    return this.#sessions;
  }

  add(session: Session): void {
    this.#sessions.add(session);
  }

  remove(session: Session): void {
    this.#sessions.delete(session);
    // A call still running keeps its count until it ends (endCall drops the entry then).
    for (const running of this.#calls.values()) if (running.get(session) === 0) running.delete(session);
  }

  /** Marks a call of `session` to `server` as running, until endCall with the same two. */
  beginCall(server: string, session: Session): void {
    let running = this.#calls.get(server);
    if (running === undefined) {
      running = new Map();
      this.#calls.set(server, running);
    }
    running.set(session, (running.get(session) ?? 0) + 1);
  }

  /** A call beginCall marked has ended. */
  endCall(server: string, session: Session): void {
    const running = this.#calls.get(server);
    const left = (running?.get(session) ?? 1) - 1;
    if (left > 0 || this.#sessions.has(session)) running?.set(session, Math.max(left, 0));
    else running?.delete(session);
  }

  /**
   * `linked`: the client whose call the upstream's request names (MCPRelatedCall's `caller`), when
   * it names one. It is trusted only while that client has a call running on `server`; otherwise the
   * request is routed as one without a link.
   */
  route(server: string, linked?: unknown): Attribution<Session> {
    const running = this.#calls.get(server);
    // A Map lookup, so a value that is no client of this router finds nothing.
    if (linked !== undefined && (running?.get(linked as Session) ?? 0) > 0) return { session: linked as Session };
    let clients = 0;
    let only: Session | undefined;
    for (const [session, calls] of running ?? []) {
      if (calls === 0) continue;
      clients += 1;
      only = session;
    }
    if (clients === 1) return { session: only as Session };
    if (clients > 1) {
      return {
        problem: `calls of ${clients} downstream clients are running on it at once, so the gateway cannot tell whose call asked`,
      };
    }
    // Nothing running (a request outside any call): only a lone client can be meant.
    if (this.#sessions.size === 1) return { session: this.#sessions.values().next().value as Session };
    return {
      problem:
        this.#sessions.size === 0
          ? "no downstream client is connected to the gateway"
          : "no downstream client has a call running on it",
    };
  }
}
