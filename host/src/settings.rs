//! Settings of a knowledge base, global and per thread; a thread's value overrides the global
//! one. They are rows of the `settings` table (thread `''` is global), read and written by
//! [`crate::store::settings`].

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

/// Applies one stored `key = value` row to `settings` (unknown keys are ignored: a newer
/// kenning may have written them).
pub(crate) fn apply(settings: &mut Settings, key: &str, value: &str) {
    let flag = value == "true";
    match key {
        "allow_recall" => settings.allow_recall = flag,
        "allow_writes" => settings.allow_writes = flag,
        "include_in_prompts" => settings.include_in_prompts = flag,
        "harvest_during_compaction" => settings.harvest_during_compaction = flag,
        "share_confirmed_findings" => {
            settings.share_confirmed_findings = match value {
                "on" => ShareMode::On,
                "off" => ShareMode::Off,
                _ => ShareMode::Ask,
            }
        }
        "max_memories" => settings.max_memories = value.parse().ok(),
        _ => {}
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
        assert!(normalize("allow_recall", "off", Some(&"t".repeat(129))).is_err());
        assert!(normalize("allow_recall", "off", Some("has space")).is_err());
        assert!(normalize("allow_recall", "off", Some("")).is_err());
    }

    #[test]
    fn memory_is_enabled_only_while_recall_writes_and_injection_all_are() {
        let mut settings = Settings::default();
        assert!(settings.memory_enabled());
        for key in MEMORY_SWITCH {
            let mut off = settings.clone();
            apply(&mut off, key, "false");
            assert!(!off.memory_enabled(), "{key}");
        }
        apply(&mut settings, "harvest_during_compaction", "false");
        assert!(settings.memory_enabled());
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(normalize("allow_recall", "Off", None).unwrap(), "false");
        assert_eq!(normalize("max_memories", "250", None).unwrap(), "250");
        assert!(normalize("max_memories", "250", Some("t")).is_err());
        assert!(normalize("allow_recall", "maybe", None).is_err());
        assert!(normalize("share_confirmed_findings", "sometimes", None).is_err());
        assert!(
            normalize("colour", "red", None)
                .unwrap_err()
                .to_string()
                .contains("unknown setting")
        );
    }
}
