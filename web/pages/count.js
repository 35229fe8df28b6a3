/* count.js: the behaviour of /count (app/count_serve.c documents the state and the
 * actions). The photo (/frame.jpg) fills an SVG whose user units are its pixels, with the
 * grid through the four corner handles (KC.gridPath); a handle let go sends POST
 * /api/corners and the photo is read again with them. A click on the board sends
 * /api/dead?point= (mode "Mark dead groups", on a stone) or /api/fix?point= (mode
 * "Correct points": empty -> black -> white -> empty). After each answer the page reads
 * /state.json (the server published the change before answering) and also follows
 * /events. Invariant: the handles show the server's corners except while one is dragged
 * or its corners are on their way. */
'use strict';
(() => {
  const NS = 'http://www.w3.org/2000/svg';
  const COL = ['#ff3b30', '#27c93f', '#2f7bff', '#ffd60a'];   /* as the corner editor's */
  const token = KC.token();   /* from ?token=, then kept out of the address */
  const $ = id => document.getElementById(id);
  let state = null, svg = null, gridEl = null, topEl = null, handles = [], frameKey = '';
  let corners = null, drag = -1, sending = false, busy = false;

  function show(text, ok) {
    const s = $('status');
    s.textContent = text;
    s.className = ok ? 'ok' : 'err';
  }
  if (!token) show('No token in this page\'s address (?token=...): changes will be refused.', false);

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  /* POST /api/NAME with the token; then the state as published. */
  async function act(name, args, body) {
    const q = new URLSearchParams(args || {});
    const url = '/api/' + name + (q.toString() ? '?' + q : '');
    const headers = token ? { Authorization: 'Bearer ' + token } : {};
    if (body) headers['Content-Type'] = 'application/json';
    busy = true;
    document.body.dataset.busy = '1';
    let status = 0;
    try {
      const r = await fetch(url, { method: 'POST', headers, body: body ? JSON.stringify(body) : undefined });
      status = r.status;
      let j = {};
      try { j = await r.json(); } catch (e) { /* not JSON */ }
      if (r.status === 401) show('Refused: this page has no valid token.', false);
      else if (r.ok) show(j.message || name + ': done', true);
      else show((j.error || r.statusText || 'error') + ' (' + r.status + ')', false);
      await refresh();
    } catch (e) {
      show('kifucam cannot be reached.', false);
    }
    busy = false;
    document.body.dataset.busy = '0';
    return status;
  }

  async function refresh() {
    try {
      const r = await fetch('/state.json', { cache: 'no-store' });
      if (r.ok) render(await r.json());
    } catch (e) { /* the next event brings it */ }
  }

  /* ---- the photo and its corner handles ---- */

  const toFrame = (cx, cy) => KC.toFrame(svg, cx, cy);
  const toClient = (x, y) => KC.toClient(svg, x, y);

  function buildPhoto(ph) {
    const [W, H] = ph.frame;
    const box = $('count-photo');
    box.innerHTML = '';
    svg = el('svg', { id: 'count-svg', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'xMidYMid meet' }, box);
    el('image', { href: '/frame.jpg?t=' + Date.now(), x: 0, y: 0, width: W, height: H }, svg);
    const lw = Math.max(W, H) / 900;
    gridEl = el('path', { class: 'grid', 'stroke-width': lw, fill: 'none' }, svg);
    topEl = el('path', { class: 'top', 'stroke-width': lw * 3, fill: 'none' }, svg);
    const r = Math.max(W, H) / 60;
    handles = [0, 1, 2, 3].map(k => {
      const g = el('g', { class: 'handle', 'data-k': k }, svg);
      el('circle', { r, fill: 'rgba(0,0,0,.15)', stroke: COL[k], 'stroke-width': lw * 2.5 }, g);
      el('path', { d: `M${-r} 0H${r}M0 ${-r}V${r}`, stroke: COL[k], 'stroke-width': lw }, g);
      g.addEventListener('pointerdown', ev => {
        if (state && state.photo && state.photo.accepted) return;
        drag = k;
        g.setPointerCapture(ev.pointerId);
        ev.preventDefault();
      });
      g.addEventListener('pointermove', ev => {
        if (drag !== k) return;
        const p = toFrame(ev.clientX, ev.clientY);
        corners[k] = [Math.min(Math.max(p[0], 0), W - 1), Math.min(Math.max(p[1], 0), H - 1)];
        drawGrid();
      });
      const up = async () => {
        if (drag !== k) return;
        drag = -1;
        sending = true;
        show('Reading the photo again with these corners…', true);
        await sendCorners();
        sending = false;
        if (state) { corners = state.photo.corners.map(c => c.slice()); drawGrid(); }
      };
      g.addEventListener('pointerup', up);
      g.addEventListener('pointercancel', up);
      return g;
    });
  }

  /* the size the grid is drawn and read at: the page's choice */
  function gridSize() { return Number($('count-size').value) || (state ? state.size : 19); }
  function sendCorners() {
    return act('corners', null, { corners: corners.map(c => [Math.round(c[0] * 10) / 10, Math.round(c[1] * 10) / 10]),
                                  size: gridSize() });
  }

  function drawGrid() {
    if (!svg || !corners || !state) return;
    gridEl.setAttribute('d', KC.gridPath(corners, gridSize()));
    topEl.setAttribute('d', `M${corners[0][0]} ${corners[0][1]}L${corners[1][0]} ${corners[1][1]}`);
    handles.forEach((g, k) => g.setAttribute('transform', `translate(${corners[k][0]} ${corners[k][1]})`));
    document.body.dataset.corners = JSON.stringify(corners);
  }

  /* ---- the board, the count, the panel ---- */

  let first = true;
  function render(st) {
    if (!st || !st.photo || !Array.isArray(st.board)) return;
    state = st;
    if (first) {   /* unsure points to settle: the page opens in "Correct points" */
      first = false;
      if (st.photo.pending) { $('mode-fix').checked = true; hint(); }
    }
    const ph = st.photo;
    const key = ph.frame.join('x');
    if (key !== frameKey) { frameKey = key; buildPhoto(ph); }
    if (drag < 0 && !sending) {
      corners = ph.corners.map(c => c.slice());
      if (document.activeElement !== $('count-size')) $('count-size').value = String(st.size);
    }
    drawGrid();
    $('board').innerHTML = KC.boardSvg(st, { coords: true, hit: true, rings: ph.unsure });
    const pending = ph.pending;
    const result = st.count && st.count.score ? st.count.score.result : '';
    $('count-result').textContent = pending ? 'Not counted yet' : (ph.accepted ? 'Result: ' : '') + result;
    const bits = [String(st.rules || '').replace(/^./, c => c.toUpperCase()) + ' rules', 'komi ' + st.komi];
    if (st.handicap) bits.push('handicap ' + st.handicap);
    bits.push(st.size + '×' + st.size);
    if (ph.fixed.length) bits.push(ph.fixed.length + ' point' + (ph.fixed.length === 1 ? '' : 's') + ' corrected');
    bits.push({ proposal: 'dead stones as proposed', people: 'dead stones as marked here', given: 'dead stones as given' }[ph.marking] || '');
    $('count-info').textContent = bits.filter(Boolean).join(' · ');
    $('count-doubt').hidden = !ph.grid_doubt;
    document.body.dataset.gridDoubt = ph.grid_doubt ? '1' : '0';
    const cut = $('count-cut'), edges = ph.cut || [];
    cut.hidden = !ph.outside;
    cut.textContent = !ph.outside ? ''
      : `The photo cuts the board at its ${edges.length > 1 ? edges.slice(0, -1).join(', ') + ' and ' + edges[edges.length - 1] : edges[0]} ` +
        `edge${edges.length > 1 ? 's' : ''}: ${ph.outside} point${ph.outside === 1 ? ' lies' : 's lie'} outside it, unknown ` +
        '(ringed): take the photo again with the whole board in view, or correct them.';
    document.body.dataset.outside = String(ph.outside || 0);
    const uns = $('count-unsure');
    uns.hidden = !(ph.unsure && ph.unsure.length);
    uns.textContent = !ph.unsure || !ph.unsure.length ? ''
      : (pending ? `${ph.unsure.length} point${ph.unsure.length === 1 ? '' : 's'} the reader was unsure of (ringed): ` +
         'correct each (Correct points) to count.'
        : `${ph.unsure.length} unsure point${ph.unsure.length === 1 ? '' : 's'} counted as empty (ringed).`) +
        ' ' + ph.unsure.map(p => KC.label(p, st.size)).join(' ');
    const pf = $('count-prisoners');
    pf.hidden = !ph.territory_rules;
    if (ph.territory_rules && document.activeElement !== $('pris-b') && document.activeElement !== $('pris-w')) {
      $('pris-b').value = ph.prisoners.B;
      $('pris-w').value = ph.prisoners.W;
    }
    $('count-text').textContent = st.text || '';
    $('btn-accept').disabled = !!(pending || ph.accepted);
    document.body.dataset.result = pending ? '' : result;
    document.body.dataset.phase = st.phase || '';
    document.body.dataset.accepted = ph.accepted ? '1' : '0';
    if (ph.accepted) {
      document.body.classList.add('accepted');
      show('Accepted: ' + ph.sgf + ' is written. kifucam has finished.', true);
    }
  }

  function mode() { return $('mode-fix').checked ? 'fix' : 'dead'; }
  function hint() {
    $('count-hint').textContent = mode() === 'fix'
      ? 'Click a point: empty → black → white → empty (as --fix).'
      : 'Click a stone: its group is marked dead, or alive again (as --dead).';
  }
  $('mode-dead').addEventListener('change', hint);
  $('mode-fix').addEventListener('change', hint);

  $('board').addEventListener('click', ev => {
    const t = ev.target.closest('[data-pt]');
    if (!t || !state || busy || state.photo.accepted) return;
    const pt = t.dataset.pt, p = KC.xy(pt);
    if (!p) return;
    if (mode() === 'fix') { act('fix', { point: pt }); return; }
    const c = (state.board[p[1]] || '')[p[0]];
    if (c !== 'X' && c !== 'O') {
      show('No stone at ' + KC.label(pt, state.size) + ': choose "Correct points" to put one there.', false);
      return;
    }
    act('dead', { point: pt });
  });

  $('count-prisoners').addEventListener('submit', ev => {
    ev.preventDefault();
    const b = Math.max(0, parseInt($('pris-b').value, 10) || 0), w = Math.max(0, parseInt($('pris-w').value, 10) || 0);
    act('prisoners', null, { prisoners: `B=${b},W=${w}` });
  });

  $('btn-accept').addEventListener('click', () => act('accept'));

  $('count-size').addEventListener('change', async () => {   /* read again at that size */
    if (!state || !corners || state.photo.accepted) return;
    drawGrid();
    sending = true;
    show('Reading the photo again as a ' + gridSize() + '×' + gridSize() + ' board…', true);
    await sendCorners();
    sending = false;
    $('count-size').blur();
    if (state) { corners = state.photo.corners.map(c => c.slice()); $('count-size').value = String(state.size); drawGrid(); }
  });

  KC.live(st => { if (!busy) render(st); });
  window.KCCount = { toClient, corners: () => corners, state: () => state };
})();
