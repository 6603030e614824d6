/* akc_play: `akc play GAME`, an interactive session on one game.
 *
 * It watches the game, keeps the public state up to date by applying each
 * pushed JSON Patch (asking for the whole state when a sequence number is
 * missed), prints the opponent's actions and the dice as they happen, says
 * when the game waits for this player and for what, and reads commands with
 * libedit: line editing, history, tab completion of commands and unit
 * names. Commands are the play verbs of ak_verbs.c without the game number,
 * plus show, options (numbered: type the number to send one), odds (worked
 * out locally with the shared rules library), dests, why, log, help, quit.
 * On a terminal libedit reads each key through getc_or_push, which prints
 * the server's pushes above the line being typed while it waits; otherwise
 * it reads plain lines.
 */
#include <editline/readline.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ak_battle.h"
#include "ak_client.h"
#include "ak_dice.h"
#include "ak_engine.h"
#include "ak_hazards.h"
#include "ak_move.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_victory.h"

#define LOG_MAX 400
#define CHOICES_MAX 256

static struct {
    struct ak_net *net;
    const char *server;             /* for the dice nonces (ak_nonces.c) */
    long game;
    int me;                         /* my side, or -1 when watching */
    struct ak_state s;
    json_t *public_state;
    long seq;
    const struct ak_draw_opts *draw;
    char *log[LOG_MAX];
    int nlog;
    json_t *choices;                /* the last `options` list, numbered from 1 */
    bool tty, quit;
    bool editing;                   /* inside readline(): a line is being typed */
    char prompt[96];
    int (*reconnect)(struct ak_net *n);     /* connect and resume again; 0 on success */
    bool timed;                     /* the game has a time control */
    bool clock_due;                 /* say the clock at the next quiet moment */
    const struct ak_crt_table *crt;     /* the game's table (Updated ruleset), or NULL */
} P;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print above the line being edited, then draw the line again. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    if (P.editing)
        fputs("\r\033[K", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
    if (P.editing && !P.quit)
        rl_forced_update_display();
}

static void remember(const char *text)
{
    if (P.nlog == LOG_MAX) {
        free(P.log[0]);
        memmove(P.log, P.log + 1, sizeof P.log[0] * (LOG_MAX - 1));
        P.nlog--;
    }
    P.log[P.nlog++] = strdup(text);
}

static void update_prompt(void)
{
    if (P.s.phase == AK_PHASE_OVER)
        snprintf(P.prompt, sizeof P.prompt, "game %ld, over> ", P.game);
    else
        snprintf(P.prompt, sizeof P.prompt, "game %ld, turn %d %s %s> ", P.game, P.s.turn,
                 ak_side_name(P.s.side), ak_phase_name(P.s.phase));
    if (P.editing) {
        fputs("\r\033[K", stdout);
        rl_set_prompt(P.prompt);
        rl_forced_update_display();
    }
}

static bool load_state(const json_t *state)
{
    char err[200];
    if (!ak_state_from_json(state, &P.s, err, sizeof err)) {
        say("akc: cannot read the state: %s\n", err);
        return false;
    }
    ak_crt_attach(&P.s, P.crt);     /* the game's table, for the odds of attacks planned */
    json_decref(P.public_state);
    P.public_state = json_deep_copy(state);
    P.seq = (long)P.s.actions;
    update_prompt();
    return true;
}

/* A fingerprint of the dangers listed now, to say them again only when
 * they change. */
static uint64_t hazards_hash(void)
{
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    int n = ak_hazards(&P.s, hz, AK_HAZARDS_MAX);
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        for (const char *c = hz[i].text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

/* The dangers for the player to move (ending: only those that action
 * makes bite), printed above the line being typed. Returns the count. */
static int say_hazards(int ending)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 0;
    int n = ak_draw_hazards(f, &P.s, ending);
    fclose(f);
    if (n > 0)
        say("%s", text);
    free(text);
    return n;
}

/* The Updated ruleset's loss decisions, in the player's words. */
static void say_losses_owed(void)
{
    char h[8];
    int need = P.s.pending.need;
    switch (P.s.pending.percent) {
    case AK_LOSS_CANCEL:
        say("Your decision: your fortress garrison may give one more step to stay (losses REDUCED ELIMINATED), or "
            "retreat (losses - -). options lists the choices.\n");
        break;
    case AK_LOSS_STEP:
        say("Your decision: the retreat crossed an enemy zone; the retreating units lose one step "
            "(losses REDUCED ELIMINATED).\n");
        break;
    case AK_LOSS_ATTRITION:
        say("Your decision: isolation attrition at %s, a 50%% loss: %d.%d defense factors (losses REDUCED ELIMINATED).\n",
            ak_hex_format(P.s.pending.hex, h), need / 2, need % 2 * 5);
        break;
    default:
        say("Your decision: battle %d's losses, at least %d.%d %s factors (losses REDUCED ELIMINATED; a reduced "
            "odd unit counts half its factor on a %% result). options lists some choices.\n",
            P.s.pending.battle + 1, need / 2, need % 2 * 5, P.s.pending.side == P.s.side ? "attack" : "defense");
    }
}

/* What the game waits for, said once after each change: the same words
 * are not said again while the game waits for the same thing, and the
 * dangers only when they change. */
static void say_whose_turn(void)
{
    static char said[64];
    static uint64_t hazards_said;
    char now[64];
    snprintf(now, sizeof now, "%d/%d/%d/%d/%d/%d", P.s.turn, P.s.side, P.s.phase, P.s.pending.kind,
             P.s.pending.battle, ak_waiting_for(&P.s));
    bool same = strcmp(now, said) == 0;
    snprintf(said, sizeof said, "%s", now);
    if (same) {
        uint64_t h = hazards_hash();
        if (h != hazards_said && ak_waiting_for(&P.s) == P.me && !P.s.pending.kind)
            say_hazards(0);
        hazards_said = h;
        return;
    }
    hazards_said = hazards_hash();
    static const char *const decision[] = {"", "route the losers' retreat", "pick your exchange losses",
                                           "advance after combat or decline", "meet the loss requirement"};
    int w = ak_waiting_for(&P.s);
    if (P.s.phase == AK_PHASE_OVER) {
        char over[80];
        say("The game is over: %s.\n", ak_draw_result(&P.s, over, sizeof over));
        if (P.me >= 0)
            say("A return game with sides swapped: akc rematch %ld\n", P.game);
        return;
    }
    if (w != P.me) {
        say("Waiting for the %s player.\n", ak_side_name(w));
        return;
    }
    if (P.s.pending.kind == AK_PEND_LOSSES)
        say_losses_owed();
    else if (P.s.pending.kind && P.s.pending.kind < sizeof decision / sizeof decision[0])
        say("Your decision: %s in battle %d (options lists the choices; type a number).\n",
            decision[P.s.pending.kind], P.s.pending.battle + 1);
    else if (P.s.phase == AK_PHASE_MOVEMENT)
        say("Your move: the %s movement portion. Move, place arrivals, then end-movement.\n",
            ak_side_name(P.s.side));
    else if (P.s.phase == AK_PHASE_COMBAT && ak_ruleset_get(P.s.ruleset)->needs_crt_table)
        say("Your combat phase: supply-attacks SU, then declare battles and resolve them one at a time; end-phase.\n");
    else if (P.s.phase == AK_PHASE_MECH)
        say("Your mechanized movement phase: mechanized units in supply move again on half their allowance; end-phase.\n");
    else if (P.s.phase == AK_PHASE_SUPPLY)
        say("Your supply phase: burn SU for emergency supply, break-out HEX for isolated units; end-phase rolls the attrition.\n");
    else if (P.s.phase == AK_PHASE_REPLACEMENT)
        say("Your replacement phase: rebuild UNIT, or place a dead UNIT at your entry square; then end-turn.\n");
    else
        say("Your combat portion: declare battles, resolve them, then end-turn.\n");
    if (!P.s.pending.kind)
        say_hazards(0);
    /* Not asked from here: this may run inside another request's wait. */
    P.clock_due = P.timed && w == P.me;
}

static void print_events(const json_t *events, bool mine)
{
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        const char *text = json_string_value(json_object_get(e, "text"));
        remember(text);
        if (!mine)
            say("  %s\n", text);
    }
}

static void resync(void);

static void on_push(json_t *m)
{
    const char *kind = json_string_value(json_object_get(m, "push"));
    if (!kind || json_integer_value(json_object_get(m, "game")) != P.game)
        return;
    if (strcmp(kind, "joined") == 0) {
        say("%s joined as %s.\n", json_string_value(json_object_get(m, "user")),
            json_string_value(json_object_get(m, "side")));
        return;
    }
    if (strcmp(kind, "chat") == 0) {
        char line[700];
        ak_summary_chat(m, line, sizeof line);
        say("  %s\n", line);
        return;
    }
    if (strcmp(kind, "chat_removed") == 0) {
        say("  (chat message %lld was removed by an admin)\n", (long long)json_integer_value(json_object_get(m, "id")));
        return;
    }
    if (strcmp(kind, "time_given") == 0) {
        say("%s gave %lld s more to the clock.\n", json_string_value(json_object_get(m, "by")),
            (long long)json_integer_value(json_object_get(m, "seconds")));
        return;
    }
    if (strcmp(kind, "undo") == 0) {
        if (ak_patch_apply(P.public_state, json_object_get(m, "patch")) != 0) {
            resync();
        } else {
            json_t *state = json_incref(P.public_state);
            load_state(state);
            json_decref(state);
        }
        char what[300], line[400];
        ak_verb_describe(json_object_get(m, "action"), what, sizeof what);
        snprintf(line, sizeof line, "taken back by the %s player: %s", ak_push_side(json_object_get(m, "by")), what);
        say("  %s\n", line);
        remember(line);
        say_whose_turn();
        return;
    }
    if (strcmp(kind, "game") != 0) {
        say("The game was %s by %s.\n", kind, json_string_value(json_object_get(m, "by")));
        return;
    }
    long seq = (long)json_integer_value(json_object_get(m, "seq"));
    const char *by = json_string_value(json_object_get(m, "by"));
    bool mine = P.me >= 0 && by && ak_side_parse(by) == P.me;
    if (seq != P.seq + 1 || ak_patch_apply(P.public_state, json_object_get(m, "patch")) != 0) {
        resync();
    } else {
        json_t *state = json_incref(P.public_state);
        load_state(state);
        json_decref(state);
    }
    print_events(json_object_get(m, "events"), mine);
    say_whose_turn();
}

/* The connection is gone (akd restarted, the network dropped): connect
 * again with growing pauses (1, 2, 4 ... 30 seconds), resume the session,
 * watch the game again and take its whole state: whatever happened
 * meanwhile is then shown as it is now. Ctrl-C leaves. */
static void reconnect(void)
{
    if (!P.reconnect) {
        say("akc: the connection to the server was lost\n");
        P.quit = true;
        return;
    }
    for (int pause = 1;; pause = pause < 16 ? pause * 2 : 30) {
        say("akc: the connection to the server was lost; trying again in %d s (Ctrl-C to leave)\n", pause);
        sleep((unsigned)pause);
        int rc = P.reconnect(P.net);
        if (rc < 0) {
            say("akc: the server no longer knows this session; log in again with 'akc login USER'\n");
            P.quit = true;
            return;
        }
        if (rc > 0)
            continue;
        json_t *r = ak_net_call(P.net, json_pack("{s:s,s:I}", "cmd", "watch", "game", (json_int_t)P.game), NULL);
        if (r && json_is_true(json_object_get(r, "ok"))) {
            long before = P.seq;
            load_state(json_object_get(json_object_get(r, "result"), "state"));
            say("akc: reconnected; the game is at action %ld%s\n", P.seq,
                P.seq != before ? " (it moved on meanwhile: show draws it)" : "");
            json_decref(r);
            say_whose_turn();
            return;
        }
        json_decref(r);
    }
}

static json_t *request(json_t *req)
{
    json_t *reply = ak_net_call(P.net, req, on_push);
    if (!reply) {
        reconnect();
        say("(that command was not answered: send it again if it is still wanted)\n");
        return NULL;
    }
    if (!json_is_true(json_object_get(reply, "ok"))) {
        const json_t *e = json_object_get(reply, "error");
        const char *rule = json_string_value(json_object_get(e, "rule"));
        if (rule)
            say("illegal: %s [%s, %s]\n", json_string_value(json_object_get(e, "message")), rule,
                json_string_value(json_object_get(e, "section")));
        else
            say("error: %s\n", json_string_value(json_object_get(e, "message")));
        json_decref(reply);
        return NULL;
    }
    json_t *result = json_incref(json_object_get(reply, "result"));
    json_decref(reply);
    return result;
}

/* The clock, the rated flag and the status, from a GAME summary. */
static void say_clock(const json_t *g)
{
    char clock[64], status[96];
    ak_summary_clock(g, clock, sizeof clock);
    ak_summary_status(g, NULL, status, sizeof status);
    say("Clock: %s; %s; %s.\n", clock, json_is_true(json_object_get(g, "rated")) ? "rated" : "not rated",
        status);
}

/* Ask the server for the summary (the clock runs there) and say it. */
static void clock_now(void)
{
    json_t *r = request(json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)P.game));
    if (r)
        say_clock(r);
    json_decref(r);
}

static void resync(void)
{
    json_t *r = request(json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)P.game));
    if (r)
        load_state(json_object_get(r, "state"));
    json_decref(r);
}

/* show [HEX] [dests UNITS | zoc | supply] */
static void show(char **w, int n)
{
    struct ak_draw_opts o = *P.draw;
    static uint8_t mark[AK_HEX_COUNT];
    int i = 1;
    if (i < n && ak_draw_place(w[i]) != AK_HEX_NONE &&
        strcmp(w[i], "zoc") != 0 && strcmp(w[i], "supply") != 0 && strcmp(w[i], "dests") != 0)
        o.at = ak_draw_place(w[i++]);
    if (i < n) {
        const char *what = strcmp(w[i], "dests") == 0 && i + 1 < n ? w[i + 1] : w[i];
        if (ak_draw_highlight(&P.s, what, mark, &o) != 0)
            return;
    }
    ak_draw_board(stdout, &P.s, &o);
    ak_draw_combat(stdout, &P.s);
    ak_draw_hazards(stdout, &P.s, 0);
    fflush(stdout);
}

/* A strength in the ruleset's unit: factors, or half points ("7.5"). */
static const char *strength(int n, bool half_points, char *buf, size_t cap)
{
    if (half_points)
        snprintf(buf, cap, "%d%s", n / 2, n % 2 ? ".5" : "");
    else
        snprintf(buf, cap, "%d", n);
    return buf;
}

/* Each result with its chance: "DE 1 in 6, DB2 3 in 6, EX 2 in 6". */
static void say_outcomes(const struct ak_battle_preview *p)
{
    char line[600];
    int used = 0;
    for (int i = 0; i < p->nresults && used < (int)sizeof line; i++)
        used += snprintf(line + used, sizeof line - (size_t)used, "%s%s %d in %d", i ? ", " : "", p->result[i].name,
                         p->result[i].chances, p->faces);
    if (p->nresults)
        say("  results: %s\n", line);
}

/* Whether the server would take the declaration now (attack supply,
 * adjacency, every declaration rule: its `odds`), in the mover's combat
 * phase, for a ruleset whose battles are fought on the game's table. */
static void odds_legal_now(const char *att_text, const char *def_text)
{
    if (P.me < 0 || P.me != P.s.side || P.s.phase != AK_PHASE_COMBAT || P.s.pending.kind)
        return;
    json_t *r = request(json_pack("{s:s,s:I,s:o,s:o}", "cmd", "odds", "game", (json_int_t)P.game, "attackers",
                                  ak_verb_names(att_text), "defenders", ak_verb_names(def_text)));
    const json_t *why = json_object_get(r, "reason");
    if (r && !json_is_true(json_object_get(r, "legal")))
        say("but it cannot be declared now: %s [%s, %s]\n", json_string_value(json_object_get(why, "message")),
            json_string_value(json_object_get(why, "rule")), json_string_value(json_object_get(why, "section")));
    json_decref(r);
}

/* The units of a list ("21pz,15pz"), on the board and combat units;
 * false after saying which is not. */
static bool battle_units(const char *text, uint8_t *out, int *n)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int u = ak_unit_find(ak_data(), t);
        if (u < 0 || u == AK_UNIT_NONE || !ak_on_board(&P.s, u)) {
            say("no unit '%s' on the board\n", t);
            return false;
        }
        if (!ak_unit_is_combat(ak_def(u))) {
            say("%s is not a combat unit: it neither attacks nor defends\n", t);
            return false;
        }
        if (*n < AK_GROUP_MAX)
            out[(*n)++] = (uint8_t)u;
    }
    return true;
}

/* odds ATTACKERS DEFENDERS, from the local copy of the state: the
 * ruleset's preview (the figures its table is read with, the results
 * with their chances), and what its supply rule asks. */
static void odds(const char *att_text, const char *def_text)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    if (!battle_units(att_text, att, &na) || !battle_units(def_text, def, &nd))
        return;
    const struct ak_ruleset *r = ak_ruleset_get(P.s.ruleset);
    struct ak_battle_preview p;
    char a[16], d[16];
    ak_battle_preview(&P.s, att, na, def, nd, AK_UNIT_NONE, &p);
    strength(p.attack, r->half_points, a, sizeof a);
    strength(p.defense, r->half_points, d, sizeof d);
    if (r->needs_crt_table) {
        say("%s to %s: %s, die modifier %+d%s\n", a, d, p.odds, p.drm,
            !p.known ? " (the server sent no table: odds unknown)" : "");
        say_outcomes(&p);
        odds_legal_now(att_text, def_text);
        return;
    }
    char sustain[96] = "; needs no supply";
    if (p.needs_supply && p.supply == AK_UNIT_NONE)
        snprintf(sustain, sizeof sustain, "; needs a supply unit within 5 squares, and none of yours reaches");
    else if (p.needs_supply)
        snprintf(sustain, sizeof sustain, "; %s can sustain it", ak_def(p.supply)->shortname);
    say("%s to %s: %s%s%s\n", a, d, p.odds, p.allowed ? "" : " (not allowed: worse than 1-6)",
        r->supply_bombards ? "" : sustain);
    say_outcomes(&p);
}

static void options(void)
{
    json_t *r = request(json_pack("{s:s,s:I}", "cmd", "options", "game", (json_int_t)P.game));
    if (!r)
        return;
    json_decref(P.choices);
    P.choices = json_incref(json_object_get(r, "actions"));
    size_t i;
    json_t *a;
    char line[600];
    json_array_foreach(P.choices, i, a) {
        ak_verb_format(P.game, a, line, sizeof line);
        /* "akc battle 3 ..." -> "battle ..." */
        const char *verb = line + 4, *rest = strchr(verb, ' ');
        const char *args = rest ? strchr(rest + 1, ' ') : NULL;
        say("  %2zu) %.*s%s\n", i + 1, (int)(rest ? rest - verb : (long)strlen(verb)), verb,
            args ? args : "");
    }
    const char *none = json_string_value(json_object_get(r, "none_because"));
    if (json_array_size(P.choices) == 0 && json_array_size(json_object_get(r, "kinds")) == 0)
        say("  nothing for you: %s\n", none ? none : "the game waits for nobody");
    else if (json_array_size(P.choices) == 0)
        say("  nothing but moves (dests UNITS lists where a stack can go)\n");
    json_decref(r);
}

static void act(json_t *action)
{
    char nonce[AK_NONCE_MAX + 1];
    uint32_t seq = P.s.actions + 1;
    if (!ak_nonce_for(P.server, P.game, seq, nonce)) {
        say("error: cannot read or make the dice nonce key in $XDG_STATE_HOME/akc\n");
        json_decref(action);
        return;
    }
    json_t *r = request(ak_act_request(P.game, action, nonce));
    if (!r)
        return;
    ak_nonce_check_reply(P.server, P.game, seq, nonce, r);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r, "events"), i, e)
        say("  %s\n", json_string_value(json_object_get(e, "text")));
    json_decref(r);
}

static void query(const char *cmd, const char *units, const char *to)
{
    json_t *req = json_pack("{s:s,s:I,s:o}", "cmd", cmd, "game", (json_int_t)P.game, "units",
                            ak_verb_names(units));
    if (to)
        json_object_set_new(req, "to", json_string(to));
    json_t *r = request(req);
    if (!r)
        return;
    if (!to) {
        size_t i;
        json_t *d;
        json_array_foreach(json_object_get(r, "dests"), i, d)
            say("  %-4s %2lld square%s%s\n", json_string_value(json_object_get(d, "hex")),
                (long long)json_integer_value(json_object_get(d, "squares")),
                json_integer_value(json_object_get(d, "squares")) == 1 ? "" : "s",
                json_is_true(json_object_get(d, "halts")) ? ", stops there" : "");
    } else if (json_is_true(json_object_get(r, "reachable"))) {
        say("  %s is reachable\n", to);
    } else {
        const json_t *why = json_object_get(r, "reason");
        say("  %s [%s, %s]\n", json_string_value(json_object_get(why, "message")),
            json_string_value(json_object_get(why, "rule")), json_string_value(json_object_get(why, "section")));
    }
    json_decref(r);
}

/* A move given by its destination: work out the route with the shared
 * rules library and send it along, so the server checks a path instead
 * of searching again (it still decides; if no route is found here, the
 * server's answer explains why). */
static void add_route(json_t *a)
{
    struct ak_action act;
    char err[200];
    struct ak_dest d;
    struct ak_reject rej;
    if (!ak_action_from_json(a, P.s.side, &act, err, sizeof err) ||
        !ak_move_route(&P.s, P.s.side, act.units, act.nunits, act.hex, &d, &rej))
        return;
    json_t *path = json_array();
    char h[8];
    for (int i = 0; i < d.npath; i++)
        json_array_append_new(path, json_string(ak_hex_format(d.path[i], h)));
    json_object_set_new(a, "path", path);
}

/* y at the question on the terminal; anything else is no ("not sent"). */
static bool ask_yes(const char *question)
{
    char *answer = readline(question);
    bool yes = answer && (answer[0] == 'y' || answer[0] == 'Y');
    free(answer);
    if (!yes)
        say("not sent\n");
    return yes;
}

/* An end-movement, end-phase or end-turn that throws something away
 * (supply not placed, units at sea, a port left empty, units about to die,
 * isolated squares rolling for attrition) is sent
 * only when the player says so: y at the question on a terminal; from a
 * script, the word `yes` after the command ("end-movement yes"). */
static bool confirmed(const char *verb, int n, char **w)
{
    int kind = strcmp(verb, "end-movement") == 0 ? AK_ACT_END_MOVEMENT
               : strcmp(verb, "end-turn") == 0   ? AK_ACT_END_TURN
               : strcmp(verb, "end-phase") == 0  ? AK_ACT_END_PHASE : 0;
    if (strcmp(verb, "resign") == 0 && !(n == 2 && strcmp(w[1], "yes") == 0)) {
        if (!P.tty) {
            say("not sent: type 'resign yes' to concede the game\n");
            return false;
        }
        return ask_yes("Concede the game? [y/N] ");
    }
    if (!kind || P.me < 0 || ak_waiting_for(&P.s) != P.me || (n == 2 && strcmp(w[1], "yes") == 0))
        return true;
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    int nh = ak_hazards(&P.s, hz, AK_HAZARDS_MAX), biting = 0;
    for (int i = 0; i < nh; i++)
        biting += hz[i].bites_at == kind;
    if (biting == 0)
        return true;
    say("%s now would cost you this:\n", verb);
    say_hazards(kind);
    if (!P.tty) {
        say("not sent: type '%s yes' to %s anyway\n", verb, verb);
        return false;
    }
    return ask_yes("Go ahead anyway? [y/N] ");
}

static void chat_history(void)
{
    json_t *r = request(json_pack("{s:s,s:I}", "cmd", "chat", "game", (json_int_t)P.game));
    size_t i;
    json_t *m;
    if (r && json_array_size(json_object_get(r, "messages")) == 0)
        say("no chat yet (say TEXT sends a message)\n");
    json_array_foreach(json_object_get(r, "messages"), i, m) {
        char line[700];
        ak_summary_chat(m, line, sizeof line);
        say("  %s\n", line);
    }
    json_decref(r);
}

/* An action verb of ak_verbs.c, after the questions the rules call for. */
static void play_action(char **w, int n)
{
    char err[200];
    if (!confirmed(w[0], n, w))
        return;
    if (n == 2 && strcmp(w[1], "yes") == 0 &&
        (strcmp(w[0], "end-movement") == 0 || strcmp(w[0], "end-turn") == 0 || strcmp(w[0], "end-phase") == 0 ||
         strcmp(w[0], "resign") == 0))
        n = 1;
    json_t *a = ak_verb_action(n, w, err, sizeof err);
    if (!a) {
        say("%s\n", err);
        return;
    }
    if (strcmp(w[0], "battle") == 0)
        odds(w[1], w[2]);
    if (strcmp(w[0], "move") == 0 && n == 3 && !strchr(w[2], ','))
        add_route(a);
    act(a);
}

static void play_quit(char **w, int n) { (void)w, (void)n; P.quit = true; }
static void play_help(char **w, int n);
static void play_show(char **w, int n) { show(w, n); }
static void play_options(char **w, int n) { (void)w, (void)n; options(); }
static void play_clock(char **w, int n) { (void)w, (void)n; clock_now(); }
static void play_chat(char **w, int n) { (void)w, (void)n; chat_history(); }
static void play_odds(char **w, int n) { (void)n; odds(w[1], w[2]); }
static void play_dests(char **w, int n) { (void)n; query("dests", w[1], NULL); }
static void play_why(char **w, int n) { (void)n; query("why", w[1], w[2]); }

static void play_log(char **w, int n)
{
    (void)w, (void)n;
    for (int i = 0; i < P.nlog; i++)
        say("  %s\n", P.log[i]);
}

static void play_undo(char **w, int n)
{
    (void)w, (void)n;
    json_decref(request(json_pack("{s:s,s:I}", "cmd", "undo", "game", (json_int_t)P.game)));
}

/* `say` alone: the text goes with it ("say TEXT" is sent as typed). */
static void play_say(char **w, int n)
{
    (void)w, (void)n;
    say("say TEXT sends a message to your opponent (chat shows the game's chat so far)\n");
}

/* The commands of `akc play`, in the order `help` lists them: from this
 * one table come `help` (the lines of the verbs the game's ruleset lacks
 * left out), tab completion of the first word and the dispatch. An entry
 * without a handler is an action verb of ak_verbs.c (the notation checks
 * its words); one without help is another name for the entry help_of. */
static const struct play_command {
    const char *name;
    const char *help;       /* its lines of `help` */
    const char *help_of;    /* an alias: the entry whose help it shares */
    int words;              /* with the command's own; 0: any */
    void (*run)(char **w, int n);
} play_commands[] = {
    {"move", "  move UNITS HEX|HEX,HEX,...   move a stack (best path, or this path)\n", NULL, 0, NULL},
    {"place", "  place UNIT HEX               a reinforcement, supply unit or landing; a unit back\n", NULL, 0, NULL},
    {"embark", "  embark UNITS                 put units to sea at a port\n", NULL, 0, NULL},
    {"substitute", "  substitute OUT IN            the Allied substitute counters\n", NULL, 0, NULL},
    {"end-movement", "  end-movement                 end the movement portion (phase); these ends ask first when\n"
                     "                               the rules would take something away; `yes` after: don't ask\n",
     NULL, 0, NULL},
    {"end-phase", "  end-phase                    end the combat, mechanized movement or supply phase\n", NULL, 0, NULL},
    {"end-turn", "  end-turn                     end the player turn\n", NULL, 0, NULL},
    {"odds", "  odds ATTACKERS DEFENDERS     the odds of a battle, before declaring it\n", NULL, 3, play_odds},
    {"battle", "  battle ATTACKERS DEFENDERS [SUPPLY]   declare a battle (odds shown; Updated: SUPPLY bombards)\n",
     NULL, 0, NULL},
    {"supply-attacks", "  supply-attacks SU            spend a supply unit: your units within 5 squares may attack\n",
     NULL, 0, NULL},
    {"resolve", "  resolve N                    fight battle N\n", NULL, 0, NULL},
    {"cancel", "  cancel N                     withdraw battle N before the first is resolved\n", NULL, 0, NULL},
    {"abandon", "  abandon UNITS                remove units that cannot attack at 1-6\n", NULL, 0, NULL},
    {"retreat", "  retreat UNITS HEX,HEX        route the losers' retreat (the winner decides)\n", NULL, 0, NULL},
    {"exchange", "  exchange UNITS               your losses in an EXCHANGE\n", NULL, 0, NULL},
    {"losses", "  losses REDUCE ELIMINATE      meet the loss owed: units to flip, units to remove (- none)\n", NULL, 0,
     NULL},
    {"advance", "  advance [UNITS HEX]          advance after combat, or decline\n", NULL, 0, NULL},
    {"destroy", "  destroy UNITS                destroy your endangered supply units\n", NULL, 0, NULL},
    {"burn", "  burn SU                      emergency supply, in the supply phase\n", NULL, 0, NULL},
    {"break-out", "  break-out HEX                an isolated square breaks out before the attrition rolls\n", NULL, 0,
     NULL},
    {"rebuild", "  rebuild UNIT                 a reduced unit back to full strength (replacement phase)\n", NULL, 0,
     NULL},
    {"fortify", "  fortify UNITS SU             boxes on the units' squares, spending SU (movement phase)\n", NULL, 0,
     NULL},
    {"port-move", "  port-move UNIT G25|box       by sea between your off-board box and Tobruch\n", NULL, 0, NULL},
    {"resign", "  resign                       concede (asks first; 'resign yes' does not)\n", NULL, 0, NULL},
    {"undo", "  undo                         take back your last move\n", NULL, 0, play_undo},
    {"options", "  options                      every legal action now, numbered: type N to send it\n", NULL, 0,
     play_options},
    {"dests", "  dests UNITS | why UNITS HEX  where a stack can go; why not there\n", NULL, 2, play_dests},
    {"why", NULL, "dests", 3, play_why},
    {"show", "  show [HEX] [dests UNITS|zoc|supply]   the map, with highlights; log: the events so far\n", NULL, 0,
     play_show},
    {"map", NULL, "show", 0, play_show},
    {"log", NULL, "show", 0, play_log},
    {"clock", "  clock                        the time left, the rated flag and the game's status\n", NULL, 0,
     play_clock},
    {"say", "  say TEXT | chat              a message to your opponent; the game's chat so far\n", NULL, 0, play_say},
    {"chat", NULL, "say", 0, play_chat},
    {"help", "  help | quit\n", NULL, 0, play_help},
    {"quit", NULL, "help", 0, play_quit},
    {"exit", NULL, "help", 0, play_quit},
};

#define NPLAY_COMMANDS (sizeof play_commands / sizeof play_commands[0])

static const struct play_command *play_command_named(const char *name)
{
    for (size_t i = 0; i < NPLAY_COMMANDS; i++)
        if (strcmp(play_commands[i].name, name) == 0)
            return &play_commands[i];
    return NULL;
}

/* Does the game's ruleset have this entry (its verbs only; the session's
 * commands are always there)? */
static bool play_command_in_ruleset(const struct play_command *c)
{
    int kind = c->run ? -1 : ak_verb_kind(c->name);
    return kind < 0 || ak_ruleset_get(P.s.ruleset)->apply[kind];
}

static void play_help(char **w, int n)
{
    (void)w, (void)n;
    for (size_t i = 0; i < NPLAY_COMMANDS; i++)
        if (play_commands[i].help && play_command_in_ruleset(&play_commands[i]))
            say("%s", play_commands[i].help);
}

static void run_command(char *line)
{
    char *w[10];
    int n = 0;
    if (strncmp(line, "say ", 4) == 0) {
        json_decref(request(json_pack("{s:s,s:I,s:s}", "cmd", "chat", "game", (json_int_t)P.game, "text", line + 4)));
        return;
    }
    for (char *t = strtok(line, " \t"); t && n < 10; t = strtok(NULL, " \t"))
        w[n++] = t;
    if (n == 0)
        return;
    char *end;
    long choice = strtol(w[0], &end, 10);
    if (!*end && n == 1) {
        if (!P.choices || choice < 1 || (size_t)choice > json_array_size(P.choices))
            say("no choice %ld (options lists them)\n", choice);
        else
            act(json_deep_copy(json_array_get(P.choices, (size_t)choice - 1)));
        return;
    }
    const struct play_command *c = play_command_named(w[0]);
    if (!c && ak_verb_is_action(w[0]))
        play_action(w, n);
    else if (!c)
        say("unknown command '%s' (help lists them)\n", w[0]);
    else if (c->words && n != c->words)
        say("usage:\n%s", c->help ? c->help : play_command_named(c->help_of)->help);
    else if (!c->run)
        play_action(w, n);
    else
        c->run(w, n);
}

/* Tab completion: commands first, then unit names. */
/* Units worth completing: on the board or at sea (either side: battles
 * name defenders), and the player's own that may come on now (supply due,
 * reinforcements whose turn has come). Not the dead, the withdrawn, or
 * reinforcements of later turns. */
/* Whose units the word being completed names: the first word after a
 * play verb is the mover's own units; after battle or odds, the second is
 * the enemy's (the defenders); -1: either side. */
static int side_wanted(void)
{
    char verb[32] = "";
    int words = 0;
    bool in_word = false;
    for (int i = 0; i < rl_point && rl_line_buffer[i]; i++) {
        bool blank = rl_line_buffer[i] == ' ' || rl_line_buffer[i] == '\t';
        if (!blank && !in_word) {
            words++;
            if (words == 1)
                sscanf(rl_line_buffer + i, "%31s", verb);
        }
        in_word = !blank;
    }
    int arg = in_word ? words - 1 : words;      /* 1: the first word after the verb */
    int me = P.me >= 0 ? P.me : P.s.side;
    if ((strcmp(verb, "battle") == 0 || strcmp(verb, "odds") == 0) && arg == 2)
        return !me;
    if (strcmp(verb, "retreat") == 0)      /* the winner routes the loser's units */
        return -1;
    if (arg == 1 || strcmp(verb, "battle") == 0)
        return me;
    return -1;
}

static bool may_act(int u, int side)
{
    const struct ak_unit *x = &P.s.unit[u];
    const struct ak_unit_def *d = ak_def(u);
    if (side >= 0 && d->side != side)
        return false;
    if (x->where == AK_AT_BOARD || x->where == AK_AT_SEA)
        return true;
    if (x->where != AK_AT_POOL || d->side != P.s.side || d->captured_counter)
        return false;
    return d->type == AK_TYPE_SUPPLY ? P.s.supply_due > 0 : d->arrival_turn > 0 && d->arrival_turn <= P.s.turn;
}

static char *complete_word(const char *text, int state)
{
    /* the game's ruleset's own verbs first, then the session's commands */
    static size_t i;
    static int j;
    static bool first_word;
    static int wanted;
    if (state == 0) {
        i = j = 0;
        wanted = side_wanted();
        first_word = rl_point == (int)strlen(text) || !strchr(rl_line_buffer, ' ');
    }
    size_t len = strlen(text);
    for (const char *v; first_word && (v = ak_verb_of_ruleset(P.s.ruleset, j)) != NULL;)
        if (j++, strncmp(v, text, len) == 0)
            return strdup(v);
    while (first_word && i < NPLAY_COMMANDS)
        if (play_commands[i++].run && strncmp(play_commands[i - 1].name, text, len) == 0)
            return strdup(play_commands[i - 1].name);
    const char *last = strrchr(text, ',');
    const char *stem = last ? last + 1 : text;
    size_t head = (size_t)(stem - text), slen = strlen(stem);
    while (!first_word && j < ak_data()->units) {
        int u = j++;
        const char *name = ak_data()->unit[u].shortname;
        if (!may_act(u, wanted))
            continue;
        if (strncasecmp(name, stem, slen) == 0) {
            char *out = malloc(head + strlen(name) + 1);
            if (out)
                sprintf(out, "%.*s%s", (int)head, text, name);
            return out;
        }
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    (void)end;
    return rl_completion_matches(text, complete_word);
}

static void read_plain_line(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, stdin);
    if (len < 0) {
        free(line);
        P.quit = true;
        return;
    }
    line[strcspn(line, "\r\n")] = '\0';
    run_command(line);
    free(line);
}

/* The server's messages, handled as they come (revents: poll's word for
 * the socket); a closed connection ends the session. */
static void serve_socket(short revents)
{
    json_t *m;
    while (!P.quit && (m = ak_net_read(P.net, 0))) {
        on_push(m);
        json_decref(m);
    }
    if (!P.quit && (P.net->closed || (revents & (POLLHUP | POLLERR))))
        reconnect();
}

/* libedit reads keys through this: while it waits for the next key, the
 * server's pushes are printed above the line being typed. */
/* Messages already read with an earlier reply: poll() would not see them;
 * then the clock, when a turn of mine began. */
static void serve_pending(void)
{
    json_t *m;
    while (!P.quit && ak_net_pending(P.net) && (m = ak_net_read(P.net, 0))) {
        on_push(m);
        json_decref(m);
    }
    if (P.clock_due && !P.quit) {
        P.clock_due = false;
        clock_now();
    }
}

static int getc_or_push(FILE *in)
{
    for (;;) {
        serve_pending();
        struct pollfd p[2] = {{fileno(in), POLLIN, 0}, {P.net->fd, POLLIN, 0}};
        int rc = poll(p, 2, AK_PING_MS);
        if (rc == 0)
            ak_net_ping(P.net);     /* still here: akd closes silent connections */
        if (rc <= 0)
            continue;
        if (p[1].revents)
            serve_socket(p[1].revents);
        if (P.quit)
            return EOF;
        if (p[0].revents) {
            unsigned char c;
            return read(fileno(in), &c, 1) == 1 ? c : EOF;
        }
    }
}

static void play_tty(void)
{
    rl_attempted_completion_function = complete;
    rl_getc_function = getc_or_push;
    while (!P.quit) {
        P.editing = true;
        char *line = readline(P.prompt);
        P.editing = false;
        if (!line)
            break;
        if (*line)
            add_history(line);
        run_command(line);
        free(line);
    }
    putchar('\n');
}

static void play_plain(void)
{
    while (!P.quit) {
        serve_pending();
        struct pollfd p[2] = {{STDIN_FILENO, POLLIN, 0}, {P.net->fd, POLLIN, 0}};
        int rc = poll(p, 2, AK_PING_MS);
        if (rc == 0)
            ak_net_ping(P.net);     /* still here: akd closes silent connections */
        if (rc <= 0)
            continue;
        if (p[1].revents)
            serve_socket(p[1].revents);
        if (!P.quit && p[0].revents)
            read_plain_line();
    }
}

int ak_play(struct ak_net *n, const char *server, long game, int me, const json_t *summary,
            const struct ak_draw_opts *draw, int (*again)(struct ak_net *n))
{
    memset(&P, 0, sizeof P);
    P.net = n;
    P.server = server;
    P.reconnect = again;
    P.game = game;
    P.me = me;
    P.draw = draw;
    P.tty = isatty(STDIN_FILENO);
    ak_summary_attach_crt(summary, &P.s);
    P.crt = ak_crt_of(&P.s);
    if (!load_state(json_object_get(summary, "state")))
        return 1;
    show(NULL, 0);
    P.timed = json_is_object(json_object_get(summary, "time_control"));
    say_clock(summary);
    printf("Type help for the commands, quit to leave (the game goes on without you).\n");
    say_whose_turn();
    P.clock_due = false;        /* said above */
    if (P.tty)
        play_tty();
    else
        play_plain();
    json_decref(P.public_state);
    json_decref(P.choices);
    for (int i = 0; i < P.nlog; i++)
        free(P.log[i]);
    return 0;
}
