// The HTTP API of the `kenning serve` that served this page, as the page calls it: one bearer
// token, one subject, JSON in and out. Every failure is an `ApiError` carrying the API's
// `{"error": {"code", "message", "path"}}` (or what went wrong on the way), never a bare status.

/** A failed call: the API's error code and message, the field it names (`path`) and the status. */
export class ApiError extends Error {
  constructor(status, code, message, path = '') {
    super(path ? `${message} (${path})` : message);
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

/** Most memories one listing page holds (the API's limit, `MAX_LIST_LIMIT` in host/src/service/governance.rs). */
export const LIST_PAGE = 100;

export class Api {
  /**
   * `token`: the bearer token; `subject`: the subject's spec as the token names it (may be
   * empty until one is chosen); `origin`: where the API is (this page's origin by default).
   */
  constructor(token, subject = '', origin = location.origin) {
    this.token = token;
    this.subject = subject;
    this.origin = origin;
  }

  /** The path of `rest` below this subject. */
  subjectPath(rest) {
    return `/v1/subjects/${encodeURIComponent(this.subject)}/${rest}`;
  }

  /** One call: `method` on `path` with an optional JSON `body`; resolves to the parsed answer. */
  async call(method, path, body) {
    const headers = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(this.origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch (error) {
      throw new ApiError(0, 'unreachable', `the server could not be reached (${error.message})`);
    }
    const text = await response.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: reported below with the status.
    }
    if (!response.ok) {
      const e = parsed?.error;
      if (e) throw new ApiError(response.status, e.code, e.message, e.path ?? '');
      throw new ApiError(response.status, 'http', `the server answered ${response.status} ${response.statusText}`);
    }
    if (parsed === null && text) throw new ApiError(response.status, 'bad_answer', 'the server answered something that is not JSON');
    return parsed;
  }

  /** What the token grants: `{id, role, subject_count, subjects}`. */
  whoami() {
    return this.call('GET', '/v1/token');
  }

  /** One page of memories (1-based), newest first; `status`: accepted, pending or all. */
  memories(page, status = 'all', limit = LIST_PAGE) {
    return this.call('GET', this.subjectPath(`memories?status=${status}&limit=${limit}&page=${page}`));
  }

  /** One memory by id. */
  memory(id) {
    return this.call('GET', this.subjectPath(`memories/${id}`));
  }

  /** The memories awaiting review, oldest first (human tokens). */
  review() {
    return this.call('GET', this.subjectPath('review'));
  }

  /** Accepts or rejects (`decision`) a memory awaiting review. */
  decide(id, decision) {
    return this.call('POST', this.subjectPath(`review/${id}/${decision}`));
  }

  /** Forgets a memory: its text is erased, and it is read by no one again. */
  forget(id) {
    return this.call('DELETE', this.subjectPath(`memories/${id}`));
  }

  /** Revises a memory: `{content?, metadata?: {tags?, categories?}, reason?}`. */
  revise(id, change) {
    return this.call('PATCH', this.subjectPath(`memories/${id}`), change);
  }

  /** The settings in force for the subject, or for one of its threads. */
  settings(thread = null) {
    return this.call('GET', this.subjectPath(thread === null ? 'settings' : `threads/${encodeURIComponent(thread)}/settings`));
  }

  /** Turns memory on or off for the subject, or for one of its threads. */
  setEnabled(enabled, thread = null) {
    const path = thread === null ? 'settings' : `threads/${encodeURIComponent(thread)}/settings`;
    return this.call('PUT', this.subjectPath(path), { enabled });
  }

  /** One read-only SELECT over the subject's views (see docs/query.md): `{columns, rows}`. */
  query(sql) {
    return this.call('POST', this.subjectPath('query'), { sql });
  }
}

/**
 * A memory as the API lists it (`ListedMemory`), in the shape the page's views and retrieval
 * use for a memory read from an export file (src/format/export-file.js): anchors as offsets
 * from the image base, times in seconds.
 */
export function fromListed(m) {
  const seconds = (rfc3339) => Math.floor(Date.parse(rfc3339) / 1000);
  return {
    id: m.memory_id,
    scope: m.scope,
    type: m.memory_type,
    text: m.content,
    tags: m.tags,
    categories: m.categories,
    confidence: m.confidence_score,
    anchors: m.anchors.map(anchorOf),
    imageBase: m.image_base,
    author: m.author,
    badge: m.badge,
    status: m.status,
    thread: m.source_thread_id ?? null,
    target: m.target ?? null,
    createdAt: seconds(m.created_at),
    updatedAt: seconds(m.updated_at),
    supersedes: null,
    forgets: m.forgets ?? null,
  };
}

function anchorOf(a) {
  switch (a.kind) {
    case 'function': return { kind: 'function', name: a.name, start: a.start, end: a.end ?? null };
    case 'range': return { kind: 'range', start: a.start, end: a.end };
    case 'address': return { kind: 'address', offset: a.offset };
    case 'near': return { kind: 'near', offset: a.offset, radius: a.radius };
    default: return { kind: 'string', value: a.value };
  }
}
