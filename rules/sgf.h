/* sgf.h: an SGF (FF[4], and the FF[1-3] forms still found) reader and writer.
 *
 * A collection is a list of game trees. A node keeps ALL its properties in the order
 * read, each with all its values in order; the children of a node, in order, are its
 * variations (the first child is the main line).
 *
 * Values are stored unescaped (`\]` -> `]`, `\\` -> `\`, a `\` before a line break (a soft
 * line break) is removed together with the break) and converted to UTF-8, NUL-terminated,
 * with their byte length beside them (a value may contain NUL bytes). Compose values
 * ("aa:cc", "dd:label") are kept as one value, as written.
 *
 * Character sets: the CA[] of a game tree's root names the charset of its text; values
 * are converted to UTF-8 with iconv(3) (GB2312 and GBK are read as GB18030, their
 * superset; CP949/UHC/EUC-KR as CP949; Big5 as BIG5-HKSCS, falling back to BIG5). After a
 * conversion the root's CA value reads "UTF-8" (the charset read is kept in
 * sgf_collection_t.charsets), so that write -> read gives the same text again. When CA is
 * absent (or says UTF-8) and the bytes are not valid UTF-8, the text is tried as GB18030,
 * then read as Latin-1. Undecodable bytes become U+FFFD. With a double-byte CA (GBK, Big5,
 * CP949, Shift_JIS) the lexer steps over two-byte characters whole, so a trail byte 0x5C or
 * 0x5D is not taken for `\` or `]`.
 *
 * Property identifiers: letters only; lower-case letters (FF[3]'s "AddBlack") are kept in
 * `id` as written and dropped in `key` ("AB"), which is what code should compare. An
 * identifier needs at least one upper-case letter.
 *
 * Errors: line and column (1-based; the column counts bytes) of the offending character,
 * or of the '[' / '(' that was never closed. Nothing is recursive: deep nesting and long
 * sequences cost heap, never stack. Limits (sgf_opts_t) bound input size, nesting depth
 * and value size. All memory of a collection lives in one arena freed by
 * sgf_collection_destroy.
 */
#ifndef KIFUCAM_SGF_H
#define KIFUCAM_SGF_H

#include <stdbool.h>
#include <stddef.h>

/* Status codes: 0 and the GO_E* codes of go_board.h (GO_EPARSE, GO_ENOMEM, GO_EIO,
 * GO_EINVAL), plus: */
#define SGF_ELIMIT (-20)   /* the input exceeds a limit of sgf_opts_t */

/* A short English description of a status code (GO_E* included); never NULL. */
const char *sgf_strerror(int code);

typedef struct sgf_error {
    int code;          /* 0 or a negative status code */
    int line, col;     /* 1-based position in the input (0 when not about a position) */
    int game;          /* 0-based game tree index the error is in (-1: none) */
    char msg[200];     /* one line of English, no trailing newline */
} sgf_error_t;

typedef struct sgf_prop {
    const char *id;    /* identifier as written ("AddBlack", "B") */
    const char *key;   /* its upper-case letters ("AB", "B"); compare this */
    int nvalues;       /* >= 1 */
    char **values;     /* nvalues NUL-terminated UTF-8 strings (unescaped) */
    size_t *lens;      /* byte length of each value (values may hold NULs) */
} sgf_prop_t;

typedef struct sgf_node {
    int nprops;
    sgf_prop_t *props;          /* in the order read */
    struct sgf_node *parent;    /* NULL for a game tree's root */
    struct sgf_node *child;     /* first child (main line), or NULL */
    struct sgf_node *sibling;   /* next variation of the same parent, or NULL */
    struct sgf_node *last;      /* last child (for appending), or NULL */
    int line, col;              /* position of the node's ';' in the input (0 if built) */
} sgf_node_t;

typedef struct sgf_arena sgf_arena_t;

typedef struct sgf_collection {
    int ngames;
    sgf_node_t **games;         /* root node of each game tree */
    const char **charsets;      /* per game: the charset its text was read in ("UTF-8",
                                   "GB18030", "ISO-8859-1", ...) */
    sgf_arena_t *arena;         /* owns everything above */
    int cap;                    /* capacity of games/charsets */
} sgf_collection_t;

typedef struct sgf_opts {
    size_t max_input;     /* bytes of input accepted; default 256 MiB */
    int max_depth;        /* nesting of '(' accepted; default 10000 */
    size_t max_value;     /* bytes of one value accepted; default 16 MiB */
    const char *charset;  /* charset assumed when CA[] is absent: NULL (default) means
                             UTF-8 if valid, else GB18030, else Latin-1 */
} sgf_opts_t;

/* Fill *o with the defaults above. */
void sgf_opts_defaults(sgf_opts_t *o);

/* Parse len bytes of SGF text into a new collection (*out, caller destroys) holding at
 * least one game tree. opts and err may be NULL. Returns 0, or GO_EPARSE / SGF_ELIMIT /
 * GO_ENOMEM with *err filled; *out is written only on success. Text before the first '('
 * and between game trees is skipped. */
int sgf_parse(const char *data, size_t len, const sgf_opts_t *opts, sgf_collection_t **out,
              sgf_error_t *err);

/* The one input-size policy for SGF files (every command reads them through this): the
 * whole file into *data (malloc'd, NUL-terminated, caller frees) and *len, reading never
 * more than opts->max_input bytes (default 256 MiB; opts may be NULL), so /dev/zero or a
 * huge file costs at most that much memory. Returns 0, SGF_ELIMIT (larger than the
 * limit), GO_EIO (cannot be read, a folder) or GO_ENOMEM, with *err (may be NULL) filled. */
int sgf_read_file(const char *path, const sgf_opts_t *opts, char **data, size_t *len,
                  sgf_error_t *err);

/* Read (sgf_read_file) and parse a whole file (GO_EIO when it cannot be read). */
int sgf_parse_file(const char *path, const sgf_opts_t *opts, sgf_collection_t **out,
                   sgf_error_t *err);

/* Streaming parse: call fn once per game tree, in order, with its root, its 0-based index
 * and the charset it was read in; the tree's memory is released when fn returns. A
 * non-zero return from fn stops the parse and is returned. Otherwise as sgf_parse (an
 * error in tree k comes after the callbacks of trees 0..k-1). Fast path for `check`. */
typedef int (*sgf_game_fn)(void *ctx, const sgf_node_t *root, int index, const char *charset);
int sgf_parse_each(const char *data, size_t len, const sgf_opts_t *opts, sgf_game_fn fn,
                   void *ctx, sgf_error_t *err);

/* Free a collection and every node, property and value in it. Does nothing if NULL. */
void sgf_collection_destroy(sgf_collection_t *c);

/* An empty collection to build trees in (sgf_node_new, sgf_node_add). NULL on no memory. */
sgf_collection_t *sgf_collection_create(void);
/* A new node, child of parent (appended after its other children), or a new game tree's
 * root when parent is NULL. NULL on no memory. Memory belongs to the collection. */
sgf_node_t *sgf_node_new(sgf_collection_t *c, sgf_node_t *parent);
/* Append a property with n values (each NUL-terminated; copied) to node. key must be
 * upper-case letters. Returns 0 or GO_ENOMEM / GO_EINVAL. */
int sgf_node_add(sgf_collection_t *c, sgf_node_t *node, const char *key, const char *const *values,
                 int n);

/* The first property of node whose key equals key, or NULL. */
const sgf_prop_t *sgf_node_find(const sgf_node_t *node, const char *key);
/* The first value of property key in node, or NULL when absent. */
const char *sgf_node_value(const sgf_node_t *node, const char *key);
/* Number of children of node. */
int sgf_node_nchildren(const sgf_node_t *node);

/* Write the collection as SGF text: keys in upper case, `]` and `\` escaped, lines broken
 * between properties at about 80 columns, variations in parentheses. *text (malloc'd,
 * NUL-terminated, caller frees) and *len are written on success. Returns 0 or GO_ENOMEM. */
int sgf_write(const sgf_collection_t *c, char **text, size_t *len);
/* The same for one game tree (root and its subtree). */
int sgf_write_tree(const sgf_node_t *root, char **text, size_t *len);
/* Write the collection to a file through safeio/sio.h's atomic write (a new temporary
 * file, never a file or symlink already there, fsynced and renamed over PATH), so that a
 * crash never leaves half a record. Returns 0, GO_ENOMEM or GO_EIO. */
int sgf_write_file(const sgf_collection_t *c, const char *path);

#endif
