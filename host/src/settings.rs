//! Settings of a knowledge base, global and per thread. A thread's setting can only narrow the
//! global one: off globally is off in every thread, whatever a thread says, and a thread may
//! turn off what is on globally. They are rows of the `settings` table (thread `''` is global),
//! read and written by each backend's store.

use std::fmt;

use serde::Serialize;

use crate::error::{KenningError, Result};

/// Whether confirmed findings are shared with linked knowledge bases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShareMode {
    /// Ask the user each time.
    Ask,
    /// Share without asking.
    On,
    /// Never share.
    Off,
}

/// The settings in force for one thread (or globally).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Settings {
    /// Recall may read memories.
    pub allow_recall: bool,
    /// Tool calls may write memories.
    pub allow_writes: bool,
    /// Memories are injected into prompts.
    pub include_in_prompts: bool,
    /// Memories may be harvested when a conversation is compacted.
    pub harvest_during_compaction: bool,
    /// Sharing of confirmed findings with linked knowledge bases.
    pub share_confirmed_findings: ShareMode,
    /// Most active memories the knowledge base may hold (global only); `None` for no limit.
    pub max_memories: Option<u64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            allow_recall: true,
            allow_writes: true,
            include_in_prompts: true,
            harvest_during_compaction: true,
            share_confirmed_findings: ShareMode::Ask,
            max_memories: None,
        }
    }
}

/// The settings that together make "memory enabled": recall, writes and injection.
pub const MEMORY_SWITCH: &[&str] = &["allow_recall", "allow_writes", "include_in_prompts"];

impl Settings {
    /// Whether memory is on: it is recalled, written and injected ([`MEMORY_SWITCH`]).
    pub fn memory_enabled(&self) -> bool {
        self.allow_recall && self.allow_writes && self.include_in_prompts
    }
}

/// The names of every setting.
pub const KEYS: &[&str] = &[
    "allow_recall",
    "allow_writes",
    "include_in_prompts",
    "harvest_during_compaction",
    "share_confirmed_findings",
    "max_memories",
];

/// Checks a thread id by the rule tool calls follow ([`kenning_contract::is_thread_id`]), so a
/// thread named here is one a tool call can use.
pub fn check_thread(thread: &str) -> Result<()> {
    if kenning_contract::is_thread_id(thread) {
        Ok(())
    } else {
        Err(KenningError::Usage(format!(
            "thread {:?}: a thread is 1 to {} of A-Z a-z 0-9 _ . : -",
            thread.chars().take(40).collect::<String>(),
            kenning_contract::MAX_THREAD_BYTES
        )))
    }
}

/// Checks a setting and returns its canonical stored value.
pub fn normalize(key: &str, value: &str, thread: Option<&str>) -> Result<String> {
    if let Some(thread) = thread {
        check_thread(thread)?;
    }
    let bad =
        |expected: &str| KenningError::Usage(format!("setting {key}: {value:?} is not {expected}"));
    let value = value.trim().to_ascii_lowercase();
    match key {
        "allow_recall" | "allow_writes" | "include_in_prompts" | "harvest_during_compaction" => {
            match value.as_str() {
                "true" | "on" | "yes" | "1" => Ok("true".into()),
                "false" | "off" | "no" | "0" => Ok("false".into()),
                _ => Err(bad("true or false")),
            }
        }
        "share_confirmed_findings" => match value.as_str() {
            "ask" | "on" | "off" => Ok(value),
            _ => Err(bad("ask, on or off")),
        },
        "max_memories" if thread.is_some() => Err(KenningError::Usage(
            "setting max_memories applies to the whole knowledge base, not to a thread".into(),
        )),
        "max_memories" => match value.as_str() {
            "none" => Ok(value),
            number => number
                .parse::<u64>()
                .map(|n| n.to_string())
                .map_err(|_| bad("a number or none")),
        },
        _ => Err(KenningError::Usage(format!(
            "unknown setting {key:?}; settings are {}",
            KEYS.join(", ")
        ))),
    }
}

/// Where a stored setting applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layer {
    /// The whole knowledge base (read first).
    Global,
    /// One thread (read after the global rows): it only narrows them.
    Thread,
}

/// Applies one stored `key = value` row of `layer` to `settings`, which hold the global
/// settings already when `layer` is a thread's: a thread's flag only turns off, its sharing
/// only becomes stricter (off, then ask, then on), and `max_memories` is global only. Unknown
/// keys are ignored: a newer kenning may have written them.
pub(crate) fn apply(settings: &mut Settings, layer: Layer, key: &str, value: &str) {
    let set = |current: &mut bool| {
        let flag = value == "true";
        *current = match layer {
            Layer::Global => flag,
            Layer::Thread => *current && flag,
        };
    };
    match key {
        "allow_recall" => set(&mut settings.allow_recall),
        "allow_writes" => set(&mut settings.allow_writes),
        "include_in_prompts" => set(&mut settings.include_in_prompts),
        "harvest_during_compaction" => set(&mut settings.harvest_during_compaction),
        "share_confirmed_findings" => {
            let mode = match value {
                "on" => ShareMode::On,
                "off" => ShareMode::Off,
                _ => ShareMode::Ask,
            };
            settings.share_confirmed_findings = match layer {
                Layer::Global => mode,
                Layer::Thread => settings.share_confirmed_findings.stricter(mode),
            };
        }
        "max_memories" if layer == Layer::Global => settings.max_memories = value.parse().ok(),
        _ => {}
    }
}

impl ShareMode {
    /// The stricter of two modes: off before ask before on.
    fn stricter(self, other: ShareMode) -> ShareMode {
        let rank = |mode| match mode {
            ShareMode::Off => 0,
            ShareMode::Ask => 1,
            ShareMode::On => 2,
        };
        if rank(other) < rank(self) {
            other
        } else {
            self
        }
    }
}

impl fmt::Display for ShareMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShareMode::Ask => "ask",
            ShareMode::On => "on",
            ShareMode::Off => "off",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_follow_the_tool_calls_rule() {
        assert!(normalize("allow_recall", "off", Some("chat-1")).is_ok());
        for thread in ["t".repeat(129), "has space".to_owned(), String::new()] {
            let error = normalize("allow_recall", "off", Some(&thread))
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("a thread is 1 to 128 of"),
                "{thread:?}: {error}"
            );
        }
    }

    #[test]
    fn memory_is_enabled_only_while_recall_writes_and_injection_all_are() {
        let mut settings = Settings::default();
        assert!(settings.memory_enabled());
        for key in MEMORY_SWITCH {
            let mut off = settings.clone();
            apply(&mut off, Layer::Global, key, "false");
            assert!(!off.memory_enabled(), "{key}");
        }
        apply(
            &mut settings,
            Layer::Global,
            "harvest_during_compaction",
            "false",
        );
        assert!(settings.memory_enabled());
    }

    #[test]
    fn a_thread_only_narrows_what_the_global_settings_allow() {
        for key in KEYS
            .iter()
            .filter(|&&k| k != "max_memories" && k != "share_confirmed_findings")
        {
            for (global, thread, expected) in [
                ("false", "true", false),
                ("true", "false", false),
                ("true", "true", true),
                ("false", "false", false),
            ] {
                let mut settings = Settings::default();
                apply(&mut settings, Layer::Global, key, global);
                apply(&mut settings, Layer::Thread, key, thread);
                let on = serde_json::to_value(&settings).unwrap()[key]
                    .as_bool()
                    .unwrap();
                assert_eq!(on, expected, "{key}: global {global}, thread {thread}");
            }
        }
        let share = |global, thread| {
            let mut settings = Settings::default();
            apply(
                &mut settings,
                Layer::Global,
                "share_confirmed_findings",
                global,
            );
            apply(
                &mut settings,
                Layer::Thread,
                "share_confirmed_findings",
                thread,
            );
            settings.share_confirmed_findings
        };
        assert_eq!(share("off", "on"), ShareMode::Off);
        assert_eq!(share("ask", "on"), ShareMode::Ask);
        assert_eq!(share("on", "ask"), ShareMode::Ask);
        assert_eq!(share("on", "on"), ShareMode::On);
        let mut settings = Settings::default();
        apply(&mut settings, Layer::Global, "max_memories", "10");
        apply(&mut settings, Layer::Thread, "max_memories", "1000");
        assert_eq!(settings.max_memories, Some(10));
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(normalize("allow_recall", "Off", None).unwrap(), "false");
        assert_eq!(normalize("max_memories", "250", None).unwrap(), "250");
        for (key, value, thread, problem) in [
            (
                "max_memories",
                "250",
                Some("t"),
                "applies to the whole knowledge base",
            ),
            (
                "allow_recall",
                "maybe",
                None,
                "\"maybe\" is not true or false",
            ),
            (
                "share_confirmed_findings",
                "sometimes",
                None,
                "is not ask, on or off",
            ),
        ] {
            let error = normalize(key, value, thread).unwrap_err().to_string();
            assert!(error.contains(problem), "{key} {value}: {error}");
        }
        assert!(
            normalize("colour", "red", None)
                .unwrap_err()
                .to_string()
                .contains("unknown setting")
        );
    }
}
