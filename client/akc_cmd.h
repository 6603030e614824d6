/* akc_cmd: what akc's command files share. akc.c has main, the command
 * table (usage, help, argument checks and dispatch all come from it) and
 * the common commands; akc_admin.c the admin role's and the password
 * reset; akc_comforts.c chat, settings and vacation; akc_tournament.c
 * tournaments; akc_io.c what they all use. The command files call down
 * into akc_io.c only: a check that finds wrong arguments returns
 * AKC_USAGE and the table prints the command's usage. */
#ifndef AKC_CMD_H
#define AKC_CMD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "ak_client.h"

enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_NET = 3 };
/* From a command's check: wrong arguments, said; the usage lines follow
 * (printed by the table) and akc exits EXIT_USAGE. */
#define AKC_USAGE 100

/* akc_io.c: the server named in messages and sessions, and --json. */
void akc_io_setup(const char *server, bool json);
/* The replies of the calls until akc_json_hold(false) are not the
 * command's --json document (a resume, the pages of one list): not
 * printed. */
void akc_json_hold(bool hold);

/* Send a request and report the reply: the result (caller decrefs), or
 * NULL after printing the error; *status gets the exit code. With --json
 * the result is printed as it came. */
json_t *akc_call(struct ak_net *n, json_t *req, int *status);
/* The state of game as akd shows it (its table attached), for the
 * commands that work on it here (hint, odds); 0, or the exit status after
 * a message. */
int akc_game_state(struct ak_net *n, long game, struct ak_state *s);
bool akc_json(void);
int akc_read_password(char *buf, size_t cap, const char *prompt);
/* Asked twice on a terminal; once from AKC_PASSWORD. */
int akc_read_new_password(char *buf, size_t cap, const char *prompt);
long akc_game_number(const char *arg);      /* -1 if not a game number */
long akc_duration(const char *text);        /* "90s", "30m", "12h", "3d"; -1 if not */
/* Save the session of a login-like reply (user, token). */
void akc_save_session(const json_t *result);

/* akc_admin.c */
int akc_admin_check(int argc, char **argv);     /* 0, or EXIT_USAGE after the usage */
int akc_admin(struct ak_net *n, char **argv);
int akc_reset_password(struct ak_net *n, const char *user, const char *token);

/* akc_comforts.c: chat, settings, vacation */
int akc_comforts_check(int argc, char **argv);
int akc_comforts(struct ak_net *n, int argc, char **argv);

/* akc_hint.c: the computer's suggestion for the player awaited */
int akc_hint(struct ak_net *n, long game, int level);
/* akc_odds.c: the exact chances of the declared battles, worked out here */
int akc_odds(struct ak_net *n, long game);
/* akc_analyse.c: each side's chance after each player turn, by playouts */
int akc_analyse(struct ak_net *n, long game, int playouts, int level, int horizon, const char *adjudicate_as);

/* akc_tournament.c */
int akc_tournament_check(int argc, char **argv);
int akc_tournament(struct ak_net *n, char **argv);
json_t *akc_tournament_create_request(int argc, char **argv);
json_t *akc_tournament_edit_request(int argc, char **argv);

#endif
