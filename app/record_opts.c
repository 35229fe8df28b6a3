/* record_opts.c: `kifucam record`'s options (record_opts.h). */
#include "app/record_opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "capture/cap_source.h"
#include "rules/go_board.h"
#include "rules/go_rules.h"
#include "station/station.h"

static const char usage_text[] =
    "usage: kifucam record --input SOURCE [OPTIONS]\n"
    "Record a game from a camera (/dev/videoN), a video file or a folder of frames.\n\n"
    "  --input SOURCE     /dev/videoN, a video file, or a folder of images (name order)\n"
    "  --fps N            frame rate of a folder of images (default: the fps line of\n"
    "                     its truth.txt, as kifucam render writes it; else 30, said)\n"
    "  --sgf FILE         the record, rewritten safely after every move\n"
    "                     (default game-DATE-TIME.sgf)\n"
    "  --size N           board size (default: detected, or the calibration's)\n"
    "  --rules NAME       chinese, japanese, korean, ing, aga, nz, tromp-taylor,\n"
    "                     ancient-area, ancient-territory (default chinese)\n"
    "  --komi K           default: the rules' standard komi (in a handicap game: chinese\n"
    "                     0, japanese and korean 0.5)\n"
    "  --handicap N       0 or 2..9 stones on the star points (without it: black stones\n"
    "                     found before move 1 on a standard placement are taken as the\n"
    "                     handicap, said in one line; other stones there are named;\n"
    "                     --handicap 0: none taken)\n"
    "  --black NAME, --white NAME   the players\n"
    "  --calib FILE       calibration profile (grid corners, seats)\n"
    "  --serve ADDR:PORT  web overlay and players' console (prints the console URL)\n"
    "  --linger S         a file or folder with --serve: at the footage's end the pages\n"
    "                     stay up, on the result, this many seconds (default: until\n"
    "                     Ctrl-C; 0: exit at once)\n"
    "  --serve-host NAMES the names (comma-separated) the pages may be reached by besides\n"
    "                     ADDR (e.g. studio.local); another Host is refused (421)\n"
    "  --format text|json events on stdout (json: one object per line)\n"
    "  --realtime         pace a file or folder at its frame rate\n"
    "  --analyse-fps N    a file or folder: look at every k-th frame, k = fps / N rounded\n"
    "                     down, pass over the others undecoded (default 10: 30 fps\n"
    "                     footage every 3rd frame, 15 fps every frame; 0: every frame;\n"
    "                     a camera always hands on its newest frame)\n"
    "  --decode-min WxH   JPEG frames (a folder, an MJPEG camera): decode at 1/2, 1/4 or\n"
    "                     1/8 size while at least WxH (default 960x540; 0x0: full size)\n"
    "  --resume FILE      continue the game recorded in FILE (its settings win). A file\n"
    "                     or folder picks up where the record stops: at the frame after\n"
    "                     the last move's KF[] (--start-frame N to begin elsewhere, e.g. 0\n"
    "                     for footage that continues in another file); a camera goes on\n"
    "                     live, its KF[] numbers after the record's. The board seen first\n"
    "                     must be the record's position, else exit 2 and FILE is left as\n"
    "                     it was. Ctrl-C on a file or folder prints the command that resumes\n"
    "  --start-frame N    a file or folder: begin at frame N of the source (the frames\n"
    "                     before it are not read: a folder jumps there, a video passes\n"
    "                     over them unconverted, neither paced by --realtime); frame\n"
    "                     numbers and times are the source's\n"
    ;
/* (two strings: C11 compilers need only take 4095 characters in one) */
static const char usage_text2[] =
    "  --time SPEC        time control: comma-separated KEY=VALUE items\n"
    "                       main=DUR       main time per side (alone: absolute time)\n"
    "                       byoyomi=NxDUR  Japanese byo-yomi: N periods of DUR\n"
    "                       chinese=N      Chinese byo-yomi: N one-minute periods\n"
    "                                      (chinese=NxDUR: other period lengths)\n"
    "                       canadian=N/DUR N moves in DUR, again and again\n"
    "                       fischer=DUR    DUR added after each move\n"
    "                     DUR: 90m, 1h30m, 45s, 1m30s, 500ms (a bare number: seconds).\n"
    "                     e.g. main=60m,byoyomi=5x60s  main=115m,chinese=5\n"
    "                     main=30m,canadian=25/10m  main=10m,fischer=10s  main=90m.\n"
    "                     The station runs the clock from the camera (the mover's clock\n"
    "                     stops when the hand leaves the board); calls go to stdout and\n"
    "                     the overlay; a fallen flag ends the game (RE[B+T] / RE[W+T]);\n"
    "                     the record gets TM, OT and BL/WL (OB/OW) on every move\n"
    "  --speak zh|en|ja|ko  speak the clock's calls with espeak-ng (when installed) in\n"
    "                     that voice; zh speaks the Chinese arbiter's words, the others\n"
    "                     the English call\n"
    "  --stable SECONDS   how long the board must stay still before a view is read\n"
    "                     (default 0.3: shorter is faster, longer rejects hovering hands)\n"
    "  --warn-grace SECONDS  a stone moved or taken off is to be restored at once; the\n"
    "                     warning waits this long (default 2.5; 0: at once): put back\n"
    "                     before it and before the opponent moves, it is an accident\n"
    "  --help             this text\n"
    "Relay to a tournament hub (kifucam hub):\n";

void rec_opts_usage(FILE *out)
{
    fputs(usage_text, out);
    fputs(usage_text2, out);
    fputs(rec_relay_usage, out);
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_komi(const char *s, int *komi2)
{
    char *end;
    errno = 0;
    double k = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(k) || fabs(k) > 1000)
        return -1;
    double h = k * 2;
    if (fabs(h - round(h)) > 1e-9)
        return -1;
    *komi2 = (int)round(h);
    return 0;
}

/* s is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF) and
 * holds no control character: 1, else 0. A player's name goes to the SGF, the JSON state
 * and the pages, which cannot carry other bytes (jansson drops the whole string). */
static int name_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, need, min;
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                return 0;
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            need = 1, min = 0x80, c &= 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            need = 2, min = 0x800, c &= 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            need = 3, min = 0x10000, c &= 0x07;
        else
            return 0;
        for (unsigned k = 1; k <= need; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return 0;
            c = c << 6 | (p[k] & 0x3f);
        }
        if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
            return 0;
        p += need + 1;
    }
    return 1;
}

/* Parse argv; returns 0, 1 for --help, -1 after printing a one-line error. */
int rec_opts_parse(int argc, char **argv, rec_opts_t *o)
{
    memset(o, 0, sizeof o[0]);
    o->fps = 30;
    o->stable_s = 0.3;
    o->warn_grace_s = 2.5;
    o->analyse_fps = 10;
    o->min_w = 960;
    o->min_h = 540;
    o->rules = "chinese";
    o->start_frame = -1;
    o->linger_s = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (!strcmp(a, "--realtime")) {
            o->realtime = 1;
            continue;
        }
        int rr = rec_relay_parse(&o->relay, argc, argv, &i);   /* --relay* (record_relay.c) */
        if (rr < 0)
            return -1;
        if (rr > 0)
            continue;
        static const char *const withval[] = { "--input", "--fps", "--sgf", "--size", "--rules",
                                               "--komi", "--handicap", "--black", "--white",
                                               "--calib", "--serve", "--format", "--resume",
                                               "--time", "--stable", "--analyse-fps",
                                               "--decode-min", "--speak", "--start-frame",
                                               "--warn-grace", "--serve-host", "--linger", NULL };
        const char *val = NULL;
        char name[32] = "";
        for (int k = 0; withval[k]; k++) {
            size_t n = strlen(withval[k]);
            if (!strcmp(a, withval[k])) {
                if (i + 1 >= argc) {
                    cli_error("record", "%s needs a value", a);
                    return -1;
                }
                val = argv[++i];
            } else if (!strncmp(a, withval[k], n) && a[n] == '=') {
                val = a + n + 1;
            } else {
                continue;
            }
            snprintf(name, sizeof name, "%s", withval[k]);
            break;
        }
        if (!val) {
            cli_error("record", "unknown option '%s' (kifucam record --help lists them)", a);
            return -1;
        }
        if (!strcmp(name, "--input")) {
            o->input = val;
        } else if (!strcmp(name, "--fps")) {
            char *end;
            o->fps = strtod(val, &end);
            if (end == val || *end || !(o->fps > 0 && o->fps <= 1000)) {
                cli_error("record", "--fps: '%s' is not a frame rate (0 < N <= 1000)", val);
                return -1;
            }
            o->fps_set = 1;
        } else if (!strcmp(name, "--stable")) {
            char *end;
            o->stable_s = strtod(val, &end);
            if (end == val || *end || !(o->stable_s >= 0 && o->stable_s <= 10)) {
                cli_error("record", "--stable: '%s' is not a time in seconds (0..10)", val);
                return -1;
            }
        } else if (!strcmp(name, "--warn-grace")) {
            char *end;
            o->warn_grace_s = strtod(val, &end);
            if (end == val || *end || !(o->warn_grace_s >= 0 && o->warn_grace_s <= 600)) {
                cli_error("record", "--warn-grace: '%s' is not a time in seconds (0..600)", val);
                return -1;
            }
        } else if (!strcmp(name, "--linger")) {
            char *end;
            o->linger_s = strtod(val, &end);
            if (end == val || *end || !(o->linger_s >= 0 && o->linger_s <= 1e6)) {
                cli_error("record", "--linger: '%s' is not a time in seconds (0..1000000)", val);
                return -1;
            }
        } else if (!strcmp(name, "--analyse-fps")) {
            char *end;
            o->analyse_fps = strtod(val, &end);
            if (end == val || *end || !(o->analyse_fps >= 0 && o->analyse_fps <= 1000)) {
                cli_error("record", "--analyse-fps: '%s' is not a frame rate (0..1000)", val);
                return -1;
            }
        } else if (!strcmp(name, "--decode-min")) {
            if (!strcmp(val, "0x0") || !strcmp(val, "0")) {
                o->min_w = o->min_h = 0;
            } else if (cap_parse_size(val, &o->min_w, &o->min_h) != CAP_OK) {
                cli_error("record", "--decode-min: '%s' is not WxH (or 0x0)", val);
                return -1;
            }
        } else if (!strcmp(name, "--sgf")) {
            o->sgf = val;
        } else if (!strcmp(name, "--size")) {
            if (parse_int(val, GO_MIN_SIZE, GO_MAX_SIZE, &o->size)) {
                cli_error("record", "--size: '%s' is not a board size (2..25)", val);
                return -1;
            }
        } else if (!strcmp(name, "--rules")) {
            go_rules_t r;
            if (go_rules_preset(val, &r) != GO_OK) {
                cli_error("record", "--rules: unknown rules '%s'", val);
                return -1;
            }
            o->rules = val;
        } else if (!strcmp(name, "--komi")) {
            if (parse_komi(val, &o->komi2)) {
                cli_error("record", "--komi: '%s' is not a komi (a multiple of 0.5)", val);
                return -1;
            }
            o->komi_set = 1;
        } else if (!strcmp(name, "--handicap")) {
            if (parse_int(val, 0, 9, &o->handicap) || o->handicap == 1) {
                cli_error("record", "--handicap: '%s' is not 0 or 2..9", val);
                return -1;
            }
            o->handicap_set = 1;
        } else if (!strcmp(name, "--black") || !strcmp(name, "--white")) {
            if (!name_ok(val) || strlen(val) >= STN_NAME_MAX) {
                cli_error("record", "%s: the name is not valid UTF-8 text of at most %d bytes "
                          "(no control characters)", name, STN_NAME_MAX - 1);
                return -1;
            }
            if (!strcmp(name, "--black"))
                o->black = val;
            else
                o->white = val;
        } else if (!strcmp(name, "--calib")) {
            o->calib = val;
        } else if (!strcmp(name, "--serve")) {
            o->serve = val;
        } else if (!strcmp(name, "--serve-host")) {
            o->serve_host = val;
        } else if (!strcmp(name, "--format")) {
            if (strcmp(val, "text") && strcmp(val, "json")) {
                cli_error("record", "--format: '%s' is not text or json", val);
                return -1;
            }
            o->json = !strcmp(val, "json");
        } else if (!strcmp(name, "--resume")) {
            o->resume = val;
        } else if (!strcmp(name, "--start-frame")) {
            char *end;
            errno = 0;
            o->start_frame = strtoll(val, &end, 10);
            if (end == val || *end || errno || o->start_frame < 0) {
                cli_error("record", "--start-frame: '%s' is not a frame number (0 or more)", val);
                return -1;
            }
        } else if (!strcmp(name, "--time")) {
            o->time = val;
        } else if (!strcmp(name, "--speak")) {
            if (strcmp(val, "zh") && strcmp(val, "en") && strcmp(val, "ja") && strcmp(val, "ko")) {
                cli_error("record", "--speak: '%s' is not zh, en, ja or ko", val);
                return -1;
            }
            o->speak = val;
        }
    }
    if (!o->input) {
        cli_error("record", "--input SOURCE is required (kifucam record --help)");
        return -1;
    }
    return 0;
}
