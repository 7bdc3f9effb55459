// The memory list's filters, as the seed's browser and `kenning list` read them: words (every
// content word must occur in the memory, as the host's listing requires), `#tag` tokens,
// categories, scope, badges and status; newest first (last changed, as `kenning list` orders
// them), at most 1,000 memories of each scope. Unlike `kenning list --query`, which ranks by
// relevance and brings thread neighbours along, words here only filter, as the HTTP API's
// listing (`GET memories?q=`) does.

import { isStopword, splitTagTokens } from './retrieval/query.js';

export const PER_SCOPE = 1000;

const NOT_WORD = /[^\p{Alphabetic}\p{N}_]+/u;

/** The words of a listing filter that must all occur (function words dropped unless alone). */
function listingWords(text) {
  const words = text.split(NOT_WORD).filter((w) => w !== '');
  const content = words.filter((w) => !isStopword(w));
  return content.length > 0 ? content : words;
}

/**
 * Filters `kb`'s memories. `filter`: `{text, category, scope, badges: Set, includeInactive}`.
 * Returns `{global, local}`: `{shown, total}` each, newest first, and `matching`: all of them.
 */
export function filterMemories(kb, filter) {
  const { words, tags } = splitTagTokens(filter.text ?? '');
  const phrases = listingWords(words).map((w) => kb.index.phrase(w));
  let allowed = null;
  for (const phrase of phrases) {
    const ids = new Set(kb.index.matching(phrase));
    allowed = allowed === null ? ids : new Set([...allowed].filter((id) => ids.has(id)));
  }
  const lower = (s) => s.toLowerCase();
  const passes = (m) =>
    (allowed === null || allowed.has(m.id)) &&
    tags.every((tag) => m.tags.some((t) => lower(t) === tag)) &&
    (!filter.category || m.categories.includes(filter.category)) &&
    (!filter.scope || filter.scope === 'any' || m.scope === filter.scope) &&
    (!filter.badges || filter.badges.has(m.badge)) &&
    (filter.includeInactive || m.status === 'active');
  const matching = [...kb.memories.values()].filter(passes).sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
  const of = (scope) => {
    const all = matching.filter((m) => m.scope === scope);
    return { shown: all.slice(0, PER_SCOPE), total: all.length };
  };
  return { global: of('global'), local: of('local'), matching };
}

/** Every category of the knowledge base, sorted. */
export const categoriesOf = (kb) => [...new Set([...kb.memories.values()].flatMap((m) => m.categories))].sort();
