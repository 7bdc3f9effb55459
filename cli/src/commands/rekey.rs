//! `kenning rekey`: moves every encrypted store of the data directory from the configured key
//! to a new one (see [`kenning::encryption::rekey`]), each in one atomic replace.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kenning::Result;
use kenning::encryption::StoreKey;
use kenning::encryption::rekey::rekey_data_dir;
use kenning::encryption::{KEY_FILE_VAR, KEY_VAR};

use super::{GlobalOpts, usage};

/// `kenning rekey`'s arguments. The old key is the configured one (`--key-file`,
/// `KENNING_KEY_FILE`, `KENNING_KEY`).
#[derive(Args)]
pub struct RekeyCmd {
    /// The file holding the new key (64 hex digits or a passphrase), readable by its owner
    /// alone. Once this succeeds, configure it in place of the old key.
    #[arg(long, value_name = "PATH")]
    pub new_key_file: PathBuf,
}

/// Re-encrypts the data directory's knowledge bases, their encrypted migration backups and
/// `tokens.sqlite`, printing `rekeyed PATH` as each is done; plaintext files are named on
/// standard error and left as they are.
pub fn run(global: &GlobalOpts, cmd: &RekeyCmd) -> Result<ExitCode> {
    if global.store_url().is_some() {
        return Err(usage(
            "kenning rekey re-encrypts SQLite files; a PostgreSQL store (--store, KENNING_STORE) is encrypted at rest by the database's own means",
        ));
    }
    let old = global.store_key()?.ok_or_else(|| {
        usage(format!(
            "kenning rekey needs the old key and no key is configured: give --key-file, or set {KEY_FILE_VAR} or {KEY_VAR}"
        ))
    })?;
    let new = StoreKey::from_file(&cmd.new_key_file)?;
    let mut said = Ok(());
    let mut moved = 0;
    let outcome = rekey_data_dir(&global.data_dir(), &old, &new, |path, rekeyed| {
        moved += usize::from(rekeyed);
        if said.is_ok() {
            said = if rekeyed {
                super::write_stdout(format_args!("rekeyed {}\n", path.display()))
            } else {
                super::write_stdout(format_args!(
                    "already under the new key: {}\n",
                    path.display()
                ))
            };
        }
    });
    let report = match outcome {
        Ok(report) => report,
        Err(error) => {
            if moved > 0 {
                note(format_args!(
                    "rekey stopped: {moved} file(s) are under the new key already (listed above), the rest still under the old one; run kenning rekey again, with the same keys, to finish"
                ));
            }
            return Err(error);
        }
    };
    said?;
    if report.rekeyed.is_empty() && report.already.is_empty() {
        note(format_args!(
            "no encrypted store in {}: nothing was rekeyed",
            global.data_dir().display()
        ));
    }
    for path in &report.plaintext {
        note(format_args!(
            "{} is plaintext, left as it was: encrypt it with the new key (kenning encrypt), or delete it if it is an old backup",
            path.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// One line on standard error, beside the command's answer.
fn note(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "kenning: {line}");
}
