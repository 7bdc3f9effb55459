// Builds the page into dist/ (or the directory KENNING_PAGE_DIST names): the policy component transpiled by jco's transpiler
// (@bytecodealliance/jco-transpile) into an ES module and its core module (no WASI shims: the
// component imports nothing but type definitions), the page's own modules, and cytoscape and its
// fcose layout from node_modules (for the graph's layout worker). Usage: node scripts/build.mjs
//
// The component is the one `cargo test --workspace` (or `cargo build`) builds, found from the
// repository root; KENNING_POLICY_COMPONENT names another.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpile, writeFiles } from '@bytecodealliance/jco-transpile';

/** Replaces `from` (which must occur exactly once) in the generated bindings with `to`. */
function replaceOnce(source, from, to) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + 1) >= 0) {
    console.error(`build: the transpiled bindings changed: expected exactly one\n${from}`);
    process.exit(1);
  }
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/**
 * Two of jco 0.15's helpers cost a `select` of 1,000 candidates about a third of its time in V8
 * (profiled with `node --cpu-prof`); the build replaces them with ones that do the same work:
 *
 * - `dataView(memory)`, called for every field lowered or lifted, read `memory.buffer` each
 *   time, a slow call into the engine. The view is kept while its buffer is attached: growing a
 *   (non-shared) memory detaches the old buffer, whose byteLength is then 0.
 * - `_utf8AllocateAndEncode` counted a string's UTF-8 length in a JavaScript loop before
 *   encoding it (the packed candidates' texts are one 100 kB string). The string is encoded
 *   natively into a scratch buffer (at most 3 bytes a UTF-16 code unit) and copied into an
 *   allocation of exactly its length, as before.
 */
function speedUp(source) {
  source = replaceOnce(source,
    '  const dataView = mem => dv.buffer === mem.buffer ? dv : dv = new DataView(mem.buffer);',
    `  let dvMemory = null;
  let dvBuffer = dv.buffer;
  const dataView = mem => dvMemory === mem && dvBuffer.byteLength !== 0 ? dv : (dvMemory = mem, dvBuffer = mem.buffer, dv = new DataView(dvBuffer));`);
  const start = '    // Compute the exact allocation size up front.';
  const end = '    const res = { ptr, len, codepoints };';
  const from = source.slice(source.indexOf(start), source.indexOf(end) + end.length);
  if (!from.startsWith(start) || !from.includes('TEXT_ENCODER_UTF8.encodeInto(')) {
    console.error('build: the transpiled bindings changed: no _utf8AllocateAndEncode as expected');
    process.exit(1);
  }
  source = replaceOnce(source, from, `    if (UTF8_SCRATCH.length < s.length * 3) UTF8_SCRATCH = new Uint8Array(s.length * 3);
    const { read, written: len } = TEXT_ENCODER_UTF8.encodeInto(s, UTF8_SCRATCH);
    if (read !== s.length) {
      throw new Error('failed to encode whole string');
    }
    const ptr = realloc(0, 0, 1, len);
    new Uint8Array(memory.buffer, ptr, len).set(UTF8_SCRATCH.subarray(0, len));
    const res = { ptr, len };`);
  return replaceOnce(source, '  function _utf8AllocateAndEncode(',
    '  let UTF8_SCRATCH = new Uint8Array(0);\n  function _utf8AllocateAndEncode(');
}

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(here, '../..');
export const DEFAULT_COMPONENT = join(
  repo,
  'target/wasm-components/wasm32-unknown-unknown/release/kenning_policy.init.component.wasm',
);
const component = resolve(process.env.KENNING_POLICY_COMPONENT ?? DEFAULT_COMPONENT);
const dist = resolve(process.env.KENNING_PAGE_DIST ?? join(here, 'dist'));

if (!existsSync(component)) {
  console.error(`build: no policy component at ${component}; run \`cargo test --workspace\` (or \`cargo build\`) at the repository root first, or set KENNING_POLICY_COMPONENT`);
  process.exit(1);
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const { files } = await transpile(component, {
  name: 'kenning_policy',
  outDir: join(dist, 'policy'),
  instantiation: 'async', // the page compiles the core module once and instantiates it itself
  wasiShim: false,
  noComponentErrorWrapping: true, // an `err` result is thrown as itself (validate's field errors)
  emitTypescriptDeclarations: false,
});
const bindingsFile = join(dist, 'policy/kenning_policy.js');
files[bindingsFile] = new TextEncoder().encode(speedUp(new TextDecoder().decode(files[bindingsFile])));
await writeFiles(files);
// The lean component must need nothing from its host: a transpiled import would be a WASI shim.
const bindings = readFileSync(bindingsFile, 'utf8');
const imports = bindings.match(/^import .*$/gm) ?? [];
if (imports.length > 0) {
  console.error(`build: the transpiled component imports ${imports.join('; ')}`);
  process.exit(1);
}

cpSync(join(here, 'web'), dist, { recursive: true });
cpSync(join(here, 'src'), join(dist, 'src'), { recursive: true });
mkdirSync(join(dist, 'vendor'), { recursive: true });
// The graph's layout worker (src/graph-layout-worker.js) is a classic worker: it loads cytoscape's
// UMD build and fcose's with importScripts.
cpSync(join(here, 'node_modules/cytoscape/dist/cytoscape.min.js'), join(dist, 'vendor/cytoscape.min.js'));
// fcose, cytoscape's fast force-directed layout, ships as UMD scripts that define globals.
for (const file of ['layout-base/layout-base.js', 'cose-base/cose-base.js', 'cytoscape-fcose/cytoscape-fcose.js']) {
  cpSync(join(here, 'node_modules', file), join(dist, 'vendor', file.split('/')[1]));
}
console.log(`build: ${dist} (policy from ${component})`);
