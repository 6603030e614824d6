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
} opt;

static const char usage_text[] =
        "usage: akc [--profile NAME] [--server HOST[:PORT]] [--tls|--no-tls] [--ca FILE] [--accept-new-cert]\n"
        "           [--no-color] [--json] [--at HEX] [--wide] COMMAND [ARGS]\n"
        "\n"
        "Accounts:\n"
        "  register USER        create an account (password: prompt or $AKC_PASSWORD)\n"
        "  login USER           log in; the session is kept in ~/.local/state/akc/session\n"
        "                       (session.NAME with --profile NAME; settings: ~/.config/akc/config)\n"
        "  logout               end the session\n"
        "  passwd               change your password (prompts, or $AKC_PASSWORD and $AKC_NEW_PASSWORD)\n"
        "  reset-password USER TOKEN   set a new password with a reset token from an admin\n"
        "Games:\n"
        "  new axis|allied|random   create a game, playing that side; options:\n"
        "      --opponent USER  challenge one player (else anyone may join)\n"
        "      --min-rating N --max-rating N   an open seek only players so rated may take\n"
        "      --time DURATION  time per action (90s, 30m, 12h, 3d); --per turn for per turn\n"
        "      --on-expiry lose|wait   the late side loses (default) or the game waits\n"
        "      --rated          a rated game (--unrated overrides rated = yes in the config)\n"
        "      --position FILE  start from a saved state (servers that allow it)\n"
        "      --ruleset NAME   the rules (classic)\n"
        "  join GAME            take the open seat of a game, or accept a challenge\n"
        "  decline GAME         decline a challenge\n"
        "  abort GAME           call off a game before its first action\n"
        "  resign GAME          concede the game\n"
        "  give-time GAME DURATION   add time to your opponent's clock (90s, 30m, 12h, 3d)\n"
        "  rematch GAME         a return game against the same opponent, sides swapped\n"
        "  games                list games: those waiting for you first, with the clock; filters:\n"
        "      --mine --waiting --open --finished   yours (and challenges to you); your move;\n"
        "                       a seat you may take; over\n"
        "  ladder               the players of rated games by Glicko-2 rating (from 1500);\n"
        "      --ruleset R --page N   another ruleset's ladder; pages of fifty\n"
        "  player USER          a player's ratings, results by side and recent rated games\n"
        "  rulesets             the rules this server plays, and why one cannot be started\n"
        "  admin overdue | admin extend GAME DURATION | admin abort GAME\n"
        "  admin adjudicate GAME axis|allied|draw REASON...\n"
        "  admin ban USER [wait|adjudicate] | admin unban USER | admin reset-password USER\n"
        "  admin tournament-create NAME round_robin|swiss [rounds=N starts=now|+DURATION time=DURATION\n"
        "      per=turn expiry=wait ruleset=R both_sides rated vacation] | admin tournament-start ID\n"
        "  admin stats          the admin role (accounts named in akd's admins setting)\n"
        "  chat GAME [TEXT...]  the game's chat, or say something (players to players, others to\n"
        "                       the spectators; neither reads the other channel until the end)\n"
        "  settings [chat on|off | notify each|digest | email ADDRESS|none | verify-email TOKEN]\n"
        "                       your settings: chat pushes, a daily digest instead of one\n"
        "                       notification per move, an address for notifications\n"
        "  vacation [DAYS|end]  pause all your clocks for DAYS (days left this year without)\n"
        "  tournament list | tournament show ID | tournament join ID\n"
        "                       tournaments: standings with tie-breaks, pairings, results\n"
        "  show GAME            draw the board (--at HEX or place centres it, --radius N\n"
        "                       shows N squares around it, --wide draws it all);\n"
        "      --dests UNITS    mark where the stack can go (* or + where it must stop)\n"
        "      --zoc            mark the enemy zones of control of the side to move (z)\n"
        "      --supply         mark where its supply units sustain attacks (s)\n"
        "  watch GAME           follow a game, printing each change as it happens\n"
        "  play GAME            play interactively: line editing, history, completion\n"
        "Playing (UNITS is one unit or several of one stack joined by commas):\n"
        "  move GAME UNITS HEX  move to HEX by the best legal path\n"
        "  move GAME UNITS HEX,HEX,...   move along an explicit path\n"
        "  place GAME UNIT HEX  bring a reinforcement, supply unit or landing on board\n"
        "      (Updated: place GAME UNIT box   a unit bought back waits in your off-board box)\n"
        "  embark GAME UNITS    put units at Tobruch or the home base to sea\n"
        "  substitute GAME OUT IN   Allied substitute counters (August 1942 on)\n"
        "  undo GAME            take back your last move, placement or embarkation of this portion\n"
        "  end-movement GAME    end the movement portion\n"
        "The Updated ruleset (akc rulesets says whether the server plays it):\n"
        "  end-phase GAME       end the combat, mechanized movement or supply phase\n"
        "  supply-attacks GAME SU   spend a supply unit: your units within 5 squares may attack\n"
        "  losses GAME REDUCE ELIMINATE   meet the loss owed: units to flip, units to remove (- for none)\n"
        "  burn GAME SU         supply phase: burn a supply unit for emergency supply\n"
        "  break-out GAME HEX   supply phase: an isolated square breaks out before the attrition rolls\n"
        "  rebuild GAME UNIT    replacement phase: a reduced unit back to full strength\n"
        "  fortify GAME UNITS SU   movement phase: boxes on the units' squares, spending SU\n"
        "  port-move GAME UNIT G25|box   by sea between your off-board box and Tobruch, one unit a turn\n"
        "  (battle GAME ATTACKERS DEFENDERS SU: SU bombards, +1)\n"
        "Combat (battles are numbered from 1 in the order declared):\n"
        "  battle GAME ATTACKERS DEFENDERS [SUPPLY]   declare a battle; the odds are shown\n"
        "  cancel GAME N        withdraw battle N before the first is resolved\n"
        "  abandon GAME UNITS   remove units that cannot attack at 1-6\n"
        "  resolve GAME N       fight battle N (the first locks the declarations)\n"
        "  retreat GAME UNITS HEX,HEX   route a loser's BACK 2 (the winner decides)\n"
        "  exchange GAME UNITS  your losses in an EXCHANGE\n"
        "  advance GAME [UNITS HEX]     advance after combat, or decline\n"
        "  destroy GAME UNITS   destroy your endangered supply units\n"
        "  end-turn GAME        end the combat portion and the player turn\n"
        "  options GAME         every legal action now, as akc commands\n"
        "  dests GAME UNITS     list the squares the stack can reach\n"
        "  why GAME UNITS HEX   explain why a square is out of reach\n"
        "Records:\n"
        "  record GAME          print the game record (JSON: the export format)\n"
        "  verify GAME          check a finished game's dice against the commitment and\n"
        "                       replay every action with the rules; --file F for a saved record\n"
        "Scripting:\n"
        "  raw                  send NDJSON requests from stdin, print every reply and push\n"
        "  units [PREFIX]       list the units (those whose short name begins with PREFIX):\n"
        "                       short name, side, type and factors\n"
        "  help [COMMAND]       this text, or the lines about one command (also man akc)\n"
        "\n"
        "The server defaults to $AKC_SERVER, then the saved session's, then 127.0.0.1:7140\n"
        "(HOST alone means port 7140; IPv6 as [::1]:7140). Every server that is not on this\n"
        "machine is reached over TLS (--no-tls to refuse it, --tls to use it on loopback too);\n"
        "its certificate must verify against the system's authorities (or --ca FILE), or\n"
        "match the fingerprint pinned the first time (asked on a terminal, or\n"
        "--accept-new-cert), kept in $XDG_STATE_HOME/akc/known_servers.\n";

static void usage(FILE *f)
{
    fputs(usage_text, f);
}

/* akc help COMMAND: the lines of the usage that describe it. */


static int help(const char *command)
{
    return akc_help_to(stdout, command);
}

/* The usage lines of one command, on out; EXIT_USAGE if there is none. */
int akc_help_to(FILE *out, const char *command)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "  %s ", command);
    const char *p = usage_text;
    bool found = false, inside = false;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        bool starts = strncmp(p, pattern, strlen(pattern)) == 0 ||
                      (strncmp(p, pattern, strlen(pattern) - 1) == 0 && p[strlen(pattern) - 1] == '\n');
        /* continuation lines are indented further than a command line */
        inside = starts || (inside && strncmp(p, "      ", 6) == 0);
        if (inside) {
            fwrite(p, 1, len, out);
            found = true;
        }
        p += len;
    }
    if (!found)
        fprintf(stderr, "akc: no command '%s' (akc help lists them)\n", command);
    return found ? 0 : EXIT_USAGE;
}

static void print_error(const json_t *reply)
{
    const json_t *e = json_object_get(reply, "error");
    const char *rule = json_string_value(json_object_get(e, "rule"));
    if (rule)
        fprintf(stderr, "illegal: %s [%s, %s]\n", json_string_value(json_object_get(e, "message")),
                rule, json_string_value(json_object_get(e, "section")));
    else if (strcmp(json_string_value(json_object_get(e, "code")) ? json_string_value(json_object_get(e, "code")) : "",
                    "not_logged_in") == 0)
        fprintf(stderr, "error: you are not logged in on %s: akc login USER (or akc register USER)\n", opt.server);
    else
        fprintf(stderr, "error: %s (%s)\n", json_string_value(json_object_get(e, "message")),
                json_string_value(json_object_get(e, "code")));
}

/* Send a request and report the reply: result returned (caller decrefs)
 * or NULL after printing the error. *status gets the exit code. */
json_t *akc_call(struct ak_net *n, json_t *req, int *status)
{
    json_t *reply = ak_net_call(n, req, NULL);
    if (!reply) {
        /* A TLS port closes at once on a plaintext request. */
        fprintf(stderr, "akc: the connection to the server was lost%s\n",
                !n->ssl && !n->heard ? " before any answer (if the server speaks TLS, connect with --tls)" : "");
        *status = EXIT_NET;
        return NULL;
    }
    if (!json_is_true(json_object_get(reply, "ok"))) {
        if (opt.json) {
            char *s = json_dumps(reply, JSON_COMPACT);
            puts(s);
            free(s);
        }
        print_error(reply);
        json_decref(reply);
        *status = EXIT_REFUSED;
        return NULL;
    }
    json_t *result = json_incref(json_object_get(reply, "result"));
    json_decref(reply);
    *status = 0;
    if (opt.json) {
        char *s = json_dumps(result, JSON_COMPACT);
        puts(s);
        free(s);
    }
    return result;
}

/* The terminal as it was before a password prompt turned echo off: put
 * back if Ctrl-C (or a kill) comes while the prompt waits. */
static struct termios tty_saved;
static volatile sig_atomic_t tty_quiet;

static void restore_tty(int sig)
{
    if (tty_quiet)
        tcsetattr(STDIN_FILENO, TCSANOW, &tty_saved);
    signal(sig, SIG_DFL);
    raise(sig);
}

int akc_read_password(char *buf, size_t cap, const char *prompt)
{
    const char *env = getenv("AKC_PASSWORD");
    if (env) {
        snprintf(buf, cap, "%s", env);
        return 0;
    }
    if (!isatty(STDIN_FILENO)) {
        fprintf(stderr, "akc: no terminal to ask for the password; set AKC_PASSWORD\n");
        return -1;
    }
    struct termios quiet;
    fprintf(stderr, "%s", prompt);
    tcgetattr(STDIN_FILENO, &tty_saved);
    quiet = tty_saved;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    void (*old_int)(int) = signal(SIGINT, restore_tty);
    void (*old_term)(int) = signal(SIGTERM, restore_tty);
    tty_quiet = 1;
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    char *ok = fgets(buf, (int)cap, stdin);
    tcsetattr(STDIN_FILENO, TCSANOW, &tty_saved);
    tty_quiet = 0;
    signal(SIGINT, old_int);
    signal(SIGTERM, old_term);
    fputc('\n', stderr);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 0;
}

/* A new password from a prompt is asked twice (a typo would lock the
 * account's owner out); from AKC_PASSWORD, once. */
int akc_read_new_password(char *buf, size_t cap, const char *prompt)
{
    char again[1024];
    if (akc_read_password(buf, cap, prompt) != 0)
        return -1;
    if (getenv("AKC_PASSWORD"))
        return 0;
    size_t chars = 0;       /* characters, not bytes (UTF-8), as akd counts */
    for (const unsigned char *p = (const unsigned char *)buf; *p; p++)
        chars += (*p & 0xc0) != 0x80;
    if (chars < 8 || chars > 255) {
        fprintf(stderr, "akc: a password is 8 to 255 characters; nothing was sent\n");
        return -1;
    }
    if (akc_read_password(again, sizeof again, "Again: ") != 0)
        return -1;
    bool same = strcmp(buf, again) == 0;
    memset(again, 0, sizeof again);
    if (!same) {
        fprintf(stderr, "akc: the two passwords differ; nothing was sent\n");
        return -1;
    }
    return 0;
}

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

void akc_save_session(const json_t *result)
{
    struct ak_session s = {0};
    snprintf(s.server, sizeof s.server, "%s", opt.server);
    snprintf(s.user, sizeof s.user, "%s", json_string_value(json_object_get(result, "user")));
    snprintf(s.token, sizeof s.token, "%s", json_string_value(json_object_get(result, "token")));
    if (ak_session_save(&s) != 0)
        fprintf(stderr, "akc: warning: could not save the session\n");
}

long akc_game_number(const char *arg)
{
    char *end;
    long g = strtol(arg, &end, 10);
    return (*end || g <= 0) ? -1 : g;
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

/* "90s", "30m", "12h", "3d" or plain seconds; -1 if not a duration. */
long akc_duration(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    long unit = !*end ? 1 : strcmp(end, "s") == 0 ? 1 : strcmp(end, "m") == 0 ? 60
              : strcmp(end, "h") == 0 ? 3600 : strcmp(end, "d") == 0 ? 86400 : -1;
    return unit < 0 || v <= 0 || v > 90L * 86400 / unit ? -1 : v * unit;
}

static int cmd_new(struct ak_net *n, const char *side)
{
    int status;
    json_t *req = json_pack("{s:s,s:s,s:b}", "cmd", "new", "side", side, "rated", opt.rated);
    if (opt.ruleset)
        json_object_set_new(req, "ruleset", json_string(opt.ruleset));
    if (opt.opponent)
        json_object_set_new(req, "opponent", json_string(opt.opponent));
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
        if (opt.opponent)
            printf("%s is challenged: akc join %lld (or akc decline %lld)\n", opt.opponent, g, g);
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
        printf("  nothing but moves: %s\n", none);
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
    bool json = opt.json;
    opt.json = false;
    json_t *r = akc_call(n, json_pack("{s:s,s:i}", "cmd", "games", "limit", 500), &status);
    while (r && json_is_true(json_object_get(r, "more"))) {
        json_int_t next = json_integer_value(json_object_get(r, "offset")) +
                          (json_int_t)json_array_size(json_object_get(r, "games"));
        json_t *more = akc_call(n, json_pack("{s:s,s:I,s:i}", "cmd", "games", "offset", next, "limit", 500), &status);
        if (!more) {
            json_decref(r);
            return status;
        }
        json_array_extend(json_object_get(r, "games"), json_object_get(more, "games"));
        json_object_set(r, "more", json_object_get(more, "more"));
        json_decref(more);
    }
    opt.json = json;
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
    if (r && json) {
        char *text = json_dumps(r, JSON_COMPACT);
        puts(text);
        free(text);
    }
    if (!r || json)
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
    json_array_foreach(json_object_get(r, "recent"), i, x)
        printf("  game %-5lld %-7s %-6s against %-16s %s, rating %lld -> %lld\n",
               (long long)json_integer_value(json_object_get(x, "game")),
               json_string_value(json_object_get(x, "ruleset")), json_string_value(json_object_get(x, "side")),
               json_string_value(json_object_get(x, "opponent")), json_string_value(json_object_get(x, "result")),
               (long long)json_integer_value(json_object_get(x, "before")),
               (long long)json_integer_value(json_object_get(x, "after")));
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
    bool json = opt.json;
    opt.json = false;
    json_t *g = akc_call(n, json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)game), &status);
    opt.json = json;
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
    bool json = opt.json;
    opt.json = false;
    json_t *r = akc_call(n, json_pack("{s:s,s:s}", "cmd", "resume", "token", s->token), &status);
    opt.json = json;
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

/* The commands and how many words each takes (the command included; 0:
 * a play verb, whose words ak_verb_action checks), so that wrong arguments
 * are told before any connection is made. */
static const struct {
    const char *verb;
    int words;
    bool game;      /* the second word is a game number */
} commands[] = {
    {"register", 2, false}, {"login", 2, false}, {"logout", 1, false}, {"passwd", 1, false},
    {"reset-password", 3, false},
    {"games", 1, false}, {"ladder", 1, false}, {"rulesets", 1, false}, {"player", 2, false}, {"new", 2, false}, {"raw", 1, false},
    {"join", 2, true}, {"decline", 2, true}, {"abort", 2, true}, {"show", 2, true},
    {"watch", 2, true}, {"play", 2, true}, {"record", 2, true}, {"verify", 2, true},
    {"undo", 2, true}, {"options", 2, true}, {"dests", 3, true}, {"why", 4, true},
    {"give-time", 3, true}, {"rematch", 2, true},
};

/* Does verb's second word name a game (the table above, and the play verbs)? */
static bool takes_game(const char *verb)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].verb, verb) == 0)
            return commands[i].game;
    return ak_verb_is_action(verb);
}

static int run(struct ak_net *n, int argc, char **argv, const struct ak_session *s)
{
    const char *verb = argv[0];
    int status = 0;
    long game = argc > 1 ? akc_game_number(argv[1]) : -1;
    bool needs_game = takes_game(verb);
    if (needs_game && game < 0) {
        if (argc > 1)
            fprintf(stderr, "akc %s: '%s' is not a game number (games are numbered from 1; akc games lists them)\n",
                    verb, argv[1]);
        else
            fprintf(stderr, "akc %s: the first argument is a game number (akc games lists them)\n", verb);
        return EXIT_USAGE;
    }
    if ((strcmp(verb, "register") == 0 || strcmp(verb, "login") == 0) && argc == 2)
        return cmd_account(n, verb, argv[1]);
    if (strcmp(verb, "raw") == 0 && argc == 1)
        return cmd_raw(n);
    if ((status = resume(n, s)) != 0) {
        if (status == EXIT_REFUSED)     /* the server no longer knows the session */
            fprintf(stderr, "akc: log in again with 'akc login USER'\n");
        return status;
    }
    if ((strcmp(verb, "record") == 0 || strcmp(verb, "verify") == 0) && argc == 2)
        return cmd_record(n, game, verb[0] == 'v');
    if (strcmp(verb, "logout") == 0 && argc == 1) {
        json_decref(akc_call(n, json_pack("{s:s}", "cmd", "logout"), &status));
        if (status == 0) {      /* a session the server still holds is kept */
            ak_session_clear();
            if (!opt.json)
                printf("logged out of %s as %s: the session is ended on the server and forgotten here\n",
                       opt.server, s->user);
        }
        return status;
    }
    if (strcmp(verb, "games") == 0 && argc == 1)
        return cmd_games(n, s->user[0] && strcmp(s->server, opt.server) == 0 ? s->user : NULL);
    if (strcmp(verb, "ladder") == 0 && argc == 1)
        return cmd_ladder(n);
    if (strcmp(verb, "rulesets") == 0 && argc == 1)
        return cmd_rulesets(n);
    if (strcmp(verb, "admin") == 0)
        return akc_admin(n, argv);
    if (strcmp(verb, "tournament") == 0)
        return akc_tournament(n, argv);
    if (strcmp(verb, "chat") == 0 || strcmp(verb, "settings") == 0 || strcmp(verb, "vacation") == 0)
        return akc_comforts(n, argc, argv);
    if (strcmp(verb, "give-time") == 0 && argc == 3)
        return cmd_give_time(n, game, argv[2]);
    if (strcmp(verb, "rematch") == 0 && argc == 2)
        return cmd_rematch(n, game);
    if (strcmp(verb, "player") == 0 && argc == 2)
        return cmd_player(n, argv[1]);
    if (strcmp(verb, "new") == 0 && argc == 2)
        return cmd_new(n, argv[1]);
    if (strcmp(verb, "passwd") == 0 && argc == 1)
        return cmd_passwd(n);
    if (strcmp(verb, "reset-password") == 0 && argc == 3)
        return akc_reset_password(n, argv[1], argv[2]);
    if ((strcmp(verb, "decline") == 0 || strcmp(verb, "abort") == 0) && argc == 2)
        return cmd_game_verb(n, verb, game);
    if (strcmp(verb, "undo") == 0 && argc == 2) {
        json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "undo", "game", (json_int_t)game), &status);
        if (r && !opt.json) {
            char what[300];
            ak_verb_describe(json_object_get(r, "action"), what, sizeof what);
            printf("taken back: %s; game %ld is at action %lld\n", what, game,
                   (long long)json_integer_value(json_object_get(r, "seq")));
        }
        json_decref(r);
        return status;
    }
    if ((strcmp(verb, "join") == 0 || strcmp(verb, "show") == 0) && argc == 2) {
        json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", verb, "game", (json_int_t)game), &status);
        if (r && !opt.json) {
            if (strcmp(verb, "join") == 0)
                printf("you play %s in game %ld\n", json_string_value(json_object_get(r, "you")), game);
            status = draw_game(r, s->user[0] && strcmp(s->server, opt.server) == 0 ? s->user : NULL);
        }
        json_decref(r);
        return status;
    }
    if (strcmp(verb, "watch") == 0 && argc == 2)
        return cmd_watch(n, game);
    if (strcmp(verb, "play") == 0 && argc == 2) {
        json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "watch", "game", (json_int_t)game), &status);
        if (!r)
            return status;
        const char *you = json_string_value(json_object_get(r, "you"));
        const char *challenge = json_string_value(json_object_get(r, "challenge"));
        if (!you && challenge && s->user[0] && strcasecmp(challenge, s->user) == 0 && !opt.json)
            printf("Game %ld is a challenge to you from %s: 'akc join %ld' accepts it, 'akc decline %ld' refuses it.\n"
                   "Until then you watch it.\n", game, ak_summary_opponent(r, s->user), game, game);
        play_session = s;
        status = ak_play(n, opt.server, game, you ? ak_side_parse(you) : -1, r, &opt.draw, play_reconnect);
        json_decref(r);
        return status;
    }
    if (ak_verb_is_action(verb)) {
        char err[200];
        json_t *a = verb_action(argc, argv, err, sizeof err);
        if (!a) {
            fprintf(stderr, "akc %s: %s\n", verb, err);
            return EXIT_USAGE;
        }
        return act(n, game, a);
    }
    if (strcmp(verb, "options") == 0 && argc == 2)
        return cmd_options(n, game);
    if ((strcmp(verb, "dests") == 0 && argc == 3) || (strcmp(verb, "why") == 0 && argc == 4)) {
        json_t *req = json_pack("{s:s,s:I,s:o}", "cmd", verb, "game", (json_int_t)game, "units", ak_verb_names(argv[2]));
        if (argc == 4)
            json_object_set_new(req, "to", json_string(argv[3]));
        json_t *r = akc_call(n, req, &status);
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
                       json_string_value(json_object_get(why, "rule")),
                       json_string_value(json_object_get(why, "section")));
        }
        json_decref(r);
        return status;
    }
    /* A command given the wrong arguments gets its own usage lines. */
    char probe[64];
    snprintf(probe, sizeof probe, "\n  %s ", verb);
    if (strstr(usage_text, probe) || ak_verb_is_action(verb)) {
        fprintf(stderr, "akc %s: wrong arguments; usage:\n", verb);
        if (akc_help_to(stderr, verb) != 0)
            fprintf(stderr, "  akc %s GAME ... (akc --help lists the commands)\n", verb);
    } else {
        fprintf(stderr, "akc: unknown command '%s' (akc --help lists them)\n", verb);
    }
    return EXIT_USAGE;
}

/* 0 if argv (the command and its words) can be sent; else the exit code,
 * with the reason and the command's usage on stderr. */
static int check_arguments(int argc, char **argv)
{
    const char *verb = argv[0];
    int words = -1;
    bool game = false;
    if (strcmp(verb, "admin") == 0)
        return akc_admin_check(argc, argv);
    if (strcmp(verb, "tournament") == 0)
        return akc_tournament_check(argc, argv);
    if (strcmp(verb, "chat") == 0 || strcmp(verb, "settings") == 0 || strcmp(verb, "vacation") == 0)
        return akc_comforts_check(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].verb, verb) == 0) {
            words = commands[i].words;
            game = commands[i].game;
        }
    if (words < 0 && ak_verb_is_action(verb)) {
        words = argc >= 2 ? argc : 2;       /* GAME and the verb's own words */
        game = true;
    }
    if (words < 0) {
        fprintf(stderr, "akc: unknown command '%s' (akc --help lists them)\n", verb);
        return EXIT_USAGE;
    }
    if (argc != words && !(strcmp(verb, "verify") == 0 && argc == 1 && opt.file)) {
        fprintf(stderr, "akc %s: %s arguments; usage:\n", verb, argc < words ? "missing" : "too many");
        if (akc_help_to(stderr, verb) != 0)
            fprintf(stderr, "  akc %s GAME ... (akc --help lists the commands)\n", verb);
        return EXIT_USAGE;
    }
    if (strcmp(verb, "new") == 0 && argc == 2 && strcmp(argv[1], "axis") && strcmp(argv[1], "allied") &&
        strcmp(argv[1], "random")) {
        fprintf(stderr, "akc new: the side is axis, allied or random, not '%s'; usage:\n", argv[1]);
        akc_help_to(stderr, "new");
        return EXIT_USAGE;
    }
    if (strcmp(verb, "new") == 0 && !opt.time && opt.per_given) {
        fprintf(stderr, "akc new: --per and --on-expiry go with --time DURATION\n");
        return EXIT_USAGE;
    }
    if (game && argc > 1 && akc_game_number(argv[1]) < 0) {
        fprintf(stderr, "akc %s: '%s' is not a game number (games are numbered from 1; akc games lists them)\n",
                verb, argv[1]);
        return EXIT_USAGE;
    }
    if (ak_verb_is_action(verb)) {
        char err[200];
        json_t *a = verb_action(argc, argv, err, sizeof err);
        if (!a) {
            fprintf(stderr, "akc %s: %s; usage:\n", verb, err);
            if (akc_help_to(stderr, verb) != 0)
                fprintf(stderr, "  akc %s GAME ... (akc --help lists the commands)\n", verb);
            return EXIT_USAGE;
        }
        json_decref(a);
    }
    return 0;
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
        case 'V': printf("akc %s\n", AK_VERSION); return 0;
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
    if (strcmp(argv[optind], "units") == 0)
        return cmd_units(optind + 1 < argc ? argv[optind + 1] : NULL);
    if (strcmp(argv[optind], "help") == 0) {
        if (optind + 1 < argc)
            return help(argv[optind + 1]);
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[optind], "verify") == 0 && opt.file)
        return ak_verify_file(opt.file, opt.server, stdout);
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

bool akc_json(void) { return opt.json; }
