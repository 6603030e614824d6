/* ak_ai_keys: what the key squares are worth to the computer player
 * (HOW TO WIN: the Axis wins by holding both fortresses and both home
 * bases; CONTROL): the way left to holding them all, which the
 * evaluation turns into the Axis's advance (ak_ai_eval.c), and what
 * taking one is worth, which a battle that may empty it adds to its value
 * (ak_ai_battle.c). Below both, so that neither needs the other. */
#include "ak_ai_internal.h"

#define KEY_LEG 40     /* squares, at least the longest way from one key square to the next */

/* How far h is from holding every key square (HOW TO WIN: the Axis must
 * hold all four): the way to the nearest one side does not control, and a
 * leg of KEY_LEG squares for each other one; 0 when it controls them all.
 * The Axis's march, Bengasi, then the siege of Tobruch and the drive on
 * the Allied base, one key at a time: the evaluation looks one turn
 * ahead, this is the gradient that carries it over the turns between.
 * The legs make taking a key always worth more than the longer way to the
 * next one (without them a unit stepping into Bengasi lost value: every
 * unit's nearest unheld key jumped to Tobruch). */
int ak_ai_key_distance(const uint8_t *control, int side, ak_hex h)
{
    int nearest = 0, unheld = 0;
    for (int k = 0; k < AK_KEYS; k++) {
        if (control[k] == side)
            continue;
        int d = ak_hex_distance(h, ak_key_hex(k));
        nearest = unheld++ == 0 || d < nearest ? d : nearest;
    }
    return unheld ? nearest + KEY_LEG * (unheld - 1) : 0;
}

/* Taking a key square side does not hold: the key itself, Tobruch's own
 * weight, and for the Axis (the side the advance term moves: ak_ai_eval.c)
 * the leg every one of its combat units no longer has to go (counted as
 * the advance counts them, by attack factors). */
double ak_ai_square_worth(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex h, int side)
{
    double units = 0;       /* in the advance's units: attack factors (ak_ai_eval.c) */
    for (int u = 0; u < s->units && side == AK_AXIS; u++)
        if (ak_def(u)->side == side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            units += ak_def(u)->attack / AK_AI_ADVANCE_UNIT;
    double v = 0;
    for (int k = 0; k < AK_KEYS; k++)
        if (ak_key_hex(k) == h && ak_control_now(s, k) != side)
            v += w->key_square + (k == AK_KEY_TOBRUCH ? w->tobruch : 0) + w->advance * KEY_LEG * units;
    return v;
}

