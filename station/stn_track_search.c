/* stn_track_search.c: the diff-to-plan search: which moves, in which order, explain the
 * differences of a view (stn_track.h, steps 4 and 5 of how a view is read).
 *
 * Invariants: trials are played on the game and undone (trk_play, then trk_unplay), so a
 * search leaves the game as it found it (on GO_ENOMEM the feed's transaction puts it
 * back) and the tracker's expectations untouched; the only moves played for real are the
 * ledger's (trk_apply, through trk_step). The search is bounded: at most max_moves stones
 * ordered ((n/2)!^2 orders), one hidden move from trk_cands, two only within
 * TRK_PAIR_STONES (a ko) or TRK_PAIR_STONES_ANY stones.
 */
#include "station/stn_track_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- playing a sequence (a trial, undone after, or for real) ---- */

/* Play one step. Returns GO_OK (played), a void reason (recorded as a pass), GO_EOVER /
 * GO_EINVAL when nothing could be recorded, or GO_ENOMEM (nothing played: an error for
 * the caller, never a reading). *added counts game moves. */
int trk_step(stn_track_t *k, const trk_step_t *st, trk_run_t *run)
{
    int *added = &run->applied;
    int rc, why = GO_OK;
    if (st->tolerant) {
        rc = go_game_play_tolerant(k->g, st->c, st->p, &why);
        if (rc == GO_OK && why != GO_OK && why != GO_ETURN) {
            go_game_undo(k->g);
            rc = why;
        }
    } else {
        rc = go_game_play(k->g, st->c, st->p);
    }
    if (rc == GO_OK) {
        (*added)++;
        return GO_OK;
    }
    if (rc == GO_EOCCUPIED || rc == GO_ESUICIDE || rc == GO_EKO || rc == GO_ESUPERKO) {
        int nm = go_game_move_count(k->g);
        const go_move_t *last = nm > 0 ? go_game_move(k->g, nm - 1) : NULL;
        if (k->cfg.end_by_signals && last && last->kind == GO_MOVE_PASS) {
            /* void after a pass: the pass and the forfeit change nothing, and two passes
             * must not end a game whose end the players confirm: both left out */
            go_color_t pc = last->color;
            if (go_game_undo(k->g) != GO_OK)
                return GO_EOVER;
            if (*added > 0)
                (*added)--;
            else
                run->dropped = pc;
            return rc;
        }
        int prc = go_game_pass(k->g, st->c, st->tolerant != 0);
        if (prc == GO_ENOMEM)
            return GO_ENOMEM;
        if (prc != GO_OK)
            return GO_EOVER;
        (*added)++;
        return rc;
    }
    /* out of turn (a strict step after a pass left out), over: not recordable */
    return rc == GO_ENOMEM ? GO_ENOMEM : rc == GO_EOVER ? GO_EOVER : GO_EINVAL;
}

/* Mark what the (void) step would have captured on the board `before` it. */
int trk_would_capture(const stn_track_t *k, const trk_step_t *st,
                      const uint8_t *before, uint8_t *captured)
{
    go_board_t *b = malloc(sizeof *b);
    go_place_info_t *info = malloc(sizeof *info);
    if (!b || !info) {
        free(b);
        free(info);
        return GO_ENOMEM;
    }
    *b = *go_game_board(k->g);
    if (go_board_play(b, st->c, st->p, info) == GO_OK)
        for (int j = 0; j < info->ncaptured; j++)
            captured[info->captured[j]] = before[info->captured[j]];
    free(info);
    free(b);
    return GO_OK;
}

/* Play steps[0..n) on the game, filling *run; stops at a step that cannot be recorded,
 * or at an allocation failure (run->oom set: the caller reports GO_ENOMEM). */
void trk_play(stn_track_t *k, const trk_step_t *steps, int n, trk_run_t *run,
              trk_score_t *sc)
{
    memset(sc, 0, sizeof *sc);
    run->applied = 0;
    run->oom = 0;
    run->dropped = GO_EMPTY;
    memset(run->captured, 0, sizeof run->captured);
    /* Players answer locally: the first stone near the last move is the likelier. */
    int nm = go_game_move_count(k->g);
    const go_move_t *last = nm > 0 ? go_game_move(k->g, nm - 1) : NULL;
    if (n > 0 && last && last->kind == GO_MOVE_PLAY) {
        int dx = abs(GO_X(steps[0].p) - GO_X(last->point));
        int dy = abs(GO_Y(steps[0].p) - GO_Y(last->point));
        sc->dist += dx > dy ? dx : dy;
    }
    for (int i = 0; i < n; i++) {
        uint8_t before[GO_CELLS];
        memcpy(before, go_game_board(k->g)->color, sizeof before);
        int rc = trk_step(k, &steps[i], run);
        run->result[i] = rc;
        if (rc == GO_ENOMEM) {
            run->oom = 1;
            break;
        }
        if (rc == GO_EOVER || rc == GO_EINVAL) {
            sc->over += n - i;
            for (int j = i + 1; j < n; j++)
                run->result[j] = GO_EOVER;
            break;
        }
        if (rc != GO_OK) {
            sc->voids++;
            if ((rc == GO_EKO || rc == GO_ESUPERKO) &&
                trk_would_capture(k, &steps[i], before, run->captured) != GO_OK) {
                run->oom = 1;
                break;
            }
        } else {
            const uint8_t *now = go_game_board(k->g)->color;
            for (int j = 0; j < k->size * k->size; j++) {
                int p = trk_pt(k->size, j);
                if (before[p] != GO_EMPTY && now[p] == GO_EMPTY)
                    run->captured[p] = before[p];
            }
        }
        if (i > 0) {
            int dx = abs(GO_X(steps[i].p) - GO_X(steps[i - 1].p));
            int dy = abs(GO_Y(steps[i].p) - GO_Y(steps[i - 1].p));
            sc->dist += dx > dy ? dx : dy;
        }
    }
}

/* Undo a trial (a failure to replay a dropped pass sets run->oom). */
void trk_unplay(stn_track_t *k, trk_run_t *run)
{
    for (int i = 0; i < run->applied; i++)
        go_game_undo(k->g);
    if (run->dropped != GO_EMPTY && go_game_pass(k->g, run->dropped, true) != GO_OK)
        run->oom = 1;
}

/* Missing stones the sequence does not explain (not captured, not played over). */
static int trk_unexplained(const trk_diff_t *d, const trk_step_t *steps, int n,
                           const trk_run_t *run, go_point_t *out)
{
    int m = 0;
    for (int i = 0; i < d->nr; i++) {
        int p = d->r[i], hit = run->captured[p] != 0;
        for (int j = 0; j < n && !hit; j++)
            hit = steps[j].p == p;
        if (!hit) {
            if (out)
                out[m] = (go_point_t)p;
            m++;
        }
    }
    return m;
}

static int trk_better(const trk_score_t *a, const trk_score_t *b)
{
    if (a->over != b->over)
        return a->over < b->over;
    if (a->voids != b->voids)
        return a->voids < b->voids;
    if (a->unexplained != b->unexplained)
        return a->unexplained < b->unexplained;
    if (a->late != b->late)
        return a->late < b->late;
    if (a->inversions != b->inversions)
        return a->inversions < b->inversions;
    return a->dist < b->dist;
}

static int trk_same_fit(const trk_score_t *a, const trk_score_t *b)
{
    return a->over == b->over && a->voids == b->voids && a->unexplained == b->unexplained &&
           a->late == b->late && a->inversions == b->inversions;
}

/* The view's evidence on an order: captured stones still seen, and pairs of steps whose
 * stones the camera first saw in the other order (stones seen between hands). A hidden
 * step (trk_step_t.hidden, the two-move search only) is not counted in the order (its
 * point shows what it showed before, since whenever) and a stone it replays where the
 * order captured one is not late (a ko taken and taken back). */
static void trk_view_fit(const stn_track_t *k, const stn_view_t *v, const trk_step_t *steps,
                         int n, const trk_run_t *run, trk_score_t *sc)
{
    sc->late = sc->inversions = 0;
    if (!v)
        return;
    for (int i = 0; i < k->size * k->size; i++) {
        int p = trk_pt(k->size, i), replayed = 0;
        if (!run->captured[p] || v->color[i] == GO_EMPTY || v->color[i] == STN_UNKNOWN)
            continue;
        for (int j = 0; j < n && !replayed; j++)
            replayed = steps[j].hidden && steps[j].p == p;
        sc->late += !replayed;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (steps[i].hidden || steps[j].hidden)
                continue;
            float a = v->first_t[GO_Y(steps[i].p) * k->size + GO_X(steps[i].p)];
            float b = v->first_t[GO_Y(steps[j].p) * k->size + GO_X(steps[j].p)];
            if (a >= 0 && b >= 0 && a > b + 0.05f)
                sc->inversions++;
        }
}

static void trk_reverse(int *idx, int a, int b)
{
    for (; a < b; a++, b--) {
        int t = idx[a];
        idx[a] = idx[b];
        idx[b] = t;
    }
}

/* Next lexicographic permutation of idx[0..n); 0 when it wrapped back to the first
 * (sorted again: an outer loop's next round sees every inner permutation). */
static int trk_next_perm(int *idx, int n)
{
    int i = n - 2;
    while (i >= 0 && idx[i] >= idx[i + 1])
        i--;
    if (i < 0) {
        trk_reverse(idx, 0, n - 1);
        return 0;
    }
    int j = n - 1;
    while (idx[j] <= idx[i])
        j--;
    int t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
    trk_reverse(idx, i + 1, n - 1);
    return 1;
}

/* Choose the order of the added stones adds[0..na): colours follow alternation from the
 * side to move while both colours last (the rest is out of turn). Returns 0 or
 * GO_ENOMEM (an allocation failed in a trial: no order is chosen; the game unchanged). */
static int trk_search_orders(stn_track_t *k, const trk_diff_t *d, const trk_add_t *adds,
                              int na, const stn_view_t *v, trk_plan_t *best)
{
    go_color_t t = go_game_turn(k->g);
    int T[TRK_NPTS], O[TRK_NPTS], nt = 0, no = 0;
    memset(best, 0, sizeof *best);
    best->score.over = 1 << 20;
    for (int i = 0; i < na; i++) {
        if (adds[i].c == t)
            T[nt++] = i;
        else
            O[no++] = i;
    }
    /* A lone stone of the other colour: the turn's move (wrong colour) unless colours are
     * trusted. */
    int recolour = na == 1 && no == 1 && !k->cfg.trust_colour;
    go_color_t pattern[TRK_NPTS];
    int tolerant[TRK_NPTS];
    {
        int it = 0, io = 0;
        go_color_t want = t, prev = GO_OTHER(t);
        for (int i = 0; i < na; i++) {
            go_color_t c;
            if (recolour)
                c = GO_OTHER(t);
            else if (want == t ? it < nt : io < no)
                c = want;
            else
                c = GO_OTHER(want);
            if (c == t)
                it++;
            else
                io++;
            pattern[i] = c;
            tolerant[i] = !recolour && c == prev;
            prev = c;
            want = GO_OTHER(c);
        }
    }
    /* Permutations of each colour's stones. */
    int pt[TRK_NPTS], po[TRK_NPTS];
    for (int i = 0; i < nt; i++)
        pt[i] = T[i];
    for (int i = 0; i < no; i++)
        po[i] = O[i];
    trk_step_t steps[TRK_NPTS];
    trk_run_t *run = malloc(sizeof *run);
    if (!run)
        return GO_ENOMEM;
    do {
        do {
            int it = 0, io = 0;
            for (int i = 0; i < na; i++) {
                const trk_add_t *a;
                /* The pattern holds nt stones of colour t and no of the other (na = nt +
                 * no), so it < nt and io < no: pt/po and adds[0..na) are set. The
                 * analyser does not follow these counts through the loops above. */
                /* NOLINTBEGIN(clang-analyzer-core.uninitialized.ArraySubscript,clang-analyzer-core.uninitialized.Assign) */
                if (recolour)
                    a = &adds[po[io++]];
                else
                    a = pattern[i] == t ? &adds[pt[it++]] : &adds[po[io++]];
                steps[i].p = a->p;
                /* NOLINTEND(clang-analyzer-core.uninitialized.ArraySubscript,clang-analyzer-core.uninitialized.Assign) */
                steps[i].seen = a->c;
                steps[i].c = recolour ? t : a->c;
                steps[i].tolerant = tolerant[i];
                steps[i].hidden = a->hidden;
            }
            trk_score_t sc;
            trk_play(k, steps, na, run, &sc);
            trk_unplay(k, run);
            if (run->oom) {
                free(run);
                best->n = 0;
                return GO_ENOMEM;
            }
            sc.unexplained = trk_unexplained(d, steps, na, run, NULL);
            trk_view_fit(k, v, steps, na, run, &sc);
            best->norders++;
            if (best->norders == 1 || trk_better(&sc, &best->score)) {
                if (best->norders > 1 && trk_same_fit(&sc, &best->score))
                    best->nfit++;
                else
                    best->nfit = 1;
                best->score = sc;
                best->n = na;
                memcpy(best->steps, steps, (size_t)na * sizeof *steps);
            } else if (trk_same_fit(&sc, &best->score)) {
                best->nfit++;
            }
        } while (trk_next_perm(po, no));
    } while (trk_next_perm(pt, nt));
    free(run);
    return GO_OK;
}

int trk_perfect(const trk_plan_t *p)
{
    if (p->score.over || p->score.voids || p->score.unexplained)
        return 0;
    for (int i = 0; i < p->n; i++)
        if (p->steps[i].seen != p->steps[i].c || p->steps[i].tolerant)
            return 0;
    return 1;
}

/* Points where a move of hc the camera could not see may lie (see trk_search): where a
 * dead stone of hc, the last of its capture, still lies (thrown[] 0: played onto it), where
 * one was seen until now, and (near) empty points next to the opponent's new stones or to
 * missing stones of hc (thrown[] 1: captured at once). Writes at most max; returns how
 * many. */
static int trk_cands(const stn_track_t *k, const trk_diff_t *d, const trk_add_t *adds, int na,
                     const stn_view_t *v, go_color_t hc, int near, go_point_t *cand,
                     uint8_t *thrown, int max)
{
    const go_board_t *b = go_game_board(k->g);
    int nc = 0;
    for (int i = 0; i < k->size * k->size && nc < max; i++) {
        int p = trk_pt(k->size, i);
        if (k->pending[p] == hc && v->color[i] == hc) {
            /* only the last one of its capture still lying there (a player takes
             * the dead stones off together before playing among them) */
            int left = 0;
            for (int j = 0; j < k->size * k->size; j++) {
                int q = trk_pt(k->size, j);
                left += k->pending[q] && k->pend_move[q] == k->pend_move[p];
            }
            if (left == 1) {
                thrown[nc] = 0;
                cand[nc++] = (go_point_t)p;
            }
        } else if (k->gone_dead[p] == hc && v->color[i] == GO_EMPTY &&
                   b->color[p] == GO_EMPTY) {
            /* a stone of hc was seen there until now: replayed there, then captured */
            thrown[nc] = 1;
            cand[nc++] = (go_point_t)p;
        }
    }
    static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };
    /* next to the opponent's new stones, or to missing stones of colour hc (it
     * joined them and was captured with them); not against a plain wrong colour */
    for (int i = 0; near && i < na + d->nr; i++) {
        int q = i < na ? adds[i].p : d->r[i - na];
        if (i < na ? adds[i].c == hc : b->color[q] != hc)
            continue;
        for (int j = 0; j < 4 && nc < max; j++) {
            int p = q + dirs[j];
            if (b->color[p] != GO_EMPTY || trk_view_at(k, v, p) != GO_EMPTY ||
                trk_in(cand, nc, p))
                continue;
            thrown[nc] = 1;
            cand[nc++] = (go_point_t)p;
        }
    }
    return nc;
}

/* Bounds of the two-move search (trk_search_pairs), so that it stays a few ms at worst: */
#define TRK_PAIR_STONES 6  /* a ko pair (a handful of pairs): at most 4 stones seen, 6 in
                              all, (3!)^2 = 36 orders per pair */
#define TRK_PAIR_STONES_ANY 5 /* any two points: at most 3 stones seen, 5 in all, 12
                              orders per pair */
#define TRK_PAIR_CAND 4    /* points tried per colour for any two (ko points first): at
                              most 16 pairs of two colours, 6 of one */
#define TRK_PAIR_KOS 4     /* kos looked at per colour */

/* Kos c could take on the game's board as it stands, their point empty in the view and the
 * stone taken still seen there (retaken since): x[i] the point, y[i] the stone it takes.
 * tmp: scratch. Returns how many (at most max). */
static int trk_kos(const stn_track_t *k, const stn_view_t *v, go_color_t c, go_point_t *x,
                   go_point_t *y, int max, go_board_t *tmp, go_place_info_t *info)
{
    static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };
    const go_board_t *b = go_game_board(k->g);
    int n = 0;
    for (int i = 0; i < k->size * k->size && n < max; i++) {
        int p = trk_pt(k->size, i), atari = 0;
        if (b->color[p] != GO_EMPTY || v->color[i] != GO_EMPTY || k->pending[p])
            continue;
        for (int j = 0; j < 4; j++) {
            int q = p + dirs[j];
            atari |= b->color[q] == GO_OTHER(c) && go_board_libs(b, q) == 1 &&
                     trk_view_at(k, v, q) == (int)GO_OTHER(c);
        }
        if (!atari)
            continue;
        *tmp = *b;
        if (go_board_play(tmp, c, p, info) == GO_OK && info->ncaptured == 1 &&
            tmp->ko == info->captured[0]) {
            x[n] = (go_point_t)p;
            y[n++] = info->captured[0];
        }
    }
    return n;
}

/* Two moves the camera could not see, tried with the stones seen adds[0..na) (see
 * trk_search). ko_only: only a ko taken and taken back (its point empty as before, the
 * stone it took back as before), kept when it puts every stone seen in the order the
 * camera saw them (no inversion) and needs no more late removals than plain->score;
 * else any two points trk_cands and trk_kos give, of the colours alternation allows (near:
 * as in trk_cands). Cost: see TRK_PAIR_STONES and the bounds under it; nothing is tried
 * with more stones. A pair is kept when it explains all (trk_perfect) and its points end as the view
 * shows them; the best fit (trk_better) wins, *nfit counts the pairs that fit as well.
 * Returns 0 or GO_ENOMEM; *found is set when *nfit > 0. */
static int trk_search_pairs(stn_track_t *k, const trk_diff_t *d, const trk_add_t *adds,
                            int na, const stn_view_t *v, int ko_only, int near,
                            const trk_plan_t *plain, trk_plan_t *found, int *nfit)
{
    *nfit = 0;
    if (na + 2 > (ko_only ? TRK_PAIR_STONES : TRK_PAIR_STONES_ANY) ||
        na + 2 > k->cfg.max_moves || go_game_over(k->g))
        return GO_OK;
    go_color_t t = go_game_turn(k->g);
    int nt = 0;
    for (int i = 0; i < na; i++)
        nt += adds[i].c == t;
    go_point_t pts[2][TRK_NPTS], kx[2][TRK_PAIR_KOS], ky[2][TRK_PAIR_KOS];
    int np[2] = { 0, 0 }, nk[2] = { 0, 0 }, rc = GO_OK;
    trk_add_t *a2 = malloc(sizeof *a2 * (size_t)(na + 2));
    trk_plan_t *p2 = malloc(sizeof *p2);
    trk_run_t *run = malloc(sizeof *run);
    go_board_t *tmp = malloc(sizeof *tmp);
    go_place_info_t *info = malloc(sizeof *info);
    uint8_t *thrown = malloc(TRK_NPTS);
    if (!a2 || !p2 || !run || !tmp || !info || !thrown)
        rc = GO_ENOMEM;
    for (int h = 0; h < 2 && rc == GO_OK; h++)
        nk[h] = trk_kos(k, v, h == 0 ? t : GO_OTHER(t), kx[h], ky[h], TRK_PAIR_KOS, tmp, info);
    for (int h = 0; h < 2 && rc == GO_OK && !ko_only; h++) {
        /* ko points and stones a ko takes back first, then trk_cands */
        for (int i = 0; i < nk[h] && np[h] < TRK_PAIR_CAND; i++)
            pts[h][np[h]++] = kx[h][i];
        for (int i = 0; i < nk[!h] && np[h] < TRK_PAIR_CAND; i++)
            if (!trk_in(pts[h], np[h], ky[!h][i]))
                pts[h][np[h]++] = ky[!h][i];
        if (np[h] < TRK_PAIR_CAND) {
            /* a stone captured at once leaves no liberty in the view: the points with the
             * fewest empty neighbours there first (those of dead stones played onto: 0) */
            static const int dirs[4] = { 1, -1, GO_STRIDE, -GO_STRIDE };
            go_point_t c[TRK_NPTS];
            int nc = trk_cands(k, d, adds, na, v, h == 0 ? t : GO_OTHER(t), near, c, thrown,
                               TRK_NPTS);
            for (int libs = 0; libs <= 4; libs++)
                for (int i = 0; i < nc && np[h] < TRK_PAIR_CAND; i++) {
                    int e = 0;
                    for (int j = 0; j < 4 && thrown[i]; j++)
                        e += go_board_on(go_game_board(k->g), c[i] + dirs[j]) &&
                             trk_view_at(k, v, c[i] + dirs[j]) == GO_EMPTY;
                    if (e == libs && !trk_in(pts[h], np[h], c[i]))
                        pts[h][np[h]++] = c[i];
                }
        }
    }
    /* the pairs: colours (h1, h2), h1 <= h2, the counts alternation allows */
    for (int h1 = 0; h1 < 2 && rc == GO_OK; h1++)
        for (int h2 = h1; h2 < 2 && rc == GO_OK; h2++) {
            int nt2 = nt + (h1 == 0) + (h2 == 0), no2 = na + 2 - nt2;
            if (nt2 != no2 && nt2 != no2 + 1)
                continue;
            int n1 = ko_only ? (h1 != h2 ? nk[0] + nk[1] : 0) : np[h1];
            for (int i = 0; i < n1 && rc == GO_OK; i++) {
                int n2 = ko_only ? 1 : np[h2];
                for (int j = h1 == h2 ? i + 1 : 0; j < n2 && rc == GO_OK; j++) {
                    go_point_t q1, q2;
                    go_color_t c1, c2;
                    if (ko_only) {   /* the ko taken (by either side), then taken back */
                        int hk = i < nk[0] ? 0 : 1, ik = hk == 0 ? i : i - nk[0];
                        c1 = hk == 0 ? t : GO_OTHER(t);
                        c2 = GO_OTHER(c1);
                        q1 = kx[hk][ik];
                        q2 = ky[hk][ik];
                    } else {
                        c1 = h1 == 0 ? t : GO_OTHER(t);
                        c2 = h2 == 0 ? t : GO_OTHER(t);
                        q1 = pts[h1][i];
                        q2 = pts[h2][j];
                    }
                    if (q1 == q2)
                        continue;
                    memcpy(a2, adds, sizeof *a2 * (size_t)na);
                    a2[na].p = q1;
                    a2[na].c = c1;
                    a2[na + 1].p = q2;
                    a2[na + 1].c = c2;
                    a2[na].hidden = a2[na + 1].hidden = 1;
                    if ((rc = trk_search_orders(k, d, a2, na + 2, v, p2)) != GO_OK)
                        break;
                    if (p2->n != na + 2 || !trk_perfect(p2))
                        continue;
                    if (ko_only && (p2->score.inversions > 0 ||
                                    p2->score.late > plain->score.late))
                        continue;
                    /* both points end as the view shows them (a stone captured at once
                     * ends empty, one played onto a dead stone or retaken ends there) */
                    trk_score_t sc;
                    trk_play(k, p2->steps, p2->n, run, &sc);
                    const uint8_t *end = go_game_board(k->g)->color;
                    int ok = trk_view_at(k, v, q1) == (int)end[q1] &&
                             trk_view_at(k, v, q2) == (int)end[q2];
                    trk_unplay(k, run);
                    if (run->oom) {
                        rc = GO_ENOMEM;
                        break;
                    }
                    if (!ok)
                        continue;
                    if (*nfit == 0 || trk_better(&p2->score, &found->score)) {
                        *nfit = *nfit > 0 && trk_same_fit(&p2->score, &found->score) ? *nfit + 1 : 1;
                        *found = *p2;
                        found->hidden = q1;
                        found->hidden2 = q2;
                    } else if (trk_same_fit(&p2->score, &found->score)) {
                        (*nfit)++;
                    }
                }
            }
        }
    free(a2);
    free(p2);
    free(run);
    free(tmp);
    free(info);
    free(thrown);
    return rc;
}

/* Choose the moves and their order. When they do not explain the view perfectly (a void
 * move, a missing stone, a move out of turn, a wrong colour), a move the camera could not
 * see may (against a lone wrong colour, only the first kind is likelier): one played where a stone of its own colour, captured but not yet taken off,
 * still lay (the player took the dead stone off and put his own there), or one the
 * opponent captured at once, before the board settled (a throw-in in fast play). Such
 * points, of the colour alternation allows, are tried and kept when they explain all.
 * When no single one does (and not against a lone wrong colour), two are tried
 * (trk_search_pairs). And when the plain reading explains all but puts the stones in
 * another order than the camera saw them (alternation forces it: the first stone seen is
 * the wrong side's), a ko taken and taken back unseen (hands over the board in a ko fight)
 * is tried: kept only when it puts every stone in the order seen.
 * Returns 0 or GO_ENOMEM (game unchanged, *best meaningless). */
int trk_search(stn_track_t *k, const trk_diff_t *d, const trk_add_t *adds, int na,
               const stn_view_t *v, trk_plan_t *best)
{
    int rc = trk_search_orders(k, d, adds, na, v, best);
    best->hidden = best->hidden2 = 0;
    if (rc != GO_OK)
        return rc;
    /* a lone stone of the wrong colour that explains everything else is just that */
    int wrong_only = best->n == 1 && best->steps[0].seen != best->steps[0].c &&
                     !best->score.over && !best->score.voids && !best->score.unexplained;
    if (na + 1 >= TRK_NPTS || na + 1 > k->cfg.max_moves)
        return GO_OK;
    if (trk_perfect(best)) {
        if (best->score.inversions == 0 || na < 2)
            return GO_OK;
        trk_plan_t *found = malloc(sizeof *found);
        int nfit = 0;
        if (!found)
            return GO_ENOMEM;
        rc = trk_search_pairs(k, d, adds, na, v, 1, 0, best, found, &nfit);
        if (rc == GO_OK && nfit > 0) {
            *best = *found;
            best->nhidden = nfit;
        }
        free(found);
        return rc;
    }
    go_color_t t = go_game_turn(k->g);
    int nt = 0;
    for (int i = 0; i < na; i++)
        nt += adds[i].c == t;
    trk_add_t *a2 = malloc(sizeof *a2 * (size_t)(na + 1));
    trk_plan_t *p2 = malloc(sizeof *p2), *found = malloc(sizeof *found);
    trk_run_t *run = malloc(sizeof *run);
    go_point_t *cand = malloc(sizeof *cand * TRK_NPTS);
    uint8_t *thrown = malloc(TRK_NPTS);
    int nfit = 0;
    if (!a2 || !p2 || !found || !run || !cand || !thrown)
        rc = GO_ENOMEM;
    for (int h = 0; h < 2 && rc == GO_OK; h++) {
        go_color_t hc = h == 0 ? t : GO_OTHER(t);
        int nt2 = nt + (hc == t), no2 = na + 1 - nt2;
        if (nt2 != no2 && nt2 != no2 + 1)
            continue;
        int nc = trk_cands(k, d, adds, na, v, hc, !wrong_only, cand, thrown, TRK_NPTS);
        for (int c = 0; c < nc && rc == GO_OK; c++) {
            memcpy(a2, adds, sizeof *a2 * (size_t)na);
            a2[na].p = cand[c];
            a2[na].c = hc;
            a2[na].hidden = 0;
            if ((rc = trk_search_orders(k, d, a2, na + 1, v, p2)) != GO_OK)
                break;
            if (p2->n != na + 1 || !trk_perfect(p2))
                continue;
            if (thrown[c]) {
                trk_score_t sc;
                trk_play(k, p2->steps, p2->n, run, &sc);
                trk_unplay(k, run);
                if (run->oom) {
                    rc = GO_ENOMEM;
                    break;
                }
                if (run->captured[cand[c]] != hc)
                    continue;
            }
            if (nfit++ == 0) {
                *found = *p2;
                found->hidden = cand[c];
            }
        }
    }
    if (rc == GO_OK && nfit == 0 && !wrong_only)
        rc = trk_search_pairs(k, d, adds, na, v, 0, 1, best, found, &nfit);
    if (rc == GO_OK && nfit > 0) {
        *best = *found;
        best->nhidden = nfit;
    }
    free(a2);
    free(p2);
    free(found);
    free(run);
    free(cand);
    free(thrown);
    return rc;
}
