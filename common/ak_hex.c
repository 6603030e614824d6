/* ak_hex: coordinate parsing, formatting, neighbours and distance. */
#include "ak_hex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

/* (row, number) steps to the six neighbours, from the printed grid:
 * (L, N-1), (L, N+1), (L-1, N-1), (L-1, N), (L+1, N), (L+1, N+1). */
static const int8_t dir_drow[AK_DIRS] = {0, 0, -1, -1, 1, 1};
static const int8_t dir_dnum[AK_DIRS] = {-1, 1, -1, 0, 0, 1};

ak_hex ak_hex_parse(const char *text)
{
    if (!text || !isalpha((unsigned char)text[0]))
        return AK_HEX_NONE;
    int row = toupper((unsigned char)text[0]) - 'A';
    const char *p = text + 1;
    if (*p == '-')              /* the rules write W-6 */
        p++;
    if (!isdigit((unsigned char)*p))
        return AK_HEX_NONE;
    int num = 0;
    for (; isdigit((unsigned char)*p); p++) {
        num = num * 10 + (*p - '0');
        if (num >= AK_NUMS)
            return AK_HEX_NONE;
    }
    if (*p != '\0' || num < 1)
        return AK_HEX_NONE;
    return ak_hex_make(row, num);
}

char *ak_hex_format(ak_hex h, char *buf)
{
    if (h < 0 || h >= AK_HEX_COUNT)
        snprintf(buf, 8, "--");
    else
        snprintf(buf, 8, "%c%d", 'A' + ak_hex_row(h), ak_hex_num(h));
    return buf;
}

ak_hex ak_hex_neighbor(ak_hex h, int dir)
{
    if (h < 0 || dir < 0 || dir >= AK_DIRS)
        return AK_HEX_NONE;
    return ak_hex_make(ak_hex_row(h) + dir_drow[dir], ak_hex_num(h) + dir_dnum[dir]);
}

int ak_hex_dir(ak_hex a, ak_hex b)
{
    for (int d = 0; d < AK_DIRS; d++)
        if (ak_hex_neighbor(a, d) == b && b != AK_HEX_NONE)
            return d;
    return -1;
}

int ak_hex_distance(ak_hex a, ak_hex b)
{
    int dl = ak_hex_row(b) - ak_hex_row(a);
    int dn = ak_hex_num(b) - ak_hex_num(a);
    int m = abs(dl);
    if (abs(dn) > m)
        m = abs(dn);
    if (abs(dn - dl) > m)
        m = abs(dn - dl);
    return m;
}
