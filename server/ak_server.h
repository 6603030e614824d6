/* ak_server: the shared types of akd, and its map.
 *
 * One libuv loop owns everything: the listening sockets, the connections,
 * the games in memory and the store. Commands are handled on the loop
 * thread; password hashing (one line of hashes) and backups run on the
 * libuv work queue, so a login never stalls other players; every write
 * (actions and every small write, as jobs) goes to the database in group
 * commits on a thread of their own (ak_writer.c), and is answered once
 * stored. Every server file, by what it does:
 *
 *   start and settings   akd.c (start-up, signals, the stop), ak_cron.c
 *                        (the clock tick), ak_hooks.c (how the layers below
 *                        call up: struct ak_server_hooks), ak_config.c,
 *                        ak_check.c (akd --check), ak_systemd.c, ak_log.c,
 *                        ak_backup.c
 *   connections          ak_conn.c (sockets, framing, output per loop
 *                        turn, limits), ak_tls.c, ak_web.c and
 *                        ak_web_listen.c (HTTP and WebSocket),
 *                        ak_proxy.c (the real address behind a proxy)
 *   budgets              ak_dispatch.c (the command table and each
 *                        command's cost), ak_budget.c (per address and
 *                        account), ak_throttle.c (login limits)
 *   accounts             ak_accounts.c (register, login, passwd, sessions,
 *                        the hash queue), ak_settings.c, ak_email.c (a
 *                        plain address), ak_vacation.c, ak_away.c (who is
 *                        away, for the clocks), ak_admin.c (the admin
 *                        role, audited)
 *   games                ak_games.c (in memory, committing an action, its
 *                        deadline, the listed games), ak_seats.c (each
 *                        account's games), ak_game_new.c (making a game),
 *                        ak_lobby.c (new, join, listing),
 *                        ak_records.c (a game's record and replay), ak_kept.c
 *                        (answers kept by position),
 *                        ak_play.c (refereed actions, move queries, odds),
 *                        ak_undo.c and ak_undo_steps.c (what it keeps),
 *                        ak_watch.c (who gets the pushes), ak_clock.c
 *                        (deadlines), ak_chat.c, ak_crt.c (the Updated
 *                        ruleset's tables)
 *   storing              ak_batch.c (group commit, jobs, answers in
 *                        order), ak_writer.c (the writer thread)
 *   around the games     ak_notify.c (notifications, digests), ak_ladder.c
 *                        and ak_glicko.c (ratings), ak_tournament.c,
 *                        ak_stats.c and ak_metrics.c (what operators see)
 */
#ifndef AK_SERVER_H
#define AK_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "ak_crt_table.h"
#include "ak_dice.h"
#include "ak_frame.h"
#include "ak_rules.h"
#include "ak_store.h"
#include "ak_tls.h"

#define AK_WATCH_MAX 64

/* Every setting, from defaults, then `--config FILE`, then flags
 * (ak_config.c documents the keys). */
struct ak_config {
    char listen[128];
    char db[512];
    char log_file[512];         /* empty: standard error */
    int log_level;
    bool sync_full;             /* sync each commit to disk (else at checkpoints) */
    size_t max_line;            /* longest request line */
    int max_connections;        /* in total */
    int max_per_address;        /* from one address */
    int idle_timeout;           /* seconds a connection may stay unauthenticated */
    int rate;                   /* requests per second per connection (burst twice that) */
    int rate_per_address;       /* ... per address, all its connections (ak_budget.c) */
    int rate_per_user;          /* ... per account, all its connections */
    int writes_per_minute;      /* small writes per account (burst: a minute's worth) */
    int output_per_address;     /* KiB of replies per second to one address */
    int notify_per_hour;        /* notifications one account may cause to others (challenges) */
    int notify_admins_overdue;  /* 1: admins are told (game_overdue) when a game waits for an operator */
    char delete_games[12];      /* a deleted account's unfinished games: "resign" or "adjudicate" */
    int chat_keep_days;         /* chat older than this is deleted (ak_retention.c); 0: kept for ever */
    int games_keep_days;        /* finished games deleted after this many days, 0 never (ak_retention.c) */
    int replays_per_second;     /* actions replayed by `record` and `replay`, everyone's together */
    int games_per_user;         /* unfinished games a user may have */
    int login_failures;         /* failed logins per account or address ... */
    int login_window;           /* ... within this many seconds, then a wait */
    char notify_command[512];   /* run for notifications; empty: none */
    char backup_file[512];      /* SIGUSR1 backs the database up here (without backup_dir) */
    char backup_dir[512];       /* timestamped backups (ak_backup.c) ... */
    double backup_hours;        /* ... every this many hours (0: on SIGUSR1 only) */
    int backup_keep;            /* ... the last this many kept */
    int clock_tick_ms;          /* how often deadlines are checked */
    int health_stuck_seconds;   /* /healthz: a commit writing this long is stuck (ak_health.c) */
    int allow_positions;        /* `new` may start from a given position */
    char tls_cert[512];         /* PEM certificate chain: TLS on the port (with tls_key) */
    char tls_key[512];
    char admins[512];           /* accounts with the admin role: "alice, bob" */
    int vacation_days;          /* days of vacation a player may take a year (0: none) */
    char http_listen[256];      /* HOST:PORT of the HTTP listener (ak_web.c), "" for none */
    char metrics_allow[512];    /* addresses that may read /metrics */
    char web_origins[512];      /* other origins whose pages may open the WebSocket */
    char trusted_proxies[512];  /* reverse proxies whose word on the client's address is taken */
    char web_dir[512];          /* the browser client's files ("" serves none) */
    char updated_crt[512];      /* the Updated ruleset's combat results table (docs/crt-format.md) */
    int digest_hour;            /* UTC hour the daily digests go out */
    int allow_plaintext;        /* 1: no TLS on a non-loopback address is wanted */
    int max_per_user;           /* connections logged in as one account */
    int registrations_per_address;  /* accounts made from one address per hour */
    size_t max_output_anonymous;    /* bytes of output a connection not logged in may leave unread */
    size_t max_output_player;       /* ... a logged-in one */
    size_t max_output_total;        /* ... every connection together */
    int max_watchers_per_game;      /* spectators of one game (players not counted) */
    int max_anonymous_watchers;     /* watching connections without an account, in all */
    int max_anonymous_per_address;  /* ... from one address */
    int session_idle_timeout;   /* seconds a logged-in connection may stay silent */
    int keep_finished;          /* seconds a finished game stays in memory unused */
    /* Glicko-2 ratings (ak_ladder.c) */
    double rating_tau;          /* 0.3 to 1.2 (default 0.75, as lichess) */
    double rating_volatility;   /* a new player's (default 0.06) */
    int rating_max_rd;          /* a new player's deviation, and its ceiling (350) */
    int rating_period_days;     /* days idle that grow the deviation by one period (7) */
    int rating_provisional_rd;  /* above this deviation a rating is provisional (110) */
};

#define AK_PASSWORD_MIN 8

void ak_config_defaults(struct ak_config *c);
/* Apply one setting by its key; -1 with a message in err if it is bad. */
int ak_config_set(struct ak_config *c, const char *key, const char *value, char *err, size_t cap);
/* Read "key = value" lines ('#' comments); -1 with the line in err. */
int ak_config_load(struct ak_config *c, const char *path, char *err, size_t cap);

/* How a connection's bytes travel: a TCP socket (ak_conn.c, with or
 * without TLS) or a WebSocket (ak_web.c). Everything above the bytes
 * (framing, limits, rate, login, commands, pushes) is the same for both. */
struct ak_conn;
struct ak_transport {
    const char *kind;                                   /* for the log and metrics */
    void (*write)(struct ak_conn *c);                   /* send c->out, the turn's output */
    void (*set_reading)(struct ak_conn *c, bool on);    /* read on, or hold back */
    void (*close)(struct ak_conn *c);   /* after what is written; drops its reference when gone */
};

#define AK_PROXY_HEADER_MAX 536     /* a PROXY v2 header with room for TLVs */

struct ak_conn {
    uv_tcp_t tcp;           /* the TCP transport's socket (unused on a WebSocket) */
    const struct ak_transport *tp;
    void *ws;               /* the WebSocket session (ak_web.c); NULL on TCP */
    struct ak_server *srv;
    struct ak_conn *next;
    struct ak_frame frame;
    int refs;               /* the socket, plus pending work requests */
    bool closing;
    bool busy;              /* a command is still running off the loop */
    bool paused;            /* not read until its queue of requests drains */
    struct queued_line *queue, **queue_tail;    /* requests that arrived meanwhile, */
    int nqueued;            /* in order, as the text they came as (parsed JSON */
    size_t queued_bytes;    /* is many times larger) */
    int64_t user;           /* 0 until login or resume */
    char user_name[64];
    char token_hash[65];
    int64_t session_expires;    /* when its session ends (seconds since the epoch) */
    uint64_t last_heard;        /* loop time (ms) of its last request */
    char peer[64];
    uint64_t addr_key;      /* peer's budget key (ak_budget.c); 0: not yet worked out */
    uint64_t id;            /* numbers connections for the log (conn=) */
    uv_timer_t idle;        /* closes a connection left unauthenticated */
    uv_timer_t throttle;    /* over its rate: not read until it fires */
    uv_timer_t linger;      /* a closing transport's time to write what is left (ak_web.c) */
    bool throttled;         /* not read for now: over its rate */
    bool over_address;      /* ... over its address's (ak_budget.c) */
    int overruns;           /* times it went over its rate (reads shrink) */
    double tokens;          /* requests it may still send now (rate limit) */
    uint64_t refilled;      /* loop time (ms) of the last refill */
    int nwatch;
    bool anon_watching;     /* counted as an anonymous watcher (ak_watch.c) */
    struct ak_game *watch[AK_WATCH_MAX];    /* games whose pushes it gets */
    struct ak_tls *tls;     /* NULL on a plaintext port */
    char *cipher;           /* sealed bytes taken from tls, to be written */
    size_t cipher_len, cipher_cap;
    uint64_t accepted;      /* loop time (ms) it was accepted */
    bool spoke;             /* it has sent some bytes */
    char *out;              /* replies and pushes of this loop turn ... */
    size_t out_len, out_cap;
    struct ak_conn *next_dirty; /* ... written once, after the turn's commit */
    bool dirty;
    bool doomed;            /* closed at the end of the turn: it held the most of max_output_total */
    size_t held;            /* its output the transport holds, unread (ak_conn_output_held) */
    /* From a trusted proxy on the game port: its PROXY v2 header is read
     * first (ak_proxy.c), whole, before any other byte. */
    bool proxy_wait;
    size_t proxy_len;
    unsigned char proxy_buf[AK_PROXY_HEADER_MAX];
};

/* What a game list says of a game whose state is not in memory. */
#define AK_COMPUTERS_MAX 64         /* computer accounts akd knows of; more are not challenged */

struct ak_game_brief {
    uint8_t ruleset, turn, side, phase, result, reason;
    uint32_t actions;
};

/* The state before an undoable action, and the action (ak_undo_steps.c). */
struct ak_undo_step {
    struct ak_state before;
    struct ak_action action;
};

struct ak_game {
    int64_t id;
    /* The state, in memory while the game is in play or looked at; a
     * finished game's is freed after a while (ak_game_evict) and read
     * back from the store when asked for (ak_game_arg loads it). brief
     * keeps what the game lists need meanwhile. */
    struct ak_state *state;
    struct ak_game_brief brief;
    uint64_t touched;           /* loop time (ms) it was last asked for or changed */
    struct ak_store_game_meta meta;     /* dice, challenge, time control, status */
    bool creating;          /* not stored yet: no one else sees it */
    bool expiring;          /* its rows are being deleted (games_keep_days, ak_retention.c): found no more */
    bool warned;            /* the awaited player was told the deadline nears */
    bool overdue;           /* the deadline passed and the game waits for an operator */
    char *position;         /* the starting position (state JSON), NULL: the campaign's */
    const struct ak_crt_held *crt;  /* the table its battles are fought on (Updated), or NULL */
    struct ak_dice dice;    /* where its dice come from (secret until the end: never sent) */
    uint32_t snapshot_seq;  /* the action after which the stored snapshot was taken */
    uint32_t stored_seq;    /* the log holds actions 1 to this (the rest wait in the batch) */
    int undos_unstored;     /* undos taken in memory whose cut of the log is not stored yet */
    struct ak_undo_step *undo;  /* the states before its last undoable actions (ak_undo.c) */
    struct ak_game *listed_prev, *listed_next;  /* srv->listed, while ak_game_listed (ak_games.c) */
    bool in_listed;
    int nundo;
    int64_t player[AK_SIDES];
    char player_name[AK_SIDES][64];
    char challenge_name[64];            /* the invited player of a challenge, or "" */
    bool computer[AK_SIDES];            /* the seat's account is played by a program (issue 31) */
    bool challenge_computer;            /* ... and the invited player's */
    int64_t tournament;                 /* the tournament it pairs for, 0: none */
    int round;                          /* ... and its round */
    struct ak_conn **watchers;  /* connections that get its pushes */
    int nwatchers, watchers_cap;
    struct ak_game *next;
};

/* A combat results table of the Updated ruleset as akd holds it
 * (ak_crt.c): the text, its BLAKE2b-256 digest (games.crt_digest) and the
 * table parsed. */
struct ak_crt_held {
    char digest[65];
    char *text;
    struct ak_crt_table table;
};
/* Read and check the operator's table (cfg.updated_crt); -1 with err. */
int ak_crt_load_file(struct ak_server *srv, const char *path, char *err, size_t cap);
/* The table a stored game names, held already or read from the store;
 * NULL (logged) when it is missing or cannot be used. */
const struct ak_crt_held *ak_crt_by_digest(struct ak_server *srv, const char *digest);
void ak_crt_free(struct ak_server *srv);

/* How the lower layers of akd reach the upper ones without naming them,
 * so that the files form layers (docs/architecture.md, "server"): the
 * connections know nothing of commands, the group commit nothing of
 * notifications. ak_hooks.c sets them (ak_server_hook, called once by
 * akd.c); a NULL hook is skipped (akd --check runs without them). */
struct ak_commit;
struct ak_server_hooks {
    /* ak_conn.c: a request was read (ak_dispatch); output was queued this
     * turn (the group commit's wake, ak_batch_wake); a connection is about
     * to go (ak_conn_unwatch_all); it counts as an anonymous watcher again,
     * or no longer (ak_conn_watch_counted_in, _out). */
    void (*request)(struct ak_conn *c, json_t *msg);
    void (*output)(struct ak_server *srv);
    void (*closing)(struct ak_conn *c);
    void (*anonymous)(struct ak_conn *c, bool anonymous);
    /* ak_games.c: an action is about to be committed as k (a rated game
     * it ends gets its ratings computed into k). ak_batch.c: the action
     * of k is stored and answered (the ratings logged, notifications,
     * tournament standings); an action was not stored and the game's
     * state is back as it was (what was kept for undo forgotten, the
     * deadline put back). */
    void (*game_committing)(struct ak_server *srv, const struct ak_game *g, const struct ak_state *prev,
                            const struct ak_state *next, struct ak_commit *k);
    void (*game_stored)(struct ak_server *srv, const struct ak_commit *k);
    void (*game_rolled_back)(struct ak_commit *k);
};

/* ak_hooks.c: set srv->hooks, the wiring of the layers. */
void ak_server_hook(struct ak_server *srv);

struct ak_server {
    uv_loop_t *loop;
    /* The computer accounts (ak_computer.c): read at start, again at each
     * game asked of the computer and after the admin op, so that marking
     * a game's seats costs no lookup (a tournament round marks thousands). */
    int64_t computers[AK_COMPUTERS_MAX];
    bool computer_banned[AK_COMPUTERS_MAX];     /* shown as computers, never challenged */
    int ncomputers;
    /* The operator's table (cfg.updated_crt), new games' table; NULL none.
     * crts holds it and the tables earlier games were started on. */
    const struct ak_crt_held *updated_crt;
    struct ak_crt_held **crts;
    int ncrts;
    uv_tcp_t listener;
    uv_signal_t sigint, sigterm, sighup, sigusr1;
    uv_timer_t clock;
    uv_timer_t backup_timer;    /* every backup_hours (ak_backup.c) */
    uv_timer_t watchdog;        /* pings systemd's watchdog (ak_systemd.c) */
    uv_check_t flusher;         /* commits the actions of each loop turn */
    uv_idle_t keep_polling;     /* while actions wait for their commit */
    struct ak_commit *batch, **batch_tail;     /* actions waiting for a commit */
    struct ak_commit *answers, **answers_tail; /* written, waiting for their answers (ak_batch.c) */
    struct ak_game *listed;     /* the games `games` lists, newest first (ak_game_relist) */
    int nlisted;
    struct ak_writer *writer;   /* the thread committing the batch before */
    bool commit_failing;        /* the last group commit failed (/healthz: ak_health.c) ... */
    bool store_lost;            /* ... the database file deleted or replaced ... */
    char commit_error[200];     /* ... and the store's words, copied while the writer was idle */
    struct ak_commit *spare_commits;
    int nspare_commits;
    struct ak_config cfg;
    struct ak_tls_ctx *tls;     /* NULL: plaintext */
    struct ak_store *store;
    struct ak_conn *conns;
    int nconns;
    struct ak_game *games;
    struct ak_game **game_by_id;    /* indexed by game number */
    int64_t next_game_id;
    int skipped_games;          /* stored games that could not be read at start */
    size_t games_cap;
    struct ak_conn *dirty;      /* connections with output to write */
    uv_idle_t slow_idle;        /* runs the queued costly queries (ak_dispatch.c) */
    struct slow_query *slow_head, **slow_tail;
    uv_idle_t round_idle;       /* makes tournament rounds' games in slices (ak_tournament.c) */
    bool backing_up;            /* a backup runs on the work queue (ak_backup.c) */
    int64_t backup_last;        /* when the newest whole backup in backup_dir was made; 0: none */
    uint64_t backup_failures;   /* backups that failed since akd started (/metrics) */
    size_t out_total;           /* output the transports hold, unread (ak_conn_output_fits) */
    bool stopping;
    struct ak_server_hooks hooks;
};

/* ak_stats.c: counters for akc admin stats (and /metrics) */
#define AK_STATS_BUCKETS 10
extern const double ak_stats_bucket_ms[AK_STATS_BUCKETS];  /* commit latency bounds */
struct ak_stats {
    double actions_per_second;          /* over the last minute */
    uint64_t commits, actions;          /* since akd started */
    uint64_t pushes, refused;           /* pushes sent (one per watcher), connections refused */
    uint64_t logins_throttled;          /* logins and registrations refused by their throttle (rate_limited) */
    uint64_t logins, registrations;     /* sessions started: by a password, by a new account */
    uint64_t finished[3];               /* games finished: the Axis won, the Allies won, a draw */
    int64_t started;                    /* when akd started, seconds since the epoch */
    double latency_sum_ms;              /* every commit's time, summed */
    int64_t uptime;                     /* seconds */
    double latency_ms[4];               /* p50, p90, p99, max of the recent commits */
    int latency_samples;
    uint64_t histogram[AK_STATS_BUCKETS + 1];   /* cumulative; the last is every commit */
    int nerrors;
    char error_code[48][32];
    uint64_t error_count[48];
};
void ak_stats_start(void);
void ak_stats_error(const char *code);
void ak_stats_commit(uint64_t ns, int actions);
void ak_stats_push(int watchers);
void ak_stats_refused(void);
void ak_stats_login_throttled(void);
void ak_stats_signed_in(bool registration);
void ak_stats_game_finished(int result);     /* enum ak_result */
/* ak_health.c: what /healthz answers: 200 when the loop turns (it is
 * answering) and the store accepts writes, else 503 with why in *why. */
int ak_health(const struct ak_server *srv, char *why, size_t len);
/* ak_metrics.c: the Prometheus text exposition of the counters and of the
 * server's connections and games; malloc'd, its length in *len. */
char *ak_metrics_text(struct ak_server *srv, size_t *len);
/* What is open now: connections by kind, players logged in, games by state
 * (for /metrics and akc admin stats alike). */
struct ak_census {
    int tcp, tls, ws, players;
    int open, running, overdue, finished, called_off;
};
void ak_census_take(const struct ak_server *srv, struct ak_census *n);
void ak_stats_read(struct ak_stats *out);

/* ak_tournament_fix.c: the tournament command (withdraw here; list, show
 * and join ak_tournament.c's), and an admin's corrections
 * (tournament_remove, tournament_edit, tournament_cancel; false: not one). */
void ak_cmd_tournament(struct ak_conn *c, const json_t *id, const json_t *msg);
bool ak_tournament_fix_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op);
/* Resign again the unfinished games of players withdrawn from running
 * tournaments whose first resignation was not stored (the clock tick;
 * once a minute). */
void ak_tournament_fix_sweep(struct ak_server *srv);
/* ak_tournament.c: a player's op (list, show, join; false: not one); a
 * tournament whose start or a join is on its way to the store; its JSON. */
bool ak_tournament_player_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op);
bool ak_tournament_busy(int64_t id);
/* A correction of it on its way to the store (on) or stored (off): it is
 * not started, nor a round paired, meanwhile; false: no room to hold it. */
bool ak_tournament_hold(int64_t id, bool on);
struct ak_store_tournament;
json_t *ak_tournament_json(const struct ak_store_tournament *t, int players);
/* admin ops (ak_admin.c checks the role, and audits detail on 0) */
void ak_tournament_create(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_tournament_start_now(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_tournament_tick(struct ak_server *srv);         /* start dates */
void ak_tournament_stop(struct ak_server *srv);         /* drops rounds not yet made */
void ak_tournament_game_over(struct ak_server *srv, const struct ak_game *g);  /* ended or called off */
/* Not a tournament game, or one of a tournament that allows vacations
 * (ak_away.c, where the clock asks it). */
bool ak_tournament_allows_vacation(struct ak_server *srv, const struct ak_game *g);

/* ak_web.c (akd only): the HTTP listener */
int ak_web_start(struct ak_server *srv, const char *host, int port, char *err, size_t cap);
void ak_web_stop(void);
/* SIGHUP: HTTPS takes the certificate and key files again (new
 * connections get them; a certbot renewal without a restart). */
int ak_web_reload_cert(const struct ak_config *cfg, char *err, size_t cap);
/* ak_conn.c: the connections from one address (for the HTTP listener's
 * count, which adds its own sockets). */
int ak_conn_count_from(const struct ak_server *srv, const char *peer);
/* ak_web_listen.c: the HTTP listener's own socket, bound exactly to
 * host:port; each accepted connection goes to adopt (which owns fd). */
int ak_listen_address(const char *host, int port, struct sockaddr_storage *addr);
int ak_web_listen_start(uv_loop_t *loop, const char *host, int port,
                        void (*adopt)(int fd, const struct sockaddr_storage *peer), char *err, size_t cap);
void ak_web_listen_stop(void);

/* ak_backup.c */
int ak_backup_init(struct ak_server *srv, char *err, size_t cap);
int ak_backup_start(struct ak_server *srv, const char *why);
void ak_backup_stop(struct ak_server *srv);

/* ak_systemd.c (akd only) */
void ak_systemd_ready(struct ak_server *srv);
void ak_systemd_reloading(void);
void ak_systemd_reloaded(void);
void ak_systemd_stopping(struct ak_server *srv);

/* ak_conn.c */
int ak_server_listen(struct ak_server *srv, const char *host, int port);
void ak_conn_send(struct ak_conn *c, const json_t *msg);
/* An encoded message (a line with its newline), the same for many. */
void ak_conn_send_bytes(struct ak_conn *c, const char *bytes, size_t len);
/* Write what every connection was sent this loop turn (one write each). */
void ak_conn_flush_all(struct ak_server *srv);
void ak_conn_reply_ok(struct ak_conn *c, const json_t *id, json_t *result);
/* The same with the result already encoded (len bytes of JSON text). */
void ak_conn_reply_ok_text(struct ak_conn *c, const json_t *id, const char *result, size_t len);
void ak_conn_reply_error(struct ak_conn *c, const json_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ak_conn_unref(struct ak_conn *c);
/* Output memory (issue 28): may c's transport hold `more` bytes beside
 * the `waiting` ones its client has not taken? Not past max_output_player
 * (logged in) or max_output_anonymous for the connection, nor past
 * max_output_total for the process: a client that does not read is then
 * closed (false, logged), never left to grow; past the total, the client
 * holding the most is closed instead when that makes room. held/taken:
 * what the transports hold (c: for it too; NULL once it is gone). */
bool ak_conn_output_fits(struct ak_conn *c, size_t waiting, size_t more);
void ak_conn_output_held(struct ak_server *srv, struct ak_conn *c, size_t n);
void ak_conn_output_taken(struct ak_server *srv, struct ak_conn *c, size_t n);
/* A transport's new connection (peer: its address): counted, limited and
 * timed as every other. It holds one reference for the transport, given
 * back through ak_conn_transport_gone. Over a limit it comes back already
 * closing, its refusal written. NULL when out of memory. */
struct ak_conn *ak_conn_open(struct ak_server *srv, const struct ak_transport *tp, void *ws, const char *peer);
/* Bytes read by a transport; end: a message ends here (a WebSocket frame). */
void ak_conn_feed(struct ak_conn *c, const char *data, size_t len, bool end);
/* Close c after what it was sent (its transport goes when written). */
void ak_conn_close(struct ak_conn *c);
/* The transport is gone (the peer left, or the close finished). */
void ak_conn_transport_gone(struct ak_conn *c);
/* A command went off the loop: hold later requests until ak_conn_resume. */
void ak_conn_hold(struct ak_conn *c);
void ak_conn_resume(struct ak_conn *c);
/* Close every connection and the listener (akd.c's ak_server_stop first
 * stops what runs above them). */
void ak_server_close_all(struct ak_server *srv);
/* The connection has logged in: the idle limit no longer applies. */
void ak_conn_authenticated(struct ak_conn *c);
/* It logged out: it has idle_timeout to log in again, or it closes. */
void ak_conn_signed_out(struct ak_conn *c);
/* Reply with an error and close the connection. */
void ak_conn_refuse(struct ak_conn *c, const json_t *id, const char *code, const char *text);
/* End (with a session_ended error, then closed) the connections signed in
 * under token_hash, or as user under any token but keep_token_hash. */
void ak_conn_end_sessions(struct ak_server *srv, int64_t user, const char *token_hash,
                          const char *keep_token_hash, const char *why);
/* Each clock tick: end connections whose session expired, and logged-in
 * connections silent for longer than session_idle_timeout. */
void ak_conn_tick(struct ak_server *srv);

/* ak_dispatch.c */
void ak_dispatch(struct ak_conn *c, json_t *msg);
/* Shutting down: drop the queued costly queries. */
void ak_dispatch_stop(struct ak_server *srv);
/* Take n more requests' worth from c's rate budget; false (nothing
 * taken) if it has not that much left. */
bool ak_conn_charge(struct ak_conn *c, int n);
/* Not read for a while (500 ms): it went over a budget (ak_budget.c). */
void ak_conn_throttle(struct ak_conn *c);

/* ak_accounts.c */
void ak_cmd_register(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_login(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_accounts_stop(struct ak_server *srv);    /* drops the hashes still in line */
void ak_cmd_resume(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_logout(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_reset_password(struct ak_conn *c, const json_t *id, const json_t *msg);
/* A one-time password reset token (32 hex digits, for the admin), its hash
 * (the only thing stored) and when it expires (48 hours). */
void ak_account_reset_token(char token[33], char hashed[65], int64_t *expires);
void ak_cmd_passwd(struct ak_conn *c, const json_t *id, const json_t *msg);
/* The logged-in account's password checked (in the hash queue, counted as
 * a login's guess), then confirmed(c, id) on the loop; else auth_failed. */
void ak_account_confirm(struct ak_conn *c, const json_t *id, const char *password,
                        void (*confirmed)(struct ak_conn *c, const json_t *id));

/* ak_games.c: games in memory */
int ak_games_load(struct ak_server *srv);
void ak_games_free(struct ak_server *srv);
struct ak_game *ak_game_find(struct ak_server *srv, int64_t id);
/* The game named by the request's "game", or NULL after an error reply. */
struct ak_game *ak_game_arg(struct ak_conn *c, const json_t *id, const json_t *msg);
struct ak_game *ak_game_add(struct ak_server *srv, int64_t id);
/* The game's state in memory (read back from the store if it had left);
 * -1 (logged) if it cannot be read. Every game a command names goes
 * through it (ak_game_arg). */
int ak_game_load(struct ak_server *srv, struct ak_game *g);
/* Let a game's state go (it is over, or called off), keeping its brief. */
void ak_game_evict(struct ak_server *srv, struct ak_game *g);
/* Each clock tick: finished games nobody watched or asked for in
 * keep_finished seconds leave memory. */
void ak_games_evict_idle(struct ak_server *srv);
struct ak_game_brief ak_game_brief_of(const struct ak_game *g);
/* The side the game waits for; AK_NOBODY for a game out of memory (they
 * are all over). */
int ak_game_waiting(const struct ak_game *g);
/* Forget a game that was never stored (its creation failed). */
void ak_game_remove(struct ak_server *srv, struct ak_game *g);
/* The state before the first action (the campaign's, or g->position's)
 * into *out. */
int ak_game_start(const struct ak_game *g, int ruleset, struct ak_state *out);
/* Attach the game's table (g->crt) to s, a state of it made or read
 * here; -1 (logged) if the engine holds too many tables already. */
int ak_game_attach_crt(const struct ak_game *g, struct ak_state *s);
/* The state after the first `upto` actions of the stored log into *out;
 * the action after them into *after if given. */
int ak_game_replay(struct ak_server *srv, const struct ak_game *g, int ruleset, uint32_t upto,
                   struct ak_state *out, struct ak_action *after);
/* The same, from a state already at some action of the log. */
int ak_game_replay_from(struct ak_server *srv, const struct ak_game *g, uint32_t upto,
                        struct ak_state *state, struct ak_action *after);
/* Like ak_game_arg, for a player of the game: *side is his. */
struct ak_game *ak_game_player_arg(struct ak_conn *c, const json_t *id, const json_t *msg, int *side);
void ak_game_name_players(struct ak_server *srv, struct ak_game *g);
/* Whether its seated and invited accounts are computers (also done by
 * ak_game_name_players). */
void ak_game_mark_computers(struct ak_server *srv, struct ak_game *g);
bool ak_game_open(const struct ak_game *g);     /* a seat is free */
bool ak_game_listed(const struct ak_game *g);   /* stored, not aborted or declined */
/* After g's status or creating changed: in srv->listed or out of it, as
 * ak_game_listed says (a game that comes in goes first). */
void ak_game_relist(struct ak_server *srv, struct ak_game *g);
void ak_games_relist_all(struct ak_server *srv);    /* the list made again from srv->games */
int ak_game_side_of(const struct ak_game *g, int64_t user);   /* -1: not a player */
json_t *ak_game_summary(const struct ak_game *g, int64_t user);
json_t *ak_game_full(const struct ak_game *g, int64_t user);
/* The exact chances of the mover's declared battles (ak_odds_to_json), or
 * NULL: sent with the hazards. The work is bounded: at most
 * AK_ODDS_FACES_MAX faces fought on copies (about 25 us each, release
 * build; docs/performance.md) and 8 engine applications a face in all,
 * charged to the action or the show that asked, both already within
 * their budgets; the latest 64 positions' answers are kept (by hash). Battles past the bound are
 * named, not worked out ("too many battles"): akc odds works out all of
 * them on the player's own machine. */
#define AK_ODDS_FACES_MAX 120
json_t *ak_game_odds(const struct ak_state *s);
void ak_game_odds_free(void);       /* at exit: the cache of the latest answers */

/* ak_seats.c: each account's games. seat: user (0: none) takes side's
 * seat of g (the one way seats change); leave: g leaves the index (it
 * leaves memory); of: user's games, how many; free: at exit. */
void ak_game_seat(struct ak_game *g, int side, int64_t user);
void ak_seats_leave(const struct ak_game *g);
void ak_seats_challenged(struct ak_game *g);     /* g's challenged player has it too */
void ak_seats_paired(struct ak_game *g);         /* g's tournament has it (g->tournament set) */
int ak_seats_of_tournament(int64_t tournament, struct ak_game *const **games);
int ak_seats_of(int64_t user, struct ak_game *const **games);
void ak_seats_free(void);

/* ak_watch.c: who gets a game's pushes */
/* c gets g's pushes from now on (players and spectators alike); false:
 * no room. refused: whether a spectator may not (why says so): the game's
 * spectators, or anonymous watchers in all or from c's address, at their
 * limits. counted_out: c logged in (or closes): no longer anonymous. */
bool ak_game_watch(struct ak_conn *c, struct ak_game *g);
bool ak_game_watch_refused(struct ak_conn *c, const struct ak_game *g, char *why, size_t cap);
void ak_conn_watch_counted_out(struct ak_conn *c);
/* c logged out while watching: an anonymous watcher from now on (counted
 * even past the limits: it is one already). */
void ak_conn_watch_counted_in(struct ak_conn *c);
/* c is closing: it leaves every game it watched. */
void ak_conn_unwatch_all(struct ak_conn *c);
/* Both of the above as the connections' hook (struct ak_server_hooks). */
void ak_conn_watch_anonymous(struct ak_conn *c, bool anonymous);
/* Every watcher of g stops watching it (g is going away). */
void ak_game_unwatch_all(struct ak_game *g);
/* Encode msg once and queue it to every watcher of g. */
void ak_game_push(const struct ak_game *g, json_t *msg);
/* The same, already encoded (a line with its newline). */
void ak_game_push_line(const struct ak_game *g, const char *line, size_t len);
/* Take a checked action into the game: the state changes in memory at once
 * (so the next action in the same loop turn is judged against it), and the
 * action joins the current group commit (ak_batch.c). Only once that is
 * committed does the sender c get its reply (to request id) and do the
 * watchers get the push; until then c's later requests wait. by names who
 * sent it ("axis", "allied" or "server"; c NULL for the server). False if
 * out of memory (nothing changed). */
bool ak_game_commit(struct ak_server *srv, struct ak_game *g, const struct ak_action *a,
                    const char *nonce, const struct ak_state *next, const struct ak_events *ev,
                    const char *by, struct ak_conn *c, const json_t *id);
/* A game's deadline after an action (ak_games.c, with the away table of
 * ak_away.c): set again, in memory only; true if it moved (and must be
 * stored). move_clock does it for commit k, stored with it; restore puts
 * it back if the commit fails. */
bool ak_clock_next(struct ak_game *g, bool new_turn);
void ak_batch_move_clock(struct ak_commit *k, struct ak_game *g, bool new_turn);
void ak_batch_restore_clock(struct ak_commit *k);
/* Judge action a, sent with nonce (NULL: none), on a copy of g's state:
 * the dice of the action are set up from the nonce first (ak_dice.h).
 * True with the state after it in *next; false with the rule broken. */
bool ak_game_try(const struct ak_game *g, const struct ak_action *a, const char *nonce,
                 struct ak_state *next, struct ak_events *ev, struct ak_reject *rej);

/* ak_batch.c: group commit of the actions of one loop turn */
struct ak_commit;
/* A lobby write that goes through the batch like an action: written by
 * the writer (from the commit's copies only), then answered on the loop,
 * or undone there if the commit failed. */
struct ak_job {
    int (*write)(struct ak_store *st, const struct ak_commit *k);
    void (*answer)(struct ak_server *srv, struct ak_commit *k);
    void (*undo)(struct ak_server *srv, struct ak_commit *k);     /* NULL: nothing in memory to undo */
    void (*release)(void *data);        /* frees k->data (NULL: free) */
    const char *unchanged;              /* said after "nothing changed" when it is not stored, or NULL */
};
struct ak_commit {
    const struct ak_job *job;   /* NULL: an action */
    struct ak_game *g;
    int64_t game_id;
    uint32_t seq;               /* the action's number in its game */
    char *action_text;
    int side;
    int64_t when;
    struct ak_state prev;       /* to roll back if the commit fails */
    bool has_snapshot;          /* store this copy of the game's state with it */
    struct ak_state snapshot;
    bool has_meta;              /* store the game's deadline, moved by the action */
    struct ak_store_game_meta meta;
    int64_t deadline_before;    /* to roll back */
    bool warned_before, overdue_before;
    int waiting_before;
    bool new_turn;
    /* The reply's result and the push, encoded at once (the values they
     * were built from are freed while still in the cache). */
    char *result_text, *push_line;
    size_t result_len, push_len;
    struct ak_conn *conn;       /* who waits for the reply, or NULL */
    json_t *id;
    int64_t user;               /* a job's: who creates or joins the game */
    int ruleset;
    uint64_t seed;
    char nonce[AK_NONCE_MAX + 1];   /* the action's, as the player sent it */
    int64_t rate_winner, rate_loser;    /* it ends a rated game: rate them (ak_ladder.c); */
    double rate_score;          /* the winner's score: 1, or 0.5 for a draw */
    int64_t tournament;         /* create: the tournament it pairs for (0: none), */
    int round;                  /* ... and its round, */
    int64_t seat_other;         /* ... and the player seated opposite at once (0: none) */
    struct {                    /* copied on the loop for the writer thread */
        double tau, volatility;
        int max_rd, period_days;
        char ruleset[16];
    } rating;
    double rated[4];            /* winner before, after; loser before, after */
    void *data;                 /* a small write's own record (ak_batch_job) */
    bool unstored;              /* its commit failed: answered with an error */
    struct ak_commit *next;
};
int ak_batch_start(struct ak_server *srv, char *err, size_t errlen);
/* A cleared commit record (recycled: they are large and made per action). */
struct ak_commit *ak_batch_commit_new(struct ak_server *srv);
void ak_batch_add(struct ak_server *srv, struct ak_commit *k);
/* Commits made over several loop turns that must be stored in one
 * transaction (a tournament round's games, ak_tournament.c): kept apart
 * (hold), then joined to the batch in one loop turn (add_held), or undone
 * and freed unstored (drop_held). Their games must stay unseen meanwhile
 * (ak_game.creating). */
struct ak_held {
    struct ak_commit *head, **tail;     /* tail: &head when empty */
};
void ak_batch_hold(struct ak_held *h, struct ak_commit *k);     /* k answers no connection */
void ak_batch_add_held(struct ak_server *srv, struct ak_held *h);
void ak_batch_drop_held(struct ak_server *srv, struct ak_held *h);
/* A small write (settings, chat, clocks, vacations) in the next group
 * commit instead of a sync of its own on the loop: job->write stores data
 * on the writer thread (it may read there what it must check, and leave
 * its findings in data), job->answer replies to c once it is stored (or
 * c gets an "internal" error and job->undo runs). g: the game it is
 * about, or NULL. c's later requests wait for the answer. false: out of
 * memory (undone, released and said to c at once). */
bool ak_batch_job(struct ak_server *srv, struct ak_conn *c, const json_t *id, const struct ak_job *job,
                  struct ak_game *g, void *data);
/* Keep the loop from sleeping until the next check (output or a batch waits). */
void ak_batch_wake(struct ak_server *srv);
/* Commit what is pending now and wait for it (also before reading the
 * log: undo, record). */
void ak_batch_flush(struct ak_server *srv);
void ak_batch_stop(struct ak_server *srv);

/* ak_writer.c: the thread that writes batches, on a connection of its own */
int ak_writer_start(struct ak_server *srv, void (*on_done)(struct ak_server *srv), char *err,
                    size_t errlen);
bool ak_writer_busy(const struct ak_server *srv);
/* How long the batch in flight has been with the writer (ns), 0 if none. */
uint64_t ak_writer_in_flight_ns(const struct ak_server *srv);
/* The writer's database file was deleted or replaced (every commit since
 * failed), and the writer's last error in words. */
bool ak_writer_store_lost(const struct ak_server *srv);
const char *ak_writer_error(const struct ak_server *srv);
/* Hand a batch to the thread (it must be idle). */
void ak_writer_submit(struct ak_server *srv, struct ak_commit *batch);
/* The batch once written, with its result and duration; NULL if none is
 * done (or, waiting, none was in flight). */
struct ak_commit *ak_writer_take(struct ak_server *srv, bool wait, int *rc, uint64_t *ns);
void ak_writer_stop(struct ak_server *srv);

/* ak_kept.c: answers kept by game and position (a ring of n slots). */
struct ak_kept {
    int64_t game;
    uint32_t seq;
    uint64_t hash;
    char *text;
    size_t len;
};
struct ak_keep {
    struct ak_kept *slot;
    int n, next;
};
const struct ak_kept *ak_kept_find(const struct ak_keep *k, const struct ak_game *g, uint64_t hash);
void ak_kept_put(struct ak_keep *k, const struct ak_game *g, uint64_t hash, char *text, size_t len);
void ak_kept_free(struct ak_keep *k);

/* ak_records.c: record and replay, for spectators too (charged to
 * replays_per_second); ak_records_stop frees the records kept. */
void ak_cmd_record(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_replay(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_records_stop(void);

/* ak_lobby.c */
/* Why akd cannot start games of ruleset r (no table, unfinished): true
 * with the sentence in why. */
bool ak_ruleset_unavailable(const struct ak_server *srv, int r, char *why, size_t cap);
void ak_cmd_new(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_join(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_decline(struct ak_conn *c, const json_t *id, const json_t *msg);
/* ak_bid.c: side auctions (issue 32). The `bid` command; `new`'s "bid"
 * (false after replying); whether g's auction is going on, whose turn it
 * is to bid (0: nobody's) and the auction as clients read it (null: none). */
void ak_cmd_bid(struct ak_conn *c, const json_t *id, const json_t *msg);
bool ak_bid_new_arg(struct ak_conn *c, const json_t *id, const json_t *msg, int ruleset, int side,
                    struct ak_store_game_meta *m);
/* ak_bid_state.c (below the game table): */
bool ak_bid_open(const struct ak_game *g);
int64_t ak_bid_to_move(const struct ak_game *g);
json_t *ak_bid_json(const struct ak_game *g);
int ak_bid_room(int ruleset, int side);     /* supply units side may receive at the opening (once per ruleset) */
const char *ak_bid_side_word(int side);     /* "axis", "allied" */
const char *ak_bid_user_name(const struct ak_game *g, int64_t user);   /* a seated player's name, or NULL */
void ak_cmd_abort(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_watch(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_games(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_show(struct ak_conn *c, const json_t *id, const json_t *msg);

/* ak_play.c */
void ak_cmd_act(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_dests(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_overlay(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_play_stop(void);
void ak_cmd_why(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_odds(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_options(struct ak_conn *c, const json_t *id, const json_t *msg);

/* ak_ladder.c: ratings of rated games */
struct ak_commit;
/* An action about to be committed: if it ends a rated game, k names the
 * winner and loser to rate. */
void ak_ladder_prepare(const struct ak_config *cfg, const struct ak_game *g, const struct ak_state *prev,
                       const struct ak_state *next,
                       struct ak_commit *k);
/* On the writer's connection, inside the action's transaction: the new
 * ratings (kept in k for the log). */
int ak_ladder_write(struct ak_store *st, struct ak_commit *k);
void ak_ladder_log(const struct ak_commit *k);
void ak_cmd_ladder(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_player(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_admin(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_give_time(struct ak_conn *c, const json_t *id, const json_t *msg);
struct ak_commit;
struct ak_job;
/* More time on g's clock (give_time, an admin's extend): seconds later
 * than its deadline (from now if it passed), an overdue game running
 * again, stored through the group commit: d (the caller's, freed by the
 * job) is filled and the deadline moved now; job is the caller's, with ak_clock_deadline_write
 * and ak_clock_deadline_undo and its own answer. audit_by: an admin's
 * name to audit it under ("": none). */
struct ak_deadline_change {
    int64_t before, after, seconds, when;
    bool warned, overdue;
    int side;                   /* give_time: who gave it */
    char audit_by[64], audit_target[32], audit_detail[64];
};
bool ak_clock_give(struct ak_server *srv, struct ak_conn *c, const json_t *id, struct ak_game *g,
                   int64_t seconds, const struct ak_job *job, struct ak_deadline_change *d);
int ak_clock_deadline_write(struct ak_store *st, const struct ak_commit *k);
void ak_clock_deadline_undo(struct ak_server *srv, struct ak_commit *k);
/* akd --check DB (ak_check.c): 0 all well, 1 problems found, 2 unreadable. */
int ak_check_database(const char *path);
/* ak_config.c: the comma-separated lists of settings (admins,
 * metrics_allow, trusted_proxies, web_origins). next: the item after p
 * (blanks around it trimmed) into item, and where the rest begins (NULL
 * at the end); has: item is one of them, in any letter case (an
 * IPv4-mapped IPv6 address as its IPv4 form). */
const char *ak_list_next(const char *p, char *item, size_t cap);
bool ak_list_has(const char *list, const char *item);
/* ak_proxy.c: a peer in trusted_proxies; the client's address from
 * X-Real-IP or the last of X-Forwarded-For (false: none usable); a PROXY
 * v2 header at the start of buf: -1 not one, else its whole length (more
 * than len: read on), out the source address ("" for LOCAL). */
bool ak_proxy_trusted(const struct ak_config *cfg, const char *peer);
bool ak_proxy_forwarded(const char *real_ip, const char *forwarded_for, char *out, size_t cap);
int ak_proxy_v2_parse(const unsigned char *buf, size_t len, char *out, size_t cap);
/* ak_throttle.c: counts within a window that cannot be flushed (nothing
 * in its window is evicted; a full table refuses the newcomer). charge:
 * one more for key (false: no room, refuse the request); count: the
 * count now (0 when none or past its window); refund: one back; forget:
 * back to 0; ends: when key's window ends; slot: turns in a row (below);
 * address: the client's address
 * as counted (an IPv6 /64 as one); reset: empty (the fuzzer's runs). */
bool ak_throttle_charge(const char *key, int window, int64_t now);
int ak_throttle_count(const char *key, int64_t now);
void ak_throttle_refund(const char *key, int64_t now);
void ak_throttle_forget(const char *key, int64_t now);
int64_t ak_throttle_ends(const char *key, int64_t now);
/* Turns step_ms apart for key: the wait in ms before this one's turn,
 * taken only when it is at most max_wait_ms (-1: refused, or no room;
 * a refusal takes no turn, so it cannot push the others back). */
int64_t ak_throttle_slot(const char *key, int window, int64_t now, int64_t now_ms, int step_ms, int64_t max_wait_ms);
void ak_throttle_address(const char *peer, char *out, size_t cap);
void ak_throttle_reset(void);
/* ak_budget.c: token buckets shared by every connection of an address or
 * an account (rate_per_address, rate_per_user, writes_per_minute).
 * charge: false when key's bucket is short of cost (nothing taken);
 * wait: seconds until it would have it; keys: an address's (its /64
 * for IPv6) and an account's; unbudgeted: charges let through for lack
 * of room; reset: empty (tests, the fuzzer). */
enum ak_budget_kind {
    AK_BUDGET_ADDRESS, AK_BUDGET_USER, AK_BUDGET_WRITES, AK_BUDGET_OUTPUT, AK_BUDGET_NOTIFY, AK_BUDGET_REPLAY,
    AK_BUDGET_KINDS
};
bool ak_budget_charge(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                      uint64_t now_ms);
double ak_budget_wait(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                      uint64_t now_ms);
/* spend: cost taken whatever is left (a debt repaid by the refill: the
 * reply's bytes, known once it is made); false when in debt. */
bool ak_budget_spend(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                     uint64_t now_ms);
bool ak_budget_in_debt(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, uint64_t now_ms);
uint64_t ak_budget_address_key(const char *peer);
uint64_t ak_budget_user_key(int64_t user);
#define AK_BUDGET_REPLAY_KEY 1    /* AK_BUDGET_REPLAY: everyone without an account */
#define AK_BUDGET_ACCOUNTS_KEY 2  /* ... all accounts together (each has its own too) */
uint64_t ak_budget_unbudgeted(void);
void ak_budget_reset(void);
/* ak_settings.c: an e-mail address that is a plain address and nothing
 * else (no option, list or shell syntax): checked before any use. */
bool ak_email_plain(const char *e);
/* ak_admin.c: the role from the config key admins, at start (names that
 * named an account when first configured); akd --admin-add/--admin-remove
 * USER on the database (exit status). */
int ak_admin_load(struct ak_server *srv);
int ak_admin_cli(struct ak_store *st, const char *user_name, bool grant);

/* Computer players (ak_computer.c): `new`'s "computer" (the level, and the
 * computer account challenged, into m; false after an error reply); the
 * marks of a user's games in memory after his account changed; akd
 * --computer-add / --computer-remove. */
#define AK_COMPUTER_LEVELS 3
#define AK_COMPUTER_DEFAULT_LEVEL 2
/* Read the computer accounts into srv->computers; false on a store error. */
bool ak_computers_load(struct ak_server *srv);
bool ak_is_computer(const struct ak_server *srv, int64_t user);
bool ak_computer_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_store_game_meta *m);
void ak_computer_refresh(struct ak_server *srv, int64_t user);
int ak_computer_cli(struct ak_store *st, const char *user_name, bool computer);
/* Close a game that will not be played on (declined, aborted): closed in
 * memory at once, stored in the next group commit, then pushed to its
 * watchers as {"push":status,"game","by"} and logged, and c (or NULL)
 * answered {"game","status"}; a failed commit puts it back. false: out of
 * memory (said to c). */
bool ak_game_close(struct ak_server *srv, struct ak_conn *c, const json_t *id, struct ak_game *g,
                   const char *status, const char *by);
/* A new game: the creator seated on side, meta's challenge (if any)
 * invited to the other seat; numbered and in memory at once, stored with
 * the next group commit (with its tournament pairing, if any), then c (if
 * given) is answered to id with the GAME. position (malloc'd, or NULL) is
 * the game's from then on. NULL if out of memory. */
struct ak_game_setup {
    int ruleset, side;
    int64_t creator;
    const struct ak_store_game_meta *meta;
    const struct ak_dice *dice;
    char *position;
    const struct ak_state *start;       /* the position's state, NULL: the campaign */
    int64_t tournament;                 /* 0: none */
    int round;
    int64_t seat_other;                 /* seated on the other side at once (0: the seat is open) */
    const struct ak_crt_held *crt;      /* Updated: its table, NULL: the operator's of today */
    const char *names[2];               /* the players' names, when known (NULL: read from the store) */
    struct ak_held *hold;               /* not NULL: its commit is kept there, not batched (ak_batch.c) */
};
struct ak_game *ak_game_create(struct ak_server *srv, const struct ak_game_setup *s, struct ak_conn *c,
                               const json_t *id);
/* A "time_control" object ({"seconds","per","on_expiry"}, or null/absent
 * for none) into its parts; false if malformed. */
bool ak_time_control_parse(const json_t *tc, int *seconds, char per[8], char expiry[8]);

/* ak_undo.c */
void ak_cmd_undo(struct ak_conn *c, const json_t *id, const json_t *msg);
/* After action a was applied to g (before: the state it was applied to):
 * kept for an undo if it can be taken back, else what was kept goes. */
void ak_undo_note(struct ak_game *g, const struct ak_action *a, const struct ak_state *before);
/* What g keeps for undos goes (its state changed another way). */
void ak_undo_forget(struct ak_game *g);

/* ak_clock.c: deadlines */
void ak_clock_tick(struct ak_server *srv);      /* warnings and expiries (from ak_cron.c) */
/* ak_cron.c: the clock tick */
void ak_cron_start(struct ak_server *srv);

/* ak_notify.c: run the operator's notification command (never a shell) */
void ak_notify(struct ak_server *srv, const char *event, const struct ak_game *g, int64_t user,
               int side);
/* Shutting down: forget the notifications still waiting. */
void ak_notify_stop(void);
/* The same for an event another player caused (sender: a challenge),
 * within the sender's notify_per_hour; dropped: what the limits dropped. */
void ak_notify_from(struct ak_server *srv, int64_t sender, const char *event, const struct ak_game *g,
                    int64_t user, int side);
uint64_t ak_notify_dropped(void);
/* Notifications queued or being delivered now (/metrics). */
int ak_notify_waiting(void);
/* verify_email: the address to verify and the token the player sends back. */
void ak_notify_verify_email(struct ak_server *srv, int64_t user, const char *address, const char *token);
/* From the clock tick: once a day at digest_hour, each digest player's digest. */
void ak_notify_digest(struct ak_server *srv);

/* ak_chat.c, ak_settings.c, ak_vacation.c: correspondence comforts */
void ak_cmd_chat(struct ak_conn *c, const json_t *id, const json_t *msg);
/* May reader see g's channel ("players", "spectators") now? */
bool ak_chat_can_read(const struct ak_game *g, int64_t reader, const char *channel);
/* msg to every watcher of g who may read channel and has not muted chat. */
void ak_chat_push(struct ak_server *srv, const struct ak_game *g, json_t *msg, const char *channel);
/* ak_moderation.c: a player's report of a message; an admin's ops
 * chat_reports, chat_delete, chat_dismiss, chat_mute (false: not one). */
void ak_cmd_chat_report(struct ak_conn *c, const json_t *id, const json_t *msg);
bool ak_moderation_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op);
/* ak_audit.c: the account named by "user" (any case): its id and its
 * name as registered; 0 after an error reply. */
int64_t ak_admin_user_arg(struct ak_conn *c, const json_t *id, const json_t *msg, char canonical[64]);
/* An admin action into the audit table (the next group commit) and the log. */
void ak_admin_audit(struct ak_conn *c, const char *op, const char *target, const char *detail);
/* ak_personal.c: an account's data exported or erased, by its owner
 * (account) or an admin (export_account, delete_account; false: not one). */
void ak_cmd_account(struct ak_conn *c, const json_t *id, const json_t *msg);
/* ak_retention.c: from the clock tick, chat past chat_keep_days deleted. */
void ak_retention_tick(struct ak_server *srv);
bool ak_personal_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op);
void ak_cmd_settings(struct ak_conn *c, const json_t *id, const json_t *msg);
void ak_cmd_vacation(struct ak_conn *c, const json_t *id, const json_t *msg);
/* ak_away.c: who is away, read at start and kept in memory. */
int ak_vacation_load(struct ak_server *srv);
/* user is away until then (0: back); from the vacation command. */
void ak_vacation_set_until(int64_t user, int64_t until);
/* g's clock stands still while its awaited player is away (the game is
 * not of a tournament that allows no vacation). */
bool ak_vacation_clock_stops(const struct ak_game *g);
/* When user's vacation ends (0: not on one): his clocks stand still till then. */
int64_t ak_vacation_until(int64_t user);
void ak_vacation_free(void);
/* A deadline for g set now, with its awaited player on vacation: moved to
 * start when he is back (unless g's tournament allows no vacation). */
int64_t ak_vacation_shift(const struct ak_game *g, int64_t deadline);
/* g waits for a player away on vacation, and its clock stops for it. */
bool ak_vacation_pauses(const struct ak_game *g);

/* ak_log.c */
enum ak_log_level { AK_LOG_DEBUG, AK_LOG_INFO, AK_LOG_WARN, AK_LOG_ERROR };
int ak_log_parse_level(const char *name);
void ak_log_set_level(int level);
void ak_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The fields a line may carry beside its message; 0 or NULL: absent. */
struct ak_log_ctx {
    uint64_t conn;          /* ak_conn.id */
    const char *user;       /* the account acting (an admin, for an admin action) */
    int64_t game;
    const char *target;     /* what an admin action is done to: an account, a game, a tournament */
};
void ak_log_with(int level, const struct ak_log_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The context of a connection (and a game, or 0). */
#define AK_LOG_CONN(c, g) (&(struct ak_log_ctx){(c)->id, (c)->user_name, (g), NULL})
/* A line about game g (game=), with no connection. */
#define AK_LOG_GAME(g) (&(struct ak_log_ctx){0, NULL, (g), NULL})
/* An admin action: who did it (user=), to what (target=; game= too when a game). */
#define AK_LOG_ADMIN(admin, what, g) (&(struct ak_log_ctx){0, (admin), (g), (what)})
/* Write to this file from now on (SIGHUP reopens it); NULL: stderr. */
int ak_log_open(const char *path);
/* Lines are gathered and written once a loop turn (ak_log_flush, from the
 * batch's check handle), not a system call or several per line: a burst
 * of events (a tournament's thousands of games, a flood of connections)
 * would otherwise cost the loop a write each. buffer: at the start of
 * main, before anything is written to standard error. */
void ak_log_buffer(void);
void ak_log_flush(void);

int64_t ak_now(void);   /* seconds since the epoch: the server's one clock */

#endif
