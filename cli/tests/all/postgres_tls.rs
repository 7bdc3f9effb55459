//! TLS to PostgreSQL with libpq's `sslmode` and `sslrootcert`, against a cluster that takes
//! only TLS connections with a certificate for `localhost` signed by an authority of its own.

use crate::support;

use support::postgres::TlsCluster;

/// `kenning remember` through `store`: its exit and what it printed.
fn remember(data: &std::path::Path, store: &str, text: &str) -> (bool, String) {
    let out = support::kenning_at(data)
        .arg("--store")
        .arg(store)
        .args(["remember", "--subject", "account:tls", text])
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), printed)
}

#[test]
fn each_sslmode_connects_or_refuses_as_libpq_does_and_says_why() {
    let Some(cluster) = TlsCluster::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let ca = &cluster.ca;
    let at = |host: &str, rest: &str| {
        format!(
            "host={host} port={} user=kenning dbname=postgres {rest}",
            cluster.port
        )
    };
    let url = |rest: &str| {
        format!(
            "postgres://kenning@localhost:{}/postgres?{rest}",
            cluster.port
        )
    };
    let connects = [
        at(
            "localhost",
            &format!("sslmode=verify-full sslrootcert={ca}"),
        ),
        at("127.0.0.1", &format!("sslmode=verify-ca sslrootcert={ca}")),
        at("localhost", "sslmode=require"),
        at("localhost", ""),
        url(&format!("sslmode=verify-full&sslrootcert={ca}")),
    ];
    for (n, store) in connects.iter().enumerate() {
        let (ok, printed) = remember(data, store, &format!("Note {n} written over TLS."));
        assert!(ok, "{store}: {printed}");
    }
    let refused = [
        (at("localhost", "sslmode=disable"), "no encryption"),
        (
            at(
                "127.0.0.1",
                &format!("sslmode=verify-full sslrootcert={ca}"),
            ),
            "not valid for name",
        ),
        (at("localhost", "sslmode=verify-full"), "UnknownIssuer"),
        (
            at(
                "localhost",
                "sslmode=verify-full sslrootcert=/nonexistent/ca.pem",
            ),
            "sslrootcert /nonexistent/ca.pem",
        ),
        (
            at("localhost", "sslmode=verify-everything"),
            "verify-everything",
        ),
    ];
    for (store, why) in refused {
        let (ok, printed) = remember(data, &store, "Never written.");
        assert!(!ok, "{store}: {printed}");
        assert!(
            printed.contains(why),
            "{store}: expected {why:?} in {printed}"
        );
        assert_eq!(printed.lines().count(), 1, "one error line: {printed}");
    }
    // What was acknowledged is there, read back over TLS.
    let out = support::kenning_at(data)
        .arg("--store")
        .arg(&connects[0])
        .args(["recall", "--subject", "account:tls", "written over TLS"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
}
