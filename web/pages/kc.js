/* kc.js: shared by /overlay, /console and /count. Draws the board as SVG from the station's
 * state (the JSON of web/web.h), fills the side panel, keeps a live EventSource on /events
 * that reconnects by itself, and maps a grid's unit square onto its four corners (the
 * corner editors of calibrate.js and count.js). No external resources: everything is
 * served by the station. */
'use strict';
const KC = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';   /* Go coordinates skip I */

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, c =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }
  /* SGF "dd" -> [x, y], or null for a pass / nonsense. */
  function xy(pt) {
    if (typeof pt !== 'string' || pt.length !== 2) return null;
    const x = pt.charCodeAt(0) - 97, y = pt.charCodeAt(1) - 97;
    return x >= 0 && y >= 0 && x < 25 && y < 25 ? [x, y] : null;
  }
  function sgf(x, y) { return String.fromCharCode(97 + x, 97 + y); }
  /* "dd" on 19x19 -> "D16"; "" -> "pass". */
  function label(pt, size) {
    const p = xy(pt);
    return p ? LETTERS[p[0]] + (size - p[1]) : 'pass';
  }
  function stars(size) {
    if (size === 19) return [3, 9, 15].flatMap(a => [3, 9, 15].map(b => [a, b]));
    if (size === 13) return [[3, 3], [3, 9], [9, 3], [9, 9], [6, 6]];
    if (size === 9) return [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]];
    return [];
  }
  /* The board's size as a number 2..25, whatever the state holds. */
  function boardSize(st) {
    const n = parseInt(st && st.size, 10);
    return n >= 2 && n <= 25 ? n : 19;
  }
  function fmtScore(v) { return v == null ? '' : (Math.round(v * 2) / 2).toString(); }

  /* The homography taking the unit square (0,0) (1,0) (1,1) (0,1) to the quad q (four
   * [x, y] corners), and its application to (u, v). */
  function homography(q) {
    const [x0, y0] = q[0], [x1, y1] = q[1], [x2, y2] = q[2], [x3, y3] = q[3];
    const sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
    const dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
    const den = dx1 * dy2 - dx2 * dy1;
    const g = den ? (sx * dy2 - dx2 * sy) / den : 0, h = den ? (dx1 * sy - sx * dy1) / den : 0;
    return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1];
  }
  function apply(H, u, v) {
    const w = H[6] * u + H[7] * v + H[8];
    return [(H[0] * u + H[1] * v + H[2]) / w, (H[3] * u + H[4] * v + H[5]) / w];
  }
  /* The n x n grid's lines through the quad q as an SVG path. */
  /* Client (page) coordinates <-> an SVG's own user units (a photo's frame pixels), through
   * its current transform (the corner editors' handles). */
  function toFrame(svg, cx, cy) {
    const m = svg.getScreenCTM().inverse();
    return [m.a * cx + m.c * cy + m.e, m.b * cx + m.d * cy + m.f];
  }
  function toClient(svg, x, y) {
    const m = svg.getScreenCTM();
    return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  }

  function gridPath(q, n) {
    const H = homography(q);
    let d = '';
    for (let i = 0; i < n; i++) {
      const t = i / (n - 1);
      const a = apply(H, t, 0), b = apply(H, t, 1), c = apply(H, 0, t), e = apply(H, 1, t);
      d += `M${a[0].toFixed(2)} ${a[1].toFixed(2)}L${b[0].toFixed(2)} ${b[1].toFixed(2)}` +
           `M${c[0].toFixed(2)} ${c[1].toFixed(2)}L${e[0].toFixed(2)} ${e[1].toFixed(2)}`;
    }
    return d;
  }

  /* The board as SVG markup. opts: {coords, hit (clickable points), numbers, rings (SGF
   * points ringed: the points a reader was unsure of)} */
  function boardSvg(st, opts) {
    const n = boardSize(st), U = 10, m = opts.coords ? 1.6 * U : 0.8 * U;
    const W = (n - 1) * U + 2 * m;
    const rows = Array.isArray(st.board) ? st.board : [];
    const count = st.count && (st.phase === 'counting' || st.phase === 'over') ? st.count : null;
    const dead = new Set(count && Array.isArray(count.dead) ? count.dead : []);
    const terr = count && Array.isArray(count.territory) ? count.territory : null;
    const last = st.last && xy(st.last.point) ? st.last : null;
    const P = v => (m + v * U).toFixed(2);
    let s = `<svg xmlns="${NS}" viewBox="0 0 ${W} ${W}" class="board" data-size="${n}" ` +
      `preserveAspectRatio="xMidYMid meet">` +
      `<defs><radialGradient id="gb" cx="35%" cy="30%" r="70%"><stop offset="0" stop-color="#5c5c5c"/>` +
      `<stop offset=".45" stop-color="#1d1d1d"/><stop offset="1" stop-color="#000"/></radialGradient>` +
      `<radialGradient id="gw" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#fff"/>` +
      `<stop offset=".6" stop-color="#e9e6df"/><stop offset="1" stop-color="#b9b4a8"/></radialGradient>` +

      `<filter id="sh" x="-20%" y="-20%" width="150%" height="150%"><feDropShadow dx=".5" dy=".8" ` +
      `stdDeviation=".5" flood-opacity=".45"/></filter></defs>` +
      `<rect x="0" y="0" width="${W}" height="${W}" rx="${U * 0.4}" fill="#dcb062"/>`;
    let g = '';
    for (let i = 0; i < n; i++) {
      g += `M${P(0)} ${P(i)}H${P(n - 1)}M${P(i)} ${P(0)}V${P(n - 1)}`;
    }
    s += `<path d="${g}" stroke="#3b2a14" stroke-width="${U * 0.055}" fill="none"/>`;
    s += `<rect x="${P(0)}" y="${P(0)}" width="${(n - 1) * U}" height="${(n - 1) * U}" ` +
      `stroke="#3b2a14" stroke-width="${U * 0.1}" fill="none"/>`;
    for (const [a, b] of stars(n)) s += `<circle cx="${P(a)}" cy="${P(b)}" r="${U * 0.12}" fill="#3b2a14"/>`;
    if (opts.coords) {
      for (let i = 0; i < n; i++) {
        const fs = U * 0.42;
        s += `<text class="co" x="${P(i)}" y="${(m * 0.45).toFixed(2)}" font-size="${fs}">${LETTERS[i]}</text>` +
          `<text class="co" x="${P(i)}" y="${(W - m * 0.3).toFixed(2)}" font-size="${fs}">${LETTERS[i]}</text>` +
          `<text class="co" x="${(m * 0.4).toFixed(2)}" y="${P(i)}" font-size="${fs}" dy=".35em">${n - i}</text>` +
          `<text class="co" x="${(W - m * 0.4).toFixed(2)}" y="${P(i)}" font-size="${fs}" dy=".35em">${n - i}</text>`;
      }
    }
    /* territory marks under the stones */
    if (terr) {
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        const o = (terr[y] || '')[x], c = (rows[y] || '')[x];
        if ((o === 'X' || o === 'O') && (c === '.' || dead.has(sgf(x, y)))) {
          const r = U * 0.22;
          s += `<rect class="terr ${o === 'X' ? 'b' : 'w'}" data-pt="${sgf(x, y)}" x="${(+P(x) - r).toFixed(2)}" ` +
            `y="${(+P(y) - r).toFixed(2)}" width="${2 * r}" height="${2 * r}"/>`;
        }
      }
    }
    /* the stones */
    const num = {};
    if (opts.numbers && Array.isArray(st.moves)) for (const mv of st.moves) if (mv && mv.point) num[mv.point] = mv.n;
    for (let y = 0; y < n; y++) {
      const row = rows[y] || '';
      for (let x = 0; x < n; x++) {
        const c = row[x];
        if (c !== 'X' && c !== 'O') continue;
        const pt = sgf(x, y), isDead = dead.has(pt);
        const cls = (c === 'X' ? 'b' : 'w') + (isDead ? ' dead' : '');
        s += `<circle class="stone ${cls}" data-pt="${pt}" cx="${P(x)}" cy="${P(y)}" r="${U * 0.48}" ` +
          `fill="url(#g${c === 'X' ? 'b' : 'w'})" filter="url(#sh)"/>`;
        if (isDead) {
          const d = U * 0.2, col = c === 'X' ? '#fff' : '#111';
          s += `<path class="deadmark" d="M${+P(x) - d} ${+P(y) - d}L${+P(x) + d} ${+P(y) + d}M${+P(x) + d} ` +
            `${+P(y) - d}L${+P(x) - d} ${+P(y) + d}" stroke="${col}" stroke-width="${U * 0.08}"/>`;
        }
      }
    }
    if (last) {
      const [x, y] = xy(last.point), c = (rows[y] || '')[x];
      const col = c === 'X' ? '#fff' : '#000';
      if (opts.numbers === 'last' && last.n) {
        s += `<text class="lastnum" x="${P(x)}" y="${P(y)}" dy=".36em" font-size="${last.n > 99 ? U * 0.36 : U * 0.44}" ` +
          `fill="${col}">${last.n}</text>`;
      } else {
        s += `<circle class="last" data-pt="${last.point}" cx="${P(x)}" cy="${P(y)}" r="${U * 0.24}" fill="none" ` +
          `stroke="${col}" stroke-width="${U * 0.07}"/>`;
      }
    }
    if (Array.isArray(opts.rings)) {
      for (const pt of opts.rings) {
        const p = xy(pt);
        if (!p || p[0] >= n || p[1] >= n) continue;
        s += `<circle class="ring" data-pt="${pt}" cx="${P(p[0])}" cy="${P(p[1])}" r="${U * 0.42}" ` +
          `fill="none" stroke="#ff9500" stroke-width="${U * 0.1}"/>`;
      }
    }
    if (opts.hit) {
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
        s += `<rect class="hit" data-pt="${sgf(x, y)}" x="${(+P(x) - U / 2).toFixed(2)}" y="${(+P(y) - U / 2).toFixed(2)}" ` +
          `width="${U}" height="${U}"/>`;
      }
    }
    return s + '</svg>';
  }

  /* A side's clock: the station's text (or the time left), then the byo-yomi periods left
   * ("×5") or the Canadian moves to play ("/ 12 moves"). */
  function clockText(c) {
    if (!c) return '';
    let base = c.text || '';
    if (!base) {
      if (typeof c.left !== 'number') return '';
      const t = Math.max(0, Math.floor(c.left));
      const h = Math.floor(t / 3600), mm = Math.floor(t / 60) % 60, ss = t % 60;
      base = (h ? h + ':' + String(mm).padStart(2, '0') : mm) + ':' + String(ss).padStart(2, '0');
    }
    if (typeof c.periods === 'number' && c.periods > 0) return base + ' ×' + c.periods;
    if (typeof c.moves === 'number' && c.moves > 0) return base + ' / ' + c.moves + ' moves';
    return base;
  }

  /* Fill the side panel (elements looked up by id; absent ones are skipped). */
  function panel(st) {
    const $ = id => document.getElementById(id);
    const set = (id, html) => { const e = $(id); if (e) e.innerHTML = html; };
    const setT = (id, t) => { const e = $(id); if (e) e.textContent = t; };
    const n = boardSize(st);
    const b = st.black || {}, w = st.white || {};
    setT('b-name', b.name || 'Black');
    setT('w-name', w.name || 'White');
    setT('b-rank', b.rank || '');
    setT('w-rank', w.rank || '');
    const cap = st.captures || {};
    setT('b-cap', cap.B || 0);
    setT('w-cap', cap.W || 0);
    const clk = st.clock || null;
    setT('b-clock', clk ? clockText(clk.B) : '');
    setT('w-clock', clk ? clockText(clk.W) : '');
    for (const [id, c] of [['b-card', 'B'], ['w-card', 'W']]) {
      const e = $(id);
      if (e) e.classList.toggle('turn', st.phase === 'play' && st.turn === c);
    }
    const moves = Array.isArray(st.moves) ? st.moves : [];
    const mn = st.last && st.last.n ? st.last.n : moves.length;
    setT('move-number', mn);
    const lastTxt = st.last ? (st.last.color === 'W' ? 'White' : 'Black') + ' ' +
      (st.last.resign ? 'resigns' : label(st.last.point, n)) : '—';
    setT('last-move', lastTxt);
    const komi = typeof st.komi === 'number' ? st.komi : null;
    const bits = [];
    if (st.rules) bits.push(String(st.rules).replace(/^./, c => c.toUpperCase()) + ' rules');
    if (komi !== null) bits.push('komi ' + komi);
    if (st.handicap) bits.push('handicap ' + st.handicap);
    bits.push(n + '×' + n);
    setT('game-info', bits.join(' · '));
    const phase = st.phase || 'play';
    const ph = $('phase');
    if (ph) {
      ph.textContent = phase === 'counting' ? 'Counting' : phase === 'over' ? 'Game over' : 'Live';
      ph.className = 'phase ' + phase;
    }
    /* the count */
    const cnt = st.count && (phase === 'counting' || phase === 'over') ? st.count : null;
    const box = $('count');
    if (box) box.hidden = !cnt;
    if (cnt) {
      const sc = cnt.score || {};
      setT('score-b', fmtScore(sc.B));
      setT('score-w', fmtScore(sc.W));
      setT('score', sc.result || '');
      const acc = cnt.accepted || {};
      set('accepted', ['B', 'W'].map(c => `<span class="acc ${acc[c] ? 'yes' : 'no'}">` +
        `${c === 'B' ? 'Black' : 'White'} ${acc[c] ? '✓ accepted' : '… to accept'}</span>`).join(''));
      setT('dead-count', Array.isArray(cnt.dead) ? cnt.dead.length : 0);
    }
    const res = $('result');
    if (res) {
      res.hidden = !st.result;
      res.textContent = st.result ? 'Result: ' + st.result : '';
    }
    /* the last few moves, newest first */
    const rec = moves.slice(-8).reverse();
    set('recent', rec.map(mv => `<span class="mv"><i class="${mv.color === 'W' ? 'w' : 'b'}"></i>` +
      `${esc(mv.n)} ${mv.resign ? 'resigns' : esc(label(mv.point, n))}</span>`).join(''));
    for (const [id, c] of [['b-clock', 'B'], ['w-clock', 'W']]) {
      const e = $(id);
      if (e) e.classList.toggle('low', !!(clk && clk[c] && typeof clk[c].left === 'number' && clk[c].left < 60));
    }
    const msgs = Array.isArray(st.messages) ? st.messages.slice(-3) : [];
    set('messages', msgs.map(mm => `<div class="msg ${esc(mm.level || 'info')}">${esc(mm.text)}</div>`).join(''));
    const ann = $('announce');
    if (ann) {
      ann.hidden = !(clk && clk.announce);
      ann.textContent = clk && clk.announce ? clk.announce : '';
    }
  }

  /* Live state: calls onState(state) for each event; shows the link's health in #link.
   * EventSource retries by itself (retry: 1000); when the browser gives up (the server was
   * gone long enough to refuse), we start a new one. */
  function live(onState) {
    let es = null, timer = null;
    const linkEl = () => document.getElementById('link');
    function setLink(ok) {
      const e = linkEl();
      if (e) { e.className = ok ? 'link up' : 'link down'; e.title = ok ? 'live' : 'reconnecting'; }
      document.body.classList.toggle('offline', !ok);
    }
    function open() {
      if (es) es.close();
      es = new EventSource('/events');
      es.onopen = () => setLink(true);
      es.onmessage = ev => {
        let st;
        try { st = JSON.parse(ev.data); } catch (e) { return; }
        setLink(true);
        onState(st);
      };
      es.onerror = () => {
        setLink(false);
        if (es.readyState === EventSource.CLOSED && !timer) {
          timer = setTimeout(() => { timer = null; open(); }, 1500);
        }
      };
    }
    open();
  }

  function params() { return new URLSearchParams(location.search); }

  /* The actions' token: taken from the address (?token=, as the station prints it), kept
   * in this tab's sessionStorage and taken out of the address at once, so that it is not
   * left in the history, a bookmark or a screenshot of the address bar; the pages send it
   * in the Authorization header only (web/web.h). */
  function token() {
    const p = params();
    const t = p.get('token');
    if (t) {
      try { sessionStorage.setItem('kc-token', t); } catch (e) { /* storage off */ }
      p.delete('token');
      const q = p.toString();
      history.replaceState(null, '', location.pathname + (q ? '?' + q : '') + location.hash);
      return t;
    }
    try { return sessionStorage.getItem('kc-token') || ''; } catch (e) { return ''; }
  }

  return { boardSvg, panel, live, params, token, label, xy, esc, homography, apply, gridPath,
           toFrame, toClient };
})();
