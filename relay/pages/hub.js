/* hub.js: shared by the hub's pages. HUB.live(onBoard) keeps an EventSource on /events
 * (one message per changed board: the board's entry of /boards.json) and reconnects by
 * itself; HUB.state(entry) turns an entry back into the station's state (web.h) that
 * KC.boardSvg and KC.panel read; HUB.card(entry) is one board's small card. */
'use strict';
const HUB = (() => {
  const esc = KC.esc;
  function state(e) { return Object.assign({}, e, { board: e.position || [] }); }
  /* board names in natural order: 2 before 10 */
  function cmp(a, b) { return String(a).localeCompare(String(b), undefined, { numeric: true }); }
  function live(onBoard, query) {
    let es = null, timer = null;
    function setLink(ok) {
      const e = document.getElementById('link');
      if (e) { e.className = ok ? 'link up' : 'link down'; e.title = ok ? 'live' : 'reconnecting'; }
      document.body.classList.toggle('offline', !ok);
    }
    function open() {
      if (es) es.close();
      es = new EventSource('/events' + (query || ''));
      es.onopen = () => setLink(true);
      es.onmessage = ev => {
        let e;
        try { e = JSON.parse(ev.data); } catch (x) { return; }
        setLink(true);
        onBoard(e);
      };
      es.onerror = () => {
        setLink(false);
        if (es.readyState === EventSource.CLOSED && !timer) timer = setTimeout(() => { timer = null; open(); }, 1500);
      };
    }
    open();
  }
  function player(p, fallback) { return p && p.name ? p.name + (p.rank ? ' ' + p.rank : '') : fallback; }
  /* One board's card (HTML): its diagram, players, clocks, move, phase or result. */
  function card(e, opts) {
    const st = state(e), n = parseInt(st.size, 10) || 19;
    const moves = Array.isArray(st.moves) ? st.moves : [];
    const mn = st.last && st.last.n ? st.last.n : moves.length;
    const clk = st.clock || {};
    const last = st.last ? (st.last.color === 'W' ? 'W ' : 'B ') + (st.last.resign ? 'resigns' : KC.label(st.last.point, n)) : '';
    const phase = st.phase || 'play';
    const badge = st.result ? `<span class="res">${esc(st.result)}</span>`
      : `<span class="phase ${esc(phase)}">${phase === 'counting' ? 'counting' : phase === 'over' ? 'over' : 'live'}</span>`;
    const turn = c => phase === 'play' && st.turn === c ? ' turn' : '';
    const cl = c => clk[c] ? `<span class="clk">${esc(clk[c].text || '')}</span>` : '';
    return `<div class="bhead"><span class="bname">${esc(opts && opts.prefix !== undefined ? opts.prefix : 'Board ')}${esc(e.board)}</span>` +
      `${e.online === false ? '<span class="off" title="the station is offline">offline</span>' : ''}${badge}</div>` +
      `<div class="diag">${KC.boardSvg(st, { coords: false })}</div>` +
      `<div class="pl${turn('B')}"><i class="b"></i><span class="pn">${esc(player(st.black, 'Black'))}</span>${cl('B')}</div>` +
      `<div class="pl${turn('W')}"><i class="w"></i><span class="pn">${esc(player(st.white, 'White'))}</span>${cl('W')}</div>` +
      `<div class="mv">move <b class="mn">${esc(mn)}</b> <span class="lm">${esc(last)}</span></div>`;
  }
  return { live, state, card, cmp };
})();
