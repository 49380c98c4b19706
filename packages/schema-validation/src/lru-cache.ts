interface Slot<V> {
  value: V;
  lastUsed: number;
}

/**
 * A Map bounded to `maxEntries`, dropping the least recently used entry first.
 *
 * A hit only stamps the entry (re-inserting into a Map costs microseconds, more than a
 * validation); the oldest stamp is searched for when an entry must go, which happens only
 * on a miss, next to a schema compile that costs far more than the scan.
 */
export class LruCache<K, V> {
  readonly #slots = new Map<K, Slot<V>>();
  readonly #maxEntries: number;
  readonly #onEvict: ((key: K, value: V) => void) | undefined;
  #clock = 0;

  constructor(maxEntries: number, onEvict?: (key: K, value: V) => void) {
    this.#maxEntries = maxEntries;
    this.#onEvict = onEvict;
  }

  get size(): number {
    return this.#slots.size;
  }

  get(key: K): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    slot.lastUsed = ++this.#clock;
    return slot.value;
  }

  set(key: K, value: V): void {
    const existing = this.#slots.get(key);
    if (existing !== undefined) {
      existing.value = value;
      existing.lastUsed = ++this.#clock;
      return;
    }
    this.#slots.set(key, { value, lastUsed: ++this.#clock });
    if (this.#slots.size > this.#maxEntries) this.#evictLeastRecentlyUsed();
  }

  #evictLeastRecentlyUsed(): void {
    let oldestKey: K | undefined;
    let oldest: Slot<V> | undefined;
    for (const [key, slot] of this.#slots) {
      if (oldest === undefined || slot.lastUsed < oldest.lastUsed) {
        oldestKey = key;
        oldest = slot;
      }
    }
    if (oldest === undefined) return;
    this.#slots.delete(oldestKey as K);
    this.#onEvict?.(oldestKey as K, oldest.value);
  }
}
