// lru-cache.ts: a small in-memory LRU cache with optional per-entry expiry.
//
// Recency is the insertion order of a Map: a hit deletes the entry and
// inserts it again at the end, so the first key is always the least
// recently used. Expired entries are dropped lazily, when they are looked
// up, or all at once by prune().

export type EvictionReason = "capacity" | "expired" | "deleted";

export interface LruCacheOptions<K, V> {
  /** Maximum number of entries; a positive integer. */
  maxEntries: number;
  /** Default lifetime of an entry in milliseconds; without it entries never expire. */
  ttlMs?: number;
  /** Called after an entry has left the cache (not when its value is replaced). */
  onEvict?: (key: K, value: V, reason: EvictionReason) => void;
  /** Clock in milliseconds; Date.now unless a test supplies its own. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number; // Infinity for an entry that never expires
}

function checkTtl(ttlMs: number): void {
  // Written so that NaN fails too.
  if (!(ttlMs > 0)) {
    throw new RangeError(`ttl must be a positive number of milliseconds, got ${ttlMs}`);
  }
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly maxEntries: number;
  private readonly defaultTtlMs: number;
  private readonly onEvict?: (key: K, value: V, reason: EvictionReason) => void;
  private readonly now: () => number;

  constructor(options: LruCacheOptions<K, V>) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries <= 0) {
      throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
    }
    if (options.ttlMs !== undefined) {
      checkTtl(options.ttlMs);
    }
    this.maxEntries = options.maxEntries;
    this.defaultTtlMs = options.ttlMs ?? Infinity;
    this.onEvict = options.onEvict;
    this.now = options.now ?? Date.now;
  }

  /** The value for key, marking it most recently used; undefined if absent or expired. */
  get(key: K): V | undefined {
    const entry = this.live(key);
    if (entry === undefined) {
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Whether key holds a live value; unlike get, does not touch its recency. */
  has(key: K): boolean {
    return this.live(key) !== undefined;
  }

  /** Stores a value, living ttlMs (or the default) from now. */
  set(key: K, value: V, ttlMs?: number): this {
    if (ttlMs !== undefined) {
      checkTtl(ttlMs);
    }
    const expiresAt = this.now() + (ttlMs ?? this.defaultTtlMs);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    if (this.entries.size > this.maxEntries) {
      // Dead entries go before any live one is sacrificed.
      this.prune();
    }
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.remove(oldest, "capacity");
    }
    return this;
  }

  /** Removes key; returns false if it was absent or had already expired. */
  delete(key: K): boolean {
    if (this.live(key) === undefined) {
      return false;
    }
    this.remove(key, "deleted");
    return true;
  }

  /** Removes every entry, reporting each as deleted. */
  clear(): void {
    const removed = [...this.entries];
    this.entries.clear();
    for (const [key, entry] of removed) {
      this.onEvict?.(key, entry.value, "deleted");
    }
  }

  /** Drops all expired entries now; returns how many there were. */
  prune(): number {
    const now = this.now();
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.remove(key, "expired");
        dropped++;
      }
    }
    return dropped;
  }

  /** Number of live entries. Prunes first, so it costs a pass over the cache. */
  get size(): number {
    this.prune();
    return this.entries.size;
  }

  private live(key: K): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt <= this.now()) {
      this.remove(key, "expired");
      return undefined;
    }
    return entry;
  }

  private remove(key: K, reason: EvictionReason): void {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return;
    }
    this.entries.delete(key);
    this.onEvict?.(key, entry.value, reason);
  }
}
