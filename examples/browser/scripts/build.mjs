// Builds the page into dist/: the policy component transpiled by jco's transpiler
// (@bytecodealliance/jco-transpile) into an ES module and its core module (no WASI shims: the
// component imports nothing but type definitions), the page's own modules, and cytoscape and its
// fcose layout from node_modules. Usage: node scripts/build.mjs
//
// The component is the one `cargo test --workspace` (or `cargo build`) builds, found from the
// repository root; KENNING_POLICY_COMPONENT names another.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpile, writeFiles } from '@bytecodealliance/jco-transpile';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(here, '../..');
export const DEFAULT_COMPONENT = join(
  repo,
  'target/wasm-components/wasm32-unknown-unknown/release/kenning_policy.init.component.wasm',
);
const component = resolve(process.env.KENNING_POLICY_COMPONENT ?? DEFAULT_COMPONENT);
const dist = join(here, 'dist');

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
await writeFiles(files);
// The lean component must need nothing from its host: a transpiled import would be a WASI shim.
const bindings = readFileSync(join(dist, 'policy/kenning_policy.js'), 'utf8');
const imports = bindings.match(/^import .*$/gm) ?? [];
if (imports.length > 0) {
  console.error(`build: the transpiled component imports ${imports.join('; ')}`);
  process.exit(1);
}

cpSync(join(here, 'web'), dist, { recursive: true });
cpSync(join(here, 'src'), join(dist, 'src'), { recursive: true });
mkdirSync(join(dist, 'vendor'), { recursive: true });
cpSync(join(here, 'node_modules/cytoscape/dist/cytoscape.esm.min.mjs'), join(dist, 'vendor/cytoscape.esm.min.mjs'));
// fcose, cytoscape's fast force-directed layout, ships as UMD scripts that define globals.
for (const file of ['layout-base/layout-base.js', 'cose-base/cose-base.js', 'cytoscape-fcose/cytoscape-fcose.js']) {
  cpSync(join(here, 'node_modules', file), join(dist, 'vendor', file.split('/')[1]));
}
console.log(`build: ${dist} (policy from ${component})`);
