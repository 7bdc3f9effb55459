//! The resources a client can show its user, for every profile and account subject served:
//!
//! - `kenning://profile/NAME/USER.md`, `MEMORY.md` and `daily/YYYY-MM-DD.md` (any day's note,
//!   by the template; today's listed), rendered from their accepted entries;
//! - `kenning://account/NAME/memories.md`: the account's accepted memories, newest first;
//! - `kenning://KIND/NAME/pending.md`: what awaits a human's review, and how to settle it.
//!
//! Nothing awaiting review is ever returned to a caller, and a resource may reach the model:
//! `pending.md` says what each proposal is (its id, type, size, author, age and tags), never
//! its text. A human reads the text where they settle it (`kenning review`, or their client's
//! question: [`super::review`]).
//!
//! Every resource is at most [`MAX_RESOURCE_BYTES`].

use rmcp::model::{Resource, ResourceTemplate};

use kenning::memory::Memory;
use kenning::service::Service;
use kenning::service::governance::{ListRequest, ListStatus};
use kenning::subject::Subject;
use kenning::time::rfc3339;
use kenning_contract::args::Author;
use kenning_contract::types::SubjectKind;

/// Most bytes a resource holds; a longer one ends with what was left out.
pub const MAX_RESOURCE_BYTES: usize = 16_000;

/// A resource of a subject, as its URI names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// A profile's USER.md.
    User,
    /// A profile's MEMORY.md.
    Memory,
    /// A profile's daily note of a day (`YYYY-MM-DD`).
    Daily(String),
    /// An account's accepted memories.
    Memories,
    /// What awaits review.
    Pending,
}

/// The URI of `document` of `subject`.
pub fn uri(subject: &Subject, document: &Document) -> String {
    let file = match document {
        Document::User => "USER.md".to_owned(),
        Document::Memory => "MEMORY.md".to_owned(),
        Document::Daily(day) => format!("daily/{day}.md"),
        Document::Memories => "memories.md".to_owned(),
        Document::Pending => "pending.md".to_owned(),
    };
    format!("kenning://{}/{}/{file}", subject.kind.as_str(), subject.key)
}

/// The resources listed for `subjects` on `today`.
pub fn listed(subjects: &[Subject], today: &str) -> Vec<Resource> {
    let mut resources = Vec::new();
    for subject in subjects {
        let documents: Vec<(Document, &str)> = match subject.kind {
            SubjectKind::Profile => vec![
                (Document::User, "who the user is and how they like to work"),
                (Document::Memory, "the agent's lasting notes"),
                (Document::Daily(today.to_owned()), "today's note"),
                (Document::Pending, "what awaits the user's review"),
            ],
            SubjectKind::Account => vec![
                (Document::Memories, "the accepted memories, newest first"),
                (Document::Pending, "what awaits the user's review"),
            ],
            _ => continue,
        };
        for (document, what) in documents {
            let uri = uri(subject, &document);
            let file = uri
                .rsplit_once(&format!("{}/", subject.key))
                .map_or("", |(_, f)| f);
            resources.push(
                Resource::new(uri.clone(), file.to_owned())
                    .with_title(format!("{}/{file}", subject.key))
                    .with_description(format!("{}: {what}", subject.spec()))
                    .with_mime_type("text/markdown"),
            );
        }
    }
    resources
}

/// The templates: any day's note of a profile, and an account's memories and pending
/// proposals, for the subjects served.
pub fn templates() -> Vec<ResourceTemplate> {
    [
        (
            "kenning://profile/{name}/daily/{date}.md",
            "daily-note",
            "A profile's daily note of a day (date: YYYY-MM-DD)",
        ),
        (
            "kenning://account/{name}/memories.md",
            "account-memories",
            "An account's accepted memories, newest first",
        ),
        (
            "kenning://{kind}/{name}/pending.md",
            "pending",
            "What awaits the user's review in a profile or account (kind: profile or account), and how to settle it",
        ),
    ]
    .into_iter()
    .map(|(template, name, description)| {
        ResourceTemplate::new(template, name)
            .with_description(description)
            .with_mime_type("text/markdown")
    })
    .collect()
}

/// The subject of `subjects` and the document that `uri` names, or why it names none.
pub fn parse(uri: &str, subjects: &[Subject]) -> Result<(Subject, Document), String> {
    let rest = uri
        .strip_prefix("kenning://")
        .ok_or_else(|| format!("no such resource: {uri} (resources are kenning://...)"))?;
    let (kind, rest) = rest
        .split_once('/')
        .ok_or_else(|| format!("no such resource: {uri}"))?;
    let subject = subjects
        .iter()
        .filter(|s| s.kind.as_str() == kind && s.kind != SubjectKind::Binary)
        .find(|s| rest.starts_with(&format!("{}/", s.key)))
        .ok_or_else(|| format!("no {kind} of {uri} is served here"))?;
    let file = &rest[subject.key.len() + 1..];
    let document = match (subject.kind, file) {
        (SubjectKind::Profile, "USER.md") => Document::User,
        (SubjectKind::Profile, "MEMORY.md") => Document::Memory,
        (SubjectKind::Account, "memories.md") => Document::Memories,
        (_, "pending.md") => Document::Pending,
        (SubjectKind::Profile, daily) if daily.starts_with("daily/") => {
            let day = daily
                .strip_prefix("daily/")
                .and_then(|d| d.strip_suffix(".md"))
                .filter(|d| is_date(d))
                .ok_or_else(|| format!("{file}: a daily note is daily/YYYY-MM-DD.md"))?;
            Document::Daily(day.to_owned())
        }
        _ => return Err(format!("no such resource: {uri}")),
    };
    Ok((subject.clone(), document))
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(at, b)| {
            if at == 4 || at == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// What `document` of `subject` holds, for `reader`; `Ok(None)` when it has nothing yet.
pub fn read(
    service: &Service,
    subject: &Subject,
    document: &Document,
    reader: Author,
) -> kenning::error::Result<Option<String>> {
    let text = match document {
        Document::User => service.view(subject)?.user,
        Document::Memory => service.view(subject)?.memory,
        Document::Daily(day) => service.view_on(subject, day)?.daily.map(|(_, text)| text),
        Document::Memories => {
            let page = service.list_memories(
                subject,
                reader,
                &ListRequest {
                    limit: kenning::service::governance::MAX_LIST_LIMIT,
                    status: ListStatus::Accepted,
                    ..ListRequest::default()
                },
            )?;
            let lines: Vec<String> = page
                .memories
                .iter()
                .map(|m| {
                    format!(
                        "- {} (memory {}, {})",
                        one_line(&m.text),
                        m.id,
                        m.kind.as_str()
                    )
                })
                .collect();
            let title = format!("# Memories of {}: {}\n\n", subject.spec(), page.total);
            Some(bounded(&title, &lines, page.total as usize))
        }
        Document::Pending => {
            // The queue is read for its count and shape only: no proposal's text leaves here.
            let pending = service.review_list(subject, Author::Human)?;
            let lines: Vec<String> = pending.iter().map(|m| described(m)).collect();
            let title = format!(
                "# Awaiting review in {}: {}\n\nSettle them as the user: `kenning review list --subject {0}`, then `kenning review accept --subject {0} ID` (or `reject`) in a terminal, or from a client that can ask you (MCP elicitation), which asks at each proposal. Until then none is recalled or injected.\n\n",
                subject.spec(),
                pending.len(),
            );
            Some(bounded(&title, &lines, pending.len()))
        }
    };
    Ok(text.map(|text| {
        if text.len() <= MAX_RESOURCE_BYTES {
            text
        } else {
            let cut = text.floor_char_boundary(MAX_RESOURCE_BYTES - 64);
            format!(
                "{}\n\n… cut at {cut} of {} bytes\n",
                &text[..cut],
                text.len()
            )
        }
    }))
}

/// A proposal as `pending.md` shows it: everything but its text.
fn described(memory: &Memory) -> String {
    if let Some(target) = memory.forgets {
        return format!(
            "- memory {}: a request to forget memory {target}, by {} ({}), proposed {}",
            memory.id,
            memory.author,
            memory.badge,
            rfc3339(memory.created_at)
        );
    }
    let tags = if memory.tags.is_empty() {
        String::new()
    } else {
        let tags: Vec<String> = memory.tags.iter().map(|t| format!("#{t}")).collect();
        format!(", {}", tags.join(" "))
    };
    format!(
        "- memory {}: {}, {} characters, by {} ({}), proposed {}{tags}",
        memory.id,
        memory.kind.as_str(),
        memory.text.chars().count(),
        memory.author,
        memory.badge,
        rfc3339(memory.created_at)
    )
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `title` and as many of `lines` as fit in [`MAX_RESOURCE_BYTES`], then how many of `total`
/// were left out.
fn bounded(title: &str, lines: &[String], total: usize) -> String {
    let mut text = title.to_owned();
    let mut shown = 0;
    for line in lines {
        if text.len() + line.len() + 1 > MAX_RESOURCE_BYTES - 80 {
            break;
        }
        text.push_str(line);
        text.push('\n');
        shown += 1;
    }
    if shown < total {
        text.push_str(&format!("\n… and {} more\n", total - shown));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served() -> Vec<Subject> {
        vec![
            Subject::parse("profile:me").unwrap(),
            Subject::parse("account:acme").unwrap(),
        ]
    }

    #[test]
    fn every_listed_uri_parses_back_to_its_document() {
        let subjects = served();
        let listed = listed(&subjects, "2026-12-06");
        assert_eq!(listed.len(), 6);
        for resource in listed {
            assert!(parse(&resource.uri, &subjects).is_ok(), "{}", resource.uri);
        }
    }

    #[test]
    fn a_daily_note_of_any_day_is_read_by_the_template() {
        let (subject, document) =
            parse("kenning://profile/me/daily/2026-01-31.md", &served()).unwrap();
        assert_eq!(
            (subject.spec(), document),
            (
                "profile:me".to_owned(),
                Document::Daily("2026-01-31".into())
            )
        );
        assert!(parse("kenning://profile/me/daily/yesterday.md", &served()).is_err());
        assert!(parse("kenning://account/acme/USER.md", &served()).is_err());
        assert!(parse("kenning://profile/you/USER.md", &served()).is_err());
    }

    #[test]
    fn a_long_list_is_cut_within_the_bound_and_says_how_many_are_left_out() {
        let lines: Vec<String> = (0..1000)
            .map(|i| format!("- line {i} {}", "x".repeat(100)))
            .collect();
        let text = bounded("# Title\n\n", &lines, 1000);
        assert!(text.len() <= MAX_RESOURCE_BYTES, "{}", text.len());
        assert!(text.ends_with("more\n"), "{text}");
    }
}
