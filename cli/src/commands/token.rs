//! `kenning token create|list|revoke`: the bearer tokens of the HTTP API.

use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use kenning::Result;
use kenning_server::tokens::{Role, TokenStore};

use super::{GlobalOpts, print_json};

/// `kenning token`.
#[derive(Subcommand)]
pub enum TokenCmd {
    /// Make a token and print it, once (only its hash is kept).
    Create(CreateCmd),
    /// List the tokens (ids, roles, subjects; never the tokens themselves).
    List {
        /// Print JSON, one token a line.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a token by id: it is refused from the next request on.
    Revoke {
        /// The token's id, from `kenning token list`.
        id: String,
    },
}

/// `kenning token create`.
#[derive(Args)]
pub struct CreateCmd {
    /// A subject the token reaches (repeatable): profile:NAME, account:NAME, file:PATH, db:PATH.
    #[arg(long = "subject", short, required = true)]
    subjects: Vec<String>,
    /// Who its bearer is: the author of every write made with it.
    #[arg(long, value_enum)]
    role: RoleArg,
}

/// A token's role, as `--role` names it.
#[derive(Clone, Copy, ValueEnum)]
pub enum RoleArg {
    /// The user: writes are NATIVE; may review and change settings.
    Human,
    /// The host's own agent: writes are NATIVE.
    Agent,
    /// An outside client: writes are PENDING until a human accepts them.
    External,
}

impl From<RoleArg> for Role {
    fn from(role: RoleArg) -> Role {
        match role {
            RoleArg::Human => Role::Human,
            RoleArg::Agent => Role::Agent,
            RoleArg::External => Role::External,
        }
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Runs a `token` command.
pub fn run(global: &GlobalOpts, cmd: &TokenCmd) -> Result<ExitCode> {
    let store = TokenStore::open_for(
        &global.data_dir(),
        global.store_key()?.as_ref(),
        global.store_url().as_deref(),
    )?;
    match cmd {
        TokenCmd::Create(create) => {
            let (token, info) = store.create(&create.subjects, create.role.into(), now())?;
            outln!("{token}");
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "kenning: token {} ({}) for {}; it is shown only this once",
                info.id,
                info.role.as_str(),
                info.subjects.join(", ")
            );
        }
        TokenCmd::List { json } => {
            for info in store.list()? {
                if *json {
                    print_json(&info)?;
                } else {
                    let state = info
                        .revoked_at
                        .map_or_else(|| "active".to_owned(), |at| format!("revoked at {at}"));
                    outln!(
                        "{} {} {} ({})",
                        info.id,
                        info.role.as_str(),
                        info.subjects.join(","),
                        state
                    );
                }
            }
        }
        TokenCmd::Revoke { id } => {
            let info = store.revoke(id, now())?;
            outln!("revoked {} ({})", info.id, info.role.as_str());
        }
    }
    Ok(ExitCode::SUCCESS)
}
