/* ak_state: creating a game, hashing it, and position queries. */
#include "ak_state.h"

#include <string.h>

#include "ak_rules.h"

void ak_state_init(struct ak_state *s, int ruleset, uint64_t seed)
{
    struct ak_rng rng;
    ak_rng_seed(&rng, seed);
    ak_state_init_rng(s, ruleset, &rng);
}

void ak_state_init_rng(struct ak_state *s, int ruleset, const struct ak_rng *rng)
{
    const struct ak_data *d = ak_data();
    memset(s, 0, sizeof *s);
    s->ruleset = (uint8_t)ruleset;
    s->turn = 1;
    s->side = AK_AXIS;
    s->phase = AK_PHASE_MOVEMENT;
    s->units = (uint16_t)d->units;
    s->rng = *rng;
    for (int u = 0; u < d->units; u++) {
        s->unit[u].where = AK_AT_POOL;
        s->unit[u].hex = s->unit[u].start_hex = AK_HEX_NONE;
    }
    for (int i = 0; i < d->scenario.setups; i++) {
        struct ak_unit *u = &s->unit[d->scenario.setup[i].unit];
        u->where = AK_AT_BOARD;
        u->hex = u->start_hex = d->scenario.setup[i].hex;
    }
    ak_ruleset_get(ruleset)->start_player_turn(s, NULL);
}

static uint64_t fnv(uint64_t h, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t ak_state_hash(const struct ak_state *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, s->ruleset, 1);
    h = fnv(h, s->turn, 1);
    h = fnv(h, s->side, 1);
    h = fnv(h, s->phase, 1);
    h = fnv(h, s->result, 1);
    h = fnv(h, s->supply_roll, 1);
    h = fnv(h, s->supply_due, 1);
    for (int k = 0; k < AK_KEYS; k++)
        h = fnv(h, s->control[k], 1);
    for (int i = 0; i < AK_SIDES; i++) {
        h = fnv(h, s->replacement[i], 1);
        h = fnv(h, s->no_supply_turns[i], 1);
        h = fnv(h, s->hold_turns[i], 1);
    }
    h = fnv(h, s->result_reason, 1);
    h = fnv(h, s->nbattles, 1);
    h = fnv(h, s->combat_locked, 1);
    h = fnv(h, s->pending.kind | s->pending.side << 8 | s->pending.battle << 16 |
                   (uint32_t)s->pending.need << 24, 4);
    for (int b = 0; b < s->nbattles; b++) {
        const struct ak_battle *t = &s->battle[b];
        h = fnv(h, t->supply | t->resolved << 8 | t->column << 16 | (uint32_t)t->roll << 24, 4);
        h = fnv(h, t->result | t->attack << 8 | t->defense << 16 | (uint32_t)t->ndef_hex << 24, 4);
        for (int i = 0; i < t->ndef_hex; i++)
            h = fnv(h, (uint16_t)t->def_hex[i], 2);
    }
    h = fnv(h, s->units, 2);
    h = fnv(h, s->actions, 4);
    for (int i = 0; i < 4; i++)
        h = fnv(h, s->rng.s[i], 8);
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        h = fnv(h, x->where, 1);
        h = fnv(h, x->flags, 1);
        h = fnv(h, x->mp_spent, 1);
        h = fnv(h, x->road_spent, 1);
        h = fnv(h, x->rommel_spent, 1);
        h = fnv(h, x->sea_turn, 1);
        h = fnv(h, x->isolated, 1);
        h = fnv(h, x->battle, 1);
        h = fnv(h, (uint16_t)x->hex, 2);
        h = fnv(h, (uint16_t)x->start_hex, 2);
    }
    /* Fields the 1964 rules never set are hashed only when set, so that
     * the hashes of classic games, kept in their records, stay what they
     * were before the fields existed. */
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].reduced || s->unit[u].marks)
            h = fnv(h, (uint32_t)u | (uint32_t)s->unit[u].reduced << 8 | (uint32_t)s->unit[u].marks << 16 | 1u << 24, 4);
    for (int i = 0; i < AK_SIDES; i++)
        for (int k = 0; k < AK_POOLS; k++)
            if (s->pool[i][k])
                h = fnv(h, (uint32_t)(i * AK_POOLS + k) | (uint32_t)s->pool[i][k] << 8 | 2u << 24, 4);
    if (s->flags)
        h = fnv(h, (uint32_t)s->flags | 3u << 24, 4);
    if (s->pending.stage || s->pending.percent || s->pending.removed || s->pending.retreat)
        h = fnv(h, (uint32_t)s->pending.stage | (uint32_t)s->pending.percent << 8 | (uint32_t)s->pending.removed << 16 |
                       (uint32_t)s->pending.retreat << 24, 4);
    if (s->pending.hex)
        h = fnv(h, (uint32_t)(uint16_t)s->pending.hex | 6u << 24, 4);
    for (int i = 0; i < s->nboxes; i++)
        h = fnv(h, (uint32_t)(uint16_t)s->box[i].hex | (uint32_t)s->box[i].side << 16 | 7u << 24, 4);
    for (int i = 0; i < s->nattack_supply; i++)
        h = fnv(h, (uint32_t)(uint16_t)s->attack_supply[i] | (uint32_t)i << 16 | 4u << 24, 4);
    for (int b = 0; b < s->nbattles; b++)
        if (s->battle[b].drm || s->battle[b].modified || s->battle[b].counted)
            h = fnv(h, (uint32_t)b | (uint32_t)(uint8_t)s->battle[b].drm << 8 |
                           (uint32_t)(uint8_t)s->battle[b].modified << 16 | (uint32_t)s->battle[b].counted << 24, 4);
    return h;
}

int ak_units_at(const struct ak_state *s, ak_hex h, uint8_t *out, int max)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && s->unit[u].hex == h) {
            if (n < max)
                out[n] = (uint8_t)u;
            n++;
        }
    return n;
}

int ak_combat_units_at(const struct ak_state *s, ak_hex h, int side)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && s->unit[u].hex == h &&
            ak_def(u)->side == side && ak_unit_is_combat(ak_def(u)))
            n++;
    return n;
}

bool ak_side_occupies(const struct ak_state *s, ak_hex h, int side)
{
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && s->unit[u].hex == h && ak_def(u)->side == side)
            return true;
    return false;
}

bool ak_enemy_combat_at(const struct ak_state *s, ak_hex h, int side)
{
    return ak_combat_units_at(s, h, !side) > 0;
}

int ak_own_supply_on_board(const struct ak_state *s, int side)
{
    int n = 0;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (s->unit[u].where == AK_AT_BOARD && d->side == side &&
            d->type == AK_TYPE_SUPPLY && !d->captured_counter)
            n++;
    }
    return n;
}

ak_hex ak_key_hex(int key)
{
    const struct ak_map *m = ak_map();
    switch (key) {
    case AK_KEY_AXIS_BASE: return m->homebase[AK_AXIS];
    case AK_KEY_ALLIED_BASE: return m->homebase[AK_ALLIED];
    case AK_KEY_TOBRUCH: return m->tobruch;
    default: return m->bengasi;
    }
}
