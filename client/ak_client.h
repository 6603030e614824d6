/* ak_client: the pieces of akc.
 *
 * akc is thin: the server referees. ak_net.c talks the line protocol over a
 * blocking socket, ak_session.c keeps the login token in the XDG state
 * directory, ak_draw.c draws the board from a state the server sent, and
 * akc.c maps command-line verbs to requests.
 */
#ifndef AK_CLIENT_H
#define AK_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "ak_state.h"

struct ssl_st;
struct ssl_ctx_st;

struct ak_net {
    int fd;
    struct ssl_st *ssl;         /* NULL: plaintext */
    struct ssl_ctx_st *ctx;
    char *buf;                  /* what was read and not yet taken as lines: grows */
    size_t len, cap;            /* up to AK_NET_LINE_MAX (a long record is large) */
    int next_id;
    bool heard;                 /* a message has arrived */
    bool closed;                /* the connection ended */
};

#define AK_NET_LINE_MAX (16u << 20)

/* How to reach the server. */
enum { AK_TLS_AUTO = -1, AK_TLS_OFF = 0, AK_TLS_ON = 1 };
struct ak_net_opts {
    int tls;                    /* AUTO: TLS unless the host is loopback */
    const char *ca_file;        /* trust this CA file instead of the system's */
    bool accept_new;            /* pin an unverified certificate without asking */
};

/* Connect to HOST:PORT, [IPv6]:PORT or HOST (port 7140), in TLS where
 * opts says; the certificate is checked (ak_trust.c). -1 with a message. */
int ak_net_connect(struct ak_net *n, const char *hostport, const struct ak_net_opts *opts, char *err,
                   size_t errlen);
/* HOST:PORT into host (brackets of an IPv6 address removed) and port. */
int ak_net_split(const char *hostport, char *host, size_t cap, char *port, size_t pcap);
bool ak_net_is_loopback(const char *host);

/* ak_trust.c: is the server's certificate to be trusted? It is when it
 * verifies against the trust store (or --ca) for host; otherwise when its
 * SHA-256 fingerprint is the one pinned for host:port in
 * $XDG_STATE_HOME/akc/known_servers, or when the user pins it now
 * (asked on a terminal, or accept_new). A pinned certificate that changed
 * is refused, loudly. 0 to go on, -1 with a message in err. */
int ak_trust_check(struct ssl_st *ssl, const char *host, const char *port, bool accept_new, char *err,
                   size_t errlen);
void ak_net_close(struct ak_net *n);
int ak_net_send_line(struct ak_net *n, const char *line, size_t len);
/* Send {cmd,...} with a fresh id and wait for its reply (pushes that
 * arrive meanwhile go to on_push if given). NULL if the connection broke. */
json_t *ak_net_call(struct ak_net *n, json_t *req, void (*on_push)(json_t *push));
/* Read one whole line (blocking, or up to timeout_ms; -1 forever). Returns
 * the message, or NULL on EOF, error or time-out. */
json_t *ak_net_read(struct ak_net *n, int timeout_ms);
/* A whole message is already read (buffered here or inside TLS), so poll()
 * on the socket would not announce it: read it with ak_net_read(n, 0). */
bool ak_net_pending(const struct ak_net *n);
/* Tell the server this connection is alive (akd closes logged-in
 * connections silent for its session_idle_timeout, 600 s by default); the
 * reply (id "ping") is not waited for. Sent when nothing happened for
 * AK_PING_MS. */
#define AK_PING_MS (120 * 1000)
void ak_net_ping(struct ak_net *n);

struct ak_session {
    char server[256];
    char user[64];
    char token[80];
};
bool ak_session_load(struct ak_session *s);
/* $ENV/akc/FILE, or ~/FALLBACK/akc/FILE without ENV (XDG base
 * directories), its directories made (0700) if make_dir. */
int ak_xdg_path(const char *env, const char *fallback, const char *file, char *out, size_t cap,
                bool make_dir);
int ak_session_save(const struct ak_session *s);
int ak_session_clear(void);
/* ak_config_file.c: $XDG_CONFIG_HOME/akc/config, with [profile NAME]
 * sections (format at the top of the file). 0, or -1 with err naming the
 * file and line. */
struct ak_client_config {
    char server[256], ca[256];
    int color;                  /* 1 always, 0 never, -1 auto */
    int tls;                    /* AK_TLS_* */
    long time;                  /* akc new: seconds, 0 none */
    char per[8], on_expiry[8];  /* "" when not set */
    bool rated;
};
int ak_client_config_load(const char *profile, struct ak_client_config *c, char *err, size_t errlen);
bool ak_profile_name_ok(const char *name);
/* Keep the session of profile NAME apart (NULL or "": the default one). */
void ak_session_profile(const char *name);

struct ak_draw_opts {
    bool color;
    bool wide;          /* the whole map, whatever the width */
    int width;          /* columns available */
    int height;         /* lines available, 0: draw every row */
    int radius;         /* squares around the centre to show, 0: as many as fit */
    ak_hex at;          /* centre of the viewport, AK_HEX_NONE: automatic */
    const uint8_t *mark;    /* per square: a glyph drawn on empty squares, 0 none */
    const char *legend;     /* what the marks mean, a line under the map */
};
/* Highlights, for ak_draw_opts.mark (AK_HEX_COUNT bytes each): where a
 * stack can end its move ('*', '+' where it must stop); the squares in the
 * zones of side's enemies ('z'); the squares from which an attack of side
 * is sustained by one of its supply units ('s'). */
int ak_draw_mark_dests(const struct ak_state *s, const uint8_t *units, int n, uint8_t *mark);
void ak_draw_mark_zoc(const struct ak_state *s, int side, uint8_t *mark);
void ak_draw_mark_supply(const struct ak_state *s, int side, uint8_t *mark);
/* Set up o to highlight "zoc", "supply", or the destinations of the units
 * named ("21pz5,21pz3"); -1 with a message for an unknown unit. */
int ak_draw_highlight(const struct ak_state *s, const char *what, uint8_t *mark,
                      struct ak_draw_opts *o);
void ak_draw_board(FILE *out, const struct ak_state *s, const struct ak_draw_opts *o);
/* "Allied won by time": the result of a game that is over, in words. */
const char *ak_draw_result(const struct ak_state *s, char *buf, size_t cap);
/* A square from "L59" or a place name ("Tobruch", "Agheila"), or
 * AK_HEX_NONE. */
ak_hex ak_draw_place(const char *text);
/* The combat portion in words: declared battles and the decision owed. */
void ak_draw_combat(FILE *out, const struct ak_state *s);
/* The dangers the rules hold for the player to move (ak_hazards), one line
 * each with its rule; with ending an action kind (AK_ACT_END_MOVEMENT,
 * AK_ACT_END_TURN), only those that action would make bite, without the
 * heading. Returns how many were printed. */
int ak_draw_hazards(FILE *out, const struct ak_state *s, int ending);

/* ak_summary.c: a game summary (PROTOCOL.md SUMMARY) for people. The
 * clock: "-", "2d 4h left (3d/action)", "OVERDUE (3d/action)", "3d/turn". */
void ak_summary_clock(const json_t *summary, char *buf, size_t cap);
/* The Updated ruleset's table a game's full form carries (crt_table),
 * attached to s, its state, so that odds read as the server's; none when
 * the game has none or it cannot be read. */
void ak_summary_attach_crt(const json_t *game, struct ak_state *s);
/* A chat message or push: "bob: hello", "(spectator) carol: nice move". */
void ak_summary_chat(const json_t *m, char *buf, size_t cap);
/* "YOUR MOVE", "axis to move", "OVERDUE: ...", "CHALLENGE from alice",
 * "challenge to bob", "open seek", "axis_wins by elimination"; me is the
 * user's name (NULL if not logged in). */
void ak_summary_status(const json_t *summary, const char *me, char *buf, size_t cap);
/* The game's side auction in words (issue 32): the standing bid and who
 * is to bid, or how it ended; false when the game has none. */
bool ak_summary_bid(const json_t *summary, const char *me, char *buf, size_t cap);
/* "Allied won by resignation" for a game that is over. */
void ak_summary_result(const json_t *summary, char *buf, size_t cap);
/* The other player's name (the invited one of my challenge, the sender of
 * a challenge to me), "(open)", or "alice v bob" for a game one does not
 * play. */
const char *ak_summary_opponent(const json_t *summary, const char *me);
/* akc games filters: games one plays or is challenged to; waiting for
 * one's move; with a seat one may take; over. */
enum { AK_GAMES_MINE = 1, AK_GAMES_WAITING = 2, AK_GAMES_OPEN = 4, AK_GAMES_FINISHED = 8 };
bool ak_summary_matches(const json_t *summary, const char *me, unsigned filters);

/* akc_play.c: the interactive session on a game on server (summary: the GAME the
 * server answered `watch` with, its public state inside; me: the side played, -1 to watch; again: closes n,
 * connects and resumes the session anew: 0 done, 1 not now (try later),
 * -1 never (the session is gone); NULL: no reconnecting). */
int ak_play(struct ak_net *n, const char *server, long game, int me, const json_t *summary,
            const struct ak_draw_opts *draw, int (*again)(struct ak_net *n));

/* ak_verify.c: check a game record and print the report; 0 if it holds. */
/* akc verify's exit status for a game still running (distinct from 1, a
 * failed verification). */
#define AK_VERIFY_NOT_OVER 4
int ak_verify_print(const json_t *record, const char *server, FILE *out);
int ak_verify_file(const char *path, const char *server, FILE *out);

/* ak_verbs.c: play verbs to action JSON ("battle 7arm7 trenta asup1"; argv
 * starts at the verb, the game number taken off), NULL with err if the
 * words do not fit; and a listed action back to the akc command line. */
json_t *ak_verb_action(int argc, char **argv, char *err, int errlen);
/* The `act` request for an action (stolen) in game, with a fresh random
 * nonce: the player's share of the dice (proto/ak_dice.h). */
json_t *ak_act_request(long long game, json_t *action, const char *nonce);
/* ak_nonces.c: the player's own dice nonces. The nonce of action seq of
 * game on server (false: akc's key cannot be read or made); keep one the
 * server accepted; check those kept for a record's game (-1 with why
 * naming the first action whose recorded nonce differs; *checked counts
 * them). */
bool ak_nonce_for(const char *server, long long game, uint32_t seq, char out[65]);
void ak_nonce_keep(const char *server, long long game, uint32_t seq, const char *nonce);
/* After an accepted action: kept under seq, the number it was made for,
 * with a warning when the reply names another. */
void ak_nonce_check_reply(const char *server, long long game, uint32_t seq, const char *nonce, const json_t *reply);
int ak_nonces_check(const json_t *record, const char *server, int *checked, char *why, size_t cap);
bool ak_verb_is_action(const char *verb);
/* The action kind (AK_ACT_*) a play verb sends, -1 for none. */
int ak_verb_kind(const char *verb);
/* The i-th play verb whose action the ruleset has (completion), NULL past the last. */
const char *ak_verb_of_ruleset(int ruleset, int i);
/* "a,b,c" -> ["a","b","c"] */
json_t *ak_verb_names(const char *list);
void ak_verb_format(long game, const json_t *action, char *buf, size_t cap);
/* The action as a play command without the game: "move 21pz5 R35". */
void ak_verb_describe(const json_t *action, char *buf, size_t cap);
/* "Axis" or "Allied" for a push's "by" ("axis", "allied"); "?" else. */
const char *ak_push_side(const json_t *by);

#endif
