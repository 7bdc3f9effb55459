//! Hostile policies in the sandbox: loops are stopped by fuel, memory hoarding by the cap,
//! panics become traps, lies are refused by the host's checks, and the store is never touched.

use std::path::Path;
use std::time::{Duration, Instant};

use kenning::policy::{Guarded, NativePolicy, Policy, PolicyEngine, SandboxLimits, conformance};
use kenning::store::Author;
use kenning::{KenningError, PolicyError, TurnContext};
use kenning_contract::types::{Context, Limits, ScanItem, SubjectKind, Target};
use kenning_e2e::{HOSTILE_DESCRIBE_TRAP_WASM, HOSTILE_WASI_WASM, Workspace, hostile_policy};

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
            author: Author::Agent,
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
            author: Author::Agent,
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
    let before = workspace.state();
    assert_eq!(before.integrity, "ok");

    let hostile = workspace.hostile_service(SandboxLimits {
        fuel: 50_000_000,
        memory_bytes: 32 << 20,
        ..SandboxLimits::default()
    });
    for trigger in ["loop", "grow", "panic", "recurse"] {
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
        assert_eq!(workspace.state(), before, "after {trigger}");
    }
    for lie in ["bad-ids", "million-ids", "huge-snapshot"] {
        let turn = TurnContext {
            cursor: Some(5000),
            query: lie.to_owned(),
            ..TurnContext::default()
        };
        let error = hostile
            .inject(&workspace.subject, &turn, &Limits::default())
            .unwrap_err();
        // Under this 32 MiB cap the lies too big to build stop at the cap; the rest the
        // guard refuses.
        let refused_as_told = match (lie, &error) {
            ("bad-ids", KenningError::Policy(PolicyError::BadAnswer { call, problem, .. })) => {
                *call == "select" && problem == "chose id 999999 which was not a candidate"
            }
            (
                "million-ids" | "huge-snapshot",
                KenningError::Policy(PolicyError::MemoryCap { call, cap, .. }),
            ) => *call == "select" && *cap == 32 << 20,
            _ => false,
        };
        assert!(refused_as_told, "{lie}: {error}");
        assert_eq!(workspace.state(), before, "after {lie}");
    }
}

fn scan_count(policy: &kenning::policy::ComponentPolicy) -> String {
    let results = policy
        .scan(&[ScanItem {
            text: "count".into(),
            target: Target::Memory,
            author: Author::Agent,
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
            author: Author::Agent,
        }])
        .unwrap_err();
    assert!(matches!(error, PolicyError::Trap { .. }), "{error}");
    assert_eq!(scan_count(&policy), "call-1", "a trap ends the session");
}

#[test]
fn a_session_keeps_an_instance_for_each_thread_calling_at_once() {
    let mut policy = hostile_policy(SandboxLimits::default());
    policy.keep_instance_between_calls(true);
    let policy = &policy;
    let answers: Vec<String> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(move || (0..1_000).map(|_| scan_count(policy)).collect::<Vec<_>>())
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap())
            .collect()
    });
    let fresh = answers.iter().filter(|a| *a == "call-1").count();
    assert!(
        (1..=2).contains(&fresh),
        "two threads need at most two instances, each kept between its calls; {fresh} were made"
    );
}

#[test]
fn unbounded_recursion_overflows_the_stack_into_a_trap_and_the_next_call_runs_fresh() {
    let policy = hostile_policy(SandboxLimits::default());
    let error = policy
        .select(&context("recurse"), &[], &Limits::default())
        .unwrap_err();
    match &error {
        PolicyError::Trap { call, trap, .. } => {
            assert_eq!(*call, "select");
            assert!(trap.contains("stack"), "{trap}");
        }
        other => panic!("expected a stack overflow trap, got {other}"),
    }
    let selection = policy
        .select(&context("fine"), &[], &Limits::default())
        .expect("a fresh instance answers");
    assert!(selection.chosen.is_empty());
}

#[test]
fn a_million_chosen_ids_are_refused_by_the_guard() {
    let policy = Guarded::new(hostile_policy(SandboxLimits::default()));
    let error = policy
        .select(
            &context("million-ids"),
            &kenning_e2e::candidates(20),
            &Limits::default(),
        )
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("chose id 21 which was not a candidate"),
        "{error}"
    );
}

#[test]
fn a_gigantic_snapshot_is_refused_by_the_guard() {
    let policy = Guarded::new(hostile_policy(SandboxLimits::default()));
    let error = policy
        .select(
            &context("huge-snapshot"),
            &kenning_e2e::candidates(3),
            &Limits::default(),
        )
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("snapshot is 67108864 bytes; the limit is 8192"),
        "{error}"
    );
}

/// Fuel no bound at all: the user raised it (`--fuel`), so only the wall clock can stop the
/// 20 billion steps of `slow`.
const FUEL_NO_OBJECT: u64 = 1 << 62;

#[test]
fn slow_but_terminating_work_is_stopped_by_the_wall_clock_deadline_when_fuel_allows_it() {
    let policy = hostile_policy(SandboxLimits {
        fuel: FUEL_NO_OBJECT,
        ..SandboxLimits::default()
    });
    let started = Instant::now();
    let error = policy
        .select(&context("slow"), &[], &Limits::default())
        .expect_err("the deadline stops the call");
    assert!(error.to_string().contains("deadline"), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    policy
        .select(&context("fine"), &[], &Limits::default())
        .expect("a fresh instance answers");
}

#[test]
fn slow_work_ends_on_its_own_when_it_is_short() {
    let policy = hostile_policy(SandboxLimits::default());
    policy
        .select(&context("slow:1000000"), &[], &Limits::default())
        .expect("a million steps fit the default fuel");
    let error = policy
        .select(&context("slow"), &[], &Limits::default())
        .unwrap_err();
    assert!(
        matches!(error, PolicyError::OutOfFuel { .. }),
        "with the default fuel, fuel ends it first: {error}"
    );
}

#[test]
fn an_answer_that_changes_between_identical_calls_in_a_kept_instance_fails_the_kit() {
    let mut policy = hostile_policy(SandboxLimits::default());
    let report = conformance::check(&mut policy, &NativePolicy::new());
    let outcome = |name: &str| {
        report
            .checks
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no check {name:?} in {report:?}"))
    };
    assert!(outcome("answers are deterministic in fresh instances").passed);
    let kept = outcome("answers are deterministic in a kept instance");
    assert!(!kept.passed, "{kept:?}");
    assert!(
        kept.detail.contains("differs between two identical calls"),
        "{kept:?}"
    );
    assert!(!report.passed());
}

#[test]
fn a_component_importing_wasi_is_refused_at_load_naming_the_import() {
    let engine = PolicyEngine::new(None).unwrap();
    let error = engine
        .load_file(Path::new(HOSTILE_WASI_WASM), SandboxLimits::default())
        .unwrap_err();
    match &error {
        PolicyError::Imports { imports, .. } => {
            assert!(
                imports
                    .iter()
                    .any(|i| i.starts_with("wasi:clocks/wall-clock@")),
                "{imports:?}"
            );
        }
        other => panic!("expected the imports to be refused, got {other}"),
    }
    assert!(error.to_string().contains("wasi:"), "{error}");
}

#[test]
fn a_trap_inside_describe_refuses_the_component_at_load() {
    let engine = PolicyEngine::new(None).unwrap();
    let error = engine
        .load_file(
            Path::new(HOSTILE_DESCRIBE_TRAP_WASM),
            SandboxLimits::default(),
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            PolicyError::Trap {
                call: "describe",
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn components_refused_at_load_leave_the_store_untouched() {
    let workspace = Workspace::new();
    workspace.remember(
        &workspace.service(),
        Author::Human,
        r#"{"text": "The sample is packed with UPX."}"#,
    );
    let before = workspace.state();
    for wasm in [HOSTILE_WASI_WASM, HOSTILE_DESCRIBE_TRAP_WASM] {
        let built = workspace
            .builder()
            .policy(kenning::PolicySource::File(wasm.into()))
            .build();
        let error = built.err().unwrap_or_else(|| panic!("{wasm} loaded"));
        assert!(matches!(error, KenningError::Policy(_)), "{wasm}: {error}");
        assert_eq!(workspace.state(), before, "{wasm}");
    }
}
