/* ak_updated_boxes: field fortification boxes, "hedgehogs", of the
 * Updated ruleset (seed 003: BOXES 1-3, SU SUMMARY (1), TERRAIN EFFECTS 1).
 *
 * Stationary infantry and mechanized infantry in supply, in clear terrain
 * (a road square is clear), fortify their squares at the end of the
 * movement phase by spending one supply unit within 5 squares: up to four
 * squares, one supply unit a player turn (`fortify`). Defenders of the
 * box's side in it get +1 (never with an escarpment's: boxes are only in
 * clear terrain). A box goes when an enemy unit enters its square (by
 * movement, advance or retreat, reading A-20 (a)) or, in its side's
 * supply phase, when no unit of its side is in it. Readings A-19 (a). */
#include "ak_updated.h"

#include "ak_zoc.h"

#define BOX_RANGE 5
#define BOXES_PER_SUPPLY 4

int ak_updated_box_at(const struct ak_state *s, ak_hex h, int side)
{
    for (int i = 0; i < s->nboxes; i++)
        if (s->box[i].hex == h && s->box[i].side == side)
            return i;
    return -1;
}

static void remove_box(struct ak_state *s, int i, struct ak_events *ev)
{
    ak_event_add(ev, AK_EV_BOX, s->box[i].side, AK_UNIT_NONE, AK_UNIT_NONE, s->box[i].hex, AK_HEX_NONE, 0, 0, 0);
    s->box[i] = s->box[--s->nboxes];
    s->box[s->nboxes].hex = 0;
    s->box[s->nboxes].side = 0;
}

void ak_updated_boxes_entered(struct ak_state *s, int side, const ak_hex *squares, int n, struct ak_events *ev)
{
    for (int k = 0; k < n; k++) {
        int i = ak_updated_box_at(s, squares[k], !side);
        if (i >= 0)
            remove_box(s, i, ev);
    }
}

void ak_updated_boxes_supply_phase(struct ak_state *s, struct ak_events *ev)
{
    for (int i = s->nboxes - 1; i >= 0; i--) {
        if (s->box[i].side != s->side)
            continue;
        bool held = false;
        for (int u = 0; u < s->units && !held; u++)
            held = ak_on_board(s, u) && ak_def(u)->side == s->side && s->unit[u].hex == s->box[i].hex;
        if (!held)
            remove_box(s, i, ev);
    }
}

static bool builder_ok(const struct ak_state *s, int u, int su, struct ak_reject *rej)
{
    char h[8];
    const struct ak_unit_def *d = ak_def(u);
    const struct ak_unit *x = &s->unit[u];
    if (d->side != s->side || !ak_on_board(s, u))
        return ak_reject(rej, "MOVE-1", "%s is not your unit on the board", d->shortname);
    if (d->type != AK_TYPE_INFANTRY && d->type != AK_TYPE_ARMORED_INFANTRY)
        return ak_reject(rej, "UPD-BOX", "%s is not infantry or mechanized infantry", d->shortname);
    if ((x->flags & (AK_U_MOVED | AK_U_ARRIVED)) || x->hex != x->start_hex)
        return ak_reject(rej, "UPD-BOX", "%s has not stayed where it began the turn", d->shortname);
    if (x->marks & AK_MARK_OOS)
        return ak_reject(rej, "UPD-BOX", "%s is out of supply", d->shortname);
    if (ak_map()->terrain[x->hex] != AK_TERRAIN_CLEAR)
        return ak_reject(rej, "UPD-BOX", "%s is not in clear terrain: boxes are only built there", ak_hex_format(x->hex, h));
    if (ak_hex_distance(x->hex, s->unit[su].hex) > BOX_RANGE)
        return ak_reject(rej, "UPD-BOX", "%s is more than 5 squares from %s", d->shortname, ak_def(su)->shortname);
    return true;
}

bool ak_updated_fortify(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int su = a->supply;
    if (s->flags & AK_SF_FORTIFIED)
        return ak_reject(rej, "UPD-BOX", "a supply unit has been spent on boxes this player turn already");
    if (su == AK_UNIT_NONE || su >= s->units || ak_def(su)->side != s->side || ak_def(su)->type != AK_TYPE_SUPPLY ||
        !ak_on_board(s, su))
        return ak_reject(rej, "UPD-BOX", "name one of your supply units on the board to spend");
    if (a->nunits < 1)
        return ak_reject(rej, "ACTION", "name the units that fortify their squares");
    ak_hex squares[AK_GROUP_MAX];
    int n = 0;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        for (int j = 0; j < i; j++)
            if (a->units[j] == u)
                return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
        if (!builder_ok(s, u, su, rej))
            return false;
        bool seen = false;
        for (int k = 0; k < n; k++)
            seen |= squares[k] == s->unit[u].hex;
        if (!seen)
            squares[n++] = s->unit[u].hex;
    }
    if (n > BOXES_PER_SUPPLY)
        return ak_reject(rej, "UPD-BOX", "one supply unit builds at most %d boxes", BOXES_PER_SUPPLY);
    if (s->nboxes + n > AK_BOX_MAX)
        return ak_reject(rej, "UPD-BOX", "at most %d boxes on the map", AK_BOX_MAX);
    for (int k = 0; k < n; k++) {
        if (ak_updated_box_at(s, squares[k], s->side) >= 0)
            continue;
        s->box[s->nboxes].hex = squares[k];
        s->box[s->nboxes++].side = s->side;
        ak_event_add(ev, AK_EV_BOX, s->side, AK_UNIT_NONE, AK_UNIT_NONE, squares[k], AK_HEX_NONE, 1, 0, 0);
    }
    /* BOXES 1: built "by remaining stationary for their turn": the
     * builders stay put for the rest of their player turn, the mechanized
     * phase and advances after combat too (issue 32; the mark is cleared
     * when their side's next turn starts). */
    for (int i = 0; i < a->nunits; i++)
        s->unit[a->units[i]].marks |= AK_MARK_FORTIFIED;
    ak_event_add(ev, AK_EV_SUPPLY_USED, s->side, su, AK_UNIT_NONE, s->unit[su].hex, AK_HEX_NONE, 0, 0, 2);
    s->unit[su].where = AK_AT_POOL;
    s->unit[su].hex = s->unit[su].start_hex = AK_HEX_NONE;
    s->flags |= AK_SF_FORTIFIED;
    return true;
}
