//! What the library counts for operators: policy calls, the fuel they spend, traps and scan
//! verdicts, through the [`metrics`] facade. Nothing is kept unless the program installs a
//! recorder (`kenning serve --metrics-bind` does, and serves them in Prometheus' text format);
//! without one each count is a no-op. The names are defined here once, with their help text.

/// Policy calls, by call (`scan`, `select`, ...) and outcome (`ok`, `trap`, `out_of_fuel`,
/// `deadline`, `memory_cap`, `error`).
pub const POLICY_CALLS: &str = "kenning_policy_calls_total";
/// Fuel one policy call spent, by call.
pub const POLICY_FUEL: &str = "kenning_policy_fuel_used";
/// Scanned texts, by the policy's verdict (`allow`, `redact`, `block`).
pub const SCAN_VERDICTS: &str = "kenning_scan_verdicts_total";

/// Every metric this crate records: its name, kind and help text, for the exporter to describe.
pub const DESCRIPTIONS: &[(&str, Kind, &str)] = &[
    (
        POLICY_CALLS,
        Kind::Counter,
        "Policy component calls, by call and outcome (ok, or how it failed).",
    ),
    (
        POLICY_FUEL,
        Kind::Histogram,
        "Fuel (wasmtime instructions) one policy call spent, by call.",
    ),
    (
        SCAN_VERDICTS,
        Kind::Counter,
        "Texts the policy scanned, by verdict (allow, redact, block).",
    ),
];

/// The kind of a metric, for its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Only goes up.
    Counter,
    /// Goes up and down.
    Gauge,
    /// A distribution of values.
    Histogram,
}

/// Describes every metric of [`DESCRIPTIONS`] to the installed recorder.
pub fn describe() {
    for &(name, kind, help) in DESCRIPTIONS {
        match kind {
            Kind::Counter => metrics::describe_counter!(name, help),
            Kind::Gauge => metrics::describe_gauge!(name, help),
            Kind::Histogram => metrics::describe_histogram!(name, help),
        }
    }
}

/// Counts one policy call of `call` that ended as `outcome`, having spent `fuel`.
pub fn policy_call(call: &'static str, outcome: &'static str, fuel: u64) {
    metrics::counter!(POLICY_CALLS, "call" => call, "outcome" => outcome).increment(1);
    metrics::histogram!(POLICY_FUEL, "call" => call).record(fuel as f64);
}

/// Counts one scanned text with `verdict`.
pub fn scan_verdict(verdict: kenning_contract::types::Verdict) {
    use kenning_contract::types::Verdict;
    let verdict = match verdict {
        Verdict::Allow => "allow",
        Verdict::Redact => "redact",
        Verdict::Block => "block",
        Verdict::Hold => "hold",
    };
    metrics::counter!(SCAN_VERDICTS, "verdict" => verdict).increment(1);
}
