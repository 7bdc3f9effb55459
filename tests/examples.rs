//! The example policies of `examples/` pass the conformance kit and run end to end: through the
//! service API (`PolicySource::File`) and through the real `kenning` binary with `--policy`.
//!
//! - `examples/recency-policy` (Rust, only `kenning-contract`): built by `build.rs`;
//! - `examples/js-policy` (JavaScript, componentize-js): built by `examples/js-policy/build.sh`
//!   (npm). Its tests are ignored by default; CI runs them with `--ignored` after the build,
//!   and a missing component fails them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use kenning::policy::{ComponentPolicy, Guarded, Policy, PolicyEngine, SandboxLimits, conformance};
use kenning::store::Author;
use kenning::{KenningError, PolicySource, Service, TurnContext};
use kenning_contract::types::{Context, Limits, SubjectKind};
use kenning_e2e::{NOW, Workspace, policy_cache_dir, policy_engine, postgres};

/// The recency policy component built by `build.rs`.
const RECENCY_POLICY_WASM: &str = env!("RECENCY_POLICY_WASM");

/// The JavaScript policy component `examples/js-policy/build.sh` writes. Its tests are ignored
/// by default (they need npm to build it); run with `--ignored` (CI does, after the build),
/// where a missing component fails them.
fn js_policy() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/js-policy/policy.wasm");
    assert!(
        path.is_file(),
        "{} is missing: run examples/js-policy/build.sh (needs npm) first",
        path.display()
    );
    path
}

/// The fuel a componentize-js policy is checked with. Its JavaScript engine interprets inside
/// the sandbox: taking the kit's hostile inputs (1.6 MB of texts in one scan) costs it more
/// than the default 2 billion units, as the README says.
const JS_FUEL: u64 = 20_000_000_000;

/// The policy at `path`, loaded by `engine` with `fuel` and the default limits otherwise.
fn load_with_fuel(engine: &PolicyEngine, path: &Path, fuel: u64) -> ComponentPolicy {
    let limits = SandboxLimits {
        fuel,
        ..SandboxLimits::default()
    };
    engine.load_file(path, limits).expect("the example loads")
}

/// Runs the kit on the policy at `path`, loaded with `fuel`, and asserts that every check whose
/// outcome does not depend on the machine's load holds.
fn assert_passes_the_kit(path: &Path, fuel: u64) {
    let engine = policy_engine();
    let mut policy = load_with_fuel(&engine, path, fuel);
    // Timed against the sandboxed default, as `kenning policy check` does.
    let reference = engine
        .load_default(SandboxLimits::default())
        .expect("the default policy loads");
    let report = conformance::check(&mut policy, &reference);
    assert!(
        report.failures_independent_of_load().is_empty(),
        "{}: {:#?}",
        report.policy,
        report.checks
    );
}

/// A service over `workspace` with the policy at `path`, whose clock reads `now`.
fn service_at(workspace: &Workspace, path: &Path, now: i64) -> Service {
    workspace
        .builder()
        .policy(PolicySource::File(path.to_owned()))
        .fixed_now(now)
        .build()
        .expect("the example loads")
}

fn remember(workspace: &Workspace, service: &Service, text: &str) -> u64 {
    let args = serde_json::json!({ "text": text }).to_string();
    workspace.remember(service, Author::Agent, &args)
}

fn one_global(query: &str) -> (TurnContext, Limits) {
    let turn = TurnContext {
        query: query.to_owned(),
        ..TurnContext::default()
    };
    let limits = Limits {
        global_quota: 1,
        ..Limits::default()
    };
    (turn, limits)
}

#[test]
fn the_recency_policy_passes_the_conformance_kit() {
    if postgres::opens_no_store("the conformance kit") {
        return;
    }
    assert_passes_the_kit(
        Path::new(RECENCY_POLICY_WASM),
        SandboxLimits::default().fuel,
    );
}

#[test]
fn the_recency_policy_injects_the_newest_memory_where_the_default_injects_the_most_relevant() {
    let workspace = Workspace::new();
    let recency = Path::new(RECENCY_POLICY_WASM);
    let day = 86_400;
    let old = remember(
        &workspace,
        &service_at(&workspace, recency, NOW - 2 * day),
        "The sample is packed with UPX, unpack it before anything else",
    );
    let new = remember(
        &workspace,
        &service_at(&workspace, recency, NOW),
        "The config block sits at the end of the overlay",
    );
    let (turn, limits) = one_global("UPX packed sample");

    let injection = service_at(&workspace, recency, NOW)
        .inject(&workspace.subject, &turn, &limits)
        .unwrap();
    let chosen: Vec<u64> = injection.selection.chosen.iter().map(|c| c.id).collect();
    assert_eq!(chosen, vec![new], "{:?}", injection.selection);
    assert!(
        injection.selection.snapshot.contains("overlay"),
        "{}",
        injection.selection.snapshot
    );

    let default = workspace
        .service()
        .inject(&workspace.subject, &turn, &limits)
        .unwrap();
    let chosen: Vec<u64> = default.selection.chosen.iter().map(|c| c.id).collect();
    assert_eq!(chosen, vec![old], "the default policy ranks by relevance");
}

#[test]
fn the_recency_policy_refuses_a_url_the_default_policy_stores_and_the_store_is_unchanged() {
    let workspace = Workspace::new();
    let recency = service_at(&workspace, Path::new(RECENCY_POLICY_WASM), NOW);
    remember(&workspace, &recency, "The sample is packed with UPX.");
    let before = workspace.state();

    let args = r#"{"text": "the C2 panel is https://panel.example.net/login"}"#;
    let error = recency
        .call(&workspace.subject, Author::Agent, "remember", args)
        .unwrap_err();
    assert!(error.to_string().contains("URL"), "{error}");
    assert!(!matches!(error, KenningError::Policy(_)), "{error}");
    assert_eq!(workspace.state(), before);

    workspace
        .service()
        .call(&workspace.subject, Author::Agent, "remember", args)
        .expect("the default policy has no rule against URLs");
}

#[test]
#[ignore = "needs examples/js-policy/policy.wasm: run examples/js-policy/build.sh (npm)"]
fn the_javascript_policy_passes_the_conformance_kit_with_the_fuel_its_interpreter_needs() {
    if postgres::opens_no_store("the conformance kit") {
        return;
    }
    assert_passes_the_kit(&js_policy(), JS_FUEL);
}

#[test]
#[ignore = "needs examples/js-policy/policy.wasm: run examples/js-policy/build.sh (npm)"]
fn the_javascript_policy_remembers_redacts_and_injects_through_the_service() {
    let path = js_policy();
    let workspace = Workspace::new();
    let service = service_at(&workspace, &path, NOW);
    let plain = remember(&workspace, &service, "The sample is packed with UPX.");
    let secret = remember(
        &workspace,
        &service,
        "the uploader uses key AKIA4HJ2K7LMNPQ5RSTU for S3",
    );
    let (turn, limits) = one_global("UPX");
    let injection = service
        .inject(&workspace.subject, &turn, &Limits::default())
        .unwrap();
    let chosen: Vec<u64> = injection.selection.chosen.iter().map(|c| c.id).collect();
    assert_eq!(chosen.len(), 2, "{:?}", injection.selection);
    let snapshot = &injection.selection.snapshot;
    assert!(
        snapshot.contains("[redacted aws-access-key-id]"),
        "{snapshot}"
    );
    assert!(!snapshot.contains("AKIA4HJ2K7LMNPQ5RSTU"), "{snapshot}");

    let injection = service.inject(&workspace.subject, &turn, &limits).unwrap();
    let chosen: Vec<u64> = injection.selection.chosen.iter().map(|c| c.id).collect();
    assert_eq!(chosen, vec![plain], "relevance to the query ranks first");
    assert_ne!(plain, secret);
}

#[test]
#[ignore = "needs examples/js-policy/policy.wasm: run examples/js-policy/build.sh (npm)"]
fn the_javascript_policy_reads_a_batch_whose_texts_start_with_byte_order_marks() {
    let path = js_policy();
    let policy = Guarded::new(load_with_fuel(&policy_engine(), &path, JS_FUEL));
    // The first text opens the packed buffer with U+FEFF, which a decoder dropping it would
    // lose with the 3 bytes every offset counts; the second opens its own piece with one.
    let mut candidates = kenning_e2e::candidates(3);
    candidates[0].text = "\u{FEFF}The sample is packed with UPX.".to_owned();
    candidates[1].text = "\u{FEFF}The config block sits at the end of the overlay".to_owned();
    candidates[2].text = "The C2 host is decoded at startup".to_owned();
    let selection = policy
        .select(
            &Context::at(NOW, SubjectKind::Binary),
            &candidates,
            &Limits::default(),
        )
        .unwrap();
    // Each line holds its candidate's whole text, the mark written as a space as the policy
    // writes every whitespace character but a space.
    assert_eq!(
        selection.snapshot,
        "## global\n\
         -  The sample is packed with UPX.\n\
         -  The config block sits at the end of the overlay\n\
         - The C2 host is decoded at startup\n",
        "{selection:?}"
    );
}

/// The `kenning` binary the workspace's tests build (beside this test's `deps/` directory).
fn kenning_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let binary = exe
        .parent()
        .and_then(Path::parent)
        .expect("tests run from target/<profile>/deps")
        .join(format!("kenning{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is missing: run `cargo test --workspace`, which builds it for the host's tests",
        binary.display()
    );
    binary
}

fn kenning(data_dir: &Path, args: &[&str]) -> Output {
    let output = kenning_may_fail(data_dir, args);
    assert!(
        output.status.success(),
        "kenning {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn kenning_may_fail(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(kenning_binary())
        .arg("--data-dir")
        .arg(data_dir)
        // One compiled-policy cache for every run, so each policy compiles once.
        .arg("--cache-dir")
        .arg(policy_cache_dir())
        .envs(postgres::store_for(data_dir).map(|store| ("KENNING_STORE", store)))
        .args(args)
        .output()
        .expect("run kenning")
}

/// Runs `kenning policy check` and returns its report, asserting that every check whose outcome
/// does not depend on the load holds, and that the exit status says whether all held.
fn check_with_the_binary(policy: &Path) -> String {
    let workspace = Workspace::new();
    let output = kenning_may_fail(
        &workspace.data_dir(),
        &["policy", "check", policy.to_str().unwrap()],
    );
    let check = String::from_utf8_lossy(&output.stdout).into_owned();
    let failed: Vec<&str> = check
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("FAIL "))
        .map(|l| l.split(':').next().unwrap_or_default())
        .collect();
    assert_eq!(output.status.success(), failed.is_empty(), "{check}");
    assert!(
        failed.iter().all(|name| *name == conformance::TIMING_CHECK),
        "only the timing check may fail, its outcome depending on the load: {check}"
    );
    check
}

/// Remembers, injects and recalls with `kenning --policy`; returns the inject and recall output.
fn use_with_the_binary(policy: &Path) -> (String, String) {
    let workspace = Workspace::new();
    let data = workspace.data_dir();
    let policy = policy.to_str().unwrap();
    let subject = workspace.subject.spec();
    kenning(
        &data,
        &[
            "--policy",
            policy,
            "remember",
            "--subject",
            &subject,
            "The sample is packed with UPX.",
        ],
    );
    let inject = kenning(
        &data,
        &["--policy", policy, "inject", "--subject", &subject],
    );
    let recall = kenning(
        &data,
        &["--policy", policy, "recall", "--subject", &subject, "UPX"],
    );
    (
        String::from_utf8_lossy(&inject.stdout).into_owned(),
        String::from_utf8_lossy(&recall.stdout).into_owned(),
    )
}

#[test]
fn the_kenning_binary_checks_and_uses_the_recency_policy() {
    let path = Path::new(RECENCY_POLICY_WASM);
    let check = check_with_the_binary(path);
    assert!(check.contains("recency 0.1.0"), "{check}");
    let (inject, recall) = use_with_the_binary(path);
    assert!(inject.contains("packed with UPX"), "{inject}");
    assert!(recall.contains("packed with UPX"), "{recall}");
}

#[test]
#[ignore = "needs examples/js-policy/policy.wasm: run examples/js-policy/build.sh (npm)"]
fn the_kenning_binary_uses_the_javascript_policy() {
    // The kit's verdict on it is the in-process test's; the binary's kit is the recency test's.
    let path = js_policy();
    let (inject, recall) = use_with_the_binary(&path);
    assert!(inject.contains("packed with UPX"), "{inject}");
    assert!(recall.contains("packed with UPX"), "{recall}");
}
