//! Hostile policies in the sandbox: loops are stopped by fuel, memory hoarding by the cap,
//! panics become traps, lies are refused by the host's checks, and the store is never touched.

use std::time::{Duration, Instant};

use kenning::policy::{Guarded, Policy, SandboxLimits};
use kenning::store::Author;
use kenning::{KenningError, PolicyError, TurnContext};
use kenning_contract::types::{Context, Limits, ScanItem, SubjectKind, Target};
use kenning_e2e::{Workspace, hostile_policy, store_state};

/// A canonical `remember` call: the hostile policy passes arguments through unvalidated.
fn remember_args(text: &str) -> String {
    format!(
        r#"{{"text":"{text}","scope":"global","type":"fact","anchors":[],"tags":[],"categories":[],"confidence":0.8,"image_base":0,"thread":null}}"#
    )
}

fn context(query: &str) -> Context {
    let mut context = Context::at(kenning_e2e::NOW, SubjectKind::Binary);
    context.query = query.to_owned();
    context
}

#[test]
fn an_infinite_loop_is_stopped_by_fuel_with_the_default_limits() {
    let policy = hostile_policy(SandboxLimits::default());
    let started = Instant::now();
    let error = policy
        .select(&context("loop"), &[], &Limits::default())
        .unwrap_err();
    // Fuel bounds the call deterministically; the wall-clock bound only guards the test itself.
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "took {:?}",
        started.elapsed()
    );
    match error {
        PolicyError::OutOfFuel { policy, call, fuel } => {
            assert_eq!(policy, "hostile-fixture");
            assert_eq!(call, "select");
            assert_eq!(fuel, SandboxLimits::default().fuel);
        }
        other => panic!("expected OutOfFuel, got {other}"),
    }
}

#[test]
fn a_call_with_fuel_to_spare_is_stopped_at_its_wall_clock_deadline() {
    let policy = hostile_policy(SandboxLimits {
        fuel: u64::MAX,
        deadline_ms: 200,
        ..SandboxLimits::default()
    });
    let error = policy
        .select(&context("loop"), &[], &Limits::default())
        .unwrap_err();
    match &error {
        PolicyError::Deadline {
            call, deadline_ms, ..
        } => {
            let (call, deadline_ms) = (*call, *deadline_ms);
            assert_eq!(call, "select");
            assert_eq!(deadline_ms, 200);
        }
        ref other => panic!("expected Deadline, got {other}"),
    }
    assert!(error.to_string().contains("deadline of 200 ms"), "{error}");
}

#[test]
fn unbounded_memory_growth_is_stopped_at_the_cap() {
    let limits = SandboxLimits {
        memory_bytes: 32 << 20,
        ..SandboxLimits::default()
    };
    let policy = hostile_policy(limits);
    let error = policy
        .scan(&[ScanItem {
            text: "grow".into(),
            target: Target::Memory,
        }])
        .unwrap_err();
    match &error {
        PolicyError::MemoryCap { call, cap, .. } => {
            assert_eq!(*call, "scan");
            assert_eq!(*cap, 32 << 20);
        }
        other => panic!("expected MemoryCap, got {other}"),
    }
    assert!(
        error
            .to_string()
            .contains("grow its memory past 33554432 bytes"),
        "{error}"
    );
}

#[test]
fn a_panic_becomes_a_trap_and_the_next_call_runs_in_a_fresh_instance() {
    let policy = hostile_policy(SandboxLimits::default());
    let error = policy
        .select(&context("panic"), &[], &Limits::default())
        .unwrap_err();
    assert!(
        matches!(error, PolicyError::Trap { call: "select", .. }),
        "{error}"
    );
    let selection = policy
        .select(&context("fine"), &[], &Limits::default())
        .expect("a fresh instance answers");
    assert!(selection.chosen.is_empty());
}

#[test]
fn lies_are_refused_by_the_host() {
    let policy = Guarded::new(hostile_policy(SandboxLimits::default()));
    let candidates = kenning_e2e::candidates(20);
    let error = policy
        .select(&context("bad-ids"), &candidates, &Limits::default())
        .unwrap_err();
    assert!(error.to_string().contains("not a candidate"), "{error}");
    let error = policy
        .select(&context("over-quota"), &candidates, &Limits::default())
        .unwrap_err();
    assert!(error.to_string().contains("quota"), "{error}");
    let error = policy
        .scan(&[ScanItem {
            text: "changed".into(),
            target: Target::Memory,
        }])
        .unwrap_err();
    assert!(error.to_string().contains("allowed but changed"), "{error}");
}

#[test]
fn a_trapping_policy_leaves_the_store_untouched() {
    let workspace = Workspace::new();
    let good = workspace.service();
    workspace.remember(
        &good,
        Author::Human,
        r#"{"text": "The sample is packed with UPX."}"#,
    );
    workspace.remember(
        &good,
        Author::Agent,
        r#"{"text": "main parses argv", "anchors": [{"kind": "function", "start": 4096, "end": 8192, "name": "main"}]}"#,
    );
    let before = store_state(&workspace.store_path());
    assert_eq!(before.integrity, "ok");

    let hostile = workspace.hostile_service(SandboxLimits {
        fuel: 50_000_000,
        memory_bytes: 32 << 20,
        ..SandboxLimits::default()
    });
    for trigger in ["loop", "grow", "panic"] {
        let error = hostile
            .call(
                &workspace.subject,
                Author::Agent,
                "remember",
                &remember_args(trigger),
            )
            .unwrap_err();
        assert!(
            matches!(error, KenningError::Policy(_)),
            "{trigger}: {error}"
        );
        let turn = TurnContext {
            cursor: Some(5000),
            query: trigger.to_owned(),
            ..TurnContext::default()
        };
        let error = hostile
            .inject(&workspace.subject, &turn, &Limits::default())
            .unwrap_err();
        assert!(
            matches!(error, KenningError::Policy(_)),
            "{trigger}: {error}"
        );
        assert_eq!(
            store_state(&workspace.store_path()),
            before,
            "after {trigger}"
        );
    }
    let turn = TurnContext {
        cursor: Some(5000),
        query: "bad-ids".to_owned(),
        ..TurnContext::default()
    };
    assert!(
        hostile
            .inject(&workspace.subject, &turn, &Limits::default())
            .is_err()
    );
    assert_eq!(store_state(&workspace.store_path()), before);
}

fn scan_count(policy: &kenning::policy::ComponentPolicy) -> String {
    let results = policy
        .scan(&[ScanItem {
            text: "count".into(),
            target: Target::Memory,
        }])
        .unwrap();
    results[0].findings[0].kind.clone()
}

#[test]
fn each_call_gets_a_fresh_instance_unless_a_session_is_asked_for() {
    let mut policy = hostile_policy(SandboxLimits::default());
    assert_eq!(scan_count(&policy), "call-1");
    assert_eq!(
        scan_count(&policy),
        "call-1",
        "no state survives between calls"
    );

    policy.keep_instance_between_calls(true);
    assert_eq!(scan_count(&policy), "call-1");
    assert_eq!(
        scan_count(&policy),
        "call-2",
        "a session shares one instance"
    );
    let error = policy
        .scan(&[ScanItem {
            text: "panic".into(),
            target: Target::Memory,
        }])
        .unwrap_err();
    assert!(matches!(error, PolicyError::Trap { .. }), "{error}");
    assert_eq!(scan_count(&policy), "call-1", "a trap ends the session");
}
