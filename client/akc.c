/* akc: the Afrika Korps command-line client.
 *
 * Each verb is one request (after resuming the saved session): register,
 * login, logout, new, join, games, show, watch, options, dests, why, the
 * play verbs of ak_verbs.c (move, place, battle, resolve, retreat...), and
 * raw for scripts. Exit status:
 * 0 done, 1 the server refused (an illegal move, a bad request), 2 bad
 * usage, 3 no connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <poll.h>
#include <sodium.h>

#include "ak_client.h"
#include "ak_dice.h"
#include "ak_engine.h"
#include "ak_codec.h"
#include "ak_notation.h"
#include "ak_commit.h"
#include "ak_version.h"
#include "akc_cmd.h"


static struct {
    const char *server;
    struct ak_net_opts net;     /* TLS or not, trusted authorities, pinning */
    bool color;
    bool json;
    struct ak_draw_opts draw;
    const char *opponent;       /* new: challenge this player */
    bool rated;
    long time;                  /* new: seconds per action or turn, 0 for none */
    const char *per, *on_expiry;
    const char *file;           /* verify: a record file instead of a game */
    const char *position;       /* new: start from this state file (where akd allows it) */
    const char *highlight;      /* show: "zoc", "supply" or units for their destinations */
    unsigned games_filter;      /* games: AK_GAMES_* */
    const char *ruleset;        /* ladder, new: the ruleset */
    int page;                   /* ladder: from 1 */
    bool per_given;             /* --per or --on-expiry on the command line */
    int min_rating, max_rating; /* new: who may take the open seat */
    int computer;               /* new --vs computer[:LEVEL]: the level, 0 none */
    int bid;                    /* new --bid N: the opening bid in supply units, -1 none */
    int level;                  /* hint, analyse --level N */
    int playouts, horizon;      /* analyse --playouts N --horizon N */
    const char *adjudicate;     /* analyse --adjudicate axis|allied|draw|analysed */
} opt;

static int cmd_account(struct ak_net *n, const char *verb, const char *user)
{
    char password[1024];
    int status;
    int got = strcmp(verb, "register") == 0 ? akc_read_new_password(password, sizeof password, "New password: ")
                                            : akc_read_password(password, sizeof password, "Password: ");
    if (got != 0)
        return EXIT_USAGE;
    json_t *r = akc_call(n, json_pack("{s:s,s:s,s:s}", "cmd", verb, "user", user, "password", password), &status);
    memset(password, 0, sizeof password);
    if (!r)
        return status;
    akc_save_session(r);
    if (!opt.json)
        printf("%s as %s\n", strcmp(verb, "register") == 0 ? "registered and logged in" : "logged in",
               json_string_value(json_object_get(r, "user")));
    json_decref(r);
    return 0;
}

static void print_events(const json_t *events)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e)
        printf("  %s\n", json_string_value(json_object_get(e, "text")));
}

/* The dice nonce of the game's next action: the player's own (ak_nonces.c),
 * for the action number the game is at. */
static bool next_nonce(struct ak_net *n, long game, char nonce[AK_NONCE_MAX + 1], uint32_t *seq_out)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)game), &status);
    if (!r)
        return false;
    json_int_t seq = json_integer_value(json_object_get(json_object_get(r, "state"), "actions"));
    json_decref(r);
    *seq_out = (uint32_t)seq + 1;
    if (!ak_nonce_for(opt.server, game, (uint32_t)seq + 1, nonce)) {
        fprintf(stderr, "akc: cannot read or make the dice nonce key in $XDG_STATE_HOME/akc\n");
        return false;
    }
    return true;
}

static int act(struct ak_net *n, long game, json_t *action)
{
    int status;
    char nonce[AK_NONCE_MAX + 1];
    uint32_t seq;
    if (!next_nonce(n, game, nonce, &seq)) {
        json_decref(action);
        return EXIT_REFUSED;
    }
    json_t *r = akc_call(n, ak_act_request(game, action, nonce), &status);
    if (!r)
        return status;
    ak_nonce_check_reply(opt.server, game, seq, nonce, r);
    if (!opt.json)
        print_events(json_object_get(r, "events"));
    json_decref(r);
    return 0;
}

static int draw_game(const json_t *r, const char *me)
{
    struct ak_state s;
    char err[200];
    if (!ak_state_from_json(json_object_get(r, "state"), &s, err, sizeof err)) {
        fprintf(stderr, "akc: the server sent a state this client cannot read: %s\n", err);
        return EXIT_REFUSED;
    }
    ak_summary_attach_crt(r, &s);
    const json_t *p = json_object_get(r, "players");
    const char *ax = json_string_value(json_object_get(p, "axis"));
    const char *al = json_string_value(json_object_get(p, "allied"));
    printf("Game %lld: Axis %s, Allied %s\n", (long long)json_integer_value(json_object_get(r, "game")),
           ax ? ax : "(open)", al ? al : "(open)");
    char clock[64], status_text[96];
    ak_summary_clock(r, clock, sizeof clock);
    ak_summary_status(r, me, status_text, sizeof status_text);
    printf("%s, %s; clock: %s; %s\n", json_string_value(json_object_get(r, "ruleset")),
           json_is_true(json_object_get(r, "rated")) ? "rated" : "not rated", clock, status_text);
    char bid[200];
    if (ak_summary_bid(r, me, bid, sizeof bid))
        printf("%s\n", bid);
    if (ak_crt_of(&s))      /* the table this game is fought on, by its name line */
        printf("Combat results table: %s\n", ak_crt_of(&s)->name);
    else if (json_object_get(r, "crt_table"))
        printf("Combat results table: sent by the server but unreadable here\n");
    struct ak_draw_opts o = opt.draw;
    static uint8_t mark[AK_HEX_COUNT];
    if (opt.highlight && ak_draw_highlight(&s, opt.highlight, mark, &o) != 0)
        return EXIT_USAGE;
    ak_draw_board(stdout, &s, &o);
    ak_draw_combat(stdout, &s);
    ak_draw_hazards(stdout, &s, 0);
    return 0;
}

static int cmd_new(struct ak_net *n, const char *side)
{
    int status;
    json_t *req = json_pack("{s:s,s:s,s:b}", "cmd", "new", "side", side, "rated", opt.rated);
    if (opt.ruleset)
        json_object_set_new(req, "ruleset", json_string(opt.ruleset));
    if (opt.opponent)
        json_object_set_new(req, "opponent", json_string(opt.opponent));
    if (opt.computer)
        json_object_set_new(req, "computer", json_integer(opt.computer));
    if (opt.bid >= 0)
        json_object_set_new(req, "bid", json_integer(opt.bid));
    if (opt.min_rating)
        json_object_set_new(req, "min_rating", json_integer(opt.min_rating));
    if (opt.max_rating)
        json_object_set_new(req, "max_rating", json_integer(opt.max_rating));
    if (opt.position) {
        json_error_t e;
        json_t *pos = json_load_file(opt.position, 0, &e);
        if (!pos) {
            json_decref(req);
            fprintf(stderr, "akc: %s: %s\n", opt.position, e.text);
            return EXIT_USAGE;
        }
        json_object_set_new(req, "position", pos);
    }
    if (opt.time)
        json_object_set_new(req, "time_control",
                            json_pack("{s:I,s:s,s:s}", "seconds", (json_int_t)opt.time, "per",
                                      opt.per ? opt.per : "action", "on_expiry",
                                      opt.on_expiry ? opt.on_expiry : "lose"));
    json_t *r = akc_call(n, req, &status);
    if (r && !opt.json) {
        long long g = (long long)json_integer_value(json_object_get(r, "game"));
        printf("created game %lld; you play %s. ", g, json_string_value(json_object_get(r, "you")));
        if (opt.computer)
            printf("the computer (%s, level %d) is challenged and answers in a moment: akc show %lld\n",
                   json_string_value(json_object_get(r, "challenge")), opt.computer, g);
        else if (opt.opponent)
            printf("%s is challenged: akc join %lld (or akc decline %lld)\n", opt.opponent, g, g);
        else if (opt.bid >= 0)
            printf("Another player joins with akc join %lld, then accepts your bid or bids more\n", g);
        else
            printf("Another player joins with: akc join %lld\n", g);
        printf("dice commitment: %s\n", json_string_value(json_object_get(r, "dice_commit")));
    }
    json_decref(r);
    return status;
}

static int cmd_passwd(struct ak_net *n)
{
    char old[1024], new[1024];
    int status;
    const char *env = getenv("AKC_NEW_PASSWORD");
    if (akc_read_password(old, sizeof old, "Current password: ") != 0)
        return EXIT_USAGE;
    if (env)
        snprintf(new, sizeof new, "%s", env);
    else if (!isatty(STDIN_FILENO))
        return fprintf(stderr, "akc: set AKC_NEW_PASSWORD or run on a terminal\n"), EXIT_USAGE;
    else if (akc_read_new_password(new, sizeof new, "New password: ") != 0)
        return EXIT_USAGE;
    json_t *r = akc_call(n, json_pack("{s:s,s:s,s:s}", "cmd", "passwd", "password", old,
                                  "new_password", new), &status);
    memset(old, 0, sizeof old);
    memset(new, 0, sizeof new);
    /* Every session of the account ended, this one too: keep the new one. */
    const char *token = json_string_value(json_object_get(r, "token"));
    struct ak_session s;
    if (token && ak_session_load(&s)) {
        snprintf(s.token, sizeof s.token, "%s", token);
        if (ak_session_save(&s) != 0)
            fprintf(stderr, "akc: warning: could not save the new session\n");
    }
    if (r && !opt.json)
        printf("password changed; every other session of the account has ended\n");
    json_decref(r);
    return status;
}

/* akc export-data [FILE]: the account's data as JSON (FILE mode 0600). */
static int cmd_export_data(struct ak_net *n, const char *file)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:s}", "cmd", "account", "op", "export"), &status);
    if (!r)
        return status;
    int fd = file ? open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    if (file && fd < 0) {
        fprintf(stderr, "akc: cannot write %s: %s\n", file, strerror(errno));
        json_decref(r);
        return EXIT_REFUSED;
    }
    int rc = json_dumpfd(r, file ? fd : STDOUT_FILENO, JSON_INDENT(2));
    if (file) {
        rc |= write(fd, "\n", 1) != 1;
        close(fd);
        if (rc == 0)
            printf("your data (%lld games, %lld chat messages) is in %s\n",
                   (long long)json_integer_value(json_object_get(r, "games_total")),
                   (long long)json_integer_value(json_object_get(r, "chat_total")), file);
    } else {
        putchar('\n');
    }
    json_decref(r);
    return rc == 0 ? 0 : EXIT_REFUSED;
}

/* akc delete-account NAME: NAME typed again as the confirmation, then the
 * password; the account is erased on the server (no undo). */
static int cmd_delete_account(struct ak_net *n, const char *name)
{
    struct ak_session s;
    if (!ak_session_load(&s) || strcasecmp(s.user, name) != 0) {
        fprintf(stderr, "akc delete-account: name the account you are logged in as (%s) to confirm\n",
                ak_session_load(&s) ? s.user : "not logged in");
        return EXIT_USAGE;
    }
    char password[1024];
    int status;
    if (akc_read_password(password, sizeof password, "Password (the account is deleted for ever): ") != 0)
        return EXIT_USAGE;
    json_t *r = akc_call(n, json_pack("{s:s,s:s,s:s}", "cmd", "account", "op", "delete", "password", password),
                         &status);
    memset(password, 0, sizeof password);
    if (r && !opt.json)
        printf("account %s deleted: its personal data is erased, its finished games stay under the name %s; "
               "%lld unfinished games ended\n", name, json_string_value(json_object_get(r, "now")),
               (long long)json_integer_value(json_object_get(r, "games_ended")));
    json_decref(r);
    return status;
}

static int cmd_game_verb(struct ak_net *n, const char *verb, long game)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", verb, "game", (json_int_t)game), &status);
    if (r && !opt.json)
        printf("game %ld %s\n", game, json_string_value(json_object_get(r, "status")));
    json_decref(r);
    return status;
}

static int cmd_record(struct ak_net *n, long game, bool verify)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "record", "game", (json_int_t)game), &status);
    if (!r)
        return status;
    if (!verify && !opt.json) {
        char *text = json_dumps(r, JSON_INDENT(1));
        puts(text);
        free(text);
    }
    status = verify ? ak_verify_print(r, opt.server, stdout) : 0;
    json_decref(r);
    return status;
}

static int cmd_options(struct ak_net *n, long game)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "options", "game", (json_int_t)game), &status);
    if (!r || opt.json)
        return (json_decref(r), status);
    const char *w = json_string_value(json_object_get(r, "waiting_for"));
    const char *none = json_string_value(json_object_get(r, "none_because"));
    bool moves = false;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(r, "kinds"), i, a)
        moves = moves || strcmp(json_string_value(a), "move") == 0;
    if (!w) {
        printf("game %ld: nothing can be done: %s\n", game, none ? none : "it waits for nobody");
        json_decref(r);
        return 0;
    }
    printf("game %ld waits for the %s player; open now:\n", game, strcmp(w, "axis") == 0 ? "Axis" : "Allied");
    char line[600];
    json_array_foreach(json_object_get(r, "actions"), i, a) {
        ak_verb_format(game, a, line, sizeof line);
        printf("  %s\n", line);
    }
    if (none)
        printf(moves ? "  nothing but moves: %s\n" : "  nothing for you: %s\n", none);
    if (moves)
        printf("  (and moves: akc dests %ld UNITS lists where a stack can go)\n", game);
    json_decref(r);
    return 0;
}

static int cmd_games(struct ak_net *n, const char *me)
{
    int status;
    /* akd answers in pages; akc shows them all, as one list (and with
     * --json as one document, printed here rather than page by page). */
    akc_json_hold(true);
    json_t *r = akc_call(n, json_pack("{s:s,s:i}", "cmd", "games", "limit", 500), &status);
    while (r && json_is_true(json_object_get(r, "more"))) {
        json_int_t next = json_integer_value(json_object_get(r, "offset")) +
                          (json_int_t)json_array_size(json_object_get(r, "games"));
        json_t *more = akc_call(n, json_pack("{s:s,s:I,s:i}", "cmd", "games", "offset", next, "limit", 500), &status);
        if (!more) {
            akc_json_hold(false);
            json_decref(r);
            return status;
        }
        json_array_extend(json_object_get(r, "games"), json_object_get(more, "games"));
        json_object_set(r, "more", json_object_get(more, "more"));
        json_decref(more);
    }
    akc_json_hold(false);
    if (r) {
        json_object_del(r, "offset");
        json_object_del(r, "more");
        /* --mine, --waiting, --open, --finished: the JSON is filtered too. */
        json_t *kept = json_array();
        size_t k;
        json_t *one;
        json_array_foreach(json_object_get(r, "games"), k, one)
            if (ak_summary_matches(one, me, opt.games_filter))
                json_array_append(kept, one);
        json_object_set_new(r, "total", json_integer((json_int_t)json_array_size(kept)));
        json_object_set_new(r, "games", kept);
    }
    if (r && opt.json) {
        char *text = json_dumps(r, JSON_COMPACT);
        puts(text);
        free(text);
    }
    if (!r || opt.json)
        return (json_decref(r), status);
    size_t i;
    json_t *g;
    int shown = 0;
    json_array_foreach(json_object_get(r, "games"), i, g) {
        if (!ak_summary_matches(g, me, opt.games_filter))
            continue;
        if (shown++ == 0)
            printf("%-6s %-7s %-16s %-8s %-20s %-26s %-6s %s\n", "game", "you", "opponent", "ruleset", "turn",
                   "clock", "rated", "status");
        const char *you = json_string_value(json_object_get(g, "you"));
        char turn[64], clock[64], status_text[96];
        snprintf(turn, sizeof turn, "%lld %s", (long long)json_integer_value(json_object_get(g, "turn")),
                 json_string_value(json_object_get(g, "date")));
        ak_summary_clock(g, clock, sizeof clock);
        ak_summary_status(g, me, status_text, sizeof status_text);
        printf("%-6lld %-7s %-16s %-8s %-20s %-26s %-6s %s\n", (long long)json_integer_value(json_object_get(g, "game")),
               you ? you : "-", ak_summary_opponent(g, me), json_string_value(json_object_get(g, "ruleset")), turn,
               clock, json_is_true(json_object_get(g, "rated")) ? "rated" : "-", status_text);
    }
    if (shown == 0)
        printf("no games%s\n", opt.games_filter ? " match" : " yet: akc new axis|allied|random creates one");
    json_decref(r);
    return 0;
}

static void print_push(json_t *m)
{
    const char *kind = json_string_value(json_object_get(m, "push"));
    if (kind && strcmp(kind, "game") == 0) {
        printf("game %lld, action %lld by %s:\n", (long long)json_integer_value(json_object_get(m, "game")),
               (long long)json_integer_value(json_object_get(m, "seq")),
               json_string_value(json_object_get(m, "by")));
        print_events(json_object_get(m, "events"));
    } else if (kind && strcmp(kind, "undo") == 0) {
        char what[300];
        ak_verb_describe(json_object_get(m, "action"), what, sizeof what);
        printf("game %lld, back to action %lld: taken back by the %s player: %s\n",
               (long long)json_integer_value(json_object_get(m, "game")),
               (long long)json_integer_value(json_object_get(m, "seq")),
               ak_push_side(json_object_get(m, "by")), what);
    } else if (kind && (strcmp(kind, "aborted") == 0 || strcmp(kind, "declined") == 0)) {
        printf("game %lld was %s by %s\n", (long long)json_integer_value(json_object_get(m, "game")), kind,
               json_string_value(json_object_get(m, "by")));
    } else if (kind && strcmp(kind, "chat") == 0) {
        char line[700];
        ak_summary_chat(m, line, sizeof line);
        printf("game %lld: %s\n", (long long)json_integer_value(json_object_get(m, "game")), line);
    } else if (kind && strcmp(kind, "chat_removed") == 0) {
        printf("game %lld: chat message %lld was removed by an admin\n",
               (long long)json_integer_value(json_object_get(m, "game")),
               (long long)json_integer_value(json_object_get(m, "id")));
    } else if (kind && strcmp(kind, "joined") == 0) {
        printf("game %lld: %s joined as %s\n", (long long)json_integer_value(json_object_get(m, "game")),
               json_string_value(json_object_get(m, "user")), json_string_value(json_object_get(m, "side")));
    }
    fflush(stdout);
}

static int cmd_watch(struct ak_net *n, long game)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "watch", "game", (json_int_t)game), &status);
    if (!r)
        return status;
    const char *phase = json_string_value(json_object_get(r, "phase"));
    const char *state_status = json_string_value(json_object_get(r, "status"));
    bool over = (phase && strcmp(phase, "over") == 0) || (state_status && strcmp(state_status, "active") != 0);
    char result[96];
    ak_summary_result(r, result, sizeof result);
    json_decref(r);
    if (over) {     /* nothing more will come */
        if (!opt.json)
            printf("game %ld is over: %s\n", game, result);
        return 0;
    }
    printf("watching game %ld (interrupt to stop)\n", game);
    fflush(stdout);
    json_t *m;
    for (;;) {
        if (!(m = ak_net_read(n, AK_PING_MS))) {
            if (n->closed) {
                fprintf(stderr, "akc: the connection to the server was lost\n");
                return EXIT_NET;
            }
            ak_net_ping(n);     /* nothing happened: say we are still here */
            continue;
        }
        if (!json_object_get(m, "push")) {
            json_decref(m);     /* the answer to a ping */
            continue;
        }
        if (opt.json) {
            char *s = json_dumps(m, JSON_COMPACT);
            puts(s);
            free(s);
            fflush(stdout);
        } else {
            print_push(m);
        }
        /* The game is over (the push that ends it reveals the dice
         * secret), or was called off: nothing more will come. */
        const char *kind = json_string_value(json_object_get(m, "push"));
        bool over = json_object_get(m, "dice_secret") != NULL ||
                    (kind && (strcmp(kind, "aborted") == 0 || strcmp(kind, "declined") == 0));
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(m, "events"), i, e) {
            const char *ev = json_string_value(json_object_get(e, "event"));
            over = over || (ev && strcmp(ev, "game_over") == 0);
        }
        json_decref(m);
        if (over) {
            if (!opt.json)
                printf("game %ld is over\n", game);
            break;
        }
    }
    return 0;
}

/* Lines akd answers: non-empty once a trailing CR is taken off (PROTOCOL.md). */
static bool raw_line_answered(const char *line, size_t len)
{
    if (len > 0 && line[len - 1] == '\n')
        len--;
    if (len > 0 && line[len - 1] == '\r')
        len--;
    return len > 0;
}

/* How long raw waits, at the end of its input, for replies still due
 * while the server says nothing: a slow server (a login's password hash,
 * a loaded machine) is waited for; a silent one is reported, not taken
 * for an answer. */
#define RAW_SILENCE_MS 60000

/* raw's standard input, cut into lines. A line longer than the buffer is
 * sent in pieces as it comes (akd answers line_too_long past its limit,
 * often before the line's end is read) and counted with its first piece;
 * a last line without a newline is sent with one. */
struct raw_input {
    char buf[1 << 16];
    size_t have;
    bool partial;       /* part of the current line is sent already */
    int pending;        /* replies due */
};

/* A whole line (with its newline): sent, and counted unless its first
 * piece was, or akd skips it (empty, or a lone CR: then not sent). */
static void raw_send(struct ak_net *n, struct raw_input *in, const char *line, size_t len)
{
    if (in->partial)
        in->partial = false;
    else if (raw_line_answered(line, len))
        in->pending++;
    else
        return;
    ak_net_send_line(n, line, len);
}

/* What standard input has now: every whole line sent. false at its end;
 * true, with nothing read, when a non-blocking stdin has nothing. */
static bool raw_take_input(struct ak_net *n, struct raw_input *in)
{
    ssize_t r;
    do
        r = read(STDIN_FILENO, in->buf + in->have, sizeof in->buf - in->have);
    while (r < 0 && errno == EINTR);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return true;
    if (r <= 0) {
        if (in->have || in->partial) {
            in->buf[in->have] = '\n';   /* room: have < sizeof buf after every pass */
            raw_send(n, in, in->buf, in->have + 1);
            in->have = 0;
        }
        return false;
    }
    in->have += (size_t)r;
    char *nl;
    while ((nl = memchr(in->buf, '\n', in->have))) {
        size_t len = (size_t)(nl - in->buf) + 1;
        raw_send(n, in, in->buf, len);
        memmove(in->buf, nl + 1, in->have - len);
        in->have -= len;
    }
    if (in->have == sizeof in->buf) {
        if (!in->partial)
            in->pending++;      /* 64 KiB: never an empty line */
        in->partial = true;
        ak_net_send_line(n, in->buf, in->have - 1);     /* a byte kept: see above */
        in->buf[0] = in->buf[in->have - 1];
        in->have = 1;
    }
    return true;
}

/* The server hung up: is there input it never got? What stdin has ready
 * is read first (the end of the input may simply not have been seen). */
static bool raw_input_left(struct ak_net *n, struct raw_input *in, bool *eof)
{
    while (!*eof) {
        struct pollfd p = {STDIN_FILENO, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0)
            return true;        /* more may come, and nobody to send it to */
        size_t before = in->have;
        bool partial = in->partial;
        int pending = in->pending;
        *eof = !raw_take_input(n, in);
        if (in->have != before || in->partial != partial || in->pending != pending)
            return true;        /* a line read, and sent to no one */
    }
    return false;
}

/* Messages akd sends on its own before it closes the connection (id
 * null): not the reply to a line. */
static bool raw_farewell(const json_t *m)
{
    static const char *const codes[] = {"too_many_connections", "idle_timeout", "session_ended",
                                        "tls_not_enabled"};
    const char *code = json_string_value(json_object_get(json_object_get(m, "error"), "code"));
    if (!code || !json_is_null(json_object_get(m, "id")))
        return false;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(code, codes[i]) == 0)
            return true;
    return false;
}

/* raw: stdin lines go to the server as they are; every line from the
 * server is printed. At end of input, wait until every request sent has its
 * reply (replies counted by lines sent). Replies that stop coming, or a
 * server that hangs up with replies due or input unsent, are reported,
 * exit EXIT_NET. */
static int cmd_raw(struct ak_net *n)
{
    static struct raw_input in;
    bool eof = false;
    for (;;) {
        struct pollfd p[2] = {{n->fd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        if (eof && in.pending <= 0)
            break;
        int rc = poll(p, eof ? 1 : 2, eof ? RAW_SILENCE_MS : -1);
        if (rc == 0 && eof) {
            fprintf(stderr, "akc: %d repl%s still due after %d s without a word from the server\n", in.pending,
                    in.pending == 1 ? "y" : "ies", RAW_SILENCE_MS / 1000);
            return EXIT_NET;
        }
        if (rc < 0)
            continue;
        if (p[0].revents) {
            json_t *m;
            while ((m = ak_net_read(n, 0))) {
                if (json_object_get(m, "id") && !raw_farewell(m) && in.pending > 0)
                    in.pending--;
                char *text = json_dumps(m, JSON_COMPACT);
                puts(text);
                free(text);
                json_decref(m);
            }
            fflush(stdout);
            if (n->closed || (p[0].revents & (POLLHUP | POLLERR))) {
                bool unsent = raw_input_left(n, &in, &eof);
                if (in.pending <= 0 && !unsent)
                    return 0;
                fprintf(stderr, "akc: the server closed the connection with %d repl%s due%s\n", in.pending,
                        in.pending == 1 ? "y" : "ies", unsent ? " and input not sent" : "");
                return EXIT_NET;
            }
        }
        if (!eof && p[1].revents)
            eof = !raw_take_input(n, &in);
    }
    return 0;
}

static int cmd_units(const char *prefix)
{
    const struct ak_data *d = ak_data();
    int shown = 0;
    json_t *list = opt.json ? json_array() : NULL;
    for (int u = 0; u < d->units; u++) {
        const struct ak_unit_def *x = &d->unit[u];
        if (prefix && strncasecmp(x->shortname, prefix, strlen(prefix)) != 0)
            continue;
        shown++;
        char type[32];
        snprintf(type, sizeof type, "%s", ak_type_name(x->type));
        for (char *p = type; *p; p++)
            if (*p == '_')
                *p = ' ';
        if (list)
            json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:i,s:i,s:i,s:s}", "unit", x->shortname, "side",
                                                  ak_side_name(x->side), "type", ak_type_name(x->type), "attack",
                                                  x->attack, "defense", x->defense, "movement", x->movement,
                                                  "counter", x->counter));
        else
            printf("%-14s %-6s %-18s %d-%d-%-2d %s\n", x->shortname, ak_side_name(x->side), type, x->attack,
                   x->defense, x->movement, x->counter);
    }
    if (list) {
        char *text = json_dumps(list, JSON_COMPACT);
        puts(text);
        free(text);
        json_decref(list);
    }
    if (shown == 0) {
        fprintf(stderr, "akc units: no unit's name begins with '%s'\n", prefix);
        return EXIT_REFUSED;
    }
    return 0;
}

#define LADDER_PAGE 50

/* akc ladder [--ruleset R] [--page N]: a page of fifty. */
static int cmd_ladder(struct ak_net *n)
{
    int status;
    json_t *req = json_pack("{s:s,s:i,s:i}", "cmd", "ladder", "offset", (opt.page - 1) * LADDER_PAGE, "limit",
                            LADDER_PAGE);
    if (opt.ruleset)
        json_object_set_new(req, "ruleset", json_string(opt.ruleset));
    json_t *r = akc_call(n, req, &status);
    if (!r || opt.json)
        return (json_decref(r), status);
    int total = (int)json_integer_value(json_object_get(r, "total"));
    const char *ruleset = json_string_value(json_object_get(r, "ruleset"));
    if (json_array_size(json_object_get(r, "ladder")) == 0) {
        if (total == 0)
            printf("no rated game has been played yet under the %s rules (akc new ... --rated)\n", ruleset);
        else
            printf("the %s ladder has %d players: page %d is past its end\n", ruleset, total, opt.page);
    } else {
        printf("%-5s %-20s %7s %4s %6s   (%s rules; ? marks a provisional rating)\n", "rank", "player", "rating",
               "rd", "games", ruleset);
        size_t i;
        json_t *p;
        json_array_foreach(json_object_get(r, "ladder"), i, p)
            printf("%-5lld %-20s %6lld%s %4lld %6lld\n", (long long)json_integer_value(json_object_get(p, "rank")),
                   json_string_value(json_object_get(p, "user")),
                   (long long)json_integer_value(json_object_get(p, "rating")),
                   json_is_true(json_object_get(p, "provisional")) ? "?" : " ",
                   (long long)json_integer_value(json_object_get(p, "rd")),
                   (long long)json_integer_value(json_object_get(p, "games")));
        int pages = (total + LADDER_PAGE - 1) / LADDER_PAGE;
        if (pages > 1)
            printf("page %d of %d (--page N)\n", opt.page, pages);
    }
    json_decref(r);
    return 0;
}

/* akc rulesets: what `hello` says the server plays (new --ruleset). */
static int cmd_rulesets(struct ak_net *n)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s}", "cmd", "hello"), &status);
    if (!r || opt.json)
        return (json_decref(r), status);
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(r, "rulesets"), i, x) {
        const char *why = json_string_value(json_object_get(x, "why"));
        printf("%-9s %s: %s%s%s%s\n", json_string_value(json_object_get(x, "name")),
               json_string_value(json_object_get(x, "title")),
               json_is_true(json_object_get(x, "available")) ? "available" : "not available", why ? " (" : "",
               why ? why : "", why ? ")" : "");
    }
    json_decref(r);
    return 0;
}

/* akc player NAME: ratings, results by side, recent games and how each
 * moved the rating. */
static int cmd_player(struct ak_net *n, const char *name)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:s}", "cmd", "player", "user", name), &status);
    if (!r || opt.json)
        return (json_decref(r), status);
    size_t i;
    json_t *x;
    printf("%s\n", json_string_value(json_object_get(r, "user")));
    if (json_array_size(json_object_get(r, "ratings")) == 0)
        printf("  no rated game yet\n");
    json_array_foreach(json_object_get(r, "ratings"), i, x)
        printf("  %-8s rating %lld%s (RD %lld), %lld rated games\n", json_string_value(json_object_get(x, "ruleset")),
               (long long)json_integer_value(json_object_get(x, "rating")),
               json_is_true(json_object_get(x, "provisional")) ? " provisional" : "",
               (long long)json_integer_value(json_object_get(x, "rd")),
               (long long)json_integer_value(json_object_get(x, "games")));
    const json_t *res = json_object_get(r, "results");
    for (int side = 0; side < 2; side++) {
        const json_t *x = json_object_get(res, side ? "allied" : "axis");
        printf("%s %lld won %lld lost", side ? ", as Allied" : "  as Axis",
               (long long)json_integer_value(json_object_get(x, "won")),
               (long long)json_integer_value(json_object_get(x, "lost")));
        if (json_integer_value(json_object_get(x, "drawn")))
            printf(" %lld drawn", (long long)json_integer_value(json_object_get(x, "drawn")));
    }
    printf(" (recent games)\n");
    json_array_foreach(json_object_get(r, "recent"), i, x) {
        const json_t *bid = json_object_get(x, "bid");
        char bid_text[64] = "";
        if (json_is_object(bid))    /* the side auction the game began with */
            snprintf(bid_text, sizeof bid_text, "; bid %lld for %s",
                     (long long)json_integer_value(json_object_get(bid, "supply")),
                     json_string_value(json_object_get(bid, "side")) ? json_string_value(json_object_get(bid, "side"))
                                                                        : "?");
        printf("  game %-5lld %-7s %-6s against %-16s %s, rating %lld -> %lld%s\n",
               (long long)json_integer_value(json_object_get(x, "game")),
               json_string_value(json_object_get(x, "ruleset")), json_string_value(json_object_get(x, "side")),
               json_string_value(json_object_get(x, "opponent")), json_string_value(json_object_get(x, "result")),
               (long long)json_integer_value(json_object_get(x, "before")),
               (long long)json_integer_value(json_object_get(x, "after")), bid_text);
    }
    json_decref(r);
    return 0;
}

/* akc give-time GAME DURATION: more time on the opponent's clock. */
static int cmd_give_time(struct ak_net *n, long game, const char *text)
{
    int status;
    long seconds = akc_duration(text);
    if (seconds < 0) {
        fprintf(stderr, "akc give-time: '%s' is not a duration (90s, 30m, 12h, 3d)\n", text);
        return EXIT_USAGE;
    }
    json_t *r = akc_call(n, json_pack("{s:s,s:I,s:I}", "cmd", "give_time", "game", (json_int_t)game, "seconds",
                                  (json_int_t)seconds), &status);
    if (r && !opt.json) {
        char clock[64];
        ak_summary_clock(r, clock, sizeof clock);
        printf("game %ld: your opponent's clock is now %s\n", game, clock);
    }
    json_decref(r);
    return status;
}

/* akc rematch GAME: a new game against the same opponent, sides swapped,
 * with the same ruleset, time control and rating, as a challenge. */
static int cmd_rematch(struct ak_net *n, long game)
{
    int status;
    akc_json_hold(true);
    json_t *g = akc_call(n, json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)game), &status);
    akc_json_hold(false);
    if (!g)
        return status;
    const char *you = json_string_value(json_object_get(g, "you"));
    const json_t *players = json_object_get(g, "players");
    const char *o = you ? json_string_value(json_object_get(players, strcmp(you, "axis") == 0 ? "allied" : "axis"))
                        : NULL;
    char other[64];
    snprintf(other, sizeof other, "%s", o ? o : "");
    if (!you || !o) {
        fprintf(stderr, "akc rematch: you do not play game %ld against anyone\n", game);
        json_decref(g);
        return EXIT_REFUSED;
    }
    json_t *req = json_pack("{s:s,s:s,s:s,s:s,s:O}", "cmd", "new", "side", strcmp(you, "axis") == 0 ? "allied" : "axis",
                            "opponent", other, "ruleset", json_string_value(json_object_get(g, "ruleset")), "rated",
                            json_object_get(g, "rated"));
    if (json_is_object(json_object_get(g, "time_control")))
        json_object_set(req, "time_control", json_object_get(g, "time_control"));
    json_decref(g);
    json_t *r = akc_call(n, req, &status);
    if (r && !opt.json)
        printf("created game %lld: a rematch of game %ld with sides swapped; %s is challenged\n",
               (long long)json_integer_value(json_object_get(r, "game")), game, other);
    json_decref(r);
    return status;
}

/* The action of a play verb's own words (akc move GAME UNITS HEX: the
 * verb, then all but the game number), or NULL with the reason. */
static json_t *verb_action(int argc, char **argv, char *err, int errlen)
{
    char *words[8];
    int nw = 0;
    words[nw++] = argv[0];
    for (int i = 2; i < argc && nw < 8; i++)
        words[nw++] = argv[i];
    if (argc < 2) {
        snprintf(err, (size_t)errlen, "the first argument is a game number");
        return NULL;
    }
    return ak_verb_action(nw, words, err, errlen);
}

static int resume(struct ak_net *n, const struct ak_session *s)
{
    int status;
    /* The token is only ever sent to the server that issued it: another
     * server (a typo, or one set up to collect tokens) gets none. */
    if (!s->token[0] || strcmp(s->server, opt.server) != 0)
        return 0;
    /* Not the command's answer: --json prints one document, the command's. */
    akc_json_hold(true);
    json_t *r = akc_call(n, json_pack("{s:s,s:s}", "cmd", "resume", "token", s->token), &status);
    akc_json_hold(false);
    json_decref(r);
    return status;
}

/* akc play's way back after a lost connection: the same server, the
 * same session. */
static const struct ak_session *play_session;

static int play_reconnect(struct ak_net *n)
{
    char err[1536];
    ak_net_close(n);
    if (ak_net_connect(n, opt.server, &opt.net, err, sizeof err) != 0)
        return 1;
    int status = resume(n, play_session);
    return status == 0 ? 0 : status == EXIT_REFUSED ? -1 : 1;
}

/* What a command's handler is given: the connection, the saved session
 * and the game its second word names (-1: none). */
struct akc_ctx {
    struct ak_net *n;
    const struct ak_session *s;
    long game;
};

/* The signed-in user on this server, or NULL. */
static const char *me(const struct akc_ctx *x)
{
    return x->s->user[0] && strcmp(x->s->server, opt.server) == 0 ? x->s->user : NULL;
}

static int run_account(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_account(x->n, argv[0], argv[1]);
}

static int run_logout(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    (void)argc, (void)argv;
    json_decref(akc_call(x->n, json_pack("{s:s}", "cmd", "logout"), &status));
    if (status == 0) {      /* a session the server still holds is kept */
        ak_session_clear();
        if (!opt.json)
            printf("logged out of %s as %s: the session is ended on the server and forgotten here\n",
                   opt.server, x->s->user);
    }
    return status;
}

static int run_export_data(struct akc_ctx *x, int argc, char **argv)
{
    return cmd_export_data(x->n, argc > 1 ? argv[1] : NULL);
}

static int run_delete_account(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_delete_account(x->n, argv[1]);
}

static int run_passwd(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_passwd(x->n);
}

static int run_reset_password(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return akc_reset_password(x->n, argv[1], argv[2]);
}

static int check_new(int argc, char **argv)
{
    if (strcmp(argv[1], "axis") && strcmp(argv[1], "allied") && strcmp(argv[1], "random")) {
        fprintf(stderr, "akc new: the side is axis, allied or random, not '%s'; usage:\n", argv[1]);
        return AKC_USAGE;
    }
    if (!opt.time && opt.per_given) {
        fprintf(stderr, "akc new: --per and --on-expiry go with --time DURATION\n");
        return EXIT_USAGE;
    }
    if (opt.computer < 0) {
        fprintf(stderr, "akc new: --vs computer:LEVEL takes a level from 1 (beginner) to 3 (strong)\n");
        return EXIT_USAGE;
    }
    (void)argc;
    return 0;
}

static int run_new(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_new(x->n, argv[1]);
}

/* join and show: the game drawn (join takes the seat first). */
static int run_join_show(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    const char *verb = argv[0];
    (void)argc;
    json_t *r = akc_call(x->n, json_pack("{s:s,s:I}", "cmd", verb, "game", (json_int_t)x->game), &status);
    if (r && !opt.json) {
        if (strcmp(verb, "join") == 0)
            printf("you play %s in game %ld\n", json_string_value(json_object_get(r, "you")), x->game);
        status = draw_game(r, me(x));
    }
    json_decref(r);
    return status;
}

/* bid GAME N [axis|allied] | bid GAME accept: a step of the side auction. */
static int run_bid(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    json_t *req = json_pack("{s:s,s:I}", "cmd", "bid", "game", (json_int_t)x->game);
    char *end;
    long n = strtol(argv[2], &end, 10);
    if (strcmp(argv[2], "accept") == 0 && argc == 3) {
        json_object_set_new(req, "accept", json_true());
    } else if (!*end && n >= 0 && n <= 99 && (argc == 3 || ak_side_parse(argv[3]) >= 0)) {
        json_object_set_new(req, "supply", json_integer(n));
        if (argc == 4)
            json_object_set_new(req, "side", json_string(argv[3]));
    } else {
        json_decref(req);
        fprintf(stderr, "akc bid: GAME accept, or GAME N [axis|allied]: N supply units to your opponent for "
                        "the side (yours by default)\n");
        return EXIT_USAGE;
    }
    json_t *r = akc_call(x->n, req, &status);
    char text[200];
    if (r && !opt.json && ak_summary_bid(r, me(x), text, sizeof text))
        printf("%s\n", text);
    json_decref(r);
    return status;
}

static int run_game_verb(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_game_verb(x->n, argv[0], x->game);
}

static int run_give_time(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_give_time(x->n, x->game, argv[2]);
}

static int run_rematch(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_rematch(x->n, x->game);
}

static int run_games(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_games(x->n, me(x));
}

static int run_ladder(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_ladder(x->n);
}

static int run_player(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_player(x->n, argv[1]);
}

static int run_rulesets(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_rulesets(x->n);
}

static int run_admin(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return akc_admin(x->n, argv);
}

static int run_comforts(struct akc_ctx *x, int argc, char **argv)
{
    return akc_comforts(x->n, argc, argv);
}

static int run_tournament(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return akc_tournament(x->n, argv);
}

static int run_watch(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_watch(x->n, x->game);
}

static int run_play(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    long game = x->game;
    (void)argc, (void)argv;
    json_t *r = akc_call(x->n, json_pack("{s:s,s:I}", "cmd", "watch", "game", (json_int_t)game), &status);
    if (!r)
        return status;
    const char *you = json_string_value(json_object_get(r, "you"));
    const char *challenge = json_string_value(json_object_get(r, "challenge"));
    if (!you && challenge && x->s->user[0] && strcasecmp(challenge, x->s->user) == 0 && !opt.json)
        printf("Game %ld is a challenge to you from %s: 'akc join %ld' accepts it, 'akc decline %ld' refuses it.\n"
               "Until then you watch it.\n", game, ak_summary_opponent(r, x->s->user), game, game);
    play_session = x->s;
    status = ak_play(x->n, opt.server, game, you ? ak_side_parse(you) : -1, r, &opt.draw, play_reconnect);
    json_decref(r);
    return status;
}

static int run_undo(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    (void)argc, (void)argv;
    json_t *r = akc_call(x->n, json_pack("{s:s,s:I}", "cmd", "undo", "game", (json_int_t)x->game), &status);
    if (r && !opt.json) {
        char what[300];
        ak_verb_describe(json_object_get(r, "action"), what, sizeof what);
        printf("taken back: %s; game %ld is at action %lld\n", what, x->game,
               (long long)json_integer_value(json_object_get(r, "seq")));
    }
    json_decref(r);
    return status;
}

static int check_hint(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (opt.level < 0 || opt.level > 3) {
        fprintf(stderr, "akc hint: --level is 1 (beginner), 2 (standard) or 3 (strong)\n");
        return EXIT_USAGE;
    }
    return 0;
}

static int run_hint(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return akc_hint(x->n, x->game, opt.level ? opt.level : 2);
}

static int run_odds(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return akc_odds(x->n, x->game);
}

static int check_analyse(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (opt.level < 0 || opt.level > 3 || opt.playouts < 0 || opt.playouts > 10000 || opt.horizon < 0 ||
        opt.horizon > 76) {
        fprintf(stderr, "akc analyse: --level 1 to 3, --playouts 1 to 10000, --horizon 1 to 76\n");
        return EXIT_USAGE;
    }
    const char *a = opt.adjudicate;
    if (a && strcmp(a, "axis") != 0 && strcmp(a, "allied") != 0 && strcmp(a, "draw") != 0 && strcmp(a, "analysed") != 0) {
        fprintf(stderr, "akc analyse: --adjudicate axis, allied, draw or analysed (the result the analysis gives), not '%s'\n", a);
        return EXIT_USAGE;
    }
    return 0;
}

static int run_analyse(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return akc_analyse(x->n, x->game, opt.playouts ? opt.playouts : 8, opt.level ? opt.level : 1,
                       opt.horizon ? opt.horizon : 2, opt.adjudicate);
}

static int run_options(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_options(x->n, x->game);
}

/* dests GAME UNITS, why GAME UNITS HEX */
static int run_query(struct akc_ctx *x, int argc, char **argv)
{
    int status;
    const char *verb = argv[0];
    json_t *req = json_pack("{s:s,s:I,s:o}", "cmd", verb, "game", (json_int_t)x->game, "units", ak_verb_names(argv[2]));
    if (argc == 4)
        json_object_set_new(req, "to", json_string(argv[3]));
    json_t *r = akc_call(x->n, req, &status);
    if (r && !opt.json && argc == 3) {
        size_t i;
        json_t *d;
        json_array_foreach(json_object_get(r, "dests"), i, d) {
            long long sq = (long long)json_integer_value(json_object_get(d, "squares"));
            printf("%-4s %2lld square%s (%lld road)%s\n", json_string_value(json_object_get(d, "hex")), sq,
                   sq == 1 ? " " : "s", (long long)json_integer_value(json_object_get(d, "road")),
                   json_is_true(json_object_get(d, "halts")) ? "  stops there" : "");
        }
    } else if (r && !opt.json) {
        const json_t *why = json_object_get(r, "reason");
        if (json_is_true(json_object_get(r, "reachable")))
            printf("%s is reachable\n", argv[3]);
        else
            printf("%s [%s, %s]\n", json_string_value(json_object_get(why, "message")),
                   json_string_value(json_object_get(why, "rule")), json_string_value(json_object_get(why, "section")));
    }
    json_decref(r);
    return status;
}

static int run_record(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc;
    return cmd_record(x->n, x->game, argv[0][0] == 'v');
}

static int run_raw(struct akc_ctx *x, int argc, char **argv)
{
    (void)argc, (void)argv;
    return cmd_raw(x->n);
}

/* The play verbs (ak_verbs.c): their words are checked by the notation. */
static int check_action(int argc, char **argv)
{
    char err[200];
    json_t *a = verb_action(argc, argv, err, sizeof err);
    if (!a) {
        fprintf(stderr, "akc %s: %s; usage:\n", argv[0], err);
        return AKC_USAGE;
    }
    json_decref(a);
    return 0;
}

static int run_action(struct akc_ctx *x, int argc, char **argv)
{
    char err[200];
    json_t *a = verb_action(argc, argv, err, sizeof err);
    if (!a) {
        fprintf(stderr, "akc %s: %s\n", argv[0], err);
        return EXIT_USAGE;
    }
    return act(x->n, x->game, a);
}

/* Commands that need no server: -1 when this one does after all. */
static int local_units(int argc, char **argv)
{
    return cmd_units(argc > 1 ? argv[1] : NULL);
}

static int local_help(int argc, char **argv);

static int local_verify(int argc, char **argv)
{
    (void)argc, (void)argv;
    return opt.file ? ak_verify_file(opt.file, opt.server, stdout) : -1;
}

/* akc's commands, in the order the usage lists them: from this one table
 * come the usage (akc --help), each command's help (akc help COMMAND),
 * the check of its words made before any connection, and its handler.
 * An entry without a name is a heading or a note of the usage. */
static const struct akc_command {
    const char *name;
    const char *help;       /* its lines of the usage */
    int min_words, max_words;   /* with the command's own; 0: its check decides */
    bool game;              /* the second word is a game number */
    bool offline;           /* runs without resuming the session first */
    int (*check)(int argc, char **argv);    /* more than the count: 0, an exit code or AKC_USAGE */
    int (*run)(struct akc_ctx *x, int argc, char **argv);
    int (*local)(int argc, char **argv);    /* runs without a server (or -1: it needs one) */
} commands[] = {
    {NULL, "Accounts:\n", 0, 0, false, false, NULL, NULL, NULL},
    {"register", "  register USER        create an account (password: prompt or $AKC_PASSWORD)\n",
     2, 2, false, true, NULL, run_account, NULL},
    {"login", "  login USER           log in; the session is kept in ~/.local/state/akc/session\n"
         "                       (session.NAME with --profile NAME; settings: ~/.config/akc/config)\n",
     2, 2, false, true, NULL, run_account, NULL},
    {"logout", "  logout               end the session\n",
     1, 1, false, false, NULL, run_logout, NULL},
    {"passwd", "  passwd               change your password (prompts, or $AKC_PASSWORD and $AKC_NEW_PASSWORD)\n",
     1, 1, false, false, NULL, run_passwd, NULL},
    {"reset-password", "  reset-password USER TOKEN   set a new password with a reset token from an admin\n",
     3, 3, false, false, NULL, run_reset_password, NULL},
    {"export-data", "  export-data [FILE]   your data on the server as JSON: profile, settings, ratings, games, chat\n",
     1, 2, false, false, NULL, run_export_data, NULL},
    {"delete-account", "  delete-account NAME  delete your account for ever (NAME again, then the password): personal\n"
                       "                       data erased, unfinished games ended, finished ones kept anonymously\n",
     2, 2, false, false, NULL, run_delete_account, NULL},
    {NULL, "Games:\n", 0, 0, false, false, NULL, NULL, NULL},
    {"new", "  new axis|allied|random   create a game, playing that side; options:\n"
         "      --opponent USER  challenge one player (else anyone may join)\n"
         "      --vs computer[:LEVEL]   play the server's computer player: 1 beginner,\n"
         "                       2 standard (the default), 3 strong; --vs USER as --opponent\n"
         "      --min-rating N --max-rating N   an open seek only players so rated may take\n"
         "      --time DURATION  time per action (90s, 30m, 12h, 3d); --per turn for per turn\n"
         "      --on-expiry lose|wait   the late side loses (default) or the game waits\n"
         "      --rated          a rated game (--unrated overrides rated = yes in the config)\n"
         "      --position FILE  start from a saved state (servers that allow it)\n"
         "      --bid N          open a side auction: N supply units to your opponent if you\n"
         "                       play the side named (see bid)\n"
         "      --ruleset NAME   the rules (classic)\n",
     2, 2, false, false, check_new, run_new, NULL},
    {"join", "  join GAME            take the open seat of a game, or accept a challenge\n",
     2, 2, true, false, NULL, run_join_show, NULL},
    {"bid", "  bid GAME N [axis|allied] | bid GAME accept   a side auction's step: N supply\n"
         "                       units (more than the standing bid) to your opponent if you play\n"
         "                       the side (yours by default), or accept his bid and take the other\n"
         "                       side with his supply units\n",
     3, 4, true, false, NULL, run_bid, NULL},
    {"decline", "  decline GAME         decline a challenge\n",
     2, 2, true, false, NULL, run_game_verb, NULL},
    {"abort", "  abort GAME           call off a game before its first action\n",
     2, 2, true, false, NULL, run_game_verb, NULL},
    {"resign", "  resign GAME          concede the game\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"give-time", "  give-time GAME DURATION   add time to your opponent's clock (90s, 30m, 12h, 3d)\n",
     3, 3, true, false, NULL, run_give_time, NULL},
    {"rematch", "  rematch GAME         a return game against the same opponent, sides swapped\n",
     2, 2, true, false, NULL, run_rematch, NULL},
    {"games", "  games                list games: those waiting for you first, with the clock; filters:\n"
         "      --mine --waiting --open --finished   yours (and challenges to you); your move;\n"
         "                       a seat you may take; over\n",
     1, 1, false, false, NULL, run_games, NULL},
    {"ladder", "  ladder               the players of rated games by Glicko-2 rating (from 1500);\n"
         "      --ruleset R --page N   another ruleset's ladder; pages of fifty\n",
     1, 1, false, false, NULL, run_ladder, NULL},
    {"player", "  player USER          a player's ratings, results by side and recent rated games\n",
     2, 2, false, false, NULL, run_player, NULL},
    {"rulesets", "  rulesets             the rules this server plays, and why one cannot be started\n",
     1, 1, false, false, NULL, run_rulesets, NULL},
    {"admin", "  admin overdue | admin extend GAME DURATION | admin abort GAME\n"
         "  admin adjudicate GAME axis|allied|draw REASON...\n"
         "  admin ban USER [wait|adjudicate] | admin unban USER | admin reset-password USER\n"
         "  admin tournament-create NAME round_robin|swiss [rounds=N starts=now|+DURATION time=DURATION\n"
         "      per=turn expiry=wait ruleset=R both_sides rated vacation] | admin tournament-start ID\n"
         "  admin computer USER on|off   mark an account as a computer player (akbot's) or not\n"
         "  admin chat-reports [AFTER] | admin chat-delete MESSAGE | admin chat-dismiss MESSAGE\n"
         "  admin chat-mute USER DURATION|0   moderate the chat (reports, removal, a muted account)\n"
         "  admin export-account USER | admin delete-account USER   an owner's data, on request\n"
         "  admin tournament-edit ID WORD... | admin tournament-remove ID USER\n"
         "  admin tournament-cancel ID [abort|finish]   correct or cancel a tournament\n"
         "  admin stats          the admin role (accounts named in akd's admins setting)\n",
     0, 0, false, false, akc_admin_check, run_admin, NULL},
    {"chat", "  chat GAME [TEXT...]  the game's chat, or say something (players to players, others to\n"
         "                       the spectators; neither reads the other channel until the end)\n",
     0, 0, false, false, akc_comforts_check, run_comforts, NULL},
    {"report", "  report MESSAGE [REASON...]  report a chat message ([N] in akc chat) to the admins\n",
     0, 0, false, false, akc_comforts_check, run_comforts, NULL},
    {"settings", "  settings [chat on|off | notify each|digest | email ADDRESS|none | verify-email TOKEN]\n"
         "                       your settings: chat pushes, a daily digest instead of one\n"
         "                       notification per move, an address for notifications\n",
     0, 0, false, false, akc_comforts_check, run_comforts, NULL},
    {"vacation", "  vacation [DAYS|end]  pause all your clocks for DAYS (days left this year without)\n",
     0, 0, false, false, akc_comforts_check, run_comforts, NULL},
    {"tournament", "  tournament list | tournament show ID | tournament join ID | tournament withdraw ID\n"
         "                       tournaments: standings with tie-breaks, pairings, results\n",
     0, 0, false, false, akc_tournament_check, run_tournament, NULL},
    {"show", "  show GAME            draw the board (--at HEX or place centres it, --radius N\n"
         "                       shows N squares around it, --wide draws it all);\n"
         "      --dests UNITS    mark where the stack can go (* or + where it must stop)\n"
         "      --zoc            mark the enemy zones of control of the side to move (z)\n"
         "      --supply         mark where its supply units sustain attacks (s)\n",
     2, 2, true, false, NULL, run_join_show, NULL},
    {"watch", "  watch GAME           follow a game, printing each change as it happens\n",
     2, 2, true, false, NULL, run_watch, NULL},
    {"play", "  play GAME            play interactively: line editing, history, completion\n",
     2, 2, true, false, NULL, run_play, NULL},
    {NULL, "Playing (UNITS is one unit or several of one stack joined by commas):\n", 0, 0, false, false, NULL, NULL, NULL},
    {"move", "  move GAME UNITS HEX  move to HEX by the best legal path\n"
         "  move GAME UNITS HEX,HEX,...   move along an explicit path\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"place", "  place GAME UNIT HEX  bring a reinforcement, supply unit or landing on board\n"
         "      (Updated: place GAME UNIT box   a unit bought back waits in your off-board box)\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"embark", "  embark GAME UNITS    put units at Tobruch or the home base to sea\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"substitute", "  substitute GAME OUT IN   Allied substitute counters (August 1942 on)\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"undo", "  undo GAME            take back your last move, placement or embarkation of this portion\n",
     2, 2, true, false, NULL, run_undo, NULL},
    {"end-movement", "  end-movement GAME    end the movement portion\n",
     2, 255, true, false, check_action, run_action, NULL},
    {NULL, "The Updated ruleset (akc rulesets says whether the server plays it):\n", 0, 0, false, false, NULL, NULL, NULL},
    {"end-phase", "  end-phase GAME       end the combat, mechanized movement or supply phase\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"supply-attacks", "  supply-attacks GAME SU   spend a supply unit: your units within 5 squares may attack\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"losses", "  losses GAME REDUCE ELIMINATE   meet the loss owed: units to flip, units to remove (- for none)\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"burn", "  burn GAME SU         supply phase: burn a supply unit for emergency supply\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"break-out", "  break-out GAME HEX   supply phase: an isolated square breaks out before the attrition rolls\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"rebuild", "  rebuild GAME UNIT    replacement phase: a reduced unit back to full strength\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"fortify", "  fortify GAME UNITS SU   movement phase: boxes on the units' squares, spending SU\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"port-move", "  port-move GAME UNIT G25|box   by sea between your off-board box and Tobruch, one unit a turn\n",
     2, 255, true, false, check_action, run_action, NULL},
    {NULL, "  (battle GAME ATTACKERS DEFENDERS SU: SU bombards, +1)\n", 0, 0, false, false, NULL, NULL, NULL},
    {NULL, "Combat (battles are numbered from 1 in the order declared):\n", 0, 0, false, false, NULL, NULL, NULL},
    {"battle", "  battle GAME ATTACKERS DEFENDERS [SUPPLY]   declare a battle; the odds are shown\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"cancel", "  cancel GAME N        withdraw battle N before the first is resolved\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"abandon", "  abandon GAME UNITS   remove units that cannot attack at 1-6\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"resolve", "  resolve GAME N       fight battle N (the first locks the declarations)\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"retreat", "  retreat GAME UNITS HEX,HEX   route a loser's BACK 2 (the winner decides)\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"exchange", "  exchange GAME UNITS  your losses in an EXCHANGE\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"advance", "  advance GAME [UNITS HEX]     advance after combat, or decline\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"destroy", "  destroy GAME UNITS   destroy your endangered supply units\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"end-turn", "  end-turn GAME        end the combat portion and the player turn\n",
     2, 255, true, false, check_action, run_action, NULL},
    {"options", "  options GAME         every legal action now, as akc commands\n",
     2, 2, true, false, NULL, run_options, NULL},
    {"hint", "  hint GAME            the computer's suggestion for the player to move, worked out here:\n"
             "                       the akc commands, each battle's odds and chances, why (--level 1-3)\n",
     2, 2, true, false, check_hint, run_hint, NULL},
    {"odds", "  odds GAME            the exact chances of your declared battles, worked out here: each\n"
             "                       result's faces, defenders eliminated, squares taken, attackers lost\n",
     2, 2, true, false, NULL, run_odds, NULL},
    {"analyse", "  analyse GAME         each side's chance after each player turn (playouts by the computer,\n"
                "                       95% intervals), the largest swings, an adjudication now; worked out\n"
                "                       here: --playouts N (8) --level N (1) --horizon TURNS (2 player turns);\n"
                "                       an admin's --adjudicate axis|allied|draw|analysed ends the game so,\n"
                "                       the analysis attached as the reason\n",
     2, 2, true, false, check_analyse, run_analyse, NULL},
    {"dests", "  dests GAME UNITS     list the squares the stack can reach\n",
     3, 3, true, false, NULL, run_query, NULL},
    {"why", "  why GAME UNITS HEX   explain why a square is out of reach\n",
     4, 4, true, false, NULL, run_query, NULL},
    {NULL, "Records:\n", 0, 0, false, false, NULL, NULL, NULL},
    {"record", "  record GAME          print the game record (JSON: the export format)\n",
     2, 2, true, false, NULL, run_record, NULL},
    {"verify", "  verify GAME          check a finished game's dice against the commitment and\n"
         "                       replay every action with the rules; --file F for a saved record\n",
     2, 2, true, false, NULL, run_record, local_verify},
    {NULL, "Scripting:\n", 0, 0, false, false, NULL, NULL, NULL},
    {"raw", "  raw                  send NDJSON requests from stdin, print every reply and push\n",
     1, 1, false, true, NULL, run_raw, NULL},
    {"units", "  units [PREFIX]       list the units (those whose short name begins with PREFIX):\n"
         "                       short name, side, type and factors\n",
     0, 0, false, false, NULL, NULL, local_units},
    {"help", "  help [COMMAND]       this text, or the lines about one command (also man akc)\n",
     0, 0, false, false, NULL, NULL, local_help},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char usage_head[] =
    "usage: akc [--profile NAME] [--server HOST[:PORT]] [--tls|--no-tls] [--ca FILE] [--accept-new-cert]\n"
    "           [--no-color] [--json] [--at HEX] [--wide] COMMAND [ARGS]\n"
    "\n";
static const char usage_foot[] =
    "\n"
    "The server defaults to $AKC_SERVER, then the saved session's, then 127.0.0.1:7140\n"
    "(HOST alone means port 7140; IPv6 as [::1]:7140). Every server that is not on this\n"
    "machine is reached over TLS (--no-tls to refuse it, --tls to use it on loopback too);\n"
    "its certificate must verify against the system's authorities (or --ca FILE), or\n"
    "match the fingerprint pinned the first time (asked on a terminal, or\n"
    "--accept-new-cert), kept in $XDG_STATE_HOME/akc/known_servers.\n";

/* A count from 1 to 100000 written in full, else -1 (a usage error). */
static int small_number(const char *v)
{
    char *end;
    long x = strtol(v, &end, 10);
    return *v && !*end && x >= 1 && x <= 100000 ? (int)x : -1;
}

/* --vs computer, --vs computer:LEVEL (a bad level: -1, said by check_new),
 * or --vs USER (a challenge to a player, as --opponent). */
static void vs_arg(const char *v)
{
    if (strcmp(v, "computer") == 0) {
        opt.computer = 2;
    } else if (strncmp(v, "computer:", 9) == 0) {
        opt.computer = v[9] >= '1' && v[9] <= '3' && !v[10] ? v[9] - '0' : -1;
    } else {
        opt.opponent = v;
    }
}

static void usage(FILE *f)
{
    fputs(usage_head, f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fputs(commands[i].help, f);
    fputs(usage_foot, f);
}

static const struct akc_command *command_named(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].name && strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* The usage lines of one command, on out; EXIT_USAGE if there is none. */
static int help_to(FILE *out, const char *name)
{
    const struct akc_command *c = command_named(name);
    if (!c) {
        fprintf(stderr, "akc: no command '%s' (akc help lists them)\n", name);
        return EXIT_USAGE;
    }
    fputs(c->help, out);
    return 0;
}

static int local_help(int argc, char **argv)
{
    if (argc > 1)
        return help_to(stdout, argv[1]);
    usage(stdout);
    return 0;
}

/* A command's own usage after a message about its words. */
static int usage_of(const char *verb)
{
    if (help_to(stderr, verb) != 0)
        fprintf(stderr, "  akc %s GAME ... (akc --help lists the commands)\n", verb);
    return EXIT_USAGE;
}

/* 0 if argv (the command and its words) can be sent; else the exit code,
 * with the reason and the command's usage on stderr. */
static int check_arguments(int argc, char **argv)
{
    const char *verb = argv[0];
    const struct akc_command *c = command_named(verb);
    if (!c) {
        fprintf(stderr, "akc: unknown command '%s' (akc --help lists them)\n", verb);
        return EXIT_USAGE;
    }
    if (c->min_words && (argc < c->min_words || argc > c->max_words)) {
        fprintf(stderr, "akc %s: %s arguments; usage:\n", verb, argc < c->min_words ? "missing" : "too many");
        return usage_of(verb);
    }
    if (c->game && argc > 1 && akc_game_number(argv[1]) < 0) {
        fprintf(stderr, "akc %s: '%s' is not a game number (games are numbered from 1; akc games lists them)\n",
                verb, argv[1]);
        return EXIT_USAGE;
    }
    int rc = c->check ? c->check(argc, argv) : 0;
    return rc == AKC_USAGE ? usage_of(verb) : rc;
}

/* Run a checked command: the session is resumed first unless it is one
 * that makes or needs none. */
static int run(struct ak_net *n, int argc, char **argv, const struct ak_session *s)
{
    const struct akc_command *c = command_named(argv[0]);
    struct akc_ctx x = {n, s, argc > 1 ? akc_game_number(argv[1]) : -1};
    int status;
    if (!c || !c->run)
        return EXIT_USAGE;
    if (!c->offline && (status = resume(n, s)) != 0) {
        if (status == EXIT_REFUSED)     /* the server no longer knows the session */
            fprintf(stderr, "akc: log in again with 'akc login USER'\n");
        return status;
    }
    return c->run(&x, argc, argv);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"server", required_argument, NULL, 's'}, {"no-color", no_argument, NULL, 'n'},
        {"json", no_argument, NULL, 'j'}, {"at", required_argument, NULL, 'a'},
        {"wide", no_argument, NULL, 'w'}, {"help", no_argument, NULL, 'h'}, {"h", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'}, {"opponent", required_argument, NULL, 'o'},
        {"rated", no_argument, NULL, 'r'}, {"time", required_argument, NULL, 't'},
        {"per", required_argument, NULL, 'p'}, {"on-expiry", required_argument, NULL, 'e'},
        {"file", required_argument, NULL, 'f'}, {"position", required_argument, NULL, 'P'},
        {"dests", required_argument, NULL, 'D'}, {"zoc", no_argument, NULL, 'Z'},
        {"supply", no_argument, NULL, 'S'}, {"radius", required_argument, NULL, 'R'},
        {"tls", no_argument, NULL, 'T'}, {"no-tls", no_argument, NULL, 'N'},
        {"ca", required_argument, NULL, 'C'}, {"accept-new-cert", no_argument, NULL, 'A'},
        {"profile", required_argument, NULL, 'X'}, {"unrated", no_argument, NULL, 'U'},
        {"ruleset", required_argument, NULL, 'L'}, {"page", required_argument, NULL, 'G'},
        {"mine", no_argument, NULL, 'M'}, {"waiting", no_argument, NULL, 'W'},
        {"open", no_argument, NULL, 'O'}, {"finished", no_argument, NULL, 'F'},
        {"min-rating", required_argument, NULL, 'm'}, {"max-rating", required_argument, NULL, 'x'},
        {"vs", required_argument, NULL, 'v'}, {"level", required_argument, NULL, 'l'},
        {"playouts", required_argument, NULL, 'y'}, {"horizon", required_argument, NULL, 'z'},
        {"adjudicate", required_argument, NULL, 'J'}, {"bid", required_argument, NULL, 'B'},
        {0, 0, 0, 0},
    };
    struct ak_session s;
    if (sodium_init() < 0) {
        fprintf(stderr, "akc: libsodium failed to initialise\n");
        return EXIT_NET;
    }
    /* The profile first: it chooses the session and the config section. */
    const char *profile = getenv("AKC_PROFILE");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            profile = argv[i + 1];
        else if (strncmp(argv[i], "--profile=", 10) == 0)
            profile = argv[i] + 10;
    }
    if (profile && *profile && !ak_profile_name_ok(profile)) {
        fprintf(stderr, "akc: '%s' is not a profile name (letters, digits, - and _, at most 32)\n", profile);
        return EXIT_USAGE;
    }
    ak_session_profile(profile);
    static struct ak_client_config cfg;
    char cfg_err[800];
    if (ak_client_config_load(profile, &cfg, cfg_err, sizeof cfg_err) != 0) {
        fprintf(stderr, "akc: %s\n", cfg_err);
        return EXIT_USAGE;
    }
    bool have_session = ak_session_load(&s);
    opt.server = getenv("AKC_SERVER");
    if (!opt.server)
        opt.server = cfg.server[0] ? cfg.server : have_session && s.server[0] ? s.server : "127.0.0.1:7140";
    opt.color = cfg.color >= 0 ? cfg.color == 1 : isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    opt.draw.at = AK_HEX_NONE;
    opt.net.tls = cfg.tls;
    opt.net.ca_file = cfg.ca[0] ? cfg.ca : NULL;
    opt.time = cfg.time;
    opt.per = cfg.per[0] ? cfg.per : NULL;
    opt.on_expiry = cfg.on_expiry[0] ? cfg.on_expiry : NULL;
    opt.rated = cfg.rated;
    opt.bid = -1;
    opt.page = 1;
    /* TLS writes to the socket with write(): a server that hangs up must
     * be an error to handle, not a signal that kills akc. */
    signal(SIGPIPE, SIG_IGN);
    int c;
    opterr = 0;     /* unknown options are told below, in akc's words */
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's': opt.server = optarg; break;
        case 'n': opt.color = false; break;
        case 'j': opt.json = true; break;
        case 'w': opt.draw.wide = true; break;
        case 'a': {
            opt.draw.at = ak_draw_place(optarg);
            if (opt.draw.at == AK_HEX_NONE) {
                fprintf(stderr, "akc: --at wants a square such as L59 or a place such as Tobruch\n");
                return EXIT_USAGE;
            }
            break;
        }
        case 'o': opt.opponent = optarg; break;
        case 'v': vs_arg(optarg); break;
        case 'y': opt.playouts = small_number(optarg); break;
        case 'z': opt.horizon = small_number(optarg); break;
        case 'J': opt.adjudicate = optarg; break;
        case 'B': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 0 || v > 99) {
                fprintf(stderr, "akc: --bid wants a number of supply units (0 or more)\n");
                return EXIT_USAGE;
            }
            opt.bid = (int)v;
            break;
        }
        case 'l': opt.level = optarg[0] >= '1' && optarg[0] <= '3' && !optarg[1] ? optarg[0] - '0' : -1; break;
        case 'r': opt.rated = true; break;
        case 'm':
        case 'x': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 4000) {
                fprintf(stderr, "akc: --%s wants a rating from 1 to 4000\n", c == 'm' ? "min-rating" : "max-rating");
                return EXIT_USAGE;
            }
            *(c == 'm' ? &opt.min_rating : &opt.max_rating) = (int)v;
            break;
        }
        case 't':
            if ((opt.time = akc_duration(optarg)) < 0) {
                fprintf(stderr, "akc: --time wants a duration such as 90s, 30m, 12h or 3d\n");
                return EXIT_USAGE;
            }
            break;
        case 'p':
        case 'e':
            if (strcmp(optarg, c == 'p' ? "action" : "lose") != 0 &&
                strcmp(optarg, c == 'p' ? "turn" : "wait") != 0) {
                fprintf(stderr, "akc: %s\n", c == 'p' ? "--per is action or turn" : "--on-expiry is lose or wait");
                return EXIT_USAGE;
            }
            *(c == 'p' ? &opt.per : &opt.on_expiry) = optarg;
            opt.per_given = true;
            break;
        case 'f': opt.file = optarg; break;
        case 'P': opt.position = optarg; break;
        case 'D': opt.highlight = optarg; break;
        case 'Z': opt.highlight = "zoc"; break;
        case 'R':
            opt.draw.radius = atoi(optarg);
            if (opt.draw.radius < 1 || opt.draw.radius > 40) {
                fprintf(stderr, "akc: --radius wants a number of squares from 1 to 40\n");
                return EXIT_USAGE;
            }
            break;
        case 'S': opt.highlight = "supply"; break;
        case 'T': opt.net.tls = AK_TLS_ON; break;
        case 'N': opt.net.tls = AK_TLS_OFF; break;
        case 'C': opt.net.ca_file = optarg; break;
        case 'A': opt.net.accept_new = true; break;
        case 'X': break;        /* read above */
        case 'L': opt.ruleset = optarg; break;
        case 'G':
            opt.page = atoi(optarg);
            if (opt.page < 1 || opt.page > 100000) {
                fprintf(stderr, "akc: --page wants a page number from 1\n");
                return EXIT_USAGE;
            }
            break;
        case 'U': opt.rated = false; break;
        case 'M': opt.games_filter |= AK_GAMES_MINE; break;
        case 'W': opt.games_filter |= AK_GAMES_WAITING; break;
        case 'O': opt.games_filter |= AK_GAMES_OPEN; break;
        case 'F': opt.games_filter |= AK_GAMES_FINISHED; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("akc %s%s%s%s\n", AK_VERSION, ak_commit[0] ? " (commit " : "", ak_commit, ak_commit[0] ? ")" : ""); return 0;
        default:
            if (optopt >= '0' && optopt <= '9') {   /* akc show -1 */
                fprintf(stderr, "akc: '%s' is not a game number (games are numbered from 1)\n",
                        argv[optind - 1]);
                return EXIT_USAGE;
            }
            for (const struct option *o = opts; o->name; o++)
                if (o->has_arg == required_argument && strncmp(argv[optind - 1], "--", 2) == 0 &&
                    strcmp(argv[optind - 1] + 2, o->name) == 0) {
                    fprintf(stderr, "akc: %s needs a value (akc --help)\n", argv[optind - 1]);
                    return EXIT_USAGE;
                }
            fprintf(stderr, "akc: unknown option '%s' (akc --help lists them)\n", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    struct winsize ws;
    opt.draw.color = opt.color;
    bool tty_size = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0;
    opt.draw.width = tty_size ? ws.ws_col : 80;
    opt.draw.height = tty_size && !opt.draw.wide ? ws.ws_row : 0;
    if (getenv("LINES") && !opt.draw.wide)
        opt.draw.height = atoi(getenv("LINES"));
    if (getenv("COLUMNS"))
        opt.draw.width = atoi(getenv("COLUMNS")) > 20 ? atoi(getenv("COLUMNS")) : 80;
    akc_io_setup(opt.server, opt.json);
    const struct akc_command *local = command_named(argv[optind]);
    int done = local && local->local ? local->local(argc - optind, argv + optind) : -1;
    if (done >= 0)
        return done;
    int bad = check_arguments(argc - optind, argv + optind);
    char host[256], port[16];
    if (!bad && ak_net_split(opt.server, host, sizeof host, port, sizeof port) != 0) {
        fprintf(stderr, "akc: the server '%s' is not HOST, HOST:PORT or [IPv6]:PORT (ports 1 to 65535)\n",
                opt.server);
        bad = EXIT_USAGE;
    }
    if (bad) {
        /* --json: one document for every command, a refused one too */
        if (opt.json)
            puts("{\"ok\":false,\"error\":{\"code\":\"usage\",\"message\":\"wrong arguments; the usage is on standard error\"}}");
        return bad;
    }
    struct ak_net n;
    char err[1536];
    if (ak_net_connect(&n, opt.server, &opt.net, err, sizeof err) != 0) {
        fprintf(stderr, "akc: %s\n", err);
        return EXIT_NET;
    }
    if (!have_session)
        memset(&s, 0, sizeof s);
    int status = run(&n, argc - optind, argv + optind, &s);
    ak_net_close(&n);
    return status;
}

