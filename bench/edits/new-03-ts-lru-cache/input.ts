// lru-cache.ts: a small in-memory LRU cache with optional per-entry expiry.
