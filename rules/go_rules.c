/* go_rules.c: the rule presets (independent fields, after KataGo) and the SGF RU[] names.
 *
 * Reading of the rules texts (../shared/rules-texts):
 *  - Chinese: "禁止全局同形再现" — no whole-board position may be recreated, whoever is
 *    to move: positional superko. Triple ko and eternal life are settled by the referee
 *    (draw or replay); under the ban they cannot repeat, so strict play rejects them.
 *  - Japanese, Korean: only the immediate ko recapture is barred; a triple ko may repeat
 *    (the game is then void, a matter for the referee, not for move legality).
 *  - ancient-area (Ming/Qing area counting): the modern Chinese area rules descend from
 *    it, and the five-systems text states the whole-board repetition ban (第六條) in the
 *    articles of the area-counting rules: positional superko.
 *  - ancient-territory (Tang/Song territory counting): the five-systems text says the
 *    Japanese and Korean territory rules grew out of it, dropping only zuozi and the
 *    group tax (還棋頭). Nothing says the ban on whole-board repetition belonged to it (the
 *    ban is stated with the area-counting articles), so we give it what its descendants
 *    kept: simple ko, territory scoring, plus zuozi, White first and komi 0. The group
 *    tax belongs to area counting (ancient-area), so none here.
 * Handicap compensation follows go_rules.h: N for Chinese, NZ and Tromp-Taylor (area
 * scoring counts the handicap stones), N-1 for AGA, none for the territory rules and Ing.
 * The komi of a handicap game (handicap_komi2, go_rules_komi2):
 *  - Chinese: chinese-rules-and-competition.txt, 中国规则 2: "让先不贴目，让子要贴还让子数的
 *    一半（就当被让方是预先收了单官）" - taking Black is played without komi; in a handicap
 *    game Black returns half the number of handicap stones (as if White had already
 *    filled that many dame). The return is the compensation above (GO_HC_N: N points,
 *    N/2 stones); there is no komi besides it: 0.
 *  - Japanese, Korean: 0.5, the custom (the texts here say nothing of handicap komi): a
 *    handicap game cannot be drawn, and White wins ties.
 *  - the others: no text here says, so their even-game komi, as before.
 */
#include "rules/go_rules.h"
#include "rules/go_board.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

const char *const go_rules_names[] = {
    "chinese", "japanese", "korean", "ing", "aga", "nz", "tromp-taylor",
    "ancient-area", "ancient-territory", NULL
};

static const go_rules_t go_presets[] = {
    /* name, ko, multi_suicide, scoring, tax, handicap_comp, komi2, handicap_komi2,
       black_wins_ties, pass_stones, remove_dead, white_first, zuozi */
    { "chinese", GO_KO_POSITIONAL, false, GO_SCORING_AREA, GO_TAX_NONE, GO_HC_N, 15, 0,
      false, false, true, false, false },
    { "japanese", GO_KO_SIMPLE, false, GO_SCORING_TERRITORY, GO_TAX_SEKI, GO_HC_NONE, 13, 1,
      false, false, true, false, false },
    { "korean", GO_KO_SIMPLE, false, GO_SCORING_TERRITORY, GO_TAX_SEKI, GO_HC_NONE, 13, 1,
      false, false, true, false, false },
    { "ing", GO_KO_SITUATIONAL, true, GO_SCORING_AREA, GO_TAX_NONE, GO_HC_NONE, 16, 16,
      true, false, true, false, false },
    { "aga", GO_KO_SITUATIONAL, false, GO_SCORING_AREA, GO_TAX_NONE, GO_HC_N_MINUS_1, 15, 15,
      false, true, true, false, false },
    { "nz", GO_KO_SITUATIONAL, true, GO_SCORING_AREA, GO_TAX_NONE, GO_HC_N, 14, 14,
      false, false, true, false, false },
    { "tromp-taylor", GO_KO_POSITIONAL, true, GO_SCORING_AREA, GO_TAX_NONE, GO_HC_N, 15, 15,
      false, false, false, false, false },
    { "ancient-area", GO_KO_POSITIONAL, false, GO_SCORING_AREA, GO_TAX_GROUP, GO_HC_NONE, 0, 0,
      false, false, true, true, true },
    { "ancient-territory", GO_KO_SIMPLE, false, GO_SCORING_TERRITORY, GO_TAX_NONE,
      GO_HC_NONE, 0, 0, false, false, true, true, true },
};

static bool go_ieq(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return false;
    for (size_t i = 0; i < alen; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

static int go_find(const char *s, size_t n, go_rules_t *out)
{
    for (size_t i = 0; i < sizeof go_presets / sizeof go_presets[0]; i++) {
        if (go_ieq(s, n, go_presets[i].name)) {
            *out = go_presets[i];
            return GO_OK;
        }
    }
    return GO_EINVAL;
}

/* Aliases: short names and the spellings SGF files carry in RU[]. */
static const struct {
    const char *alias, *name;
} go_aliases[] = {
    { "cn", "chinese" }, { "jp", "japanese" }, { "kr", "korean" }, { "tt", "tromp-taylor" },
    { "china", "chinese" }, { "japan", "japanese" }, { "korea", "korean" },
    { "goe", "ing" }, { "ing goe", "ing" }, { "nz", "nz" }, { "new zealand", "nz" },
    { "tromp taylor", "tromp-taylor" }, { "tromptaylor", "tromp-taylor" },
    { "tromp_taylor", "tromp-taylor" }, { "ancient_area", "ancient-area" },
    { "ancient_territory", "ancient-territory" },
};

static int go_lookup(const char *name, go_rules_t *out)
{
    if (!name || !out)
        return GO_EINVAL;
    /* trim spaces around the value */
    while (*name && isspace((unsigned char)*name))
        name++;
    size_t n = strlen(name);
    while (n && isspace((unsigned char)name[n - 1]))
        n--;
    go_rules_t r;
    if (go_find(name, n, &r) == GO_OK) {
        *out = r;
        return GO_OK;
    }
    for (size_t i = 0; i < sizeof go_aliases / sizeof go_aliases[0]; i++) {
        if (go_ieq(name, n, go_aliases[i].alias)) {
            go_find(go_aliases[i].name, strlen(go_aliases[i].name), out);
            return GO_OK;
        }
    }
    return GO_EINVAL;
}

int go_rules_preset(const char *name, go_rules_t *out)
{
    return go_lookup(name, out);
}

int go_rules_komi2(const go_rules_t *r, int handicap)
{
    if (!r)
        return 0;
    return handicap >= 2 ? r->handicap_komi2 : r->komi2;
}

int go_rules_from_sgf(const char *ru, go_rules_t *out)
{
    return go_lookup(ru, out);
}

const char *go_rules_server(go_rules_t *r, const char *cp, const char *pc)
{
    if (!r || r->tax != GO_TAX_SEKI)
        return NULL;
    bool ogs = (cp && go_ieq(cp, strlen(cp), "online-go.com"))
               || (pc && strncmp(pc, "OGS", 3) == 0);
    if (!ogs)
        return NULL;
    r->tax = GO_TAX_NONE;   /* OGS's default: no "strict scoring", eyes in seki counted */
    return "OGS";
}
