/* ak_losses: steps and loss requirements of the Updated Afrika Korps
 * ruleset (seed 003, NEW COMBAT SYSTEM 4 to 7), as pure arithmetic the
 * ruleset's combat resolution will call:
 *
 *   - steps: units of 2 attack factors or less have one step; stronger
 *     ones two, their factors halved rounding up when reduced (7-7-10 to
 *     4-4-10, 3-3-7 to 2-2-7);
 *   - a loss requirement from a table cell (ak_crt_table.h) and the weaker
 *     side's strength, kept in half points so that a 50% result on an odd
 *     strength is exact (3.5);
 *   - whether the losses a player assigns meet it: eliminations count the
 *     unit's factor, reductions the factor lost, except that on a
 *     percentage result a reduced odd unit counts exactly half its factor
 *     (¶6, reading A-4 (a) of docs/updated-rules-cases.md);
 *   - the excess that goes back to the replacement pools: only what
 *     meeting the requirement forces (¶7 "forces", reading A-9 (b)),
 *     counted against the requirement rounded up (A-5 (a)).
 *
 * Factors are the counted ones: defense factors of defenders, attack
 * factors of attackers, doubled for fortress infantry (TERRAIN EFFECTS 2,
 * reading A-7 (a)). */
#ifndef AK_LOSSES_H
#define AK_LOSSES_H

#include <stdbool.h>
#include <stdint.h>

#include "ak_crt_table.h"
#include "ak_data.h"        /* ak_steps_of, ak_reduced_factor */

#define AK_LOSS_UNITS_MAX 24

/* NEW COMBAT SYSTEM 5 */

/* A requirement in half points (7 is 3.5), and whether it came from a
 * percentage (where reduced odd units round in their owner's favour). */
struct ak_loss_requirement {
    uint16_t halves;
    bool percent;
};
struct ak_loss_requirement ak_loss_required(const struct ak_crt_side_effect *e, int weaker_strength);

/* One engaged unit of the side that loses. */
struct ak_loss_unit {
    uint8_t factor;         /* its counted factor as it stands */
    bool reducible;         /* a two-step unit at full strength */
    uint8_t reduced_to;     /* its counted factor once reduced; 0: half of factor, up
                               (a doubled fortress infantry 3-3 counts 6, reduced 4) */
};

enum ak_loss_choice { AK_LOSS_KEEP = 0, AK_LOSS_REDUCE, AK_LOSS_ELIMINATE };

/* Do these choices meet r? *actual gets the factors they remove. Losing
 * every unit always meets it (there is nothing more to give). A reduction
 * of a unit that cannot be reduced is not a choice: false. */
bool ak_loss_meets(struct ak_loss_requirement r, const struct ak_loss_unit *u, const uint8_t *choice, int n,
                   int *actual);

/* The factors removed beyond the requirement (rounded up) that no choice
 * meeting it avoids: what the replacement pools get back. */
int ak_loss_forced_excess(struct ak_loss_requirement r, const struct ak_loss_unit *u, int n);

#endif
