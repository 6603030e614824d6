/* akc_odds: `akc odds GAME`, the exact chances of the battles the player
 * to move has declared and not yet fought, worked out here by the rules
 * engine (ak_battle_odds: every face of the die fought on a copy) on the
 * state the server sent; no server CPU, and no bound on the battles.
 *
 * Each battle: its odds, what each result's faces are, and the chances
 * that its defenders are eliminated, that each defended square is left
 * empty (taken), that an attacking unit is lost, that every attacker is;
 * then the joint chances of all the battles, whose dice are independent.
 * Each battle is judged as if it were fought next (ak_odds.h).
 */
#include <stdio.h>

#include "ak_battle.h"
#include "ak_notation.h"
#include "ak_odds.h"
#include "akc_cmd.h"

static void print_units(const uint8_t *u, int n)
{
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", ak_def(u[i])->shortname);
}

static void print_faces(const char *what, int faces, int of)
{
    struct ak_chance c = {(uint64_t)faces, (uint64_t)of, (double)faces / of};
    char words[48];
    if (faces > 0 && faces < of) {
        uint64_t a = c.num, b = c.den;
        while (b) {
            uint64_t t = a % b;
            a = b;
            b = t;
        }
        c.num /= a;
        c.den /= a;
    }
    printf("%s %s", what, ak_chance_words(&c, words, sizeof words));
}

static void print_battle(const struct ak_state *s, const struct ak_odds_battle *ob)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    char sq[8];
    ak_battle_sides(s, ob->battle, att, &na, def, &nd);
    printf("  Battle %d at %s: ", ob->battle + 1, ob->preview.odds);
    print_units(att, na);
    printf(" against ");
    print_units(def, nd);
    if (!ob->fightable) {
        printf("\n    not worked out: %s\n", ob->why);
        return;
    }
    printf("\n    the die (%d faces):", ob->faces);
    for (int i = 0; i < ob->preview.nresults; i++)
        printf("%s %s %d", i ? "," : "", ob->preview.result[i].name, ob->preview.result[i].chances);
    printf("\n    ");
    print_faces("defenders eliminated", ob->eliminated, ob->faces);
    for (int h = 0; h < ob->nhex; h++) {
        printf("; %s", ak_hex_format(ob->hex[h], sq));
        print_faces(" taken", ob->hex_vacated[h], ob->faces);
    }
    printf("\n    ");
    print_faces("an attacking unit lost or reduced", ob->attackers_hit, ob->faces);
    print_faces("; every attacker lost", ob->attackers_eliminated, ob->faces);
    printf("\n");
}

static void print_odds(long game, const struct ak_state *s, const struct ak_odds *o)
{
    char words[48], sq[8];
    printf("Game %ld, the %s player's battles declared and not yet fought, each as if fought next:\n", game,
           ak_side_name(s->side));
    for (int i = 0; i < o->nbattles; i++)
        print_battle(s, &o->battle[i]);
    if (o->fightable == 0)
        return;
    printf("All %d together (independent dice):\n", o->fightable);
    printf("  every defender eliminated %s\n", ak_chance_words(&o->all_eliminated, words, sizeof words));
    printf("  every defended square taken %s\n", ak_chance_words(&o->all_taken, words, sizeof words));
    printf("  no attacking unit lost %s\n", ak_chance_words(&o->none_lost, words, sizeof words));
    for (int i = 0; i < o->nsquares; i++)
        printf("  %s taken %s\n", ak_hex_format(o->square[i].hex, sq),
               ak_chance_words(&o->square[i].taken, words, sizeof words));
}

int akc_odds(struct ak_net *n, long game)
{
    static struct ak_state s;
    static struct ak_odds o;
    int status = akc_game_state(n, game, &s);
    if (status)
        return status;
    if (s.phase == AK_PHASE_OVER || ak_battle_odds(&s, 0, &o) == 0) {
        printf("Game %ld: no battles declared and not yet fought%s.\n", game,
               s.phase == AK_PHASE_OVER ? " (the game is over)" : "; declare them (akc battle), then ask again");
        return 0;
    }
    print_odds(game, &s, &o);
    return 0;
}
