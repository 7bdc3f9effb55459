//! Encryption at rest end to end, through the real `kenning` program: a store written with a
//! key holds no plaintext (neither the file nor its write-ahead log), reads back with the key,
//! and is refused, untouched, with a wrong key or none; `kenning encrypt` converts a plaintext
//! store; `kenning serve` with a key writes and searches.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};
use support::Server;

use crate::support;

const SUBJECT: &str = "profile:me";
const RAW_KEY: &str = "4f1c9a7e2b8d6035c1e7a9f04d2b6c8e9a1f3e5d7c9b0a2e4f6d8c1b3a5e7f90";
const PLANTED: &[u8] = b"zebracantaloupe";

/// `kenning --data-dir DATA ARGS...` with `env` set and no key in the environment otherwise.
fn kenning(data: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = support::kenning_at(data);
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("run kenning")
}

fn succeeded(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Fails with one line on stderr holding every one of `needles`.
fn one_clear_error(output: &Output, needles: &[&str]) -> String {
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "expected {needle:?} in {stderr}");
    }
    stderr
}

/// Every store file in `data` (knowledge bases, their logs, the tokens file) and its bytes.
/// Every store file of `data` (the stores, their logs and the logs' indexes) and its bytes.
fn store_files(data: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    std::fs::read_dir(data)
        .unwrap()
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file() && path.to_string_lossy().contains(".sqlite"))
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

fn assert_no_plaintext(files: &BTreeMap<PathBuf, Vec<u8>>) {
    assert!(!files.is_empty());
    for (path, bytes) in files {
        assert!(
            !bytes.windows(PLANTED.len()).any(|w| w == PLANTED),
            "{} holds the planted text",
            path.display()
        );
        assert!(
            !bytes.starts_with(b"SQLite format 3") || path.to_string_lossy().ends_with("-shm"),
            "{} is a plaintext database",
            path.display()
        );
    }
}

/// Writes a key file as the README says to: `text`, readable by its owner alone.
fn write_key_file(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    set_mode(path, 0o600);
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn planted_note() -> String {
    format!(
        "The {} build runs on Fridays.",
        std::str::from_utf8(PLANTED).unwrap()
    )
}

#[test]
fn a_store_written_with_a_key_is_unreadable_without_it_and_refuses_a_wrong_key_untouched() {
    if support::postgres::sqlite_only("encrypts SQLite files with SQLCipher") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let key_file = dir.path().join("kenning.key");
    write_key_file(&key_file, &format!("{RAW_KEY}\n"));
    let key_file = key_file.to_str().unwrap();

    let note = planted_note();
    succeeded(&kenning(
        &data,
        &[],
        &[
            "--key-file",
            key_file,
            "remember",
            "--subject",
            SUBJECT,
            &note,
        ],
    ));
    let files = store_files(&data);
    assert_no_plaintext(&files);

    // The key from the environment reads it back.
    let found = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", key_file)],
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    ));
    assert!(found.contains(&note), "{found}");
    let files = store_contents(&data);

    // A wrong key, and no key: one clear error naming the file, and not a byte changed.
    let wrong = kenning(
        &data,
        &[("KENNING_KEY", "not the right passphrase")],
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    );
    let stderr = one_clear_error(&wrong, &["profile-", ".sqlite", "wrong key"]);
    assert!(!stderr.contains("not the right passphrase"));
    let missing = kenning(&data, &[], &["recall", "--subject", SUBJECT, "zebra"]);
    one_clear_error(&missing, &["profile-", ".sqlite", "key missing"]);
    let write_without_key = kenning(&data, &[], &["remember", "--subject", SUBJECT, "another"]);
    one_clear_error(&write_without_key, &["key missing"]);
    assert_eq!(store_contents(&data), files, "nothing was written");

    // Both variables at once are an ambiguity, refused before anything is opened.
    let both = kenning(
        &data,
        &[("KENNING_KEY", "x"), ("KENNING_KEY_FILE", key_file)],
        &["stats", "--subject", SUBJECT],
    );
    one_clear_error(&both, &["only one"]);
}

#[test]
fn kenning_encrypt_converts_a_plaintext_store_in_place() {
    if support::postgres::sqlite_only("encrypts a SQLite file in place") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let note = planted_note();
    succeeded(&kenning(
        &data,
        &[],
        &["remember", "--subject", SUBJECT, &note],
    ));
    let key = [("KENNING_KEY", "a long enough passphrase for the test")];

    // A key for a plaintext store is refused, naming the way out.
    let refused = kenning(&data, &key, &["recall", "--subject", SUBJECT, "zebra"]);
    one_clear_error(&refused, &["not encrypted", "kenning encrypt"]);
    let without_key = kenning(&data, &[], &["encrypt", "--subject", SUBJECT]);
    one_clear_error(&without_key, &["no key"]);

    let out = succeeded(&kenning(&data, &key, &["encrypt", "--subject", SUBJECT]));
    assert!(out.starts_with("encrypted "), "{out}");
    assert_no_plaintext(&store_files(&data));
    let found = succeeded(&kenning(
        &data,
        &key,
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    ));
    assert!(found.contains(&note), "{found}");
    let again = kenning(&data, &key, &["encrypt", "--subject", SUBJECT]);
    one_clear_error(&again, &["already encrypted"]);
}

#[test]
fn kenning_encrypt_names_each_plaintext_migration_backup_it_leaves_on_stderr() {
    if support::postgres::sqlite_only("encrypts a SQLite file and its migration backup") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // A store of schema version 1, migrated (and so backed up) by its first use.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/store-v1.sqlite");
    let store = data.join("account-fixture.sqlite");
    std::fs::copy(&fixture, &store).unwrap();
    succeeded(&kenning(
        &data,
        &[],
        &["stats", "--subject", "account:fixture"],
    ));
    let backup = data.join("account-fixture.sqlite.v1.bak");
    assert!(backup.is_file(), "the migration backed the store up");

    let key = [("KENNING_KEY", "a long enough passphrase for the test")];
    let encrypted = kenning(&data, &key, &["encrypt", "--subject", "account:fixture"]);
    assert_eq!(
        succeeded(&encrypted),
        format!("encrypted {}\n", store.display())
    );
    assert_eq!(
        String::from_utf8_lossy(&encrypted.stderr),
        format!(
            "kenning: {} is a plaintext migration backup of it, left as it was: delete it once \
             you no longer need it\n",
            backup.display()
        )
    );
    let backup_bytes = std::fs::read(&backup).unwrap();
    assert!(
        backup_bytes.starts_with(b"SQLite format 3\0"),
        "the backup is left as it was, plaintext"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kenning_serve_with_a_key_writes_and_searches_an_encrypted_store() {
    if support::postgres::sqlite_only("serves SQLCipher-encrypted SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let key_file = dir.path().join("kenning.key");
    write_key_file(&key_file, "serve passphrase\n");
    let env = [("KENNING_KEY_FILE", key_file.to_str().unwrap())];
    let token = succeeded(&kenning(
        &data,
        &env,
        &["token", "create", "--subject", SUBJECT, "--role", "human"],
    ))
    .trim()
    .to_owned();
    // The tokens file is encrypted with the same key.
    let refused = kenning(&data, &[], &["token", "list"]);
    one_clear_error(&refused, &["tokens.sqlite", "key missing"]);

    let server = Server::start(
        &data,
        &[
            ("KENNING_KEY_FILE", key_file.to_str().unwrap()),
            ("KENNING_LOG", "debug"),
        ],
    );
    let api = format!("{}/v1/subjects/{SUBJECT}", server.base);
    let client = reqwest::Client::new();

    let note = planted_note();
    let created = client
        .post(format!("{api}/memories"))
        .bearer_auth(&token)
        .json(&json!({"content": note, "memory_type": "fact"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201, "{:?}", created.text().await);
    // The server keeps its connection open: the write sits in the write-ahead log, encrypted.
    let files = store_files(&data);
    assert!(
        files.keys().any(|p| p.to_string_lossy().ends_with("-wal")),
        "{:?}",
        files.keys()
    );
    assert_no_plaintext(&files);

    let found: Value = client
        .post(format!("{api}/search"))
        .bearer_auth(&token)
        .json(&json!({"query": "zebracantaloupe"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(found["count"], 1, "{found}");
    assert_eq!(found["memories"][0]["content"], note.as_str(), "{found}");
    let log = server.kill();
    assert_no_plaintext(&store_files(&data));
    assert!(!log.is_empty(), "the server logged its requests");
    assert!(
        !log.contains("serve passphrase"),
        "the key is never logged: {log}"
    );
}

#[test]
fn a_key_file_others_can_read_or_change_is_refused_as_ssh_refuses_a_private_key() {
    if support::postgres::sqlite_only("writes with a key, which encrypts SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let key_file = dir.path().join("kenning.key");
    let key_path = key_file.to_str().unwrap();
    write_key_file(&key_file, RAW_KEY);
    for shared in [0o644, 0o640, 0o604, 0o620] {
        set_mode(&key_file, shared);
        let shown = format!("{shared:04o}");
        let from_option = kenning(
            &data,
            &[],
            &[
                "--key-file",
                key_path,
                "remember",
                "--subject",
                SUBJECT,
                "a note",
            ],
        );
        one_clear_error(&from_option, &[key_path, &shown, "chmod 600"]);
        let from_environment = kenning(
            &data,
            &[("KENNING_KEY_FILE", key_path)],
            &["remember", "--subject", SUBJECT, "a note"],
        );
        one_clear_error(&from_environment, &[key_path, &shown, "chmod 600"]);
        assert!(!data.exists(), "a refused key file creates nothing");
    }
    // The owner's alone, read-only or not, is accepted.
    for private in [0o600, 0o400] {
        set_mode(&key_file, private);
        succeeded(&kenning(
            &data,
            &[],
            &[
                "--key-file",
                key_path,
                "remember",
                "--subject",
                SUBJECT,
                "a note",
            ],
        ));
    }
}

/// A key file holding `text`, `0600`, in `dir`.
fn key_file_in(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    write_key_file(&path, text);
    path.to_str().unwrap().to_owned()
}

#[test]
fn kenning_rekey_moves_every_store_and_the_tokens_file_to_the_new_key() {
    if support::postgres::sqlite_only("re-encrypts SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let old = key_file_in(dir.path(), "old.key", "the old passphrase\n");
    let new = key_file_in(dir.path(), "new.key", RAW_KEY);
    let note = planted_note();
    for subject in [SUBJECT, "account:team"] {
        succeeded(&kenning(
            &data,
            &[("KENNING_KEY_FILE", &old)],
            &["remember", "--subject", subject, &note],
        ));
    }
    succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["token", "create", "--subject", SUBJECT, "--role", "human"],
    ));

    let out = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &new],
    ));
    for file in ["profile-me.sqlite", "account-team.sqlite", "tokens.sqlite"] {
        assert!(
            out.lines()
                .any(|line| line.starts_with("rekeyed ") && line.ends_with(file)),
            "{file} in {out}"
        );
    }
    let files = store_files(&data);
    assert_no_plaintext(&files);
    for path in files.keys() {
        assert_eq!(mode(path), 0o600, "{}", path.display());
    }

    // The old key opens nothing any more; the new one opens everything.
    let stale = kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    );
    one_clear_error(&stale, &["profile-me.sqlite", "wrong key"]);
    for subject in [SUBJECT, "account:team"] {
        let found = succeeded(&kenning(
            &data,
            &[("KENNING_KEY_FILE", &new)],
            &["recall", "--subject", subject, "zebracantaloupe"],
        ));
        assert!(found.contains(&note), "{found}");
    }
    let tokens = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &new)],
        &["token", "list"],
    ));
    assert_eq!(tokens.lines().count(), 1, "{tokens}");

    // Run again (after an interruption, say): what is done already is said and left alone.
    let files = store_contents(&data);
    let again = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &new],
    ));
    assert!(!again.contains("rekeyed "), "{again}");
    assert_eq!(
        again.matches("already under the new key").count(),
        3,
        "{again}"
    );
    assert_eq!(store_contents(&data), files);
}

#[test]
fn kenning_rekey_with_a_key_that_does_not_open_every_store_changes_nothing() {
    if support::postgres::sqlite_only("re-encrypts SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let old = key_file_in(dir.path(), "old.key", "the old passphrase");
    let other = key_file_in(dir.path(), "other.key", "another passphrase altogether");
    let new = key_file_in(dir.path(), "new.key", RAW_KEY);
    succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["remember", "--subject", SUBJECT, &planted_note()],
    ));
    let files = store_contents(&data);

    // A wrong old key.
    let wrong = kenning(
        &data,
        &[("KENNING_KEY", "not the old passphrase")],
        &["rekey", "--new-key-file", &new],
    );
    let stderr = one_clear_error(&wrong, &["profile-me.sqlite", "wrong key"]);
    assert!(!stderr.contains("not the old passphrase"), "{stderr}");
    assert_eq!(store_contents(&data), files, "nothing was changed");

    // One store under a third key: refused before the others are touched.
    succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &other)],
        &["remember", "--subject", "account:team", "another note"],
    ));
    let files = store_contents(&data);
    let mixed = kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &new],
    );
    one_clear_error(&mixed, &["account-team.sqlite", "wrong key"]);
    assert_eq!(store_contents(&data), files, "nothing was changed");
    succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    ));

    // The new key in a file others can read, the same key twice, and no new key at all.
    let shared = key_file_in(dir.path(), "shared.key", "a shared passphrase");
    set_mode(Path::new(&shared), 0o644);
    let refused = kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &shared],
    );
    one_clear_error(&refused, &[&shared, "0644", "chmod 600"]);
    let same = kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &old],
    );
    one_clear_error(&same, &["the same"]);
    let no_old_key = kenning(&data, &[], &["rekey", "--new-key-file", &new]);
    one_clear_error(&no_old_key, &["no key"]);
    assert_eq!(store_contents(&data), files, "nothing was changed");
}

#[test]
fn kenning_rekey_stopped_by_a_store_in_use_leaves_each_under_one_key_and_a_second_run_finishes() {
    use kenning::encryption::{apply, which_key_opens};
    use kenning::store::StoreKey;
    if support::postgres::sqlite_only("re-encrypts SQLite files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let old = key_file_in(dir.path(), "old.key", "the old passphrase");
    let new = key_file_in(dir.path(), "new.key", RAW_KEY);
    for subject in ["account:team", SUBJECT] {
        succeeded(&kenning(
            &data,
            &[("KENNING_KEY_FILE", &old)],
            &["remember", "--subject", subject, &planted_note()],
        ));
    }
    let (old_key, new_key) = (
        StoreKey::from_file(Path::new(&old)).unwrap(),
        StoreKey::from_file(Path::new(&new)).unwrap(),
    );
    // Another process's connection to the second store (in name order), as a server keeps.
    let busy = data.join("profile-me.sqlite");
    let holder = rusqlite::Connection::open(&busy).unwrap();
    apply(&holder, &busy, Some(&old_key)).unwrap();
    holder
        .execute_batch("PRAGMA journal_mode = WAL; SELECT count(*) FROM sqlite_master;")
        .unwrap();

    let stopped = kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &new],
    );
    assert!(!stopped.status.success());
    let out = String::from_utf8_lossy(&stopped.stdout);
    assert!(
        out.contains("rekeyed ") && out.contains("account-team.sqlite"),
        "{out}"
    );
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        stderr.contains("profile-me.sqlite") && stderr.contains("in use"),
        "{stderr}"
    );
    assert!(stderr.contains("run kenning rekey again"), "{stderr}");
    let team = data.join("account-team.sqlite");
    assert!(
        !which_key_opens(&team, &old_key, &new_key).unwrap(),
        "team: the new key"
    );
    assert!(
        which_key_opens(&busy, &old_key, &new_key).unwrap(),
        "me: still the old key"
    );

    drop(holder);
    let finished = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &old)],
        &["rekey", "--new-key-file", &new],
    ));
    assert!(
        finished.contains("already under the new key") && finished.contains("account-team.sqlite"),
        "{finished}"
    );
    assert!(
        finished
            .lines()
            .any(|line| line.starts_with("rekeyed ") && line.ends_with("profile-me.sqlite")),
        "{finished}"
    );
    let found = succeeded(&kenning(
        &data,
        &[("KENNING_KEY_FILE", &new)],
        &["recall", "--subject", SUBJECT, "zebracantaloupe"],
    ));
    assert!(found.contains(&planted_note()), "{found}");
}

/// [`store_files`] but the logs' indexes (`-shm`), which any connection that opens a store
/// writes (its read marks): what must stay the same when a command changes nothing.
fn store_contents(data: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = store_files(data);
    files.retain(|path, _| !path.to_string_lossy().ends_with("-shm"));
    files
}
