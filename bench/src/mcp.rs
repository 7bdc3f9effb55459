//! `mcp_recall_us`: the round trip of a `recall` tool call through a real MCP client, over
//! stdio, to a spawned `kenning mcp`.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use kenning::KenningError;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};

/// Calls made before timing, so the server has compiled the policy and opened the store.
const WARM_UP_CALLS: usize = 20;

/// The median round trip, in µs, of a `recall` call for each of `queries` (after
/// [`WARM_UP_CALLS`] untimed ones) from an rmcp client to a `kenning mcp` child serving
/// `profile:bench` from `data_dir`.
/// `policy_args` go before the command: `--policy PATH` (none for the default policy) and the
/// sandbox limits.
pub fn recall_round_trip_us(
    data_dir: &Path,
    policy_args: &[OsString],
    queries: &[String],
) -> Result<f64, KenningError> {
    let failed =
        |what: &str, error: String| KenningError::Usage(format!("mcp bench: {what}: {error}"));
    if queries.is_empty() {
        return Err(failed("queries", "none to time".into()));
    }
    let exe = std::env::current_exe().map_err(|e| failed("own executable", e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| failed("runtime", e.to_string()))?;
    runtime.block_on(async {
        let command = tokio::process::Command::new(exe).configure(|c| {
            // The bench's own files, whatever store the caller's environment names.
            c.env_remove("KENNING_STORE");
            c.arg("--data-dir").arg(data_dir).args(policy_args).args([
                "mcp",
                "--subject",
                "profile:bench",
                "--author",
                "agent",
            ]);
        });
        let transport =
            TokioChildProcess::new(command).map_err(|e| failed("spawn", e.to_string()))?;
        let client = ().serve(transport).await.map_err(|e| failed("initialize", e.to_string()))?;
        let mut samples: Vec<Duration> = Vec::with_capacity(queries.len());
        let warm_up = queries.iter().cycle().take(WARM_UP_CALLS);
        for (i, query) in warm_up.chain(queries).enumerate() {
            let mut arguments = serde_json::Map::new();
            arguments.insert("query".into(), query.clone().into());
            arguments.insert("limit".into(), 10.into());
            let started = Instant::now();
            let result = client
                .call_tool(CallToolRequestParams::new("recall").with_arguments(arguments))
                .await
                .map_err(|e| failed("recall", e.to_string()))?;
            let elapsed = started.elapsed();
            if result.is_error == Some(true) {
                return Err(failed("recall", format!("{:?}", result.content)));
            }
            if i >= WARM_UP_CALLS {
                samples.push(elapsed);
            }
        }
        client
            .cancel()
            .await
            .map_err(|e| failed("close", e.to_string()))?;
        samples.sort();
        Ok(samples[samples.len() / 2].as_secs_f64() * 1e6)
    })
}
