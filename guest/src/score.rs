//! Scoring candidates against the context: anchor match, lexical relevance, confidence and
//! recency, combined per scope; and the staleness of anchors against the live subject.

use crate::detmath;
use kenning_contract::{AnchorRef, Anchors, Candidates};

use crate::types::{Context, LiveFunction, Scope, ScoreParts};

/// Anchor score of an exact address hit on the cursor.
pub const EXACT: f32 = 1.0;
/// Anchor score of a function anchor containing the cursor or starting where the current
/// function starts.
pub const IN_FUNCTION: f32 = 0.8;
/// Anchor score of a function anchor whose name only equals the current function's name.
pub const SAME_NAME: f32 = 0.75;
/// Anchor score of a range containing the cursor.
pub const IN_RANGE: f32 = 0.7;
/// Anchor score of a referenced string anchor.
pub const STRING: f32 = 0.6;
/// Anchor score of an exact address anchor that is not at the cursor but inside the current
/// function: the memory is about the code being read.
pub const ADDRESS_IN_FUNCTION: f32 = 0.5;
/// Floor and span of a near anchor's score: from `NEAR_FLOOR + NEAR_SPAN` at the centre down
/// to `NEAR_FLOOR` at the edge of the radius.
pub const NEAR_FLOOR: f32 = 0.3;
/// See [`NEAR_FLOOR`].
pub const NEAR_SPAN: f32 = 0.3;
/// Age, in days, at which recency halves.
pub const RECENCY_HALF_LIFE_DAYS: f64 = 90.0;

const SECONDS_PER_DAY: f64 = 86_400.0;

/// The context's positions, rebased to file offsets.
struct Place<'a> {
    cursor: Option<u64>,
    /// The current function as `[start, end)` offsets, and its name.
    function: Option<(u64, u64, &'a str)>,
    referenced: &'a [String],
}

impl<'a> Place<'a> {
    fn of(context: &'a Context) -> Self {
        let base = context.image_base;
        Place {
            cursor: context.cursor.map(|c| c.saturating_sub(base)),
            function: context.current_function.as_ref().map(|f| {
                (
                    f.start.saturating_sub(base),
                    f.end.saturating_sub(base),
                    f.name.as_str(),
                )
            }),
            referenced: &context.referenced_strings,
        }
    }

    fn cursor_in(&self, start: u64, end: u64) -> bool {
        self.cursor.is_some_and(|c| start <= c && c < end)
    }
}

/// Scores every candidate; see [`crate::score`].
pub fn score_all<'a>(context: &Context, candidates: impl Into<Candidates<'a>>) -> Vec<ScoreParts> {
    let candidates = candidates.into();
    let place = Place::of(context);
    // Each loop reads only the columns it needs: assembling whole candidates would cost more
    // than scoring them.
    let max_lexical = (0..candidates.len())
        .map(|i| lexical_raw(candidates.lexical_score(i)))
        .fold(0.0f32, larger);
    (0..candidates.len())
        .map(|i| {
            let anchor = candidates
                .anchors(i)
                .iter()
                .map(|a| anchor_score(&place, a))
                .fold(0.0f32, larger);
            let lexical = if max_lexical > 0.0 {
                lexical_raw(candidates.lexical_score(i)) / max_lexical
            } else {
                0.0
            };
            let confidence = candidates.confidence(i);
            let confidence = if confidence.is_finite() {
                confidence.clamp(0.0, 1.0)
            } else {
                0.0
            };
            let recency = recency(context.now, candidates.updated_at(i));
            let total = match candidates.scope(i) {
                Scope::Local => 0.55 * anchor + 0.25 * lexical + 0.1 * confidence + 0.1 * recency,
                Scope::Global => 0.6 * lexical + 0.2 * confidence + 0.2 * recency,
            };
            ScoreParts {
                anchor,
                lexical,
                confidence,
                recency,
                total,
            }
        })
        .collect()
}

/// The larger of two scores, neither of them NaN. `f32::max` also handles NaN, which inside the
/// component costs a call to a library function for every comparison.
#[inline]
fn larger(a: f32, b: f32) -> f32 {
    if b > a { b } else { a }
}

/// A host lexical score usable for normalising: finite and positive, else 0.
fn lexical_raw(score: f32) -> f32 {
    if score.is_finite() && score > 0.0 {
        score
    } else {
        0.0
    }
}

/// `0.5^(age_days / 90)`, with the age clamped at 0 (a future timestamp is fresh).
fn recency(now: i64, updated_at: i64) -> f32 {
    let age_days = (now.saturating_sub(updated_at)).max(0) as f64 / SECONDS_PER_DAY;
    detmath::exp2(-age_days / RECENCY_HALF_LIFE_DAYS) as f32
}

/// How strongly one anchor matches the place, 0 to 1.
fn anchor_score(place: &Place<'_>, anchor: AnchorRef<'_>) -> f32 {
    match anchor {
        AnchorRef::Address { offset } => {
            if place.cursor == Some(offset) {
                EXACT
            } else if place
                .function
                .is_some_and(|(s, e, _)| s <= offset && offset < e)
            {
                ADDRESS_IN_FUNCTION
            } else {
                0.0
            }
        }
        AnchorRef::Function { start, end, name } => {
            let current = place.function;
            // The anchor's own end when known, else the current function's when it is the same.
            let end = end.or(current.and_then(|(s, e, _)| (s == start).then_some(e)));
            let contains = end.is_some_and(|end| place.cursor_in(start, end));
            if contains || current.is_some_and(|(s, _, _)| s == start) {
                IN_FUNCTION
            } else if current.is_some_and(|(_, _, current)| !current.is_empty() && current == name)
            {
                SAME_NAME
            } else {
                0.0
            }
        }
        AnchorRef::Range { start, end } => {
            if place.cursor_in(start, end) {
                IN_RANGE
            } else {
                0.0
            }
        }
        AnchorRef::Near { offset, radius } => match place.cursor {
            Some(c) => {
                let distance = c.abs_diff(offset);
                if distance > radius {
                    0.0
                } else if radius == 0 {
                    NEAR_FLOOR + NEAR_SPAN
                } else {
                    let closeness = 1.0 - distance as f64 / radius as f64;
                    NEAR_FLOOR + NEAR_SPAN * closeness as f32
                }
            }
            None => 0.0,
        },
        AnchorRef::String { value } => {
            if place.referenced.iter().any(|s| s == value) {
                STRING
            } else {
                0.0
            }
        }
    }
}

/// The anchor that matches the context best (the first of equals), or the first anchor when
/// none matches; `None` without anchors.
pub fn best_anchor<'a>(
    context: &Context,
    anchors: impl Into<Anchors<'a>>,
) -> Option<AnchorRef<'a>> {
    let place = Place::of(context);
    let mut best: Option<(AnchorRef<'a>, f32)> = None;
    for anchor in anchors.into().iter() {
        let s = anchor_score(&place, anchor);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((anchor, s));
        }
    }
    best.map(|(a, _)| a)
}

/// Whether `anchor` no longer matches the live subject; see [`crate::is_stale`].
pub fn is_stale<'a>(context: &Context, anchor: impl Into<AnchorRef<'a>>) -> bool {
    let base = context.image_base;
    let live = &context.live_functions;
    let offsets = |f: &LiveFunction| (f.start.saturating_sub(base), f.end.saturating_sub(base));
    let inside_some_function = |offset: u64| {
        live.iter().any(|f| {
            let (s, e) = offsets(f);
            s <= offset && offset < e
        })
    };
    match anchor.into() {
        AnchorRef::Function { start, name, .. } => {
            !live.is_empty() && !live.iter().any(|f| offsets(f).0 == start && f.name == name)
        }
        AnchorRef::String { value } => {
            !context.live_strings.is_empty() && !context.live_strings.iter().any(|s| s == value)
        }
        AnchorRef::Address { offset } => !live.is_empty() && !inside_some_function(offset),
        AnchorRef::Near { offset, .. } => !live.is_empty() && !inside_some_function(offset),
        AnchorRef::Range { start, .. } => !live.is_empty() && !inside_some_function(start),
    }
}

/// Whether any of the candidate's anchors is stale.
pub fn candidate_is_stale(context: &Context, anchors: Anchors<'_>) -> bool {
    anchors.iter().any(|a| is_stale(context, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{
        Anchor, Candidate, FunctionAnchor, MemoryKind, OffsetRadius, OffsetRange, SubjectKind,
    };

    const DAY: i64 = 86_400;

    fn local(id: u64, anchors: Vec<Anchor>) -> Candidate {
        Candidate {
            id,
            scope: Scope::Local,
            kind: MemoryKind::Fact,
            author: kenning_contract::args::Author::Agent,
            badge: kenning_contract::args::Badge::Native,
            text: format!("memory {id}"),
            tags: vec![],
            confidence: 0.8,
            created_at: 0,
            updated_at: 0,
            anchors,
            lexical_score: 0.0,
        }
    }

    fn binary_context(image_base: u64, cursor: u64) -> Context {
        let mut c = Context::at(0, SubjectKind::Binary);
        c.image_base = image_base;
        c.cursor = Some(cursor);
        c.current_function = Some(LiveFunction {
            start: image_base + 0x1000,
            end: image_base + 0x1100,
            name: "parse_header".into(),
        });
        c
    }

    fn function(start: u64, end: Option<u64>, name: &str) -> Anchor {
        Anchor::Function(FunctionAnchor {
            start,
            end,
            name: name.into(),
        })
    }

    fn anchor_of(context: &Context, anchor: Anchor) -> f32 {
        score_all(context, &[local(1, vec![anchor])])[0].anchor
    }

    #[test]
    fn exact_beats_function_and_range_which_beat_near() {
        let ctx = binary_context(0x400000, 0x401010);
        let exact = anchor_of(&ctx, Anchor::Address { offset: 0x1010 });
        let in_function = anchor_of(&ctx, function(0x1000, Some(0x1100), "f"));
        let in_range = anchor_of(
            &ctx,
            Anchor::Range(OffsetRange {
                start: 0x1008,
                end: 0x1020,
            }),
        );
        let near = anchor_of(
            &ctx,
            Anchor::Near(OffsetRadius {
                offset: 0x1010,
                radius: 16,
            }),
        );
        assert_eq!(exact, 1.0);
        assert_eq!(in_function, 0.8);
        assert_eq!(in_range, 0.7);
        assert!((near - 0.6).abs() < 1e-6);
        assert!(exact > in_function && in_function > in_range && in_range > near && near > 0.0);
    }

    #[test]
    fn near_decays_with_distance_and_ends_at_the_radius() {
        let at = |cursor: u64| {
            anchor_of(
                &binary_context(0, cursor),
                Anchor::Near(OffsetRadius {
                    offset: 0x2000,
                    radius: 100,
                }),
            )
        };
        assert!(at(0x2000) > at(0x2000 + 10));
        assert!(at(0x2000 + 10) > at(0x2000 - 50));
        assert!((at(0x2000 + 100) - 0.3).abs() < 1e-6);
        assert_eq!(at(0x2000 + 101), 0.0);
    }

    #[test]
    fn function_anchor_rules() {
        let ctx = binary_context(0x400000, 0x401080);
        // Same start as the current function, end unknown: the current function's end applies.
        assert_eq!(anchor_of(&ctx, function(0x1000, None, "old_name")), 0.8);
        // Only the name matches.
        assert_eq!(
            anchor_of(&ctx, function(0x5000, None, "parse_header")),
            0.75
        );
        // Elsewhere.
        assert_eq!(
            anchor_of(&ctx, function(0x5000, Some(0x5100), "other")),
            0.0
        );
        // A function anchor with its own end contains the cursor even without a current function.
        let mut bare = ctx.clone();
        bare.current_function = None;
        assert_eq!(anchor_of(&bare, function(0x1000, Some(0x1100), "x")), 0.8);
        assert_eq!(anchor_of(&bare, function(0x1000, Some(0x1080), "x")), 0.0);
    }

    #[test]
    fn addresses_rebase_through_the_image_base() {
        let anchor = Anchor::Address { offset: 0x1234 };
        assert_eq!(
            anchor_of(&binary_context(0x400000, 0x401234), anchor.clone()),
            1.0
        );
        assert_eq!(
            anchor_of(&binary_context(0x7ff000000, 0x7ff001234), anchor.clone()),
            1.0
        );
        assert_eq!(anchor_of(&binary_context(0, 0x1234), anchor.clone()), 1.0);
        assert_eq!(anchor_of(&binary_context(0x400000, 0x1234), anchor), 0.0);
    }

    #[test]
    fn address_inside_current_function_scores_below_range() {
        let ctx = binary_context(0, 0x1010);
        let s = anchor_of(&ctx, Anchor::Address { offset: 0x1050 });
        assert!(s > 0.0 && s < IN_RANGE);
    }

    #[test]
    fn string_anchors_match_exactly() {
        let mut ctx = binary_context(0, 0);
        ctx.referenced_strings = vec!["Invalid license".into()];
        assert_eq!(
            anchor_of(
                &ctx,
                Anchor::String {
                    value: "Invalid license".into()
                }
            ),
            0.6
        );
        assert_eq!(
            anchor_of(
                &ctx,
                Anchor::String {
                    value: "invalid license".into()
                }
            ),
            0.0
        );
    }

    #[test]
    fn best_anchor_wins() {
        let ctx = binary_context(0, 0x1010);
        let c = local(
            1,
            vec![
                Anchor::Range(OffsetRange {
                    start: 0,
                    end: 0x2000,
                }),
                Anchor::Address { offset: 0x1010 },
            ],
        );
        assert_eq!(score_all(&ctx, &[c])[0].anchor, 1.0);
    }

    #[test]
    fn lexical_normalises_over_candidates_and_ignores_junk() {
        let ctx = Context::at(0, SubjectKind::Account);
        let mut cs: Vec<Candidate> = (1..=4).map(|i| local(i, vec![])).collect();
        cs[0].lexical_score = 4.0;
        cs[1].lexical_score = 2.0;
        cs[2].lexical_score = f32::NAN;
        cs[3].lexical_score = -7.0;
        let s = score_all(&ctx, &cs);
        assert_eq!(
            [s[0].lexical, s[1].lexical, s[2].lexical, s[3].lexical],
            [1.0, 0.5, 0.0, 0.0]
        );
        let none = score_all(&ctx, &[local(1, vec![])]);
        assert_eq!(none[0].lexical, 0.0);
    }

    #[test]
    fn recency_halves_every_ninety_days_and_confidence_clamps() {
        let mut ctx = Context::at(180 * DAY, SubjectKind::Account);
        let mut c = local(1, vec![]);
        c.confidence = 3.0;
        let s = score_all(&ctx, std::slice::from_ref(&c))[0];
        assert!((s.recency - 0.25).abs() < 1e-6);
        assert_eq!(s.confidence, 1.0);
        ctx.now = -DAY; // the memory is "from the future": fresh, not above 1
        assert_eq!(score_all(&ctx, &[c])[0].recency, 1.0);
    }

    #[test]
    fn totals_weigh_parts_by_scope() {
        let ctx = binary_context(0, 0x1010);
        let mut l = local(1, vec![Anchor::Address { offset: 0x1010 }]);
        l.lexical_score = 1.0;
        l.confidence = 0.5;
        let mut g = l.clone();
        g.scope = Scope::Global;
        g.anchors.clear();
        let s = score_all(&ctx, &[l, g]);
        assert!((s[0].total - (0.55 + 0.25 + 0.05 + 0.1)).abs() < 1e-6);
        assert!((s[1].total - (0.6 + 0.1 + 0.2)).abs() < 1e-6);
    }

    #[test]
    fn staleness_needs_live_knowledge() {
        let mut ctx = binary_context(0x400000, 0x401010);
        let f = function(0x1000, None, "parse_header");
        let s = Anchor::String {
            value: "key".into(),
        };
        let a = Anchor::Address { offset: 0x9000 };
        // Nothing known live: nothing is stale.
        assert!(!is_stale(&ctx, &f) && !is_stale(&ctx, &s) && !is_stale(&ctx, &a));

        ctx.live_functions = vec![LiveFunction {
            start: 0x401000,
            end: 0x401100,
            name: "parse_header".into(),
        }];
        ctx.live_strings = vec!["other".into()];
        assert!(!is_stale(&ctx, &f));
        assert!(is_stale(&ctx, &function(0x1000, None, "renamed")));
        assert!(is_stale(&ctx, &function(0x1004, None, "parse_header")));
        assert!(is_stale(&ctx, &s));
        assert!(!is_stale(
            &ctx,
            &Anchor::String {
                value: "other".into()
            }
        ));
        assert!(is_stale(&ctx, &a));
        assert!(!is_stale(&ctx, &Anchor::Address { offset: 0x10ff }));
        assert!(!is_stale(
            &ctx,
            &Anchor::Near(OffsetRadius {
                offset: 0x1050,
                radius: 8
            })
        ));
        assert!(is_stale(
            &ctx,
            &Anchor::Range(OffsetRange {
                start: 0x1100,
                end: 0x1200
            })
        ));
        let c = local(1, vec![Anchor::Address { offset: 0x1010 }, s]);
        assert!(candidate_is_stale(&ctx, (&c.anchors).into()));
    }

    #[test]
    fn best_anchor_prefers_the_strongest_match() {
        let ctx = binary_context(0, 0x1010);
        let anchors = vec![
            Anchor::Near(OffsetRadius {
                offset: 0x1000,
                radius: 64,
            }),
            Anchor::Address { offset: 0x1010 },
            Anchor::Address { offset: 0x1010 },
        ];
        assert_eq!(best_anchor(&ctx, &anchors), Some((&anchors[1]).into()));
        let mut far = binary_context(0, 0x9999);
        far.current_function = None;
        assert_eq!(best_anchor(&far, &anchors), Some((&anchors[0]).into()));
        assert!(best_anchor(&ctx, &Vec::new()).is_none());
    }

    #[test]
    fn scoring_is_deterministic() {
        let ctx = binary_context(0x400000, 0x401010);
        let cs: Vec<Candidate> = (0..50)
            .map(|i| {
                let mut c = local(
                    i,
                    vec![Anchor::Near(OffsetRadius {
                        offset: 0x1000 + i * 3,
                        radius: 40,
                    })],
                );
                c.lexical_score = (i % 7) as f32;
                c.updated_at = -(i as i64) * DAY;
                c
            })
            .collect();
        let a = score_all(&ctx, &cs);
        let b = score_all(&ctx, &cs);
        assert_eq!(a, b);
    }
}
