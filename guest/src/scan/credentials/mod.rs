//! Provider credentials beyond the core table in `secrets`: one rule per format of the public
//! rule sets (gitleaks' default configuration, detect-secrets' plugins), each written here from
//! the format's facts, split by provider family, plus the providers recognised only by keyword
//! context, the random values of keys named "...key", credentials named near their value
//! rather than assigned to it, the cells of tables headed as credentials, and long random
//! values with no name at all.

mod assignment;
mod cloud;
mod comms;
mod context;
mod devtools;
mod named_key;
mod nearby;
mod payment;
mod platform;
mod proximity;
mod table;
mod unnamed;

use super::literals::Literal;
use super::rules::{Hit, Rule};
use super::secrets::{has_digit, not_mask, token};

pub use context::provider_names;
pub use named_key::KEY_WORD;
pub use proximity::ascii_words as credential_words;

/// Builds this module's lookup tables now rather than on first use.
pub fn prepare() {
    proximity::prepare();
}

/// Every prefix-and-shape rule of the provider families.
pub fn rules() -> Vec<Rule> {
    cloud::rules()
        .into_iter()
        .chain(devtools::rules())
        .chain(comms::rules())
        .chain(payment::rules())
        .chain(platform::rules())
        .chain(nearby::rules())
        .collect()
}

/// Strongly random values close after a credential's name (see [`proximity`]), values in
/// table columns headed as credentials (see [`table`]), provider values found by
/// keyword context (see [`context`]), random values of keys named "...key" (see
/// [`named_key`]), and long random values with no name (see [`unnamed`]); given the
/// [`provider_names`] and the [`credential_words`] leftmost-longest searches found in `text`,
/// and where [`KEY_WORD`] occurs in it.
pub fn find(
    text: &str,
    names: &[Literal],
    credential_words: &[Literal],
    keys: &[Literal],
) -> Vec<Hit> {
    let mut hits = unnamed::find(text);
    // One list of the credential words serves the proximity and table searches; a text
    // without one needs neither.
    let words = proximity::word_spans(text, credential_words);
    if !words.is_empty() {
        hits.extend(proximity::find(text, &words));
        hits.extend(table::find(text, &words));
    }
    if assignment::may_assign(text.as_bytes()) {
        hits.extend(context::find(text, names));
        hits.extend(named_key::find(text, keys));
    }
    hits
}

/// Native throughput of each search of this module, for the stage profile in `scan`.
#[cfg(test)]
pub fn time_stages(texts: &[&str]) {
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let stage = |name: &str, f: &dyn Fn(&str)| {
        let started = std::time::Instant::now();
        for _ in 0..5 {
            for t in texts {
                f(t);
            }
        }
        let mb_s = 5.0 * bytes as f64 / started.elapsed().as_secs_f64() / 1e6;
        println!("  {name:<22} {mb_s:>9.1} MB/s");
    };
    stage("proximity", &|t| {
        std::hint::black_box(proximity::find(t, &proximity::word_spans_in(t)));
    });
    stage("proximity's words", &|t| {
        std::hint::black_box(proximity::word_spans_in(t));
    });
    stage("table", &|t| {
        std::hint::black_box(table::find(t, &proximity::word_spans_in(t)));
    });
    stage("context", &|t| {
        std::hint::black_box(context::find_in(t));
    });
    stage("named_key", &|t| {
        std::hint::black_box(named_key::find_in(t));
    });
    stage("unnamed", &|t| {
        std::hint::black_box(unnamed::find(t));
    });
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::rules::RuleSet;
    use super::*;

    /// The texts of `hits`, spans of `text`, in their order.
    pub fn spans(text: &str, hits: Vec<Hit>) -> Vec<&str> {
        hits.into_iter().map(|h| &text[h.start..h.end]).collect()
    }

    /// Asserts each `(kind, text, credential)`: the rules find exactly `credential` as `kind`.
    pub fn finds(rules: &[Rule], samples: &[(&str, &str, &str)]) {
        let set = RuleSet::new(rules.iter().map(copy).collect());
        for (kind, text, secret) in samples {
            let hits: Vec<_> = set
                .find_alone(text)
                .into_iter()
                .map(|h| (h.kind, &text[h.start..h.end]))
                .collect();
            assert!(
                hits.contains(&(*kind, *secret)),
                "{kind}: {text} -> {hits:?}"
            );
        }
        for rule in rules {
            assert!(
                samples.iter().any(|s| s.0 == rule.kind),
                "no sample for {}",
                rule.kind
            );
        }
    }

    /// Asserts each `(kind, text)`: no rule of `kind` fires on the look-alike.
    pub fn misses(rules: &[Rule], look_alikes: &[(&str, &str)]) {
        let set = RuleSet::new(rules.iter().map(copy).collect());
        for (kind, text) in look_alikes {
            let hits: Vec<_> = set
                .find_alone(text)
                .into_iter()
                .filter(|h| h.kind == *kind)
                .collect();
            assert!(hits.is_empty(), "{kind}: {text}");
        }
        for rule in rules {
            assert!(
                look_alikes.iter().any(|s| s.0 == rule.kind),
                "no look-alike for {}",
                rule.kind
            );
        }
    }

    fn copy(r: &Rule) -> Rule {
        Rule {
            family: r.family,
            kind: r.kind,
            triggers: r.triggers,
            also: r.also,
            gate: r.gate,
            pattern: r.pattern,
            accept: r.accept,
            within: r.within,
        }
    }

    #[test]
    fn no_kind_is_defined_twice() {
        let mut kinds: Vec<_> = rules()
            .iter()
            .map(|r| r.kind)
            .chain(context::kinds())
            .chain(super::super::secrets::rules().iter().map(|r| r.kind))
            .collect();
        kinds.sort_unstable();
        let n = kinds.len();
        kinds.dedup();
        assert_eq!(kinds.len(), n, "a kind is defined twice");
    }
}
