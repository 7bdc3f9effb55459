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
// The same code runs in Node (the golden-vector test) and in the page's policy worker
// (src/policy/worker.js).

/**
 * Loads the transpiled component. `bindingsUrl` is the URL of `kenning_policy.js`;
 * `coreModuleBytes` (optional) the core module's bytes, fetched beside it when absent. A failure
 * is thrown as an Error naming the file that could not be loaded or compiled.
 */
export async function loadPolicy(bindingsUrl, coreModuleBytes) {
  let bindings;
  try {
    bindings = await import(bindingsUrl);
  } catch (error) {
    throw new Error(`the policy's bindings (${bindingsUrl}) could not be loaded: ${error.message}`);
  }
  const coreUrl = new URL('kenning_policy.core.wasm', bindingsUrl);
  let bytes = coreModuleBytes;
  if (!bytes) {
    let response;
    try {
      response = await fetch(coreUrl);
    } catch (error) {
      throw new Error(`the policy's core module (${coreUrl}) could not be fetched: ${error.message}`);
    }
    if (!response.ok) throw new Error(`the policy's core module (${coreUrl}) could not be fetched: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  let coreModule;
  try {
    coreModule = await WebAssembly.compile(bytes);
  } catch (error) {
    throw new Error(`the policy's core module (${coreUrl}) could not be compiled: ${error.message}`);
  }
  return new Policy(bindings, coreModule);
}

export class Policy {
  constructor(bindings, coreModule) {
    this.bindings = bindings;
    this.coreModule = coreModule;
    this.kept = null;
  }

  /** A fresh instance's `kenning:policy/policy@0.4.0` exports. */
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
