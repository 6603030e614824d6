/* ak_draw: the board in a terminal.
 *
 * The printed grid is drawn as in common/data/map.txt: one row per letter,
 * two columns per square, each row shifted so that squares with the same
 * number lie on one south-west to north-east diagonal. A square shows its
 * terrain, or the side and size of the stack on it (G3: three Axis units,
 * A2: two Allied), or a highlight (legal destinations, zones of control,
 * supply range). The stacks in view are listed under the map with each
 * unit's factors (reduced units halved, with an r; o out of supply, i
 * isolated: the Updated ruleset), then the units that must attack and
 * those isolated or out of supply. A
 * viewport keeps the map inside the terminal width. Plain ASCII, so it
 * needs no UTF-8; colour only when asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_client.h"
#include "ak_hazards.h"
#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_move.h"
#include "ak_zoc.h"
#include "ak_notation.h"
#include "ak_victory.h"

#define COL_OFFSET 24
#define MAP_COLS (2 * AK_NUMS + COL_OFFSET)
#define LABEL 3

static int hex_col(ak_hex h) { return 2 * ak_hex_num(h) - ak_hex_row(h) + COL_OFFSET; }

static const char *RED = "\033[1;37;41m", *BLUE = "\033[1;37;44m", *SEA = "\033[34m",
                  *ROAD = "\033[31m", *ESC = "\033[33m", *QAT = "\033[2;33m", *KEY = "\033[1m",
                  *MARK = "\033[1;32m", *RESET = "\033[0m";

static char terrain_glyph(ak_hex h, const char **color)
{
    const struct ak_map *m = ak_map();
    bool road = m->road[h] != 0;
    *color = NULL;
    switch (m->terrain[h]) {
    case AK_TERRAIN_CLEAR: *color = road ? ROAD : NULL; return road ? '=' : '.';
    case AK_TERRAIN_QATTARA_PARTIAL: return ',';
    case AK_TERRAIN_ESCARPMENT: *color = road ? ROAD : ESC; return road ? '#' : '^';
    case AK_TERRAIN_QATTARA: *color = QAT; return 'Q';
    case AK_TERRAIN_SEA: *color = SEA; return '~';
    case AK_TERRAIN_FORTRESS: *color = KEY; return 'F';
    case AK_TERRAIN_HOMEBASE: *color = KEY; return 'H';
    default: return ' ';
    }
}

static int stack_at(const struct ak_state *s, ak_hex h, int *side)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && s->unit[u].hex == h) {
            *side = ak_def(u)->side;
            n++;
        }
    return n;
}

static void draw_cell(FILE *out, const struct ak_state *s, ak_hex h, const struct ak_draw_opts *o)
{
    bool color = o->color;
    int side = 0, n = stack_at(s, h, &side);
    if (n > 0) {
        if (color)
            fputs(side == AK_AXIS ? RED : BLUE, out);
        fprintf(out, "%c%c", side == AK_AXIS ? 'G' : 'A', n > 9 ? '+' : '0' + n);
        if (color)
            fputs(RESET, out);
        return;
    }
    const char *c;
    char g = terrain_glyph(h, &c);
    if (o->mark && o->mark[h]) {
        g = (char)o->mark[h];
        c = MARK;
    }
    if (color && c)
        fprintf(out, "%s%c%s ", c, g, RESET);
    else
        fprintf(out, "%c ", g);
}

/* Numbers along the top (as read on row A) or bottom (row X) edge. */
static void draw_numbers(FILE *out, int row, int c0, int width)
{
    char line[MAP_COLS + 8];
    memset(line, ' ', sizeof line);
    int maxc = 0;
    for (int n = 1; n <= 69; n++) {
        if (n % 5 && n != 1)
            continue;
        int col = 2 * n - row + COL_OFFSET - c0;
        if (col < 0 || col + 2 > width)
            continue;
        int w = snprintf(line + LABEL + col, 4, "%d", n);
        line[LABEL + col + w] = ' ';
        if (LABEL + col + w > maxc)
            maxc = LABEL + col + w;
    }
    line[maxc] = '\0';
    fprintf(out, "%s\n", line);
}

static ak_hex auto_centre(const struct ak_state *s)
{
    long sum_r = 0, sum_n = 0, k = 0;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && ak_def(u)->side == s->side) {
            sum_r += ak_hex_row(s->unit[u].hex);
            sum_n += ak_hex_num(s->unit[u].hex);
            k++;
        }
    return k ? ak_hex_make((int)(sum_r / k), (int)(sum_n / k)) : ak_hex_parse("I33");
}

static void list_stacks(FILE *out, const struct ak_state *s, int c0, int width, int r0, int r1,
                        bool color)
{
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        int side = 0, n = stack_at(s, h, &side);
        int col = hex_col(h) - c0;
        if (n == 0 || col < 0 || col + 2 > width || ak_hex_row(h) < r0 || ak_hex_row(h) > r1)
            continue;
        char name[8];
        fprintf(out, "  %s%-4s%s %s:", color ? (side == AK_AXIS ? RED : BLUE) : "",
                ak_hex_format(h, name), color ? RESET : "", side == AK_AXIS ? "Axis  " : "Allied");
        int used = 15;     /* "  W6   Axis  :" */
        for (int u = 0; u < s->units; u++) {
            const struct ak_unit_def *d = ak_def(u);
            if (s->unit[u].where != AK_AT_BOARD || s->unit[u].hex != h)
                continue;
            char item[48];
            /* Updated ruleset: a reduced unit shows its halved factors
             * and an r; out of supply an o, isolated an i. */
            const struct ak_unit *x = &s->unit[u];
            int att = x->reduced ? ak_reduced_factor(d->attack) : d->attack;
            int def = x->reduced ? ak_reduced_factor(d->defense) : d->defense;
            int len = ak_unit_is_combat(d)
                          ? snprintf(item, sizeof item, " %s %d-%d-%d%s%s", d->shortname, att, def, d->movement,
                                     x->reduced ? "r" : "", (x->marks & AK_MARK_ISOLATED) ? "i"
                                                            : (x->marks & AK_MARK_OOS) ? "o" : "")
                          : snprintf(item, sizeof item, " %s", d->shortname);
            if (used + len > 79) {      /* wrap under the first unit */
                fputs("\n              ", out);
                used = 14;
            }
            fputs(item, out);
            used += len;
        }
        fputc('\n', out);
    }
}

/* Units that must attack this turn, and units isolated. */
static void list_flagged(FILE *out, const struct ak_state *s)
{
    uint8_t owed[AK_UNIT_MAX];
    /* only the 1964 rules oblige attacks (the Updated ones make them voluntary) */
    int n = s->phase == AK_PHASE_COMBAT && ak_ruleset_get(s->ruleset)->attacks_obligatory
                ? ak_combat_owed(s, owed, AK_UNIT_MAX) : 0;
    if (n > 0) {
        fprintf(out, "  Must attack:");
        for (int i = 0; i < n && i < AK_UNIT_MAX; i++)
            fprintf(out, " %s", ak_def(owed[i])->shortname);
        fputc('\n', out);
    }
    bool any = false;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].isolated) {
            fprintf(out, "%s %s (%d of 2)", any ? "," : "  Isolated:", ak_def(u)->shortname,
                    s->unit[u].isolated);
            any = true;
        }
    if (any)
        fputc('\n', out);
    /* Updated ruleset: boxes, and the marks of the last supply phase. */
    for (int i = 0; i < s->nboxes; i++) {
        char h[8];
        fprintf(out, "%s %s (%s)", i ? "," : "  Boxes:", ak_hex_format(s->box[i].hex, h), ak_side_name(s->box[i].side));
    }
    if (s->nboxes)
        fputc('\n', out);
    static const struct { int mark; const char *title; } marks[] = {
        {AK_MARK_ISOLATED, "Isolated"}, {AK_MARK_OOS, "Out of supply"}};
    for (int m = 0; m < 2; m++) {
        any = false;
        for (int u = 0; u < s->units; u++)
            if (ak_on_board(s, u) && (s->unit[u].marks & marks[m].mark) &&
                (m == 0 || !(s->unit[u].marks & AK_MARK_ISOLATED))) {
                fprintf(out, "%s %s", any ? "," : m == 0 ? "  Isolated:" : "  Out of supply:", ak_def(u)->shortname);
                any = true;
            }
        if (any)
            fputc('\n', out);
    }
}

/* Off the board, by side: reinforcements due now, units at sea (by name),
 * the dead pile (by name). */
static void list_off_board(FILE *out, const struct ak_state *s)
{
    for (int side = 0; side < AK_SIDES; side++) {
        int due = 0;
        char sea[400] = "", dead[400] = "";
        size_t ns = 0, nd = 0;
        for (int u = 0; u < s->units; u++) {
            const struct ak_unit_def *d = ak_def(u);
            if (d->side != side)
                continue;
            if (s->unit[u].where == AK_AT_SEA && ns < sizeof sea - 20)
                ns += (size_t)snprintf(sea + ns, sizeof sea - ns, " %s", d->shortname);
            if (s->unit[u].where == AK_AT_DEAD && nd < sizeof dead - 20)
                nd += (size_t)snprintf(dead + nd, sizeof dead - nd, " %s", d->shortname);
            due += s->unit[u].where == AK_AT_POOL && d->arrival_turn && d->arrival_turn <= s->turn;
        }
        fprintf(out, "  %s: %d reinforcement(s) due; at sea:%s; dead:%s\n", ak_side_name(side), due,
                ns ? sea : " none", nd ? dead : " none");
    }
}

void ak_draw_board(FILE *out, const struct ak_state *s, const struct ak_draw_opts *o)
{
    int width = o->wide ? MAP_COLS : o->width - LABEL;
    if (width > MAP_COLS)
        width = MAP_COLS;
    /* --radius N: N squares each way (two columns per square, and the rows
     * lean by one column each). */
    if (o->radius > 0 && width > 6 * o->radius + 4)
        width = 6 * o->radius + 4;
    if (width < 20)
        width = 20;
    width &= ~1;
    ak_hex centre = o->at != AK_HEX_NONE ? o->at : auto_centre(s);
    int c0 = hex_col(centre) - width / 2;
    if (c0 + width > MAP_COLS)
        c0 = MAP_COLS - width;
    if (c0 < 0)
        c0 = 0;
    c0 &= ~1;
    char over[80];
    if (s->phase == AK_PHASE_OVER)
        fprintf(out, "Turn %d, %s: the game is over (%s)", s->turn, ak_data()->scenario.date[s->turn],
                ak_draw_result(s, over, sizeof over));
    else
        fprintf(out, "Turn %d, %s: %s %s portion", s->turn, ak_data()->scenario.date[s->turn],
                ak_side_name(s->side), ak_phase_name(s->phase));
    if (s->side == AK_AXIS && s->supply_roll)
        fprintf(out, "; supply roll %d%s", s->supply_roll, s->supply_due ? ", one supply unit due" : "");
    fputc('\n', out);
    /* A short terminal shows the rows around the centre (and a one-line
     * legend); at least eight rows. */
    int r0 = 0, r1 = AK_ROWS - 1;
    int rows = o->height > 0 && o->height < AK_ROWS + 16 ? (o->height - 14 > 8 ? o->height - 14 : 8) : AK_ROWS;
    if (o->radius > 0 && 2 * o->radius + 1 < rows)
        rows = 2 * o->radius + 1;
    if (rows < AK_ROWS) {
        r0 = ak_hex_row(centre) - rows / 2;
        r0 = r0 < 0 ? 0 : r0 + rows > AK_ROWS ? AK_ROWS - rows : r0;
        r1 = r0 + rows - 1;
    }
    draw_numbers(out, r0, c0, width);
    for (int r = r0; r <= r1; r++) {
        fprintf(out, "%c  ", 'A' + r);
        int col = 0;
        for (int n = 0; n < AK_NUMS; n++) {
            ak_hex h = ak_hex_make(r, n);
            int c = hex_col(h) - c0;
            if (c < 0 || c + 2 > width || ak_map()->terrain[h] == AK_TERRAIN_OFFBOARD)
                continue;
            for (; col < c; col++)
                fputc(' ', out);
            draw_cell(out, s, h, o);
            col += 2;
        }
        fputc('\n', out);
    }
    draw_numbers(out, r1, c0, width);
    if (r1 - r0 + 1 < AK_ROWS)
        fprintf(out, "  . clear = road ^ escarpment # both ~ sea F fort H base Q Qattara G/A stacks\n");
    else
        fprintf(out, "  . clear  = Coast Road  ^ escarpment  # escarpment on the road  ~ sea\n"
                     "  F fortress  H home base  , partial Qattara (clear)  Q Qattara Depression\n"
                     "  G3/A2: an Axis stack of 3 units, an Allied stack of 2 units\n"
                     "  Numbers run along the SW-NE diagonals (Agheila W6, Tobruch G25).\n");
    if (o->legend)
        fprintf(out, "  %s\n", o->legend);
    list_stacks(out, s, c0, width, r0, r1, o->color);
    list_off_board(out, s);
    list_flagged(out, s);
}

int ak_draw_mark_dests(const struct ak_state *s, const uint8_t *units, int n, uint8_t *mark)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    struct ak_reject rej;
    memset(mark, 0, AK_HEX_COUNT);
    int k = ak_move_destinations(s, ak_def(units[0])->side, units, n, dest, AK_HEX_COUNT, &rej);
    for (int i = 0; i < k; i++)
        mark[dest[i].hex] = dest[i].halts ? '+' : '*';
    return k;
}

void ak_draw_mark_zoc(const struct ak_state *s, int side, uint8_t *mark)
{
    memset(mark, 0, AK_HEX_COUNT);
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (ak_enterable(h) && ak_in_enemy_zoc(s, h, side))
            mark[h] = 'z';
}

void ak_draw_mark_supply(const struct ak_state *s, int side, uint8_t *mark)
{
    memset(mark, 0, AK_HEX_COUNT);
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        bool near = false;
        for (int u = 0; u < s->units && !near; u++)
            near = ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u) &&
                   ak_hex_distance(s->unit[u].hex, h) <= AK_SUPPLY_RANGE && ak_enterable(h) &&
                   ak_supply_reaches(s, u, h, NULL, 0);
        if (near)
            mark[h] = 's';
    }
}

/* One battle: "Battle 1: 7arm7 (P35) against trenta (P36), 3 to 3 at 1-1,
 * supply asup1 - rolled 1: DE". */
static void draw_battle(FILE *out, const struct ak_state *s, int b)
{
    static const char *const results[] = {"attacker eliminated", "attacker back 2", "exchange",
                                          "defender back 2", "defender eliminated"};
    const struct ak_battle *t = &s->battle[b];
    char h[8];
    fprintf(out, "  Battle %d:", b + 1);
    for (int side = 0; side < AK_SIDES; side++) {
        int attacker = side == 0 ? s->side : !s->side;
        fprintf(out, "%s", side ? " against" : "");
        for (int u = 0; u < s->units; u++)
            if (s->unit[u].battle == b + 1 && ak_def(u)->side == attacker)
                fprintf(out, " %s(%s)", ak_def(u)->shortname,
                        ak_on_board(s, u) ? ak_hex_format(s->unit[u].hex, h) : ak_where_name(s->unit[u].where));
    }
    if (ak_ruleset_get(s->ruleset)->half_points)    /* half points, the operator's table */
        fprintf(out, ", %d%s to %d%s at %s, modifier %+d", t->attack / 2, t->attack % 2 ? ".5" : "", t->defense / 2,
                t->defense % 2 ? ".5" : "", ak_ruleset_get(s->ruleset)->odds_name(s, t->column), t->drm);
    else
        fprintf(out, ", %d to %d at %s", t->attack, t->defense, ak_odds_name(t->column));
    if (t->supply != AK_UNIT_NONE)
        fprintf(out, ", %s %s", ak_ruleset_get(s->ruleset)->supply_bombards ? "bombarded with" : "sustained by",
                ak_def(t->supply)->shortname);
    char cell[64];
    if (ak_ruleset_get(s->ruleset)->needs_crt_table && t->resolved && !t->roll) {
        fprintf(out, ": not fought, one side gone before it");
    } else if (ak_ruleset_get(s->ruleset)->needs_crt_table && t->resolved) {
        /* the game's own table: the cell its modified roll fell on */
        ak_ruleset_get(s->ruleset)->result_name(s, b, cell, sizeof cell);
        fprintf(out, ": rolled %d (%d on the table), %s", t->roll, t->modified, cell[0] ? cell : "table unknown here");
    } else if (t->resolved && t->roll) {
        fprintf(out, ": rolled %d, %s", t->roll, results[t->result < 5 ? t->result : 0]);
    } else if (t->resolved) {
        fprintf(out, ": automatic victory, %s", results[t->result < 5 ? t->result : 0]);
    }
    fputc('\n', out);
}

void ak_draw_combat(FILE *out, const struct ak_state *s)
{
    static const char *const decisions[] = {
        "", "route the losers' retreat (akc retreat GAME UNITS HEX,HEX)",
        "choose the units lost in the exchange (akc exchange GAME UNITS)",
        "advance after combat or decline (akc advance GAME [UNITS HEX])",
        "assign the losses owed (akc losses GAME REDUCE ELIMINATE)",
    };
    _Static_assert(sizeof decisions / sizeof decisions[0] == AK_PEND_LOSSES + 1, "a sentence per decision");
    if (s->phase == AK_PHASE_OVER) {
        char over[80];
        fprintf(out, "The game is over: %s.\n", ak_draw_result(s, over, sizeof over));
        return;
    }
    for (int b = 0; b < s->nbattles; b++)
        draw_battle(out, s, b);
    char where[8];
    if (s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_ATTRITION)
        fprintf(out, "Waiting for the %s player to %s; isolation attrition at %s, %d%s strength points owed.\n",
                ak_side_name(s->pending.side), decisions[s->pending.kind], ak_hex_format(s->pending.hex, where),
                s->pending.need / 2, s->pending.need % 2 ? ".5" : "");
    else if (s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_STEP)
        fprintf(out, "Waiting for the %s player to %s; battle %d: a step for retreating through enemy zones.\n",
                ak_side_name(s->pending.side), decisions[s->pending.kind], s->pending.battle + 1);
    else if (s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_CANCEL)
        fprintf(out, "Waiting for the %s player to %s; battle %d: a step more to stay in the fortress, or none "
                     "and retreat (akc losses GAME - -).\n",
                ak_side_name(s->pending.side), decisions[s->pending.kind], s->pending.battle + 1);
    else if (s->pending.kind == AK_PEND_LOSSES)
        fprintf(out, "Waiting for the %s player to %s; battle %d, %d%s strength points owed.\n",
                ak_side_name(s->pending.side), decisions[s->pending.kind], s->pending.battle + 1,
                s->pending.need / 2, s->pending.need % 2 ? ".5" : "");
    else if (s->pending.kind && s->pending.kind < sizeof decisions / sizeof decisions[0])
        fprintf(out, "Waiting for the %s player to %s; battle %d.\n", ak_side_name(s->pending.side),
                decisions[s->pending.kind], s->pending.battle + 1);
    else if (s->phase == AK_PHASE_COMBAT && !s->combat_locked)
        fprintf(out, "Declare battles (akc battle), then resolve them (akc resolve); akc options lists them.\n");
}

const char *ak_draw_result(const struct ak_state *s, char *buf, size_t cap)
{
    const char *who = s->result == AK_RESULT_AXIS_WINS ? "Axis won" : s->result == AK_RESULT_ALLIED_WINS ? "Allied won"
                    : s->result == AK_RESULT_DRAW ? "drawn" : "over";
    char why[48];
    snprintf(why, sizeof why, "%s", ak_win_reason_name(s->result_reason));
    for (char *p = why; *p; p++)
        if (*p == '_')
            *p = ' ';
    snprintf(buf, cap, "%s by %s", who, why);
    return buf;
}

ak_hex ak_draw_place(const char *text)
{
    ak_hex h = ak_hex_parse(text);
    for (int i = 0; h == AK_HEX_NONE && i < ak_map()->names; i++)
        if (strncasecmp(ak_map()->name[i].text, text, strlen(text)) == 0 || strstr(ak_map()->name[i].text, text))
            h = ak_map()->name[i].hex;
    return h;
}

int ak_draw_hazards(FILE *out, const struct ak_state *s, int ending)
{
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    int n = ak_hazards(s, hz, AK_HAZARDS_MAX), shown = 0;
    for (int i = 0; i < n; i++) {
        if (ending && hz[i].bites_at != ending)
            continue;
        if (shown++ == 0 && !ending)
            fprintf(out, "Dangers for the %s player:\n", ak_side_name(s->side));
        fprintf(out, "  ! %s [%s, %s]\n", hz[i].text, hz[i].code, hz[i].section);
    }
    return shown;
}

int ak_draw_highlight(const struct ak_state *s, const char *what, uint8_t *mark,
                      struct ak_draw_opts *o)
{
    static char legend[160];
    if (strcmp(what, "zoc") == 0) {
        ak_draw_mark_zoc(s, s->side, mark);
        snprintf(legend, sizeof legend, "z: in a zone of control of the %s player's enemy", ak_side_name(s->side));
    } else if (strcmp(what, "supply") == 0) {
        ak_draw_mark_supply(s, s->side, mark);
        snprintf(legend, sizeof legend, "s: an attack from here is sustained by a %s supply unit", ak_side_name(s->side));
    } else {
        uint8_t units[AK_GROUP_MAX];
        int n = 0;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", what);
        for (char *t = strtok(buf, ","); t && n < AK_GROUP_MAX; t = strtok(NULL, ",")) {
            int u = ak_unit_find(ak_data(), t);
            if (u < 0 || u == AK_UNIT_NONE) {
                fprintf(stderr, "akc: %s unit name '%s'\n", u == -2 ? "ambiguous" : "unknown", t);
                return -1;
            }
            units[n++] = (uint8_t)u;
        }
        int k = ak_draw_mark_dests(s, units, n, mark);
        snprintf(legend, sizeof legend, "*: %d squares %s can reach (+: it must stop there)", k, what);
        if (o->at == AK_HEX_NONE && ak_on_board(s, units[0]))
            o->at = s->unit[units[0]].hex;
    }
    o->mark = mark;
    o->legend = legend;
    return 0;
}
