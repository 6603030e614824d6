/* ak_data: the game's fixed facts (map, counters, campaign, combat table).
 *
 * The facts live in text files under common/data/ that the build embeds in
 * the library (tools/embed). ak_data() parses them once, on first use, into
 * the read-only tables below; every other part of the engine reads the game
 * through these tables and never through the text. Parsing a string in
 * memory keeps the library free of file I/O.
 */
#ifndef AK_DATA_H
#define AK_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "ak_hex.h"
#include "ak_hexset.h"

enum ak_terrain {
    AK_TERRAIN_OFFBOARD = 0,    /* no printed coordinate: never enterable */
    AK_TERRAIN_CLEAR,
    AK_TERRAIN_ESCARPMENT,
    AK_TERRAIN_QATTARA_PARTIAL, /* plays as clear terrain */
    AK_TERRAIN_QATTARA,
    AK_TERRAIN_SEA,
    AK_TERRAIN_FORTRESS,
    AK_TERRAIN_HOMEBASE,
};

enum ak_side { AK_AXIS = 0, AK_ALLIED = 1, AK_SIDES = 2, AK_NOBODY = 3 };

enum ak_unit_type {
    AK_TYPE_ARMOR, AK_TYPE_ARMORED_INFANTRY, AK_TYPE_INFANTRY, AK_TYPE_RECCE,
    AK_TYPE_SUPPLY, AK_TYPE_HEADQUARTERS,
};

#define AK_UNIT_MAX 128
#define AK_UNIT_NONE 0xff
#define AK_TURNS_MAX 38
#define AK_SETUP_MAX 64
#define AK_JUNCTION_MAX 4

/* Hexside bits, one per direction, in ak_map.road / ak_map.blocked. */
struct ak_map {
    uint8_t terrain[AK_HEX_COUNT];
    uint8_t road[AK_HEX_COUNT];     /* bit d: the Coast Road crosses side d */
    uint8_t blocked[AK_HEX_COUNT];  /* bit d: water or Qattara hexside */
    int hexes, road_sides, water_sides, qattara_sides;
    ak_hex homebase[AK_SIDES];      /* W3, J62 */
    ak_hex tobruch, bengasi;        /* G25, H2 */
    struct { ak_hex a, b, c; } junction[AK_JUNCTION_MAX];
    int junctions;
    uint8_t is_junction[AK_HEX_COUNT];  /* the middle square of a junction */
    uint8_t open[AK_HEX_COUNT];         /* bit d: the neighbour in direction d can be
                                           entered from here (playable, no blocked side) */
    struct ak_hexset open_to[AK_DIRS];  /* the same as sets: the squares with side d open */
    struct ak_hexset playable;          /* every square a unit may stand on */
    struct { ak_hex hex; char text[40]; } name[16];
    int names;
};

struct ak_unit_def {
    char shortname[16];             /* what a player types: 21pz5, ariete */
    char counter[32];               /* the printed counter text */
    char nationality[24];
    uint8_t side, type;
    uint8_t attack, defense, movement;
    bool substitute, captured_counter;
    uint8_t arrival_turn;           /* 0: on board at the start or a counter pool */
};

struct ak_scenario {
    int turns;
    char date[AK_TURNS_MAX + 1][20];        /* date[1] = "1 April 1941" */
    int setups;
    struct { uint8_t unit; ak_hex hex; } setup[AK_SETUP_MAX];
    int supply_max[AK_SIDES];
    int supply_per_turn[AK_SIDES];          /* Allied: 1; Axis: by the roll */
    uint8_t sunk[AK_TURNS_MAX + 1];         /* per turn: bit r set if roll r is SUNK */
    int replace_from;
    int replace_rate[AK_SIDES][2];          /* [side][0 home base, 1 Tobruch] */
    int substitute_from;
};

#define AK_CRT_COLUMNS 11
enum ak_crt_result { AK_CRT_AE, AK_CRT_AB2, AK_CRT_EX, AK_CRT_DB2, AK_CRT_DE };
/* "AE", "AB2", "EX", "DB2", "DE"; "" for anything else. */
const char *ak_crt_result_name(int result);
struct ak_crt {
    char column[AK_CRT_COLUMNS][6];         /* "1-6" .. "6-1" */
    uint8_t result[6][AK_CRT_COLUMNS];      /* [roll-1][column] */
};

/* The Updated ruleset's calendar (updated-1941.txt), by turn of the
 * campaign. */
#define AK_ENTRY_MAX 4     /* entry squares a side (the Updated data file) */

struct ak_updated_calendar {
    bool month_start[AK_TURNS_MAX + 1];     /* the first turn of a month */
    uint8_t points[AK_TURNS_MAX + 1][AK_SIDES][2];  /* replacement points added: [infantry, armor] */
    int convoy_drm_first, convoy_drm_last;  /* turns whose Axis convoy roll may get +1 */
    ak_hex entry[AK_SIDES][AK_ENTRY_MAX];   /* where the road leaves the map to the side's box */
    int nentries[AK_SIDES];
};

struct ak_data {
    struct ak_map map;
    struct ak_unit_def unit[AK_UNIT_MAX];
    int units;
    struct ak_scenario scenario;
    struct ak_crt crt;
    struct ak_updated_calendar updated;
};

/* The parsed game data. Aborts with a message if the embedded data is
 * malformed: that is a build defect, caught by the data tests. */
const struct ak_data *ak_data_load(void);
extern const struct ak_data *ak_data_loaded;
static inline const struct ak_data *ak_data(void)
{
    return ak_data_loaded ? ak_data_loaded : ak_data_load();
}

/* Unit lookup by short name or unique prefix of one (case-insensitive).
 * Returns the unit index, AK_UNIT_NONE if unknown, or -2 if ambiguous. */
int ak_unit_find(const struct ak_data *d, const char *name);

static inline bool ak_unit_is_combat(const struct ak_unit_def *u)
{
    return u->type != AK_TYPE_SUPPLY && u->type != AK_TYPE_HEADQUARTERS;
}

const char *ak_side_name(int side);      /* "Axis", "Allied" */
/* A counter's steps (the Updated variant's NEW COMBAT SYSTEM 5: one for
 * an attack factor of 2 or less, else two) and a reduced factor (halved,
 * rounding up): facts of the counter, read by the state's checks and the
 * variant's losses. */
int ak_steps_of(int attack);
int ak_reduced_factor(int factor);
int ak_side_parse(const char *text);     /* "axis"/"german", "allied"; -1 */
const char *ak_terrain_name(int terrain);
const char *ak_type_name(int type);

/* Parsers, one per data file (ak_map.c, ak_units.c, ak_scenario.c,
 * ak_crt.c); each returns NULL or a message naming the bad line. */
struct ak_lines;
const char *ak_map_parse(struct ak_map *m, const char *text, char *err, int errlen);
const char *ak_units_parse(struct ak_data *d, const char *text, char *err, int errlen);
const char *ak_scenario_parse(struct ak_data *d, const char *text, char *err, int errlen);
const char *ak_crt_parse(struct ak_crt *c, const char *text, char *err, int errlen);
/* After the scenario: its turns give the months. */
const char *ak_updated_calendar_parse(struct ak_data *d, const char *text, char *err, int errlen);

/* Line tokenizer shared by the parsers: splits text into lines and words. */
#define AK_WORDS_MAX 40
struct ak_tokens {
    const char *rest;       /* text after this line */
    int line;
    int n;
    char buf[512];
    char *word[AK_WORDS_MAX];
    char *tail;             /* text after a '|' on the line, trimmed, or NULL */
};
void ak_tokens_init(struct ak_tokens *t, const char *text);
/* Next non-empty, non-comment line; false at the end of the text. */
bool ak_tokens_next(struct ak_tokens *t);

#endif
