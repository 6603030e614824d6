/* ak_systemd: akd under systemd's supervision (Type=notify in akd.service).
 *
 * READY=1 once akd listens (so `systemctl start akd` returns when players
 * can connect, and a unit ordered after akd starts after that), RELOADING=1
 * then READY=1 around a SIGHUP (systemctl reload akd), STOPPING=1 at
 * shutdown, and WATCHDOG=1 from a timer on the loop at half the
 * WatchdogSec interval: a loop that stalls stops the pings, and systemd
 * restarts akd. Outside systemd (no NOTIFY_SOCKET) every call does nothing. */
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "ak_server.h"

static void on_watchdog(uv_timer_t *t)
{
    (void)t;
    sd_notify(0, "WATCHDOG=1");
}

void ak_systemd_ready(struct ak_server *srv)
{
    uint64_t usec = 0;
    uv_timer_init(srv->loop, &srv->watchdog);
    if (sd_watchdog_enabled(0, &usec) > 0 && usec >= 2000) {
        uint64_t every = usec / 2000;   /* half the interval, in ms */
        uv_timer_start(&srv->watchdog, on_watchdog, every, every);
        ak_log(AK_LOG_INFO, "systemd watchdog: a ping every %llu ms", (unsigned long long)every);
    }
    sd_notifyf(0, "READY=1\nSTATUS=listening on %s\nMAINPID=%lu", srv->cfg.listen, (unsigned long)getpid());
}

void ak_systemd_reloading(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
               (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL);
}

void ak_systemd_reloaded(void) { sd_notify(0, "READY=1"); }

void ak_systemd_stopping(struct ak_server *srv)
{
    sd_notify(0, "STOPPING=1");
    if (!uv_is_closing((uv_handle_t *)&srv->watchdog))
        uv_close((uv_handle_t *)&srv->watchdog, NULL);
}
