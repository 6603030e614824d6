/* ak_server: the shared types of akd.
 *
 * One libuv loop owns everything: the listening socket, the connections,
 * the games in memory and the store. Commands are handled on the loop
 * thread; only password hashing runs on the libuv work queue, so a login
 * never stalls other players. Files: akd.c (start-up, signals),
 * ak_conn.c (sockets, framing, replies), ak_dispatch.c (command table),
 * ak_accounts.c (register, login, sessions), ak_games.c (games in memory,
 * refereeing through the rules library, persistence, pushes), ak_log.c.
 */
#ifndef AK_SERVER_H
#define AK_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "ak_frame.h"
#include "ak_rules.h"
#include "ak_store.h"

#define AK_WATCH_MAX 64

struct ak_conn {
    uv_tcp_t tcp;
    struct ak_server *srv;
    struct ak_conn *next;
    struct ak_frame frame;
    int refs;               /* the socket, plus pending work requests */
    bool closing;
    bool busy;              /* a command is still running off the loop */
    json_t *queue;          /* requests that arrived meanwhile, in order */
    int64_t user;           /* 0 until login or resume */
    char user_name[64];
    char token_hash[65];
    char peer[64];
    int nwatch;
    int64_t watch[AK_WATCH_MAX];
};

struct ak_game {
    int64_t id;
    struct ak_state state;
    int64_t player[AK_SIDES];
    char player_name[AK_SIDES][64];
    json_t *public_state;   /* ak_state_to_json of state, kept for diffs */
    struct ak_game *next;
};

struct ak_server {
    uv_loop_t *loop;
    uv_tcp_t listener;
    uv_signal_t sigint, sigterm;
    struct ak_store *store;
    struct ak_conn *conns;
    struct ak_game *games;
    size_t line_limit;
    bool stopping;
};

/* ak_conn.c */
int ak_server_listen(struct ak_server *srv, const char *host, int port);
void ak_conn_send(struct ak_conn *c, const json_t *msg);
void ak_conn_reply_ok(struct ak_conn *c, const json_t *id, json_t *result);
void ak_conn_reply_error(struct ak_conn *c, const json_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ak_conn_unref(struct ak_conn *c);
/* A command went off the loop: hold later requests until ak_conn_resume. */
void ak_conn_hold(struct ak_conn *c);
void ak_conn_resume(struct ak_conn *c);
void ak_server_close_all(struct ak_server *srv);

/* ak_dispatch.c */
void ak_dispatch(struct ak_conn *c, json_t *msg);

/* ak_accounts.c */
void ak_cmd_register(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_login(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_resume(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_logout(struct ak_conn *c, const json_t *id, const json_t *msg);

/* ak_games.c */
int ak_games_load(struct ak_server *srv);
void ak_games_free(struct ak_server *srv);
void ak_cmd_new(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_join(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_watch(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_games(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_show(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_act(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_dests(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_why(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_options(struct ak_conn *c, const json_t *id, const json_t *msg);

/* ak_log.c */
enum ak_log_level { AK_LOG_DEBUG, AK_LOG_INFO, AK_LOG_WARN, AK_LOG_ERROR };
int ak_log_parse_level(const char *name);
void ak_log_set_level(int level);
void ak_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int64_t ak_now(void);   /* seconds since the epoch: the server's one clock */

#endif
