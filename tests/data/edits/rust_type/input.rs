use std::collections::HashMap;

/// Counts of events seen per name, with a running total.
#[derive(Debug, Default, Clone)]
pub struct Counter {
    counts: HashMap<String, u32>,
    total: u32,
}

impl Counter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one event.
    pub fn add(&mut self, name: &str) {
        self.add_many(name, 1);
    }

    /// Records n events at once.
    pub fn add_many(&mut self, name: &str, n: u32) {
        *self.counts.entry(name.to_string()).or_insert(0) += n;
        self.total += n;
    }

    /// How many events of this name were recorded.
    pub fn get(&self, name: &str) -> u32 {
        self.counts.get(name).copied().unwrap_or(0)
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    /// The names with their counts, most frequent first, ties by name.
    pub fn ranked(&self) -> Vec<(&str, u32)> {
        let mut v: Vec<(&str, u32)> = self.counts.iter().map(|(k, &c)| (k.as_str(), c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Adds every count of other into self.
    pub fn merge(&mut self, other: &Counter) {
        for (name, &n) in &other.counts {
            self.add_many(name, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_ranks() {
        let mut c = Counter::new();
        c.add("b");
        c.add_many("a", 3);
        c.add("b");
        assert_eq!(c.get("a"), 3);
        assert_eq!(c.total(), 5);
        assert_eq!(c.ranked(), vec![("a", 3), ("b", 2)]);
    }
}
