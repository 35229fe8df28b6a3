/* test_clock.c: the game clock on a simulated time base — spec parsing, each system's
 * arithmetic, the Chinese arbiter's calls at the right seconds, loss on time, pause,
 * adjust, SGF values. Times are in ms; nothing waits. */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "clock/clk.h"

#define SEC(x) ((int64_t)(x) * 1000)
#define MIN(x) ((int64_t)(x) * 60000)

static clk_t *mk(const char *spec)
{
    clk_spec_t sp;
    char err[128];
    assert_int_equal(clk_spec_parse(spec, &sp, err, sizeof err), CLK_OK);
    clk_t *c = clk_create(&sp);
    assert_non_null(c);
    return c;
}

static clk_view_t view(clk_t *c, go_color_t s, int64_t now)
{
    clk_view_t v;
    assert_int_equal(clk_view(c, s, now, &v), CLK_OK);
    return v;
}

/* ---- specs ---- */

static void test_spec_parse(void **state)
{
    (void)state;
    clk_spec_t sp;
    char err[128], buf[128];
    assert_int_equal(clk_spec_parse("main=60m,byoyomi=5x60s", &sp, err, sizeof err), CLK_OK);
    assert_int_equal(sp.system, CLK_BYOYOMI);
    assert_true(sp.main_ms == MIN(60) && sp.periods == 5 && sp.period_ms == SEC(60));
    assert_int_equal(clk_spec_parse("main=115m,chinese=5", &sp, err, sizeof err), CLK_OK);
    assert_int_equal(sp.system, CLK_CHINESE);
    assert_true(sp.main_ms == MIN(115) && sp.periods == 5 && sp.period_ms == SEC(60));
    assert_int_equal(clk_spec_parse("main=30m,canadian=25/10m", &sp, err, sizeof err), CLK_OK);
    assert_int_equal(sp.system, CLK_CANADIAN);
    assert_true(sp.main_ms == MIN(30) && sp.periods == 25 && sp.period_ms == MIN(10));
    assert_int_equal(clk_spec_parse("main=10m,fischer=10s", &sp, err, sizeof err), CLK_OK);
    assert_int_equal(sp.system, CLK_FISCHER);
    assert_true(sp.increment_ms == SEC(10));
    assert_int_equal(clk_spec_parse("main=1h30m", &sp, err, sizeof err), CLK_OK);
    assert_int_equal(sp.system, CLK_ABSOLUTE);
    assert_true(sp.main_ms == MIN(90));
    assert_int_equal(clk_spec_parse("main=1m30s500ms,chinese=3x30s", &sp, err, sizeof err), CLK_OK);
    assert_true(sp.main_ms == 90500 && sp.period_ms == SEC(30));
    assert_int_equal(clk_spec_parse("byoyomi=3x30", &sp, err, sizeof err), CLK_OK);
    assert_true(sp.main_ms == 0 && sp.period_ms == SEC(30));

    /* canonical form, and back */
    static const char *const canon[] = { "main=1h,byoyomi=5x1m", "main=115m,chinese=5",
                                         "main=30m,canadian=25/10m", "main=10m,fischer=10s",
                                         "main=90m", "main=90500ms,chinese=3x30s" };
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        clk_spec_t a, b;
        assert_int_equal(clk_spec_parse(canon[i], &a, err, sizeof err), CLK_OK);
        assert_int_equal(clk_spec_format(&a, buf, sizeof buf), CLK_OK);
        assert_string_equal(buf, canon[i]);
        assert_int_equal(clk_spec_parse(buf, &b, err, sizeof err), CLK_OK);
        assert_int_equal(a.system, b.system);
        assert_true(a.main_ms == b.main_ms && a.periods == b.periods &&
                    a.period_ms == b.period_ms && a.increment_ms == b.increment_ms);
    }
    assert_int_equal(clk_spec_format(&sp, buf, 4), CLK_EINVAL);

    static const char *const bad[] = {
        "", "main", "main=", "main=10x", "main=-5m", "byoyomi=5", "byoyomi=0x60s",
        "byoyomi=5x0s", "canadian=25", "canadian=0/10m", "canadian=25/", "fischer=0s",
        "main=10m,byoyomi=5x60s,fischer=10s", "foo=1", "main=60m,main=30m", "main=0",
        "main=10m,", ",main=10m", "main=99999999999h", "chinese=x", "main=10q",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        sp.main_ms = 12345;
        assert_int_equal(clk_spec_parse(bad[i], &sp, err, sizeof err), CLK_EPARSE);
        assert_true(strlen(err) > 0);
        assert_true(sp.main_ms == 12345); /* untouched */
    }
    assert_int_equal(clk_spec_parse(NULL, &sp, NULL, 0), CLK_EINVAL);
    assert_null(clk_create(NULL));
    clk_spec_t broken = { CLK_BYOYOMI, 0, 0, 0, 0 };
    assert_null(clk_create(&broken));
    assert_non_null(clk_strerror(CLK_EPARSE));
    assert_string_equal(clk_strerror(-99), "unknown error");
}

/* ---- arithmetic per system ---- */

static void test_absolute(void **state)
{
    (void)state;
    clk_t *c = mk("main=10m");
    assert_int_equal(clk_move(c, GO_BLACK, 0), CLK_ESTATE); /* not started */
    assert_int_equal(clk_start(c, GO_BLACK, SEC(100)), CLK_OK);
    assert_int_equal(clk_start(c, GO_BLACK, SEC(100)), CLK_ESTATE);
    assert_int_equal(clk_running(c), GO_BLACK);
    assert_true(view(c, GO_BLACK, SEC(130)).main_ms == SEC(570));
    assert_true(view(c, GO_WHITE, SEC(130)).main_ms == SEC(600));
    assert_int_equal(clk_move(c, GO_WHITE, SEC(130)), CLK_ETURN);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(130)), CLK_OK);
    assert_int_equal(clk_running(c), GO_WHITE);
    assert_true(view(c, GO_BLACK, SEC(200)).main_ms == SEC(570));
    assert_false(view(c, GO_BLACK, SEC(200)).running);
    assert_true(view(c, GO_WHITE, SEC(200)).running);
    assert_true(view(c, GO_WHITE, SEC(200)).main_ms == SEC(530));
    /* a move time before the turn began counts as the start */
    assert_int_equal(clk_move(c, GO_WHITE, SEC(120)), CLK_OK);
    assert_null(clk_sgf_result(c));
    assert_true(view(c, GO_WHITE, SEC(500)).main_ms == SEC(600));
    /* Black's flag falls at 130 + 570 = 700 s */
    assert_int_equal(clk_update(c, SEC(699)), CLK_OK);
    assert_int_equal(clk_loser(c, NULL), GO_EMPTY);
    assert_int_equal(clk_update(c, SEC(750)), CLK_EOVER);
    int64_t t = 0;
    assert_int_equal(clk_loser(c, &t), GO_BLACK);
    assert_true(t == SEC(700));
    assert_string_equal(clk_sgf_result(c), "W+T");
    clk_event_t ev;
    assert_true(clk_next_event(c, &ev));
    assert_int_equal(ev.kind, CLK_EV_LOSS);
    assert_true(ev.t_ms == SEC(700));
    assert_int_equal(ev.side, GO_BLACK);
    assert_false(clk_next_event(c, &ev));
    assert_int_equal(clk_move(c, GO_BLACK, SEC(760)), CLK_EOVER);
    assert_true(view(c, GO_BLACK, SEC(760)).lost);
    assert_int_equal(clk_running(c), GO_EMPTY);
    clk_destroy(c);
    clk_destroy(NULL);
}

static void test_fischer(void **state)
{
    (void)state;
    clk_t *c = mk("main=10s,fischer=5s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(3)), CLK_OK);
    assert_true(view(c, GO_BLACK, SEC(3)).main_ms == SEC(12));
    double left;
    int ob;
    assert_int_equal(clk_sgf_move(c, GO_BLACK, &left, &ob), CLK_OK);
    assert_true(left == 12.0 && ob == -1);
    /* White uses all 10 s: the flag falls as the move is made, the move does not count */
    assert_int_equal(clk_move(c, GO_WHITE, SEC(13)), CLK_EOVER);
    int64_t t = 0;
    assert_int_equal(clk_loser(c, &t), GO_WHITE);
    assert_true(t == SEC(13));
    assert_string_equal(clk_sgf_result(c), "B+T");
    clk_destroy(c);
    c = mk("main=10s,fischer=5s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(3)), CLK_OK);
    assert_int_equal(clk_move(c, GO_WHITE, SEC(12)), CLK_OK);
    assert_true(view(c, GO_WHITE, SEC(12)).main_ms == SEC(6));
    assert_int_equal(clk_update(c, SEC(12) + SEC(12) - 1), CLK_OK);
    assert_int_equal(clk_update(c, SEC(24)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_BLACK);
    clk_destroy(c);
}

static void test_byoyomi_arithmetic(void **state)
{
    (void)state;
    clk_t *c = mk("main=60s,byoyomi=3x30s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    clk_view_t v = view(c, GO_BLACK, SEC(105)); /* main spent, one period used, 15 s in */
    assert_true(v.in_overtime && v.main_ms == 0 && v.periods == 2 && v.period_ms == SEC(15));
    assert_int_equal(clk_move(c, GO_BLACK, SEC(105)), CLK_OK);
    v = view(c, GO_BLACK, SEC(105));
    assert_true(v.periods == 2 && v.period_ms == SEC(30)); /* the period starts afresh */
    double left;
    int ob;
    assert_int_equal(clk_sgf_move(c, GO_BLACK, &left, &ob), CLK_OK);
    assert_true(left == 30.0 && ob == 2);
    assert_int_equal(clk_move(c, GO_WHITE, SEC(110)), CLK_OK);
    assert_int_equal(clk_sgf_move(c, GO_WHITE, &left, &ob), CLK_OK);
    assert_true(left == 55.0 && ob == -1);
    /* within the period: costs nothing, again and again */
    for (int i = 0; i < 10; i++) {
        assert_int_equal(clk_move(c, GO_BLACK, SEC(110 + 58 * i + 29)), CLK_OK);
        assert_int_equal(clk_move(c, GO_WHITE, SEC(110 + 58 * i + 58)), CLK_OK);
    }
    v = view(c, GO_BLACK, SEC(690));
    assert_true(v.periods == 2 && v.period_ms == SEC(30));
    /* Black now has 2 x 30 s: the flag falls at exactly 60 s */
    assert_int_equal(clk_update(c, SEC(690 + 59)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(690 + 60)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_BLACK);
    clk_destroy(c);
}

static void test_chinese_arithmetic(void **state)
{
    (void)state;
    clk_t *c = mk("main=1m,chinese=3");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    /* 60 s main + 45 s: within the first minute, nothing is taken */
    assert_int_equal(clk_move(c, GO_BLACK, SEC(105)), CLK_OK);
    clk_view_t v = view(c, GO_BLACK, SEC(105));
    assert_true(v.periods == 3 && v.period_ms == SEC(60) && v.in_overtime);
    assert_int_equal(clk_move(c, GO_WHITE, SEC(110)), CLK_OK);
    /* 2 min 10 s: two full minutes used, two periods taken */
    assert_int_equal(clk_move(c, GO_BLACK, SEC(110 + 130)), CLK_OK);
    v = view(c, GO_BLACK, SEC(240));
    assert_true(v.periods == 1 && v.period_ms == SEC(60));
    double left;
    int ob;
    assert_int_equal(clk_sgf_move(c, GO_BLACK, &left, &ob), CLK_OK);
    assert_true(left == 60.0 && ob == 1);
    clk_destroy(c);
}

static void test_canadian(void **state)
{
    (void)state;
    clk_t *c = mk("main=1m,canadian=3/2m");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    int64_t t = 0;
    /* Black's main time runs out during move 1: it is the first of the 3 */
    t += SEC(70);
    assert_int_equal(clk_move(c, GO_BLACK, t), CLK_OK);
    clk_view_t v = view(c, GO_BLACK, t);
    assert_true(v.in_overtime && v.moves_left == 2 && v.period_ms == SEC(110));
    double left;
    int ob;
    assert_int_equal(clk_sgf_move(c, GO_BLACK, &left, &ob), CLK_OK);
    assert_true(left == 110.0 && ob == 2);
    t += SEC(1);
    assert_int_equal(clk_move(c, GO_WHITE, t), CLK_OK);
    t += SEC(50);
    assert_int_equal(clk_move(c, GO_BLACK, t), CLK_OK);
    v = view(c, GO_BLACK, t);
    assert_true(v.moves_left == 1 && v.period_ms == SEC(60));
    t += SEC(1);
    assert_int_equal(clk_move(c, GO_WHITE, t), CLK_OK);
    t += SEC(59);
    assert_int_equal(clk_move(c, GO_BLACK, t), CLK_OK); /* third move: a new period */
    v = view(c, GO_BLACK, t);
    assert_true(v.moves_left == 3 && v.period_ms == SEC(120));
    t += SEC(1);
    assert_int_equal(clk_move(c, GO_WHITE, t), CLK_OK);
    /* Black does not make 3 moves in 2 minutes */
    assert_int_equal(clk_move(c, GO_BLACK, t + SEC(100)), CLK_OK);
    assert_int_equal(clk_move(c, GO_WHITE, t + SEC(101)), CLK_OK);
    assert_int_equal(clk_update(c, t + SEC(101) + SEC(20) - 1), CLK_OK);
    assert_int_equal(clk_update(c, t + SEC(101) + SEC(20)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_BLACK);
    clk_event_t ev;
    int overtime = 0, loss = 0;
    while (clk_next_event(c, &ev)) {
        overtime += ev.kind == CLK_EV_OVERTIME;
        loss += ev.kind == CLK_EV_LOSS;
    }
    assert_int_equal(overtime, 1); /* Black's main time ran out, White's never did */
    assert_int_equal(loss, 1);
    clk_destroy(c);
}

/* ---- the arbiter's calls ---- */

typedef struct {
    int t_s;
    clk_event_kind_t kind;
    int value;
    const char *zh;
} want_t;

static void expect_events(clk_t *c, const want_t *w, int n)
{
    clk_event_t ev;
    for (int i = 0; i < n; i++) {
        assert_true(clk_next_event(c, &ev));
        if (ev.t_ms != SEC(w[i].t_s) || ev.kind != w[i].kind || ev.value != w[i].value)
            print_message("event %d: got t=%lld kind=%d value=%d (%s)\n", i,
                          (long long)ev.t_ms, ev.kind, ev.value, ev.en);
        assert_true(ev.t_ms == SEC(w[i].t_s));
        assert_int_equal(ev.kind, w[i].kind);
        assert_int_equal(ev.value, w[i].value);
        if (w[i].zh)
            assert_string_equal(ev.zh, w[i].zh);
    }
    assert_false(clk_next_event(c, &ev));
}

static const want_t chinese_calls[] = {
    { 60, CLK_EV_OVERTIME, 3, "读秒开始，3次" },
    { 90, CLK_EV_SECONDS, 30, "30秒" }, { 100, CLK_EV_SECONDS, 40, "40秒" },
    { 110, CLK_EV_SECONDS, 50, "50秒" }, { 115, CLK_EV_SECONDS, 55, "55秒" },
    { 118, CLK_EV_SECONDS, 58, "58秒" }, { 120, CLK_EV_SECONDS, 60, "1分钟" },
    { 120, CLK_EV_PERIOD_USED, 2, "还剩2分钟" },
    { 150, CLK_EV_SECONDS, 30, NULL }, { 160, CLK_EV_SECONDS, 40, NULL },
    { 170, CLK_EV_SECONDS, 50, NULL }, { 175, CLK_EV_SECONDS, 55, NULL },
    { 178, CLK_EV_SECONDS, 58, NULL }, { 180, CLK_EV_SECONDS, 60, NULL },
    { 180, CLK_EV_PERIOD_USED, 1, "还剩1分钟" },
    { 210, CLK_EV_SECONDS, 30, "30秒" }, { 220, CLK_EV_SECONDS, 40, "40秒" },
    { 230, CLK_EV_SECONDS, 50, "50秒" },
    { 231, CLK_EV_COUNT, 1, "一" }, { 232, CLK_EV_COUNT, 2, "二" },
    { 233, CLK_EV_COUNT, 3, "三" }, { 234, CLK_EV_COUNT, 4, "四" },
    { 235, CLK_EV_COUNT, 5, "五" }, { 236, CLK_EV_COUNT, 6, "六" },
    { 237, CLK_EV_COUNT, 7, "七" }, { 238, CLK_EV_COUNT, 8, "八" },
    { 239, CLK_EV_COUNT, 9, "九" },
    { 240, CLK_EV_LOSS, 10, "十，超时判负" },
};

static void test_chinese_calls(void **state)
{
    (void)state;
    int n = (int)(sizeof chinese_calls / sizeof chinese_calls[0]);
    /* one update far ahead gives the same calls as an update every 250 ms */
    for (int step = 0; step < 3; step++) {
        clk_t *c = mk("main=1m,chinese=3");
        assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
        if (step == 0) {
            assert_int_equal(clk_update(c, SEC(1000)), CLK_EOVER);
        } else {
            int64_t dt = step == 1 ? 250 : 7001;
            int rc = CLK_OK;
            for (int64_t t = 0; t <= SEC(300) && rc == CLK_OK; t += dt)
                rc = clk_update(c, t);
            assert_int_equal(rc, CLK_EOVER);
        }
        expect_events(c, chinese_calls, n);
        int64_t t = 0;
        assert_int_equal(clk_loser(c, &t), GO_BLACK);
        assert_true(t == SEC(240));
        assert_int_equal(clk_dropped(c), 0);
        clk_destroy(c);
    }
}

static void test_chinese_calls_after_move(void **state)
{
    (void)state;
    /* a move within the minute: the next turn's calls start from a fresh minute */
    clk_t *c = mk("main=0s,chinese=2");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_update(c, SEC(45)), CLK_OK);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(45)), CLK_OK);
    /* the move was seen late: calls after the hand left the board are void */
    assert_int_equal(clk_move(c, GO_WHITE, SEC(50)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(51)), CLK_OK);
    static const want_t w[] = {
        { 30, CLK_EV_SECONDS, 30, "30秒" }, { 40, CLK_EV_SECONDS, 40, "40秒" },
    };
    expect_events(c, w, 2);
    assert_int_equal(clk_update(c, SEC(50 + 60)), CLK_OK);
    static const want_t w2[] = {
        { 80, CLK_EV_SECONDS, 30, NULL }, { 90, CLK_EV_SECONDS, 40, NULL },
        { 100, CLK_EV_SECONDS, 50, NULL }, { 105, CLK_EV_SECONDS, 55, NULL },
        { 108, CLK_EV_SECONDS, 58, NULL }, { 110, CLK_EV_SECONDS, 60, "1分钟" },
        { 110, CLK_EV_PERIOD_USED, 1, "还剩1分钟" },
    };
    expect_events(c, w2, 7);
    /* the move at 112 s: 1 period left, the minute starts afresh */
    assert_int_equal(clk_move(c, GO_BLACK, SEC(112)), CLK_OK);
    clk_view_t v = view(c, GO_BLACK, SEC(112));
    assert_true(v.periods == 1 && v.period_ms == SEC(60));
    clk_destroy(c);
}

static void test_japanese_calls(void **state)
{
    (void)state;
    clk_t *c = mk("byoyomi=2x30s");
    assert_int_equal(clk_start(c, GO_WHITE, SEC(1)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(100)), CLK_EOVER);
    static const want_t w[] = {
        { 11, CLK_EV_SECONDS, 10, "10秒" }, { 21, CLK_EV_SECONDS, 20, "20秒" },
        { 22, CLK_EV_COUNT, 1, NULL }, { 23, CLK_EV_COUNT, 2, NULL },
        { 24, CLK_EV_COUNT, 3, NULL }, { 25, CLK_EV_COUNT, 4, NULL },
        { 26, CLK_EV_COUNT, 5, NULL }, { 27, CLK_EV_COUNT, 6, NULL },
        { 28, CLK_EV_COUNT, 7, NULL }, { 29, CLK_EV_COUNT, 8, NULL },
        { 30, CLK_EV_COUNT, 9, NULL }, { 31, CLK_EV_PERIOD_USED, 1, "最后一次读秒" },
        { 41, CLK_EV_SECONDS, 10, NULL }, { 51, CLK_EV_SECONDS, 20, NULL },
        { 52, CLK_EV_COUNT, 1, NULL }, { 53, CLK_EV_COUNT, 2, NULL },
        { 54, CLK_EV_COUNT, 3, NULL }, { 55, CLK_EV_COUNT, 4, NULL },
        { 56, CLK_EV_COUNT, 5, NULL }, { 57, CLK_EV_COUNT, 6, NULL },
        { 58, CLK_EV_COUNT, 7, NULL }, { 59, CLK_EV_COUNT, 8, NULL },
        { 60, CLK_EV_COUNT, 9, NULL }, { 61, CLK_EV_LOSS, 10, NULL },
    };
    expect_events(c, w, (int)(sizeof w / sizeof w[0]));
    assert_int_equal(clk_loser(c, NULL), GO_WHITE);
    clk_destroy(c);
}

/* ---- pause, adjust, loss ---- */

static void test_pause_resume(void **state)
{
    (void)state;
    clk_t *c = mk("main=1m,chinese=1");
    assert_int_equal(clk_pause(c, 0), CLK_ESTATE); /* not started */
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_resume(c, SEC(1)), CLK_ESTATE); /* not paused */
    assert_int_equal(clk_pause(c, SEC(70)), CLK_OK);
    assert_true(clk_paused(c));
    assert_int_equal(clk_pause(c, SEC(71)), CLK_ESTATE);
    clk_view_t v = view(c, GO_BLACK, SEC(500));
    assert_true(v.in_overtime && v.period_ms == SEC(50) && !v.running);
    assert_int_equal(clk_update(c, SEC(500)), CLK_OK); /* nothing runs while paused */
    clk_event_t ev;
    assert_true(clk_next_event(c, &ev));
    assert_int_equal(ev.kind, CLK_EV_OVERTIME);
    assert_false(clk_next_event(c, &ev));
    /* resumed at 1000 s: the 10 s used of the last minute are kept */
    assert_int_equal(clk_resume(c, SEC(1000)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(1100)), CLK_EOVER);
    static const want_t w[] = {
        { 1020, CLK_EV_SECONDS, 30, NULL }, { 1030, CLK_EV_SECONDS, 40, NULL },
        { 1040, CLK_EV_SECONDS, 50, NULL }, { 1041, CLK_EV_COUNT, 1, NULL },
        { 1042, CLK_EV_COUNT, 2, NULL }, { 1043, CLK_EV_COUNT, 3, NULL },
        { 1044, CLK_EV_COUNT, 4, NULL }, { 1045, CLK_EV_COUNT, 5, NULL },
        { 1046, CLK_EV_COUNT, 6, NULL }, { 1047, CLK_EV_COUNT, 7, NULL },
        { 1048, CLK_EV_COUNT, 8, NULL }, { 1049, CLK_EV_COUNT, 9, NULL },
        { 1050, CLK_EV_LOSS, 10, NULL },
    };
    expect_events(c, w, (int)(sizeof w / sizeof w[0]));
    assert_int_equal(clk_resume(c, SEC(1200)), CLK_EOVER);
    clk_destroy(c);

    /* a move during a pause: the opponent's clock starts at the resumption */
    c = mk("main=10m");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_pause(c, SEC(10)), CLK_OK);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(20)), CLK_OK);
    assert_int_equal(clk_resume(c, SEC(100)), CLK_OK);
    assert_true(view(c, GO_BLACK, SEC(200)).main_ms == SEC(590));
    assert_true(view(c, GO_WHITE, SEC(200)).main_ms == SEC(500));
    clk_destroy(c);
}

static void test_adjust_and_set(void **state)
{
    (void)state;
    clk_t *c = mk("main=5m,byoyomi=3x30s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_adjust(c, GO_BLACK, SEC(60), SEC(100)), CLK_OK);
    assert_true(view(c, GO_BLACK, SEC(100)).main_ms == SEC(260));
    assert_true(view(c, GO_BLACK, SEC(160)).main_ms == SEC(200));
    assert_int_equal(clk_adjust(c, GO_WHITE, -SEC(30), SEC(100)), CLK_OK);
    assert_true(view(c, GO_WHITE, SEC(160)).main_ms == SEC(270));
    /* in overtime, the adjustment goes to the current period */
    assert_int_equal(clk_update(c, SEC(370)), CLK_OK);
    clk_view_t v = view(c, GO_BLACK, SEC(370));
    assert_true(v.in_overtime && v.periods == 3 && v.period_ms == SEC(20));
    assert_int_equal(clk_adjust(c, GO_BLACK, SEC(5), SEC(370)), CLK_OK);
    v = view(c, GO_BLACK, SEC(370));
    assert_true(v.periods == 3 && v.period_ms == SEC(25));
    /* set: two periods, a full one */
    assert_int_equal(clk_set(c, GO_BLACK, 0, 2, 0, SEC(371)), CLK_OK);
    v = view(c, GO_BLACK, SEC(371));
    assert_true(v.periods == 2 && v.period_ms == SEC(30));
    assert_int_equal(clk_set(c, GO_BLACK, -1, 2, 0, SEC(371)), CLK_EINVAL);
    /* no periods left but some main time: the flag falls when the main time ends */
    assert_int_equal(clk_move(c, GO_BLACK, SEC(372)), CLK_OK);
    assert_int_equal(clk_set(c, GO_BLACK, SEC(10), 0, 0, SEC(373)), CLK_OK);
    assert_int_equal(clk_move(c, GO_WHITE, SEC(374)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(383)), CLK_OK);
    assert_int_equal(clk_update(c, SEC(384)), CLK_EOVER);
    int64_t t = 0;
    assert_int_equal(clk_loser(c, &t), GO_BLACK);
    assert_true(t == SEC(384));
    clk_destroy(c);
    c = mk("main=5m,byoyomi=3x30s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    /* adjusting the waiting side to nothing: loss at once */
    assert_int_equal(clk_set(c, GO_WHITE, 0, 0, 0, SEC(380)), CLK_OK);
    assert_int_equal(clk_loser(c, NULL), GO_WHITE);
    assert_int_equal(clk_update(c, SEC(381)), CLK_EOVER);
    assert_int_equal(clk_adjust(c, GO_WHITE, SEC(60), SEC(390)), CLK_EOVER);
    clk_destroy(c);
}

static void test_late_move_before_flag(void **state)
{
    (void)state;
    /* the station saw the flag fall, then the move arrives, timed (hand off the board)
     * before the flag: the move counts and the loss is withdrawn */
    clk_t *c = mk("main=10s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_update(c, SEC(11)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_BLACK);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(9)), CLK_OK);
    assert_int_equal(clk_loser(c, NULL), GO_EMPTY);
    assert_int_equal(clk_running(c), GO_WHITE);
    clk_event_t ev;
    assert_false(clk_next_event(c, &ev)); /* the loss call was withdrawn */
    assert_true(view(c, GO_BLACK, SEC(20)).main_ms == SEC(1));
    assert_true(view(c, GO_WHITE, SEC(12)).main_ms == SEC(7));
    /* too late: after the flag */
    assert_int_equal(clk_update(c, SEC(25)), CLK_EOVER);
    assert_int_equal(clk_move(c, GO_WHITE, SEC(19)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_WHITE);
    clk_destroy(c);
}

static void test_stop_and_passes(void **state)
{
    (void)state;
    clk_t *c = mk("main=1m");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_pass(c, GO_BLACK, SEC(5)), CLK_OK);
    assert_int_equal(clk_pass(c, GO_WHITE, SEC(7)), CLK_OK);
    assert_int_equal(clk_stop(c, SEC(8)), CLK_OK);
    assert_int_equal(clk_running(c), GO_EMPTY);
    assert_int_equal(clk_move(c, GO_BLACK, SEC(9)), CLK_EOVER);
    assert_int_equal(clk_update(c, SEC(1000)), CLK_EOVER);
    assert_int_equal(clk_loser(c, NULL), GO_EMPTY);
    assert_true(view(c, GO_BLACK, SEC(1000)).main_ms == SEC(54));
    assert_true(view(c, GO_WHITE, SEC(1000)).main_ms == SEC(58));
    clk_destroy(c);
}

static void test_queue_overflow(void **state)
{
    (void)state;
    clk_t *c = mk("byoyomi=40x10s");
    assert_int_equal(clk_start(c, GO_BLACK, 0), CLK_OK);
    assert_int_equal(clk_update(c, SEC(1000)), CLK_EOVER);
    /* 40 periods of 10 s: 9 counts + a notice each = 400 calls; the queue keeps 256 */
    assert_int_equal(clk_dropped(c), 400 - 256);
    int n = 0;
    clk_event_t ev, last;
    memset(&last, 0, sizeof last);
    while (clk_next_event(c, &ev)) {
        last = ev;
        n++;
    }
    assert_int_equal(n, 256);
    assert_int_equal(last.kind, CLK_EV_LOSS);
    assert_true(last.t_ms == SEC(400));
    clk_destroy(c);
}

static void test_sgf_header(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *tm, *ot;
    } cases[] = {
        { "main=60m,byoyomi=5x60s", "3600", "5x60 byo-yomi" },
        { "main=115m,chinese=5", "6900", "5x60 byo-yomi (Chinese)" },
        { "main=30m,canadian=25/10m", "1800", "25/600 Canadian" },
        { "main=10m,fischer=10s", "600", "Fischer 10" },
        { "main=90m", "5400", "" },
        { "main=90500ms", "90.500", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clk_t *c = mk(cases[i].spec);
        char tm[32], ot[64];
        assert_int_equal(clk_sgf_header(c, tm, sizeof tm, ot, sizeof ot), CLK_OK);
        assert_string_equal(tm, cases[i].tm);
        assert_string_equal(ot, cases[i].ot);
        clk_destroy(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_parse),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_fischer),
        cmocka_unit_test(test_byoyomi_arithmetic),
        cmocka_unit_test(test_chinese_arithmetic),
        cmocka_unit_test(test_canadian),
        cmocka_unit_test(test_chinese_calls),
        cmocka_unit_test(test_chinese_calls_after_move),
        cmocka_unit_test(test_japanese_calls),
        cmocka_unit_test(test_pause_resume),
        cmocka_unit_test(test_adjust_and_set),
        cmocka_unit_test(test_late_move_before_flag),
        cmocka_unit_test(test_stop_and_passes),
        cmocka_unit_test(test_queue_overflow),
        cmocka_unit_test(test_sgf_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
