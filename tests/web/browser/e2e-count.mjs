// e2e-count.mjs: the correction page of `kifucam count PHOTO --serve` in a real browser
// (Debian's chromium, headless, driven by playwright-core) on the bundled photo of the demo
// game's end (samples/frames/end-signals.png) under the record's rules (korean, komi 6.5).
// Checks:
//   1. the page shows the photo (/frame.jpg) with the 19 + 19 grid lines and four corner
//      handles, the board diagram beside it (361 points), the count `count` gives (W+0.5:
//      no prisoners yet) and its text;
//   2. dragging a corner handle re-reads the photo with the corners let go (the answer,
//      the handles where the server's reading put them); the board's size chosen (13,
//      then 19 again) reads it again at that size, the same count back at 19, no grid in
//      doubt under corners given;
//   3. the prisoners entry (territory rules): B=52, W=51 gives B+0.5, the record's result;
//   4. a click on a black stone marks its group dead: the count text and the result
//      change, the stones are crossed on the diagram; in "Correct points" mode a click on
//      an empty point puts a black stone there;
//   5. without the token a change is 401; a point off the board 400, one line of JSON;
//   6. Accept: kifucam exits 0 printing the count as `count` prints it (its first line
//      the result shown), and the SGF holds RE[] of the page, RU[Korean], KM[6.5], the
//      position (AB/AW), the dead stones (KD: as many as the page showed) and TB/TW;
//   7. the photo counted again under --corners whose left edge lies beyond it: the page
//      says the photo cuts the board there, as many points outside it as the state says
//      (a board shown whole says nothing of the kind, checked in 2).
// Saves OUTDIR/count.png (the page after the changes). Usage:
//   node e2e-count.mjs KIFUCAM PHOTO OUTDIR
// Exit 0 pass, 1 fail, 77 skip (no chromium / playwright-core).
import { spawn } from 'node:child_process';
import { rmSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

import { check, openBrowser, results } from './kc-browser.mjs';

const [kifucamArg, photo, outDirArg] = process.argv.slice(2);
const kifucam = resolve(kifucamArg), outDir = resolve(outDirArg);

const sgfPath = join(outDir, 'count.sgf');
rmSync(sgfPath, { force: true });
const { ctx, userDir } = await openBrowser();
let proc;

try {
  // run beside the photo: the page and the printed count name it as given, short
  proc = spawn(kifucam, ['count', basename(photo), '--rules', 'korean', '--komi', '6.5',
    '--serve', '127.0.0.1:0', '--sgf', sgfPath], { cwd: dirname(resolve(photo)), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  proc.stderr.on('data', d => { stderr += d; });
  const exited = new Promise(res => proc.on('exit', code => res(code)));
  const url = await new Promise((res, rej) => {
    const rl = createInterface({ input: proc.stdout });
    rl.on('line', l => {
      stdout += l + '\n';
      const m = /^count: (http\S+)/.exec(l);
      if (m) res(m[1]);
    });
    setTimeout(() => rej(new Error('no page URL within 60 s; stderr: ' + stderr)), 60000);
  });
  const base = url.replace(/\/count.*/, '');
  const tok = new URL(url).searchParams.get('token');
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.result && document.querySelector('#count-svg .handle'),
    null, { timeout: 15000 });
  const result = () => page.evaluate(() => document.body.dataset.result);
  const text = () => page.textContent('#count-text');
  const stateJs = () => page.evaluate(async () => (await fetch('/state.json')).json());
  const waitIdle = () => page.waitForFunction(() => document.body.dataset.busy === '0', null, { timeout: 20000 });

  // 1. the photo, the grid, the handles, the diagram, the count
  const img = await page.evaluate(() => new Promise(res => {
    const im = new Image();
    im.onload = () => res(im.naturalWidth + 'x' + im.naturalHeight);
    im.onerror = () => res('error');
    im.src = '/frame.jpg';
  }));
  check(img === '427x240', `the photo is served (${img})`);
  const lines = await page.evaluate(() => (document.querySelector('#count-svg .grid').getAttribute('d').match(/M/g) || []).length);
  check(lines === 38, `the grid has 19 + 19 lines (${lines})`);
  check(await page.locator('#count-svg .handle').count() === 4, 'four corner handles');
  check(await page.locator('#board rect.hit').count() === 361, 'the diagram: 361 points');
  check(await result() === 'W+0.5', `the count as count gives it without prisoners: ${await result()}`);
  check(/prisoners: none given/.test(await text()), 'the count text says no prisoners were given');
  check(await page.isVisible('#count-prisoners'), 'the prisoners entry is shown (territory rules)');

  // 2. drag corner 1 by a few pixels: the photo read again with it
  let st = await stateJs();
  const c0 = st.photo.corners[0];
  const from = await page.evaluate(([x, y]) => KCCount.toClient(x, y), c0);
  const to = await page.evaluate(([x, y]) => KCCount.toClient(x, y), [c0[0] + 2, c0[1] + 1.5]);
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move(to[0], to[1], { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /read again with these corners/.test(document.getElementById('status').textContent),
    null, { timeout: 20000 });
  await waitIdle();
  st = await stateJs();
  const shown = JSON.parse(await page.evaluate(() => document.body.dataset.corners));
  check(shown.every((c, k) => Math.hypot(c[0] - st.photo.corners[k][0], c[1] - st.photo.corners[k][1]) < 0.11),
    `after the drag the handles show the server's corners (${st.photo.corners[0]})`);
  check(Math.hypot(st.photo.corners[0][0] - c0[0] - 2, st.photo.corners[0][1] - c0[1] - 1.5) < 3,
    `corner 1 read near where it was let go (${c0} -> ${st.photo.corners[0]})`);

  // 2b. the board's size chosen on the page: read again as a 13x13, then as the 19x19 again
  await page.selectOption('#count-size', '13');
  await page.waitForFunction(() => /read again as a 13x13/.test(document.getElementById('status').textContent),
    null, { timeout: 20000 });
  await waitIdle();
  st = await stateJs();
  const lines13 = await page.evaluate(() => (document.querySelector('#count-svg .grid').getAttribute('d').match(/M/g) || []).length);
  check(st.size === 13 && lines13 === 26 && await page.locator('#board rect.hit').count() === 169,
    `size 13 chosen: read as a 13x13 (${st.size}), its grid ${lines13} lines`);
  await page.selectOption('#count-size', '19');
  await page.waitForFunction(() => /read again as a 19x19/.test(document.getElementById('status').textContent),
    null, { timeout: 20000 });
  await waitIdle();
  st = await stateJs();
  check(st.size === 19 && await result() === 'W+0.5', `size 19 again: the same count (${st.size}, ${await result()})`);
  check(await page.evaluate(() => document.body.dataset.gridDoubt) === '0' && await page.isHidden('#count-doubt'),
    'no doubt about a grid given by its corners');

  check(await page.evaluate(() => document.body.dataset.outside) === '0' && await page.isHidden('#count-cut'),
    'a board shown whole: no cut said');
  const back = st.photo.corners;

  // 3. the prisoners
  await page.fill('#pris-b', '52');
  await page.fill('#pris-w', '51');
  await page.click('#btn-prisoners');
  await page.waitForFunction(() => /prisoners: Black 52, White 51/.test(document.getElementById('status').textContent),
    null, { timeout: 15000 });
  await waitIdle();
  const withPrisoners = await result();
  check(withPrisoners === 'B+0.5', `with the prisoners B=52, W=51: ${withPrisoners} (the record's B+0.5)`);

  // 4. a black group marked dead with a click; a stone put on an empty point
  st = await stateJs();
  let bpt = null, ept = null;
  for (let y = 0; y < st.size && !bpt; y++)
    for (let x = 0; x < st.size && !bpt; x++)
      if (st.board[y][x] === 'X') bpt = String.fromCharCode(97 + x, 97 + y);
  const before = await text();
  await page.click(`#board rect.hit[data-pt="${bpt}"]`);
  await page.waitForFunction(() => /stones? dead/.test(document.getElementById('status').textContent), null, { timeout: 15000 });
  await waitIdle();
  const after = await text();
  const afterResult = await result();
  const ndead = (/(\d+) dead stones? removed/.exec(after) || [])[1];
  check(after !== before && Number(ndead) > 0, `a click on ${bpt} marks its group dead: "${(after.split('\n')[1] || '')}"`);
  check(afterResult !== withPrisoners, `the result follows: ${withPrisoners} -> ${afterResult}`);
  check(await page.locator('#board .deadmark').count() === Number(ndead), `the dead stones are crossed on the diagram (${ndead})`);
  st = await stateJs();
  for (let y = st.size - 1; y >= 0 && !ept; y--)
    for (let x = st.size - 1; x >= 0 && !ept; x--)
      if (st.board[y][x] === '.' && !(st.count.dead || []).includes(String.fromCharCode(97 + x, 97 + y)))
        ept = String.fromCharCode(97 + x, 97 + y);
  await page.check('#mode-fix');
  await page.click(`#board rect.hit[data-pt="${ept}"]`);
  await page.waitForFunction(() => / is black$/.test(document.getElementById('status').textContent), null, { timeout: 15000 });
  await waitIdle();
  st = await stateJs();
  const ex = ept.charCodeAt(0) - 97, ey = ept.charCodeAt(1) - 97;
  check(st.board[ey][ex] === 'X' && st.photo.fixed.some(f => f.point === ept && f.color === 'B'),
    `in "Correct points" mode a click on ${ept} puts a black stone there (fixed: ${JSON.stringify(st.photo.fixed)})`);
  check(/fixed: [A-T]\d+ black/.test(await text()), 'the count text names the fix');
  await page.screenshot({ path: join(outDir, 'count.png') });

  // 5. no token: 401; a point off the board: 400 with one line of JSON; nothing changed
  const noTok = await page.evaluate(async b => (await fetch(b + '/api/dead?point=aa', { method: 'POST' })).status, base);
  check(noTok === 401, `a change without the token: ${noTok}`);
  const off = await page.evaluate(async ([b, t]) => {
    const r = await fetch(b + '/api/fix?point=zz', { method: 'POST', headers: { Authorization: 'Bearer ' + t } });
    return [r.status, await r.text()];
  }, [base, tok]);
  check(off[0] === 400 && !off[1].trim().includes('\n') && JSON.parse(off[1]).ok === false,
    `a point off the board: ${off[0]} ${off[1].trim()}`);
  check(!existsSync(sgfPath), 'nothing written before Accept');

  // 6. Accept: exit 0, the count printed, the record
  const shownResult = await result();
  const deadShown = (await stateJs()).count.dead.length;
  await page.click('#btn-accept');
  await page.waitForFunction(() => document.body.dataset.accepted === '1', null, { timeout: 15000 });
  const code = await Promise.race([exited, new Promise(res => setTimeout(() => res('timeout'), 20000))]);
  check(code === 0, `kifucam count exits 0 after Accept (${code})`);
  if (code !== 0) console.log(stderr);
  const printed = stdout.split('\n').slice(2);
  check(printed[0] === shownResult, `stdout's first line after the page's address is the result shown: ${printed[0]}`);
  check(printed.some(l => l === 'sgf: ' + sgfPath), 'stdout names the record');
  check(existsSync(sgfPath), 'the record is written');
  const sgf = existsSync(sgfPath) ? readFileSync(sgfPath, 'utf8') : '';
  const prop = k => ((new RegExp('[;\\]\\s]' + k + '((\\[[^\\]]*\\]\\s*)+)').exec(sgf) || [])[1] || '').trim();
  const nvals = k => (prop(k).match(/\[/g) || []).length;
  check(prop('RE') === `[${shownResult}]`, `RE${prop('RE')}`);
  check(prop('RU') === '[Korean]' && prop('KM') === '[6.5]', `RU${prop('RU')} KM${prop('KM')}`);
  check(nvals('AB') > 100 && nvals('AW') > 100, `the position: ${nvals('AB')} AB, ${nvals('AW')} AW`);
  check(nvals('KD') === deadShown, `the dead stones: KD has ${nvals('KD')}, the page showed ${deadShown}`);
  check(nvals('TB') > 0 && nvals('TW') > 0, `territory: ${nvals('TB')} TB, ${nvals('TW')} TW`);
  console.log(stdout.trim().split('\n').map(l => '  | ' + l).join('\n'));

  // 7. the photo counted again under corners whose left edge lies beyond it (--corners):
  // the page says the photo cuts the board there, and how many points lie outside it
  const c = back.map(p => p.slice());
  c[0][0] = c[3][0] = -20;
  proc = spawn(kifucam, ['count', basename(photo), '--corners', c.map(p => p.join(',')).join(';'),
    '--serve', '127.0.0.1:0'], { cwd: dirname(resolve(photo)), stdio: ['ignore', 'pipe', 'pipe'] });
  const url2 = await new Promise((res, rej) => {
    const rl = createInterface({ input: proc.stdout });
    rl.on('line', l => { const m = /^count: (http\S+)/.exec(l); if (m) res(m[1]); });
    setTimeout(() => rej(new Error('no page URL within 60 s (corners beyond the photo)')), 60000);
  });
  await page.goto(url2);
  await page.waitForFunction(() => Number(document.body.dataset.outside) > 0, null, { timeout: 15000 })
    .catch(() => {});
  const cutText = await page.textContent('#count-cut'), nOut = (await stateJs()).photo.outside;
  check(!(await page.isHidden('#count-cut')) && nOut > 0 &&
    new RegExp(`cuts the board at its left edge: ${nOut} points lie outside it`).test(cutText),
    `corners beyond the photo's left edge: the page says it cuts the board (${nOut}: ${cutText})`);
} catch (e) {
  console.log('FAIL ' + (e.stack || e));
  results.failures++;
} finally {
  if (proc && proc.exitCode === null) proc.kill('SIGINT');
  await ctx.close();
  rmSync(userDir, { recursive: true, force: true });
}
console.log(results.failures ? `${results.failures} check(s) failed` : 'all checks passed');
process.exit(results.failures ? 1 : 0);
