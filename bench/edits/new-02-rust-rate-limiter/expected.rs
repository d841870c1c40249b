//! Token-bucket rate limiting for the API gateway.
//!
//! Time is always passed in, so the caller owns the clock and tests never
//! sleep.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// Why a bucket or limiter could not be created.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConfigError {
    /// The capacity was zero: such a bucket could never grant anything.
    ZeroCapacity,
    /// The refill rate was zero, negative, NaN or infinite.
    BadRate(f64),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ZeroCapacity => write!(f, "bucket capacity must be at least 1"),
            ConfigError::BadRate(r) => write!(f, "bad refill rate {r} (must be positive)"),
        }
    }
}

impl std::error::Error for ConfigError {}

fn check_config(capacity: u32, rate: f64) -> Result<(), ConfigError> {
    if capacity == 0 {
        return Err(ConfigError::ZeroCapacity);
    }
    if !(rate.is_finite() && rate > 0.0) {
        return Err(ConfigError::BadRate(rate));
    }
    Ok(())
}

/// A single token bucket. It starts full.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    capacity: u32,
    rate: f64,
    tokens: f64,
    updated: Instant,
}

impl TokenBucket {
    /// Creates a full bucket holding at most `capacity` tokens and gaining
    /// `rate` tokens per second.
    pub fn new(capacity: u32, rate: f64, now: Instant) -> Result<Self, ConfigError> {
        check_config(capacity, rate)?;
        Ok(TokenBucket {
            capacity,
            rate,
            tokens: f64::from(capacity),
            updated: now,
        })
    }

    /// Tokens available at `now`. An instant earlier than the last update
    /// (a caller's clocks disagreeing) counts as no time passing.
    pub fn available(&self, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        (self.tokens + elapsed * self.rate).min(f64::from(self.capacity))
    }

    /// Takes `n` tokens if they are all available; otherwise takes none.
    pub fn try_acquire(&mut self, n: u32, now: Instant) -> bool {
        self.tokens = self.available(now);
        self.updated = self.updated.max(now);
        if self.tokens >= f64::from(n) {
            self.tokens -= f64::from(n);
            true
        } else {
            false
        }
    }

    /// How long until `n` tokens are available: zero if they are now, and
    /// `None` if `n` exceeds the capacity and never will be.
    pub fn wait_time(&self, n: u32, now: Instant) -> Option<Duration> {
        if n > self.capacity {
            return None;
        }
        let missing = (f64::from(n) - self.available(now)).max(0.0);
        Some(Duration::from_secs_f64(missing / self.rate))
    }
}

/// One bucket per client key, all with the same capacity and rate.
#[derive(Debug)]
pub struct RateLimiter<K> {
    capacity: u32,
    rate: f64,
    buckets: HashMap<K, TokenBucket>,
}

impl<K: Eq + Hash + Clone> RateLimiter<K> {
    /// Creates a limiter whose buckets hold `capacity` tokens and refill at
    /// `rate` tokens per second.
    pub fn new(capacity: u32, rate: f64) -> Result<Self, ConfigError> {
        check_config(capacity, rate)?;
        Ok(RateLimiter {
            capacity,
            rate,
            buckets: HashMap::new(),
        })
    }

    /// Takes `n` tokens from `key`'s bucket, creating a full one for a key
    /// seen for the first time.
    pub fn try_acquire(&mut self, key: &K, n: u32, now: Instant) -> bool {
        if let Some(bucket) = self.buckets.get_mut(key) {
            return bucket.try_acquire(n, now);
        }
        // check_config passed in new(), so this cannot fail.
        let mut bucket = TokenBucket::new(self.capacity, self.rate, now)
            .expect("limiter configuration was validated");
        let granted = bucket.try_acquire(n, now);
        self.buckets.insert(key.clone(), bucket);
        granted
    }

    /// Number of keys currently tracked.
    pub fn len(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_spends_refills_and_waits() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(4, 2.0, t0).unwrap();
        assert!(bucket.try_acquire(3, t0));
        assert!(!bucket.try_acquire(2, t0));
        assert_eq!(bucket.wait_time(2, t0), Some(Duration::from_millis(500)));
        assert!(bucket.try_acquire(2, t0 + Duration::from_millis(500)));
        assert_eq!(bucket.available(t0 + Duration::from_secs(60)), 4.0);
        assert_eq!(bucket.wait_time(5, t0), None);
    }

    #[test]
    fn rejects_bad_configuration() {
        let t0 = Instant::now();
        assert_eq!(
            TokenBucket::new(0, 1.0, t0).err(),
            Some(ConfigError::ZeroCapacity)
        );
        assert_eq!(
            TokenBucket::new(1, -1.0, t0).err(),
            Some(ConfigError::BadRate(-1.0))
        );
        assert!(RateLimiter::<u32>::new(1, f64::NAN).is_err());
    }

    #[test]
    fn limiter_keeps_keys_apart() {
        let t0 = Instant::now();
        let mut limiter = RateLimiter::new(1, 1.0).unwrap();
        assert!(limiter.try_acquire(&"alice", 1, t0));
        assert!(!limiter.try_acquire(&"alice", 1, t0));
        assert!(limiter.try_acquire(&"bob", 1, t0));
        assert!(limiter.try_acquire(&"alice", 1, t0 + Duration::from_secs(1)));
        assert_eq!(limiter.len(), 2);
    }
}
