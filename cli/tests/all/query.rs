//! Read-only SQL (`query`) from outside: the documented example queries answer correctly
//! through every door (the library, `kenning query`, the HTTP API over a socket, an MCP client
//! over stdio), and every hostile query is refused or bounded with one clear error, changing
//! nothing. The PostgreSQL pass (`scripts/test-on-postgres.sh`) runs the same tests there; the
//! tests named `on_postgres_...` run on a PostgreSQL database of their own in every pass.

use std::path::Path;
use std::time::{Duration, Instant};

use kenning::api::{AnchorArg, ForgetMemoryArgs, RememberArgs};
use kenning::query::QueryArgs;
use kenning::store::Author;
use kenning::subject::Subject;
use kenning::{KenningError, Service};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::support;
use crate::support::library;

const SUBJECT: &str = "profile:analyst";

/// The seconds in a day.
const DAY: i64 = 86_400;

fn wall_clock() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn note(text: &str) -> RememberArgs {
    RememberArgs {
        text: text.to_owned(),
        ..RememberArgs::default()
    }
}

/// A note about function `name` at `start`.
fn about(name: &str, start: u64, text: &str, tags: &[&str]) -> RememberArgs {
    RememberArgs {
        anchors: Some(vec![AnchorArg::Function {
            name: name.to_owned(),
            start: start.into(),
            end: Some((start + 0x80).into()),
        }]),
        tags: Some(tags.iter().map(|t| (*t).to_owned()).collect()),
        ..note(text)
    }
}

/// The knowledge base the examples ask about: a triage pass's notes on three functions (four
/// on one of them), an analyst's older notes, an external client's proposal awaiting review,
/// a string anchor, and a forgotten note.
fn seed(data: &Path) {
    let subject = Subject::parse(SUBJECT).unwrap();
    let old = library(data, Some(wall_clock() - 30 * DAY));
    old.remember(
        &subject,
        Author::Human,
        &about(
            "parse_header",
            0x1000,
            "parse_header trusts the length field.",
            &["parser"],
        ),
    )
    .unwrap();
    let packed = RememberArgs {
        categories: Some(vec!["packing".into()]),
        ..note("The sample is packed with a custom packer.")
    };
    old.remember(&subject, Author::Human, &packed).unwrap();
    let now = library(data, None);
    for (i, text) in [
        "decrypt_config xors each byte with 0x5a.",
        "decrypt_config reads the key from the resource section.",
        "decrypt_config is called once from main.",
        "decrypt_config returns the config length.",
    ]
    .iter()
    .enumerate()
    {
        let tags: &[&str] = if i == 0 {
            &["crypto", "config"]
        } else {
            &["crypto"]
        };
        now.remember(
            &subject,
            Author::Triage,
            &about("decrypt_config", 0x2000, text, tags),
        )
        .unwrap();
    }
    now.remember(
        &subject,
        Author::Triage,
        &about(
            "send_beacon",
            0x3000,
            "send_beacon posts to /gate.php every minute.",
            &["network"],
        ),
    )
    .unwrap();
    let string = RememberArgs {
        anchors: Some(vec![AnchorArg::String {
            value: "/gate.php".into(),
        }]),
        ..note("The /gate.php path is the command-and-control endpoint.")
    };
    now.remember(&subject, Author::Agent, &string).unwrap();
    now.remember(
        &subject,
        Author::External,
        &note("The packer is UPX (an external guess)."),
    )
    .unwrap();
    now.set_setting(&subject, None, "max_memories", "5000")
        .unwrap();
    let gone = now
        .remember(
            &subject,
            Author::Human,
            &note("forgottenword: a wrong note."),
        )
        .unwrap();
    now.forget_memory(
        &subject,
        Author::Human,
        &ForgetMemoryArgs {
            id: gone.id,
            ..ForgetMemoryArgs::default()
        },
    )
    .unwrap();
}

/// The documented example queries (docs/query.md) and what each answers over [`seed`]'s
/// knowledge base, read as a human.
fn examples() -> Vec<(&'static str, Value)> {
    vec![
        (
            "SELECT a.name, count(*) AS notes FROM anchors a JOIN memories m ON m.id = a.memory_id \
             WHERE a.kind = 'function' AND m.author = 'triage' \
             GROUP BY a.name HAVING count(*) > 3 ORDER BY notes DESC, a.name",
            json!({"columns": ["name", "notes"], "rows": [["decrypt_config", 4]]}),
        ),
        (
            "SELECT m.author, count(*) AS learned FROM memories m, clock c \
             WHERE m.created_at >= c.now - 7 * 86400 GROUP BY m.author ORDER BY m.author",
            json!({"columns": ["author", "learned"],
                   "rows": [["agent", 1], ["external", 1], ["triage", 5]]}),
        ),
        (
            "SELECT t.tag, count(*) AS memories FROM tags t GROUP BY t.tag \
             ORDER BY memories DESC, t.tag LIMIT 3",
            json!({"columns": ["tag", "memories"],
                   "rows": [["crypto", 4], ["config", 1], ["network", 1]]}),
        ),
        (
            "SELECT badge, text FROM memories WHERE badge IN ('pending', 'inbound_pending') ORDER BY id",
            json!({"columns": ["badge", "text"],
                   "rows": [["pending", "The packer is UPX (an external guess)."]]}),
        ),
        (
            "SELECT a.value, m.author FROM anchors a JOIN memories m ON m.id = a.memory_id \
             WHERE a.kind = 'string'",
            json!({"columns": ["value", "author"], "rows": [["/gate.php", "agent"]]}),
        ),
        (
            "SELECT count(*) AS forgotten FROM memories WHERE text LIKE '%forgottenword%'",
            json!({"columns": ["forgotten"], "rows": [[0]]}),
        ),
    ]
}

/// Every `sql` block of the README and docs/query.md, in order.
fn documented_sql() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for page in ["README.md", "docs/query.md"] {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line.trim() == "```sql" {
                let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
                found.push(block.join(" ").trim().to_owned());
            }
        }
    }
    found
}

/// A bearer token for [`SUBJECT`] with `role`.
fn token(data: &Path, role: &str) -> String {
    let made = support::kenning(
        data,
        &["token", "create", "--role", role, "--subject", SUBJECT],
        None,
    );
    String::from_utf8(made.stdout).unwrap().trim().to_owned()
}

/// Sends `body` (a GET when none) to `url` with `token` over a real socket; the status and
/// the JSON answer.
fn send(url: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        let request = match body {
            Some(body) => client.post(url).json(body),
            None => client.get(url),
        };
        let response = request.bearer_auth(token).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    })
}

/// The columns and rows of an answer, for comparing with an example's.
fn shape(answer: &Value) -> Value {
    json!({"columns": answer["columns"], "rows": answer["rows"]})
}

#[test]
fn the_example_queries_answer_the_same_through_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let subject = Subject::parse(SUBJECT).unwrap();

    // The examples here are the documentation's, each with the answer it must give.
    let documented = documented_sql();
    let known: Vec<String> = examples()
        .iter()
        .map(|(sql, _)| sql.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(documented.len() >= 5, "{documented:?}");
    for sql in &documented {
        let sql = sql.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            known.contains(&sql),
            "a documented query has no expected answer here: {sql}"
        );
    }

    let service = library(&data, None);
    for (sql, expected) in examples() {
        let answer = ask(&service, &subject, Author::Human, sql, None)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        assert_eq!(
            shape(&serde_json::to_value(&answer).unwrap()),
            expected,
            "library: {sql}"
        );
    }

    for (sql, expected) in examples() {
        let out = support::kenning(&data, &["query", "--subject", SUBJECT, "--json", sql], None);
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(shape(&answer), expected, "kenning query: {sql}");
    }

    let token = token(&data, "human");
    let server = support::Server::start(&data, &[]);
    for (sql, expected) in examples() {
        let url = server.url(&format!("/v1/subjects/{SUBJECT}/query"));
        let (status, answer) = send(&url, &token, Some(&json!({"sql": sql})));
        assert_eq!(status, 200, "{sql}: {answer}");
        assert_eq!(shape(&answer), expected, "HTTP: {sql}");
    }
    let url = server.url(&format!("/v1/subjects/{SUBJECT}/query/schema"));
    let (status, schema) = send(&url, &token, None);
    assert_eq!(status, 200);
    assert_eq!(schema["version"], kenning::query::SCHEMA_VERSION);
    drop(server);

    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut command = support::kenning_at(&data);
        command.args(["mcp", "--subject", SUBJECT, "--author", "human"]);
        let mcp =
            ().serve(TokioChildProcess::new(tokio::process::Command::from(command)).unwrap())
                .await
                .unwrap();
        for (sql, expected) in examples() {
            let Value::Object(args) = json!({"sql": sql}) else {
                unreachable!()
            };
            let result = mcp
                .call_tool(CallToolRequestParams::new("query").with_arguments(args))
                .await
                .unwrap();
            assert_ne!(result.is_error, Some(true), "{sql}: {result:?}");
            assert_eq!(
                shape(&result.structured_content.unwrap()),
                expected,
                "MCP: {sql}"
            );
        }
        mcp.cancel().await.unwrap();
    });
}

#[test]
fn a_caller_who_is_no_human_reads_neither_what_awaits_review_nor_what_was_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let subject = Subject::parse(SUBJECT).unwrap();
    let service = library(&data, None);
    let sql = "SELECT text FROM memories WHERE text LIKE '%UPX%' OR text LIKE '%forgottenword%'";
    for (reader, expected) in [
        (Author::Human, 1),
        (Author::Agent, 0),
        (Author::Triage, 0),
        (Author::External, 0),
        (Author::Peer, 0),
    ] {
        let answer = ask(&service, &subject, reader, sql, None).unwrap();
        assert_eq!(answer.row_count, expected, "{reader:?}: {:?}", answer.rows);
    }
    // Their tags and categories are not reachable either, nor their anchors.
    let answer = service
        .query(
            &subject,
            Author::External,
            &QueryArgs {
                sql: "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM tags), \
                      (SELECT count(DISTINCT memory_id) FROM anchors)"
                    .into(),
                max_rows: None,
            },
        )
        .unwrap();
    // Three columns of one name (count) are three values.
    assert_eq!(answer.rows, vec![vec![json!(8), json!(7), json!(7)]]);
}

/// Every hostile query of the documentation, each refused or stopped with one error that
/// names the problem, within a few seconds, and the store unchanged after all of them.
fn hostile() -> Vec<&'static str> {
    vec![
        "DELETE FROM memories",
        "UPDATE memories SET text = 'x'",
        "INSERT INTO memories (text) VALUES ('x')",
        "DROP TABLE memories",
        "REPLACE INTO memories (id, text) VALUES (1, 'x')",
        "INSERT INTO memories SELECT * FROM memories",
        "WITH gone AS (DELETE FROM memories RETURNING id) SELECT * FROM gone",
        "ALTER TABLE memories ADD COLUMN x INTEGER",
        "CREATE INDEX i ON memories (text)",
        "TRUNCATE memories",
        "SELECT * INTO copied FROM memories",
        "COPY memories TO '/tmp/kenning-query-copy.txt'",
        "REINDEX",
        "ANALYZE",
        "SAVEPOINT s",
        "DETACH DATABASE main",
        "CREATE TABLE t (x)",
        "CREATE TEMP VIEW v AS SELECT 1",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA table_info(memories)",
        "ATTACH DATABASE '/tmp/kenning-query-attach.db' AS other",
        "VACUUM INTO '/tmp/kenning-query-vacuum.db'",
        "SELECT * FROM main.memories",
        "SELECT * FROM public.memories",
        "SELECT * FROM memories_fts",
        "SELECT * FROM sqlite_master",
        "SELECT * FROM query_grants",
        "SELECT * FROM public.query_grants",
        "SELECT * FROM meta",
        "SELECT load_extension('/tmp/x')",
        "SELECT readfile('/etc/passwd')",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT set_config('role', 'kenning', false)",
        "SELECT query_to_xml('SELECT * FROM public.memories', true, false, '')",
        "SELECT 1; DELETE FROM memories",
        "BEGIN",
        "SELECT * FROM memories FOR UPDATE",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
        "SELECT count(*) FROM memories a, memories b, memories c, memories d, memories e, \
         memories f, memories g, memories h, memories i, memories j",
        "SELECT pg_sleep(60)",
        "SELECT upper(",
    ]
}

#[test]
fn every_hostile_query_is_refused_or_bounded_with_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let subject = Subject::parse(SUBJECT).unwrap();
    let service = library(&data, None);
    let before = support::kenning(&data, &["export", "--subject", SUBJECT], None).stdout;
    for sql in hostile() {
        let started = Instant::now();
        let answer = ask(&service, &subject, Author::Human, sql, None);
        let took = started.elapsed();
        match answer {
            Err(KenningError::Query { problem }) => {
                let message = problem.to_string();
                assert!(
                    !message.is_empty() && !message.contains('\n'),
                    "{sql}: {message:?}"
                );
            }
            other => panic!("{sql}: {other:?}"),
        }
        assert!(took < Duration::from_secs(10), "{sql} took {took:?}");
    }
    for file in [
        "/tmp/kenning-query-attach.db",
        "/tmp/kenning-query-vacuum.db",
        "/tmp/kenning-query-copy.txt",
    ] {
        assert!(!Path::new(file).exists(), "{file} was made");
    }
    let after = support::kenning(&data, &["export", "--subject", SUBJECT], None).stdout;
    // Every record the same (the header says when the export was made).
    let records = |export: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(export)
            .lines()
            .skip(1)
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(records(&before).len(), 9);
    assert_eq!(records(&before), records(&after));
}

#[test]
fn a_refused_query_is_one_error_naming_sql_at_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let out = support::kenning(
        &data,
        &["query", "--subject", SUBJECT, "DELETE FROM memories"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.starts_with("kenning: error: query: "), "{said}");

    let token = token(&data, "agent");
    let server = support::Server::start(&data, &[]);
    for (body, status, code, path) in [
        (
            json!({"sql": "DELETE FROM memories"}),
            422,
            "query_refused",
            "sql",
        ),
        (
            json!({"sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"}),
            422,
            "query_budget",
            "sql",
        ),
        (
            json!({"sql": "SELECT 1", "max_rows": 0}),
            422,
            "invalid",
            "max_rows",
        ),
        (
            json!({"sql": "SELECT 1", "limit": 5}),
            400,
            "invalid",
            "limit",
        ),
        (json!({"sql": "x".repeat(20_000)}), 413, "too_large", "sql"),
    ] {
        let url = server.url(&format!("/v1/subjects/{SUBJECT}/query"));
        let (got, answer) = send(&url, &token, Some(&body));
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["error"]["path"], path, "{body}: {answer}");
        if code != "invalid" {
            assert_eq!(answer["error"]["code"], code, "{body}: {answer}");
        }
    }
}

#[test]
fn an_answer_says_when_max_rows_or_the_size_bound_cut_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let subject = Subject::parse(SUBJECT).unwrap();
    let service = library(&data, None);
    let human =
        |sql: &str, max_rows| ask(&service, &subject, Author::Human, sql, max_rows).unwrap();
    let cut = human("SELECT id FROM memories ORDER BY id", Some(3));
    assert_eq!(cut.row_count, 3);
    assert_eq!(cut.truncated, Some(kenning::query::Truncation::Rows));
    let whole = human("SELECT id FROM memories ORDER BY id", Some(1000));
    assert_eq!((whole.row_count, whole.truncated), (9, None));
    // Nine texts, each sixty times a memory's text, are more than the answer's 16,000 bytes
    // hold.
    let big = human(
        &format!("SELECT id, {} FROM memories", vec!["text"; 60].join(" || ")),
        Some(1000),
    );
    assert_eq!(big.truncated, Some(kenning::query::Truncation::Size));
    assert!(serde_json::to_string(&big).unwrap().len() <= 16_000);
}

#[test]
fn the_views_have_the_documented_columns() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let subject = Subject::parse(SUBJECT).unwrap();
    let service = library(&data, None);
    for view in kenning::query::VIEWS {
        let answer = ask(
            &service,
            &subject,
            Author::Human,
            format!("SELECT * FROM {}", view.name),
            Some(1),
        )
        .unwrap();
        let documented: Vec<&str> = view.columns.iter().map(|c| c.name).collect();
        assert_eq!(answer.columns, documented, "{}", view.name);
        assert_eq!(answer.row_count, 1, "{} has rows", view.name);
    }
}

#[test]
fn a_query_while_recall_is_off_is_refused_and_one_on_no_store_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    seed(&data);
    let out = support::kenning(
        &data,
        &["settings", "--subject", SUBJECT, "allow_recall", "false"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = support::kenning(&data, &["query", "--subject", SUBJECT, "SELECT 1"], None);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("recall is disabled"),
        "{said}"
    );
    let out = support::kenning(
        &data,
        &["query", "--subject", "profile:nobody", "SELECT 1"],
        None,
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("no knowledge base"),
        "{said}"
    );
}

/// A service over a fresh PostgreSQL database, with `query_login` (if any) for its queries.
fn on_postgres_database(
    query_login: impl FnOnce(&str) -> Option<String>,
) -> Option<(Service, tempfile::TempDir)> {
    let url = support::postgres::fresh_database()?;
    let dir = tempfile::tempdir().unwrap();
    let mut builder = Service::builder(dir.path())
        .cache_dir(support::shared_cache_dir())
        .postgres(url.clone());
    if let Some(login) = query_login(&url) {
        builder = builder.query_login(login);
    }
    Some((builder.build().unwrap(), dir))
}

/// Runs `sql` as `reader` wants it read.
fn ask(
    service: &Service,
    subject: &Subject,
    reader: Author,
    sql: impl Into<String>,
    max_rows: Option<u32>,
) -> kenning::Result<kenning::query::QueryResult> {
    service.query(
        subject,
        reader,
        &QueryArgs {
            sql: sql.into(),
            max_rows,
        },
    )
}

#[test]
fn on_postgres_a_query_reads_its_own_subject_and_no_other() {
    let Some((service, _dir)) =
        on_postgres_database(|url| Some(support::postgres::query_login_for(url)))
    else {
        return;
    };
    let ours = Subject::parse("profile:ours").unwrap();
    let theirs = Subject::parse("profile:theirs").unwrap();
    service
        .remember(&ours, Author::Human, &note("Ours: the build is green."))
        .unwrap();
    for i in 0..3 {
        service
            .remember(
                &theirs,
                Author::Human,
                &note(&format!("Theirs, secret number {i}.")),
            )
            .unwrap();
    }
    let answer = ask(
        &service,
        &ours,
        Author::Human,
        "SELECT text FROM memories",
        None,
    )
    .unwrap();
    assert_eq!(answer.rows, vec![vec![json!("Ours: the build is green.")]]);
    // A grant token guessed, the grants table, the tables themselves, another role: refused or
    // empty, never another subject's rows.
    let guessed = ask(
        &service,
        &ours,
        Author::Human,
        "SELECT set_config('kenning.query_grant', 'guess', true) AS g, (SELECT count(*) FROM memories) AS n",
        None,
    );
    match guessed {
        Ok(answer) => assert!(
            !serde_json::to_string(&answer).unwrap().contains("Theirs"),
            "{answer:?}"
        ),
        Err(KenningError::Query { .. }) => {}
        Err(other) => panic!("{other}"),
    }
    for sql in [
        "SELECT text FROM public.memories",
        "SELECT * FROM public.query_grants",
        "SELECT * FROM public.subjects",
        "SELECT set_config('role', 'kenning', false)",
        "SELECT query_to_xml('SELECT text FROM public.memories', true, false, '')",
    ] {
        match ask(&service, &ours, Author::Human, sql, None) {
            Err(KenningError::Query { .. }) => {}
            other => panic!("{sql}: {other:?}"),
        }
    }
}

#[test]
fn on_postgres_a_query_login_that_can_reach_the_tables_is_refused() {
    // The store's own login owns every table.
    let Some((service, _dir)) = on_postgres_database(|url| Some(url.to_owned())) else {
        return;
    };
    let subject = Subject::parse("profile:ours").unwrap();
    service
        .remember(&subject, Author::Human, &note("A note."))
        .unwrap();
    let refused = ask(&service, &subject, Author::Human, "SELECT 1", None)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("holds no table privilege"), "{refused}");
    let Some((service, _dir)) = on_postgres_database(|_| None) else {
        return;
    };
    service
        .remember(&subject, Author::Human, &note("A note."))
        .unwrap();
    let refused = ask(&service, &subject, Author::Human, "SELECT 1", None)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("--query-store"), "{refused}");
}
