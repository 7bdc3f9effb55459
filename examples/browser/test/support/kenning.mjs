// The real host, for comparisons: the `kenning` program the repository builds
// (`cargo test --workspace` builds target/debug/kenning; KENNING_BIN names another), run over a
// knowledge base in a temporary data directory.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO = resolve(EXAMPLE, '../..');
export const FIXTURE = join(EXAMPLE, 'fixtures/crackme.jsonl');
export const FIXTURE_BINARY = join(EXAMPLE, 'fixtures/crackme.bin');
/** One cache of the compiled component for every data directory the tests make: compiling it
 * is most of a cold `kenning` run (seconds in a debug build), and needed once. */
const CACHE = join(EXAMPLE, 'test-artifacts/kenning-cache');

export function kenningPath() {
  const path = resolve(process.env.KENNING_BIN ?? join(REPO, 'target/debug/kenning'));
  if (!existsSync(path)) {
    throw new Error(`no kenning program at ${path}: run \`cargo test --workspace\` at the repository root, or set KENNING_BIN`);
  }
  return path;
}

/** A data directory holding the fixture imported into its subject (the fixture's binary). */
export class HostStore {
  constructor(exportFile = FIXTURE) {
    this.program = kenningPath();
    this.cacheDir = CACHE;
    this.dir = mkdtempSync(join(tmpdir(), 'kenning-browser-'));
    this.subject = join(this.dir, 'crackme.bin');
    copyFileSync(FIXTURE_BINARY, this.subject);
    this.run(['import', exportFile, '--subject', this.subject]);
  }

  /** Runs `kenning ARGS` in this data directory; returns standard output. */
  run(args, { input, native = false } = {}) {
    const global = ['--data-dir', join(this.dir, 'home'), '--cache-dir', CACHE, ...(native ? ['--native-policy'] : [])];
    return execFileSync(this.program, [...global, ...args], {
      input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, KENNING_KEY: '', KENNING_KEY_FILE: '' },
    });
  }

  /**
   * `kenning inject --json` for `turn`, and the second it ran at: the host reads its clock once
   * per turn, so a run that starts and ends within one second ran at that second.
   */
  inject(turn, { native = false } = {}) {
    const args = ['inject', '--subject', this.subject, '--json', '--image-base', hex(turn.imageBase), '--query', turn.query];
    if (turn.cursor !== null) args.push('--cursor', hex(turn.cursor));
    if (turn.currentFunction) {
      const f = turn.currentFunction;
      args.push('--function', `${f.name}@${hex(f.start)}-${hex(f.end)}`);
    }
    for (const s of turn.referencedStrings) args.push('--string', s);
    for (let attempt = 0; attempt < 20; attempt++) {
      const before = Math.floor(Date.now() / 1000);
      const out = this.run(args, { native });
      const after = Math.floor(Date.now() / 1000);
      if (before === after) return { now: before, selection: JSON.parse(out) };
    }
    throw new Error('could not run a turn within one second of the clock');
  }

  close() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const hex = (n) => `0x${n.toString(16)}`;
