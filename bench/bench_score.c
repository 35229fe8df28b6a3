/* bench_score.c: scoring benchmarks (timing lives here, never in tests).
 *
 *   bench_score agree [--limit N] [--show K] FILE...
 *       every game of the SGF files whose RE[] is a counted margin (B+2.5, W+0.5): replay
 *       the main line, propose the dead stones (go_life), count under the game's rules
 *       (RU[], else korean) and komi; report how often the recorded winner and the exact
 *       recorded margin come out, and the disagreements by cause.
 *       --boards 1 prints each shown game's counted board (see print_map); --playouts N
 *       overrides the proposal's playouts (agree and time); --budget N its playout move
 *       budget (go_life_options_t.move_budget); --ko-dead 1 applies the
 *       Japanese ko rule (bent four) whatever the rules; --no-tax 1 counts the eyes of
 *       groups in seki as territory (no seki tax), to measure that convention;
 *       A game the players ended with a border left open (go_score_t.unsettled) has no
 *       exact count: it is counted as `kifucam score` counts it (the open points nobody's,
 *       no dead-stone call there) and compared with RE[] like any other, and the summary
 *       says how many such games there were and how many of them agree; the
 *       proposal is told the side to move after the record (go_life_options_t.to_move),
 *       as `kifucam score` does; --no-turn 1 leaves it unknown; --turn-races 1 lets it
 *       decide the races each side wins moving first (go_life_options_t.turn_races, off
 *       by default) (agree and time).
 *   bench_score map FILE...
 *       every game's counted board and result (japanese rules unless RU[]), for looking.
 *       --cmp LIST (SGF points of dead chains, e.g. GNU Go's) marks the stones where that
 *       list disagrees with the proposal: '!' ('|' for White) dead by the proposal only,
 *       '#' ('=' for White) by LIST only; agree takes --cmp too (for one game).
 *   bench_score time [--n N] FILE...
 *       dead-stone proposal + count per final position, in milliseconds (N positions).
 *   bench_score dump --n N --out DIR FILE...
 *       write the first N counted games as one SGF file each (DIR/gNNNN.sgf), for running
 *       GNU Go on the same positions (bench/score.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/go_game.h"
#include "rules/go_life.h"
#include "rules/go_score.h"
#include "rules/go_session.h"
#include "rules/sgf.h"
#include "rules/sgf_game.h"

typedef struct ctx {
    const char *mode;
    long limit, show, n, boards, playouts, ko_dead, no_tax, nodead, budget, no_turn,
        turn_races;
    const char *out;
    const char *cmp;       /* map: a dead list (SGF points, comma-separated) to compare */
    /* agree */
    long unsettled, unsettled_winner, unsettled_exact;   /* games with an open border */
    long games, counted, winner_ok, exact_ok, skipped, area_ok, area_fix, v_fix[4];
    long cause[8];
    long diffhist[9];      /* |margin diff| in points: 0,1,2,3,4,5-9,10-19,20+ */
    /* time */
    double total_ms, max_ms;
    double *ms;
    long nms;
    const char *file;
} ctx_t;

enum { C_BIG, C_SEKI, C_LOWCONF, C_SMALL, C_OTHER, C_NCAUSE };
static const char *cause_names[] = {
    "life and death of a large group (10 points or more apart)",
    "seki on the board",
    "an uncertain dead-stone call (confidence < 0.75, or a live chain owned < 75%)",
    "1-4 points apart with clear life and death (dame, unfinished borders, the record)",
    "other"
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* RE[] as a counted margin in half points (+ Black); 0 when not a counted margin. */
static int parse_re(const char *re, int *margin2)
{
    char *end;
    double v;
    if (!re || (re[0] != 'B' && re[0] != 'W') || re[1] != '+')
        return 0;
    v = strtod(re + 2, &end);
    if (end == re + 2 || *end || v <= 0)
        return 0;
    *margin2 = (int)(v * 2 + 0.5) * (re[0] == 'B' ? 1 : -1);
    return 1;
}

/* The counted board on stderr (--boards): X O live stones, x o dead ones, + - territory of
 * Black / White, s seki, . dame; the owner estimate of live stones below 0.75 as '?'. */
static void print_map(const go_board_t *b, const go_score_t *sc, const go_life_result_t *lr,
                      const go_score_params_t *par, const char *cmp)
{
    uint8_t other[GO_CELLS];
    memset(other, 0, sizeof other);
    for (const char *s = cmp; s && strlen(s) >= 2; s += 3) {
        int p = go_point_from_sgf(b->size, s, 2);
        if (p > 0 && b->color[p] != GO_EMPTY) {
            int q = p;
            do {
                other[q] = 1;
                q = b->next[q];
            } while (q != p);
        }
        if (s[2] != ',')
            break;
    }
    for (int y = 0; y < b->size; y++) {
        char line[2 * GO_MAX_SIZE + 2];
        int n = 0;
        for (int x = 0; x < b->size; x++) {
            int p = GO_PT(x, y), v = sc->point[p], c = b->color[p];
            char ch = '.';
            if (c == GO_BLACK || c == GO_WHITE) {
                float o = lr->owner[p] * (c == GO_BLACK ? 1.0f : -1.0f);
                ch = (v & GO_SP_DEAD) ? (c == GO_BLACK ? 'x' : 'o') : (c == GO_BLACK ? 'X' : 'O');
                if (!(v & GO_SP_DEAD) && o < 0.5f)
                    ch = c == GO_BLACK ? 'B' : 'W';
                if (cmp && !(v & GO_SP_DEAD) != !other[p])   /* dead here only / there only */
                    ch = (v & GO_SP_DEAD) ? (c == GO_BLACK ? '!' : '|') : (c == GO_BLACK ? '#' : '=');
            } else if (v & GO_SP_SEKI) {
                ch = 's';
            } else if (GO_SP_OWNER(v) == GO_BLACK) {
                ch = '+';
            } else if (GO_SP_OWNER(v) == GO_WHITE) {
                ch = '-';
            }
            line[n++] = ch;
            line[n++] = ' ';
        }
        line[n] = '\0';
        fprintf(stderr, "  %s\n", line);
    }
    fprintf(stderr, "  captures B %d W %d; black terr %d dead %d; white terr %d dead %d\n",
            par->captures[GO_BLACK], par->captures[GO_WHITE], sc->side[GO_BLACK].territory,
            sc->side[GO_BLACK].dead, sc->side[GO_WHITE].territory, sc->side[GO_WHITE].dead);
}

static int on_game(void *vctx, const sgf_node_t *root, int index, const char *charset)
{
    ctx_t *cx = vctx;
    sgf_replay_t rep;
    sgf_error_t err;
    go_rules_t rules;
    const go_life_result_t *lr;
    const go_score_params_t *par;
    go_session_t *sess;
    go_score_t *sc;
    int want2;
    (void)charset;
    cx->games++;
    if (!strcmp(cx->mode, "map")) {
        want2 = 0;   /* every game: its counted board (japanese rules unless RU[]) */
        if (!parse_re(sgf_node_value(root, "RE"), &want2))
            want2 = 0;
        cx->show = 1;
        cx->boards = 1;
    } else if (!parse_re(sgf_node_value(root, "RE"), &want2)) {
        return 0;
    }
    if (cx->limit && cx->counted >= cx->limit)
        return 1;   /* stop */
    cx->counted++;

    if (!strcmp(cx->mode, "dump")) {
        char path[1024], *text;
        size_t len;
        FILE *f;
        if (cx->counted > cx->n)
            return 1;
        snprintf(path, sizeof path, "%s/g%04ld.sgf", cx->out, cx->counted);
        if (sgf_write_tree(root, &text, &len) == 0) {
            f = fopen(path, "w");
            if (f) {
                fwrite(text, 1, len, f);
                fclose(f);
            }
            free(text);
        }
        return 0;
    }

    if (sgf_replay(root, NULL, &rep, &err) != 0) {
        cx->skipped++;
        return 0;
    }
    if (!rep.rules_from_sgf)
        go_rules_preset(strcmp(cx->mode, "map") ? "korean" : "japanese", &rep.rules);
    rules = rep.rules;
    if (cx->no_tax)
        rules.tax = GO_TAX_NONE;   /* --no-tax: eyes of groups in seki count as territory */
    lr = NULL;
    sc = malloc(sizeof *sc);
    if (!sc) {
        sgf_replay_fini(&rep);
        return -1;
    }
    {
        const go_board_t *b = go_game_board(rep.game);
        double t0 = now_ms(), t1;
        /* the one count of the station and `kifucam score` (go_session_for_game) */
        sess = go_session_for_game(rep.game, &rules, rep.komi2, rep.handicap, false);
        go_life_options_t lo = go_life_defaults();
        if (cx->playouts > 0)
            lo.playouts = (int)cx->playouts;
        if (cx->budget > 0)
            lo.move_budget = cx->budget;
        lo.ko_dead = cx->ko_dead || (rules.name && !strcmp(rules.name, "japanese"));
        if (!cx->no_turn && (go_game_move_count(rep.game) > 0 || sgf_node_value(root, "PL")))
            lo.to_move = go_game_turn(rep.game);   /* the side to move after the record */
        lo.turn_races = (int)cx->turn_races;
        if (!sess || go_session_propose(sess, &lo) != GO_OK) {
            go_session_destroy(sess);
            free(sc);
            sgf_replay_fini(&rep);
            return -1;
        }
        if (cx->nodead) {
            uint8_t none[GO_CELLS];
            memset(none, 0, sizeof none);
            go_session_set_dead(sess, none);
        }
        go_session_score(sess, sc);
        lr = go_session_proposal(sess);
        par = go_session_params(sess);
        t1 = now_ms() - t0;
        if (!strcmp(cx->mode, "time")) {
            if (cx->nms < cx->n)
                cx->ms[cx->nms++] = t1;
            if (cx->show > 0) {
                cx->show--;
                fprintf(stderr, "%.3f ms playouts %d moves %ld\n", t1, lr->playouts,
                        lr->playout_moves);
            }
            cx->total_ms += t1;
            if (t1 > cx->max_ms)
                cx->max_ms = t1;
            if (cx->nms >= cx->n) {
                go_session_destroy(sess);
                free(sc);
                sgf_replay_fini(&rep);
                return 1;
            }
        } else {
            int got_w = sc->winner == GO_BLACK ? 1 : sc->winner == GO_WHITE ? -1 : 0;
            int want_w = want2 > 0 ? 1 : -1;
            int d = abs(sc->margin2 - want2) / 2;
            cx->winner_ok += got_w == want_w;
            cx->exact_ok += sc->margin2 == want2;
            if (sc->unsettled) {
                cx->unsettled++;
                cx->unsettled_winner += got_w == want_w;
                cx->unsettled_exact += sc->margin2 == want2;
            }
            {   /* the same board by area (stones + territory), for comparing */
                int area2 = sc->side[GO_BLACK].area2 - sc->side[GO_WHITE].area2 - par->komi2;
                cx->area_ok += area2 == want2;
                cx->area_fix += area2 == want2 && sc->margin2 != want2;
                int v1 = sc->margin2 - 2 * (sc->side[GO_BLACK].dead - sc->side[GO_WHITE].dead);
                int v2 = sc->margin2 - 2 * (sc->side[GO_BLACK].captures - sc->side[GO_WHITE].captures);
                cx->v_fix[0] += v1 == want2 && sc->margin2 != want2;
                cx->v_fix[1] += v2 == want2 && sc->margin2 != want2;
                cx->v_fix[2] += sc->margin2 != want2 && abs(sc->margin2 - want2) == 2
                                && ((sc->margin2 - want2 > 0) == (go_game_move_count(rep.game) % 2 == 1));
            }
            cx->diffhist[d <= 4 ? d : d < 10 ? 5 : d < 20 ? 6 : 7]++;
            if (sc->margin2 != want2 || !strcmp(cx->mode, "map")) {
                /* classify the disagreement */
                int cause = C_OTHER, lowconf = 0;
                for (int i = 0; i < lr->ngroups; i++)
                    if (lr->groups[i].confidence < 0.75f)
                        lowconf = 1;
                for (int p = 0; p < GO_CELLS; p++) {
                    int v = b->color[p];
                    if ((v == GO_BLACK || v == GO_WHITE) && !lr->dead[p]) {
                        float o = lr->owner[p] * (v == GO_BLACK ? 1.0f : -1.0f);
                        if (o < 0.5f)
                            lowconf = 1;
                    }
                }
                if (d >= 10)
                    cause = C_BIG;
                else if (sc->nseki_groups)
                    cause = C_SEKI;
                else if (lowconf)
                    cause = C_LOWCONF;
                else if (d <= 4)
                    cause = C_SMALL;
                cx->cause[cause]++;
                if (cx->show > 0) {
                    cx->show--;
                    int ndame = 0, nm = go_game_move_count(rep.game), passes = 0;
                    for (int p = 0; p < GO_CELLS; p++)
                        ndame += (sc->point[p] & GO_SP_DAME) != 0;
                    for (int i = nm - 1; i >= 0 && go_game_move(rep.game, i)->point == GO_PASS; i--)
                        passes++;
                    fprintf(stderr, "%s game %d (counted game %ld): RE %s, counted %s (%s) "
                                    "diff2 %d dame %d moves %d passes %d handicap %d open %d\n",
                            cx->file, index + 1, cx->counted, sgf_node_value(root, "RE"), sc->re,
                            cause_names[cause], sc->margin2 - want2, ndame, nm, passes,
                            rep.handicap, sc->unsettled);
                    if (cx->boards)
                        print_map(b, sc, lr, par, cx->cmp);
                }
            }
        }
    }
    go_session_destroy(sess);
    free(sc);
    sgf_replay_fini(&rep);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    ctx_t cx;
    int first = 2;
    memset(&cx, 0, sizeof cx);
    cx.n = 200;
    if (argc < 3) {
        fprintf(stderr, "usage: bench_score agree|time|dump [--limit N] [--show K] [--n N] "
                        "[--out DIR] FILE...\n");
        return 2;
    }
    cx.mode = argv[1];
    for (; first < argc && !strncmp(argv[first], "--", 2); first += 2) {
        if (first + 1 >= argc)
            return 2;
        if (!strcmp(argv[first], "--limit"))
            cx.limit = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--show"))
            cx.show = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--ko-dead"))
            cx.ko_dead = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--nodead"))
            cx.nodead = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--no-tax"))
            cx.no_tax = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--turn-races"))
            cx.turn_races = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--no-turn"))
            cx.no_turn = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--budget"))
            cx.budget = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--playouts"))
            cx.playouts = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--boards"))
            cx.boards = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--n"))
            cx.n = atol(argv[first + 1]);
        else if (!strcmp(argv[first], "--cmp"))
            cx.cmp = argv[first + 1];
        else if (!strcmp(argv[first], "--out"))
            cx.out = argv[first + 1];
    }
    cx.ms = calloc((size_t)cx.n + 1, sizeof *cx.ms);
    if (!cx.ms)
        return 2;
    for (int i = first; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        char *buf;
        long len;
        sgf_error_t err;
        if (!f) {
            fprintf(stderr, "%s: cannot open\n", argv[i]);
            continue;
        }
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)len + 1);
        if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
            fclose(f);
            free(buf);
            continue;
        }
        fclose(f);
        cx.file = argv[i];
        sgf_parse_each(buf, (size_t)len, NULL, on_game, &cx, &err);
        free(buf);
        if ((cx.limit && cx.counted >= cx.limit) || (!strcmp(cx.mode, "time") && cx.nms >= cx.n)
            || (!strcmp(cx.mode, "dump") && cx.counted >= cx.n))
            break;
    }
    if (!strcmp(cx.mode, "agree")) {
        long scored = cx.counted - cx.skipped;
        printf("games read %ld, counted margins %ld, scored %ld (skipped %ld)\n", cx.games,
               cx.counted, scored, cx.skipped);
        if (scored > 0) {
            printf("winner agrees: %ld (%.2f%%)  target >= 99%%\n", cx.winner_ok,
                   100.0 * cx.winner_ok / scored);
            printf("exact margin:  %ld (%.2f%%)  target >= 90%%\n", cx.exact_ok,
                   100.0 * cx.exact_ok / scored);
            printf("games ended with a border left open (unsettled, counted as score counts "
                   "them): %ld, of which winner %ld, exact %ld\n", cx.unsettled,
                   cx.unsettled_winner, cx.unsettled_exact);
            printf("area counting of the same dead stones: exact %ld (%ld where territory "
                   "counting misses)\n", cx.area_ok, cx.area_fix);
            printf("variants fixing a miss: dead not prisoners %ld, captures not counted %ld, "
                   "1 point toward the last mover %ld\n", cx.v_fix[0], cx.v_fix[1], cx.v_fix[2]);
            printf("|difference| in points: 0:%ld 1:%ld 2:%ld 3:%ld 4:%ld 5-9:%ld 10-19:%ld 20+:%ld\n",
                   cx.diffhist[0], cx.diffhist[1], cx.diffhist[2], cx.diffhist[3], cx.diffhist[4],
                   cx.diffhist[5], cx.diffhist[6], cx.diffhist[7]);
            printf("disagreements by cause:\n");
            for (int c = 0; c < C_NCAUSE; c++)
                printf("  %5ld  %s\n", cx.cause[c], cause_names[c]);
        }
    } else if (!strcmp(cx.mode, "time")) {
        if (cx.nms) {
            qsort(cx.ms, (size_t)cx.nms, sizeof *cx.ms, cmp_double);
            printf("positions %ld: proposal + count mean %.3f ms, median %.3f ms, max %.3f ms "
                   "(target < 10 ms)\n",
                   cx.nms, cx.total_ms / cx.nms, cx.ms[cx.nms / 2], cx.max_ms);
        }
    } else if (!strcmp(cx.mode, "dump")) {
        printf("wrote %ld games to %s\n", cx.counted < cx.n ? cx.counted : cx.n, cx.out);
    }
    free(cx.ms);
    return 0;
}
