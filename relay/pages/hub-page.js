/* hub-page.js: the tournament page: a card per board, sorted by name, redrawn when its
 * board changes; a click opens the board's overlay. */
'use strict';
(() => {
  const grid = document.getElementById('grid'), boards = new Map();
  function summary() {
    let live = 0, over = 0;
    const rounds = new Set();
    for (const e of boards.values()) {
      if (e.result || e.phase === 'over') over++; else live++;
      if (e.relay && e.relay.round) rounds.add(e.relay.round);
    }
    document.getElementById('nboards').textContent = boards.size + (boards.size === 1 ? ' board' : ' boards');
    document.getElementById('nlive').textContent = live + ' playing';
    document.getElementById('nover').textContent = over + ' finished';
    document.getElementById('round').textContent = rounds.size === 1 ? '· round ' + [...rounds][0] : '';
    document.getElementById('empty').hidden = boards.size > 0;
    document.body.dataset.boards = boards.size;
  }
  function place(e) {
    let el = document.getElementById('b-' + e.board);
    if (!el) {
      el = document.createElement('a');
      el.id = 'b-' + e.board;
      el.className = 'bcard';
      el.href = '/overlay?board=' + encodeURIComponent(e.board);
      const names = [...boards.keys()].sort(HUB.cmp), at = names.indexOf(e.board);
      const next = at >= 0 && at + 1 < names.length ? document.getElementById('b-' + names[at + 1]) : null;
      grid.insertBefore(el, next);
    }
    el.innerHTML = HUB.card(e);
    el.dataset.moves = Array.isArray(e.moves) ? e.moves.length : 0;
    el.classList.toggle('over', !!(e.result || e.phase === 'over'));
    el.classList.toggle('offline', e.online === false);
  }
  fetch('/boards.json').then(r => r.json()).then(j => {
    document.getElementById('broker').textContent = 'broker ' + j.broker;
    document.getElementById('broker').className = 'broker ' + j.broker;
  }).catch(() => {});
  HUB.live(e => {
    boards.set(e.board, e);
    place(e);
    summary();
  });
  summary();
})();
