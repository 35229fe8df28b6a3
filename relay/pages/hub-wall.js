/* hub-wall.js: the multi-board overlay: every board (or ?boards=A,B,C, in that order) in
 * a grid sized to the window; ?cols=N fixes the columns, ?bg=none is transparent. */
'use strict';
(() => {
  const q = KC.params(), grid = document.getElementById('grid'), boards = new Map();
  if (q.get('bg') === 'none') document.body.classList.add('bg-none');
  const only = q.get('boards') ? q.get('boards').split(',').filter(s => s) : null;
  const cols0 = parseInt(q.get('cols') || '', 10);
  function layout() {
    const n = Math.max(1, grid.children.length);
    let cols = cols0 >= 1 && cols0 <= 20 ? cols0 : 1;
    if (!(cols0 >= 1)) {
      /* the most columns whose cards still fit the window's height */
      const W = window.innerWidth, H = window.innerHeight;
      let best = 1, bestSide = 0;
      for (let c = 1; c <= n; c++) {
        const rows = Math.ceil(n / c), side = Math.min(W / c, H / rows / 1.28);
        if (side > bestSide) { bestSide = side; best = c; }
      }
      cols = best;
    }
    grid.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    document.documentElement.style.setProperty('--cols', cols);
    document.documentElement.style.setProperty('--rows', Math.ceil(n / cols));
  }
  function order() { return only ? only.filter(b => boards.has(b)) : [...boards.keys()].sort(HUB.cmp); }
  HUB.live(e => {
    if (only && !only.includes(e.board)) return;
    boards.set(e.board, e);
    let el = document.getElementById('b-' + e.board);
    if (!el) {
      el = document.createElement('div');
      el.id = 'b-' + e.board;
      el.className = 'bcard';
      const names = order(), at = names.indexOf(e.board);
      const next = at + 1 < names.length ? document.getElementById('b-' + names[at + 1]) : null;
      grid.insertBefore(el, next);
      layout();
    }
    el.innerHTML = HUB.card(e);
    el.dataset.moves = Array.isArray(e.moves) ? e.moves.length : 0;
    document.body.dataset.boards = boards.size;
  });
  window.addEventListener('resize', layout);
  layout();
})();
