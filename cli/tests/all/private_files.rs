//! Files are private by default: every directory kenning creates is `0700` and every file
//! `0600`, whatever the umask (the data directory, its stores and their logs, the tokens file,
//! migration backups, encrypted and staged copies, the compiled-policy cache, exports), and a
//! refused command creates nothing at all.
//!
//! The commands run under `umask 000`, where anything kenning left to the defaults would come
//! out readable and writable by everyone. (The tests run as root, which reads anything: modes
//! are compared, never access.)

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;

const SUBJECT: &str = "profile:me";

/// `command` run by `sh` under `umask 000`, with its arguments and environment.
fn under_umask_000(command: Command) -> Command {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("umask 000 && exec \"$@\"")
        .arg("sh")
        .arg(command.get_program())
        .args(command.get_args());
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => sh.env(name, value),
            None => sh.env_remove(name),
        };
    }
    sh
}

/// `kenning --data-dir DATA ARGS...` under `umask 000`, with `env` set.
fn kenning(data: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = support::kenning_at(data);
    command.args(args).envs(env.iter().copied());
    under_umask_000(command).output().expect("run kenning")
}

fn succeeded(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o7777
}

/// Every folder and file under `root`, `root` included.
fn everything_under(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_owned()];
    let mut next = 0;
    while next < found.len() {
        let path = found[next].clone();
        next += 1;
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&path)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .collect();
            entries.sort();
            found.extend(entries);
        }
    }
    found
}

/// Every folder under `root` is `0700` and every file `0600`.
fn assert_private(root: &Path) {
    for path in everything_under(root) {
        let expected = if path.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(
            mode(&path),
            expected,
            "{} is {:04o}, not {expected:04o}",
            path.display(),
            mode(&path)
        );
    }
}

#[test]
fn a_new_data_directory_and_everything_commands_write_in_it_are_private_whatever_the_umask() {
    if support::postgres::sqlite_only("looks at the modes of SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("nested/data");
    // The compiled-policy cache in the data directory, where it is by default.
    let mut remember = Command::new(env!("CARGO_BIN_EXE_kenning"));
    remember
        .env_remove("KENNING_KEY")
        .env_remove("KENNING_KEY_FILE")
        .env_remove("KENNING_STORE")
        .env_remove("KENNING_CACHE_DIR")
        .env("KENNING_HOME", &data)
        .args(["remember", "--subject", SUBJECT, "Builds run on Fridays."]);
    succeeded(&under_umask_000(remember).output().unwrap());
    succeeded(&kenning(
        &data,
        &[],
        &["token", "create", "--subject", SUBJECT, "--role", "human"],
    ));
    assert!(data.join("cache").is_dir(), "the policy was cached");
    assert!(data.join("tokens.sqlite").is_file());
    assert_private(&dir.path().join("nested"));

    // Exports written with --output, a file and a profile's folder of files.
    let exported = dir.path().join("me.jsonl");
    succeeded(&kenning(
        &data,
        &[],
        &[
            "export",
            "--subject",
            SUBJECT,
            "--output",
            exported.to_str().unwrap(),
        ],
    ));
    assert_eq!(mode(&exported), 0o600);
    let profile = dir.path().join("profile");
    succeeded(&kenning(
        &data,
        &[],
        &[
            "export",
            "--subject",
            SUBJECT,
            "--format",
            "profile",
            "--output",
            profile.to_str().unwrap(),
        ],
    ));
    assert!(profile.join("daily").is_dir());
    assert_private(&profile);
}

#[test]
fn a_subject_imported_into_a_new_store_is_published_private() {
    if support::postgres::sqlite_only("looks at the modes of SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first");
    succeeded(&kenning(
        &first,
        &[],
        &["remember", "--subject", SUBJECT, "Deploys need a review."],
    ));
    let exported = dir.path().join("me.jsonl");
    succeeded(&kenning(
        &first,
        &[],
        &[
            "export",
            "--subject",
            SUBJECT,
            "--output",
            exported.to_str().unwrap(),
        ],
    ));
    // A new subject is imported into a staged store, linked under its name at the end.
    let second = dir.path().join("second");
    succeeded(&kenning(
        &second,
        &[],
        &["import", exported.to_str().unwrap(), "--subject", SUBJECT],
    ));
    assert!(second.join("profile-me.sqlite").is_file());
    assert_private(&second);
}

#[test]
fn kenning_encrypt_leaves_a_private_store_even_for_a_shared_plaintext_one() {
    if support::postgres::sqlite_only("encrypts a SQLite file in place") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    succeeded(&kenning(
        &data,
        &[],
        &["remember", "--subject", SUBJECT, "Keys rotate monthly."],
    ));
    // A store an older kenning left readable by everyone.
    let store = data.join("profile-me.sqlite");
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o644)).unwrap();
    let key = [("KENNING_KEY", "a passphrase for the encrypted copy")];
    succeeded(&kenning(&data, &key, &["encrypt", "--subject", SUBJECT]));
    assert_eq!(mode(&store), 0o600);
    succeeded(&kenning(
        &data,
        &key,
        &["recall", "--subject", SUBJECT, "keys"],
    ));
    assert_private(&data);
}

#[test]
fn refused_token_and_serve_commands_create_nothing() {
    if support::postgres::opens_no_store("a refused token or serve command") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let refused: [&[&str]; 3] = [
        &[
            "token",
            "create",
            "--subject",
            "nowhere:x",
            "--role",
            "human",
        ],
        &["token", "revoke", "no-such-id"],
        &["serve", "--bind", "0.0.0.0", "--port", "0"],
    ];
    for args in refused {
        let out = kenning(&data, &[], args);
        assert!(!out.status.success(), "{args:?} was refused");
        assert!(
            !data.exists(),
            "{args:?} left {:?} behind",
            everything_under(&data)
        );
    }
    // Refused before its service is built, serve compiles no policy into the data directory's
    // cache (where it goes when no other cache is named).
    let mut serve = Command::new(env!("CARGO_BIN_EXE_kenning"));
    serve
        .env_remove("KENNING_KEY")
        .env_remove("KENNING_KEY_FILE")
        .env_remove("KENNING_STORE")
        .env_remove("KENNING_CACHE_DIR")
        .arg("--data-dir")
        .arg(&data)
        .args(["serve", "--bind", "0.0.0.0", "--port", "0"]);
    assert!(!serve.output().unwrap().status.success());
    assert!(!data.exists(), "serve left {:?}", everything_under(&data));
    // Listing no tokens is no reason to make a tokens file either.
    assert_eq!(succeeded(&kenning(&data, &[], &["token", "list"])), "");
    assert!(
        !data.exists(),
        "token list left {:?}",
        everything_under(&data)
    );
}
