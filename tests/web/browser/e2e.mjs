// e2e.mjs: the overlay and the console in a real browser (Debian's chromium, headless,
// driven by playwright-core). A stand-in station (web_demo_server) replays a game into
// the web server; we check that:
//   1. the overlay shows every move as it is recorded (each move number appears, in order,
//      with the stone on its point), live through /events;
//   2. an action without the token is refused (the console says so; nothing changes);
//   3. during the count a click on a group in the console changes the proposal and the
//      score, on the console and on the overlay; both players accept and the result shows;
//   4. the overlay reconnects when the station comes back;
//   5. the overlay shows both clocks: each side's time left and byo-yomi periods, in main
//      time and in overtime, as the state's clock object (the station's shape) gives them.
//   6. housekeeping (a message for the arbiter: stones to put back...) is not on the
//      overlay, is with ?housekeeping=1, and is always on the console; the viewers'
//      messages (the game over) are on the overlay.
// Screenshots of the overlay (a 19x19 game in progress) and of the console (the count at
// the end of that game) go to OUTDIR.
// Usage: node e2e.mjs DEMO_SERVER GAME9.sgf GAME19.sgf OUTDIR
// Exit 0 pass, 1 fail, 77 skip (no chromium).
import { spawn } from 'node:child_process';
import { rmSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { check, openBrowser, results } from './kc-browser.mjs';

const [demoBin, game9, game19, outDir] = process.argv.slice(2);
const TOKEN = 'e2e-' + Math.random().toString(36).slice(2);

const procs = [];
function startDemo(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(demoBin, [...args, '--token', TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
    procs.push(p);
    const lines = createInterface({ input: p.stdout });
    const events = [];
    lines.on('line', l => {
      events.push({ l, t: Date.now() });
      const m = /^READY port=(\d+)/.exec(l);
      if (m) resolve({ port: +m[1], proc: p, events });
    });
    p.on('exit', c => reject(new Error('demo server exited with ' + c)));
    setTimeout(() => reject(new Error('demo server did not start')), 20000);
  });
}

const { ctx, userDir } = await openBrowser();

try {
  // ---- 1. the overlay follows a replayed game, move by move ----
  const demo = await startDemo(['--sgf', game9, '--interval', '150', '--wait-client', '--wait', '300']);
  const base = `http://127.0.0.1:${demo.port}`;
  const overlay = await ctx.newPage();
  await overlay.addInitScript(() => {
    window.__seen = [];
    const note = () => {
      const n = +document.body.dataset.moves;
      const last = document.querySelector('svg.board circle.last');
      const pt = last ? last.dataset.pt : '';
      const stone = pt ? document.querySelector(`svg.board circle.stone[data-pt="${pt}"]`) : null;
      const s = window.__seen;
      if (!s.length || s[s.length - 1].n !== n)
        s.push({ n, pt, stone: !!stone, shown: document.getElementById('move-number').textContent });
    };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(note).observe(document.body, { attributes: true, attributeFilter: ['data-moves'] });
    });
  });
  await overlay.goto(base + '/overlay');
  const stateAt = async () => (await (await fetch(base + '/state.json')).json());
  // the replay goes on while we watch; wait for the count
  await overlay.waitForSelector('#count:not([hidden])', { timeout: 60000 });
  const final = await stateAt();
  const viewerMsg = await overlay.locator('#messages').textContent();
  check(viewerMsg.includes('The game is over'), `the overlay shows the viewers' messages ("${viewerMsg}")`);
  const nmoves = final.moves.length;
  const seen = await overlay.evaluate(() => window.__seen);
  const ns = seen.map(s => s.n).filter(n => n > 0);
  const firstSeen = ns.length ? ns[0] : 0;
  let inOrder = true;
  for (let i = 1; i < ns.length; i++) if (ns[i] !== ns[i - 1] + 1) inOrder = false;
  check(nmoves >= 20, `the demo game has ${nmoves} moves`);
  check(firstSeen === 1 && ns.length === nmoves && ns[ns.length - 1] === nmoves && inOrder,
    `the overlay showed every move from ${firstSeen} to ${nmoves}, one at a time, in order (${ns.length} updates)`);
  const bad = seen.filter(s => s.n > 0 && (!s.stone || s.shown !== String(s.n)));
  check(bad.length === 0, 'each update drew the last move\'s stone with its mark and number' +
    (bad.length ? ' (bad: ' + JSON.stringify(bad.slice(0, 3)) + ')' : ''));
  const stonesOnBoard = final.board.join('').replace(/\./g, '').length;
  check(await overlay.locator('svg.board circle.stone').count() === stonesOnBoard,
    `the overlay draws the ${stonesOnBoard} stones of the final position`);
  check((await overlay.locator('#b-name').textContent()) === final.black.name &&
    (await overlay.locator('#w-rank').textContent()) === final.white.rank,
    'players\' names and ranks shown');
  check(/komi 7\.5/.test(await overlay.locator('#game-info').textContent()), 'komi and rules shown');
  const hasScroll = await overlay.evaluate(() =>
    document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth);
  check(!hasScroll, 'the overlay has no scroll bars at 1280x720');

  // the options: a transparent background and a board of a given size
  const small = await ctx.newPage();
  await small.goto(base + '/overlay?bg=none&size=400');
  await small.waitForFunction(() => +document.body.dataset.moves > 0);
  const look = await small.evaluate(() => ({
    bg: getComputedStyle(document.body).backgroundColor,
    w: document.getElementById('board-box').getBoundingClientRect().width,
    scroll: document.documentElement.scrollHeight > innerHeight,
  }));
  check(look.bg === 'rgba(0, 0, 0, 0)' && Math.round(look.w) === 400 && !look.scroll,
    `?bg=none&size=400: transparent, a 400 px board, no scroll bars (${JSON.stringify(look)})`);
  await small.screenshot({ path: join(outDir, 'overlay-bg-none.png'), omitBackground: true });
  await small.close();

  // ---- 2. no token, no action ----
  const intruder = await ctx.newPage();
  await intruder.goto(base + '/console');
  await intruder.waitForFunction(() => document.body.dataset.phase === 'counting');
  await intruder.click('#btn-accept-b');
  await intruder.waitForFunction(() => /Refused/.test(document.getElementById('status').textContent));
  check(true, 'the console without a token says the action was refused');
  const r401 = await fetch(base + '/api/accept?color=B', { method: 'POST' });
  check(r401.status === 401, `POST without the token answers ${r401.status}`);
  const afterIntruder = await stateAt();
  check(!afterIntruder.count.accepted.B, 'the refused action changed nothing');
  await intruder.close();

  // ---- 3. the count: a click on a group changes the proposal and the score ----
  const con = await ctx.newPage();
  await con.goto(`${base}/console?token=${TOKEN}`);
  await con.waitForFunction(() => document.body.dataset.phase === 'counting');
  const before = await stateAt();
  const scoreBefore = await con.locator('#score').textContent();
  // a white stone whose chain is small (the likeliest dead group)
  let target = null;
  for (let y = 0; y < before.size && !target; y++)
    for (let x = 0; x < before.size && !target; x++)
      if (before.board[y][x] === 'O') target = String.fromCharCode(97 + x, 97 + y);
  const wasDead = before.count.dead.includes(target);
  await con.click(`svg.board rect.hit[data-pt="${target}"]`);
  await con.waitForFunction(s => document.getElementById('score').textContent !== s, scoreBefore, { timeout: 5000 });
  const after = await stateAt();
  check(after.count.dead.includes(target) !== wasDead && after.count.dead.length !== before.count.dead.length,
    `clicking ${target} marked its group ${wasDead ? 'alive' : 'dead'} (dead stones ${before.count.dead.length} -> ${after.count.dead.length})`);
  const scoreAfter = await con.locator('#score').textContent();
  check(scoreAfter !== scoreBefore && scoreAfter === after.count.score.result,
    `the console's score changed: ${scoreBefore} -> ${scoreAfter}`);
  await overlay.waitForFunction(n => document.querySelectorAll('svg.board circle.stone.dead').length === n,
    after.count.dead.length, { timeout: 5000 });
  check((await overlay.locator('#score').textContent()) === scoreAfter, 'the overlay shows the same proposal and score');
  // a second click puts the station's proposal back
  await con.click(`svg.board rect.hit[data-pt="${target}"]`);
  await con.waitForFunction(s => document.getElementById('score').textContent === s, scoreBefore, { timeout: 5000 });
  const back = await stateAt();
  check(JSON.stringify(back.count.dead) === JSON.stringify(before.count.dead), 'a second click restores the proposal and the score');
  await con.click('#btn-accept-b');
  await con.waitForFunction(() => /accept/.test(document.getElementById('status').textContent));
  await con.click('#btn-accept-w');
  await con.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  const res = await con.locator('#result').textContent();
  check(res === 'Result: ' + scoreBefore, `both accepted; the console shows "${res}"`);
  await overlay.waitForSelector('#result:not([hidden])', { timeout: 5000 });
  check((await overlay.locator('#result').textContent()) === res, 'and so does the overlay');
  const sgf = await (await fetch(base + '/game.sgf')).text();
  check(sgf.includes('RE[' + scoreBefore + ']'), '/game.sgf carries the result');

  // ---- 4. the overlay reconnects by itself when the station comes back ----
  const port = demo.port;
  demo.proc.kill('SIGTERM');
  await overlay.waitForSelector('#link.down', { timeout: 10000 });
  const again = await startDemo(['--sgf', game9, '--interval', '50', '--port', String(port), '--moves', '5', '--no-count']);
  await overlay.waitForFunction(() => document.body.dataset.moves === '5', null, { timeout: 15000 });
  check(true, 'after a restart of the station the overlay reconnected and shows the new game');
  again.proc.kill('SIGTERM');

  // ---- 5. both clocks on the overlay: each side's time left and byo-yomi periods ----
  // the demo's clock has the station's shape (stn_clock_json): text, left, periods
  const clockShown = async (args, what) => {
    const dc = await startDemo(['--sgf', game9, '--interval', '100000', '--no-count', ...args]);
    const oc = await ctx.newPage();
    await oc.goto(`http://127.0.0.1:${dc.port}/overlay`);
    await oc.waitForFunction(() => +document.body.dataset.moves > 0);
    const st = await (await fetch(`http://127.0.0.1:${dc.port}/state.json`)).json();
    const shown = { B: await oc.locator('#b-clock').textContent(), W: await oc.locator('#w-clock').textContent() };
    for (const c of ['B', 'W']) {
      const want = `${st.clock[c].text} ×${st.clock[c].periods}`;
      check(shown[c] === want, `${what}: the overlay shows ${c === 'B' ? 'Black' : 'White'}'s clock "${shown[c]}" (state: ${JSON.stringify(st.clock[c])})`);
    }
    await oc.close();
    dc.proc.kill('SIGTERM');
    return { st, shown };
  };
  const inMain = await clockShown(['--start', '4', '--clock-main', '120'], 'main time');
  check(inMain.shown.B === '1:17 ×5' && inMain.shown.W === '0:44 ×5',
    `main time: both sides' time left and their 5 periods (${inMain.shown.B} / ${inMain.shown.W})`);
  const inByo = await clockShown(['--start', '30', '--clock-main', '60'], 'byo-yomi');
  check(/\(overtime\) ×[1-4]$/.test(inByo.shown.B) && /\(overtime\) ×[1-4]$/.test(inByo.shown.W),
    `byo-yomi: both sides in overtime with the periods left (${inByo.shown.B} / ${inByo.shown.W})`);

  // ---- 6. housekeeping: for the arbiter (console), not for viewers (overlay) ----
  {
    const hk = 'stones off their points (knocked by the hand that played D4), put them back: C3';
    const dh = await startDemo(['--sgf', game9, '--start', '4', '--interval', '100000', '--no-count',
      '--housekeeping', hk]);
    const hbase = `http://127.0.0.1:${dh.port}`;
    const st = await (await fetch(hbase + '/state.json')).json();
    check(st.messages.length === 1 && st.messages[0].text === hk && st.messages[0].audience === 'arbiter',
      `the state names the housekeeping message's audience (${JSON.stringify(st.messages)})`);
    const shownOn = async (path) => {
      const pg = await ctx.newPage();
      await pg.goto(hbase + path);
      await pg.waitForFunction(() => +document.body.dataset.moves > 0 ||
        /\S/.test((document.getElementById('messages') || {}).textContent || ''));
      await pg.waitForTimeout(200);
      const t = await pg.locator('#messages').textContent();
      await pg.close();
      return t;
    };
    const plain = await shownOn('/overlay');
    check(!plain.includes('put them back'), `the overlay does not show housekeeping ("${plain}")`);
    const asked = await shownOn('/overlay?housekeeping=1');
    check(asked.includes(hk), `the overlay with ?housekeeping=1 shows it ("${asked}")`);
    const onConsole = await shownOn(`/console?token=${TOKEN}`);
    check(onConsole.includes(hk), `the console shows it ("${onConsole}")`);
    dh.proc.kill('SIGTERM');
  }

  // ---- screenshot of the overlay on a 19x19 game in progress ----
  if (game19 && existsSync(game19)) {
    const d19 = await startDemo(['--sgf', game19, '--start', '187', '--interval', '100000', '--no-count']);
    const o19 = await ctx.newPage();
    await o19.goto(`http://127.0.0.1:${d19.port}/overlay`);
    await o19.waitForFunction(() => +document.body.dataset.moves > 0);
    await o19.waitForTimeout(300);
    await o19.screenshot({ path: join(outDir, 'overlay.png') });
    // and the console during the count of the whole game, with the station's proposal
    const e19 = await startDemo(['--sgf', game19, '--start', '100000', '--interval', '50']);
    const c19 = await ctx.newPage();
    await c19.goto(`http://127.0.0.1:${e19.port}/console?token=${TOKEN}`);
    await c19.waitForFunction(() => document.body.dataset.phase === 'counting', null, { timeout: 60000 });
    const s19 = await (await fetch(`http://127.0.0.1:${e19.port}/state.json`)).json();
    check(s19.count.dead.length > 0, `the station proposes ${s19.count.dead.length} dead stones at the end of the 19x19 game`);
    await c19.click('#btn-accept-w');
    await c19.waitForFunction(() => /accepts/.test(document.getElementById('status').textContent));
    await c19.mouse.move(1, 1);
    await c19.waitForTimeout(300);
    await c19.screenshot({ path: join(outDir, 'console.png') });
    for (const f of ['overlay.png', 'console.png'])
      check(statSync(join(outDir, f)).size > 10000, `${f} written (${statSync(join(outDir, f)).size} bytes)`);
  }
} catch (e) {
  console.log('FAIL ' + (e && e.stack ? e.stack : e));
  results.failures++;
} finally {
  await ctx.close().catch(() => {});
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  rmSync(userDir, { recursive: true, force: true });
}
console.log(results.failures ? `${results.failures} check(s) failed` : 'all browser checks passed');
process.exit(results.failures ? 1 : 0);
