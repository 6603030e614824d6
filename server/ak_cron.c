/* ak_cron: the clock tick, every clock_tick_ms. The one place that calls
 * down, on a timer, into what must happen as time passes: connections
 * (expired sessions, silent connections), games in memory (idle ones
 * evicted), deadlines, tournaments (start dates, rounds to retry,
 * withdrawn players' games left unresigned) and
 * the daily digests, chat retention; each of them knows nothing of the
 * others or of the timer. */
#include "ak_server.h"

static void on_tick(uv_timer_t *t)
{
    struct ak_server *srv = t->data;
    ak_conn_tick(srv);
    ak_games_evict_idle(srv);
    ak_tournament_tick(srv);
    ak_tournament_fix_sweep(srv);
    ak_notify_digest(srv);
    ak_clock_tick(srv);
    ak_retention_tick(srv);
}

void ak_cron_start(struct ak_server *srv)
{
    uv_timer_init(srv->loop, &srv->clock);
    srv->clock.data = srv;
    uv_timer_start(&srv->clock, on_tick, (uint64_t)srv->cfg.clock_tick_ms, (uint64_t)srv->cfg.clock_tick_ms);
}
