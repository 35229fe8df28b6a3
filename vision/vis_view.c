/* vis_view.c: the board seen from straight above (the point reader's input).
 *
 * The board plane is warped into a square image where every point owns a cell_px x
 * cell_px block: point (x, y) is the centre of block (x + margin, y + margin), so board
 * coordinate b maps to view pixel (b + margin + 0.5) * cell_px - 0.5 (pixel centres at
 * integers). The view is (size + 2 margin) * cell_px pixels a side; what lies outside the
 * photo is black. Perspective is undone; a stone's height is not (its body leans towards
 * the far side of the board in the view, which the reader learns).
 * Invariant: when the photo shows a cell much larger than cell_px, the board's region is
 * first shrunk by an integer factor with area averaging, so the warp never aliases the
 * grid lines away.
 */
#include "vision/vis.h"

#include <math.h>
#include <string.h>

#include "vision/vis_homog.h"
#include "vision/vis_internal.h"

void vis_view_to_board(int cell_px, int margin, double u, double v, double *bx, double *by)
{
    *bx = (u + 0.5) / cell_px - margin - 0.5;
    *by = (v + 0.5) / cell_px - margin - 0.5;
}

/* out = src warped by M (view pixel -> src pixel) into side x side, through vm's maps
 * (NULL: a plain warp). The maps are made when the same M and size of src come a second
 * time in a row (a still camera), and used while they keep coming: a frame under a new
 * geometry pays for a plain warp, not for maps it may never use again. */
static int warp_kept(const cvb_image_t *src, const double M[9], int side, cvb_image_t *out,
                     vis_view_maps_t *vm)
{
    if (!vm)
        return cvb_warp_perspective_into(src, M, side, side, out) ? VIS_ECV : VIS_OK;
    int same = vm->iw == src->w && vm->ih == src->h && vm->side == side;
    for (int k = 0; same && k < 9; k++)
        same = vm->M[k] == M[k]; /* the same geometry, bit for bit */
    if (!same) {
        cvb_warp_map_free(vm->map);
        vm->map = NULL;
        memcpy(vm->M, M, sizeof vm->M);
        vm->iw = src->w;
        vm->ih = src->h;
        vm->side = side;
        return cvb_warp_perspective_into(src, M, side, side, out) ? VIS_ECV : VIS_OK;
    }
    if (!vm->map) {
        int rc = cvb_warp_map_make(M, src->w, src->h, side, side, &vm->map);
        if (rc)
            return rc == CVB_ENOMEM ? VIS_ENOMEM : VIS_ECV;
        vm->made++;
    }
    return cvb_warp_map_apply(src, vm->map, out) ? VIS_ECV : VIS_OK;
}

void vis_view_maps_free(vis_view_maps_t *vm)
{
    if (!vm)
        return;
    cvb_warp_map_free(vm->map);
    memset(vm, 0, sizeof *vm);
}

int vis_board_view(const cvb_image_t *img, const vis_geom_t *geom, int cell_px, int margin,
                   cvb_image_t *out)
{
    return vis_board_view_kept(img, geom, cell_px, margin, out, NULL);
}

int vis_board_view_kept(const cvb_image_t *img, const vis_geom_t *geom, int cell_px, int margin,
                        cvb_image_t *out, vis_view_maps_t *vm)
{
    if (!img || !img->data || img->channels != 3 || !geom || !out || geom->size < 2 ||
        geom->size > VIS_MAX_LATTICE || cell_px < 2 || cell_px > 64 || margin < 0 || margin > 4)
        return VIS_EINVAL;
    int S = geom->size, side = (S + 2 * margin) * cell_px;
    /* view pixel -> board: x = (u + 0.5) / P - m - 0.5 */
    double off = 0.5 / cell_px - margin - 0.5;
    const double A[9] = { 1.0 / cell_px, 0, off, 0, 1.0 / cell_px, off, 0, 0, 1 };
    double M[9];
    vis_homog_mul(geom->H, A, M); /* view pixel -> image pixel */
    /* the view's outline in the photo, and the photo's cell size there */
    double ext = S - 1 + margin + 0.5, lo = -margin - 0.5;
    const double bc[4][2] = { { lo, lo }, { ext, lo }, { ext, ext }, { lo, ext } };
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (int k = 0; k < 4; k++) {
        double px, py;
        if (vis_homog_apply(geom->H, bc[k][0], bc[k][1], &px, &py))
            return VIS_EINVAL;
        x0 = fmin(x0, px);
        y0 = fmin(y0, py);
        x1 = fmax(x1, px);
        y1 = fmax(y1, py);
    }
    double spacing = vis_geom_spacing(geom);
    int shrink = (int)floor(spacing / (1.5 * cell_px));
    int ix0 = (int)floor(fmax(0, x0)), iy0 = (int)floor(fmax(0, y0));
    int ix1 = (int)ceil(fmin(img->w, x1 + 1)), iy1 = (int)ceil(fmin(img->h, y1 + 1));
    if (shrink < 2 || ix1 - ix0 < 2 * shrink || iy1 - iy0 < 2 * shrink)
        return warp_kept(img, M, side, out, vm);
    /* shrink the board's region first: region pixel q covers photo pixels
     * [x0 + k q, x0 + k (q + 1)), its centre at x0 + k q + (k - 1) / 2 */
    cvb_image_t roi = *img, small = { 0 };
    roi.data = img->data + (size_t)iy0 * img->stride + (size_t)ix0 * 3;
    roi.w = (ix1 - ix0) / shrink * shrink; /* whole blocks: the scale is exactly shrink */
    roi.h = (iy1 - iy0) / shrink * shrink;
    if (cvb_resize(&roi, roi.w / shrink, roi.h / shrink, &small))
        return VIS_ECV;
    double k = shrink;
    const double Binv[9] = { 1.0 / k, 0, -(ix0 + (k - 1) / 2) / k,
                             0, 1.0 / k, -(iy0 + (k - 1) / 2) / k, 0, 0, 1 };
    double Ms[9];
    vis_homog_mul(Binv, M, Ms);
    int rc = warp_kept(&small, Ms, side, out, vm);
    cvb_image_free(&small);
    return rc;
}
