/* ak_battle: the figures combat rests on, as queries over a state.
 *
 * Odds (HOW TO HAVE COMBAT, rounded in the defender's favour), defense
 * doubling by terrain (DEFENDING 2), the zone of control that obliges a
 * battle, whether a defender is surrounded (AUTOMATIC VICTORY), the
 * five-square supply route (SUSTAIN ATTACKS 1) and supply lines of any
 * length (ISOLATION). ak_combat.c builds the combat actions on these;
 * ak_move.c and ak_turn.c ask them too. Nothing here changes a state.
 */
#ifndef AK_BATTLE_H
#define AK_BATTLE_H

#include "ak_rules.h"

#define AK_ODDS_TOO_LOW (-1)   /* worse than 1 to 6: not allowed */
#define AK_ODDS_AUTO 11        /* better than 6 to 1, or 5 to 1 surrounded */
#define AK_ODDS_FREE_MAX 3     /* column of 1-3: no supply needed at or below */
#define AK_SUPPLY_RANGE 5

/* The table column for attack against defense: 0 is 1-6, 5 is 1-1,
 * 10 is 6-1; AK_ODDS_TOO_LOW or AK_ODDS_AUTO outside the table. */
int ak_odds_column(int attack, int defense, bool surrounded);
/* "3-1", "1-6", "7-1" (automatic) for a column. */
const char *ak_odds_name(int column);
/* Unit u's defense factor where it stands: doubled on a fortress or an
 * escarpment (DEFENDING 2). */
int ak_defense_now(const struct ak_state *s, int u);
/* Enemy unit e obliges a battle from h: it is a combat unit on board whose
 * zone covers h. Automatic victory does not lift the obligation. */
bool ak_battle_zoc(const struct ak_state *s, int e, ak_hex h);
/* The same for every square a unit may stand on, at once: zone[h] = 1
 * where some enemy of side obliges a battle from h (one pass over the
 * units instead of one per square asked). */
void ak_battle_zone_map(const struct ak_state *s, int side, uint8_t *zone);
/* Every square next to h is closed to the side standing on h: blocked
 * hexside, no-go terrain, enemy units or enemy zone of control. */
bool ak_surrounded(const struct ak_state *s, ak_hex h, int side);
/* Supply unit sup (of side) is within AK_SUPPLY_RANGE squares of h by a
 * route free of enemy zones of control, the zones of the units in
 * `ignore` excepted (the defenders of the battle it sustains). */
bool ak_supply_reaches(const struct ak_state *s, int sup, ak_hex h, const uint8_t *ignore,
                       int nignore);
/* from[hex] = 1 where a supply unit of side would reach h (the squares
 * ak_supply_reaches accepts for it), 0 elsewhere. */
void ak_supply_catchment(const struct ak_state *s, int side, ak_hex h, const uint8_t *ignore,
                         int nignore, uint8_t *from);
/* Some supply unit of side reaches h (see ak_supply_reaches). */
int ak_supply_near(const struct ak_state *s, int side, ak_hex h, const uint8_t *ignore,
                   int nignore);
/* fill line[hex] with 1 where a unit of side has a supply line, a chain
 * of squares free of enemy zones to one of its supply units (the 1964
 * sense of being in supply: the overlay, SUSTAIN ATTACKS; isolation asks
 * ak_isolation_map). */
void ak_supply_lines(const struct ak_state *s, int side, uint8_t *line);
/* ISOLATION, read as encircled (docs/rules-notes.md): fill open[hex] with
 * 1 where a unit of side is not isolated, a chain of squares free of enemy
 * zones leading to one of its supply units or to its home base. */
void ak_isolation_map(const struct ak_state *s, int side, uint8_t *open);
/* Unit u is isolated: on the board and not marked in open (from
 * ak_isolation_map for its side): its pocket holds no supply unit of its
 * side and does not reach its home base. */
bool ak_isolated(const struct ak_state *s, int u, const uint8_t *open);
/* The units of declared battle b (from 0), the mover's (attackers) and the
 * others (defenders) apart, at most AK_GROUP_MAX of each. */
void ak_battle_sides(const struct ak_state *s, int b, uint8_t *att, int *na, uint8_t *def, int *nd);

#endif
