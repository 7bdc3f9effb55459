// The page's view state in its URL (the fragment, which never reaches a server): the open tab,
// the list's filters, the selected memory and the graph's centre, so a reload, a bookmark or a
// shared link opens the same view. The token is never put here.

/** The keys the fragment may hold, and nothing else. */
const KEYS = ['tab', 'q', 'category', 'scope', 'badges', 'inactive', 'memory', 'centre', 'hops'];

/** The state the URL holds now: `{tab?, q?, ...}`, each a string. */
export function readState(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value !== null) state[key] = value;
  }
  return state;
}

/**
 * Merges `patch` into the URL's state (a `null`, `undefined` or empty value removes its key) and
 * replaces the current history entry, so Back leaves the page rather than undoing a filter.
 */
export function writeState(patch) {
  const state = { ...readState(), ...patch };
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = state[key];
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  }
  const hash = params.toString();
  const url = `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}
