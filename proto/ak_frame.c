/* ak_frame: line framing over a fixed-size buffer. */
#include "ak_frame.h"

#include <stdlib.h>
#include <string.h>

int ak_frame_init(struct ak_frame *f, size_t limit)
{
    f->len = 0;
    f->limit = limit;
    f->buf = malloc(limit + 1);
    return f->buf ? 0 : -1;
}

void ak_frame_free(struct ak_frame *f)
{
    free(f->buf);
    f->buf = NULL;
}

int ak_frame_feed(struct ak_frame *f, const char *data, size_t n,
                  int (*on_line)(void *ud, char *line, size_t len), void *ud)
{
    while (n > 0) {
        const char *nl = memchr(data, '\n', n);
        size_t take = nl ? (size_t)(nl - data) : n;
        if (f->len + take > f->limit)
            return -1;
        memcpy(f->buf + f->len, data, take);
        f->len += take;
        data += take;
        n -= take;
        if (!nl)
            break;
        data++;         /* the newline */
        n--;
        size_t len = f->len;
        if (len > 0 && f->buf[len - 1] == '\r')
            len--;
        f->buf[len] = '\0';
        f->len = 0;
        int rc = len > 0 ? on_line(ud, f->buf, len) : 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}
