/* bench_render.c: frames per second of the footage renderer (render/), on one core, by
 * the process's CPU time (the machine may be shared).
 *
 *   bench_render [--size WxH] [--frames N] [--seed N]
 *
 * Prints: scene set-up time; the board itself (static position of 150 stones, camera
 * shake, exposure drift and noise each frame); a game played with stones changing and
 * hands on (the timeline of a 120-move random game); hand frames alone; and, apart, the
 * cost of JPEG encoding a frame (what writing a folder of frames adds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/rnd_game.h"
#include "render/rnd_render.h"
#include "render/rnd_timeline.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int w = 1280, h = 720, frames = 600;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%dx%d", &w, &h) == 2)
            i++;
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_render [--size WxH] [--frames N] [--seed N]\n");
            return 2;
        }
    }
    if (frames < 10)
        frames = 10;
    rnd_scene_opts_t so;
    rnd_scene_opts_defaults(&so);
    so.width = w;
    so.height = h;
    so.seed = seed;
    rnd_renderer_t *r;
    double t0 = cpu_now();
    if (rnd_renderer_create(&so, &r)) {
        fprintf(stderr, "bench_render: cannot create the renderer\n");
        return 1;
    }
    double t_setup = cpu_now() - t0;
    const rnd_geometry_t *geo = rnd_renderer_geometry(r);
    cvb_image_t img;
    if (cvb_image_alloc(&img, w, h, 3)) {
        rnd_renderer_destroy(r);
        return 1;
    }
    printf("render %dx%d, seed %llu, view %s, elevation %.0f deg\n", w, h, seed, rnd_view_name(so.view),
           geo->elevation_deg);
    printf("scene set-up (ray-cast board, table, light): %.3f s CPU\n", t_setup);

    /* a random game: 120 moves */
    rnd_game_t g;
    rnd_game_init(&g, 19);
    rnd_rng_t rng;
    rnd_rng_seed(&rng, seed);
    for (int n = 0, tries = 0; n < 120 && tries < 10000; tries++)
        if (rnd_game_add(&g, RND_MOVE_PLAY, (uint8_t)(1 + n % 2), rnd_rng_int(&rng, 19), rnd_rng_int(&rng, 19)) == RND_OK)
            n++;

    /* 1. the board itself: a fixed position of stones */
    rnd_stone_t st[400];
    int ns = 0;
    uint8_t pos[361];
    rnd_game_position(&g, g.nmoves, pos);
    for (int p = 0; p < 361 && ns < 150; p++)
        if (pos[p]) {
            double x, y;
            int col = p % 19, row = p / 19;
            rnd_renderer_point_world(r, col, row, &x, &y);
            st[ns++] = (rnd_stone_t){ (float)x, (float)y, (float)geo->top, pos[p], (float)p };
        }
    t0 = cpu_now();
    rnd_renderer_set_stones(r, st, ns);
    double t_stones = cpu_now() - t0;
    rnd_frame_fx_t fx;
    memset(&fx, 0, sizeof fx);
    t0 = cpu_now();
    for (int f = 0; f < frames; f++) {
        fx.shake_x = (f / 7) % 3 - 1;
        fx.shake_y = (f / 11) % 3 - 1;
        fx.gain = 1 + 0.03 * ((f % 50) / 50.0);
        fx.wb[0] = fx.wb[1] = fx.wb[2] = 1;
        fx.noise_phase = (uint64_t)f * 7919u;
        rnd_renderer_frame(r, &fx, NULL, 0, &img, NULL);
    }
    double t_board = cpu_now() - t0;
    printf("stones drawn (%d, first time): %.3f s CPU\n", ns, t_stones);
    printf("board itself: %.0f frames/s (%d frames, %.2f ms each)\n", frames / t_board, frames,
           1000 * t_board / frames);

    /* 2. hand frames alone */
    rnd_hand_t hand = { 1, 1, { 30, 20, (float)geo->top + 10 }, { 210, (float)(-geo->half_h - 330), (float)geo->top + 380 }, 1 };
    int hf = frames / 4;
    t0 = cpu_now();
    for (int f = 0; f < hf; f++) {
        hand.tip[0] = (float)(-150 + 300.0 * f / hf);
        rnd_renderer_frame(r, &fx, &hand, 1, &img, NULL);
    }
    double t_hand = cpu_now() - t0;
    printf("hand frames: %.0f frames/s (%.2f ms each)\n", hf / t_hand, 1000 * t_hand / hf);

    /* 3. a game with hands: the timeline's frames (stones change, hands come and go) */
    rnd_timeline_opts_t to;
    rnd_timeline_opts_defaults(&to);
    to.seed = seed;
    rnd_timeline_t tl;
    if (rnd_timeline_build(&tl, &g, geo, &to) == RND_OK) {
        rnd_tl_state_t s;
        rnd_timeline_state_init(&s, &g);
        int n = tl.nframes < frames * 4 ? tl.nframes : frames * 4, nh = 0;
        t0 = cpu_now();
        for (int f = 0; f < n; f++) {
            rnd_timeline_state_step(&s, &tl, f);
            if (s.changed) {
                int k = rnd_timeline_stones(&s, geo, st);
                rnd_renderer_set_stones(r, st, k);
            }
            nh += tl.hand[f].active;
            rnd_renderer_frame(r, &fx, &tl.hand[f], tl.hand[f].active, &img, NULL);
        }
        double t_game = cpu_now() - t0;
        printf("game with hands: %.0f frames/s (%d frames, %d%% with a hand, %d moves)\n", n / t_game, n,
               100 * nh / (n ? n : 1), s.moves);
        rnd_timeline_fini(&tl);
    }

    /* 4. writing: JPEG encoding of one frame */
    int nj = 30;
    t0 = cpu_now();
    for (int f = 0; f < nj; f++) {
        uint8_t *buf;
        size_t len;
        if (cvb_imencode_jpeg(&img, 88, &buf, &len) == CVB_OK)
            free(buf);
    }
    double t_jpeg = cpu_now() - t0;
    printf("JPEG encoding (quality 88), apart: %.2f ms per frame\n", 1000 * t_jpeg / nj);
    rnd_game_fini(&g);
    cvb_image_free(&img);
    rnd_renderer_destroy(r);
    return 0;
}
