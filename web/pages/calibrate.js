/* calibrate.js: the console's corner editor, shown while `kifucam calibrate --serve` waits
 * (the state has a "calibrate" object, see web/web.h). The frame (/frame.jpg) fills an SVG
 * whose user units are the frame's pixels; the grid is drawn through the homography of the
 * four corner handles (KC.gridPath) and redrawn on every move. Handles are dragged with the mouse or a
 * finger (pointer events), or nudged with the arrow keys (0.5 px; Shift: 5 px) once
 * selected; the selected corner is also shown at 5x in a loupe. Accept sends POST /api/corners {"corners":[[x,y]*4]} with the page's token.
 * Invariant: corners are kept in frame pixels, clamped to the frame, in the record's order
 * (top-left, top-right, bottom-right, bottom-left). */
'use strict';
const KCCalib = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const token = KC.token();   /* from ?token=, then kept out of the address */
  const COL = ['#ff3b30', '#27c93f', '#2f7bff', '#ffd60a'];   /* as calibrate's PROFILE.png */
  const NAME = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];
  let cal = null, corners = null, sel = -1, drag = -1, sent = false, frameKey = '';
  let svg = null, img = null, gridPath = null, topPath = null, handles = [];
  let loupe = null, loupeGrid = null, loupeTop = null, loupeR = 0;
  const $ = id => document.getElementById(id);

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function show(text, ok) {
    const s = $('calib-status');
    s.textContent = text;
    s.className = ok ? 'ok' : 'err';
  }

  function build() {
    const [W, H] = cal.image;
    const box = $('calib-view');
    box.innerHTML = '';
    svg = el('svg', { id: 'calib-svg', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'xMidYMid meet' }, box);
    img = el('image', { href: '/frame.jpg?t=' + Date.now(), x: 0, y: 0, width: W, height: H }, svg);
    const lw = Math.max(W, H) / 1100;
    gridPath = el('path', { class: 'grid', 'stroke-width': lw, fill: 'none' }, svg);
    topPath = el('path', { class: 'top', 'stroke-width': lw * 3, fill: 'none' }, svg);
    const r = Math.max(W, H) / 70;
    handles = [0, 1, 2, 3].map(k => {
      const g = el('g', { class: 'handle', 'data-k': k, tabindex: 0 }, svg);
      el('circle', { r, fill: 'rgba(0,0,0,.15)', stroke: COL[k], 'stroke-width': lw * 2.5 }, g);
      el('path', { d: `M${-r} 0H${r}M0 ${-r}V${r}`, stroke: COL[k], 'stroke-width': lw }, g);
      const t = el('text', { x: r * 1.1, y: -r * 1.1, fill: COL[k], 'font-size': r * 1.6 }, g);
      t.textContent = String(k + 1);
      g.addEventListener('pointerdown', ev => {
        drag = sel = k;
        g.setPointerCapture(ev.pointerId);
        g.focus();
        ev.preventDefault();
        redraw();
      });
      g.addEventListener('pointermove', ev => {
        if (drag !== k) return;
        const p = toFrame(ev.clientX, ev.clientY);
        move(k, p[0], p[1]);
      });
      const up = () => { drag = -1; };
      g.addEventListener('pointerup', up);
      g.addEventListener('pointercancel', up);
      return g;
    });
    /* the loupe: the selected corner's surroundings at 5x, in the view's top corner
     * away from it */
    const zoom = 5, lpx = Math.round(Math.min(220, (box.clientWidth || 600) * 0.32));
    loupeR = lpx / zoom / 2 * Math.max(W / (box.clientWidth || W), H / (box.clientHeight || H));
    loupe = el('svg', { id: 'calib-loupe', width: lpx, height: lpx }, box);
    const src = img.getAttribute('href');
    el('image', { href: src, x: 0, y: 0, width: W, height: H }, loupe);
    loupeGrid = el('path', { class: 'grid', 'stroke-width': lw / 3, fill: 'none' }, loupe);
    loupeTop = el('path', { class: 'top', 'stroke-width': lw, fill: 'none' }, loupe);
    loupe.appendChild(el('path', { class: 'cross', 'stroke-width': lw / 3, fill: 'none' }));
    loupe.style.display = 'none';
    svg.addEventListener('keydown', ev => {
      if (sel < 0) return;
      const step = ev.shiftKey ? 5 : 0.5;
      const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
      if (!d) return;
      ev.preventDefault();
      move(sel, corners[sel][0] + d[0], corners[sel][1] + d[1]);
    });
  }

  const toFrame = (cx, cy) => KC.toFrame(svg, cx, cy);
  const toClient = (x, y) => KC.toClient(svg, x, y);

  function move(k, x, y) {
    const [W, H] = cal.image;
    corners[k] = [Math.min(Math.max(x, 0), W - 1), Math.min(Math.max(y, 0), H - 1)];
    redraw();
  }

  function redraw() {
    const d = KC.gridPath(corners, cal.size);   /* the grid through the handles */
    gridPath.setAttribute('d', d);
    topPath.setAttribute('d', `M${corners[0][0]} ${corners[0][1]}L${corners[1][0]} ${corners[1][1]}`);
    handles.forEach((g, k) => {
      g.setAttribute('transform', `translate(${corners[k][0]} ${corners[k][1]})`);
      g.classList.toggle('sel', k === sel);
    });
    if (loupe) {
      loupe.style.display = sel >= 0 ? '' : 'none';
      if (sel >= 0) {
        const [x, y] = corners[sel], R = loupeR;
        const left = x > cal.image[0] / 2;          /* on the side away from the corner */
        loupe.style.left = left ? '10px' : '';
        loupe.style.right = left ? '' : '10px';
        loupe.setAttribute('viewBox', `${x - R} ${y - R} ${2 * R} ${2 * R}`);
        loupeGrid.setAttribute('d', d);
        loupeTop.setAttribute('d', topPath.getAttribute('d'));
        loupe.lastChild.setAttribute('d', `M${x - R} ${y}H${x + R}M${x} ${y - R}V${y + R}`);
        loupe.lastChild.setAttribute('stroke', COL[sel]);
      }
    }
    $('calib-corners').innerHTML = corners.map((c, k) =>
      `<li style="color:${COL[k]}"><b>${k + 1}</b> ${NAME[k]}: ${c[0].toFixed(1)}, ${c[1].toFixed(1)}</li>`).join('');
    document.body.dataset.corners = JSON.stringify(corners);
  }

  async function accept() {
    const body = JSON.stringify({ corners: corners.map(c => [Math.round(c[0] * 10) / 10, Math.round(c[1] * 10) / 10]) });
    try {
      const r = await fetch('/api/corners', {
        method: 'POST', body,
        headers: Object.assign({ 'Content-Type': 'application/json' }, token ? { Authorization: 'Bearer ' + token } : {})
      });
      let j = {};
      try { j = await r.json(); } catch (e) { /* not JSON */ }
      if (r.status === 401) show('Refused: this page has no valid token.', false);
      else if (r.ok) { sent = true; show(j.message || 'accepted', true); }
      else show((j.error || r.statusText || 'error') + ' (' + r.status + ')', false);
    } catch (e) {
      show('The station cannot be reached.', false);
    }
  }

  let wired = false;
  function wire() {
    if (wired) return;
    wired = true;
    $('btn-calib-accept').addEventListener('click', accept);
    $('btn-calib-reset').addEventListener('click', () => {
      corners = cal.corners.map(c => c.slice());
      redraw();
      show('Back to the corners found.', true);
    });
  }

  /* Called with each state; true when the console is calibrating (the editor is shown). */
  function update(st) {
    const c = st && st.calibrate;
    const on = !!(c && Array.isArray(c.image) && Array.isArray(c.corners) && c.corners.length === 4);
    $('calib').hidden = !on;
    $('wrap').hidden = on;
    document.body.classList.toggle('calibrating', on);
    if (!on) return false;
    wire();
    const key = c.image.join('x') + ':' + c.size;
    const first = !cal;
    cal = c;
    if (first || key !== frameKey) {
      frameKey = key;
      corners = c.corners.map(p => p.slice());
      build();
    }
    const how = { detector: 'found by the detector', corners: 'from the corners given' }[c.from] || 'found';
    $('calib-found').textContent = c.found
      ? `Board ${c.size}x${c.size} ${how} (grid fit ${c.fit}). Drag the four corners onto the corner intersections of the grid if they are off, then accept.`
      : `No board was found: drag the four corners onto the corner intersections of the ${c.size}x${c.size} grid, then accept.`;
    $('calib-profile').textContent = c.profile || '';
    if (c.saved) {
      document.body.dataset.saved = c.saved;
      show('Saved ' + c.saved + '. The station can record with it now.', true);
      $('btn-calib-accept').disabled = true;
    } else if (!sent && first) {
      show('', true);
    }
    redraw();
    return true;
  }

  return { update, toClient, toFrame, corners: () => corners };
})();
