//! The graph of a subject's memories: one node per memory, one per distinct anchor, one per
//! tag at least two memories share, and edges from each memory to its anchors and shared tags.
//!
//! The JSON form (`kenning-graph/1`) is what the browser page draws, so it is stable: node ids
//! are `m:<memory id>`, `a:<anchor kind>:<anchor value>` and `t:<tag>`; memories come in id
//! order, anchors and tags in the order of their text, edges in the order of their memory and
//! then as the memory lists them. [`Graph::to_dot`] renders the same graph for Graphviz.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use kenning_contract::types::{Anchor, MemoryKind, Scope};
use schemars::JsonSchema;
use serde::Serialize;

use super::Service;
use crate::error::{KenningError, Result};
use crate::store::{Badge, Memory, Status};
use crate::subject::Subject;

/// The format name and version the JSON form carries.
pub const GRAPH_FORMAT: &str = "kenning-graph/1";

/// Most memories a graph holds unless asked otherwise.
pub const DEFAULT_GRAPH_MEMORIES: u32 = 2_000;

/// Most memories a graph may be asked to hold.
pub const MAX_GRAPH_MEMORIES: u32 = 100_000;

/// Most characters of a memory's text its node shows.
pub const PREVIEW_CHARS: usize = 80;

/// What a graph holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphRequest {
    /// Also forgotten, rejected and superseded memories (only active ones otherwise).
    pub include_inactive: bool,
    /// At most this many memories, the oldest first (1 to [`MAX_GRAPH_MEMORIES`]).
    pub limit: u32,
}

impl Default for GraphRequest {
    fn default() -> Self {
        GraphRequest {
            include_inactive: false,
            limit: DEFAULT_GRAPH_MEMORIES,
        }
    }
}

/// A subject's memories, anchors and shared tags as nodes and edges.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Graph {
    /// Always [`GRAPH_FORMAT`].
    pub format: &'static str,
    /// The subject, as it was named.
    pub subject: String,
    /// Whether more memories matched than the graph holds.
    pub truncated: bool,
    /// How many nodes of each kind, and edges.
    pub counts: GraphCounts,
    /// Memory nodes (id order), then anchor nodes, then tag nodes.
    pub nodes: Vec<Node>,
    /// From a memory to an anchor or a tag.
    pub edges: Vec<Edge>,
}

/// How many nodes of each kind a graph holds, and how many edges.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GraphCounts {
    /// Memory nodes.
    pub memories: usize,
    /// Anchor nodes (distinct anchors).
    pub anchors: usize,
    /// Tag nodes (tags on at least two memories).
    pub tags: usize,
    /// Edges.
    pub edges: usize,
}

/// A node of the graph.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Node {
    /// A memory.
    Memory {
        /// `m:<memory id>`.
        id: String,
        /// The memory's id in the store.
        memory: u64,
        /// The first [`PREVIEW_CHARS`] characters of its text, whitespace collapsed (`…` when
        /// cut).
        preview: String,
        /// Its provenance badge.
        badge: Badge,
        /// Its life-cycle state.
        status: Status,
        /// Global or local.
        scope: Scope,
        /// Fact, preference, context or conversation summary.
        #[serde(rename = "type")]
        memory_type: MemoryKind,
    },
    /// A place memories are anchored to.
    Anchor {
        /// `a:<anchor_kind>:<value>`.
        id: String,
        /// function, range, address, near or string.
        anchor_kind: &'static str,
        /// The anchor in words: `name@0xSTART[-0xEND]`, `0xSTART-0xEND`, `0xOFFSET`,
        /// `0xOFFSET±RADIUS` or the literal string.
        value: String,
        /// How many memories of the graph are anchored here.
        memories: usize,
    },
    /// A tag at least two memories of the graph carry.
    Tag {
        /// `t:<tag>`.
        id: String,
        /// The tag, without `#`.
        tag: String,
        /// How many memories of the graph carry it.
        memories: usize,
    },
}

impl Node {
    /// The node's id.
    pub fn id(&self) -> &str {
        match self {
            Node::Memory { id, .. } | Node::Anchor { id, .. } | Node::Tag { id, .. } => id,
        }
    }
}

/// An edge from a memory to one of its anchors or shared tags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Edge {
    /// The memory's node id.
    pub from: String,
    /// The anchor's or tag's node id.
    pub to: String,
    /// `anchored` (to an anchor) or `tagged` (to a tag).
    pub kind: &'static str,
}

impl Service {
    /// The graph of the subject's memories (see [`Graph`]).
    pub fn graph(&self, subject: &Subject, request: GraphRequest) -> Result<Graph> {
        if !(1..=MAX_GRAPH_MEMORIES).contains(&request.limit) {
            return Err(KenningError::Usage(format!(
                "a graph holds 1 to {MAX_GRAPH_MEMORIES} memories, not {}",
                request.limit
            )));
        }
        let kb = self.open_existing(subject)?;
        // One more than asked, to tell whether the graph was cut.
        let mut memories =
            kb.read(|store| store.memories_in_order(!request.include_inactive, request.limit + 1))?;
        let truncated = memories.len() > request.limit as usize;
        memories.truncate(request.limit as usize);
        Ok(build_graph(subject.to_string(), truncated, &memories))
    }
}

/// Builds the graph of `memories`.
pub fn build_graph(subject: String, truncated: bool, memories: &[Memory]) -> Graph {
    let mut anchors: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
    let mut tags: BTreeMap<&str, usize> = BTreeMap::new();
    for memory in memories {
        let distinct: BTreeSet<(&'static str, String)> =
            memory.anchors.iter().map(anchor_words).collect();
        for anchor in distinct {
            *anchors.entry(anchor).or_default() += 1;
        }
        let distinct: BTreeSet<&str> = memory.tags.iter().map(String::as_str).collect();
        for tag in distinct {
            *tags.entry(tag).or_default() += 1;
        }
    }
    tags.retain(|_, count| *count >= 2);

    let mut nodes: Vec<Node> = memories
        .iter()
        .map(|m| Node::Memory {
            id: memory_node(m.id),
            memory: m.id,
            preview: preview(&m.text),
            badge: m.badge,
            status: m.status,
            scope: m.scope,
            memory_type: m.kind,
        })
        .collect();
    nodes.extend(anchors.iter().map(|((kind, value), &count)| Node::Anchor {
        id: anchor_node(kind, value),
        anchor_kind: kind,
        value: value.clone(),
        memories: count,
    }));
    nodes.extend(tags.iter().map(|(tag, &count)| Node::Tag {
        id: tag_node(tag),
        tag: (*tag).to_owned(),
        memories: count,
    }));

    let mut edges = Vec::new();
    for memory in memories {
        let from = memory_node(memory.id);
        let mut seen = BTreeSet::new();
        for anchor in &memory.anchors {
            let (kind, value) = anchor_words(anchor);
            let to = anchor_node(kind, &value);
            if seen.insert(to.clone()) {
                edges.push(Edge {
                    from: from.clone(),
                    to,
                    kind: "anchored",
                });
            }
        }
        for tag in memory.tags.iter().filter(|t| tags.contains_key(t.as_str())) {
            let to = tag_node(tag);
            if seen.insert(to.clone()) {
                edges.push(Edge {
                    from: from.clone(),
                    to,
                    kind: "tagged",
                });
            }
        }
    }
    Graph {
        format: GRAPH_FORMAT,
        subject,
        truncated,
        counts: GraphCounts {
            memories: memories.len(),
            anchors: anchors.len(),
            tags: tags.len(),
            edges: edges.len(),
        },
        nodes,
        edges,
    }
}

fn memory_node(id: u64) -> String {
    format!("m:{id}")
}

fn anchor_node(kind: &str, value: &str) -> String {
    format!("a:{kind}:{value}")
}

fn tag_node(tag: &str) -> String {
    format!("t:{tag}")
}

/// An anchor's kind and its value in words.
fn anchor_words(anchor: &Anchor) -> (&'static str, String) {
    match anchor {
        Anchor::Function(f) => (
            "function",
            match f.end {
                Some(end) => format!("{}@{:#x}-{end:#x}", f.name, f.start),
                None => format!("{}@{:#x}", f.name, f.start),
            },
        ),
        Anchor::Range(r) => ("range", format!("{:#x}-{:#x}", r.start, r.end)),
        Anchor::Address { offset } => ("address", format!("{offset:#x}")),
        Anchor::Near(n) => ("near", format!("{:#x}±{:#x}", n.offset, n.radius)),
        Anchor::String { value } => ("string", value.clone()),
    }
}

/// The first [`PREVIEW_CHARS`] characters of `text`, whitespace collapsed.
fn preview(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= PREVIEW_CHARS {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(PREVIEW_CHARS - 1).collect();
    cut.push('…');
    cut
}

impl Graph {
    /// The graph in Graphviz's DOT language: memories as boxes (dashed when not active),
    /// anchors as ellipses, tags as notes. Every id and label is a quoted string with quotes,
    /// backslashes and line breaks escaped, so any text renders as itself.
    pub fn to_dot(&self) -> String {
        let mut dot = String::from("digraph kenning {\n  rankdir=LR;\n  node [fontsize=10];\n");
        for node in &self.nodes {
            let (label, attrs) = match node {
                Node::Memory {
                    memory,
                    preview,
                    badge,
                    status,
                    ..
                } => {
                    let mut label = format!("#{memory} [{badge}]");
                    if *status != Status::Active {
                        let _ = write!(label, " ({status})");
                    }
                    label.push('\n');
                    label.push_str(preview);
                    let style = if *status == Status::Active {
                        "solid"
                    } else {
                        "dashed"
                    };
                    (label, format!("shape=box, style={style}"))
                }
                Node::Anchor {
                    anchor_kind, value, ..
                } => (
                    format!("{anchor_kind}\n{value}"),
                    "shape=ellipse".to_owned(),
                ),
                Node::Tag { tag, .. } => (format!("#{tag}"), "shape=note".to_owned()),
            };
            let _ = writeln!(
                dot,
                "  {} [label={}, {attrs}];",
                dot_string(node.id()),
                dot_string(&label)
            );
        }
        for edge in &self.edges {
            let style = if edge.kind == "tagged" {
                " [style=dotted]"
            } else {
                ""
            };
            let _ = writeln!(
                dot,
                "  {} -> {}{style};",
                dot_string(&edge.from),
                dot_string(&edge.to)
            );
        }
        dot.push_str("}\n");
        dot
    }
}

/// `text` as a DOT quoted string. Backslashes are doubled so that Graphviz's own escapes
/// (`\N`, `\l`, ...) never fire on a memory's text; a line break becomes `\n` (a centred
/// line), other control characters a space.
pub fn dot_string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            c if c.is_control() => quoted.push(' '),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Author, sample_memory};

    #[test]
    fn dot_strings_escape_quotes_backslashes_and_line_breaks() {
        assert_eq!(dot_string("a \"b\"\\n\nc\rd"), r#""a \"b\"\\n\nc d""#);
    }

    #[test]
    fn tags_on_one_memory_only_make_no_node() {
        let mut a = sample_memory(1, "first", Author::Human, Badge::Native);
        let mut b = sample_memory(2, "second", Author::Human, Badge::Native);
        a.tags = vec!["crypto".into(), "lonely".into()];
        b.tags = vec!["crypto".into()];
        let graph = build_graph("s".into(), false, &[a, b]);
        assert_eq!(graph.counts.tags, 1);
        assert_eq!(graph.counts.edges, 2);
        assert!(graph.edges.iter().all(|e| e.to == "t:crypto"));
    }

    #[test]
    fn previews_are_cut_on_characters_and_collapse_whitespace() {
        let long = "é ".repeat(100);
        let cut = preview(&long);
        assert_eq!(cut.chars().count(), PREVIEW_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(preview("a\n\n b"), "a b");
    }
}
