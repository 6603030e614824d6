/* ak_odds: the exact chances of the battles the mover has declared and not
 * yet fought (issue 32, "exact battle probabilities").
 *
 * For each battle, every face of the game's die (6, or 36 for a two-dice
 * table) is fought on a copy of the state by the engine itself, with the
 * die loaded to that face (ak_apply, so every rule that decides what a
 * result does is the one the game will use: retreats with no route,
 * FORTRESSES 5, exchanges, Updated losses and retreats). The decisions a
 * result leaves to a player are answered on the copy as that player would
 * to keep the most of his units (the route or the losses that leave most
 * units on board); an advance after combat is never taken. What each face
 * did is then counted: the defenders eliminated, each defended square left
 * empty of its defenders (open to an advance: "taken"), an attacking unit
 * lost or reduced, every attacker eliminated.
 *
 * The dice of different battles are independent, so the joint chances are
 * products, exact as fractions of the faces. Each battle is judged as if it
 * were fought next, from the position now: an earlier battle's advance can
 * close a retreat route, and its losses can open one, which these figures
 * do not follow (docs/rules-notes.md, "Battle odds"). A query: the state is
 * never touched; one work area, not reentrant, like the engine's others.
 */
#ifndef AK_ODDS_H
#define AK_ODDS_H

#include <stddef.h>
#include <stdint.h>

#include "ak_rules.h"

/* A chance, exact when den > 0 (num/den, reduced); p always. */
struct ak_chance {
    uint64_t num, den;
    double p;
};

struct ak_odds_battle {
    int battle;                 /* index from 0 */
    bool fightable;             /* the engine would resolve it now */
    char why[264];              /* else the refusal, in words */
    struct ak_battle_preview preview;   /* the results, face by face (declared_preview) */
    int faces;
    int eliminated;             /* faces on which every defender is eliminated */
    int vacated;                /* faces on which every defended square is left empty */
    int attackers_hit;          /* faces on which an attacking unit is eliminated or reduced */
    int attackers_eliminated;   /* faces on which every attacker is eliminated */
    int nhex;
    ak_hex hex[AK_BATTLE_HEXES];
    int hex_vacated[AK_BATTLE_HEXES];   /* faces on which that square is left empty */
};

struct ak_odds_square {
    ak_hex hex;
    struct ak_chance taken;     /* left empty by every battle fought on it */
};

#define AK_ODDS_SQUARES (AK_BATTLE_MAX * 2)

struct ak_odds {
    int nbattles;               /* declared and not fought */
    int fightable;              /* of those, the ones the joint chances cover */
    struct ak_odds_battle battle[AK_BATTLE_MAX];
    int nsquares;
    struct ak_odds_square square[AK_ODDS_SQUARES];
    struct ak_chance all_eliminated;    /* every battle eliminates its defenders */
    struct ak_chance all_taken;         /* every defended square left empty */
    struct ak_chance none_lost;         /* no attacking unit lost or reduced */
    int resolutions;            /* battles fought on copies: the work done */
};

/* Fill *out for the state's unfought battles; returns their count. At most
 * max_resolutions faces are fought, and at most AK_ODDS_APPLIES_PER_FACE
 * times as many engine applications made in all (the resolutions and the
 * decisions after them; 0: no limit); a battle that would exceed either
 * is left out as not fightable ("too many battles to work out at once"). */
#define AK_ODDS_APPLIES_PER_FACE 8
int ak_battle_odds(const struct ak_state *s, int max_resolutions, struct ak_odds *out);

/* "1 in 3", "2/3 (66.7%)": the chance in words, into buf. */
const char *ak_chance_words(const struct ak_chance *c, char *buf, size_t size);

#endif
