//! Embedding kenning in an agent runtime, in one file.
//!
//! The runtime owns the turn loop; kenning owns memory. This example writes two notes the way an
//! agent's tool calls would (once typed, once as raw JSON from a model), then asks for the
//! memory snapshot of a turn and prints it.
//!
//! Run it with `cargo run -p kenning --example embed`.

use kenning::Service;
use kenning::api::{ContextArgs, RememberArgs};
use kenning::store::Author;
use kenning::subject::Subject;
use kenning_policy::types::MemoryKind;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data_dir = std::env::temp_dir().join(format!("kenning-embed-{}", std::process::id()));

    // The embedded default policy, sandboxed: every call gets fuel and a memory cap, and the
    // guard checks every answer before the host acts on it. One service serves every thread.
    let service = Service::builder(&data_dir).build()?;

    // A chat account's knowledge base.
    let account = Subject::parse("account:demo-user")?;
    let typed = service.remember(
        &account,
        Author::Agent,
        &RememberArgs {
            text: "Prefers answers with code first, explanation after.".into(),
            kind: Some(MemoryKind::Preference),
            ..RememberArgs::default()
        },
    )?;
    println!("remember -> {}", serde_json::to_string(&typed)?);
    // Tool calls from a model arrive as JSON: the same path, validated by the policy.
    let raw = service.call(
        &account,
        Author::Agent,
        "remember",
        r#"{"text": "Is migrating the billing service from Python to Rust this quarter.", "type": "context"}"#,
    )?;
    println!("remember -> {raw}");

    // A turn: the runtime passes what the user is asking about and gets the snapshot to put in
    // the prompt, with the reason for every choice.
    let context = service.context(
        &account,
        &ContextArgs {
            query: Some("how should I structure the Rust billing code?".into()),
            ..ContextArgs::default()
        },
    )?;
    println!("\n{}", context.snapshot);

    std::fs::remove_dir_all(&data_dir)?;
    Ok(())
}
