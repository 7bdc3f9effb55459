// The page's side of the policy worker (src/policy/worker.js): each call posts a request with an
// id and returns a promise of its answer. A call the worker refuses rejects with the worker's
// message; a trap in the policy, or a worker that dies or cannot start, rejects every pending
// call with a clear error, and the next call starts a fresh worker (given the knowledge base
// again).

/** A promise-based client of one policy worker at a time (see `startPolicyWorker`). */
class PolicyClient {
  #bindingsUrl;
  #workerUrl;
  #worker = null;
  #pending = new Map();
  #nextId = 1;
  #opened = null;

  constructor(bindingsUrl, workerUrl) {
    this.#bindingsUrl = String(bindingsUrl);
    this.#workerUrl = workerUrl;
  }

  /** The running worker, if any (for tests that need to stop it). */
  get worker() {
    return this.#worker;
  }

  /** The policy's `describe()`: `{name, version, contractVersion, capabilities, defaultLimits}`. */
  describe() {
    return this.#call('describe');
  }

  /**
   * The scan of `text` for `target`, stored by `author` (human, agent, triage, external, peer),
   * as `kenning scan --jsonl` prints it.
   */
  scan(target, text, author = 'human') {
    return this.#call('scan', { target, text, author });
  }

  /**
   * Gives the worker the knowledge base turns gather from: `memories` as `parseExport` returns
   * them (null: none), `meta` `{subjectKind}`. Resolves to `{memories}`, how many it holds.
   */
  open(memories, meta = {}) {
    this.#opened = memories ? { memories, meta } : null;
    return this.#call('open', { memories, meta });
  }

  /**
   * A turn over the opened knowledge base, `{turn, now, limits}` as `runTurn` takes them;
   * resolves to `{candidates: [{memory, lexicalScore, score}], selection, timings}`.
   */
  turn(inputs) {
    return this.#call('turn', inputs);
  }

  /** Gives the worker `candidates` (`[{memory, lexicalScore}]`) for `select` calls that name none. */
  stage(candidates) {
    return this.#call('stage', { candidates });
  }

  /**
   * `select` over `inputs.candidates` (`[{memory, lexicalScore}]`, or the staged ones when
   * absent) with `{turn, now, limits}`, as `kenning bench` times it; resolves to `{selection,
   * timings}`.
   */
  async select(inputs) {
    const { selectionJson, timings } = await this.#call('select', inputs);
    return { selection: JSON.parse(selectionJson), timings };
  }

  /** Ends the worker; pending calls reject, and the next call starts a fresh one. */
  terminate() {
    this.#fail(new Error('the policy worker was stopped'));
  }

  #call(op, args) {
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    });
  }

  #start() {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl, { type: 'module', name: 'kenning policy' });
    worker.addEventListener('message', ({ data }) => this.#answer(worker, data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const why = event.message ? `it stopped: ${event.message}` : 'it could not start, or stopped';
      if (worker === this.#worker) this.#fail(new Error(`the policy worker (${this.#workerUrl}): ${why}`));
    });
    worker.addEventListener('messageerror', () => {
      if (worker === this.#worker) this.#fail(new Error('the policy worker sent an answer the page could not read'));
    });
    this.#worker = worker;
    // Answers to these two come back like any other; their failures reach the calls after them.
    worker.postMessage({ id: 0, op: 'load', args: { bindingsUrl: this.#bindingsUrl } });
    if (this.#opened) worker.postMessage({ id: 0, op: 'open', args: this.#opened });
    return worker;
  }

  #answer(worker, { id, ok, value, error }) {
    if (worker !== this.#worker) return;
    const pending = this.#pending.get(id);
    if (ok) {
      this.#pending.delete(id);
      pending?.resolve(value);
      return;
    }
    if (error.trap) {
      this.#fail(new Error(error.message));
      return;
    }
    this.#pending.delete(id);
    pending?.reject(new Error(error.message));
  }

  /** Ends the current worker and rejects every pending call with `error`. */
  #fail(error) {
    this.#worker?.terminate();
    this.#worker = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
  }
}

/**
 * Starts the policy worker over the transpiled component at `bindingsUrl` (the URL of
 * `policy/kenning_policy.js`); `workerUrl` names another worker script. Returns the client at
 * once: the worker loads the component in the background, and calls wait for it (a failure to
 * load rejects them with what failed).
 */
export function startPolicyWorker(bindingsUrl, { workerUrl = new URL('./worker.js', import.meta.url) } = {}) {
  return new PolicyClient(bindingsUrl, workerUrl);
}
