//! Rules for the user profile (USER.md), which holds durable facts about the user, not
//! collections of links or whole documents.

use std::sync::LazyLock;

use regex::Regex;

use super::rules::{Family, Hit};

/// Bytes above which a profile entry is a document dump.
pub const MAX_PROFILE_BYTES: usize = 2000;
/// Lines above which a profile entry is a document dump.
pub const MAX_PROFILE_LINES: usize = 30;
/// URLs from which a profile entry is a link dump.
pub const LINK_DUMP_URLS: usize = 3;

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?-u:\b)(?:https?://|www\.)[^\s<>"'()\[\]]+"#).expect("URL pattern compiles")
});

/// Link dumps (three or more URLs, or URLs making up most of the text) and document dumps
/// (over 2000 bytes or 30 lines).
/// Compiles the URL pattern now rather than on first use.
pub fn prepare() {
    LazyLock::force(&URL);
}

pub fn find(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    if text.len() > MAX_PROFILE_BYTES || text.lines().count() > MAX_PROFILE_LINES {
        hits.push(Hit {
            family: Family::Unsafe,
            kind: "document-dump",
            start: 0,
            end: text.len(),
            priority: 0,
        });
    }
    let urls: Vec<_> = URL.find_iter(text).collect();
    let url_bytes: usize = urls.iter().map(|m| m.len()).sum();
    let visible_bytes = text.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    if urls.len() >= LINK_DUMP_URLS || (!urls.is_empty() && url_bytes * 2 > visible_bytes) {
        hits.extend(urls.iter().map(|m| Hit {
            family: Family::Unsafe,
            kind: "link-dump",
            start: m.start(),
            end: m.end(),
            priority: 0,
        }));
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<&'static str> {
        find(text).iter().map(|h| h.kind).collect()
    }

    #[test]
    fn links() {
        assert_eq!(
            kinds("see https://a.test/1 https://b.test/2 and www.c.test"),
            ["link-dump"; 3]
        );
        assert_eq!(
            kinds("https://only.example/a-very-long-path/to/something"),
            ["link-dump"]
        );
        assert!(
            kinds("My blog is https://me.dev, where I write about compilers and Rust.").is_empty()
        );
        assert!(kinds("Prefers short answers.").is_empty());
    }

    #[test]
    fn documents() {
        assert_eq!(kinds(&"word ".repeat(401)), ["document-dump"]);
        assert_eq!(kinds(&"line\n".repeat(31)), ["document-dump"]);
        assert!(kinds(&"line\n".repeat(30)).is_empty());
    }
}
