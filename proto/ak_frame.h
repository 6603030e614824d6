/* ak_frame: newline-delimited framing with a hard line limit.
 *
 * Bytes from a socket go in; whole lines come out through a callback. A
 * line longer than the limit is a protocol violation: ak_frame_feed reports
 * it and the caller closes the connection (PROTOCOL.md, "Framing"). The
 * buffer never grows past the limit, so a client cannot make akd hold more
 * than that per connection.
 */
#ifndef AK_FRAME_H
#define AK_FRAME_H

#include <stddef.h>

#define AK_FRAME_DEFAULT_LIMIT 65536

struct ak_frame {
    char *buf;
    size_t len, limit;
};

int ak_frame_init(struct ak_frame *f, size_t limit);
void ak_frame_free(struct ak_frame *f);
/* Calls on_line(ud, line, len) for each complete line (without the
 * newline, NUL-terminated). Returns 0, -1 if a line exceeded the limit,
 * or the first non-zero value on_line returned. */
int ak_frame_feed(struct ak_frame *f, const char *data, size_t n,
                  int (*on_line)(void *ud, char *line, size_t len), void *ud);

#endif
