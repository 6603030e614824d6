/* akc_cmd: what akc's command files share (akc.c has main and the common
 * commands; akc_admin.c the admin role's and the password reset). */
#ifndef AKC_CMD_H
#define AKC_CMD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "ak_client.h"

enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_NET = 3 };

/* Send a request and report the reply: the result (caller decrefs), or
 * NULL after printing the error; *status gets the exit code. With --json
 * the result is printed as it came. */
json_t *akc_call(struct ak_net *n, json_t *req, int *status);
bool akc_json(void);
int akc_read_password(char *buf, size_t cap, const char *prompt);
/* Asked twice on a terminal; once from AKC_PASSWORD. */
int akc_read_new_password(char *buf, size_t cap, const char *prompt);
long akc_game_number(const char *arg);      /* -1 if not a game number */
long akc_duration(const char *text);        /* "90s", "30m", "12h", "3d"; -1 if not */
int akc_help_to(FILE *out, const char *command);
/* Save the session of a login-like reply (user, token). */
void akc_save_session(const json_t *result);

/* akc_admin.c */
int akc_admin_check(int argc, char **argv);     /* 0, or EXIT_USAGE after the usage */
int akc_admin(struct ak_net *n, char **argv);
int akc_reset_password(struct ak_net *n, const char *user, const char *token);

/* akc_comforts.c: chat, settings, vacation */
int akc_comforts_check(int argc, char **argv);
int akc_comforts(struct ak_net *n, int argc, char **argv);

/* akc_tournament.c */
int akc_tournament_check(int argc, char **argv);
int akc_tournament(struct ak_net *n, char **argv);
json_t *akc_tournament_create_request(int argc, char **argv);

#endif
