// e2e-hub.mjs: the hub's pages in a real browser (Debian's chromium, headless, driven by
// playwright-core) against `kifucam hub` fed by relay_demo's stations through mosquitto:
//   1. the tournament page shows every board, each card's move number equal to the moves
//      /boards.json holds, with its players; a board that plays on is redrawn live;
//   2. a click on a card opens that board's overlay, which shows its moves;
//   3. the multi-board overlay shows every board;
//   4. POST /api/forget without the token (or a wrong one) answers 401.
// Screenshots: OUTDIR/hub.png (the tournament page), OUTDIR/wall.png (the OBS overlay).
// Usage: node e2e-hub.mjs HUB_PORT NBOARDS OUTDIR. Exit 0 pass, 1 fail, 77 skip.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { check, openBrowser, results } from './kc-browser.mjs';

const [port, nboards, outDir] = process.argv.slice(2);
const N = parseInt(nboards, 10);
const base = `http://127.0.0.1:${port}`;
const { ctx, userDir } = await openBrowser({ width: 1280, height: 860 });
try {
  // the stations have published
  let boards = [];
  for (let i = 0; i < 100 && boards.length < N; i++) {
    boards = (await (await fetch(base + '/boards.json')).json()).boards;
    if (boards.length < N) await new Promise(r => setTimeout(r, 100));
  }
  check(boards.length === N, `/boards.json holds ${boards.length} boards (want ${N})`);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(base + '/');
  await page.waitForFunction(n => document.querySelectorAll('.bcard').length === n, N, { timeout: 10000 });
  check(true, `the tournament page shows ${N} cards`);
  await page.waitForTimeout(500);
  const fresh = (await (await fetch(base + '/boards.json')).json()).boards;
  for (const b of fresh) {
    const shown = await page.$eval('#b-' + b.board, el => ({
      moves: parseInt(el.dataset.moves, 10), mn: el.querySelector('.mn').textContent,
      names: [...el.querySelectorAll('.pn')].map(e => e.textContent),
      stones: el.querySelectorAll('circle.stone').length,
    }));
    const stones = b.position.join('').replace(/\./g, '').length;
    check(Math.abs(shown.moves - b.moves.length) <= 1 && shown.stones > 0 && Math.abs(shown.stones - stones) <= 2,
      `board ${b.board}: ${shown.moves} moves shown (/boards.json ${b.moves.length}), ${shown.stones} stones drawn (${stones})`);
    check(shown.names[0] === (b.black.name || 'Black') && shown.names[1] === (b.white.name || 'White'),
      `board ${b.board}: players ${shown.names.join(' / ')}`);
  }
  const over = fresh.find(b => b.result);
  if (over) check(await page.$eval('#b-' + over.board + ' .res', e => e.textContent) === over.result,
    `board ${over.board} shows its result ${over.result}`);
  // live: board 1 plays on (a move every 1.5 s)
  const m0 = await page.$eval('#b-1', el => parseInt(el.dataset.moves, 10));
  await page.waitForFunction(m => parseInt(document.getElementById('b-1').dataset.moves, 10) > m, m0, { timeout: 8000 })
    .then(() => check(true, 'board 1 redrawn live with its next move'), () => check(false, 'board 1 redrawn live'));
  await page.screenshot({ path: join(outDir, 'hub.png') });
  // a click opens the board's overlay
  await Promise.all([page.waitForURL(/\/overlay\?board=2$/), page.click('#b-2')]);
  await page.waitForFunction(() => parseInt(document.body.dataset.moves || '0', 10) > 0, null, { timeout: 8000 });
  const ov = await page.evaluate(() => ({ moves: parseInt(document.body.dataset.moves, 10),
    stones: document.querySelectorAll('#board circle.stone').length, name: document.getElementById('b-name').textContent }));
  // board 2 may play on while the overlay opens (a loaded machine: seconds): its moves
  // lie between /boards.json's before the click and after the reading
  const b2 = fresh.find(b => b.board === '2');
  const after = (await (await fetch(base + '/boards.json')).json()).boards.find(b => b.board === '2');
  check(ov.moves >= b2.moves.length - 1 && ov.moves <= after.moves.length + 1 && ov.stones > 0 &&
        ov.name === (b2.black.name || 'Black'),
    `board 2's overlay: ${ov.moves} moves (/boards.json ${b2.moves.length} before, ${after.moves.length} after), ${ov.stones} stones, Black ${ov.name}`);
  // the multi-board overlay
  const wall = await ctx.newPage();
  await wall.setViewportSize({ width: 1920, height: 1080 });
  await wall.goto(base + '/overlay?bg=none');
  await wall.waitForFunction(n => document.querySelectorAll('.bcard').length === n, N, { timeout: 10000 });
  check(true, `the multi-board overlay shows ${N} boards`);
  await wall.waitForTimeout(300);
  await wall.screenshot({ path: join(outDir, 'wall.png') });
  const sel = await ctx.newPage();
  await sel.goto(base + '/overlay?boards=3,1');
  await sel.waitForFunction(() => document.querySelectorAll('.bcard').length === 2, null, { timeout: 10000 });
  check((await sel.$$eval('.bcard', els => els.map(e => e.id))).join() === 'b-3,b-1', '?boards=3,1 shows those two, in that order');
  // the token rule
  const r1 = await fetch(base + '/api/forget?board=1', { method: 'POST' });
  const r2 = await fetch(base + '/api/forget?board=1&token=wrong', { method: 'POST' });
  check(r1.status === 401 && r2.status === 401, `forget without / with a wrong token: ${r1.status} / ${r2.status}`);
  check(errors.length === 0, 'no script error' + (errors.length ? ': ' + errors.join('; ') : ''));
} catch (e) {
  check(false, 'exception: ' + e.message);
} finally {
  await ctx.close();
  rmSync(userDir, { recursive: true, force: true });
}
console.log(results.failures ? `${results.failures} failed` : 'all passed');
process.exit(results.failures ? 1 : 0);
