/* ak_hex: the printed hex grid of the Afrika Korps mapboard.
 *
 * A square (hex) is named by its printed coordinate: a row letter A..X and a
 * number running along the south-west to north-east diagonals (W6, G25, L59).
 * That is an axial coordinate system, so neighbours and distance are plain
 * arithmetic. Everything a person sees names hexes this way; inside the
 * engine a hex is a small integer index into per-hex arrays.
 */
#ifndef AK_HEX_H
#define AK_HEX_H

#include <stdbool.h>
#include <stdint.h>

#define AK_ROWS 24          /* A..X */
#define AK_NUMS 72          /* printed numbers 1..69, with room on both sides */
#define AK_HEX_COUNT (AK_ROWS * AK_NUMS)
#define AK_HEX_NONE ((ak_hex)-1)
#define AK_DIRS 6

typedef int16_t ak_hex;

static inline ak_hex ak_hex_make(int row, int num)
{
    if (row < 0 || row >= AK_ROWS || num < 0 || num >= AK_NUMS)
        return AK_HEX_NONE;
    return (ak_hex)(row * AK_NUMS + num);
}
static inline int ak_hex_row(ak_hex h) { return h / AK_NUMS; }
static inline int ak_hex_num(ak_hex h) { return h % AK_NUMS; }

/* "W6" -> hex; AK_HEX_NONE when the text is not a coordinate on the grid. */
ak_hex ak_hex_parse(const char *text);
/* hex -> "W6" in buf (at least 8 bytes); returns buf. */
char *ak_hex_format(ak_hex h, char *buf);
/* (row, number) steps to the six neighbours, from the printed grid:
 * (L, N-1), (L, N+1), (L-1, N-1), (L-1, N), (L+1, N), (L+1, N+1).
 * Inline: the movement search asks for neighbours millions of times. */
extern const int8_t ak_hex_drow[AK_DIRS];
extern const int8_t ak_hex_dnum[AK_DIRS];

/* The neighbour in direction dir (0..5), AK_HEX_NONE outside the grid. */
static inline ak_hex ak_hex_neighbor(ak_hex h, int dir)
{
    if (h < 0 || dir < 0 || dir >= AK_DIRS)
        return AK_HEX_NONE;
    return ak_hex_make(ak_hex_row(h) + ak_hex_drow[dir], ak_hex_num(h) + ak_hex_dnum[dir]);
}

/* The neighbour of h in direction dir when it is known to be on the grid
 * (the map's open[h] has bit dir): one addition, for the searches. */
static inline ak_hex ak_hex_step(ak_hex h, int dir)
{
    static const int16_t delta[AK_DIRS] = {-1, 1, -AK_NUMS - 1, -AK_NUMS, AK_NUMS, AK_NUMS + 1};
    return (ak_hex)(h + delta[dir]);
}

/* The direction from a to its neighbour b, or -1 if they do not touch:
 * the (row, number) steps above as a 3 by 3 table (the searches ask it for
 * every pair of units they compare). */
static inline int ak_hex_dir(ak_hex a, ak_hex b)
{
    static const int8_t dir[3][3] = {{2, 3, -1}, {0, -1, 1}, {-1, 4, 5}};
    if (a < 0 || b < 0)
        return -1;
    int dr = ak_hex_row(b) - ak_hex_row(a), dn = ak_hex_num(b) - ak_hex_num(a);
    if (dr < -1 || dr > 1 || dn < -1 || dn > 1)
        return -1;
    return dir[dr + 1][dn + 1];
}
static inline int ak_hex_distance(ak_hex a, ak_hex b)
{
    int dl = ak_hex_row(b) - ak_hex_row(a), dn = ak_hex_num(b) - ak_hex_num(a);
    int m = dl < 0 ? -dl : dl, an = dn < 0 ? -dn : dn, ad = dn - dl < 0 ? dl - dn : dn - dl;
    return an > m ? (ad > an ? ad : an) : (ad > m ? ad : m);
}

#endif
