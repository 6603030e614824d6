/* ak_hexset: sets of squares as bits and their fills (see ak_hexset.h for
 * the layout and why). */
#include "ak_hexset.h"

_Static_assert(AK_NUMS % 8 == 0 && AK_NUMS <= 64 * AK_HEXSET_WORDS, "a row is whole bytes within its words");

/* One row: numbers 0..63 in lo, 64.. in hi. */
struct bits {
    uint64_t lo, hi;
};

static inline struct bits get(const struct ak_hexset *s, int r)
{
    return (struct bits){s->row[r][0], s->row[r][1]};
}
static inline void put(struct ak_hexset *s, int r, struct bits b)
{
    s->row[r][0] = b.lo;
    s->row[r][1] = b.hi;
}
static inline struct bits and(struct bits a, struct bits b)
{
    return (struct bits){a.lo & b.lo, a.hi & b.hi};
}
static inline struct bits or(struct bits a, struct bits b)
{
    return (struct bits){a.lo | b.lo, a.hi | b.hi};
}
static inline struct bits and_not(struct bits a, struct bits b)
{
    return (struct bits){a.lo & ~b.lo, a.hi & ~b.hi};
}
static inline bool none(struct bits a)
{
    return !(a.lo | a.hi);
}
/* Toward higher numbers by k (1..63), and toward lower ones. */
static inline struct bits up(struct bits a, int k)
{
    return (struct bits){a.lo << k, (a.hi << k) | (a.lo >> (64 - k))};
}
static inline struct bits down(struct bits a, int k)
{
    return (struct bits){(a.lo >> k) | (a.hi << (64 - k)), a.hi >> k};
}

/* Occluded fills along a row: every square reached from g by steps
 * through the squares of p (g included). Shifts of 1, 2, 4 .. 64 cover a
 * run of any length within the row. */
static struct bits fill_up(struct bits g, struct bits p)
{
    for (int k = 1; k < 64; k <<= 1) {
        g = or(g, and(p, up(g, k)));
        p = and(p, up(p, k));
    }
    return or(g, and(p, (struct bits){0, g.lo}));
}
static struct bits fill_down(struct bits g, struct bits p)
{
    for (int k = 1; k < 64; k <<= 1) {
        g = or(g, and(p, down(g, k)));
        p = and(p, down(p, k));
    }
    return or(g, and(p, (struct bits){g.hi, 0}));
}

/* What a fill works on. */
struct fill {
    struct ak_hexset *reached, spread;      /* spread: reached squares the fill goes on from */
    const struct ak_hexset *enter, *pass, *open_to;
};

/* The neighbours of row r's squares in rows r-1 and r+1 (directions 2..5:
 * (-1,-1), (-1,0), (+1,0), (+1,+1)) whose steps come from s, and those
 * along the row (0: (0,-1), 1: (0,+1)) when along. */
static struct bits neighbours(const struct ak_hexset *s, const struct ak_hexset *open_to, int r, bool along)
{
    struct bits in = {0, 0};
    if (r > 0) {
        struct bits a = get(s, r - 1);
        in = or(in, and(a, get(&open_to[4], r - 1)));
        in = or(in, up(and(a, get(&open_to[5], r - 1)), 1));
    }
    if (r + 1 < AK_ROWS) {
        struct bits b = get(s, r + 1);
        in = or(in, and(b, get(&open_to[3], r + 1)));
        in = or(in, down(and(b, get(&open_to[2], r + 1)), 1));
    }
    if (along) {
        struct bits c = get(s, r);
        in = or(in, up(and(c, get(&open_to[1], r)), 1));
        in = or(in, down(and(c, get(&open_to[0], r)), 1));
    }
    return in;
}

/* Add the squares got to row r; those of pass spread further. Returns
 * the new spreading squares. */
static struct bits take(struct fill *f, int r, struct bits got)
{
    put(f->reached, r, or(get(f->reached, r), got));
    struct bits go_on = and(got, get(f->pass, r));
    put(&f->spread, r, or(get(&f->spread, r), go_on));
    return go_on;
}

/* Close row r along itself from its new spreading squares src. Squares
 * reached this way lie in an unbroken run beside a square of src, so one
 * fill each way finds them all. */
static void close_row(struct fill *f, int r, struct bits src)
{
    struct bits enter = get(f->enter, r), relay = and(enter, get(f->pass, r));
    struct bits o_up = get(&f->open_to[1], r), o_down = get(&f->open_to[0], r);
    struct bits got = and(up(fill_up(and(src, o_up), and(relay, o_up)), 1), enter);
    got = or(got, and(down(fill_down(and(src, o_down), and(relay, o_down)), 1), enter));
    take(f, r, and_not(got, get(f->reached, r)));
}

/* Feed row r from the rows beside it; true if it gained a square. */
static bool feed(struct fill *f, int r)
{
    struct bits in = and(neighbours(&f->spread, f->open_to, r, false), get(f->enter, r));
    in = and_not(in, get(f->reached, r));
    if (none(in))
        return false;
    struct bits go_on = take(f, r, in);
    if (!none(go_on))
        close_row(f, r, go_on);
    return true;
}

void ak_hexset_flood(struct ak_hexset *reached, const struct ak_hexset *enter, const struct ak_hexset *pass,
                     const struct ak_hexset open_to[AK_DIRS])
{
    struct fill f = {.reached = reached, .spread = *reached, .enter = enter, .pass = pass, .open_to = open_to};
    for (int r = 0; r < AK_ROWS; r++)
        if (!none(get(reached, r)))
            close_row(&f, r, get(reached, r));
    bool changed;
    do {
        changed = false;
        for (int r = 0; r < AK_ROWS; r++)
            changed |= feed(&f, r);
        for (int r = AK_ROWS - 1; r >= 0; r--)
            changed |= feed(&f, r);
    } while (changed);
}

void ak_hexset_reach(struct ak_hexset *reached, const struct ak_hexset *enter, const struct ak_hexset *pass,
                     const struct ak_hexset open_to[AK_DIRS], int steps)
{
    _Static_assert(AK_ROWS <= 32, "a row a bit");
    struct ak_hexset front = *reached, next;
    uint32_t live = 0;          /* the rows the front holds squares in */
    for (int r = 0; r < AK_ROWS; r++)
        live |= none(get(&front, r)) ? 0 : 1u << r;
    for (int step = 0; step < steps; step++) {
        /* a row gains only beside a row of the front: a trace of five
         * squares touches a dozen rows of the 24, and the rest cost
         * nothing */
        uint32_t fed = live | live << 1 | live >> 1;
        bool any = false;
        for (int r = 0; r < AK_ROWS; r++) {
            struct bits in = {0, 0};
            if ((fed >> r) & 1) {
                in = and(neighbours(&front, open_to, r, true), get(enter, r));
                in = and_not(in, get(reached, r));
            }
            put(&next, r, in);
            any |= !none(in);
        }
        if (!any)
            return;
        live = 0;
        for (int r = 0; r < AK_ROWS; r++) {
            struct bits in = get(&next, r);
            put(reached, r, or(get(reached, r), in));
            put(&front, r, and(in, get(pass, r)));
            live |= none(get(&front, r)) ? 0 : 1u << r;
        }
    }
}

/* The eight bits of b, one a byte (bit i to bit 0 of byte i), for every
 * byte, as a table made by the compiler: the computer player's
 * evaluation turns some sets into byte maps every time it values a
 * position (a tenth of an Updated evaluation went to computing these with
 * shifts). */
#define BYTES_OF(b)                                                                                   \
    ((((uint64_t)(b) >> 0) & 1) | ((((uint64_t)(b) >> 1) & 1) << 8) | ((((uint64_t)(b) >> 2) & 1) << 16) | \
     ((((uint64_t)(b) >> 3) & 1) << 24) | ((((uint64_t)(b) >> 4) & 1) << 32) |                          \
     ((((uint64_t)(b) >> 5) & 1) << 40) | ((((uint64_t)(b) >> 6) & 1) << 48) |                          \
     ((((uint64_t)(b) >> 7) & 1) << 56))
#define BYTES4(b) BYTES_OF(b), BYTES_OF((b) + 1), BYTES_OF((b) + 2), BYTES_OF((b) + 3)
#define BYTES16(b) BYTES4(b), BYTES4((b) + 4), BYTES4((b) + 8), BYTES4((b) + 12)
#define BYTES64(b) BYTES16(b), BYTES16((b) + 16), BYTES16((b) + 32), BYTES16((b) + 48)
static const uint64_t byte_table[256] = {BYTES64(0), BYTES64(64), BYTES64(128), BYTES64(192)};

void ak_hexset_to_bytes(const struct ak_hexset *s, uint8_t *out)
{
    for (int r = 0; r < AK_ROWS; r++)
        for (int k = 0; k < AK_NUMS / 8; k++) {
            uint64_t v = byte_table[(s->row[r][k >> 3] >> ((k & 7) * 8)) & 0xff];
            uint8_t *o = out + r * AK_NUMS + k * 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(o, &v, sizeof v);
#else
            for (int i = 0; i < 8; i++)
                o[i] = (uint8_t)(v >> (8 * i));
#endif
        }
}
