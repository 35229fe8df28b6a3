/* test_sgf_parse.c: the SGF reader and writer: properties, escapes, soft line breaks,
 * variations, collections, FF[3] identifiers, round trips, charsets, and malformed input
 * with the expected line:column (never a crash, whatever the bytes). */
#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/go_board.h"
#include "rules/sgf.h"
#include "testutil.h"

static sgf_collection_t *parse_ok(const char *text, size_t len)
{
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    int rc = sgf_parse(text, len, NULL, &c, &e);
    if (rc)
        print_message("unexpected error %d at %d:%d: %s\n", rc, e.line, e.col, e.msg);
    assert_int_equal(rc, 0);
    assert_non_null(c);
    return c;
}
#define PARSE(s) parse_ok((s), strlen(s))

static void expect_error(const char *text, size_t len, int code, int line, int col)
{
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    int rc = sgf_parse(text, len, NULL, &c, &e);
    if (rc != code || e.line != line || e.col != col)
        print_message("input %.40s: got %d at %d:%d (%s), want %d at %d:%d\n", text, rc, e.line,
                      e.col, e.msg, code, line, col);
    assert_int_equal(rc, code);
    assert_null(c);
    assert_int_equal(e.code, code);
    assert_int_equal(e.line, line);
    assert_int_equal(e.col, col);
    assert_true(strlen(e.msg) > 0);
}
#define EXPECT_ERR(s, code, l, c) expect_error((s), strlen(s), (code), (l), (c))

static void test_properties(void **state)
{
    (void)state;
    sgf_collection_t *c = PARSE("(;FF[4]GM[1]SZ[19]PB[Lee]C[first][second];B[pd];W[dp])");
    assert_int_equal(c->ngames, 1);
    const sgf_node_t *r = c->games[0];
    assert_int_equal(r->nprops, 5);
    assert_string_equal(r->props[0].key, "FF");
    assert_string_equal(r->props[2].key, "SZ");
    assert_string_equal(r->props[3].values[0], "Lee");
    assert_int_equal(r->props[4].nvalues, 2);
    assert_string_equal(r->props[4].values[1], "second");
    assert_string_equal(sgf_node_value(r, "SZ"), "19");
    assert_null(sgf_node_value(r, "KM"));
    assert_non_null(r->child);
    assert_string_equal(sgf_node_value(r->child, "B"), "pd");
    assert_string_equal(sgf_node_value(r->child->child, "W"), "dp");
    assert_null(r->child->child->child);
    assert_int_equal(r->line, 1);
    assert_int_equal(r->col, 2);
    assert_string_equal(c->charsets[0], "UTF-8");
    sgf_collection_destroy(c);
    sgf_collection_destroy(NULL);
}

static void test_escapes_and_soft_breaks(void **state)
{
    (void)state;
    sgf_collection_t *c = PARSE("(;C[a\\]b\\\\c\\d]GN[one\\\ntwo]PC[x\\\r\ny]EV[hard\nbreak]"
                                "N[\\\n\\\r\n])");
    const sgf_node_t *r = c->games[0];
    assert_string_equal(sgf_node_value(r, "C"), "a]b\\cd");
    assert_string_equal(sgf_node_value(r, "GN"), "onetwo");
    assert_string_equal(sgf_node_value(r, "PC"), "xy");
    assert_string_equal(sgf_node_value(r, "EV"), "hard\nbreak");
    assert_string_equal(sgf_node_value(r, "N"), "");
    assert_int_equal(sgf_node_find(r, "N")->lens[0], 0);
    sgf_collection_destroy(c);
}

static void test_whitespace_and_lowercase_ids(void **state)
{
    (void)state;
    sgf_collection_t *c = PARSE("junk before ( ; AddBlack [aa] [bb]\n\t CoPyright[me] ;\r\n B [cc] )"
                                " trailing");
    const sgf_node_t *r = c->games[0];
    assert_int_equal(r->nprops, 2);
    assert_string_equal(r->props[0].id, "AddBlack");
    assert_string_equal(r->props[0].key, "AB");
    assert_int_equal(r->props[0].nvalues, 2);
    assert_string_equal(r->props[0].values[1], "bb");
    assert_string_equal(r->props[1].key, "CP");
    assert_non_null(sgf_node_find(r, "AB"));
    assert_string_equal(sgf_node_value(r->child, "B"), "cc");
    assert_int_equal(r->child->line, 2);
    assert_int_equal(r->child->col, 17);
    sgf_collection_destroy(c);
}

static void test_variations(void **state)
{
    (void)state;
    sgf_collection_t *c = PARSE("(;GM[1];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff])(;W[gg]))");
    const sgf_node_t *r = c->games[0];
    const sgf_node_t *b = r->child;
    assert_string_equal(sgf_node_value(b, "B"), "aa");
    assert_int_equal(sgf_node_nchildren(b), 3);
    assert_string_equal(sgf_node_value(b->child, "W"), "bb");
    assert_string_equal(sgf_node_value(b->child->sibling, "W"), "ff");
    assert_string_equal(sgf_node_value(b->child->sibling->sibling, "W"), "gg");
    const sgf_node_t *cc = b->child->child;
    assert_int_equal(sgf_node_nchildren(cc), 2);
    assert_string_equal(sgf_node_value(cc->child->sibling, "W"), "ee");
    assert_ptr_equal(cc->child->sibling->parent, cc);
    sgf_collection_destroy(c);
}

static void test_collection(void **state)
{
    (void)state;
    sgf_collection_t *c = PARSE("(;GN[one];B[aa])\n\n(;GN[two];B[bb])(;GN[three])");
    assert_int_equal(c->ngames, 3);
    assert_string_equal(sgf_node_value(c->games[1], "GN"), "two");
    assert_string_equal(sgf_node_value(c->games[2], "GN"), "three");
    sgf_collection_destroy(c);
}

static int count_cb(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    int *n = ctx;
    assert_int_equal(index, *n);
    assert_string_equal(charset, "UTF-8");
    assert_non_null(sgf_node_value(root, "GN"));
    (*n)++;
    return 0;
}

static int stop_cb(void *ctx, const sgf_node_t *root, int index, const char *charset)
{
    (void)ctx, (void)root, (void)charset;
    return index == 1 ? 42 : 0;
}

static void test_parse_each(void **state)
{
    (void)state;
    const char *t = "(;GN[a])(;GN[b];B[aa])(;GN[c])";
    int n = 0;
    assert_int_equal(sgf_parse_each(t, strlen(t), NULL, count_cb, &n, NULL), 0);
    assert_int_equal(n, 3);
    assert_int_equal(sgf_parse_each(t, strlen(t), NULL, stop_cb, NULL, NULL), 42);
    /* an error in game 2 comes after the callbacks of games 0 and 1 */
    n = 0;
    sgf_error_t e;
    const char *bad = "(;GN[a])\n(;GN[b])\n(;GN[c]";
    assert_int_equal(sgf_parse_each(bad, strlen(bad), NULL, count_cb, &n, &e), GO_EPARSE);
    assert_int_equal(n, 2);
    assert_int_equal(e.game, 2);
    assert_int_equal(e.line, 3);
    assert_int_equal(e.col, 1);
}

/* Deep comparison of two trees (keys, values, byte lengths, variations). */
static void assert_same_tree(const sgf_node_t *a, const sgf_node_t *b)
{
    const sgf_node_t *ra = a, *rb = b;
    while (a) {
        assert_non_null(b);
        assert_int_equal(a->nprops, b->nprops);
        for (int i = 0; i < a->nprops; i++) {
            assert_string_equal(a->props[i].key, b->props[i].key);
            assert_int_equal(a->props[i].nvalues, b->props[i].nvalues);
            for (int v = 0; v < a->props[i].nvalues; v++) {
                assert_int_equal(a->props[i].lens[v], b->props[i].lens[v]);
                assert_memory_equal(a->props[i].values[v], b->props[i].values[v],
                                    a->props[i].lens[v]);
            }
        }
        assert_int_equal(a->child == NULL, b->child == NULL);
        if (a->child) {
            a = a->child;
            b = b->child;
            continue;
        }
        while (a != ra && !a->sibling) {
            assert_null(b->sibling);
            a = a->parent;
            b = b->parent;
        }
        if (a == ra) {
            assert_ptr_equal(b, rb);
            break;
        }
        assert_non_null(b->sibling);
        a = a->sibling;
        b = b->sibling;
    }
}

static void round_trip(const char *text, size_t len)
{
    sgf_collection_t *c1 = parse_ok(text, len);
    char *w1;
    size_t n1;
    assert_int_equal(sgf_write(c1, &w1, &n1), 0);
    assert_int_equal(strlen(w1) <= n1, 1);
    sgf_collection_t *c2 = parse_ok(w1, n1);
    assert_int_equal(c1->ngames, c2->ngames);
    for (int g = 0; g < c1->ngames; g++)
        assert_same_tree(c1->games[g], c2->games[g]);
    char *w2;
    size_t n2;
    assert_int_equal(sgf_write(c2, &w2, &n2), 0);
    assert_int_equal(n1, n2);
    assert_memory_equal(w1, w2, n1); /* writing is stable */
    free(w1);
    free(w2);
    sgf_collection_destroy(c1);
    sgf_collection_destroy(c2);
}

static void test_round_trip(void **state)
{
    (void)state;
    const char t[] = "(;FF[4]GM[1]SZ[19]CA[UTF-8]C[a \\] bracket, a \\\\ backslash,\n"
                     "a hard break, a soft\\\nbreak, 你好]AB[aa][bb][cc:dd]"
                     "LB[dd:one][ee:t\\:wo]"
                     ";B[pd]C[x](;W[dp];B[];W[tt](;B[qq])(;B[rr]))(;W[dd]N[\x01\x02])"
                     "(;W[ee];B[ff];W[gg];B[hh];W[ii];B[jj];W[kk];B[ll];W[mm];B[nn];W[oo];B[pp];"
                     "W[qq];B[rr];W[ss];B[ab];W[ac];B[ad];W[ae];B[af]))"
                     "(;GN[second]AddWhite[aa];W[bb])";
    round_trip(t, sizeof t - 1);
    /* a NUL byte inside a value survives */
    const char z[] = "(;C[a\0b]GC[\\]])";
    sgf_collection_t *c = parse_ok(z, sizeof z - 1);
    assert_int_equal(sgf_node_find(c->games[0], "C")->lens[0], 3);
    sgf_collection_destroy(c);
    round_trip(z, sizeof z - 1);
    /* a long comment: the writer breaks lines between properties only */
    char big[5000];
    int k = snprintf(big, sizeof big, "(;C[");
    for (int i = 0; i < 300; i++)
        k += snprintf(big + k, sizeof big - (size_t)k, "w%d ", i);
    snprintf(big + k, sizeof big - (size_t)k, "];B[aa]TR[bb][cc][dd][ee][ff][gg][hh][ii][jj][kk][ll]"
                                             "[mm][nn][oo][pp][qq][rr][ss][ab][ac][ad][ae][af])");
    round_trip(big, strlen(big));
}

static void test_writer_format(void **state)
{
    (void)state;
    sgf_collection_t *c = sgf_collection_create();
    assert_non_null(c);
    sgf_node_t *r = sgf_node_new(c, NULL);
    const char *v[] = { "a]b\\c" };
    assert_int_equal(sgf_node_add(c, r, "C", v, 1), 0);
    assert_int_equal(sgf_node_add(c, r, "bad", v, 1), GO_EINVAL);
    sgf_node_t *m = sgf_node_new(c, r);
    const char *pd[] = { "pd" };
    assert_int_equal(sgf_node_add(c, m, "B", pd, 1), 0);
    sgf_node_new(c, r); /* a second, empty variation */
    char *t;
    size_t n;
    assert_int_equal(sgf_write(c, &t, &n), 0);
    assert_string_equal(t, "(;C[a\\]b\\\\c]\n(;B[pd])\n(;))\n");
    free(t);
    /* lines stay short when there are many moves */
    sgf_node_t *cur = m;
    for (int i = 0; i < 200; i++) {
        cur = sgf_node_new(c, cur);
        assert_int_equal(sgf_node_add(c, cur, i % 2 ? "B" : "W", pd, 1), 0);
    }
    assert_int_equal(sgf_write_tree(c->games[0], &t, &n), 0);
    size_t col = 0, maxcol = 0;
    for (size_t i = 0; i < n; i++) {
        col = t[i] == '\n' ? 0 : col + 1;
        if (col > maxcol)
            maxcol = col;
    }
    assert_true(maxcol <= 80);
    free(t);
    sgf_collection_destroy(c);
}

static void test_write_file(void **state)
{
    (void)state;
    char path[] = "/tmp/kc_sgf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    sgf_collection_t *c = PARSE("(;GN[file];B[aa])");
    assert_int_equal(sgf_write_file(c, path), 0);
    sgf_collection_t *d = NULL;
    assert_int_equal(sgf_parse_file(path, NULL, &d, NULL), 0);
    assert_same_tree(c->games[0], d->games[0]);
    sgf_collection_destroy(d);
    remove(path);
    sgf_error_t e;
    d = NULL;
    assert_int_equal(sgf_parse_file("/nonexistent/x.sgf", NULL, &d, &e), GO_EIO);
    assert_null(d);
    assert_int_equal(sgf_write_file(c, "/nonexistent/dir/x.sgf"), GO_EIO);
    sgf_collection_destroy(c);
}

static void test_malformed_positions(void **state)
{
    (void)state;
    EXPECT_ERR("", GO_EPARSE, 1, 1);
    EXPECT_ERR("just text, no game", GO_EPARSE, 1, 1);
    EXPECT_ERR("(;B[aa]", GO_EPARSE, 1, 1);                 /* never closed: the '(' */
    EXPECT_ERR("\n  (;B[aa](;W[bb]", GO_EPARSE, 2, 10);     /* the innermost open '(' */
    EXPECT_ERR("(;C[abc", GO_EPARSE, 1, 4);                 /* the unclosed '[' */
    EXPECT_ERR("(;C[abc\\]", GO_EPARSE, 1, 4);
    EXPECT_ERR("(;C[abc\\", GO_EPARSE, 1, 4);
    EXPECT_ERR("(;B[aa]\n;W[bb]X)", GO_EPARSE, 2, 7);       /* property without value */
    EXPECT_ERR("(;B[aa](W[bb]))", GO_EPARSE, 1, 9);         /* '(' not followed by ';' */
    EXPECT_ERR("(;B[aa]())", GO_EPARSE, 1, 9);              /* empty variation */
    EXPECT_ERR("(;xx[aa])", GO_EPARSE, 1, 3);               /* no upper-case letter */
    EXPECT_ERR("(;B[aa]@)", GO_EPARSE, 1, 8);
    EXPECT_ERR("(;B[aa][bb]]\n)", GO_EPARSE, 1, 12);
    EXPECT_ERR("(;C[multi\nline\ncomment]\n  \x01)", GO_EPARSE, 4, 3);
    EXPECT_ERR("(;C[soft\\\nbreak] ?)", GO_EPARSE, 2, 8);
    static const char nul[] = "(;B[aa]\0)";
    expect_error(nul, sizeof nul - 1, GO_EPARSE, 1, 8);
    char longid[100] = "(;";
    memset(longid + 2, 'A', 80);
    strcpy(longid + 82, "[x])");
    EXPECT_ERR(longid, GO_EPARSE, 1, 3);
    /* an extra ')' after a game tree is trailing text: skipped */
    sgf_collection_t *c = PARSE("(;B[aa]))");
    sgf_collection_destroy(c);
    /* a node after a variation is read as one more variation */
    c = PARSE("(;B[aa](;W[bb]);W[cc])");
    assert_int_equal(sgf_node_nchildren(c->games[0]), 2);
    sgf_collection_destroy(c);
}

static void test_limits(void **state)
{
    (void)state;
    sgf_opts_t o;
    sgf_opts_defaults(&o);
    o.max_value = 10;
    sgf_collection_t *c = NULL;
    sgf_error_t e;
    const char *t = "(;C[short]\nGC[a value longer than ten bytes])";
    assert_int_equal(sgf_parse(t, strlen(t), &o, &c, &e), SGF_ELIMIT);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.col, 3);
    o.max_value = 100;
    o.max_input = 20;
    assert_int_equal(sgf_parse(t, strlen(t), &o, &c, &e), SGF_ELIMIT);
    assert_null(c);
    /* nesting deeper than the limit */
    sgf_opts_defaults(&o);
    o.max_depth = 50;
    char deep[400] = "";
    for (int i = 0; i < 60; i++)
        strcat(deep, "(;");
    assert_int_equal(sgf_parse(deep, strlen(deep), &o, &c, &e), SGF_ELIMIT);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.col, 101);
}

/* Very deep nesting and very long sequences: no recursion anywhere (parse, write,
 * destroy). */
static void test_deep_trees(void **state)
{
    (void)state;
    const int depth = 200000;
    size_t n = (size_t)depth * 9 + 16;
    char *t = malloc(n), *p = t;
    assert_non_null(t);
    for (int i = 0; i < depth; i++) {
        memcpy(p, "(;B[aa]", 7);
        p += 7;
    }
    for (int i = 0; i < depth; i++)
        *p++ = ')';
    sgf_opts_t o;
    sgf_opts_defaults(&o);
    o.max_depth = depth;
    sgf_collection_t *c = NULL;
    assert_int_equal(sgf_parse(t, (size_t)(p - t), &o, &c, NULL), 0);
    char *w;
    size_t wn;
    assert_int_equal(sgf_write(c, &w, &wn), 0);
    sgf_collection_destroy(c);
    free(w);
    /* one long sequence */
    p = t;
    *p++ = '(';
    for (int i = 0; i < depth; i++) {
        memcpy(p, ";W[bb]", 6);
        p += 6;
    }
    *p++ = ')';
    assert_int_equal(sgf_parse(t, (size_t)(p - t), NULL, &c, NULL), 0);
    assert_int_equal(sgf_write(c, &w, &wn), 0);
    sgf_collection_t *d = NULL;
    assert_int_equal(sgf_parse(w, wn, NULL, &d, NULL), 0);
    assert_same_tree(c->games[0], d->games[0]);
    free(w);
    sgf_collection_destroy(c);
    sgf_collection_destroy(d);
    free(t);
}

/* Every prefix of a valid record either parses or fails with a position; none crashes. */
static void test_truncated(void **state)
{
    (void)state;
    const char t[] = "(;FF[4]CA[UTF-8]C[x\\]y\\\nz];B[aa](;W[bb]C[\xe4\xbd\xa0])(;W[cc];B[dd]))";
    for (size_t n = 0; n < sizeof t - 1; n++) {
        char *cp = malloc(n + 1);
        memcpy(cp, t, n);
        sgf_collection_t *c = NULL;
        sgf_error_t e;
        int rc = sgf_parse(cp, n, NULL, &c, &e);
        assert_int_not_equal(rc, 0);
        assert_true(e.line >= 1 && e.col >= 1);
        assert_null(c);
        free(cp);
    }
}

/* Random bytes and random mutations of a record: never a crash, errors have positions. */
static void test_junk(void **state)
{
    (void)state;
    uint32_t s = 12345;
    const char base[] = "(;FF[4]GM[1]SZ[9]C[c\\]];B[aa](;W[bb])(;W[cc];B[dd]AB[ee:ff]))";
    char buf[256];
    for (int it = 0; it < 20000; it++) {
        size_t n;
        if (it % 2) {
            n = 1 + (s % 200);
            for (size_t i = 0; i < n; i++) {
                s = s * 1103515245u + 12345u;
                buf[i] = (char)(s >> 16);
                if (i == 0 && it % 4 == 1)
                    buf[0] = '(', buf[1] = ';', i = 1;
            }
        } else {
            n = sizeof base - 1;
            memcpy(buf, base, n);
            for (int k = 0; k < 3; k++) {
                s = s * 1103515245u + 12345u;
                buf[(s >> 8) % n] = "()[];\\:aBW\n\0\xff"[(s >> 20) % 14];
            }
        }
        sgf_collection_t *c = NULL;
        sgf_error_t e;
        int rc = sgf_parse(buf, n, NULL, &c, &e);
        if (rc) {
            assert_null(c);
            assert_true(e.line >= 1);
        } else {
            char *w;
            size_t wn;
            assert_int_equal(sgf_write(c, &w, &wn), 0);
            sgf_collection_t *d = parse_ok(w, wn);
            assert_int_equal(c->ngames, d->ngames);
            for (int g = 0; g < c->ngames; g++)
                assert_same_tree(c->games[g], d->games[g]);
            sgf_collection_destroy(d);
            free(w);
            sgf_collection_destroy(c);
        }
    }
}

static void test_charsets(void **state)
{
    (void)state;
    /* GB2312: "你好" = C4E3 BAC3 */
    sgf_collection_t *c = PARSE("(;CA[gb2312]PB[\xc4\xe3\xba\xc3]C[ok])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "\xe4\xbd\xa0\xe5\xa5\xbd");
    assert_string_equal(sgf_node_value(c->games[0], "CA"), "UTF-8");
    assert_string_equal(c->charsets[0], "GB18030");
    sgf_collection_destroy(c);
    /* Big5: "你好" = A741 A66E, and "許" = B35C whose trail byte is a backslash, and
     * "功" = A55C before a ']' (the lexer must not take 5C as an escape) */
    c = PARSE("(;CA[Big5]PB[\xa7\x41\xa6\x6e]PW[\xb3\x5c]GN[\xa5\x5c])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "\xe4\xbd\xa0\xe5\xa5\xbd");
    assert_string_equal(sgf_node_value(c->games[0], "PW"), "\xe8\xa8\xb1");
    assert_string_equal(sgf_node_value(c->games[0], "GN"), "\xe5\x8a\x9f");
    assert_string_equal(sgf_node_value(c->games[0], "CA"), "UTF-8");
    sgf_collection_destroy(c);
    /* EUC-KR / CP949: "한국" = C7D1 B1B9 */
    c = PARSE("(;CA[EUC-KR]PB[\xc7\xd1\xb1\xb9])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "\xed\x95\x9c\xea\xb5\xad");
    sgf_collection_destroy(c);
    /* no CA, not UTF-8: GB18030 (GBK "围棋" = CEA7 C6E5) */
    c = PARSE("(;PB[\xce\xa7\xc6\xe5])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "\xe5\x9b\xb4\xe6\xa3\x8b");
    assert_string_equal(c->charsets[0], "GB18030");
    sgf_collection_destroy(c);
    /* no CA, neither UTF-8 nor GB18030 (a lone byte before the end): Latin-1 */
    c = PARSE("(;PB[caf\xe9])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "caf\xc3\xa9");
    assert_string_equal(c->charsets[0], "ISO-8859-1");
    sgf_collection_destroy(c);
    /* UTF-8 stays as it is, without CA too */
    c = PARSE("(;PB[\xe4\xbd\xa0])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "\xe4\xbd\xa0");
    assert_string_equal(c->charsets[0], "UTF-8");
    sgf_collection_destroy(c);
    /* undecodable bytes under a declared charset become U+FFFD, never an error */
    c = PARSE("(;CA[Big5]PB[a\xff\x01z])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "a\xef\xbf\xbd\x01z");
    sgf_collection_destroy(c);
    /* an unknown charset name: detection as when CA is absent */
    c = PARSE("(;CA[klingon]PB[caf\xe9])");
    assert_string_equal(sgf_node_value(c->games[0], "PB"), "caf\xc3\xa9");
    sgf_collection_destroy(c);
    /* a caller's default charset for files without CA */
    sgf_opts_t o;
    sgf_opts_defaults(&o);
    o.charset = "CP949";
    sgf_collection_t *d = NULL;
    const char *k = "(;PB[\xc7\xd1\xb1\xb9])";
    assert_int_equal(sgf_parse(k, strlen(k), &o, &d, NULL), 0);
    assert_string_equal(sgf_node_value(d->games[0], "PB"), "\xed\x95\x9c\xea\xb5\xad");
    sgf_collection_destroy(d);
    /* converted text round-trips (CA now says UTF-8) */
    const char *g = "(;CA[GB2312]C[\xc4\xe3\\]\xba\xc3];B[aa])";
    round_trip(g, strlen(g));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_escapes_and_soft_breaks),
        cmocka_unit_test(test_whitespace_and_lowercase_ids),
        cmocka_unit_test(test_variations),
        cmocka_unit_test(test_collection),
        cmocka_unit_test(test_parse_each),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_writer_format),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_malformed_positions),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_deep_trees),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_junk),
        cmocka_unit_test(test_charsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
