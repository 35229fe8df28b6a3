/* cmd_detect.c: `kifucam detect IMAGE`: read the position from one photo or frame
 * (INTERFACE.md) and print it. The reading itself is photo.c's (shared with count and
 * score PHOTO); a point photo_unsure calls unsure is '?', never shown as empty; a grid in
 * doubt (photo_grid_doubted) is read as found and said on stderr (json: "grid_doubt"), and
 * so is a picture that cuts the board (photo_say_cut; json: "outside", "cut").
 * Exit 0 read, 1 no board found, 2 bad usage or unreadable image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/photo.h"
#include "vision/vis.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: kifucam detect IMAGE [--size N] [--corners \"x1,y1;x2,y2;x3,y3;x4,y4\"]\n"
            "                      [--calib FILE] [--format text|json|sgf] [--debug DIR]\n"
            "                      [--model FILE] [--finder FILE|off]\n"
            "  Read the position (empty, black, white per point) from one photo or frame.\n"
            "  --corners: the four corner intersections, top-left, top-right, bottom-right,\n"
            "             bottom-left of the output (skips board finding)\n"
            "  --calib:   a profile from `kifucam calibrate`: its grid, lens and learned\n"
            "             thresholds (skips board finding; --corners wins over its grid)\n"
            "  --debug:   each stage's picture in DIR, and the reading's confidence per point\n"
            "  --model:   a point reader of one's own (ONNX, from train/train_points.py)\n"
            "             instead of the built-in one\n"
            "  --finder:  a stone finder of one's own (ONNX, from train/stone_centres.py)\n"
            "             instead of the built-in one, or off: the point reader alone (a\n"
            "             dark board lit from one side, whose stones' shadows it may take\n"
            "             for stones)\n"
            "  A point read without confidence is '?'. A grid board finding is in doubt about\n"
            "  (a part of a bigger board, or lines off) is read as found and said on stderr\n"
            "  with its corners (json: \"grid_doubt\": true): check it, give --corners\n"
            "  A picture that cuts the board is said on stderr: the edges it cuts it at and\n"
            "  how many points lie outside it, '?' (json: \"outside\": N, \"cut\": [edges])\n"
            "  exit 0 read, 1 no board found, 2 bad usage or unreadable image\n");
}

int cmd_detect(int argc, char **argv)
{
    const char *format = "text";
    photo_opts_t po;
    memset(&po, 0, sizeof po);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        int taken = photo_option("detect", argc, argv, &i, &po);
        if (taken < 0)
            return 2;
        if (taken)
            continue;
        if (!strcmp(a, "--format") && i + 1 < argc) {
            format = argv[++i];
            if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "sgf")) {
                cli_error("detect", "--format must be text, json or sgf, not '%s'", format);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            cli_error("detect", "unknown option or missing value: '%s' (see --help)", a);
            return 2;
        } else if (!po.image) {
            po.image = a;
        } else {
            cli_error("detect", "one image only ('%s' is extra)", a);
            return 2;
        }
    }
    if (!po.image) {
        usage(stderr);
        return 2;
    }
    photo_t ph;
    int rc = photo_read("detect", &po, &ph);
    if (rc) {
        photo_free(&ph);
        return rc;
    }
    const vis_geom_t geom = ph.geom;
    const vis_snapshot_t *sn = &ph.snap;
    const vis_timing_t tm = ph.tm;
    int S = geom.size;
    /* the board text: a point covered, or read without confidence, is '?' (never shown
     * as empty: INTERFACE.md) */
    char txt[VIS_MAX_POINTS] = { 0 };
    for (int k = 0; k < S * S; k++)
        txt[k] = photo_unsure(&ph, k) ? '?' : ".XO"[sn->color[k] % 3];
    if (!strcmp(format, "text")) {
        for (int y = 0; y < S; y++) {
            for (int x = 0; x < S; x++)
                putchar(txt[y * S + x]);
            putchar('\n');
        }
    } else if (!strcmp(format, "sgf")) {
        printf("(;GM[1]FF[4]SZ[%d]", S);
        for (int c = GO_BLACK; c <= GO_WHITE; c++) {
            int first = 1;
            for (int k = 0; k < S * S; k++)
                if (sn->color[k] == c && txt[k] != '?') {
                    if (first)
                        printf(c == GO_BLACK ? "AB" : "AW");
                    first = 0;
                    printf("[%c%c]", 'a' + k % S, 'a' + k / S);
                }
        }
        printf(")\n");
    } else {
        printf("{\"size\":%d,\"corners\":[", S);
        for (int k = 0; k < 4; k++)
            printf("%s[%.2f,%.2f]", k ? "," : "", geom.corners[k][0], geom.corners[k][1]);
        printf("],\"board\":[");
        for (int y = 0; y < S; y++) {
            printf("%s\"", y ? "," : "");
            for (int x = 0; x < S; x++)
                putchar(txt[y * S + x]);
            putchar('"');
        }
        printf("],\"confidence\":[");
        for (int y = 0; y < S; y++) {
            printf("%s[", y ? "," : "");
            for (int x = 0; x < S; x++)
                printf("%s%.3f", x ? "," : "", sn->conf[y * S + x]);
            putchar(']');
        }
        printf("],\"occluded\":[");
        int first = 1;
        for (int k = 0; k < S * S; k++)
            if (sn->occluded[k]) {
                printf("%s\"%c%c\"", first ? "" : ",", 'a' + k % S, 'a' + k / S);
                first = 0;
            }
        unsigned sides = 0;
        const char *edges[4];
        printf("],\"outside\":%d,\"cut\":[", photo_outside(&ph, NULL, &sides));
        for (int i = 0, n = photo_side_names(sides, edges); i < n; i++)
            printf("%s\"%s\"", i ? "," : "", edges[i]);
        printf("],\"grid_doubt\":%s", photo_grid_doubted(&ph) ? "true" : "false");
        printf(",\"ms\":{\"total\":%.3f", tm.total_ms);
        for (int s = 0; s < VIS_NSTAGES; s++)
            printf(",\"%s\":%.3f", vis_stage_name(s), tm.ms[s]);
        printf("}}\n");
    }
    if (photo_grid_doubted(&ph))
        photo_say_grid_doubt("detect", &po, &ph, "read as found");
    photo_say_cut("detect", &po, &ph);
    photo_free(&ph);
    return 0;
}
