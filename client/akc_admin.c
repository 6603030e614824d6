/* akc_admin: `akc admin ...`, the admin role's commands (akd's ak_admin.c
 * referees them: only accounts named in its admins setting may), and
 * `akc reset-password USER TOKEN`, the player's side of a reset an admin
 * issued.
 *
 *   admin overdue                         games whose time ran out, waiting
 *   admin extend GAME DURATION            more time for the awaited player
 *   admin abort GAME                      call a game off
 *   admin adjudicate GAME RESULT REASON   end it: axis, allied or draw
 *   admin ban USER [wait|adjudicate]      ban; its games wait or are decided
 *   admin unban USER
 *   admin reset-password USER             a one-time token for the player
 *   admin stats                           how the server is doing
 *   admin computer USER on|off            mark the account as a computer player (akbot's) or not
 *   admin tournament-create NAME KIND [rounds=N starts=now|+DURATION time=D per=turn expiry=wait
 *                                      ruleset=R both_sides rated vacation]
 *   admin tournament-start ID             start it now
 *   admin tournament-edit ID WORD...      name=, starts=, rounds=, time=, per=, expiry= before the start
 *   admin tournament-remove ID USER       a player out (after the start he forfeits the rest)
 *   admin tournament-cancel ID [abort|finish]  cancel it; its unfinished games called off or played out
 *   admin chat-reports [AFTER]            the chat messages players reported
 *   admin chat-delete MESSAGE             remove its text (its reports close)
 *   admin chat-dismiss MESSAGE            close its reports, keep it
 *   admin chat-mute USER DURATION         no chat from USER for DURATION (0: unmute)
 *   admin export-account USER             an account's data, on its owner's request
 *   admin delete-account USER             erase an account, on its owner's request
 */
#include <stdlib.h>
#include <string.h>

#include "akc_cmd.h"

static const struct {
    const char *op, *wire;
    int min, max;           /* words, "admin" and the op included */
    bool game;              /* the third word is a game number */
} ops[] = {
    {"overdue", "overdue", 2, 2, false},       {"extend", "extend", 4, 4, true},
    {"abort", "abort", 3, 3, true},             {"adjudicate", "adjudicate", 5, 64, true},
    {"ban", "ban", 3, 4, false},                {"unban", "unban", 3, 3, false},
    {"reset-password", "reset_password", 3, 3, false}, {"stats", "stats", 2, 2, false},
    {"tournament-create", "tournament_create", 4, 16, false}, {"tournament-start", "tournament_start", 3, 3, true},
    {"computer", "computer", 4, 4, false},
    {"chat-reports", "chat_reports", 2, 3, false}, {"chat-delete", "chat_delete", 3, 3, false},
    {"chat-dismiss", "chat_dismiss", 3, 3, false}, {"chat-mute", "chat_mute", 4, 4, false},
    {"export-account", "export_account", 3, 3, false}, {"delete-account", "delete_account", 3, 3, false},
    {"tournament-edit", "tournament_edit", 4, 12, true}, {"tournament-remove", "tournament_remove", 4, 4, true},
    {"tournament-cancel", "tournament_cancel", 3, 4, true},
};

static int find_op(const char *op)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].op, op) == 0)
            return (int)i;
    return -1;
}

int akc_admin_check(int argc, char **argv)
{
    int k = find_op(argc > 1 ? argv[1] : "");
    if (k < 0 || argc < ops[k].min || argc > ops[k].max) {
        fprintf(stderr, "akc admin: %s; usage:\n", k < 0 ? "no such operation" : "wrong arguments");
        return AKC_USAGE;
    }
    if (ops[k].game && akc_game_number(argv[2]) < 0) {
        fprintf(stderr, "akc admin %s: '%s' is not a game number\n", argv[1], argv[2]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "extend") == 0 && akc_duration(argv[3]) < 0) {
        fprintf(stderr, "akc admin extend: '%s' is not a duration (90s, 30m, 12h, 3d)\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "adjudicate") == 0 && strcmp(argv[3], "axis") != 0 && strcmp(argv[3], "allied") != 0 &&
        strcmp(argv[3], "draw") != 0) {
        fprintf(stderr, "akc admin adjudicate: the result is axis, allied or draw, not '%s'\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "tournament-create") == 0 && strcmp(argv[3], "round_robin") != 0 &&
        strcmp(argv[3], "swiss") != 0) {
        fprintf(stderr, "akc admin tournament-create: the kind is round_robin or swiss, not '%s'\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "tournament-cancel") == 0 && argc == 4 && strcmp(argv[3], "abort") != 0 &&
        strcmp(argv[3], "finish") != 0) {
        fprintf(stderr, "akc admin tournament-cancel: its games abort or finish (the default), not '%s'\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "tournament-edit") == 0) {
        json_t *req = akc_tournament_edit_request(argc, argv);
        json_decref(req);
        if (!req)
            return EXIT_USAGE;
    }
    if (strcmp(argv[1], "tournament-create") == 0) {
        json_t *req = akc_tournament_create_request(argc, argv);
        json_decref(req);
        if (!req)
            return EXIT_USAGE;
    }
    if ((strncmp(argv[1], "chat-", 5) == 0 && strcmp(argv[1], "chat-mute") != 0 && argc > 2 &&
         akc_game_number(argv[2]) < 0)) {
        fprintf(stderr, "akc admin %s: '%s' is not a message number (akc chat GAME shows them)\n", argv[1], argv[2]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "chat-mute") == 0 && strcmp(argv[3], "0") != 0 && akc_duration(argv[3]) < 0) {
        fprintf(stderr, "akc admin chat-mute: '%s' is not a duration (90s, 30m, 12h, 3d; 0 unmutes)\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "computer") == 0 && strcmp(argv[3], "on") != 0 && strcmp(argv[3], "off") != 0) {
        fprintf(stderr, "akc admin computer: on (played by a program) or off, not '%s'\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "ban") == 0 && argc == 4 && strcmp(argv[3], "wait") != 0 &&
        strcmp(argv[3], "adjudicate") != 0) {
        fprintf(stderr, "akc admin ban: its games wait (the default) or adjudicate, not '%s'\n", argv[3]);
        return EXIT_USAGE;
    }
    return 0;
}

/* The words from argv[from] on, joined by spaces (the reason). */
static void join_words(char **argv, int from, char *out, size_t cap)
{
    out[0] = '\0';
    for (int i = from; argv[i]; i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", i > from ? " " : "", argv[i]);
    }
}

static json_t *request(char **argv, int k)
{
    if (strcmp(argv[1], "tournament-create") == 0) {
        int argc = 0;
        while (argv[argc])
            argc++;
        return akc_tournament_create_request(argc, argv);
    }
    if (strcmp(argv[1], "tournament-edit") == 0) {
        int argc = 0;
        while (argv[argc])
            argc++;
        return akc_tournament_edit_request(argc, argv);
    }
    json_t *req = json_pack("{s:s,s:s}", "cmd", "admin", "op", ops[k].wire);
    if (strcmp(argv[1], "tournament-start") == 0 || strcmp(argv[1], "tournament-remove") == 0 ||
        strcmp(argv[1], "tournament-cancel") == 0)
        json_object_set_new(req, "tournament", json_integer(akc_game_number(argv[2])));
    if (strcmp(argv[1], "tournament-remove") == 0)
        json_object_set_new(req, "user", json_string(argv[3]));
    if (strcmp(argv[1], "tournament-cancel") == 0)
        json_object_set_new(req, "games", json_string(argv[3] ? argv[3] : "finish"));
    if (strncmp(argv[1], "tournament-", 11) == 0)
        ;
    else if (strcmp(argv[1], "chat-reports") == 0 && argv[2])
        json_object_set_new(req, "after", json_integer(akc_game_number(argv[2])));
    else if (strcmp(argv[1], "chat-delete") == 0 || strcmp(argv[1], "chat-dismiss") == 0)
        json_object_set_new(req, "message", json_integer(akc_game_number(argv[2])));
    else if (strcmp(argv[1], "chat-reports") == 0)
        ;
    else if (ops[k].game)
        json_object_set_new(req, "game", json_integer(akc_game_number(argv[2])));
    else if (argv[2])
        json_object_set_new(req, "user", json_string(argv[2]));
    if (strcmp(argv[1], "extend") == 0)
        json_object_set_new(req, "seconds", json_integer(akc_duration(argv[3])));
    if (strcmp(argv[1], "ban") == 0 && argv[3])
        json_object_set_new(req, "games", json_string(argv[3]));
    if (strcmp(argv[1], "computer") == 0)
        json_object_set_new(req, "computer", json_boolean(strcmp(argv[3], "on") == 0));
    if (strcmp(argv[1], "chat-mute") == 0)
        json_object_set_new(req, "seconds", json_integer(strcmp(argv[3], "0") == 0 ? 0 : akc_duration(argv[3])));
    if (strcmp(argv[1], "adjudicate") == 0) {
        char reason[1024];
        join_words(argv, 4, reason, sizeof reason);
        json_object_set_new(req, "result", json_string(argv[3]));
        json_object_set_new(req, "reason", json_string(reason));
    }
    return req;
}

static void print_overdue(const json_t *r)
{
    size_t i;
    json_t *g;
    if (json_array_size(json_object_get(r, "games")) == 0)
        printf("no game is overdue\n");
    json_array_foreach(json_object_get(r, "games"), i, g) {
        const json_t *p = json_object_get(g, "players");
        printf("game %lld: %s (Axis) against %s (Allied), %s to move, overdue\n",
               (long long)json_integer_value(json_object_get(g, "game")),
               json_string_value(json_object_get(p, "axis")), json_string_value(json_object_get(p, "allied")),
               json_string_value(json_object_get(g, "waiting_for")));
    }
}

static void print_reports(const json_t *r)
{
    size_t i;
    json_t *m;
    if (json_array_size(json_object_get(r, "reports")) == 0)
        printf("no chat message is reported\n");
    json_array_foreach(json_object_get(r, "reports"), i, m) {
        printf("message %lld in game %lld (%s' channel), %s: %s\n", (long long)json_integer_value(json_object_get(m, "message")),
               (long long)json_integer_value(json_object_get(m, "game")), json_string_value(json_object_get(m, "channel")),
               json_string_value(json_object_get(m, "user")), json_string_value(json_object_get(m, "text")));
        const char *reason = json_string_value(json_object_get(m, "reason"));
        printf("  reported %lld time%s, first by %s%s%s\n", (long long)json_integer_value(json_object_get(m, "reports")),
               json_integer_value(json_object_get(m, "reports")) == 1 ? "" : "s",
               json_string_value(json_object_get(m, "reporter")), reason && *reason ? ": " : "", reason ? reason : "");
    }
    if (json_is_true(json_object_get(r, "more")))
        printf("more: akc admin chat-reports %lld\n",
               (long long)json_integer_value(json_object_get(json_array_get(json_object_get(r, "reports"),
                   json_array_size(json_object_get(r, "reports")) - 1), "message")));
}

static long long num(const json_t *o, const char *a, const char *b)
{
    const json_t *x = json_object_get(o, a);
    return (long long)json_integer_value(b ? json_object_get(x, b) : x);
}

static void print_stats(const json_t *r)
{
    const json_t *ms = json_object_get(r, "commit_ms");
    printf("up %lld s; %lld connections (%lld TLS), %lld players logged in\n", num(r, "uptime", NULL),
           num(r, "connections", "total"), num(r, "connections", "tls"), num(r, "players", NULL));
    printf("games: %lld open, %lld running (%lld overdue), %lld finished, %lld called off\n",
           num(r, "games", "open"), num(r, "games", "running"), num(r, "games", "overdue"),
           num(r, "games", "finished"), num(r, "games", "called_off"));
    printf("actions: %.2f per second over the last minute, %lld since start in %lld commits\n",
           json_real_value(json_object_get(r, "actions_per_second")), num(r, "actions", NULL),
           num(r, "commits", NULL));
    printf("commit latency (last %lld): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           num(r, "commit_ms", "samples"), json_real_value(json_object_get(ms, "p50")),
           json_real_value(json_object_get(ms, "p90")), json_real_value(json_object_get(ms, "p99")),
           json_real_value(json_object_get(ms, "max")));
    const char *code;
    json_t *n;
    printf("errors answered:%s", json_object_size(json_object_get(r, "errors")) ? "" : " none");
    json_object_foreach((json_t *)json_object_get(r, "errors"), code, n)
        printf(" %s %lld", code, (long long)json_integer_value(n));
    printf("\n");
}

int akc_admin(struct ak_net *n, char **argv)
{
    int status, k = find_op(argv[1]);
    json_t *r = akc_call(n, request(argv, k), &status);
    if (!r || akc_json())
        return (json_decref(r), status);
    const char *op = argv[1];
    if (strcmp(op, "overdue") == 0) {
        print_overdue(r);
    } else if (strcmp(op, "extend") == 0) {
        char clock[64];
        ak_summary_clock(r, clock, sizeof clock);
        printf("game %s: the clock is %s\n", argv[2], clock);
    } else if (strcmp(op, "abort") == 0) {
        printf("game %s aborted\n", argv[2]);
    } else if (strcmp(op, "adjudicate") == 0) {
        printf("game %s adjudicated: %s\n", argv[2], strcmp(argv[3], "draw") == 0 ? "a draw"
                                                  : strcmp(argv[3], "axis") == 0 ? "the Axis player wins"
                                                                                 : "the Allied player wins");
    } else if (strcmp(op, "ban") == 0) {
        printf("%s is banned: the account cannot log in or be challenged", argv[2]);
        if (num(r, "games_ended", NULL))
            printf("; %lld of its games ended (adjudicated to the opponent, or called off)", num(r, "games_ended", NULL));
        printf("\n");
    } else if (strcmp(op, "unban") == 0) {
        printf("%s is no longer banned\n", argv[2]);
    } else if (strcmp(op, "export-account") == 0) {
        json_dumpf(r, stdout, JSON_INDENT(2));
        putchar('\n');
    } else if (strcmp(op, "delete-account") == 0) {
        printf("account %s deleted: personal data erased, finished games kept as %s, %lld unfinished games ended\n",
               argv[2], json_string_value(json_object_get(r, "now")),
               (long long)json_integer_value(json_object_get(r, "games_ended")));
    } else if (strcmp(op, "chat-reports") == 0) {
        print_reports(r);
    } else if (strcmp(op, "chat-delete") == 0 || strcmp(op, "chat-dismiss") == 0) {
        printf("message %s %s\n", argv[2], op[5] == 'd' && op[6] == 'e' ? "removed; its reports are closed"
                                                                         : "kept; its reports are closed");
    } else if (strcmp(op, "chat-mute") == 0) {
        long long until = num(r, "muted_until", NULL);
        if (until)
            printf("%s may not chat for %s\n", json_string_value(json_object_get(r, "user")), argv[3]);
        else
            printf("%s may chat again\n", json_string_value(json_object_get(r, "user")));
    } else if (strcmp(op, "computer") == 0) {
        printf("%s %s a computer player\n", json_string_value(json_object_get(r, "user")),
               json_is_true(json_object_get(r, "computer")) ? "is now" : "is no longer");
    } else if (strcmp(op, "reset-password") == 0) {
        printf("reset token for %s (valid 48 hours, once): %s\n", json_string_value(json_object_get(r, "user")),
               json_string_value(json_object_get(r, "token")));
        printf("hand it to the player, who runs: akc reset-password %s %s\n",
               json_string_value(json_object_get(r, "user")), json_string_value(json_object_get(r, "token")));
    } else if (strcmp(op, "tournament-create") == 0) {
        printf("tournament %lld created: %s (%s); players join with: akc tournament join %lld\n",
               num(r, "tournament", NULL), json_string_value(json_object_get(r, "name")),
               json_string_value(json_object_get(r, "kind")), num(r, "tournament", NULL));
    } else if (strcmp(op, "tournament-edit") == 0 || strcmp(op, "tournament-remove") == 0) {
        printf("tournament %s: %s%s%s", argv[2], strcmp(op, "tournament-edit") == 0 ? "corrected, now called " : "",
               strcmp(op, "tournament-edit") == 0 ? json_string_value(json_object_get(r, "name")) : "removed ",
               strcmp(op, "tournament-edit") == 0 ? "" : json_string_value(json_object_get(r, "user")));
        if (json_object_get(r, "games_resigned"))
            printf(" (it had started: %lld unfinished games of his resigned)", num(r, "games_resigned", NULL));
        printf("\n");
    } else if (strcmp(op, "tournament-cancel") == 0) {
        printf("tournament %s cancelled (now %s); %lld unfinished games called off\n", argv[2],
               json_string_value(json_object_get(r, "name")), num(r, "games_aborted", NULL));
    } else if (strcmp(op, "tournament-start") == 0) {
        printf("tournament %s started with %lld players; its games are paired (akc tournament show %s)\n",
               json_string_value(json_object_get(r, "name")), num(r, "players", NULL), argv[2]);
    } else {
        print_stats(r);
    }
    json_decref(r);
    return 0;
}

int akc_reset_password(struct ak_net *n, const char *user, const char *token)
{
    char password[1024];
    int status;
    if (akc_read_new_password(password, sizeof password, "New password: ") != 0)
        return EXIT_USAGE;
    json_t *r = akc_call(n, json_pack("{s:s,s:s,s:s,s:s}", "cmd", "reset_password", "user", user, "token", token,
                                      "new_password", password), &status);
    memset(password, 0, sizeof password);
    if (!r)
        return status;
    akc_save_session(r);
    if (!akc_json())
        printf("password reset; every other session of %s has ended; logged in\n",
               json_string_value(json_object_get(r, "user")));
    json_decref(r);
    return 0;
}
