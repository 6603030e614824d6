/* ak_scenario_lib: the interpreter of rules scenarios (format in
 * tests/scenarios/README.md), apart from ak-scenario's main so that the
 * same code runs a file for ak-scenario and a buffer for
 * fuzz/fuzz_scenario.c. Every action goes through ak_apply, the door akd
 * uses; every line that changes the position is checked with
 * ak_state_check like any other loader's input.
 */
#include "ak_scenario_lib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_engine.h"
#include "ak_hazards.h"
#include "ak_move.h"
#include "ak_odds.h"
#include "ak_updated.h"

extern const char ak_test_crt_txt[];
#include "ak_notation.h"
#include "ak_victory.h"

int ak_scenario_passed, ak_scenario_failed;
FILE *ak_scenario_out;
unsigned long ak_scenario_dice_seeds = 10000000;
static const char *file;
static int line;

/* The campaign's opening for a ruleset and dice seed, as ak_state_init
 * makes it. Every scenario begins with one and most `setup` lines ask
 * again for the same, so the last one of each ruleset is kept: making it
 * traces every unit's supply, a tenth of fuzz_scenario's time when it was
 * made afresh each time. */
static void opening_state(struct ak_state *s, int ruleset, uint64_t seed)
{
    enum { KEPT = 4 };
    static struct {
        bool made;
        uint64_t seed;
        struct ak_state s;
    } kept[KEPT];
    if (ruleset < 0 || ruleset >= KEPT) {
        ak_state_init(s, ruleset, seed);
        return;
    }
    if (!kept[ruleset].made || kept[ruleset].seed != seed) {
        ak_state_init(&kept[ruleset].s, ruleset, seed);
        kept[ruleset].made = true;
        kept[ruleset].seed = seed;
    }
    *s = kept[ruleset].s;
}

static void result(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    FILE *out = ak_scenario_out;
    if (out) {
        fprintf(out, "%s %s:%d: ", ok ? "ok  " : "FAIL", file, line);
        vfprintf(out, fmt, ap);
        fputc('\n', out);
    }
    va_end(ap);
    ok ? ak_scenario_passed++ : ak_scenario_failed++;
}

struct run {
    struct ak_state s;
    struct ak_events ev;        /* events of the last accepted action */
    struct ak_reject rej;
    uint64_t hash_mark;
    int actor;                  /* who acts: a side, or -1 for the mover */
};

static int unit_arg(const char *w)
{
    int u = ak_unit_find(ak_data(), w);
    if (u < 0 || u == AK_UNIT_NONE) {
        result(false, "unknown or ambiguous unit '%s'", w);
        return -1;
    }
    return u;
}

static bool units_append(const char *w, struct ak_action *a)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", w);
    for (char *t = strtok(buf, ","); t && a->nunits < AK_GROUP_MAX; t = strtok(NULL, ",")) {
        int u = unit_arg(t);
        if (u < 0)
            return false;
        a->units[a->nunits++] = (uint8_t)u;
    }
    return a->nunits > 0;
}

static bool units_list(const char *w, struct ak_action *a)
{
    a->nunits = 0;
    return units_append(w, a);
}

static bool path_list(const char *w, struct ak_action *a)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", w);
    for (char *t = strtok(buf, ","); t && a->npath < AK_PATH_MAX; t = strtok(NULL, ","))
        if ((a->path[a->npath++] = ak_hex_parse(t)) == AK_HEX_NONE)
            return false;
    return a->npath > 0;
}

/* The combat verbs: battle, cancel, resolve, abandon, exchange, retreat,
 * advance, substitute. */
static bool parse_combat_action(char **w, int n, struct ak_action *a)
{
    if ((n == 3 || n == 4) && strcmp(w[0], "battle") == 0) {
        a->kind = AK_ACT_BATTLE;
        int sup = n == 4 ? ak_unit_find(ak_data(), w[3]) : AK_UNIT_NONE;
        a->supply = (uint8_t)(sup < 0 ? AK_UNIT_NONE : sup);
        return units_list(w[1], a) && units_append(w[2], a);
    }
    if (n == 2 && (strcmp(w[0], "cancel") == 0 || strcmp(w[0], "resolve") == 0)) {
        a->kind = w[0][0] == 'c' ? AK_ACT_CANCEL : AK_ACT_RESOLVE;
        a->battle = (uint8_t)(atoi(w[1]) - 1);
        return atoi(w[1]) >= 1;
    }
    if (n == 2 && (strcmp(w[0], "abandon") == 0 || strcmp(w[0], "exchange") == 0)) {
        a->kind = w[0][0] == 'a' ? AK_ACT_ABANDON : AK_ACT_EXCHANGE;
        return units_list(w[1], a);
    }
    if (n == 3 && strcmp(w[0], "retreat") == 0) {
        a->kind = AK_ACT_RETREAT;
        return units_list(w[1], a) && path_list(w[2], a);
    }
    if ((n == 1 || n == 3) && strcmp(w[0], "advance") == 0) {
        a->kind = AK_ACT_ADVANCE;
        if (n == 1)
            return true;
        a->hex = ak_hex_parse(w[2]);
        return units_list(w[1], a) && a->hex != AK_HEX_NONE;
    }
    if (n == 3 && strcmp(w[0], "substitute") == 0) {
        a->kind = AK_ACT_SUBSTITUTE;
        return units_list(w[1], a) && units_append(w[2], a);
    }
    return false;
}

/* Build an action from words: the akc verbs. */
static bool parse_action(char **w, int n, int side, struct ak_action *a)
{
    memset(a, 0, sizeof *a);
    a->side = (uint8_t)side;
    a->hex = AK_HEX_NONE;
    a->supply = AK_UNIT_NONE;
    if (n >= 3 && strcmp(w[0], "move") == 0) {
        a->kind = AK_ACT_MOVE;
        if (!units_list(w[1], a))
            return false;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", w[2]);
        if (!strchr(buf, ',')) {
            a->hex = ak_hex_parse(buf);
            return a->hex != AK_HEX_NONE;
        }
        for (char *t = strtok(buf, ","); t && a->npath < AK_PATH_MAX; t = strtok(NULL, ","))
            a->path[a->npath++] = ak_hex_parse(t);
        return true;
    }
    if (n == 3 && strcmp(w[0], "place") == 0) {
        /* place UNIT HEX|box (the Updated ruleset's off-board box) */
        a->kind = AK_ACT_PLACE;
        a->hex = strcmp(w[2], "box") == 0 ? AK_HEX_NONE : ak_hex_parse(w[2]);
        return units_list(w[1], a) && (a->hex != AK_HEX_NONE || strcmp(w[2], "box") == 0);
    }
    if (n == 2 && (strcmp(w[0], "embark") == 0 || strcmp(w[0], "destroy") == 0)) {
        a->kind = w[0][0] == 'e' ? AK_ACT_EMBARK : AK_ACT_DESTROY_SUPPLY;
        return units_list(w[1], a);
    }
    if (n == 1 && strcmp(w[0], "end-movement") == 0)
        return (a->kind = AK_ACT_END_MOVEMENT), true;
    if (n == 3 && strcmp(w[0], "fortify") == 0) {
        /* fortify UNITS SUPPLY */
        struct ak_action su;
        if (!units_list(w[1], a) || !units_list(w[2], &su) || su.nunits != 1)
            return false;
        a->kind = AK_ACT_FORTIFY;
        a->supply = su.units[0];
        return true;
    }
    if (n == 3 && strcmp(w[0], "port-move") == 0) {
        /* port-move UNIT HEX|box */
        if (!units_list(w[1], a))
            return false;
        a->kind = AK_ACT_PORT_MOVE;
        a->hex = strcmp(w[2], "box") == 0 ? AK_HEX_NONE : ak_hex_parse(w[2]);
        return strcmp(w[2], "box") == 0 || a->hex != AK_HEX_NONE;
    }
    if (n == 2 && strcmp(w[0], "break-out") == 0)
        return (a->kind = AK_ACT_BREAK_OUT), (a->hex = ak_hex_parse(w[1])) != AK_HEX_NONE;
    if (n == 2 && strcmp(w[0], "rebuild") == 0)
        return (a->kind = AK_ACT_REBUILD), units_list(w[1], a);
    if (n == 2 && strcmp(w[0], "burn") == 0)
        return (a->kind = AK_ACT_BURN_SUPPLY), units_list(w[1], a);
    if (n == 2 && strcmp(w[0], "supply-attacks") == 0)
        return (a->kind = AK_ACT_SUPPLY_ATTACKS), units_list(w[1], a);
    if (n == 3 && strcmp(w[0], "losses") == 0) {
        /* losses REDUCED ELIMINATED, each a list or - */
        a->kind = AK_ACT_LOSSES;
        if (strcmp(w[1], "-") != 0 && !units_list(w[1], a))
            return false;
        a->nreduce = a->nunits;
        struct ak_action more;
        if (strcmp(w[2], "-") != 0) {
            if (!units_list(w[2], &more) || a->nunits + more.nunits > AK_GROUP_MAX)
                return false;
            memcpy(a->units + a->nunits, more.units, more.nunits);
            a->nunits = (uint8_t)(a->nunits + more.nunits);
        }
        return true;
    }
    if (n == 1 && strcmp(w[0], "end-phase") == 0)
        return (a->kind = AK_ACT_END_PHASE), true;
    if (n == 1 && strcmp(w[0], "end-turn") == 0)
        return (a->kind = AK_ACT_END_TURN), true;
    if (n == 1 && strcmp(w[0], "resign") == 0)
        return (a->kind = AK_ACT_RESIGN), true;
    return parse_combat_action(w, n, a);
}

/* dice R1 R2...: find generator state whose next rolls are these. */
static bool fix_dice(struct run *r, char **w, int n)
{
    for (uint64_t seed = 1; seed < ak_scenario_dice_seeds; seed++) {
        struct ak_rng g;
        ak_rng_seed(&g, seed);
        struct ak_rng keep = g;
        int i = 0;
        while (i < n && ak_rng_die(&g) == atoi(w[i]))
            i++;
        if (i == n) {
            r->s.rng = keep;
            return true;
        }
    }
    return false;
}

/* put UNIT HEX|pool|dead|withdrawn [fresh] | put UNIT sea FROM [TURN] |
 * put SUPPLY HEX captured. A unit already on the board keeps what it has
 * spent and its flags when it changes squares, unless `fresh`; one coming
 * onto the board starts fresh. */
static void put(struct run *r, int u, char **w, int n)
{
    const char *where = w[0];
    bool fresh = n >= 2 && strcmp(w[n - 1], "fresh") == 0;
    bool captured = n == 2 && strcmp(w[1], "captured") == 0;
    struct ak_unit *x = &r->s.unit[u];
    if (strcmp(where, "sea") == 0) {
        ak_hex from = n >= 2 ? ak_hex_parse(w[1]) : AK_HEX_NONE;
        if (!ak_hex_playable(from)) {
            result(false, "put %s sea FROM [TURN]: FROM is the square it sailed from", ak_def(u)->shortname);
            return;
        }
        *x = (struct ak_unit){0};
        x->where = AK_AT_SEA;
        x->hex = from;
        x->start_hex = AK_HEX_NONE;
        x->sea_turn = (uint8_t)(n >= 3 && strcmp(w[2], "fresh") != 0 ? atoi(w[2]) : r->s.turn);
        return;
    }
    static const char *const piles[] = {"pool", "dead", "withdrawn"};
    static const uint8_t pile_where[] = {AK_AT_POOL, AK_AT_DEAD, AK_AT_WITHDRAWN};
    for (int i = 0; i < 3; i++)
        if (strcmp(where, piles[i]) == 0) {
            *x = (struct ak_unit){0};
            x->where = pile_where[i];
            x->hex = x->start_hex = AK_HEX_NONE;
            return;
        }
    ak_hex h = ak_hex_parse(where);
    if (!ak_hex_playable(h)) {
        result(false, "put %s %s: not a square of the map a unit may stand on", ak_def(u)->shortname, where);
        return;
    }
    if (fresh || x->where != AK_AT_BOARD) {
        *x = (struct ak_unit){0};
        x->start_hex = h;
    }
    x->where = AK_AT_BOARD;
    x->hex = h;
    if (captured) {
        if (ak_def(u)->type != AK_TYPE_SUPPLY || ak_def(u)->captured_counter) {
            result(false, "put %s %s captured: only a supply unit is captured", ak_def(u)->shortname, where);
            return;
        }
        /* The captor's "captured" counter takes its place (CAPTURE 2). */
        ak_capture_supply(&r->s, u, !ak_def(u)->side, NULL);
    }
}

static bool has_event(const struct run *r, const char *name)
{
    for (int i = 0; i < r->ev.n; i++) {
        json_t *j = ak_event_to_json(&r->ev.ev[i]);
        bool match = strcmp(json_string_value(json_object_get(j, "event")), name) == 0;
        json_decref(j);
        if (match)
            return true;
    }
    return false;
}

static int side_arg(const char *w)
{
    int s = ak_side_parse(w);
    if (s < 0)
        result(false, "'%s' is not a side", w);
    return s;
}

static int phase_arg(const char *w)
{
    for (int p = 0; p < AK_PHASES; p++)
        if (strcmp(w, ak_phase_name(p)) == 0)
            return p;
    result(false, "'%s' is not a phase", w);
    return AK_PHASE_MOVEMENT;
}

static int pool_arg(const char *w)
{
    if (strcmp(w, "infantry") == 0 || strcmp(w, "armor") == 0)
        return w[0] == 'i' ? AK_POOL_INFANTRY : AK_POOL_ARMOR;
    result(false, "'%s' is not a pool (infantry, armor)", w);
    return -1;
}

/* The engine carries out some steps itself that a player of another
 * engine sends as actions: a retreat with a single route, Rommel placed
 * with the nearest unit (ROMMEL 2). A transcript may still list them: an
 * `ok` of such an action passes when the last accepted action's events
 * show the engine did exactly that (each unit to the square given). */
static bool done_by_engine(const struct run *r, const struct ak_action *a)
{
    int kind = a->kind == AK_ACT_RETREAT ? AK_EV_RETREATED
               : a->kind == AK_ACT_MOVE && a->nunits == 1 && ak_def(a->units[0])->type == AK_TYPE_HEADQUARTERS
                   ? AK_EV_ROMMEL_DISPLACED : -1;
    ak_hex to = a->npath > 0 ? a->path[a->npath - 1] : a->hex;
    if (kind < 0 || a->nunits == 0 || (kind == AK_EV_RETREATED && r->s.pending.kind == AK_PEND_RETREAT))
        return false;
    for (int i = 0; i < a->nunits; i++) {
        bool found = false;
        for (int k = 0; k < r->ev.n && !found; k++)
            found = r->ev.ev[k].kind == kind && r->ev.ev[k].unit == a->units[i] &&
                    (to == AK_HEX_NONE || r->ev.ev[k].to == to);
        if (!found)
            return false;
    }
    return true;
}

static void do_action(struct run *r, char **w, int n, const char *expect_code)
{
    struct ak_action a;
    int actor = r->actor >= 0 ? r->actor : r->actor == -2 ? ak_waiting_for(&r->s) : r->s.side;
    if (!parse_action(w, n, actor, &a)) {
        result(false, "cannot read the action");
        return;
    }
    if (!expect_code && done_by_engine(r, &a)) {
        result(true, "%s already carried out by the engine", w[0]);
        return;
    }
    struct ak_events ev = {0};
    bool ok = ak_apply(&r->s, &a, &ev, &r->rej);
    if (ok)
        r->ev = ev;
    /* AK_SCENARIO_VERBOSE=1 prints the events of every accepted action. */
    for (int i = 0; ok && getenv("AK_SCENARIO_VERBOSE") && i < ev.n; i++) {
        char text[200];
        ak_event_text(&ev.ev[i], text, sizeof text);
        printf("     %s\n", text);
    }
    if (!expect_code)
        result(ok, "%s accepted%s%s", w[0], ok ? "" : ": rejected ", ok ? "" : r->rej.code);
    else if (ok)
        result(false, "%s should be rejected with %s but was accepted", w[0], expect_code);
    else    /* `reject * ACTION`: rejected, whatever the rule */
        result(strcmp(expect_code, "*") == 0 || strcmp(r->rej.code, expect_code) == 0,
               "%s rejected with %s (%s: %s)", w[0], r->rej.code, r->rej.section, r->rej.text);
}

static const char *pending_name(int kind)
{
    static const char *const n[] = {"none", "retreat", "exchange", "advance", "losses"};
    return n[kind];
}

static bool expect_battle(struct run *r, char **w, int n)
{
    int b = n >= 3 ? atoi(w[1]) - 1 : -1;
    if (b < 0 || b >= r->s.nbattles) {
        result(false, "there is no battle %s", n >= 2 ? w[1] : "?");
        return true;
    }
    const struct ak_battle *t = &r->s.battle[b];
    static const char *const res[] = {"AE", "AB2", "EX", "DB2", "DE"};
    if (strcmp(w[0], "odds") == 0)
        result(strcmp(ak_odds_name(t->column), w[2]) == 0, "battle %s at %s (is %s, %d to %d)", w[1],
               w[2], ak_odds_name(t->column), t->attack, t->defense);
    else if (strcmp(w[0], "result") == 0)
        result(t->resolved && strcmp(res[t->result], w[2]) == 0, "battle %s result %s (is %s, roll %d)",
               w[1], w[2], t->resolved ? res[t->result] : "unresolved", t->roll);
    else
        result(t->supply != AK_UNIT_NONE && strcmp(ak_def(t->supply)->shortname, w[2]) == 0,
               "battle %s sustained by %s", w[1], w[2]);
    return true;
}

/* expect odds|result|supply N X, pending KIND [SIDE], waiting SIDE,
 * winner SIDE REASON, replacement SIDE N, isolated UNIT N, zoc-off UNIT */
/* expect hazard KIND [UNIT|SQUARE...] / expect no-hazard KIND: ak_hazards
 * lists a hazard of KIND (naming each unit or square given), or none. */
static void expect_hazard(struct run *r, char **w, int n, bool present)
{
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    int nh = ak_hazards(&r->s, hz, AK_HAZARDS_MAX);
    for (int i = 0; i < nh; i++) {
        if (strcmp(ak_hazard_kind_name(hz[i].kind), w[1]) != 0)
            continue;
        bool all = true;
        for (int k = 2; k < n && all; k++) {
            int u = ak_unit_find(ak_data(), w[k]);
            bool named = u >= 0 && u != AK_UNIT_NONE ? memchr(hz[i].units, u, hz[i].nunits) != NULL
                                : hz[i].hex != AK_HEX_NONE && hz[i].hex == ak_hex_parse(w[k]);
            all = named;
        }
        if (all) {
            result(present, "hazard %s%s: %s", w[1], present ? "" : " should not be listed", hz[i].text);
            return;
        }
    }
    result(!present, "no hazard %s%s", w[1], present ? " naming all given" : "");
}

/* expect hazard-says KIND WORDS...: a hazard of KIND whose text holds the
 * words, as written (the odds the warnings give, say). */
static void expect_hazard_says(struct run *r, char **w, int n)
{
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    char words[300] = "";
    for (int k = 2; k < n; k++) {
        size_t len = strlen(words);
        snprintf(words + len, sizeof words - len, "%s%s", k > 2 ? " " : "", w[k]);
    }
    int nh = ak_hazards(&r->s, hz, AK_HAZARDS_MAX);
    for (int i = 0; i < nh; i++)
        if (strcmp(ak_hazard_kind_name(hz[i].kind), w[1]) == 0 && strstr(hz[i].text, words)) {
            result(true, "hazard %s says \"%s\"", w[1], words);
            return;
        }
    for (int i = 0; i < nh; i++)
        if (strcmp(ak_hazard_kind_name(hz[i].kind), w[1]) == 0) {
            result(false, "hazard %s says \"%s\" (it says: %s)", w[1], words, hz[i].text);
            return;
        }
    result(false, "hazard %s says \"%s\" (no such hazard)", w[1], words);
}

/* expect chance WHAT... FRACTION: the exact chances of the declared
 * battles (ak_battle_odds), as worked by hand from the table: "battle N
 * eliminated|taken|hit|wiped", "square HEX", "all-eliminated",
 * "all-taken", "none-lost"; FRACTION is a/b, 0 or 1, compared reduced. */
static bool same_fraction(uint64_t num, uint64_t den, const char *want)
{
    unsigned long long a = 0, b = 1;
    if (sscanf(want, "%llu/%llu", &a, &b) < 1 || b == 0 || den == 0)
        return false;
    return (unsigned long long)num * b == a * (unsigned long long)den;
}

static void expect_chance(struct run *r, char **w, int n)
{
    static struct ak_odds o;
    ak_battle_odds(&r->s, 0, &o);
    const char *want = w[n - 1];
    uint64_t num = 0, den = 0;
    if (n == 5 && strcmp(w[1], "battle") == 0) {
        int b = atoi(w[2]) - 1;
        const struct ak_odds_battle *ob = NULL;
        for (int i = 0; i < o.nbattles; i++)
            if (o.battle[i].battle == b)
                ob = &o.battle[i];
        if (!ob || !ob->fightable) {
            result(false, "battle %s has chances (%s)", w[2], ob ? ob->why : "not declared, or fought");
            return;
        }
        den = (uint64_t)ob->faces;
        static const char *const what[] = {"eliminated", "taken", "hit", "wiped"};
        int k = 0;
        while (k < 4 && strcmp(w[3], what[k]) != 0)
            k++;
        if (k == 4) {
            result(false, "chance battle: %s is eliminated, taken, hit or wiped", w[3]);
            return;
        }
        num = (uint64_t)(k == 0 ? ob->eliminated : k == 1 ? ob->vacated : k == 2 ? ob->attackers_hit
                         : ob->attackers_eliminated);
    } else if (n == 4 && strcmp(w[1], "square") == 0) {
        ak_hex h = ak_hex_parse(w[2]);
        for (int i = 0; i < o.nsquares; i++)
            if (o.square[i].hex == h)
                num = o.square[i].taken.num, den = o.square[i].taken.den;
    } else if (n == 3 && (strcmp(w[1], "all-eliminated") == 0 || strcmp(w[1], "all-taken") == 0 ||
                          strcmp(w[1], "none-lost") == 0)) {
        const struct ak_chance *c = strcmp(w[1], "all-eliminated") == 0 ? &o.all_eliminated
                                  : strcmp(w[1], "all-taken") == 0 ? &o.all_taken : &o.none_lost;
        num = c->num, den = c->den;
    } else {
        result(false, "expect chance battle N WHAT F | square HEX F | all-eliminated|all-taken|none-lost F");
        return;
    }
    char what[96] = "";
    for (int k = 1; k < n - 1; k++) {
        size_t len = strlen(what);
        snprintf(what + len, sizeof what - len, "%s%s", k > 1 ? " " : "", w[k]);
    }
    result(same_fraction(num, den, want), "chance %s is %s (is %llu/%llu)", what, want, (unsigned long long)num,
           (unsigned long long)den);
}

static bool expect_combat(struct run *r, char **w, int n)
{
    if (n == 3 && (strcmp(w[0], "odds") == 0 || strcmp(w[0], "result") == 0 ||
                   strcmp(w[0], "supply") == 0))
        return expect_battle(r, w, n);
    if ((n == 2 || n == 3) && strcmp(w[0], "pending") == 0) {
        bool ok = strcmp(pending_name(r->s.pending.kind), w[1]) == 0 &&
                  (n == 2 || r->s.pending.side == ak_side_parse(w[2]));
        result(ok, "decision owed: %s (is %s by %s)", w[1], pending_name(r->s.pending.kind),
               ak_side_name(r->s.pending.side));
    } else if (n == 2 && strcmp(w[0], "waiting") == 0) {
        result(ak_waiting_for(&r->s) == ak_side_parse(w[1]), "the game waits for %s", w[1]);
    } else if (n == 3 && strcmp(w[0], "winner") == 0) {
        int want = ak_side_parse(w[1]) == AK_AXIS ? AK_RESULT_AXIS_WINS : AK_RESULT_ALLIED_WINS;
        result(r->s.phase == AK_PHASE_OVER && r->s.result == want &&
                   strcmp(ak_win_reason_name(r->s.result_reason), w[2]) == 0,
               "%s wins by %s (result %s, %s)", w[1], w[2], ak_result_name(r->s.result),
               ak_win_reason_name(r->s.result_reason));
    } else if (n == 3 && strcmp(w[0], "replacement") == 0) {
        int side = ak_side_parse(w[1]);
        result(side >= 0 && side < AK_SIDES && r->s.replacement[side] == atoi(w[2]),
               "%s holds %s replacement factors (%d)", w[1], w[2],
               side >= 0 && side < AK_SIDES ? r->s.replacement[side] : -1);
    } else if (n == 3 && strcmp(w[0], "isolated") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].isolated == atoi(w[2]), "%s isolated %s turns (%d)", w[1], w[2],
                   r->s.unit[u].isolated);
    } else if (n == 5 && strcmp(w[0], "figures") == 0) {
        /* expect figures N ATTACK DEFENSE DRM: battle N (from 1) as the
         * Updated ruleset counts it, strengths in half points */
        int b = atoi(w[1]) - 1;
        if (b < 0 || b >= r->s.nbattles) {
            result(false, "no battle %s", w[1]);
            return true;
        }
        const struct ak_battle *t = &r->s.battle[b];
        result(t->attack == atoi(w[2]) && t->defense == atoi(w[3]) && t->drm == atoi(w[4]),
               "battle %s: %s against %s half points, modifier %s (is %d, %d, %d)", w[1], w[2], w[3], w[4], t->attack,
               t->defense, t->drm);
    } else if (n == 3 && strcmp(w[0], "column") == 0) {
        int b = atoi(w[1]) - 1;
        const char *got = b >= 0 && b < r->s.nbattles ? ak_updated_odds_name(&r->s, r->s.battle[b].column) : "none";
        result(strcmp(got, w[2]) == 0, "battle %s is fought in the %s column (is %s)", w[1], w[2], got);
    } else if (n == 2 && strcmp(w[0], "need") == 0) {
        result(r->s.pending.need == atoi(w[1]), "the loss requirement is %s half points (is %d)", w[1], r->s.pending.need);
    } else if (n >= 3 && strcmp(w[0], "chance") == 0) {
        expect_chance(r, w, n);
    } else if (n >= 3 && strcmp(w[0], "hazard-says") == 0) {
        expect_hazard_says(r, w, n);
    } else if (n >= 2 && (strcmp(w[0], "hazard") == 0 || strcmp(w[0], "no-hazard") == 0)) {
        expect_hazard(r, w, n, w[0][0] == 'h');
    } else if (n == 2 && strcmp(w[0], "zoc-off") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].flags & AK_U_ZOC_OFF, "%s's zone of control is ignored", w[1]);
    } else {
        return false;
    }
    return true;
}

static void expect(struct run *r, char **w, int n)
{
    char b[8];
    if (n == 3 && strcmp(w[0], "at") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(ak_on_board(&r->s, u) && r->s.unit[u].hex == ak_hex_parse(w[2]),
                   "%s at %s (is %s %s)", w[1], w[2], ak_where_name(r->s.unit[u].where),
                   ak_hex_format(r->s.unit[u].hex, b));
    } else if (n == 3 && strcmp(w[0], "where") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(strcmp(ak_where_name(r->s.unit[u].where), w[2]) == 0, "%s is %s (is %s)", w[1], w[2],
                   ak_where_name(r->s.unit[u].where));
    } else if (n == 2 && strcmp(w[0], "event") == 0) {
        result(has_event(r, w[1]), "event %s", w[1]);
    } else if (n == 2 && strcmp(w[0], "no-event") == 0) {
        result(!has_event(r, w[1]), "no event %s", w[1]);
    } else if (n == 2 && strcmp(w[0], "side") == 0) {
        result(r->s.side == ak_side_parse(w[1]), "%s to act", w[1]);
    } else if (n == 2 && strcmp(w[0], "phase") == 0) {
        result(strcmp(ak_phase_name(r->s.phase), w[1]) == 0, "phase %s (is %s)", w[1], ak_phase_name(r->s.phase));
    } else if (n == 2 && strcmp(w[0], "turn") == 0) {
        result(r->s.turn == atoi(w[1]), "turn %s (is %d)", w[1], r->s.turn);
    } else if (n == 2 && strcmp(w[0], "halted") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].flags & AK_U_HALTED, "%s has stopped for the turn", w[1]);
    } else if (n == 3 && strcmp(w[0], "reach") == 0) {
        struct ak_action a;
        struct ak_dest d;
        if (units_list(w[1], &a))
            result(ak_move_route(&r->s, ak_def(a.units[0])->side, a.units, a.nunits, ak_hex_parse(w[2]), &d, &r->rej),
                   "%s can reach %s", w[1], w[2]);
    } else if (n == 4 && strcmp(w[0], "no-reach") == 0) {
        struct ak_action a;
        struct ak_dest d;
        if (units_list(w[1], &a)) {
            bool ok = !ak_move_route(&r->s, ak_def(a.units[0])->side, a.units, a.nunits, ak_hex_parse(w[2]), &d, &r->rej);
            result(ok && strcmp(r->rej.code, w[3]) == 0, "%s cannot reach %s: %s (%s)", w[1], w[2],
                   ok ? r->rej.code : "reachable", ok ? r->rej.text : "");
        }
    } else if (n == 4 && strcmp(w[0], "spent") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].mp_spent == atoi(w[2]) && r->s.unit[u].road_spent == atoi(w[3]),
                   "%s spent %s of its movement and %s of the road bonus (spent %d and %d)", w[1], w[2],
                   w[3], r->s.unit[u].mp_spent, r->s.unit[u].road_spent);
    } else if (n >= 3 && strcmp(w[0], "points") == 0) {
        /* expect points UNIT 6 1/3: movement points spent this turn */
        int u = unit_arg(w[1]);
        char want[32] = "", got[16];
        for (int i = 2; i < n; i++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i > 2 ? " " : "", w[i]);
        if (u >= 0) {
            ak_mp_format(r->s.unit[u].mp_spent + r->s.unit[u].rommel_spent, got, sizeof got);
            result(strcmp(want, got) == 0, "%s spent %s movement points (spent %s)", w[1], want, got);
        }
    } else if (n == 4 && strcmp(w[0], "pool") == 0) {
        int side = side_arg(w[1]), k = pool_arg(w[2]);
        if (side >= 0 && side < AK_SIDES && k >= 0)
            result(r->s.pool[side][k] == atoi(w[3]), "%s %s pool %s (is %d)", w[1], w[2], w[3], r->s.pool[side][k]);
    } else if (n == 2 && strcmp(w[0], "mech-moved") == 0) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].marks & AK_MARK_MECH_MOVED, "%s moved in the mechanized movement phase", w[1]);
    } else if (n == 2 && (strcmp(w[0], "box") == 0 || strcmp(w[0], "no-box") == 0)) {
        /* expect box HEX / expect no-box HEX: a hedgehog of either side */
        ak_hex h = ak_hex_parse(w[1]);
        bool there = ak_updated_box_at(&r->s, h, AK_AXIS) >= 0 || ak_updated_box_at(&r->s, h, AK_ALLIED) >= 0;
        result(there == (w[0][0] == 'b'), "%s a box at %s", w[0][0] == 'b' ? "there is" : "there is no", w[1]);
    } else if (n == 3 && strcmp(w[0], "mark") == 0) {
        /* expect mark UNIT none|oos|isolated: the supply phase's marks */
        int u = unit_arg(w[1]);
        int want = strcmp(w[2], "isolated") == 0 ? AK_MARK_OOS | AK_MARK_ISOLATED : strcmp(w[2], "oos") == 0 ? AK_MARK_OOS : 0;
        if (u >= 0)
            result((r->s.unit[u].marks & (AK_MARK_OOS | AK_MARK_ISOLATED)) == want, "%s is marked %s (marks %d)", w[1], w[2],
                   r->s.unit[u].marks);
    } else if (n == 2 && (strcmp(w[0], "oos") == 0 || strcmp(w[0], "in-supply") == 0)) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(!(r->s.unit[u].marks & AK_MARK_OOS) == (w[0][0] == 'i'), "%s is %s", w[1],
                   w[0][0] == 'i' ? "in supply" : "marked out of supply");
    } else if (n == 2 && (strcmp(w[0], "reduced") == 0 || strcmp(w[0], "full") == 0)) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            result(r->s.unit[u].reduced == (w[0][0] == 'r'), "%s is %s", w[1], w[0][0] == 'r' ? "reduced" : "at full strength");
    } else if (n == 2 && strcmp(w[0], "supply-due") == 0) {
        result(r->s.supply_due == atoi(w[1]), "supply due %s (is %d)", w[1], r->s.supply_due);
    } else if (!expect_combat(r, w, n)) {
        result(false, "unknown expectation '%s'", w[0]);
    }
}

/* set supply-roll R: this Axis turn's roll on the SUPPLY TABLE was R (as
 * if the dice had given it at the start of the turn), and what is due
 * follows from the table. 0: no roll. */
static void set_supply_roll(struct run *r, int roll)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    if (roll < 0 || roll > 6 || (roll > 0 && r->s.side != AK_AXIS)) {
        result(false, "set supply-roll %d: a die roll 1 to 6 on an Axis turn, or 0", roll);
        return;
    }
    r->s.supply_roll = (uint8_t)roll;
    r->s.supply_due = roll > 0 && !(sc->sunk[r->s.turn] & (1u << roll)) ? 1 : 0;
}

static void run_line(struct run *r, char **w, int n)
{
    if (strcmp(w[0], "scenario") == 0 || strcmp(w[0], "cites") == 0)
        return;
    if (strcmp(w[0], "setup") == 0 && n >= 2) {
        /* setup campaign|empty [SEED] [RULESET] */
        int ruleset = 0;
        uint64_t seed = 1;
        for (int i = 2; i < n; i++)
            if (ak_ruleset_find(w[i]) >= 0)
                ruleset = ak_ruleset_find(w[i]);
            else
                seed = strtoull(w[i], NULL, 10);
        opening_state(&r->s, ruleset, seed);    /* no table: each scenario names its own (crt test) */
        r->actor = -1;
        if (strcmp(w[1], "empty") == 0)
            for (int u = 0; u < r->s.units; u++)
                put(r, u, (char *[]){"pool"}, 1);
        r->ev.n = 0;
    } else if (strcmp(w[0], "put") == 0 && n >= 3 && n <= 5) {
        int u = unit_arg(w[1]);
        if (u >= 0)
            put(r, u, w + 2, n - 2);
    } else if (strcmp(w[0], "set") == 0 && n == 5 && strcmp(w[1], "pool") == 0) {
        int side = side_arg(w[2]), k = pool_arg(w[3]);
        if (side >= 0 && side < AK_SIDES && k >= 0)
            r->s.pool[side][k] = (uint8_t)atoi(w[4]);
    } else if (strcmp(w[0], "set") == 0 && n == 4 &&
               (strcmp(w[1], "replacement") == 0 || strcmp(w[1], "no-supply") == 0 || strcmp(w[1], "hold") == 0)) {
        int side = side_arg(w[2]);
        uint8_t *field = w[1][0] == 'r' ? r->s.replacement : w[1][0] == 'n' ? r->s.no_supply_turns : r->s.hold_turns;
        if (side >= 0 && side < AK_SIDES)
            field[side] = (uint8_t)atoi(w[3]);
    } else if (strcmp(w[0], "set") == 0 && (n == 3 || n == 4)) {
        if (strcmp(w[1], "turn") == 0)
            r->s.turn = (uint8_t)atoi(w[2]);
        else if (strcmp(w[1], "side") == 0)
            r->s.side = (uint8_t)side_arg(w[2]);
        else if (strcmp(w[1], "phase") == 0)
            r->s.phase = (uint8_t)phase_arg(w[2]);
        else if (strcmp(w[1], "supply-due") == 0 && n == 3)
            r->s.supply_due = (uint8_t)atoi(w[2]);
        else if (strcmp(w[1], "supply-roll") == 0 && n == 3)
            set_supply_roll(r, atoi(w[2]));
        else if (strcmp(w[1], "reduced") == 0 && n == 3 && unit_arg(w[2]) >= 0)
            r->s.unit[unit_arg(w[2])].reduced = 1;
        else if (strcmp(w[1], "oos") == 0 && n == 3 && unit_arg(w[2]) >= 0)
            r->s.unit[unit_arg(w[2])].marks |= AK_MARK_OOS;
        else if (strcmp(w[1], "supply-missed") == 0 && n == 3)
            r->s.flags = (uint8_t)(atoi(w[2]) ? r->s.flags | AK_SF_AXIS_SUPPLY_MISSED : r->s.flags & ~AK_SF_AXIS_SUPPLY_MISSED);
        else if (strcmp(w[1], "isolated") == 0 && n == 4 && unit_arg(w[2]) >= 0)
            r->s.unit[unit_arg(w[2])].isolated = (uint8_t)atoi(w[3]);
        else
            result(false, "unknown setting '%s'", w[1]);
    } else if (strcmp(w[0], "actor") == 0 && n == 2) {
        r->actor = strcmp(w[1], "mover") == 0 ? -1 : strcmp(w[1], "waiting") == 0 ? -2 : side_arg(w[1]);
    } else if (strcmp(w[0], "start-turn") == 0) {
        r->ev.n = 0;
        ak_ruleset_get(r->s.ruleset)->start_player_turn(&r->s, &r->ev);
    } else if (strcmp(w[0], "dice") == 0 && n >= 2) {
        if (!fix_dice(r, w + 1, n - 1))
            result(false, "cannot fix the dice");
    } else if (strcmp(w[0], "ok") == 0 && n >= 2) {
        do_action(r, w + 1, n - 1, NULL);
    } else if (strcmp(w[0], "reject") == 0 && n >= 3) {
        do_action(r, w + 2, n - 2, w[1]);
    } else if (strcmp(w[0], "expect") == 0 && n >= 2) {
        expect(r, w + 1, n - 1);
    } else if (strcmp(w[0], "crt") == 0 && n == 2) {
        /* crt test | none: the Updated ruleset's table (the one written for
         * testing, compiled in) or none at all */
        static struct ak_crt_table t;
        char err[200];
        if (strcmp(w[1], "none") == 0)
            ak_crt_attach(&r->s, NULL);
        else if (strcmp(w[1], "test") == 0 && !ak_crt_table_parse(&t, ak_test_crt_txt, err, sizeof err))
            ak_crt_attach(&r->s, &t);
        else
            result(false, "crt test|none");
    } else if (strcmp(w[0], "mark-hash") == 0) {
        r->hash_mark = ak_state_hash(&r->s);
    } else {
        result(false, "unknown directive '%s'", w[0]);
    }
}

static struct run last;

const struct ak_state *ak_scenario_state(void)
{
    return &last.s;
}

/* One line as fgets reads it into a 1,024-byte buffer: a longer line is
 * read as several. */
static void run_chunk(struct run *r, char *buf)
{
    line++;
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    char *w[32];
    int n = 0;
    for (char *t = strtok(buf, " \t\r\n"); t && n < 32; t = strtok(NULL, " \t\r\n"))
        w[n++] = t;
    if (n == 0)
        return;
    /* A line that sets the position up must leave a state the engine
     * can work on (ak_state_check), like every other loader's: a
     * `set turn 200` is refused here, not read out of bounds later. */
    struct ak_state before = r->s;
    char why[200];
    run_line(r, w, n);
    if (!ak_state_check(&r->s, why, sizeof why)) {
        result(false, "%s: the position is not valid: %s", w[0], why);
        r->s = before;
    }
}

void ak_scenario_run_text(const char *name, const char *text, size_t len)
{
    struct run *r = &last;
    memset(r, 0, sizeof *r);
    opening_state(&r->s, 0, 1);
    r->actor = -1;
    file = name;
    line = 0;
    char buf[1024];
    size_t at = 0;
    while (at < len) {
        size_t n = 0;
        while (n < sizeof buf - 1 && at < len) {
            char ch = text[at++];
            buf[n++] = ch;
            if (ch == '\n')
                break;
        }
        buf[n] = '\0';
        run_chunk(r, buf);
    }
}

int ak_scenario_run_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            char *more = realloc(text, cap = cap ? 2 * cap : 65536);
            if (!more) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(text);
                fclose(f);
                return -1;
            }
            text = more;
        }
        got = fread(text + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    ak_scenario_run_text(path, text, len);
    free(text);
    return 0;
}
