/* ak_updated: the parts of the Updated Afrika Korps ruleset (seed 003)
 * that its table (ak_rules_updated.c) points at: the sequence of play
 * (ak_updated_turn.c) and the supply phase (ak_updated_supply.c).
 * Movement by points is ak_move_points.c. */
#ifndef AK_UPDATED_H
#define AK_UPDATED_H

#include "ak_crt_table.h"
#include "ak_engine.h"
#include "ak_rules.h"

/* A battle's figures, in half points (out of supply halves exactly). */
struct ak_updated_figures {
    int attack2, defense2;          /* as they fight; defense with the terrain's +1s */
    int attack_loss, defense_loss;  /* factors losses are counted in (fortress infantry doubled) */
    int armor_attack2, armor_defense2;
    int terrain;                    /* escarpment squares defended */
    int armor_drm, drm;             /* armor advantage alone; with bombardment */
    int column;                     /* of the loaded table, -1 below its first or without one */
};
void ak_updated_figures(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                        bool bombard, struct ak_updated_figures *f);
/* Unit u's printed factor on its present side (reduced: halved, up). */
int ak_updated_step_factor(const struct ak_state *s, int u, bool attacking);
/* The mover's combat units on h (an isolated square), n of them. */
int ak_updated_isolated_stack(const struct ak_state *s, ak_hex h, uint8_t *out);
/* ISOLATION ATTRITION from the square after `after` (-1: the first): the
 * rolls, break-outs and losses; a loss owed stops it (pending), and when
 * every square is done the replacement phase begins. */
void ak_updated_attrition(struct ak_state *s, ak_hex after, struct ak_events *ev);
/* An enemy combat unit of the mover stands next to h: the attrition
 * roll's -1 (ISOLATION ATTRITION 2), for the roll and its warning alike. */
bool ak_updated_enemy_adjacent(const struct ak_state *s, ak_hex h);
bool ak_updated_break_out(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej);
void ak_updated_begin_phase(struct ak_state *s, int phase, struct ak_events *ev);
/* Unit u's factor as losses count it: its step, doubled for infantry in
 * a fortress defending. */
int ak_updated_loss_factor(const struct ak_state *s, int u, bool attacking);
int ak_updated_side_strength(const struct ak_state *s, int b, int side);
const struct ak_crt_effect *ak_updated_effect(const struct ak_state *s, int b);
/* "3-2" for a column of the loaded table. */
const char *ak_updated_odds_name(const struct ak_state *s, int column);
/* The ruleset's battle_preview (struct ak_battle_preview). */
void ak_updated_declared_preview(const struct ak_state *s, int b, struct ak_battle_preview *p);
void ak_updated_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                               int supply, struct ak_battle_preview *p);
/* "DL50%/DR2": the cell battle b was fought on, "" before. */
void ak_updated_result_name(const struct ak_state *s, int b, char *buf, int len);
/* The retreat stage of battle b: true when a decision is owed. */
bool ak_updated_retreat_step(struct ak_state *s, int b, struct ak_events *ev);
/* Losers of battle b start a retreat of n squares (no fortress offer);
 * with spare_fortress those in a fortress that paid to stay do not. */
bool ak_updated_start_retreat(struct ak_state *s, int b, int loser, int n, bool spare_fortress, struct ak_events *ev);
/* The advance stage: true when a decision is owed. */
bool ak_updated_advance_step(struct ak_state *s, int b, struct ak_events *ev);
void ak_updated_next_step(struct ak_state *s, int b, struct ak_events *ev);

void ak_updated_turn_start(struct ak_state *s, struct ak_events *ev);
unsigned ak_updated_possible_actions(const struct ak_state *s);
bool ak_updated_end_movement(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                             struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_end_phase(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej);
/* The supply phase begins: trace and mark the phasing units. */
void ak_updated_supply_phase(struct ak_state *s, struct ak_events *ev);
/* in[hex] = 1 where side's units would be in supply (SUPPLY PHASE 1-3).
 * Not reentrant (with the next): they keep the last trace with its
 * position, for the isolation map that follows a supply map. */
void ak_updated_supply_map(const struct ak_state *s, int side, uint8_t *in);
/* The ruleset's isolation_map: in supply, or a line of any length to a
 * supply unit, the port or the entry square (SUPPLY PHASE 4). */
void ak_updated_isolation_map(const struct ak_state *s, int side, uint8_t *open);
bool ak_updated_burn_supply(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                            struct ak_events *ev, struct ak_reject *rej);
/* TOBRUK CAPTURE: the first Axis garrison of Tobruch gets a captured
 * supply unit there; called after every action that moves units. */
void ak_updated_tobruch_taken(struct ak_state *s, struct ak_events *ev);
/* REINFORCEMENT PHASE: where the side's new units enter, and placing one. */
int ak_updated_entries(const struct ak_state *s, int side, ak_hex *out, int max);
bool ak_updated_place(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                      struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_supply_attacks(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                               struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_battle(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                       struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_resolve(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_losses(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                       struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_retreat(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_advance(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);
/* The pool a unit's replacement points come from (AK_POOL_*). */
int ak_updated_pool_of(int u);
/* MOVEMENT PHASE, PORTS 1: one unit between the box and Tobruch. */
bool ak_updated_port_move(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej);
/* REPLACEMENT PHASE: a reduced unit rebuilt where it stands. */
bool ak_updated_rebuild(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);
/* BOXES: the box of side at h (its index), or -1; fortifying; boxes the
 * side's units entered on these squares go; empty ones of the mover go in
 * its supply phase. */
int ak_updated_box_at(const struct ak_state *s, ak_hex h, int side);
bool ak_updated_fortify(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);
void ak_updated_boxes_entered(struct ak_state *s, int side, const ak_hex *squares, int n, struct ak_events *ev);
void ak_updated_boxes_supply_phase(struct ak_state *s, struct ak_events *ev);
bool ak_updated_end_turn(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                         struct ak_events *ev, struct ak_reject *rej);

/* The ruleset's `hazards` (ak_hazards_updated.c; the list is
 * ak_hazards_internal.h's). */
struct ak_hz_list;
void ak_hazards_updated(struct ak_hz_list *l);

/* Movement points (ak_move_points.c): the class of unit u's costs
 * (struct ak_mp_costs), and twelfths of a point as a player reads them:
 * "6 1/3", "3 1/2", "0". */
int ak_move_class_of(int u);
char *ak_mp_format(int twelfths, char *buf, int len);

/* Listers of the Updated rules' own actions (ak_updated_list.c). */
struct ak_lister;
void ak_updated_list_retreats(struct ak_lister *l);
void ak_updated_list_losses(struct ak_lister *l);
void ak_updated_list_burns(struct ak_lister *l);
void ak_updated_list_supply_attacks(struct ak_lister *l);
void ak_updated_list_rebuilds(struct ak_lister *l);
void ak_updated_list_fortify(struct ak_lister *l);
void ak_updated_list_port_moves(struct ak_lister *l);
void ak_updated_list_break_outs(struct ak_lister *l);

#endif
