/* overlay.js: the overlay's start: options from the URL, then live redraws. */
'use strict';
(() => {
  const q = KC.params();
  if (q.get('bg') === 'none') document.body.classList.add('bg-none');
  const size = parseInt(q.get('size') || '', 10);
  if (size >= 100 && size <= 4000) document.documentElement.style.setProperty('--bs', size + 'px');
  const opts = { coords: q.get('coords') !== '0', numbers: q.get('numbers') === '1' ? 'last' : false };
  /* housekeeping (the messages for the arbiter: restore, put back, agrees, void...) only
   * with ?housekeeping=1; the state says who each message is for (stn_event_audience) */
  const housekeeping = q.get('housekeeping') === '1';
  const board = document.getElementById('board');
  KC.live(st => {
    board.innerHTML = KC.boardSvg(st, opts);
    const msgs = Array.isArray(st.messages) ? st.messages : [];
    KC.panel(housekeeping ? st : Object.assign({}, st, { messages: msgs.filter(m => m.audience === 'viewer') }));
    document.body.dataset.moves = Array.isArray(st.moves) ? st.moves.length : 0;
  });
})();
