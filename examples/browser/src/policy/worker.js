// The policy worker: a dedicated module Web Worker that holds the policy component and the opened
// knowledge base, so that scans and turns (gathering the candidates, packing them, `select`) never
// run on the page's main thread. src/policy/client.js starts it and speaks its protocol:
//
//   request  {id, op, args}      op: load, open, stage, describe, scan, turn, select
//   answer   {id, ok: true, value} or {id, ok: false, error: {message, trap}}
//
// Requests are handled one at a time, in the order they were posted, so a turn posted after an
// `open` sees the knowledge base that `open` built. `trap` marks a WebAssembly trap: the client
// then ends this worker and starts a fresh one for the next call.
import { loadPolicy } from './component.js';
import { hostScanResult } from './wit.js';
import { KnowledgeBase } from '../retrieval/candidates.js';
import { runTurn, selectOver } from '../turn.js';

let policy = null; // a promise of the loaded Policy, from `load`
let kb = new KnowledgeBase([]);
let subjectKind = 'binary';
let staged = []; // candidates given once for later `select` calls (`kenning bench`'s workload)

function loaded() {
  if (!policy) throw new Error('the policy worker was asked for the policy before loading it');
  return policy;
}

const ops = {
  /** `{bindingsUrl}`: compiles the component; every later call waits for it (or fails with it). */
  load({ bindingsUrl }) {
    policy = loadPolicy(bindingsUrl);
    policy.catch(() => {}); // reported to the calls that need it, not as an unhandled rejection
    return policy.then(() => null);
  },
  /** `{memories, meta: {subjectKind}}`: the knowledge base turns gather from (null: none). */
  open({ memories, meta = {} }) {
    kb = new KnowledgeBase(memories ?? []);
    subjectKind = ['binary', 'account', 'profile'].includes(meta.subjectKind) ? meta.subjectKind : 'binary';
    return { memories: kb.memories.size };
  },
  async describe() {
    return (await loaded()).withInstance((p) => p.describe());
  },
  /**
   * `{target, text, author}`: the policy's scan of one text, as `kenning scan --jsonl` prints
   * it (the author a human unless named).
   */
  async scan({ target, text, author = 'human' }) {
    const [result] = await (await loaded()).withInstance((p) => p.scan([{ text, target, author }]));
    return hostScanResult(result);
  },
  /** `{turn, now, limits}`: a turn over the opened knowledge base. */
  async turn({ turn, now, limits }) {
    return runTurn(await loaded(), kb, subjectKind, turn, now, limits);
  },
  /** `{candidates}`: kept for `select` calls that name none, as an opened knowledge base is kept. */
  stage({ candidates }) {
    staged = candidates ?? [];
    return { candidates: staged.length };
  },
  /**
   * `{turn, now, limits, candidates?}`: `select` over the given candidates, or the staged ones
   * (`kenning bench`'s workload). Only the selection comes back, as JSON text: it holds every
   * candidate's outcome and parts, and a string crosses to the page as one copy where a
   * thousand small objects are cloned one by one.
   */
  async select({ turn, now, limits, candidates }) {
    const { selection, timings } = await selectOver(await loaded(), candidates ?? staged, subjectKind, turn, now, limits);
    return { selectionJson: JSON.stringify(selection), timings };
  },
};

let queue = Promise.resolve();

/** Milliseconds since the epoch, comparable across threads (each has its own timeOrigin). */
const clock = () => performance.timeOrigin + performance.now();

self.addEventListener('message', ({ data: { id, op, args } }) => {
  const receivedAt = clock(); // the request has been read (deserialised) by now
  queue = queue.then(async () => {
    try {
      if (!Object.hasOwn(ops, op)) throw new Error(`the policy worker has no operation "${op}"`);
      const value = await ops[op](args ?? {});
      // A turn's answer says when the worker had its request and when it answered, so the page
      // can tell the time spent passing messages from the time spent working.
      if (value?.timings) Object.assign(value.timings, { receivedAt, answeredAt: clock() });
      self.postMessage({ id, ok: true, value });
    } catch (error) {
      const trap = error instanceof WebAssembly.RuntimeError;
      const message = error instanceof Error ? error.message : String(error);
      self.postMessage({ id, ok: false, error: { message: trap ? `the policy trapped: ${message}` : message, trap } });
    }
  });
});
