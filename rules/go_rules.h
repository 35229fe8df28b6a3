/* go_rules.h: rule sets as independent fields, with named presets filling them
 * (after KataGo's design). Nothing here plays or scores: go_game.h and go_score.h read
 * these fields. All komi and score values are in HALF POINTS (integers): 7.5 -> 15.
 */
#ifndef KIFUCAM_GO_RULES_H
#define KIFUCAM_GO_RULES_H

#include <stdbool.h>

typedef enum {
    GO_KO_SIMPLE = 0,     /* only the immediate recapture of a single-stone ko is barred
                             (Japanese, Korean: a triple ko may repeat) */
    GO_KO_POSITIONAL,     /* no whole-board position may recur (Chinese, NZ, Tromp-Taylor) */
    GO_KO_SITUATIONAL     /* no position may recur with the same side to move (AGA, Ing) */
} go_ko_rule_t;

typedef enum {
    GO_SCORING_AREA = 0,  /* stones + surrounded points (Chinese, Ing, AGA, NZ, Tromp-Taylor) */
    GO_SCORING_TERRITORY  /* surrounded points + prisoners (Japanese, Korean) */
} go_scoring_t;

typedef enum {
    GO_TAX_NONE = 0,      /* no tax */
    GO_TAX_SEKI,          /* eyes of stones in seki are not territory (Japanese, Korean) */
    GO_TAX_GROUP          /* each separate living group costs its owner two points,
                             one stone (ancient area counting: huan qi tou) */
} go_tax_t;

typedef enum {
    GO_HC_NONE = 0,       /* no compensation for handicap stones */
    GO_HC_N,              /* White gets N points for N handicap stones (Chinese: half the
                             handicap in stones; NZ; Tromp-Taylor as area scoring) */
    GO_HC_N_MINUS_1       /* White gets N-1 points (AGA) */
} go_handicap_comp_t;

typedef struct go_rules {
    const char *name;          /* preset name, or "custom" */
    go_ko_rule_t ko;
    bool multi_suicide;        /* suicide of two or more stones is legal (single never is) */
    go_scoring_t scoring;
    go_tax_t tax;
    go_handicap_comp_t handicap_comp;
    int komi2;                 /* standard komi in half points (15 = 7.5) */
    int handicap_komi2;        /* standard komi of a game with 2 or more handicap stones
                                  (half points): chinese 0, japanese and korean 0.5, the
                                  others their komi2 (go_rules.c says why) */
    bool black_wins_ties;      /* Ing: with komi 8, a tie is a win for Black */
    bool pass_stones;          /* AGA: a pass hands a stone to the opponent's prisoners */
    bool remove_dead;          /* false: Tromp-Taylor, every stone on the board counts */
    bool white_first;          /* ancient rules: White moves first (with zuozi) */
    bool zuozi;                /* ancient opening: two stones each on the diagonal corner
                                  star points */
} go_rules_t;

/* Fill *out with the named preset: chinese, japanese, korean, ing, aga, nz, tromp-taylor,
 * ancient-area, ancient-territory (case-insensitive; "cn", "jp", "kr", "tt" accepted).
 * Returns GO_OK or GO_EINVAL for an unknown name (out untouched). */
int go_rules_preset(const char *name, go_rules_t *out);

/* The standard komi, in half points, of a game under r with `handicap` stones given (0
 * or 1: an even game, r->komi2; 2 or more: r->handicap_komi2). What an SGF record without
 * KM[] is counted with, and what the station writes in KM[]. */
int go_rules_komi2(const go_rules_t *r, int handicap);

/* The preset names, NULL-terminated, in the order above. */
extern const char *const go_rules_names[];

/* Map an SGF RU[] value ("Chinese", "Japanese", "Korean", "AGA", "NZ", "GOE"/"Ing",
 * "Tromp-Taylor", ...) to a preset; returns GO_EINVAL for an unknown one. */
int go_rules_from_sgf(const char *ru, go_rules_t *out);

/* The rules as the server that wrote a record counts them, where they differ from the
 * preset its RU[] names. cp and pc are the record's CP[] and PC[] (either may be NULL).
 * OGS (CP[online-go.com], or a PC[] starting "OGS"): its territory rules ("Japanese",
 * "Korean") give the eyes of groups in seki to their owner unless the game was set to
 * "strict scoring", which is off by default and which its SGF does not record; so a
 * preset with GO_TAX_SEKI becomes GO_TAX_NONE. Returns the server's name ("OGS") when *r
 * was changed, else NULL (r unchanged). */
const char *go_rules_server(go_rules_t *r, const char *cp, const char *pc);

#endif
