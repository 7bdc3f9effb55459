//! The other forms of English irregular verbs, so that a question's "go" meets a memory's
//! "went". Stemming joins regular forms ("paint", "painted", "painting") but never these.
//!
//! A generic list of the commonest irregular verbs (base, past, participle), written from
//! grammar, not from any evaluation data.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

/// Each irregular verb's forms, separated by spaces, base first; a form shared by two verbs
/// (`lay`) belongs to each.
const VERBS: &[&str] = &[
    "arise arose arisen",
    "awake awoke awoken",
    "bear bore born borne",
    "beat beaten",
    "become became",
    "begin began begun",
    "bend bent",
    "bind bound",
    "bite bit bitten",
    "bleed bled",
    "blow blew blown",
    "break broke broken",
    "breed bred",
    "bring brought",
    "build built",
    "burn burnt",
    "buy bought",
    "catch caught",
    "choose chose chosen",
    "cling clung",
    "come came",
    "creep crept",
    "deal dealt",
    "dig dug",
    "draw drew drawn",
    "dream dreamt",
    "drink drank drunk",
    "drive drove driven",
    "eat ate eaten",
    "fall fell fallen",
    "feed fed",
    "feel felt",
    "fight fought",
    "find found",
    "flee fled",
    "fly flew flown",
    "forbid forbade forbidden",
    "forget forgot forgotten",
    "forgive forgave forgiven",
    "freeze froze frozen",
    "get got gotten",
    "give gave given",
    "go went gone",
    "grind ground",
    "grow grew grown",
    "hang hung",
    "hear heard",
    "hide hid hidden",
    "hold held",
    "keep kept",
    "kneel knelt",
    "know knew known",
    "lay laid",
    "lead led",
    "lean leant",
    "leap leapt",
    "learn learnt",
    "leave left",
    "lend lent",
    "lie lay lain",
    "light lit",
    "lose lost",
    "make made",
    "mean meant",
    "meet met",
    "pay paid",
    "ride rode ridden",
    "ring rang rung",
    "rise rose risen",
    "run ran",
    "say said",
    "see saw seen",
    "seek sought",
    "sell sold",
    "send sent",
    "sew sewn",
    "shake shook shaken",
    "shine shone",
    "shoot shot",
    "show shown",
    "shrink shrank shrunk",
    "sing sang sung",
    "sink sank sunk",
    "sit sat",
    "sleep slept",
    "slide slid",
    "speak spoke spoken",
    "speed sped",
    "spend spent",
    "spin spun",
    "spring sprang sprung",
    "stand stood",
    "steal stole stolen",
    "stick stuck",
    "sting stung",
    "stink stank stunk",
    "strike struck",
    "strive strove striven",
    "swear swore sworn",
    "sweep swept",
    "swim swam swum",
    "swing swung",
    "take took taken",
    "teach taught",
    "tear tore torn",
    "tell told",
    "think thought",
    "throw threw thrown",
    "understand understood",
    "wake woke woken",
    "wear wore worn",
    "weave wove woven",
    "weep wept",
    "win won",
    "wind wound",
    "write wrote written",
];

/// Each form of the table, with the other forms of its verbs (of both verbs, for a form two
/// share), in the table's order.
static OTHER_FORMS: LazyLock<HashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    let mut others: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
    for verb in VERBS {
        for form in verb.split(' ') {
            let known = others.entry(form).or_default();
            for other in verb.split(' ') {
                if other != form && !known.contains(&other) {
                    known.push(other);
                }
            }
        }
    }
    others
});

/// The other forms of every irregular verb of which `word` is a form (any case), lowercase,
/// in the table's order; empty for any other word.
pub fn other_forms(word: &str) -> &'static [&'static str] {
    OTHER_FORMS
        .get(word.to_lowercase().as_str())
        .map_or(&[], Vec::as_slice)
}

/// The other forms of the irregular verbs among `terms`, each once, none of them a term
/// itself, sorted.
pub fn of(terms: &[String]) -> Vec<String> {
    let asked: BTreeSet<String> = terms.iter().map(|t| t.to_lowercase()).collect();
    let forms: BTreeSet<&str> = terms
        .iter()
        .flat_map(|t| other_forms(t).iter().copied())
        .filter(|form| !asked.contains(*form))
        .collect();
    forms.into_iter().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_form_brings_its_past_and_participle() {
        assert_eq!(other_forms("go"), ["went", "gone"]);
        assert_eq!(other_forms("Went"), ["go", "gone"]);
    }

    #[test]
    fn a_form_shared_by_two_verbs_brings_both() {
        assert_eq!(other_forms("lay"), ["laid", "lie", "lain"]);
    }

    #[test]
    fn regular_words_have_no_other_forms() {
        assert!(other_forms("paint").is_empty());
        assert!(other_forms("").is_empty());
        assert!(of(&["Caroline".into(), "support".into()]).is_empty());
    }

    #[test]
    fn forms_already_asked_for_are_not_searched_again() {
        assert_eq!(
            of(&["go".into(), "went".into(), "bought".into()]),
            ["buy", "gone"]
        );
    }

    #[test]
    fn every_verb_is_lowercase_and_listed_once() {
        for verb in VERBS {
            assert_eq!(*verb, verb.to_lowercase());
            // The page sorts the forms as JavaScript does, which is Rust's order for ASCII.
            assert!(
                verb.bytes().all(|b| b.is_ascii_lowercase() || b == b' '),
                "{verb}"
            );
            let base = verb.split(' ').next().unwrap();
            assert_eq!(
                VERBS
                    .iter()
                    .filter(|v| v.split(' ').next() == Some(base))
                    .count(),
                1,
                "{base}"
            );
        }
    }
}
