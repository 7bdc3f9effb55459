//! The conversions and calls every contract version shares, written once and expanded into
//! each version's adapter module (the generated binding types differ per version, their shapes
//! do not). Each adapter keeps only what its version changed.

/// Expands, in an adapter module that has `wit` (its version's generated types), `plain` (the
/// contract's plain types), `MemoryPolicy` (its bindings), `Sandbox`, its own `capability`
/// mapping (the one list that differs between versions) and its own `pack` (how its version
/// lays candidates out) in scope, the conversions and the `describe`, `validate`, `scan`,
/// `score` and `select` calls all versions share.
macro_rules! shared_conversions {
    () => {
        pub(crate) fn context(c: &plain::Context) -> wit::Context {
            wit::Context {
                now: c.now,
                subject_kind: match c.subject_kind {
                    plain::SubjectKind::Binary => wit::SubjectKind::Binary,
                    plain::SubjectKind::Account => wit::SubjectKind::Account,
                    plain::SubjectKind::Profile => wit::SubjectKind::Profile,
                },
                image_base: c.image_base,
                cursor: c.cursor,
                current_function: c.current_function.as_ref().map(live_function),
                referenced_strings: c.referenced_strings.clone(),
                live_functions: c.live_functions.iter().map(live_function).collect(),
                live_strings: c.live_strings.clone(),
                query: c.query.clone(),
            }
        }

        pub(crate) fn live_function(f: &plain::LiveFunction) -> wit::LiveFunction {
            wit::LiveFunction {
                start: f.start,
                end: f.end,
                name: f.name.clone(),
            }
        }

        pub(crate) fn scope(s: plain::Scope) -> wit::Scope {
            match s {
                plain::Scope::Global => wit::Scope::Global,
                plain::Scope::Local => wit::Scope::Local,
            }
        }

        pub(crate) fn limits(l: &plain::Limits) -> wit::Limits {
            wit::Limits {
                local_quota: l.local_quota,
                global_quota: l.global_quota,
                token_budget: l.token_budget,
                max_snapshot_bytes: l.max_snapshot_bytes,
            }
        }

        pub(crate) fn limits_back(l: wit::Limits) -> plain::Limits {
            plain::Limits {
                local_quota: l.local_quota,
                global_quota: l.global_quota,
                token_budget: l.token_budget,
                max_snapshot_bytes: l.max_snapshot_bytes,
            }
        }

        pub(crate) fn score_parts(s: wit::ScoreParts) -> plain::ScoreParts {
            plain::ScoreParts {
                anchor: s.anchor,
                lexical: s.lexical,
                confidence: s.confidence,
                recency: s.recency,
                total: s.total,
            }
        }

        pub(crate) fn selection(s: wit::Selection) -> plain::Selection {
            plain::Selection {
                chosen: s
                    .chosen
                    .into_iter()
                    .map(|c| plain::Chosen {
                        id: c.id,
                        section: match c.section {
                            wit::Section::Global => plain::Section::Global,
                            wit::Section::Local => plain::Section::Local,
                            wit::Section::Facts => plain::Section::Facts,
                            wit::Section::Preferences => plain::Section::Preferences,
                            wit::Section::Context => plain::Section::Context,
                            wit::Section::Conversations => plain::Section::Conversations,
                        },
                        score: score_parts(c.score),
                    })
                    .collect(),
                rejected: s
                    .rejected
                    .into_iter()
                    .map(|r| plain::Rejected {
                        id: r.id,
                        reason: match r.reason {
                            wit::RejectReason::Quota => plain::RejectReason::Quota,
                            wit::RejectReason::Budget => plain::RejectReason::Budget,
                            wit::RejectReason::Duplicate => plain::RejectReason::Duplicate,
                            wit::RejectReason::Stale => plain::RejectReason::Stale,
                            wit::RejectReason::Irrelevant => plain::RejectReason::Irrelevant,
                        },
                        score: score_parts(r.score),
                    })
                    .collect(),
                snapshot: s.snapshot,
                snapshot_tokens: s.snapshot_tokens,
            }
        }

        pub(crate) fn validation(
            r: Result<wit::ValidatedCall, Vec<wit::FieldError>>,
        ) -> Result<plain::ValidatedCall, Vec<plain::FieldError>> {
            match r {
                Ok(call) => Ok(plain::ValidatedCall {
                    tool: call.tool,
                    args_json: call.args_json,
                }),
                Err(errors) => Err(errors
                    .into_iter()
                    .map(|e| plain::FieldError {
                        path: e.path,
                        message: e.message,
                    })
                    .collect()),
            }
        }

        pub(crate) fn target(t: plain::Target) -> wit::Target {
            match t {
                plain::Target::User => wit::Target::User,
                plain::Target::Memory => wit::Target::Memory,
                plain::Target::Daily => wit::Target::Daily,
                plain::Target::Global => wit::Target::Global,
                plain::Target::Local => wit::Target::Local,
            }
        }

        pub(crate) fn kind(k: plain::MemoryKind) -> wit::MemoryKind {
            match k {
                plain::MemoryKind::Fact => wit::MemoryKind::Fact,
                plain::MemoryKind::Preference => wit::MemoryKind::Preference,
                plain::MemoryKind::Context => wit::MemoryKind::Context,
                plain::MemoryKind::ConversationSummary => wit::MemoryKind::ConversationSummary,
            }
        }

        pub(crate) fn policy_info(i: wit::PolicyInfo) -> plain::PolicyInfo {
            plain::PolicyInfo {
                name: i.name,
                version: i.version,
                contract_version: i.contract_version,
                capabilities: i.capabilities.into_iter().map(capability).collect(),
                default_limits: limits_back(i.default_limits),
            }
        }

        /// Who the policy is.
        pub(super) fn describe(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
        ) -> wasmtime::Result<plain::PolicyInfo> {
            b.kenning_policy_policy()
                .call_describe(store)
                .map(policy_info)
        }

        /// Checks a tool call.
        pub(super) fn validate(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
            tool: &str,
            args_json: &str,
        ) -> wasmtime::Result<Result<plain::ValidatedCall, Vec<plain::FieldError>>> {
            b.kenning_policy_policy()
                .call_validate(store, tool, args_json)
                .map(validation)
        }

        /// Scans texts.
        pub(super) fn scan(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
            items: &[plain::ScanItem],
        ) -> wasmtime::Result<Vec<plain::ScanResult>> {
            let items: Vec<_> = items.iter().map(scan_item).collect();
            let results = b.kenning_policy_policy().call_scan(store, &items)?;
            Ok(results.into_iter().map(scan_result).collect())
        }

        /// Scores candidates, laid out by this version's `pack`.
        pub(super) fn score(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
            context: &plain::Context,
            candidates: &[plain::Candidate],
        ) -> wasmtime::Result<Vec<plain::ScoreParts>> {
            let candidates = pack(candidates);
            let scores = b.kenning_policy_policy().call_score(
                store,
                &self::context(context),
                &candidates,
            )?;
            Ok(scores.into_iter().map(score_parts).collect())
        }

        /// Selects among candidates, laid out by this version's `pack`.
        pub(super) fn select(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
            context: &plain::Context,
            candidates: &[plain::Candidate],
            limits: &plain::Limits,
        ) -> wasmtime::Result<plain::Selection> {
            let candidates = pack(candidates);
            b.kenning_policy_policy()
                .call_select(
                    store,
                    &self::context(context),
                    &candidates,
                    self::limits(limits),
                )
                .map(selection)
        }
    };
}

pub(crate) use shared_conversions;

/// Expands, in an adapter module, the conversions of scan items and results: as before 0.4.0
/// with no arguments (items name no author, no verdict holds a text), and as from 0.4.0 with
/// `author, Hold` (items name who asks to store them, and the scan may hold a text).
macro_rules! scan_conversions {
    ($($author:ident, $hold:ident)?) => {
        pub(crate) fn scan_item(i: &plain::ScanItem) -> wit::ScanItem {
            wit::ScanItem {
                text: i.text.clone(),
                target: target(i.target),
                $($author: $author(i.$author),)?
            }
        }

        $(
            fn $author(a: kenning_contract::args::Author) -> wit::Author {
                use kenning_contract::args::Author;
                match a {
                    Author::Human => wit::Author::Human,
                    Author::Agent => wit::Author::Agent,
                    Author::Triage => wit::Author::Triage,
                    Author::External => wit::Author::External,
                    Author::Peer => wit::Author::Peer,
                }
            }
        )?

        pub(crate) fn scan_result(r: wit::ScanResult) -> plain::ScanResult {
            plain::ScanResult {
                verdict: match r.verdict {
                    wit::Verdict::Allow => plain::Verdict::Allow,
                    wit::Verdict::Redact => plain::Verdict::Redact,
                    wit::Verdict::Block => plain::Verdict::Block,
                    $(wit::Verdict::$hold => plain::Verdict::$hold,)?
                },
                text: r.text,
                findings: r
                    .findings
                    .into_iter()
                    .map(|f| plain::Finding {
                        kind: f.kind,
                        start: f.start,
                        end: f.end,
                    })
                    .collect(),
                reason: r.reason,
            }
        }
    };
}

pub(crate) use scan_conversions;

/// Expands, in the adapter module of a contract version whose `memories` batch packs texts and
/// anchors as 0.2.0 introduced them (0.2.0 to 0.4.0), the packing of that batch (and of
/// 0.2.0's candidates), the `consolidate` call and the capabilities (`consolidate` among them).
macro_rules! packed_batches {
    () => {
        /// Appends texts and anchors to one buffer each and hands out their spans.
        #[derive(Default)]
        struct Packer {
            texts: String,
            anchors: Vec<wit::Anchor>,
        }

        impl Packer {
            fn push(&mut self, text: &str) -> wit::Span {
                let start = self.texts.len();
                self.texts.push_str(text);
                span(start, text.len())
            }

            fn push_tags(&mut self, tags: &[String]) -> wit::Span {
                let start = self.texts.len();
                for (i, tag) in tags.iter().enumerate() {
                    if i > 0 {
                        self.texts.push(' ');
                    }
                    self.texts.push_str(tag);
                }
                span(start, self.texts.len() - start)
            }

            fn push_anchors(&mut self, anchors: &[plain::Anchor]) -> wit::Span {
                let start = self.anchors.len();
                for a in anchors {
                    let anchor = match a {
                        plain::Anchor::Function(f) => wit::Anchor::Function(wit::FunctionAnchor {
                            start: f.start,
                            end: f.end,
                            name: self.push(&f.name),
                        }),
                        plain::Anchor::Range(r) => wit::Anchor::Range(wit::OffsetRange {
                            start: r.start,
                            end: r.end,
                        }),
                        plain::Anchor::Address { offset } => wit::Anchor::Address(*offset),
                        plain::Anchor::Near(n) => wit::Anchor::Near(wit::OffsetRadius {
                            offset: n.offset,
                            radius: n.radius,
                        }),
                        plain::Anchor::String { value } => {
                            wit::Anchor::ReferencedString(self.push(value))
                        }
                    };
                    self.anchors.push(anchor);
                }
                span(start, anchors.len())
            }
        }

        /// A span; the batches a host builds stay far below 4 GiB (texts are capped at 8 KiB each).
        fn span(start: usize, len: usize) -> wit::Span {
            wit::Span {
                start: u32::try_from(start).unwrap_or(u32::MAX),
                len: u32::try_from(len).unwrap_or(0),
            }
        }

        fn pack_memories(memories: &[plain::StoredMemory]) -> wit::Memories {
            let mut packer = Packer::default();
            let items = memories
                .iter()
                .map(|m| wit::StoredMemory {
                    id: m.id,
                    scope: scope(m.scope),
                    kind: kind(m.kind),
                    target: m.target.map(target),
                    day: packer.push(m.day.as_deref().unwrap_or_default()),
                    text: packer.push(&m.text),
                    tags: packer.push_tags(&m.tags),
                    confidence: m.confidence,
                    created_at: m.created_at,
                    updated_at: m.updated_at,
                    anchors: packer.push_anchors(&m.anchors),
                    pending: m.pending,
                })
                .collect();
            wit::Memories {
                texts: packer.texts,
                anchors: packer.anchors,
                items,
            }
        }

        /// Plans a consolidation.
        pub(super) fn consolidate(
            b: &MemoryPolicy,
            store: &mut Store<Sandbox>,
            now: i64,
            memories: &[plain::StoredMemory],
            retention: &plain::Retention,
        ) -> wasmtime::Result<plain::ConsolidationPlan> {
            let memories = pack_memories(memories);
            let retention = wit::Retention {
                pending_days: retention.pending_days,
                daily_days: retention.daily_days,
            };
            let plan = b
                .kenning_policy_policy()
                .call_consolidate(store, now, &memories, retention)?;
            Ok(plain::ConsolidationPlan {
                merges: plan
                    .merges
                    .into_iter()
                    .map(|m| plain::Merge {
                        keep: m.keep,
                        duplicates: m.duplicates,
                        reason: m.reason,
                    })
                    .collect(),
                supersessions: plan
                    .supersessions
                    .into_iter()
                    .map(|s| plain::Supersession {
                        newer: s.newer,
                        older: s.older,
                        reason: s.reason,
                    })
                    .collect(),
                expiries: plan
                    .expiries
                    .into_iter()
                    .map(|e| plain::Expiry {
                        id: e.id,
                        reason: e.reason,
                    })
                    .collect(),
            })
        }

        fn capability(c: wit::Capability) -> plain::Capability {
            match c {
                wit::Capability::Validate => plain::Capability::Validate,
                wit::Capability::Scan => plain::Capability::Scan,
                wit::Capability::Score => plain::Capability::Score,
                wit::Capability::Select => plain::Capability::Select,
                wit::Capability::Consolidate => plain::Capability::Consolidate,
            }
        }
    };
}

pub(crate) use packed_batches;

/// Expands, in the adapter module of a contract version whose candidates travel as columns
/// (0.3.0 and later), `pack`: the contract's [`CandidateColumns`] (the layout's one definition)
/// moved into that version's `candidates` record. The columns 0.3.0 has are always moved; a
/// later version names the ones it adds (0.4.0: `authors`, `badges`).
///
/// [`CandidateColumns`]: kenning_contract::candidates::CandidateColumns
macro_rules! column_batches {
    ($($added:ident),*) => {
        fn pack(candidates: &[plain::Candidate]) -> wit::Candidates {
            let columns = kenning_contract::candidates::CandidateColumns::pack(candidates);
            wit::Candidates {
                ids: columns.ids,
                scopes: columns.scopes,
                kinds: columns.kinds,
                $($added: columns.$added,)*
                confidences: columns.confidences,
                created_at: columns.created_at,
                updated_at: columns.updated_at,
                lexical_scores: columns.lexical_scores,
                texts: columns.texts,
                text_ends: columns.text_ends,
                anchor_ends: columns.anchor_ends,
                anchor_kinds: columns.anchor_kinds,
                anchor_values: columns.anchor_values,
                anchor_texts: columns.anchor_texts,
                anchor_text_ends: columns.anchor_text_ends,
            }
        }
    };
}

pub(crate) use column_batches;
