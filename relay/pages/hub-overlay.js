/* hub-overlay.js: the station's overlay page (web/pages/overlay.html, served unchanged as
 * /overlay?board=NAME) fed from the hub: its /events?board=NAME messages are the board's
 * entries, turned back into the station's state. The options are overlay.js's. */
'use strict';
(() => {
  const q = KC.params(), name = q.get('board') || '';
  if (q.get('bg') === 'none') document.body.classList.add('bg-none');
  const size = parseInt(q.get('size') || '', 10);
  if (size >= 100 && size <= 4000) document.documentElement.style.setProperty('--bs', size + 'px');
  const opts = { coords: q.get('coords') !== '0', numbers: q.get('numbers') === '1' ? 'last' : false };
  const board = document.getElementById('board');
  document.title = 'kifucam · board ' + name;
  /* overlay.html loads kc.js and this script only: hub.js comes next */
  const s = document.createElement('script');
  s.src = '/hub.js';
  s.onload = () => HUB.live(e => {
    const st = HUB.state(e);
    board.innerHTML = KC.boardSvg(st, opts);
    KC.panel(st);
    document.body.dataset.moves = Array.isArray(st.moves) ? st.moves.length : 0;
  }, '?board=' + encodeURIComponent(name));
  document.head.appendChild(s);
})();
