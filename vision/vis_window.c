/* vis_window.c: which window of a found lattice's lines is the board (board finding's
 * stage 5, after vis_detect.c's grid_verify has chosen a grid): the lattice read wider
 * than the grid, each window of the board's size in it judged by the learned reader's
 * belief (vis_window_belief) and by the board's printed star points (vis_stars.c), and
 *   - vis_grid_shift: the grid moved by whole lines, up to cfg->grid_shift each way (a
 *     window one to three lines off is the commonest near miss on a crowded or cut
 *     board);
 *   - vis_grid_grow: the grid grown to the next board size, 9 -> 13 -> 19, on the star
 *     points (a board the picture cuts, whose lines in view number a smaller board's) or
 *     on the stones read surely beyond the grid (a crowded board whose outer lines
 *     stones hide).
 * Invariants: a window is taken only when it beats the grid's own by the configured
 * margin (cfg->grid_shift_gain, cfg->stars.margin), a window the stars chose is left only
 * for another they choose, and a window taken is refined and read again before it
 * replaces the grid (its homography, reading and belief together).
 */
#include "vision/vis.h"

#include <stdlib.h>
#include <string.h>

#include "rules/go_stars.h"
#include "vision/vis_homog.h"
#include "vision/vis_internal.h"


/* The lattice of grid Hf w lines wider on every side, E lines in all, into *g; -1 when it
 * makes no geometry. */
static int wider_geom(const cvb_image_t *img, const double Hf[9], int w, int E, vis_geom_t *g)
{
    double He[9];
    vis_homog_shift(Hf, -w, -w, He);
    return vis_geom_from_h(He, E, img->w, img->h, g) ? -1 : 0;
}

/* Lattice g read into *r (malloc'd; NULL when there is none: the returned code says why,
 * VIS_OK when it reads nothing). */
static int read_lattice(const cvb_image_t *img, const vis_config_t *cfg, const vis_geom_t *g,
                        vis_reading_t **r)
{
    *r = malloc(sizeof **r);
    if (!*r)
        return VIS_ENOMEM;
    int rc = vis_read(img, g, cfg, *r);
    if (rc) {
        free(*r);
        *r = NULL;
        return rc == VIS_EMODEL || rc == VIS_ENOMEM ? rc : VIS_OK;
    }
    return VIS_OK;
}

/* The star responses of lattice g (vis_stars.c) into resp; how many reach p->min_response
 * (0 with the stars off). */
static int star_candidates(const cvb_image_t *fullgray, const vis_geom_t *g,
                           const vis_stars_params_t *p, float *resp)
{
    if (!p->on || vis_star_responses(fullgray, g, p->min_contrast, resp))
        return 0;
    int n = 0;
    for (int k = 0; k < g->size * g->size; k++)
        n += resp[k] >= p->min_response;
    return n;
}

/* found[k] = 1 where point k of lattice g (resp its star responses, r its reading) shows
 * a star point: read empty and its response reaching p->min_response. Returns how many. */
static int stars_found(const vis_geom_t *g, const float *resp, const vis_reading_t *r,
                       const vis_stars_params_t *p, uint8_t *found)
{
    int N = g->size * g->size, n = 0;
    for (int k = 0; k < N; k++) {
        found[k] = resp[k] >= p->min_response && r->prob[k][VIS_CLASS_EMPTY] >= 0.5f;
        n += found[k];
    }
    VTRACE("stars: %d found on a %d-line lattice\n", n, g->size);
    return n;
}

/* Board finding's picture of the star points (stage 5, "stars"): on the photo, each star
 * found on lattice g circled, green at a star point of the window taken (S lines from
 * (ox, oy)), red elsewhere; the window's star points dotted blue. */
static void emit_stars(const vis_config_t *cfg, const cvb_image_t *img, const vis_geom_t *g,
                       const uint8_t *found, int S, int ox, int oy)
{
    if (!cfg->debug)
        return;
    cvb_image_t d = { 0 };
    if (cvb_resize(img, img->w, img->h, &d) || d.channels != 3) {
        cvb_image_free(&d);
        return;
    }
    int E = g->size;
    for (int k = 0; k < E * E; k++) {
        int x = k % E - ox, y = k / E - oy, star = go_is_star(S, x, y);
        double rad = 0.5 * g->radius[k];
        if (found[k])
            cvb_draw_circle(&d, g->px[k], g->py[k], rad, 0, star ? 200 : 0, star ? 0 : 230, 2);
        if (star)
            cvb_draw_circle(&d, g->px[k], g->py[k], 2, 255, 80, 0, -1);
    }
    cfg->debug(cfg->debug_ctx, VIS_STAGE_REFINE, "stars", &d);
    cvb_image_free(&d);
}

/* A window's star count: stars at its star points less stars at its others; *sure set when
 * the stars choose it (p->min_hits at its star points, none at its others). */
static int star_score(const vis_stars_params_t *p, const uint8_t *found, int E, int S, int ox,
                      int oy, int *sure)
{
    int h, m;
    vis_star_window(found, E, S, ox, oy, &h, &m);
    *sure = h >= p->min_hits && m == 0;
    return h - m;
}

/* The window of S lines the stars choose among those at (c + dx, c + dy), dx and dy in
 * lo..hi, of reading r's lattice: the best star count of the windows they choose
 * (star_score), a tie to the reader's vis_window_belief. 1 with it in *dx, *dy and its
 * count in *score; 0 when they choose none. */
static int star_choice(const vis_stars_params_t *p, const uint8_t *found, const vis_reading_t *r,
                       int S, int c, int lo, int hi, int *dx, int *dy, int *score)
{
    int ok = 0;
    double bel = -1;
    for (int y = lo; y <= hi; y++)
        for (int x = lo; x <= hi; x++) {
            int sure = 0, sc = star_score(p, found, r->size, S, c + x, c + y, &sure);
            if (!sure || (ok && sc < *score))
                continue;
            double b = vis_window_belief(r, S, c + x, c + y);
            if (ok && sc == *score && b <= bel)
                continue;
            ok = 1;
            *score = sc;
            bel = b;
            *dx = x;
            *dy = y;
        }
    return ok;
}

/* The grid H moved (dx, dy) lines, as S lines, refined and read into r: taken into Hf,
 * *prob and *belief (and *S) when the reader believes it at least min_belief. */
static int take_window(const cvb_image_t *img, const cvb_image_t *fullgray, const vis_config_t *cfg,
                       int S, int dx, int dy, double min_belief, vis_reading_t *r, double Hf[9],
                       vis_reading_t *prob, double *belief)
{
    double H[9], b = -1;
    vis_homog_shift(Hf, dx, dy, H);
    if (cfg->refine)
        vis_refine_passes(fullgray, S, H, &cfg->refit);
    int rc = vis_read_grid_belief(img, cfg, H, S, r, &b);
    if (rc)
        return rc == VIS_EMODEL || rc == VIS_ENOMEM ? rc : VIS_OK;
    if (b < min_belief)
        return VIS_OK;
    memcpy(Hf, H, sizeof H);
    memcpy(prob, r, sizeof *r);
    *belief = b;
    return 1;
}

/* The grid moved whole lines (board finding's commonest near miss: the lattice right, the
 * window of lines one to three off, the edge row of a crowded board left out): the lattice
 * of the winner read once cfg->grid_shift lines wider on every side, each window of S
 * lines in it judged (vis_window_belief), and the best taken when it beats the winner's
 * own by cfg->grid_shift_gain; the star points found on it (cfg->stars) choose first, and
 * a window they chose is left only for another they choose. Hf, *prob and *belief are
 * replaced then. */
int vis_grid_shift(const cvb_image_t *img, const cvb_image_t *fullgray, const vis_config_t *cfg,
                   int S, double Hf[9], vis_reading_t *prob, double *belief, double *context)
{
    int m = cfg->grid_shift;
    if (m + 1 > (VIS_MAX_LATTICE - S) / 2)
        m = (VIS_MAX_LATTICE - S) / 2 - 1;
    if (m < 1)
        return VIS_OK;
    int E = S + 2 * (m + 1); /* the shifts, and a ring for the furthest */
    vis_geom_t g;
    vis_reading_t *r = NULL;
    if (wider_geom(img, Hf, m + 1, E, &g))
        return VIS_OK;
    int rc = read_lattice(img, cfg, &g, &r);
    if (!r)
        return rc;
    float resp[VIS_MAX_LATTICE_POINTS];
    uint8_t found[VIS_MAX_LATTICE_POINTS] = { 0 };
    int stars = 0;
    if (star_candidates(fullgray, &g, &cfg->stars, resp))
        stars = stars_found(&g, resp, r, &cfg->stars, found);
    int own_sure = 0, own = star_score(&cfg->stars, found, E, S, m + 1, m + 1, &own_sure);
    int sx = 0, sy = 0, sbest = own;
    int ssure = stars && star_choice(&cfg->stars, found, r, S, m + 1, -m, m, &sx, &sy, &sbest);
    double b0 = vis_window_belief(r, S, m + 1, m + 1), best = b0;
    int bx = 0, by = 0;
    for (int dy = -m; dy <= m; dy++)
        for (int dx = -m; dx <= m; dx++) {
            double b = vis_window_belief(r, S, m + 1 + dx, m + 1 + dy);
            int sure = 0;
            if (own_sure)
                star_score(&cfg->stars, found, E, S, m + 1 + dx, m + 1 + dy, &sure);
            if (b > best && (!own_sure || sure)) {
                best = b;
                bx = dx;
                by = dy;
            }
        }
#ifdef VIS_TRACE
    for (int y = 0; y < E; y++) { /* the wider lattice's reading: each point's likeliest class */
        char row[VIS_MAX_LATTICE + 1];
        for (int x = 0; x < E; x++) {
            const float *p = r->prob[y * E + x];
            int b = 0;
            for (int j = 1; j < VIS_NCLASS; j++)
                b = p[j] > p[b] ? j : b;
            row[x] = ".XOco"[b];
        }
        row[E] = 0;
        VTRACE("grid_shift: row %2d %s\n", y, row);
    }
#endif
    VTRACE("grid_shift: S %d own %.3f best %.3f at %+d %+d; stars %d own %d best %d at %+d %+d\n", S,
           b0, best, bx, by, stars, own, ssure ? sbest : own, sx, sy);
    rc = VIS_OK;
    int tx = 0, ty = 0; /* the move taken */
    if (ssure && (sx || sy) && sbest >= own + cfg->stars.margin) {
        tx = sx;
        ty = sy;
    } else if ((bx || by) && best >= b0 + cfg->grid_shift_gain) {
        tx = bx;
        ty = by;
    }
    double ctx = vis_window_belief(r, S, m + 1 + tx, m + 1 + ty); /* before r is reused */
    if (tx || ty)
        rc = take_window(img, fullgray, cfg, S, tx, ty, -1, r, Hf, prob, belief);
    if (rc != 1)
        tx = ty = 0;
    *context = tx || ty ? ctx : b0;
    if (stars)
        emit_stars(cfg, img, &g, found, S, m + 1 + tx, m + 1 + ty);
    free(r);
    return rc < 0 ? rc : VIS_OK;
}

/* The stones read surely (a colour at VIS_SURE_CONF or more) at the points of reading r's
 * lattice inside the picture (outside: vis_geom_outside's marks) that the window of S2
 * lines at (ox, oy) holds and the winner's window of S lines at (c, c) does not. */
static int added_stones(const uint8_t *outside, const vis_reading_t *r, int S, int c, int S2,
                        int ox, int oy)
{
    int n = 0, E = r->size;
    for (int y = oy; y < oy + S2; y++)
        for (int x = ox; x < ox + S2; x++) {
            int k = y * E + x;
            if ((x >= c && x < c + S && y >= c && y < c + S) || outside[k])
                continue;
            n += r->prob[k][VIS_CLASS_BLACK] >= VIS_SURE_CONF ||
                 r->prob[k][VIS_CLASS_WHITE] >= VIS_SURE_CONF;
        }
    return n;
}

/* The grid grown to the next board size, 9 -> 13 or 13 -> 19 (a board whose lines in
 * view number a smaller board's: the picture cuts it, or stones hide its outer lines):
 * the lattice of the winner read wide enough for every window of the next size that holds
 * the winner's window, and
 *   - the window the star points choose (cfg->stars; a tie goes to the reader's
 *     vis_window_belief), taken when it explains cfg->stars.margin stars more than the
 *     winner's;
 *   - else (cfg->grow_stones) the window whose added points, inside the picture, hold the
 *     most stones the reader reads surely (a tie to its belief), taken when they are at
 *     least grow_stones lines' worth (grow_stones times the next size): the lattice goes
 *     on under stones the lines in view stopped at;
 * each only when the reader believes the grown grid at least grid_min_belief. Never on
 * the reader's belief alone: beyond a small board's edge its off class is weak, even for a
 * reader trained on grids moved by whole lines (vision/model/README.md, "f4"; vis.h,
 * grid_shift), where a board has no stones. */
int vis_grid_grow(const cvb_image_t *img, const cvb_image_t *fullgray, const vis_config_t *cfg,
                  int *S, double Hf[9], vis_reading_t *prob, double *belief, double *context)
{
    int S2 = *S == 9 ? 13 : *S == 13 ? 19 : 0, d = S2 - *S, E = S2 + d + 2;
    int by_stones = cfg->grow_stones > 0;
    if ((!cfg->stars.on && !by_stones) || !S2 || E > VIS_MAX_LATTICE)
        return VIS_OK;
    vis_geom_t g;
    float resp[VIS_MAX_LATTICE_POINTS] = { 0 };
    if (wider_geom(img, Hf, d + 1, E, &g))
        return VIS_OK;
    /* the picture alone first: fewer star candidates than min_hits (and no growth by
     * stones) and the read is spared */
    int cands = cfg->stars.on ? star_candidates(fullgray, &g, &cfg->stars, resp) : 0;
    if (cands < cfg->stars.min_hits && !by_stones)
        return VIS_OK;
    vis_reading_t *r = NULL;
    int rc = read_lattice(img, cfg, &g, &r);
    if (!r)
        return rc;
    uint8_t found[VIS_MAX_LATTICE_POINTS];
    int sure = 0, own = 0, best = 0, bx = 0, by = 0, ok = 0;
    if (cfg->stars.on && cands >= cfg->stars.min_hits &&
        stars_found(&g, resp, r, &cfg->stars, found) >= cfg->stars.min_hits) {
        own = star_score(&cfg->stars, found, E, *S, d + 1, d + 1, &sure);
        ok = star_choice(&cfg->stars, found, r, S2, d + 1, -d, 0, &bx, &by, &best);
    }
    VTRACE("grid_grow: S %d stars %d, S %d %s %d at %+d %+d\n", *S, own, S2, ok ? "best" : "none",
           best, bx, by);
    rc = VIS_OK;
    int stars_grow = ok && best >= own + cfg->stars.margin;
    if (!stars_grow && by_stones) {
        int most = -1, sx = 0, sy = 0;
        double bel = -1;
        uint8_t outside[VIS_MAX_LATTICE_POINTS];
        vis_geom_outside(&g, g.img_w, g.img_h, outside, NULL);
        for (int y = -d; y <= 0; y++)
            for (int x = -d; x <= 0; x++) {
                int n = added_stones(outside, r, *S, d + 1, S2, d + 1 + x, d + 1 + y);
                double b = n >= most ? vis_window_belief(r, S2, d + 1 + x, d + 1 + y) : -1;
                if (n > most || (n == most && b > bel)) {
                    most = n;
                    bel = b;
                    sx = x;
                    sy = y;
                }
            }
        VTRACE("grid_grow: S %d by stones: %d added at %+d %+d\n", S2, most, sx, sy);
        if (most >= cfg->grow_stones * S2) {
            /* bel: the window's belief in the wider read (r is reused by take_window) */
            rc = take_window(img, fullgray, cfg, S2, sx, sy, cfg->grid_min_belief, r, Hf, prob,
                             belief);
            if (rc == 1) {
                *S = S2;
                *context = bel;
            }
        }
    }
    if (stars_grow) {
        /* the grown grid's H: the winner's unit lattice, S2 lines from (bx, by) */
        double ctx = vis_window_belief(r, S2, d + 1 + bx, d + 1 + by); /* before r is reused */
        rc = take_window(img, fullgray, cfg, S2, bx, by, cfg->grid_min_belief, r, Hf, prob, belief);
        if (rc == 1) {
            *S = S2;
            *context = ctx;
            emit_stars(cfg, img, &g, found, S2, d + 1 + bx, d + 1 + by);
        }
    }
    free(r);
    return rc < 0 ? rc : VIS_OK;
}
