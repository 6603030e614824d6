/* akc_hint: `akc hint GAME [--level N]`, the computer player's suggestion
 * for the player the game waits for, worked out here (no server CPU: the
 * AI library runs on the state the server sent).
 *
 * The AI plays the rest of the part of the turn on a copy of the state,
 * as far as the dice allow: the moves, the placements, the end of the
 * movement portion, the battles it would declare and the decisions it
 * would take; it stops before the first action whose outcome the dice
 * decide (a battle resolved, the end of a turn or phase that rolls), so
 * nothing it prints depends on dice it cannot know. Each step is printed
 * as the akc command that sends it; each battle with its odds and every
 * result's chance from the game's table, and the why in words: the
 * battles it fights, the position's value before and after (docs/ai.md).
 * Deterministic: the same state and level give the same hint.
 */
#include <stdio.h>
#include <string.h>

#include "ak_ai.h"
#include "ak_notation.h"
#include "akc_cmd.h"

#define HINT_STEPS 200
#define HINT_SEED 0x48494e54u     /* "HINT": the same hint for the same state */

/* Actions whose outcome the dice decide: the hint stops before them. */
static bool rolls(const struct ak_action *a)
{
    return a->kind == AK_ACT_RESOLVE || a->kind == AK_ACT_END_TURN || a->kind == AK_ACT_END_PHASE;
}

static void print_battle(const struct ak_state *s, const struct ak_action *a)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na = 0, nd = 0;
    for (int i = 0; i < a->nunits; i++) {
        if (ak_def(a->units[i])->side == a->side)
            att[na++] = a->units[i];
        else
            def[nd++] = a->units[i];
    }
    struct ak_battle_preview p;
    ak_battle_preview(s, att, na, def, nd, a->supply, &p);
    printf("      %s (%d to %d)%s:", p.odds, p.attack, p.defense, p.drm ? " with a die modifier" : "");
    for (int i = 0; i < p.nresults; i++)
        printf("%s %s %d in %d", i ? "," : "", p.result[i].name, p.result[i].chances, p.faces);
    double worth = ak_ai_battle_value(s, a);
    printf("; on average %+.1f factors to the attacker (the defender's losses less his)%s\n", worth,
           worth < 0 && ak_ruleset_get(s->ruleset)->attacks_obligatory
               ? ": a loss, fought because units in an enemy zone must attack" : "");
}

/* Print the plan; *battles counts the battles declared. */
static int plan(long game, struct ak_state *s, int level, int *battles)
{
    struct ak_ai ai;
    ak_ai_init(&ai, level, HINT_SEED);
    int side = ak_waiting_for(s), steps = 0;
    for (; steps < HINT_STEPS && ak_waiting_for(s) == side; steps++) {
        struct ak_action a;
        if (!ak_ai_choose(&ai, s, &a))
            break;
        json_t *j = ak_action_to_json_in(&a, s);
        char line[700];
        ak_verb_format(game, j, line, sizeof line);
        json_decref(j);
        if (rolls(&a)) {
            printf("  then %s   (the dice decide what follows)\n", line);
            break;
        }
        printf("  %s\n", line);
        if (a.kind == AK_ACT_BATTLE) {
            print_battle(s, &a);
            ++*battles;
        }
        struct ak_events ev = {0};
        struct ak_reject rej;
        if (!ak_apply(s, &a, &ev, &rej)) {     /* never: the AI's actions pass ak_try */
            printf("  (the rules refused it here: %s)\n", rej.text);
            break;
        }
    }
    return steps;
}

int akc_hint(struct ak_net *n, long game, int level)
{
    struct ak_state s;
    int status = akc_game_state(n, game, &s);
    if (status)
        return status;
    int side = ak_waiting_for(&s);
    if (side == AK_NOBODY) {
        printf("game %ld is over: nothing to suggest (akc analyse %ld looks back at it)\n", game, game);
        return 0;
    }
    static const char *const levels[] = {"random", "beginner", "standard", "strong"};
    printf("Hint for the %s player, game %ld, turn %d, %s: the computer at level %d (%s) would play\n",
           ak_side_name(side), game, s.turn, ak_phase_words(&s), level, levels[level]);
    double before = ak_ai_evaluate(&ak_ai_default_weights, &s, side);
    int battles = 0;
    plan(game, &s, level, &battles);
    double after = ak_ai_evaluate(&ak_ai_default_weights, &s, side);
    printf("Why: %s; the position's value for the %s, before the dice, goes from %.1f to %.1f (its evaluation: "
           "material, supply, Tobruch, the home bases; docs/ai.md).\n",
           battles ? "it fights the battles above, at those odds" : "it fights no battle now",
           ak_side_name(side), before, after);
    return 0;
}
