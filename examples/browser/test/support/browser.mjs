// Headless Chromium (Debian's `chromium`, or CHROMIUM_PATH) driven by playwright-core, on the
// page served from dist/ by scripts/serve.mjs. A browser that cannot start fails the tests:
// they never skip.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { EXAMPLE } from './kenning.mjs';

export const ARTIFACTS = join(EXAMPLE, 'test-artifacts');

export async function startBrowser() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  if (!existsSync(join(process.env.KENNING_PAGE_DIST ?? join(EXAMPLE, 'dist'), 'index.html'))) throw new Error('no dist/: run `npm run build` first');
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await serve(0);
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    context,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** A new page that fails the test on any uncaught error in it. */
export async function openPage(session) {
  const page = await session.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(session.url);
  await page.waitForSelector('#policy-status[data-ready]', { timeout: 120_000 });
  return { page, errors };
}
