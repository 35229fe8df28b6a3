/* console.js: the console's behaviour: buttons and board clicks become POST /api/ACTION
 * with the page's token; the answer (or the refusal) is shown in #status. */
'use strict';
(() => {
  const token = KC.token();   /* from ?token=, then kept out of the address */
  const board = document.getElementById('board');
  const status = document.getElementById('status');
  let state = null;
  function show(text, ok) {
    status.textContent = text;
    status.className = ok ? 'ok' : 'err';
  }
  if (!token) show('No token in this page\'s address (?token=...): actions will be refused.', false);

  async function act(name, args) {
    const q = new URLSearchParams(args || {});
    const url = '/api/' + name + (q.toString() ? '?' + q : '');
    try {
      const r = await fetch(url, { method: 'POST', headers: token ? { Authorization: 'Bearer ' + token } : {} });
      let j = {};
      try { j = await r.json(); } catch (e) { /* not JSON */ }
      if (r.status === 401) show('Refused: this page has no valid token.', false);
      else if (r.ok) show(j.message || name + ': done', true);
      else show((j.error || r.statusText || 'error') + ' (' + r.status + ')', false);
      return r.status;
    } catch (e) {
      show('The station cannot be reached.', false);
      return 0;
    }
  }

  document.querySelectorAll('button[data-action]').forEach(b => {
    b.addEventListener('click', () => {
      if (b.dataset.confirm && !b.classList.contains('armed')) {   /* two clicks for the grave ones */
        const text = b.textContent;
        b.classList.add('armed');
        b.textContent = b.dataset.confirm;
        setTimeout(() => { b.classList.remove('armed'); b.textContent = text; }, 3000);
        return;
      }
      b.classList.remove('armed');
      const args = b.dataset.color ? { color: b.dataset.color } : {};
      if (b.dataset.seconds) args.seconds = b.dataset.seconds;   /* the arbiter's adjust */
      act(b.dataset.action, args);
    });
  });

  board.addEventListener('click', ev => {
    const t = ev.target.closest('[data-pt]');
    if (!t || !state) return;
    if (state.phase !== 'counting') { show('Click a group during the count to mark it dead.', false); return; }
    const pt = t.dataset.pt, p = KC.xy(pt);
    const row = (state.board || [])[p[1]] || '';
    if (row[p[0]] !== 'X' && row[p[0]] !== 'O') return;
    act('toggle', { point: pt });
  });

  KC.live(st => {
    state = st;
    if (KCCalib.update(st)) return;     /* calibrating: the corner editor */
    board.innerHTML = KC.boardSvg(st, { coords: true, hit: true });
    KC.panel(st);
    document.getElementById('play-controls').hidden = st.phase !== 'play';
    /* the arbiter's clock controls, when the game has a clock */
    document.getElementById('clock-controls').hidden = st.phase !== 'play' || !st.clock;
    document.body.dataset.phase = st.phase || 'play';
    document.body.dataset.moves = Array.isArray(st.moves) ? st.moves.length : 0;
  });
})();
