// Serves dist/ (or the directory KENNING_PAGE_DIST names) on 127.0.0.1 (static files only; the page needs nothing else).
// Usage: node scripts/serve.mjs [PORT]   (default 8080; 0 picks a free port)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(process.env.KENNING_PAGE_DIST ?? fileURLToPath(new URL('../dist', import.meta.url)));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.jsonl': 'application/jsonl', '.png': 'image/png',
};

/** Starts the server; resolves to it once it listens. */
export function serve(port = 8080) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const file = normalize(join(ROOT, path.endsWith('/') ? `${path}index.html` : path));
    if (file !== ROOT && !file.startsWith(ROOT + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8080));
  console.log(`kenning memory browser: http://127.0.0.1:${server.address().port}/`);
}
