/* vis_config.c: the config's defaults (vis_config_defaults: each stage's params struct
 * filled by its own _defaults, next to the code that reads it) and its settings for a
 * photo and for a video (vis_config_for_photo, vis_config_for_video).
 * Invariants: a config's defaults are the documented ones of vis.h, and the photo and
 * video settings change only what their comments in vis.h name.
 */
#include "vision/vis.h"

#include <string.h>

#include "vision/vis_internal.h"

void vis_config_defaults(vis_config_t *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->work_max = 720;
    cfg->blackhat_k = 0;
    cfg->line_pct = 0.90;
    cfg->max_lines = 160;
    cfg->family_deg = 28;
    vis_lines_defaults(&cfg->lines);
    vis_refit_defaults(&cfg->refit);
    vis_seg_defaults(&cfg->seg);
    vis_lattice_defaults(&cfg->lattice);
    cfg->refine = 1;
    cfg->track_min_fit = 0.5;
    cfg->covered_min = 0.5;
    cfg->read_symmetries = 1;
    cfg->window_outside = 0.05;
    cfg->grid_accept = 0.9;
    cfg->grid_min_belief = 0.5;
    cfg->grid_candidates = 6;
    cfg->grid_shift = 3;
    cfg->grid_shift_gain = 0.02;
    cfg->occ_min_piece = 3;
    cfg->occ_margin = 1;
    cfg->track_shift = 0.045;
    cfg->track_shift_max = 0.42;
    vis_offpoint_defaults(&cfg->offpoint);
    vis_reach_defaults(&cfg->reach);
    vis_unlike_defaults(&cfg->unlike);
    vis_stones_defaults(&cfg->stones);
    vis_stars_defaults(&cfg->stars);
}

void vis_config_for_photo(vis_config_t *cfg)
{
    if (!cfg)
        return;
    cfg->read_symmetries = 8;
    cfg->self_fit = 1;
    cfg->window_outside_retry = 0.35;
    cfg->told_min = 0.5;
    cfg->line_pct_retry = 0.75;
    cfg->light_lines = 1;
    cfg->outside_hides = 1;
    cfg->offpoint.on = 1;
    cfg->reach.on = 1;
    cfg->unlike.on = 1;
    cfg->stones.on = 1;
    cfg->stars.on = 1;
    cfg->grow_stones = 1;
    cfg->stones.symmetries = 8;
    cfg->occ_margin = 0;
}

void vis_config_for_video(vis_config_t *cfg)
{
    if (!cfg)
        return;
    cfg->read_symmetries = 2;
    cfg->read_in_turn = 1;
    cfg->off_inner_colours = 1;
}
