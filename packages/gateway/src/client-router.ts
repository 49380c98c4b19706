/**
 * Which downstream client an upstream server's request (elicitation, sampling) belongs to. An
 * upstream asks while one of its tool calls runs, so the client whose call to that server started
 * last is the one asked; with a single client connected (stdio), it is always that one.
 */
export class ClientRouter<Session> {
  readonly #sessions = new Set<Session>();
  readonly #calls = new Map<string, Session[]>();

  get sessions(): ReadonlySet<Session> {
    return this.#sessions;
  }

  add(session: Session): void {
    this.#sessions.add(session);
  }

  remove(session: Session): void {
    this.#sessions.delete(session);
  }

  /** Marks a call of `session` to `server` as running; the returned function marks it done. */
  beginCall(server: string, session: Session): () => void {
    const running = this.#calls.get(server) ?? [];
    running.push(session);
    this.#calls.set(server, running);
    return () => {
      const index = running.lastIndexOf(session);
      if (index >= 0) running.splice(index, 1);
      if (running.length === 0) this.#calls.delete(server);
    };
  }

  route(server: string): Session | undefined {
    const running = this.#calls.get(server);
    const last = running?.[running.length - 1];
    if (last !== undefined) return last;
    if (this.#sessions.size === 1) return [...this.#sessions][0];
    return undefined;
  }
}
