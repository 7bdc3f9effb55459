// A real `kenning serve` over a HostStore's data directory, on a free port of 127.0.0.1, with
// tokens made by `kenning token create`: what the live page talks to in its tests. The page it
// serves is the one embedded in the binary when it was built (run `npm run build`, then
// `cargo build -p kenning-cli`, as run-tests.sh does).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Starts `kenning serve` for `host` (a HostStore); resolves to `{url, stop()}`. */
export async function startServer(host) {
  const child = spawn(host.program, ['--data-dir', join(host.dir, 'home'), '--cache-dir', host.cacheDir, 'serve', '--port', '0', '--no-maintenance'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KENNING_KEY: '', KENNING_KEY_FILE: '' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`kenning serve did not start in 60 s: ${stderr}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/serving (http:\/\/[^/\s]+)\/v1\/.*\n/);
      if (found) {
        clearTimeout(timer);
        if (/no memory browser/.test(found[0])) {
          child.kill('SIGTERM');
          reject(new Error(`${host.program} was built without the page: run \`npm run build\` here, then \`cargo build -p kenning-cli\` (run-tests.sh does both)`));
        } else {
          resolve(`${found[1]}/`);
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kenning serve exited (${code}): ${stderr}`));
    });
  });
  return {
    url,
    /** Stops the server (SIGTERM: a clean shutdown). */
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    },
  };
}

/** A new token for `host`'s subject (or `subjects`) with `role`. */
export function makeToken(host, role, subjects = [host.subject]) {
  const args = ['token', 'create', '--role', role];
  for (const s of subjects) args.push('--subject', s);
  return host.run(args).trim();
}
