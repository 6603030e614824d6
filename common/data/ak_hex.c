/* ak_hex: coordinate parsing, formatting, neighbours and distance. */
#include "ak_hex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

const int8_t ak_hex_drow[AK_DIRS] = {0, 0, -1, -1, 1, 1};
const int8_t ak_hex_dnum[AK_DIRS] = {-1, 1, -1, 0, 0, 1};

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

