/* akc_comforts: the correspondence player's commands (akd's ak_chat.c,
 * ak_settings.c and ak_vacation.c answer them).
 *
 *   chat GAME                  the game's chat you may read
 *   chat GAME TEXT...          say something (players to players, anyone
 *                              else to the spectators)
 *   settings                   your settings
 *   settings chat on|off | notify each|digest | email ADDRESS|none | verify-email TOKEN
 *   vacation                   days left this year
 *   vacation DAYS | vacation end
 *   report MESSAGE [REASON...] a chat message to the admins (ak_moderation.c)
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "akc_cmd.h"

int akc_comforts_check(int argc, char **argv)
{
    const char *v = argv[0];
    bool ok = true;
    if (strcmp(v, "chat") == 0 || strcmp(v, "report") == 0)
        ok = argc >= 2 && akc_game_number(argv[1]) > 0;
    else if (strcmp(v, "settings") == 0) {
        ok = argc == 1 || argc == 3;
        if (argc == 3)
            ok = (strcmp(argv[1], "chat") == 0 && (strcmp(argv[2], "on") == 0 || strcmp(argv[2], "off") == 0)) ||
                 (strcmp(argv[1], "notify") == 0 && (strcmp(argv[2], "each") == 0 || strcmp(argv[2], "digest") == 0)) ||
                 strcmp(argv[1], "email") == 0 || strcmp(argv[1], "verify-email") == 0;
    } else if (strcmp(v, "vacation") == 0) {
        ok = argc == 1 || (argc == 2 && (strcmp(argv[1], "end") == 0 || atoi(argv[1]) > 0));
    }
    if (!ok) {
        fprintf(stderr, "akc %s: wrong arguments; usage:\n", v);
        return AKC_USAGE;
    }
    return 0;
}

static void print_settings(const json_t *r)
{
    const char *email = json_string_value(json_object_get(r, "email"));
    printf("chat: %s\nnotifications: %s\ne-mail: %s%s\n", json_string_value(json_object_get(r, "chat")),
           strcmp(json_string_value(json_object_get(r, "notify")), "digest") == 0 ? "a daily digest of the games "
                                                                                     "waiting for you"
                                                                                   : "one per move",
           email && *email ? email : "none",
           !email || !*email ? "" : json_is_true(json_object_get(r, "email_verified")) ? " (verified)"
                                  : " (not verified: send the token you were sent with akc settings verify-email TOKEN)");
}

static void print_vacation(const json_t *r)
{
    if (json_is_true(json_object_get(r, "away"))) {
        time_t until = (time_t)json_integer_value(json_object_get(r, "until"));
        char when[40];
        struct tm tm;
        gmtime_r(&until, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
        printf("on vacation until %s: your clocks stand still (not in tournaments that allow no vacation)\n", when);
    } else {
        printf("not on vacation\n");
    }
    printf("%.1f of %lld days left this year\n", json_number_value(json_object_get(r, "days_left")),
           (long long)json_integer_value(json_object_get(r, "days_per_year")));
    long long paused = (long long)json_integer_value(json_object_get(r, "games_paused"));
    long long running = (long long)json_integer_value(json_object_get(r, "games_running"));
    if (paused)
        printf("%lld game%s waiting for you had its deadline moved\n", paused, paused == 1 ? "" : "s");
    if (running)
        printf("%lld tournament game%s keep%s its clock (the tournament allows no vacation)\n", running,
               running == 1 ? "" : "s", running == 1 ? "s" : "");
}

int akc_comforts(struct ak_net *n, int argc, char **argv)
{
    int status;
    const char *v = argv[0];
    json_t *req;
    if (strcmp(v, "chat") == 0) {
        req = json_pack("{s:s,s:I}", "cmd", "chat", "game", (json_int_t)akc_game_number(argv[1]));
        if (argc > 2) {
            char text[1024] = "";
            for (int i = 2; i < argc; i++) {
                size_t len = strlen(text);
                snprintf(text + len, sizeof text - len, "%s%s", i > 2 ? " " : "", argv[i]);
            }
            json_object_set_new(req, "text", json_string(text));
        }
    } else if (strcmp(v, "report") == 0) {
        char reason[1024] = "";
        for (int i = 2; i < argc; i++) {
            size_t len = strlen(reason);
            snprintf(reason + len, sizeof reason - len, "%s%s", i > 2 ? " " : "", argv[i]);
        }
        req = json_pack("{s:s,s:I,s:s}", "cmd", "chat_report", "message", (json_int_t)akc_game_number(argv[1]),
                        "reason", reason);
    } else if (strcmp(v, "settings") == 0) {
        req = json_pack("{s:s}", "cmd", "settings");
        if (argc == 3) {
            bool none = strcmp(argv[1], "email") == 0 && strcmp(argv[2], "none") == 0;
            json_object_set_new(req, strcmp(argv[1], "verify-email") == 0 ? "verify_email" : argv[1],
                                json_string(none ? "" : argv[2]));
        }
    } else {
        req = json_pack("{s:s}", "cmd", "vacation");
        if (argc == 2 && strcmp(argv[1], "end") == 0)
            json_object_set_new(req, "end", json_true());
        else if (argc == 2)
            json_object_set_new(req, "days", json_integer(atoi(argv[1])));
    }
    json_t *r = akc_call(n, req, &status);
    if (!r || akc_json())
        return (json_decref(r), status);
    if (strcmp(v, "report") == 0) {
        printf("message %s reported to the server's admins%s\n", argv[1],
               json_is_true(json_object_get(r, "reported_before")) ? " (you had reported it already)" : "");
    } else if (strcmp(v, "chat") == 0 && argc > 2) {
        printf("said to the %s\n", strcmp(json_string_value(json_object_get(r, "channel")), "players") == 0
                                       ? "players" : "spectators");
    } else if (strcmp(v, "chat") == 0) {
        size_t i;
        json_t *m;
        if (!json_array_size(json_object_get(r, "messages")))
            printf("no chat in game %s yet\n", argv[1]);
        json_array_foreach(json_object_get(r, "messages"), i, m) {
            char line[700];
            ak_summary_chat(m, line, sizeof line);
            printf("%s\n", line);
        }
    } else if (strcmp(v, "settings") == 0) {
        print_settings(r);
    } else {
        print_vacation(r);
    }
    json_decref(r);
    return 0;
}
