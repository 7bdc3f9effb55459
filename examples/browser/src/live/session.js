// The signed-in session: the token and the chosen subject, kept in this tab's sessionStorage
// (a reload stays signed in; closing the tab signs out; other tabs and sites never see it).
import { Api, LIST_PAGE, fromListed } from './api.js';

const KEY = 'kenning-live-session';
/** Listing pages asked for at once. */
const READ_AHEAD = 4;

/** Whether this page was served by `kenning serve` (its API answers beside it). */
export async function servedByKenning() {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return false;
  try {
    const response = await fetch('/v1/health', { cache: 'no-store' });
    if (!response.ok) return false;
    const health = await response.json();
    return health?.status === 'ok' && typeof health.version === 'string';
  } catch {
    return false;
  }
}

/** The saved `{token, subject}`, or null. */
export function savedSession() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    return typeof saved?.token === 'string' ? saved : null;
  } catch {
    return null;
  }
}

export const saveSession = (token, subject) => sessionStorage.setItem(KEY, JSON.stringify({ token, subject }));
export const clearSession = () => sessionStorage.removeItem(KEY);

/**
 * A knowledge base of the server as the page holds it: every memory the token may list (for a
 * human token, those awaiting review too), kept up to date after each action.
 */
export class LiveKnowledgeBase {
  /** `api`: an {@link Api} with the subject chosen; `grant`: what `GET /v1/token` answered. */
  constructor(api, grant) {
    this.api = api;
    this.grant = grant;
    this.memories = new Map();
    this.total = 0;
  }

  get isHuman() {
    return this.grant.role === 'human';
  }

  /** The listing's status filter this token may use: humans also see what awaits review. */
  get status() {
    return this.isHuman ? 'all' : 'accepted';
  }

  /**
   * Reads every memory, a page of {@link LIST_PAGE} at a time, newest first; `onPage(done,
   * total)` hears after each page (the first one paints the list).
   */
  async load(onPage = () => {}) {
    const memories = new Map();
    const take = (answer) => {
      for (const m of answer.memories) memories.set(m.memory_id, fromListed(m));
    };
    const first = await this.api.memories(1, this.status, LIST_PAGE);
    take(first);
    this.total = first.total;
    this.memories = memories;
    await onPage(memories.size, first.total);
    // The rest a few pages at a time: the server answers reads on every core.
    for (let page = 2; page <= first.pages; page += READ_AHEAD) {
      const pages = [];
      for (let p = page; p < page + READ_AHEAD && p <= first.pages; p++) pages.push(this.api.memories(p, this.status, LIST_PAGE));
      for (const answer of await Promise.all(pages)) take(answer);
      await onPage(memories.size, first.total);
    }
    await this.linkSupersessions();
  }

  /** Marks which listed memories replace which (the `supersedes` column of the query views). */
  async linkSupersessions() {
    try {
      const { rows } = await this.api.query('SELECT id, supersedes FROM memories WHERE supersedes IS NOT NULL');
      for (const [id, supersedes] of rows) {
        const memory = this.memories.get(id);
        if (memory) memory.supersedes = supersedes;
      }
    } catch {
      // A server whose query login is not set up (PostgreSQL) lists without the links.
    }
  }

  /**
   * Reads `ids` again after an action: a memory the token can no longer list (forgotten,
   * rejected, superseded) leaves the page; the newest page is read too, for memories the action
   * made (a proposal, a revision).
   */
  async refresh(ids) {
    for (const id of new Set(ids.filter((id) => Number.isSafeInteger(id)))) {
      try {
        const memory = fromListed(await this.api.memory(id));
        if (memory.status === 'active') this.memories.set(id, memory);
        else this.memories.delete(id);
      } catch (error) {
        if (error.status === 404) this.memories.delete(id);
        else throw error;
      }
    }
    const newest = await this.api.memories(1, this.status, 100);
    for (const m of newest.memories) this.memories.set(m.memory_id, fromListed(m));
    this.total = newest.total;
    await this.linkSupersessions();
  }
}

export { Api };
