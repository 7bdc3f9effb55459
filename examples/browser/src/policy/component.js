// The policy component, transpiled by jco (`scripts/build.mjs`) into `policy/kenning_policy.js`
// plus its core module, compiled once.
//
// The host gives every call a fresh instance: wasmtime maps the component's 8 MB pre-initialised
// memory copy-on-write, in about 30 µs. A JavaScript engine copies that memory instead, about
// 100 ms an instance, so the page keeps one instance for its session, as the host's scan streams
// (`kenning scan --jsonl`) do; the conformance kit checks that a kept instance answers exactly
// as fresh ones do, and the golden-vector test checks it again here. An instance that traps is
// dropped, and the next call gets a fresh one.
//
// The same code runs in Node (the golden-vector test) and in the page.

/**
 * Loads the transpiled component. `bindingsUrl` is the URL of `kenning_policy.js`;
 * `coreModuleBytes` (optional) the core module's bytes, fetched beside it when absent.
 */
export async function loadPolicy(bindingsUrl, coreModuleBytes) {
  const bindings = await import(bindingsUrl);
  const coreUrl = new URL('kenning_policy.core.wasm', bindingsUrl);
  const bytes = coreModuleBytes ?? new Uint8Array(await (await fetch(coreUrl)).arrayBuffer());
  const coreModule = await WebAssembly.compile(bytes);
  return new Policy(bindings, coreModule);
}

export class Policy {
  constructor(bindings, coreModule) {
    this.bindings = bindings;
    this.coreModule = coreModule;
    this.kept = null;
  }

  /** A fresh instance's `kenning:policy/policy@0.3.0` exports. */
  async instance() {
    const root = await this.bindings.instantiate(() => this.coreModule, {});
    return root.policy;
  }

  /** Runs `call` on the kept instance's exports (made on first use, dropped when a call throws). */
  async withInstance(call) {
    this.kept ??= this.instance();
    const exports = await this.kept;
    try {
      return call(exports);
    } catch (error) {
      this.kept = null;
      throw error;
    }
  }
}
