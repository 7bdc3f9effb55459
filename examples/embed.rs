//! Embedding kenning in an agent runtime, in one file.
//!
//! The runtime owns the turn loop; kenning owns memory. This example writes two notes the way an
//! agent's tool calls would, then asks for the memory snapshot of a turn and prints it.
//!
//! Run it with `cargo run -p kenning --example embed`.

use kenning::policy::{Guarded, PolicyEngine, SandboxLimits};
use kenning::store::Author;
use kenning::subject::Subject;
use kenning::{Kenning, TurnContext};
use kenning_policy::types::Limits;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data_dir = std::env::temp_dir().join(format!("kenning-embed-{}", std::process::id()));

    // One engine per process; the compiled policy is cached under the data directory.
    let engine = PolicyEngine::new(Some(data_dir.join("cache")))?;
    // The embedded default policy, sandboxed: every call gets fuel and a memory cap, and the
    // guard checks every answer before the host acts on it.
    let policy = Guarded::new(engine.load_default(SandboxLimits::default())?);
    let mut kenning = Kenning::new(&data_dir, Box::new(policy));

    // A chat account's knowledge base: tool calls arrive as JSON, exactly as from a model.
    let account = Subject::parse("account:demo-user")?;
    for args in [
        r#"{"text": "Prefers answers with code first, explanation after.", "type": "preference"}"#,
        r#"{"text": "Is migrating the billing service from Python to Rust this quarter.", "type": "context"}"#,
    ] {
        let answer = kenning.call(&account, Author::Agent, "remember", args)?;
        println!("remember -> {answer}");
    }

    // A turn: the runtime passes what the user is asking about and gets the snapshot to put in
    // the prompt.
    let turn = TurnContext {
        query: "how should I structure the Rust billing code?".into(),
        ..TurnContext::default()
    };
    let injection = kenning.inject(&account, &turn, &Limits::default())?;
    println!("\n{}", injection.selection.snapshot);

    std::fs::remove_dir_all(&data_dir)?;
    Ok(())
}
