//! How much a lexical query may cost, on every backend: the budgets of scored matches, and the
//! choice of the query's words that fits one (the rarest first). SQLite counts each word's
//! matches with FTS5 (`search::plan`), PostgreSQL with its index; both choose with [`choose`].

/// Most matches a `recall` query scores (and the default). At 1 to 2 µs per scored match
/// (measured on the bench knowledge base) a query costs at most a millisecond or two whatever
/// the knowledge base's size, and a conversation of a few hundred turns is searched exactly.
pub const RECALL_POSTING_BUDGET: usize = 1_000;

/// Most matches the lexical query of a turn (inject) scores: a turn runs every time the agent
/// speaks and has about two milliseconds in all, and it only gathers candidates for the policy,
/// which ranks them with anchors, confidence and recency besides.
pub const TURN_POSTING_BUDGET: usize = 150;

/// What a query within a budget searches (see SQLite's `search::plan` for the steps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// No word matches anything.
    Nothing,
    /// These words (positions in the query, in its order), whose matches fit the budget.
    Words(Vec<usize>),
    /// Every word matches more than the budget: the one reaching least far back among its
    /// newest matches, searched among those.
    Newest,
}

/// Chooses from `counted`, each matching word's `(matches up to budget + 1, position)`: the
/// rarest words while their matches together stay within `budget`. Sorts `counted`, rarest
/// first. Every backend plans with it.
pub fn choose(counted: &mut [(usize, usize)], budget: usize) -> Choice {
    counted.sort_unstable();
    match counted.first() {
        None => return Choice::Nothing,
        Some(&(rarest, _)) if rarest > budget => return Choice::Newest,
        Some(_) => {}
    }
    let mut total = 0;
    let mut kept: Vec<usize> = Vec::new();
    for &(matches, position) in counted.iter() {
        if total + matches > budget {
            break;
        }
        total += matches;
        kept.push(position);
    }
    // Keep the query's word order: it does not change BM25, but keeps plans readable.
    kept.sort_unstable();
    Choice::Words(kept)
}
