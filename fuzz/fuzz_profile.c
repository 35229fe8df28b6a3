/* fuzz_profile.c: libFuzzer target for the calibration profile reader.
 *
 * For each input: cal_profile_parse. A rejected input must leave *out untouched and give
 * a one-line, non-empty reason; an accepted profile must pass cal_profile_validate, and
 * save -> load must give the same profile back (written to a per-process file under
 * /tmp). Any violation traps, so the fuzzer reports it like a crash. Crashing inputs
 * become regression tests in tests/reliability/.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "calib/cal_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-6 * (fabs(a) + fabs(b) + 1.0);
}

static int profiles_equal(const cal_profile_t *a, const cal_profile_t *b)
{
    if (a->version != b->version || a->image_w != b->image_w || a->image_h != b->image_h ||
        a->size != b->size || a->rotate != b->rotate || a->black_side != b->black_side ||
        a->has_lens != b->has_lens || a->has_colors != b->has_colors)
        return 0;
    for (int i = 0; i < 4; i++)
        if (!same(a->corners[i][0], b->corners[i][0]) || !same(a->corners[i][1], b->corners[i][1]))
            return 0;
    if (a->has_lens && (!same(a->fx, b->fx) || !same(a->fy, b->fy) || !same(a->cx, b->cx) ||
                        !same(a->cy, b->cy)))
        return 0;
    for (int c = 0; a->has_colors && c < 3; c++) {
        if (a->model_n[c] != b->model_n[c])
            return 0;
        for (int k = 0; a->model_n[c] && k < 3; k++)
            if (!same(a->model_mean[c][k], b->model_mean[c][k]))
                return 0;
        for (int k = 0; a->model_n[c] && k < 6; k++)
            if (!same(a->model_cov[c][k], b->model_cov[c][k]))
                return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cal_profile_t p, q;
    memset(&p, 0xA5, sizeof p);
    cal_profile_t before = p;
    char err[256];
    err[0] = 0;
    int rc = cal_profile_parse((const char *)data, size, &p, err, sizeof err);
    if (rc) {
        if (rc > 0 || memcmp(&p, &before, sizeof p) != 0 || err[0] == 0 || strchr(err, '\n'))
            __builtin_trap();
        return 0;
    }
    if (cal_profile_validate(&p, err, sizeof err) != 0)
        __builtin_trap();
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_profile.%d.json", (int)getpid());
    if (cal_profile_save(path, &p, err, sizeof err) != 0)
        __builtin_trap();
    if (cal_profile_load(path, &q, err, sizeof err) != 0 || !profiles_equal(&p, &q))
        __builtin_trap();
    unlink(path);
    return 0;
}
