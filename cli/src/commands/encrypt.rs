//! `kenning encrypt`: encrypts existing plaintext stores with the configured key (see
//! [`kenning::encryption`]), each in one atomic replace.

use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::encryption::{self, KEY_FILE_VAR, KEY_VAR};
use kenning::subject::Subject;
use kenning_server::tokens::TOKENS_FILE;

use super::{GlobalOpts, PolicyUse, usage};

/// `kenning encrypt`'s arguments.
#[derive(Args)]
pub struct EncryptCmd {
    /// A subject whose knowledge base to encrypt (repeatable).
    #[arg(long, short)]
    pub subject: Vec<String>,
    /// Encrypt the HTTP API's tokens file (tokens.sqlite) too.
    #[arg(long)]
    pub tokens: bool,
}

/// Encrypts each store named, in order, stopping at the first failure (stores already done
/// stay encrypted; the one that failed is unchanged).
pub fn run(global: &GlobalOpts, cmd: &EncryptCmd) -> Result<ExitCode> {
    if cmd.subject.is_empty() && !cmd.tokens {
        return Err(usage(
            "kenning encrypt needs --subject S (repeatable) or --tokens",
        ));
    }
    let key = global.store_key()?.ok_or_else(|| {
        usage(format!(
            "no key is configured: give --key-file, or set {KEY_FILE_VAR} or {KEY_VAR}"
        ))
    })?;
    if !cmd.subject.is_empty() {
        let service = super::service(global, None, PolicyUse::StoreOnly)?.build()?;
        for spec in &cmd.subject {
            let encrypted = service.encrypt_store(&Subject::parse(spec)?)?;
            outln!("encrypted {}", encrypted.path.display());
            for copy in encrypted.plaintext_copies {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "kenning: {} is a plaintext migration backup of it, left as it was: delete it once you no longer need it",
                    copy.display()
                );
            }
        }
    }
    if cmd.tokens {
        let path = global.data_dir().join(TOKENS_FILE);
        if !path.is_file() {
            return Err(usage(format!(
                "there is no tokens file to encrypt at {}: the first `kenning token create` makes it (encrypted, with the key configured then)",
                path.display()
            )));
        }
        encryption::encrypt_in_place(&path, &key)?;
        outln!("encrypted {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
