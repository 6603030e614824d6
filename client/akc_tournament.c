/* akc_tournament: `akc tournament list|show ID|join ID|withdraw ID` for
 * players, and the requests of `akc admin tournament-create` and
 * `tournament-edit` (akc_admin.c sends them).
 * akd's ak_tournament.c runs the tournaments. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "akc_cmd.h"

static void when_text(int64_t t, char *buf, size_t cap)
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, cap, "%Y-%m-%d %H:%M UTC", &tm);
}

/* 259200 -> "3d", 5400 -> "1h30m", 90 -> "1m30s". */
static void duration_text(long long s, char *buf, size_t cap)
{
    long long d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60, r = s % 60;
    size_t n = 0;
    buf[0] = '\0';
    if (d)
        n += (size_t)snprintf(buf + n, cap - n, "%lldd", d);
    if (h && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "%lldh", h);
    if (m && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "%lldm", m);
    if ((r || !n) && n < cap)
        snprintf(buf + n, cap - n, "%llds", r);
}

static void print_line(const json_t *t)
{
    char when[40], tc[80] = "no clock", span[32], form[48];
    const json_t *c = json_object_get(t, "time_control");
    long long secs = (long long)json_integer_value(json_object_get(c, "seconds"));
    const char *status = json_string_value(json_object_get(t, "status"));
    bool swiss = strcmp(json_string_value(json_object_get(t, "kind")), "swiss") == 0;
    if (secs) {
        duration_text(secs, span, sizeof span);
        snprintf(tc, sizeof tc, "%s per %s%s", span, json_string_value(json_object_get(c, "per")),
                 strcmp(json_string_value(json_object_get(c, "on_expiry")), "wait") == 0 ? ", waits when it runs out" : "");
    }
    if (swiss)
        snprintf(form, sizeof form, "%lld rounds", (long long)json_integer_value(json_object_get(t, "rounds")));
    else
        snprintf(form, sizeof form, "%s%s", json_is_true(json_object_get(t, "both_sides")) ? "both sides" : "one game a pair",
                 json_is_true(json_object_get(t, "bid")) ? ", sides bid for" : "");
    when_text((int64_t)json_integer_value(json_object_get(t, "starts")), when, sizeof when);
    printf("%-4lld %-20s %-11s %-8s %2lld players  %-8s %s%s, %s%s%s\n",
           (long long)json_integer_value(json_object_get(t, "tournament")), json_string_value(json_object_get(t, "name")),
           json_string_value(json_object_get(t, "kind")), status,
           (long long)json_integer_value(json_object_get(t, "players")), json_string_value(json_object_get(t, "ruleset")),
           json_is_true(json_object_get(t, "rated")) ? "rated, " : "", tc, form,
           strcmp(status, "open") == 0 ? "; starts " : "", strcmp(status, "open") == 0 ? when : "");
}

static void print_show(const json_t *r)
{
    size_t i;
    json_t *x;
    print_line(r);
    long long round = (long long)json_integer_value(json_object_get(r, "round"));
    if (round)
        printf("round %lld%s\n", round, strcmp(json_string_value(json_object_get(r, "kind")), "swiss") == 0 ? "" :
               " (every game is paired)");
    printf("\n  #  player            points  S-B    won drawn lost  forfeits byes\n");
    json_array_foreach(json_object_get(r, "standings"), i, x)
        printf("%3lld  %-16s %6.1f %6.2f %5lld %5lld %4lld %9lld %4lld\n",
               (long long)json_integer_value(json_object_get(x, "rank")), json_string_value(json_object_get(x, "user")),
               json_number_value(json_object_get(x, "points")), json_number_value(json_object_get(x, "sonneborn_berger")),
               (long long)json_integer_value(json_object_get(x, "wins")),
               (long long)json_integer_value(json_object_get(x, "draws")),
               (long long)json_integer_value(json_object_get(x, "losses")),
               (long long)json_integer_value(json_object_get(x, "forfeits")),
               (long long)json_integer_value(json_object_get(x, "byes")));
    if (json_array_size(json_object_get(r, "games")))
        printf("\n");
    json_array_foreach(json_object_get(r, "byes"), i, x)
        printf("  round %-3lld bye for %s (a win)\n", (long long)json_integer_value(json_object_get(x, "round")),
               json_string_value(json_object_get(x, "user")));
    json_array_foreach(json_object_get(r, "games"), i, x) {
        const char *result = json_string_value(json_object_get(x, "result"));
        const char *status = json_string_value(json_object_get(x, "status"));
        const char *reason = json_string_value(json_object_get(x, "reason"));
        char what[80];
        if (strcmp(status, "active") != 0)
            snprintf(what, sizeof what, "%s", status);
        else if (strcmp(result, "none") == 0)
            snprintf(what, sizeof what, "in play");
        else
            snprintf(what, sizeof what, "%s (%s)%s",
                     strcmp(result, "axis_wins") == 0 ? "Axis won" : strcmp(result, "allied_wins") == 0 ? "Allied won"
                                                                                                          : "drawn",
                     reason, strcmp(reason, "time") == 0 ? " forfeit" : "");
        printf("  round %-3lld game %-5lld %-16s (Axis) against %-16s (Allied): %s\n",
               (long long)json_integer_value(json_object_get(x, "round")),
               (long long)json_integer_value(json_object_get(x, "game")), json_string_value(json_object_get(x, "axis")),
               json_string_value(json_object_get(x, "allied")), what);
    }
}

int akc_tournament_check(int argc, char **argv)
{
    const char *op = argc > 1 ? argv[1] : "";
    bool list = strcmp(op, "list") == 0,
         one = strcmp(op, "show") == 0 || strcmp(op, "join") == 0 || strcmp(op, "withdraw") == 0;
    if ((!list && !one) || argc != (list ? 2 : 3) || (one && akc_game_number(argv[2]) < 0)) {
        fprintf(stderr, "akc tournament: %s; usage:\n", !list && !one ? "no such operation" : "wrong arguments");
        return AKC_USAGE;
    }
    return 0;
}

int akc_tournament(struct ak_net *n, char **argv)
{
    int status;
    json_t *req = json_pack("{s:s,s:s}", "cmd", "tournament", "op", argv[1]);
    if (argv[2])
        json_object_set_new(req, "tournament", json_integer(akc_game_number(argv[2])));
    json_t *r = akc_call(n, req, &status);
    if (!r || akc_json())
        return (json_decref(r), status);
    if (strcmp(argv[1], "list") == 0) {
        size_t i;
        json_t *t;
        if (!json_array_size(json_object_get(r, "tournaments")))
            printf("no tournament yet\n");
        json_array_foreach(json_object_get(r, "tournaments"), i, t)
            print_line(t);
    } else if (strcmp(argv[1], "show") == 0) {
        print_show(r);
    } else if (strcmp(argv[1], "withdraw") == 0) {
        printf("you have left tournament %s", json_string_value(json_object_get(r, "name")));
        if (json_object_get(r, "games_resigned"))
            printf("; it had started: you resigned your %lld unfinished games of it, and forfeit the rest",
                   (long long)json_integer_value(json_object_get(r, "games_resigned")));
        printf("\n");
    } else {
        long long n = (long long)json_integer_value(json_object_get(r, "players"));
        printf("you are in tournament %s (%lld player%s so far)\n", json_string_value(json_object_get(r, "name")), n,
               n == 1 ? "" : "s");
    }
    json_decref(r);
    return 0;
}

/* The words key=value or flags of tournament-create (rounds=N
 * starts=now|+DURATION|SECONDS time=DURATION per=turn expiry=wait
 * ruleset=R both_sides rated vacation) or of tournament-edit (name=NAME
 * rounds starts time per expiry) from argv[from] on, into req; false
 * (after a message) if a word is wrong. */
static bool tournament_words(json_t *req, int argc, char **argv, int from, bool edit)
{
    json_t *tc = json_object();
    for (int i = from; i < argc; i++) {
        const char *w = argv[i], *eq = strchr(w, '=');
        const char *v = eq ? eq + 1 : "";
        size_t klen = eq ? (size_t)(eq - w) : strlen(w);
        long num = -1;
        if (klen == 6 && strncmp(w, "rounds", 6) == 0 && (num = strtol(v, NULL, 10)) > 0)
            json_object_set_new(req, "rounds", json_integer(num));
        else if (klen == 6 && strncmp(w, "starts", 6) == 0 &&
                 (strcmp(v, "now") == 0 || (v[0] == '+' && akc_duration(v + 1) > 0) || strtol(v, NULL, 10) > 0))
            json_object_set_new(req, "starts", json_integer(strcmp(v, "now") == 0 ? (json_int_t)time(NULL)
                                                            : v[0] == '+' ? (json_int_t)time(NULL) + akc_duration(v + 1)
                                                                          : (json_int_t)strtol(v, NULL, 10)));
        else if (klen == 4 && strncmp(w, "time", 4) == 0 && (num = akc_duration(v)) > 0)
            json_object_set_new(tc, "seconds", json_integer(num));
        else if (klen == 3 && strncmp(w, "per", 3) == 0)
            json_object_set_new(tc, "per", json_string(v));
        else if (klen == 6 && strncmp(w, "expiry", 6) == 0)
            json_object_set_new(tc, "on_expiry", json_string(v));
        else if (edit && klen == 4 && strncmp(w, "name", 4) == 0 && *v)
            json_object_set_new(req, "name", json_string(v));
        else if (!edit && klen == 7 && strncmp(w, "ruleset", 7) == 0)
            json_object_set_new(req, "ruleset", json_string(v));
        else if (!edit && !eq && (strcmp(w, "both_sides") == 0 || strcmp(w, "rated") == 0 || strcmp(w, "vacation") == 0 ||
                                   strcmp(w, "bid") == 0))
            json_object_set_new(req, w, json_true());
        else {
            fprintf(stderr, edit ? "akc admin tournament-edit: '%s' is not name=NAME, rounds=N, starts=now|+DURATION, "
                                   "time=DURATION, per=turn or expiry=wait\n"
                                 : "akc admin tournament-create: '%s' is not rounds=N, starts=now|+DURATION, "
                                   "time=DURATION, per=turn, expiry=wait, ruleset=R, both_sides, rated, vacation or bid\n", w);
            json_decref(tc);
            return false;
        }
    }
    if (json_object_size(tc))
        json_object_set_new(req, "time_control", tc);
    else
        json_decref(tc);
    return true;
}

/* `admin tournament-create NAME KIND [WORD...]`; NULL (after a message)
 * if a word is wrong. */
json_t *akc_tournament_create_request(int argc, char **argv)
{
    json_t *req = json_pack("{s:s,s:s,s:s,s:s}", "cmd", "admin", "op", "tournament_create", "name", argv[2], "kind",
                            argv[3]);
    if (!tournament_words(req, argc, argv, 4, false))
        return json_decref(req), NULL;
    return req;
}

/* `admin tournament-edit ID WORD...`; NULL (after a message) if a word is wrong. */
json_t *akc_tournament_edit_request(int argc, char **argv)
{
    json_t *req = json_pack("{s:s,s:s,s:I}", "cmd", "admin", "op", "tournament_edit", "tournament",
                            (json_int_t)akc_game_number(argv[2]));
    if (!tournament_words(req, argc, argv, 3, true))
        return json_decref(req), NULL;
    return req;
}
