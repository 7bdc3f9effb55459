//! The configuration file: `kenning.toml` in the data directory, one table per job. Every
//! table and key is optional; without the file every default applies.
//!
//! ```toml
//! [maintenance]             # retention and index upkeep (crate::service::maintain)
//! suggestion_ttl_days = 14
//! daily_retention_days = 180
//! daily_mode = "archive"    # or "delete"
//! interval_hours = 24
//!
//! [review]                  # the background review (crate::service::background_review)
//! model_cmd = "..."         # none: no review runs
//! every_turns = 10
//! timeout_secs = 120
//! ```

use std::path::Path;

use kenning_contract::types::Retention;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{KenningError, Result};

/// The configuration file in the data directory.
pub const CONFIG_FILE: &str = "kenning.toml";

/// The whole configuration.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[maintenance]`.
    pub maintenance: MaintenanceConfig,
    /// `[review]`.
    pub review: ReviewConfig,
}

impl Config {
    /// Reads [`CONFIG_FILE`] in `data_dir`; the defaults when the file does not exist. A file
    /// that cannot be read or parsed, an unknown table or key, or a value out of range is one
    /// [`KenningError::BadConfig`] naming the file, the line and the key.
    pub fn load(data_dir: &Path) -> Result<Config> {
        let path = data_dir.join(CONFIG_FILE);
        let bad = |problem: String| KenningError::BadConfig {
            path: path.clone(),
            problem,
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(bad(e.to_string())),
        };
        let config: Config = toml::from_str(&text).map_err(|e| {
            let message = e.message().trim_end();
            match e.span() {
                // The line the problem is on names the key.
                Some(span) => {
                    let line = text[..span.start].matches('\n').count() + 1;
                    let line_text = text.lines().nth(line - 1).unwrap_or_default().trim();
                    bad(format!("line {line} ({line_text}): {message}"))
                }
                None => bad(message.to_owned()),
            }
        })?;
        Ok(config)
    }
}

/// Reads a count of hours, turns or seconds, which must be at least 1. Refused while the file
/// is read, so the error names the line the value is on, as any other bad value's does.
fn at_least_one<'de, D, T>(deserializer: D) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default + PartialEq + std::fmt::Display,
{
    let value = T::deserialize(deserializer)?;
    if value == T::default() {
        return Err(serde::de::Error::custom(format!(
            "expected at least 1, got {value}"
        )));
    }
    Ok(value)
}

/// The `[review]` table of `kenning.toml`; every key is optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewConfig {
    /// The model command reviews run with; without one, no review is ever due.
    pub model_cmd: Option<String>,
    /// A review is due every this many turns of a session (at least 1).
    #[serde(deserialize_with = "at_least_one")]
    pub every_turns: u32,
    /// Seconds the model command may take (at least 1).
    #[serde(deserialize_with = "at_least_one")]
    pub timeout_secs: u64,
}

impl Default for ReviewConfig {
    /// The personal assistant's: every 10 turns, the model given two minutes.
    fn default() -> Self {
        ReviewConfig {
            model_cmd: None,
            every_turns: 10,
            timeout_secs: 120,
        }
    }
}

/// What becomes of a daily note past its retention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DailyMode {
    /// Kept, marked `forgotten`: out of every turn and search, still in the store and its
    /// exports.
    #[default]
    Archive,
    /// Deleted from the store; the audit event keeps its content hash. A note another memory
    /// names as the one it supersedes is archived instead, so that the link stays whole.
    Delete,
}

/// The `[maintenance]` table of `kenning.toml`; every key is optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MaintenanceConfig {
    /// Days a suggestion may wait for review before it expires.
    pub suggestion_ttl_days: u32,
    /// Days a daily note is kept (counted from its day).
    pub daily_retention_days: u32,
    /// What becomes of an expired daily note.
    pub daily_mode: DailyMode,
    /// Hours between two runs of the server's schedule (at least 1).
    #[serde(deserialize_with = "at_least_one")]
    pub interval_hours: u32,
}

impl Default for MaintenanceConfig {
    /// The personal assistant's defaults: suggestions for 14 days, daily notes for 180,
    /// archived, once a day.
    fn default() -> Self {
        let retention = Retention::default();
        MaintenanceConfig {
            suggestion_ttl_days: retention.pending_days,
            daily_retention_days: retention.daily_days,
            daily_mode: DailyMode::Archive,
            interval_hours: 24,
        }
    }
}

impl MaintenanceConfig {
    /// The retention the policy's `consolidate` duty is asked to apply.
    pub fn retention(&self) -> Retention {
        Retention {
            pending_days: self.suggestion_ttl_days,
            daily_days: self.daily_retention_days,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
        Config::load(dir.path())
    }

    #[test]
    fn without_a_configuration_file_the_personal_assistants_defaults_apply() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::load(dir.path()).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.maintenance.retention().pending_days, 14);
        assert_eq!(config.maintenance.retention().daily_days, 180);
        assert_eq!(config.maintenance.daily_mode, DailyMode::Archive);
        assert_eq!(config.review.every_turns, 10);
        assert_eq!(config.review.model_cmd, None);
    }

    #[test]
    fn each_table_sets_only_the_keys_it_names() {
        let config = load(
            "[maintenance]\nsuggestion_ttl_days = 3\ndaily_mode = \"delete\"\n[review]\nmodel_cmd = \"cat\"\n",
        )
        .unwrap();
        assert_eq!(config.maintenance.suggestion_ttl_days, 3);
        assert_eq!(config.maintenance.daily_mode, DailyMode::Delete);
        assert_eq!(config.maintenance.daily_retention_days, 180);
        assert_eq!(config.maintenance.interval_hours, 24);
        assert_eq!(config.review.model_cmd.as_deref(), Some("cat"));
        assert_eq!(config.review.every_turns, 10);
    }

    #[test]
    fn an_unknown_key_or_a_bad_value_is_one_error_naming_the_file_the_line_and_the_key() {
        for (text, named) in [
            ("[maintenance]\nsuggestion_ttl = 3\n", "suggestion_ttl"),
            ("[maintenance]\ndaily_mode = \"shred\"\n", "shred"),
            (
                "[maintenance]\nsuggestion_ttl_days = -1\n",
                "suggestion_ttl_days",
            ),
            ("[maintenance]\ninterval_hours = 0\n", "interval_hours"),
            ("[review]\nevery_turns = 0\n", "every_turns"),
            (
                "[review]\nmodel_cmd = \"cat\"\n\nevery_turns = 0\n",
                "every_turns",
            ),
            ("[review]\ntimeout_secs = 0\n", "timeout_secs"),
            ("[maintenence]\n", "maintenence"),
            ("[maintenance\n", ""),
        ] {
            let error = load(text).unwrap_err().to_string();
            assert!(error.contains(CONFIG_FILE), "{text:?}: {error}");
            if !named.is_empty() {
                let line = text.lines().position(|l| l.contains(named)).unwrap() + 1;
                assert!(
                    error.contains(&format!("line {line} (")),
                    "{text:?}: {error}"
                );
            }
            assert!(error.contains(named), "{text:?}: {error}");
            assert_eq!(error.lines().count(), 1, "{text:?}: {error}");
        }
    }
}
