/* ak_health: what /healthz answers (ak_web.c), for a load balancer or a
 * monitor that restarts or pages: cheap (no query, no allocation, a few
 * fields read on the loop), no login, for the addresses in metrics_allow.
 *
 * 200 "ok" when the loop turns (it is answering this) and the store
 * accepts writes; 503 with the reason otherwise:
 *   - the database file was deleted or replaced under akd (every commit
 *     since fails: ak_writer_store_lost);
 *   - the last group commit failed (a full disk, an I/O error; the next
 *     that succeeds makes akd healthy again);
 *   - a commit has been with the writer for more than health_stuck_seconds
 *     (10 by default: a disk that hangs, or a tool holding the write lock:
 *     actions are accepted but nothing is acknowledged).
 * A loop that does not turn cannot answer at all: the monitor's timeout
 * says that one. */
#include <stdio.h>

#include "ak_server.h"

int ak_health(const struct ak_server *srv, char *why, size_t len)
{
    /* only what the loop copied when the last batch came back (ak_batch.c):
     * asking the writer's connection now could wait for its commit */
    uint64_t in_flight = ak_writer_in_flight_ns(srv);
    if (srv->store_lost)
        snprintf(why, len, "the database file was deleted or replaced: %s", srv->commit_error);
    else if (srv->commit_failing)
        snprintf(why, len, "the last group commit failed: %s", srv->commit_error);
    else if (in_flight > (uint64_t)srv->cfg.health_stuck_seconds * 1000000000u)
        snprintf(why, len, "a group commit has been writing for %llu s", (unsigned long long)(in_flight / 1000000000u));
    else {
        snprintf(why, len, "ok");
        return 200;
    }
    return 503;
}
