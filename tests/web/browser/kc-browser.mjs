// kc-browser.mjs: what the e2e*.mjs browser tests share. openBrowser() launches Debian's
// chromium (KC_CHROMIUM, default /usr/bin/chromium) headless through playwright-core in a
// fresh profile folder and returns { ctx, userDir } (the caller removes userDir); when
// chromium or playwright-core is missing, or chromium does not start, it prints a SKIP:
// line and exits 77 (ctest's skip). check(cond, what) prints "ok" or "FAIL" and counts the
// failures in results.failures.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.KC_CHROMIUM || '/usr/bin/chromium';

export const results = { failures: 0 };
export function check(cond, what) {
  console.log((cond ? 'ok   ' : 'FAIL ') + what);
  if (!cond) results.failures++;
}

export async function openBrowser(viewport = { width: 1280, height: 720 }) {
  if (!existsSync(CHROMIUM)) {
    console.log(`SKIP: ${CHROMIUM} is not installed`);
    process.exit(77);
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    console.log('SKIP: playwright-core is not installed (npm install failed?)');
    process.exit(77);
  }
  const userDir = mkdtempSync(join(tmpdir(), 'kc-chromium-'));
  try {
    const ctx = await chromium.launchPersistentContext(userDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport,
    });
    return { ctx, userDir };
  } catch (e) {
    console.log('SKIP: chromium does not start: ' + String(e.message).split('\n')[0]);
    rmSync(userDir, { recursive: true, force: true });
    process.exit(77);
  }
}
