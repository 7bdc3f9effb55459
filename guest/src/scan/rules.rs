//! Regex rules behind a keyword prefilter.
//!
//! Each rule names the literal keywords without which it cannot match (its triggers), may
//! name a second family of which one must also occur (say, a destination for an exfiltration
//! verb), and may require its trigger to stand in a particular place (at a line start, before
//! an assignment). The scanner's one pass for literals (see [`super::literals`]) finds the
//! keywords and so decides which rules can match; only those run their regex, so ordinary text
//! costs no regex search at all. Regexes are compiled on first
//! use, so a short-lived instance (a fresh component per call) compiles only what it needs.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

use super::literals::Literal;

/// The text every regex is run over once when it is compiled ahead of time (see
/// [`RuleSet::compile_all`]): an assignment, a URL with credentials, a key block and common
/// token shapes, then every printable ASCII character forwards and backwards.
fn warm_up_text() -> Vec<u8> {
    const SHAPES: &[u8] =
        b"api_key = \"AbcDEF0123456789+/abcdefGHIJ_-xyz\" token: 'sk-proj-AbC123xyz' \
        https://user:pa55w0rd@db.example.com:5432/app?x=1 -----BEGIN PRIVATE KEY----- \
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASC ghp_0123456789abcdefABCDEF0123456789abcd \
        AKIA0123456789ABCDEF eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_DEF-123 password=hunter2\n\t";
    let printable = 0x20u8..0x7f;
    SHAPES
        .iter()
        .copied()
        .chain(printable.clone())
        .chain(printable.rev())
        .collect()
}

/// What a rule detects, which decides what the scan does about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// A secret: redacted.
    Secret,
    /// Unsafe content: the text is blocked.
    Unsafe,
}

/// A span of the input that a rule matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// What the rule detects.
    pub family: Family,
    /// The finding kind, such as `github-token`.
    pub kind: &'static str,
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// The rule's position in its set: lower wins when hits overlap.
    pub priority: usize,
}

/// Where a trigger must stand for its rule to run.
#[derive(Debug, Clone, Copy)]
pub enum Gate {
    /// Anywhere.
    Anywhere,
    /// At the start of a line, after nothing but blanks and `> # [ <`.
    LineStart,
    /// Followed (after at most a short identifier tail and a quote) by `=` or `:`, or by a
    /// keyed setting's `value=` (see [`keyed_value_operator`]).
    Assignment,
    /// `://` followed by `user:password@` before any blank or `/` (the user may be empty or
    /// an e-mail address, the password may hold `@`, `#` or `?`).
    UrlCredentials,
    /// A check of the text and the trigger's span, for conditions a rule's pattern imposes
    /// around its trigger that the gates above do not express. It must hold wherever the
    /// pattern can match, so that it only spares the regex texts it could not match.
    Check(fn(&[u8], usize, usize) -> bool),
}

/// Given the text and a trigger's span, the byte range every match holding that trigger lies
/// in; see [`Rule::within`].
pub type Reach = fn(&[u8], usize, usize) -> (usize, usize);

/// One detection rule.
pub struct Rule {
    /// What it detects.
    pub family: Family,
    /// The finding kind it reports.
    pub kind: &'static str,
    /// Keywords (ASCII, matched case-insensitively) of which at least one occurs in any match.
    pub triggers: &'static [&'static str],
    /// Keywords of which one must also occur somewhere in the text; empty for none.
    pub also: &'static [&'static str],
    /// Where a trigger must stand.
    pub gate: Gate,
    /// The regex. When it has capture groups, the first group that took part in a match is
    /// the reported span; otherwise the whole match is.
    pub pattern: &'static str,
    /// An extra check on the reported text and the index of the capture group that supplied
    /// it (0 for the whole match); a match failing it is dropped. Patterns offering a quoted
    /// and an unquoted form of a value use the group index to tell them apart.
    pub accept: fn(&str, usize) -> bool,
    /// Where every match holding a trigger found at `start..end` must lie, as a byte range of
    /// the text, for patterns whose matches cannot reach far from their trigger: the regex
    /// then searches those ranges (merged, with one byte more for look-ahead) instead of the
    /// whole text. `None` searches the whole text.
    pub within: Option<Reach>,
}

fn any(_: &str, _: usize) -> bool {
    true
}

impl Rule {
    /// A rule of `family` reporting `kind` where `pattern` matches, run when one of
    /// `triggers` occurs.
    pub const fn new(
        family: Family,
        kind: &'static str,
        triggers: &'static [&'static str],
        pattern: &'static str,
    ) -> Self {
        Rule {
            family,
            kind,
            triggers,
            also: &[],
            gate: Gate::Anywhere,
            pattern,
            accept: any,
            within: None,
        }
    }

    /// A secret rule; see [`Rule::new`].
    pub const fn secret(
        kind: &'static str,
        triggers: &'static [&'static str],
        pattern: &'static str,
    ) -> Self {
        Rule::new(Family::Secret, kind, triggers, pattern)
    }

    /// An unsafe-content rule; see [`Rule::new`].
    pub const fn unsafe_content(
        kind: &'static str,
        triggers: &'static [&'static str],
        pattern: &'static str,
    ) -> Self {
        Rule::new(Family::Unsafe, kind, triggers, pattern)
    }

    /// Also requires one of `keywords` somewhere in the text.
    pub const fn also(mut self, keywords: &'static [&'static str]) -> Self {
        self.also = keywords;
        self
    }

    /// Requires a trigger to stand where `gate` says.
    pub const fn gate(mut self, gate: Gate) -> Self {
        self.gate = gate;
        self
    }

    /// Searches only the ranges `span` gives around each trigger; see [`Rule::within`].
    pub const fn within(mut self, span: Reach) -> Self {
        self.within = Some(span);
        self
    }

    /// Drops matches whose reported text (with its group index) fails `check`.
    pub const fn accept(mut self, check: fn(&str, usize) -> bool) -> Self {
        self.accept = check;
        self
    }
}

/// What a prefilter keyword means.
#[derive(Clone, Copy)]
enum Keyword {
    Trigger(usize),
    Also(usize),
}

/// Rules with their shared prefilter's keywords.
pub struct RuleSet {
    rules: Vec<(Rule, OnceLock<Regex>)>,
    /// Every rule's triggers and `also` keywords, in rule order.
    keywords: Vec<&'static str>,
    /// What each of `keywords` means.
    meanings: Vec<Keyword>,
    /// An index of `keywords` alone, built on first use by [`RuleSet::find_alone`].
    #[cfg(test)]
    alone: OnceLock<super::literals::Index>,
}

impl RuleSet {
    /// Lists the prefilter's keywords for `rules`; their regexes compile when first needed.
    pub fn new(rules: Vec<Rule>) -> Self {
        let mut keywords = Vec::new();
        let mut meanings = Vec::new();
        let compiled = rules
            .into_iter()
            .enumerate()
            .map(|(i, rule)| {
                for t in rule.triggers {
                    keywords.push(*t);
                    meanings.push(Keyword::Trigger(i));
                }
                for t in rule.also {
                    keywords.push(*t);
                    meanings.push(Keyword::Also(i));
                }
                (rule, OnceLock::new())
            })
            .collect();
        RuleSet {
            rules: compiled,
            keywords,
            meanings,
            #[cfg(test)]
            alone: OnceLock::new(),
        }
    }

    /// The prefilter's keywords (ASCII, letters in either case), for the scanner's literal
    /// index; a keyword listed by two rules is listed twice.
    pub fn keywords(&self) -> &[&'static str] {
        &self.keywords
    }

    /// The regex of rule `i`, compiled on first use. Patterns are compiled without Unicode
    /// (`\s`, `\w`, `\d`, `\b` and case folding are ASCII) and run over bytes: every keyword
    /// and delimiter a rule needs is ASCII, and the ASCII automata compile several times faster,
    /// which matters because a fresh component instance compiles what each call needs.
    ///
    /// Panics if the pattern does not compile: patterns are constants, and a test compiles
    /// them all.
    fn regex(&self, i: usize) -> &Regex {
        let (rule, cell) = &self.rules[i];
        cell.get_or_init(|| {
            RegexBuilder::new(rule.pattern)
                .unicode(false)
                .build()
                .unwrap_or_else(|e| panic!("rule {} does not compile: {e}", rule.kind))
        })
    }

    /// Compiles every rule's regex now, rather than on first use, and runs each once over
    /// [`warm_up_text`], so that the search caches a regex fills as it runs (its lazy DFA's
    /// states and transitions) exist too: a component pre-initialised after this call starts
    /// every fresh instance with them, where each instance that ran a regex otherwise built
    /// them again (about 30% of a fresh instance's scan of a text holding a secret).
    pub fn compile_all(&self) {
        let probe = warm_up_text();
        for i in 0..self.rules.len() {
            self.regex(i).find_iter(&probe).count();
        }
    }

    /// Which rules can match `text`, in rule order, given every occurrence of a [`keywords`]
    /// entry in it. Bit sets keep the cost per call to the keywords found, not the number of
    /// rules.
    /// Rules with [`Rule::within`] also get every trigger found, as (rule, start, end).
    ///
    /// [`keywords`]: RuleSet::keywords
    fn armed(&self, text: &str, keywords: &[Literal]) -> (Vec<usize>, Vec<(usize, usize, usize)>) {
        let words = self.rules.len().div_ceil(64);
        let (mut triggered, mut also) = (vec![0u64; words], vec![0u64; words]);
        let mut found = Vec::new();
        for m in keywords {
            match self.meanings[m.id] {
                Keyword::Trigger(i) => {
                    if self.rules[i].0.within.is_some() {
                        found.push((i, m.start, m.end));
                    }
                    if triggered[i / 64] & (1 << (i % 64)) == 0
                        && gate_passes(self.rules[i].0.gate, text, m.start, m.end)
                    {
                        triggered[i / 64] |= 1 << (i % 64);
                    }
                }
                Keyword::Also(i) => also[i / 64] |= 1 << (i % 64),
            }
        }
        let mut armed = Vec::new();
        for (w, &bits) in triggered.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if also[w] & (1 << (i % 64)) != 0 || self.rules[i].0.also.is_empty() {
                    armed.push(i);
                }
            }
        }
        (armed, found)
    }

    /// [`RuleSet::find`] with the keywords searched on their own (for tests and timing).
    #[cfg(test)]
    pub fn find_alone(&self, text: &str) -> Vec<Hit> {
        self.find(text, &self.keywords_alone(text))
    }

    /// Every occurrence of a keyword in `text`, from an index of the keywords alone.
    #[cfg(test)]
    fn keywords_alone(&self, text: &str) -> Vec<Literal> {
        use super::literals::{Index, lower};
        let index = self.alone.get_or_init(|| Index::new(&[&self.keywords]));
        index.find(&lower(text)).all(0).to_vec()
    }

    /// Every accepted match of every armed rule, in rule order then text order, given every
    /// occurrence of a [`keywords`](RuleSet::keywords) entry in `text`, overlapping ones
    /// included.
    pub fn find(&self, text: &str, keywords: &[Literal]) -> Vec<Hit> {
        let mut hits = Vec::new();
        let original = text.as_bytes();
        let (armed, found) = self.armed(text, keywords);
        for priority in armed {
            let rule = &self.rules[priority].0;
            let regex = self.regex(priority);
            let unglued = self.unglued(priority, original, keywords);
            let bytes: &[u8] = unglued.as_deref().unwrap_or(original);
            // Takes an accepted match; returns where the search goes on. After a rejected
            // match it goes on from the start of the span it reported, not past the match: a
            // value refused as a whole (`otpauth://...?secret=...`) may hold a match of its own.
            let mut take = |caps: regex::bytes::Captures<'_>| -> usize {
                let whole = caps.get(0).expect("group 0 takes part in every match");
                let past = if whole.end() > whole.start() {
                    whole.end()
                } else {
                    whole.end() + 1
                };
                let span = caps
                    .iter()
                    .enumerate()
                    .skip(1)
                    .find_map(|(g, m)| m.map(|m| (g, m)))
                    .or_else(|| caps.get(0).map(|m| (0, m)));
                let Some((group, m)) = span else { return past };
                let (start, end) = char_span(text, m.start(), m.end());
                if start < end && (rule.accept)(&text[start..end], group) {
                    hits.push(Hit {
                        family: rule.family,
                        kind: rule.kind,
                        start,
                        end,
                        priority,
                    });
                    return past;
                }
                // Bounded so a long refused value (a minified line) is not searched again
                // from every name inside it.
                if m.start() > whole.start() && m.end() - m.start() <= RESCAN_BYTES {
                    m.start()
                } else {
                    past
                }
            };
            // Where to search: the whole text, or the ranges around this rule's triggers, in
            // order, merged where they touch.
            let merged = match rule.within {
                None => vec![(0, bytes.len())],
                Some(within) => {
                    let mut ranges: Vec<(usize, usize)> = found
                        .iter()
                        .filter(|f| f.0 == priority)
                        .map(|&(_, s, e)| {
                            let (lo, hi) = within(bytes, s, e);
                            (lo.min(s), (hi.max(e) + 1).min(bytes.len()))
                        })
                        .collect();
                    ranges.sort_unstable();
                    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
                    for (lo, hi) in ranges {
                        match merged.last_mut() {
                            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                            _ => merged.push((lo, hi)),
                        }
                    }
                    merged
                }
            };
            for (lo, hi) in merged {
                // The text before `lo` stays visible to look-behind (`\b`); matches end by `hi`.
                let haystack = &bytes[..hi];
                let mut at = lo;
                while at <= hi {
                    let Some(caps) = regex.captures_at(haystack, at) else {
                        break;
                    };
                    at = take(caps);
                }
            }
        }
        hits
    }
}

impl RuleSet {
    /// `bytes` as secret rule `i` reads them when one of its triggers is glued to a name by an
    /// underscore (`fn_AKIA…`, `x_ghp_…`, `token_sk-proj-…`): that underscore read as a space,
    /// so that the word boundary the rule's pattern opens on holds there, as it does for a
    /// token after a space. A reader sees the token stand apart either way; a name holding
    /// the token is no reason to store it. `None` when nothing is glued (or the rule is no
    /// secret rule opening on a boundary): the text is read as it is. Offsets do not move.
    fn unglued(&self, i: usize, bytes: &[u8], keywords: &[Literal]) -> Option<Vec<u8>> {
        let rule = &self.rules[i].0;
        if rule.family != Family::Secret || !rule.pattern.starts_with(r"\b") {
            return None;
        }
        let glued: Vec<usize> = keywords
            .iter()
            .filter(|m| matches!(self.meanings[m.id], Keyword::Trigger(t) if t == i))
            .filter_map(|m| m.start.checked_sub(1))
            .filter(|&before| bytes[before] == b'_')
            .collect();
        if glued.is_empty() {
            return None;
        }
        let mut unglued = bytes.to_vec();
        for at in glued {
            unglued[at] = b' ';
        }
        Some(unglued)
    }
}

/// Longest refused value searched again for a match of its own (see [`RuleSet::find`]).
const RESCAN_BYTES: usize = 1024;

/// A [`Rule::within`] range for patterns that start at their trigger and run at most 20 bytes
/// (an AWS key id: a 3- or 4-character prefix and 16 more).
pub fn twenty_bytes_from_trigger(_bytes: &[u8], start: usize, _end: usize) -> (usize, usize) {
    (start, start + 20)
}

/// A [`Rule::within`] range for credentials in URLs: a scheme of at most 21 characters before
/// `://`, and nothing after it past the first blank or `/` (the authority).
pub fn url_authority(bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    let stop = bytes[end..]
        .iter()
        .position(|b| is_blank(b) || *b == b'/')
        .map_or(bytes.len(), |i| end + i);
    (start.saturating_sub(21), stop)
}

/// `start..end` widened to the nearest character boundaries of `text` (a byte-level match
/// can begin or end inside a multi-byte character).
fn char_span(text: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// Whether the trigger at `start..end` of `text` stands where `gate` requires.
fn gate_passes(gate: Gate, text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    match gate {
        Gate::Anywhere => true,
        Gate::LineStart => bytes[..start]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b" \t\r>#[<".contains(b)),
        Gate::Assignment => {
            let rest = &bytes[end..];
            let mut i = 0;
            // Identifier tail such as "word" in "password" or "_KEY" in "SECRET_KEY".
            while i < rest.len()
                && i < 24
                && (rest[i].is_ascii_alphanumeric() || b"_.-".contains(&rest[i]))
            {
                i += 1;
            }
            assignment_follows(rest, i, |b| matches!(b, b' ' | b'\t'))
        }
        Gate::UrlCredentials => {
            let authority = bytes[end..]
                .iter()
                .take(512)
                .take_while(|b| !b.is_ascii_whitespace() && **b != b'/');
            let mut colon = false;
            for &b in authority {
                match b {
                    b':' => colon = true,
                    b'@' if colon => return true,
                    _ => {}
                }
            }
            false
        }
        Gate::Check(check) => check(bytes, start, end),
    }
}

/// Whether `b` is what `\s` matches in the rules' ASCII patterns (vertical tab included).
fn is_blank(b: &u8) -> bool {
    b.is_ascii_whitespace() || *b == 0x0b
}

/// A [`Gate::Check`]: the trigger starts a word (nothing or a byte other than an ASCII letter,
/// digit or `_` before it) and is followed by an ASCII blank, as in patterns of the form
/// `\b(?:verb|...)\s+`.
pub fn word_then_blank(bytes: &[u8], start: usize, end: usize) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    !start.checked_sub(1).is_some_and(|i| word(&bytes[i])) && bytes.get(end).is_some_and(is_blank)
}

/// A [`Gate::Check`]: after the trigger come only letters, `_` or `-` joined to a following
/// `key` or `base`, an optional quote, blanks, and `=` or `:`: how a secret-named key ends
/// before its value (`SECRET_KEY =`, `"apiKeyBase":`, `encryptedValue=`), and not
/// `key_id =` or `token_type:`.
pub fn secret_name_then_assignment(bytes: &[u8], _start: usize, end: usize) -> bool {
    let mut i = end;
    loop {
        match bytes.get(i) {
            Some(b) if b.is_ascii_alphabetic() => i += 1,
            Some(b'_' | b'-')
                if [&b"key"[..], b"base"].iter().any(|w| {
                    bytes
                        .get(i + 1..i + 1 + w.len())
                        .is_some_and(|s| s.eq_ignore_ascii_case(w))
                }) =>
            {
                i += 1;
            }
            _ => break,
        }
    }
    assignment_follows(bytes, i, is_blank)
}

/// Whether an assignment follows a key's name that ends at `i`: an optional quote closing the
/// name, then a keyed setting's `value=` (see [`keyed_value_operator`]), or `blank`s and `=`
/// or `:`.
fn assignment_follows(bytes: &[u8], mut i: usize, blank: impl Fn(&u8) -> bool) -> bool {
    if matches!(bytes.get(i), Some(b'"' | b'\'')) {
        i += 1;
        if keyed_value_operator(bytes, i).is_some() {
            return true;
        }
    }
    while bytes.get(i).is_some_and(&blank) {
        i += 1;
    }
    matches!(bytes.get(i), Some(b'=' | b':'))
}

/// Where the value begins in a keyed setting, whose name and value are two attributes or two
/// fields: `<add key="ApiToken" value="...">`, `<property name="db.password" value="..."/>`,
/// `{"name": "API_TOKEN", "value": "..."}`. `at` is just past the quote that closes the
/// name; the answer is just past the `=` or `:` after `value`, or `None` for any other form.
pub fn keyed_value_operator(bytes: &[u8], at: usize) -> Option<usize> {
    let skip_blanks = |mut i: usize| {
        while bytes.get(i).is_some_and(is_blank) {
            i += 1;
        }
        i
    };
    let mut i = skip_blanks(at);
    if bytes.get(i) == Some(&b',') {
        i = skip_blanks(i + 1);
    }
    if matches!(bytes.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    if !bytes
        .get(i..i + 5)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"value"))
    {
        return None;
    }
    i += 5;
    if matches!(bytes.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    i = skip_blanks(i);
    matches!(bytes.get(i), Some(b'=' | b':')).then_some(i + 1)
}

/// A [`Gate::Check`]: the trigger stands at the start of the text or after an ASCII blank,
/// `:`, `"` or `'`, as in patterns of the form `(?:^|[\s:"'])trigger`.
pub fn after_blank_or_quote(bytes: &[u8], start: usize, _end: usize) -> bool {
    start
        .checked_sub(1)
        .is_none_or(|i| is_blank(&bytes[i]) || b":\"'".contains(&bytes[i]))
}

/// A [`Gate::Check`]: the trigger's line, less leading and trailing blanks and tabs, holds no
/// ASCII blank and at least four `:`, as every line of `host:port:database:user:password` does.
pub fn colon_fields_line(bytes: &[u8], start: usize, _end: usize) -> bool {
    // Out from the trigger to the first blank or line end each way; past a blank, only
    // blanks may follow on that side. Prose fails within a word or two.
    let mut colons = 0;
    let mut i = start;
    while i > 0 && bytes[i - 1] != b'\n' && !is_blank(&bytes[i - 1]) {
        colons += usize::from(bytes[i - 1] == b':');
        i -= 1;
    }
    if !bytes[..i]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(is_blank)
    {
        return false;
    }
    let mut j = start;
    while j < bytes.len() && bytes[j] != b'\n' && !is_blank(&bytes[j]) {
        colons += usize::from(bytes[j] == b':');
        j += 1;
    }
    bytes[j..].iter().take_while(|&&b| b != b'\n').all(is_blank) && colons >= 4
}

#[cfg(test)]
impl RuleSet {
    /// Prints the prefilter's cost and each armed rule's regex cost over `texts` (for the
    /// throughput test).
    pub fn profile(&self, texts: &[&str]) {
        use std::time::Instant;
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        let start = Instant::now();
        let mut armed = vec![(0usize, 0f64, 0usize); self.rules.len()];
        for t in texts {
            for i in self.armed(t, &self.keywords_alone(t)).0 {
                armed[i].0 += 1;
            }
        }
        let s = start.elapsed().as_secs_f64();
        eprintln!("  prefilter {:>8.1} MB/s", bytes as f64 / 1e6 / s);
        for t in texts {
            for i in self.armed(t, &self.keywords_alone(t)).0 {
                let start = Instant::now();
                let n = self.regex(i).captures_iter(t.as_bytes()).count();
                armed[i].1 += start.elapsed().as_secs_f64();
                armed[i].2 += n;
            }
        }
        let mut order: Vec<usize> = (0..armed.len()).filter(|&i| armed[i].0 > 0).collect();
        order.sort_by(|&a, &b| armed[b].1.total_cmp(&armed[a].1));
        for i in order.into_iter().take(15) {
            eprintln!(
                "  {:<28} armed {:>4} matches {:>4} {:>8.2} ms/MB",
                self.rules[i].0.kind,
                armed[i].0,
                armed[i].2,
                armed[i].1 * 1e3 / (bytes as f64 / 1e6)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> RuleSet {
        RuleSet::new(vec![
            Rule::secret("word", &["cat"], r"\bcat\b"),
            Rule::secret("value", &["key"], r"key=(\w+)")
                .gate(Gate::Assignment)
                .accept(|v, _| v != "none"),
            Rule::secret("pair", &["send"], r"send \w+ to \w+").also(&["to bob"]),
            Rule::secret("header", &["title"], r"(?m)^#? ?title").gate(Gate::LineStart),
        ])
    }

    fn kinds(s: &RuleSet, text: &str) -> Vec<&'static str> {
        s.find_alone(text).iter().map(|h| h.kind).collect()
    }

    #[test]
    fn rules_compiled_and_warmed_ahead_find_what_rules_compiled_on_first_use_find() {
        let (ahead, on_use) = (set(), set());
        ahead.compile_all();
        for text in [
            "CAT key=abc cat key=none",
            "send mail to bob",
            "title\n# title again",
            "nothing here",
        ] {
            assert_eq!(ahead.find_alone(text), on_use.find_alone(text), "{text}");
        }
    }

    #[test]
    fn untriggered_rules_do_not_run_and_groups_narrow_spans() {
        let s = set();
        assert!(s.find_alone("a dog").is_empty());
        let hits = s.find_alone("CAT key=abc cat key=none");
        assert_eq!(hits.len(), 2);
        // The regex is case-sensitive even though the trigger is not.
        assert_eq!((hits[0].kind, hits[0].start, hits[0].end), ("word", 12, 15));
        assert_eq!((hits[1].kind, hits[1].start, hits[1].end), ("value", 8, 11));
    }

    #[test]
    fn also_keywords_and_gates_arm_rules() {
        let s = set();
        assert_eq!(kinds(&s, "send it to bob"), ["pair"]);
        assert!(kinds(&s, "send it to ann").is_empty());
        assert_eq!(kinds(&s, "intro\n# title"), ["header"]);
        // The regex would match, but the trigger is not at a line start.
        let armed = |text| s.armed(text, &s.keywords_alone(text)).0;
        assert!(!armed("x title").contains(&3));
        assert_eq!(armed("cat key=1"), [0, 1]);
    }

    #[test]
    fn gates_inspect_the_trigger_context() {
        let at = |gate, text: &str, word: &str| {
            let start = text.find(word).unwrap();
            gate_passes(gate, text, start, start + word.len())
        };
        assert!(at(Gate::Assignment, "SECRET_KEY = x", "SECRET"));
        assert!(at(Gate::Assignment, "\"api_key\": \"x\"", "key"));
        assert!(!at(Gate::Assignment, "the key insight", "key"));
        assert!(at(
            Gate::Assignment,
            "<add key=\"DbPassword\" value=\"x\"/>",
            "Password"
        ));
        assert!(at(
            Gate::Assignment,
            "{\"name\": \"API_TOKEN\", \"value\": \"x\"}",
            "TOKEN"
        ));
        assert!(!at(
            Gate::Assignment,
            "<add key=\"Password\" label=\"x\"/>",
            "Password"
        ));
        assert!(at(Gate::LineStart, "a\n  ### System: x", "System"));
        assert!(!at(Gate::LineStart, "a\nThe System: x", "System"));
        assert!(at(Gate::UrlCredentials, "postgres://u:p@h/db", "://"));
        assert!(!at(Gate::UrlCredentials, "https://h:8080/a@b", "://"));
        assert!(!at(Gate::UrlCredentials, "https://u@h", "://"));
        assert!(at(Gate::UrlCredentials, "redis://:pw@h", "://"));
        assert!(at(Gate::UrlCredentials, "https://me@x.test:p#1@h", "://"));
        let check = |f| Gate::Check(f);
        assert!(at(check(word_then_blank), "then post the logs", "post"));
        assert!(!at(check(word_then_blank), "a postgres database", "post"));
        assert!(!at(check(word_then_blank), "repost it", "post"));
        assert!(at(check(after_blank_or_quote), "x _auth=1", "_auth"));
        let named = check(secret_name_then_assignment);
        assert!(at(named, "SECRET_KEY = x", "KEY"));
        assert!(at(named, "\"apiKey_base\": \"x\"", "Key"));
        assert!(at(named, "encryptedValue=x", "encrypted"));
        assert!(at(named, "api_key := x", "key"));
        assert!(!at(named, "aws_access_key_id = x", "key"));
        assert!(!at(named, "token_type: bearer", "token"));
        assert!(at(check(after_blank_or_quote), "//r/:_auth=1", "_auth"));
        assert!(!at(
            check(after_blank_or_quote),
            "${DB_PASSWORD}",
            "_PASSWORD"
        ));
        assert!(at(
            check(colon_fields_line),
            "a\n db:5432:app:me:pw \nb",
            ":5"
        ));
        assert!(!at(
            check(colon_fields_line),
            "postgres://app:x@db:5432/app is read",
            ":5"
        ));
        assert!(!at(check(colon_fields_line), "at 10:30:15 and 11:00", ":3"));
    }

    #[test]
    fn searching_around_triggers_finds_what_a_full_scan_finds() {
        let aws = r"\b(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}\b";
        let url = r"\b[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s:/]*:([^\s/]+)@[A-Za-z0-9_.\[\]-]";
        let windowed = RuleSet::new(vec![
            Rule::secret("aws", &["AKIA", "ASIA", "A3T"], aws).within(twenty_bytes_from_trigger),
            Rule::secret("url", &["://"], url).within(url_authority),
        ]);
        let full = RuleSet::new(vec![
            Rule::secret("aws", &["AKIA", "ASIA", "A3T"], aws),
            Rule::secret("url", &["://"], url),
        ]);
        for text in [
            "key AKIAIOSFODNN7EXAMPLE and ASIAIOSFODNN7EXAMPLF",
            "AKIAIOSFODNN7EXAMPLEXYZ is too long; xAKIAIOSFODNN7EXAMPLE has no boundary",
            "AKIAAKIAIOSFODNN7EXAMP A3TXIOSFODNN7EXAMPLE akiaiosfodnn7example",
            "AKIAIOSFODNN7EXAMPLE",
            "postgres://app:s3cret@db/x and redis://:pw@h mongodb+srv://u:p@c.example.net/d",
            "verylongschemename123456789://u:p@h and x://a b:c@d and https://h/a:b@c",
            "é AKIAIOSFODNN7EXAMPLE ü ftp://me:pässwörd@host",
        ] {
            let spans = |s: &RuleSet| {
                s.find_alone(text)
                    .iter()
                    .map(|h| (h.kind, h.start, h.end))
                    .collect::<Vec<_>>()
            };
            assert_eq!(spans(&windowed), spans(&full), "{text}");
        }
        assert_eq!(windowed.find_alone("AKIAIOSFODNN7EXAMPLE").len(), 1);
    }

    #[test]
    fn spans_widen_to_character_boundaries() {
        let text = "aé€b";
        assert_eq!(char_span(text, 2, 4), (1, 6));
        assert_eq!(char_span(text, 0, 7), (0, 7));
        let s = RuleSet::new(vec![Rule::secret("dot", &["x"], r"x.")]);
        let hits = s.find_alone("xé");
        assert_eq!((hits[0].start, hits[0].end), (0, 3));
    }

    #[test]
    fn word_boundaries_are_ascii() {
        let s = set();
        // "é" is not an ASCII word character, so "écat" has a boundary before "cat".
        assert_eq!(s.find_alone("écat").len(), 1);
    }
}
