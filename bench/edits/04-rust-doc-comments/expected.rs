//! Semantic version numbers: parsing, ordering and compatibility checks.
//!
//! Follows the precedence rules of Semantic Versioning 2.0.0. Build
//! metadata (`+...`) is accepted but dropped, since it never affects
//! precedence.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A version number `MAJOR.MINOR.PATCH` with optional pre-release
/// identifiers, e.g. `1.4.0-beta.2`.
///
/// Versions are ordered by semver precedence: a pre-release sorts before
/// the release it precedes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Version {
    /// Incremented for incompatible API changes.
    pub major: u64,
    /// Incremented for backwards-compatible additions.
    pub minor: u64,
    /// Incremented for backwards-compatible fixes.
    pub patch: u64,
    /// Dot-separated pre-release identifiers (`["rc", "1"]` for `-rc.1`);
    /// empty for a release.
    pub pre: Vec<String>,
}

/// Why a string could not be parsed as a [`Version`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The input was empty or only whitespace.
    Empty,
    /// One of the three numeric parts (named) was absent.
    MissingPart(&'static str),
    /// A numeric part was not a number, or there were more than three parts.
    BadNumber(String),
    /// A numeric part had a leading zero, which semver forbids.
    LeadingZero(String),
    /// A pre-release identifier was empty or held a character other than
    /// ASCII alphanumerics and `-`.
    BadPrerelease(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty version string"),
            ParseError::MissingPart(part) => write!(f, "missing {part} version"),
            ParseError::BadNumber(s) => write!(f, "not a number: {s:?}"),
            ParseError::LeadingZero(s) => write!(f, "leading zero in {s:?}"),
            ParseError::BadPrerelease(s) => write!(f, "bad pre-release identifier {s:?}"),
        }
    }
}

impl std::error::Error for ParseError {}

fn parse_number(s: &str) -> Result<u64, ParseError> {
    if s.len() > 1 && s.starts_with('0') {
        return Err(ParseError::LeadingZero(s.to_string()));
    }
    s.parse().map_err(|_| ParseError::BadNumber(s.to_string()))
}

fn valid_identifier(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

impl Version {
    /// Creates a release version (no pre-release identifiers).
    pub fn new(major: u64, minor: u64, patch: u64) -> Self {
        Version { major, minor, patch, pre: Vec::new() }
    }

    /// Parses `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, ignoring surrounding
    /// whitespace and discarding build metadata.
    ///
    /// # Errors
    ///
    /// Returns a [`ParseError`] naming the first part that is missing or
    /// malformed.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseError::Empty);
        }
        // Build metadata never affects precedence, so it is dropped here.
        let text = text.split('+').next().unwrap_or(text);
        let (core, pre) = match text.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (text, None),
        };

        let mut parts = core.split('.');
        let major = parse_number(parts.next().ok_or(ParseError::MissingPart("major"))?)?;
        let minor = parse_number(parts.next().ok_or(ParseError::MissingPart("minor"))?)?;
        let patch = parse_number(parts.next().ok_or(ParseError::MissingPart("patch"))?)?;
        if let Some(extra) = parts.next() {
            return Err(ParseError::BadNumber(extra.to_string()));
        }

        let mut version = Version::new(major, minor, patch);
        if let Some(pre) = pre {
            for ident in pre.split('.') {
                if !valid_identifier(ident) {
                    return Err(ParseError::BadPrerelease(ident.to_string()));
                }
                version.pre.push(ident.to_string());
            }
        }
        Ok(version)
    }

    /// Returns true when the version has pre-release identifiers.
    pub fn is_prerelease(&self) -> bool {
        !self.pre.is_empty()
    }

    /// Returns the next major release: `1.4.2` becomes `2.0.0`.
    pub fn bump_major(&self) -> Self {
        Version::new(self.major + 1, 0, 0)
    }

    /// Returns the next minor release: `1.4.2` becomes `1.5.0`.
    pub fn bump_minor(&self) -> Self {
        Version::new(self.major, self.minor + 1, 0)
    }

    /// Returns the next patch release: `1.4.2` becomes `1.4.3`, and a
    /// pre-release such as `1.4.3-rc.1` becomes `1.4.3`.
    pub fn bump_patch(&self) -> Self {
        if self.is_prerelease() {
            // 1.2.3-rc.1 is released as 1.2.3, not 1.2.4.
            return Version::new(self.major, self.minor, self.patch);
        }
        Version::new(self.major, self.minor, self.patch + 1)
    }

    /// Returns true when code written against `other` should work with
    /// `self`: same major version, or for `0.x` versions the same minor
    /// version as well.
    pub fn is_compatible_with(&self, other: &Version) -> bool {
        if self.major == 0 || other.major == 0 {
            return self.major == other.major && self.minor == other.minor;
        }
        self.major == other.major
    }
}

fn compare_identifiers(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                for (a, b) in self.pre.iter().zip(&other.pre) {
                    let ord = compare_identifiers(a, b);
                    if ord != Ordering::Equal {
                        return ord;
                    }
                }
                self.pre.len().cmp(&other.pre.len())
            }
        }
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl FromStr for Version {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse(s)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        Ok(())
    }
}

/// Picks the highest release in `available` that is compatible with
/// `wanted` and not older than it; pre-releases are never chosen.
///
/// Returns `None` when no such version exists.
pub fn latest_compatible<'a>(wanted: &Version, available: &'a [Version]) -> Option<&'a Version> {
    available
        .iter()
        .filter(|v| v.is_compatible_with(wanted) && *v >= wanted && !v.is_prerelease())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let v: Version = "1.4.0-beta.2+build.7".parse().unwrap();
        assert_eq!(v.to_string(), "1.4.0-beta.2");
    }

    #[test]
    fn prerelease_sorts_before_release() {
        let rc = Version::parse("2.0.0-rc.1").unwrap();
        assert!(rc < Version::new(2, 0, 0));
        assert!(Version::parse("2.0.0-rc.2").unwrap() > rc);
    }

    #[test]
    fn rejects_leading_zero() {
        assert_eq!(Version::parse("1.02.3"), Err(ParseError::LeadingZero("02".into())));
    }
}
