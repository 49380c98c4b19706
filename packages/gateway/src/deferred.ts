/** A promise settled from outside (Node 20 has no `Promise.withResolvers`). */
export class Deferred<T> {
  readonly promise: Promise<T>;
  resolve: (value: T) => void = () => undefined;
  reject: (reason: unknown) => void = () => undefined;

  constructor() {
    // The executor runs at once: the two functions are the promise's before the constructor returns.
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}
