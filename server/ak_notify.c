/* ak_notify: telling players when something needs them.
 *
 * akd runs the operator's notify_command (a program, started with uv_spawn,
 * never through a shell) with the event as its one argument and the details
 * in the environment: AK_EVENT (your_turn, challenge, deadline_near,
 * deadline_passed, game_over), AK_GAME, AK_USER (the player to tell),
 * AK_SIDE, AK_OPPONENT, AK_DEADLINE (seconds since the epoch, or 0),
 * AK_RESULT. A mail relay is one such program. akd does not wait for it;
 * a failure is logged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_notation.h"
#include "ak_server.h"

struct notify_proc {
    uv_process_t proc;
};

static void on_exit_proc(uv_process_t *p, int64_t status, int signal)
{
    if (status != 0 || signal != 0)
        ak_log(AK_LOG_WARN, "notify command exited with status %lld (signal %d)", (long long)status,
               signal);
    uv_close((uv_handle_t *)p, (uv_close_cb)free);
}

void ak_notify(struct ak_server *srv, const char *event, const struct ak_game *g, int64_t user,
               int side)
{
    if (!srv->cfg.notify_command[0] || !user)
        return;
    char user_name[64] = "", opponent[64] = "";
    if (ak_store_user_name(srv->store, user, user_name, sizeof user_name) != AK_STORE_OK)
        return;
    if (side >= 0 && side < AK_SIDES && g->player[!side])
        snprintf(opponent, sizeof opponent, "%s", g->player_name[!side]);
    char env[8][160];
    snprintf(env[0], sizeof env[0], "AK_EVENT=%s", event);
    snprintf(env[1], sizeof env[1], "AK_GAME=%lld", (long long)g->id);
    snprintf(env[2], sizeof env[2], "AK_USER=%s", user_name);
    snprintf(env[3], sizeof env[3], "AK_SIDE=%s", side == AK_AXIS ? "axis" : "allied");
    snprintf(env[4], sizeof env[4], "AK_OPPONENT=%s", opponent);
    snprintf(env[5], sizeof env[5], "AK_DEADLINE=%lld", (long long)g->meta.deadline);
    snprintf(env[6], sizeof env[6], "AK_RESULT=%s", ak_result_name(g->state.result));
    const char *path = getenv("PATH");
    snprintf(env[7], sizeof env[7], "PATH=%s", path ? path : "/usr/bin:/bin");
    char *envp[9], *args[3] = {srv->cfg.notify_command, (char *)event, NULL};
    for (int i = 0; i < 8; i++)
        envp[i] = env[i];
    envp[8] = NULL;
    struct notify_proc *np = calloc(1, sizeof *np);
    if (!np)
        return;
    uv_process_options_t o = {0};
    o.file = srv->cfg.notify_command;
    o.args = args;
    o.env = envp;
    o.exit_cb = on_exit_proc;
    o.flags = UV_PROCESS_WINDOWS_HIDE;
    int rc = uv_spawn(srv->loop, &np->proc, &o);
    if (rc != 0) {
        ak_log(AK_LOG_WARN, "cannot run the notify command %s: %s", o.file, uv_strerror(rc));
        uv_close((uv_handle_t *)&np->proc, (uv_close_cb)free);
        return;
    }
    ak_log(AK_LOG_DEBUG, "notified %s of %s in game %lld", user_name, event, (long long)g->id);
}
