// e2e-calibrate.mjs: the console's corner editor in a real browser (Debian's chromium,
// headless, driven by playwright-core) against `kifucam calibrate --serve 127.0.0.1:0` on a
// rendered frame of an empty board whose corners are given WRONG (each 25-35 px off).
// Checks:
//   1. the console shows the editor (the frame, the grid, four handles at the given
//      corners) instead of the game console;
//   2. dragging a handle with the mouse moves that corner and the grid redraws while the
//      button is still down;
//   3. without the token the corners action is 401; corners outside the frame are 400
//      with a message naming the corner; nothing is saved by either;
//   4. after dragging the four handles onto the true corners (the renderer's truth) and
//      pressing Accept, the command exits 0 and the saved profile's corners are within
//      2 px of the truth, with the empty points' colours re-sampled on the right grid
//      (at least 300 of the 361 points).
// Saves OUTDIR/calibrate.png (the editor after the drags). Usage:
//   node e2e-calibrate.mjs KIFUCAM FRAME_DIR OUTDIR      (FRAME_DIR: still.png, truth.txt)
// Exit 0 pass, 1 fail, 77 skip (no chromium / playwright-core).
import { spawn } from 'node:child_process';
import { rmSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { check, openBrowser, results } from './kc-browser.mjs';

const [kifucam, frameDir, outDir] = process.argv.slice(2);
const TOL_PX = 2;

// the truth: the four corner intersections in the record's order
const truthLine = readFileSync(join(frameDir, 'truth.txt'), 'utf8').split('\n').find(l => l.startsWith('frame '));
const truth = / corners=([^ ]+)/.exec(truthLine)[1].split(';').map(p => p.split(',').map(Number));
const off = [[28, 24], [-31, 26], [-27, -33], [30, -25]];
const wrong = truth.map((c, k) => [c[0] + off[k][0], c[1] + off[k][1]]);
const profile = join(outDir, 'calibrated.json');
rmSync(profile, { force: true });

const { ctx, userDir } = await openBrowser();
let cal;

try {
  cal = spawn(kifucam, ['calibrate', '--input', join(frameDir, 'still.png'), '--out', profile,
    '--size', '19', '--corners', wrong.map(c => c.join(',')).join(';'),
    '--serve', '127.0.0.1:0', '--timeout', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  cal.stderr.on('data', d => { stderr += d; });
  const exited = new Promise(res => cal.on('exit', code => res(code)));
  const url = await new Promise((res, rej) => {
    const rl = createInterface({ input: cal.stdout });
    rl.on('line', l => {
      stdout += l + '\n';
      const m = /^console: (http\S+)/.exec(l);
      if (m) res(m[1]);
    });
    setTimeout(() => rej(new Error('no console URL within 60 s; stderr: ' + stderr)), 60000);
  });
  const base = url.replace(/\/console.*/, '');
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForSelector('#calib-svg .handle', { timeout: 15000 });

  // 1. the editor, not the game console; handles where the wrong corners are
  check(await page.isVisible('#calib') && !(await page.isVisible('#wrap')), 'the console shows the corner editor');
  check(await page.locator('#calib-svg .handle').count() === 4, 'four corner handles');
  const imgOk = await page.evaluate(() => new Promise(res => {
    const im = new Image();
    im.onload = () => res(im.naturalWidth + 'x' + im.naturalHeight);
    im.onerror = () => res('error');
    im.src = '/frame.jpg';
  }));
  check(imgOk === '960x540', `the frame is served (${imgOk})`);
  let shown = JSON.parse(await page.evaluate(() => document.body.dataset.corners));
  check(shown.every((c, k) => Math.hypot(c[0] - wrong[k][0], c[1] - wrong[k][1]) < 0.11),
    'the handles start at the given corners');
  const lines = await page.evaluate(() => (document.querySelector('#calib-svg .grid').getAttribute('d').match(/M/g) || []).length);
  check(lines === 38, `the grid has 19 + 19 lines (${lines})`);

  // 3. no token: 401; outside the frame: 400 naming the corner; nothing saved
  const noTok = await page.evaluate(async b => (await fetch(b + '/api/corners', { method: 'POST',
    body: JSON.stringify({ corners: [[10, 10], [900, 10], [900, 500], [10, 500]] }) })).status, base);
  check(noTok === 401, `corners without the token: ${noTok}`);
  const tok = new URL(url).searchParams.get('token');
  const outside = await page.evaluate(async ([b, t]) => {
    const r = await fetch(b + '/api/corners', { method: 'POST', headers: { Authorization: 'Bearer ' + t },
      body: JSON.stringify({ corners: [[10, 10], [1900, 10], [900, 500], [10, 500]] }) });
    return [r.status, (await r.json()).error];
  }, [base, tok]);
  check(outside[0] === 400 && /corner 2 .* outside the 960x540 frame/.test(outside[1]),
    `corners outside the frame: ${outside[0]} "${outside[1]}"`);
  check(!existsSync(profile), 'nothing saved yet');

  // 2 and 4. drag each handle onto the truth; the grid redraws during the drag
  const gridD = () => page.evaluate(() => document.querySelector('#calib-svg .grid').getAttribute('d'));
  let liveRedraw = true;
  for (let k = 0; k < 4; k++) {
    const from = await page.evaluate(([x, y]) => KCCalib.toClient(x, y), shown[k]);
    const to = await page.evaluate(([x, y]) => KCCalib.toClient(x, y), truth[k]);
    const before = await gridD();
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down();
    await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, { steps: 4 });
    const during = await gridD();
    await page.mouse.move(to[0], to[1], { steps: 4 });
    await page.mouse.up();
    liveRedraw &&= during !== before;
    shown = JSON.parse(await page.evaluate(() => document.body.dataset.corners));
    const err = Math.hypot(shown[k][0] - truth[k][0], shown[k][1] - truth[k][1]);
    check(err < 1, `corner ${k + 1} dragged to (${shown[k][0].toFixed(1)}, ${shown[k][1].toFixed(1)}), ` +
      `truth (${truth[k][0]}, ${truth[k][1]}): ${err.toFixed(2)} px`);
  }
  check(liveRedraw, 'the grid redraws while a handle is dragged');
  check(await page.isVisible('#calib-loupe'), 'the loupe shows the selected corner');
  await page.screenshot({ path: join(outDir, 'calibrate.png') });

  await page.click('#btn-calib-accept');
  await page.waitForFunction(() => /accepted|Saved/.test(document.getElementById('calib-status').textContent), null, { timeout: 15000 });
  const code = await Promise.race([exited, new Promise(res => setTimeout(() => res('timeout'), 20000))]);
  check(code === 0, `kifucam calibrate exits 0 after Accept (${code})`);
  if (code !== 0) console.log(stderr);
  const prof = JSON.parse(readFileSync(profile, 'utf8'));
  const errs = prof.corners.map((c, k) => Math.hypot(c[0] - truth[k][0], c[1] - truth[k][1]));
  const wrongErr = wrong.map((c, k) => Math.hypot(c[0] - truth[k][0], c[1] - truth[k][1]));
  check(errs.every(e => e <= TOL_PX),
    `saved corners within ${TOL_PX} px of the truth: ${errs.map(e => e.toFixed(2)).join(', ')} px ` +
    `(the given ones were ${wrongErr.map(e => e.toFixed(1)).join(', ')} px off)`);
  check(prof.size === 19, `saved size 19 (${prof.size})`);
  const nEmpty = (/empty [\d,]+ \((\d+) points\)/.exec(stdout) || [])[1];
  check(Number(nEmpty) >= 300, `empty points re-sampled with the dragged corners: ${nEmpty} of 361`);
  check(/corners accepted in the console/.test(stdout), 'the command prints what it saved');
  console.log(stdout.trim().split('\n').map(l => '  | ' + l).join('\n'));
} catch (e) {
  console.log('FAIL ' + (e.stack || e));
  results.failures++;
} finally {
  if (cal && cal.exitCode === null) cal.kill('SIGINT');
  await ctx.close();
  rmSync(userDir, { recursive: true, force: true });
}
console.log(results.failures ? `${results.failures} check(s) failed` : 'all checks passed');
process.exit(results.failures ? 1 : 0);
