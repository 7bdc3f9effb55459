//! The policy's own decisions, natively.

use kenning_contract::Policy;
use kenning_contract::args::Remember;
use kenning_contract::types::Scope;
use kenning_contract::types::{ScanItem, Target, Verdict};
use recency_policy::Recency;

fn scan_one(text: &str) -> kenning_contract::types::ScanResult {
    let item = ScanItem {
        text: text.to_owned(),
        target: Target::Memory,
        author: kenning_contract::args::Author::Agent,
    };
    Recency::scan(&[item]).remove(0)
}

#[test]
fn urls_and_keys_are_blocked_and_plain_notes_allowed() {
    assert_eq!(
        scan_one("the c2 beacons every 60 seconds").verdict,
        Verdict::Allow
    );
    for text in [
        "docs at https://example.com/x",
        "see www.example.org",
        "api_key=sk-live-0123456789abcdefghijklmnop",
        "password = hunter2",
        "key AKIA4HJ2K7LMNPQ5RSTU in the config",
    ] {
        let result = scan_one(text);
        assert_eq!(result.verdict, Verdict::Block, "{text}");
        let f = &result.findings[0];
        assert!(
            text.get(f.start as usize..f.end as usize).is_some(),
            "{text}"
        );
    }
}

#[test]
fn the_agents_short_form_is_filled_in_and_read_strictly() {
    let call = Recency::validate(
        "remember",
        r#"{"text": " x ", "anchors": [{"kind": "address", "address": "0x1010"}], "image_base": 16}"#,
    )
    .unwrap();
    let remember: Remember = serde_json::from_str(&call.args_json).unwrap();
    assert_eq!(remember.text, "x");
    assert_eq!(remember.scope, Scope::Local);
    assert!(Recency::validate("remember", r#"{"text": "x", "colour": "red"}"#).is_err());
}
