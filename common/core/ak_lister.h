/* ak_lister: the listing of concrete legal actions, one lister per action
 * kind, that each ruleset points at from its table beside apply[]
 * (struct ak_ruleset.list). A lister builds candidate actions and offers
 * each: the engine tries it on a copy of the state and only legal ones are
 * kept, so a lister may be generous but never lists anything illegal.
 * The listers both rulesets share are here; each ruleset keeps its own
 * (retreat routes, losses, boxes, ports, break-outs) in its folder, and
 * ak_legal_actions (ak_query.c) calls them in one fixed order. */
#ifndef AK_LISTER_H
#define AK_LISTER_H

#include "ak_rules.h"

struct ak_lister {
    const struct ak_state *s;
    struct ak_action *out;
    int n, max;
    /* Keep every offer without the trial: candidates, not legal actions,
     * for a playout that plays one and lets ak_apply judge it (a trial
     * of each costs a whole application). */
    bool untried;
};

/* An action of kind for the player the game waits for, nothing chosen. */
struct ak_action ak_lister_blank(const struct ak_state *s, int kind);
/* Keep a if the engine accepts it on a copy of the state (or untried). */
bool ak_lister_offer(struct ak_lister *l, const struct ak_action *a);
/* Unit u is side's and on board. */
bool ak_lister_own(const struct ak_state *s, int u, int side);
bool ak_lister_own_supply(const struct ak_state *s, int u);
bool ak_lister_own_combat(const struct ak_state *s, int u);
/* Side's units in battle b, into a's units; their number. */
int ak_lister_battle_units(const struct ak_state *s, int b, int side, struct ak_action *a);

/* Offer an action of kind for each unit that fits, one unit each. */
void ak_list_units_each(struct ak_lister *l, int kind, bool (*fit)(const struct ak_state *s, int u));

/* The shared listers, one per kind (the table's entries). */
void ak_list_placements(struct ak_lister *l);
void ak_list_embarks(struct ak_lister *l);
void ak_list_battles(struct ak_lister *l);
void ak_list_abandons(struct ak_lister *l);
void ak_list_resolutions(struct ak_lister *l);
void ak_list_exchanges(struct ak_lister *l);
void ak_list_advances(struct ak_lister *l);
void ak_list_destroy_supply(struct ak_lister *l);
void ak_list_end(struct ak_lister *l, int kind);
void ak_list_end_movement(struct ak_lister *l);
void ak_list_end_phase(struct ak_lister *l);
void ak_list_end_turn(struct ak_lister *l);

#endif
