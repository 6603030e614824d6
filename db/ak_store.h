/* ak_store: the SQLite store behind akd.
 *
 * Accounts, sessions, games and each game's action log. A game is stored as
 * its seed and its ordered log of accepted actions, plus a snapshot of the
 * state after one of them (akd writes one every few actions), so that
 * loading replays only the actions after the snapshot (snapshots have a table
 * of their own, so appending an action writes one small row). Appending an
 * action and its snapshot is one transaction,
 * committed (WAL, synchronous=FULL) before akd acknowledges the action.
 * Schema changes are numbered migrations (ak_migrations.c) run at open.
 */
#ifndef AK_STORE_H
#define AK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ak_store;

enum { AK_STORE_OK = 0, AK_STORE_ERROR = -1, AK_STORE_EXISTS = -2, AK_STORE_NOT_FOUND = -3 };

/* What the lobby and the clock keep about a game besides its log. */
struct ak_store_game_meta {
    char dice_commit[65];       /* hex BLAKE2b-256 of the dice secret, told at the start */
    char dice_secret[65];       /* hex secret the dice come from; public once it is over */
    int dice_scheme;            /* proto/ak_dice.h: 1 legacy, 2 keyed with per-action nonces */
    int64_t challenge;          /* the user challenged, 0 for an open seek */
    int rated;
    int tc_seconds;             /* time per action or per player turn, 0 for none */
    char tc_per[8];             /* "action" or "turn" */
    char tc_expiry[8];          /* "lose" (on time) or "wait" (for an operator) */
    int64_t deadline;           /* when the awaited player must have acted, 0 for none */
    char status[12];            /* "active", "aborted", "declined" */
    int min_rating, max_rating; /* an open seek: who may take the seat (0: no bound) */
    char crt_digest[65];        /* the Updated ruleset's table it is fought on (crt_tables), "" none */
    int computer_level;         /* a game against the computer: the level asked for (1-3), 0 none */
    /* A side auction (issue 32, server/ak_bid.c): 0 none, 1 open, 2
     * settled; the standing bid (supply units, -1 before the first), the
     * side it is for and who made it (the winner, once settled). */
    int bid, bid_supply, bid_side;
    int64_t bid_by;
};

struct ak_store_game {
    int64_t id;
    char ruleset[16];
    uint64_t seed;
    int64_t player[2];          /* user ids by side, 0 while the seat is open */
    int64_t created;
    uint32_t seq;               /* actions in the log */
    const void *snapshot;       /* state after action `snapshot_seq`, or NULL */
    size_t snapshot_len;
    uint32_t snapshot_seq;
    const char *position;       /* starting position (state JSON), "" for the campaign's */
    int64_t near_told;          /* the deadline whose "deadline_near" was sent, 0 none */
    int64_t passed_told;        /* the deadline whose "deadline_passed" was sent, 0 none */
    struct ak_store_game_meta meta;
};

struct ak_store *ak_store_open(const char *path, char *err, size_t errlen);
/* After an open of path failed: true, with the reason in out, when the
 * file or its directory shuts the running user out: owner, mode, path and
 * what to do (ak_store_access.c). */
bool ak_store_access_words(const char *path, char *out, size_t len);
void ak_store_close(struct ak_store *st);
const char *ak_store_error(struct ak_store *st);
/* The database file was unlinked or replaced under the open connection:
 * every commit since is refused (and ak_store_error says so). */
bool ak_store_lost(const struct ak_store *st);
/* PRAGMA quick_check: AK_STORE_ERROR with SQLite's first complaint in err
 * if the file is damaged. */
int ak_store_verify(struct ak_store *st, char *err, size_t errlen);
/* The owner runs checkpoints itself (off its event loop, with
 * ak_store_checkpoint) instead of SQLite running one inside a commit. */
void ak_store_manual_checkpoints(struct ak_store *st);
/* When another connection holds the write lock, call wait (with the
 * number of tries so far) instead of sleeping in steps: it returns nonzero
 * to try again, 0 to give up (SQLITE_BUSY). NULL: wait up to 5 seconds. */
void ak_store_set_busy_wait(struct ak_store *st, int (*wait)(void *ud, int tries), void *ud);
/* With manual checkpoints: the write-ahead log's length (pages) after
 * this connection's last commit. */
int ak_store_wal_frames(struct ak_store *st);
/* full: each commit is synced to disk before it returns (the default);
 * otherwise commits reach the operating system and checkpoints sync. */
void ak_store_set_sync(struct ak_store *st, bool full);
/* A passive WAL checkpoint: copies the write-ahead log into the database
 * as far as no reader still needs it. Run by the connection that writes,
 * between its transactions, it copies all of it, and the next transaction
 * starts the log over from its beginning (rewriting a file in place syncs
 * faster than growing one). wal_frames (may be NULL): the log's length
 * before it, in pages; frames_left: those it could not copy. */
int ak_store_checkpoint(struct ak_store *st, int *wal_frames, int *frames_left);
int ak_store_schema_version(struct ak_store *st);

int ak_store_user_create(struct ak_store *st, const char *name, const char *pwhash, int64_t now,
                         int64_t *id);
int ak_store_user_find(struct ak_store *st, const char *name, int64_t *id, char *pwhash, size_t cap);
int ak_store_user_name(struct ak_store *st, int64_t id, char *name, size_t cap);
/* Set the account's password and, in the same transaction, revoke every
 * session of it except keep_session (a token hash; NULL: all). */
int ak_store_user_set_password(struct ak_store *st, int64_t id, const char *pwhash, const char *keep_session);
/* The same inside the caller's transaction (the writer's group commit). */
int ak_store_user_set_password_rows(struct ak_store *st, int64_t id, const char *pwhash, const char *keep_session);

/* The admin role (ak_store_admin.c). Banning revokes every session of the
 * account in the same transaction. */
int ak_store_user_set_banned(struct ak_store *st, int64_t user, bool banned);
/* The same inside the caller's transaction. */
int ak_store_user_set_banned_rows(struct ak_store *st, int64_t user, bool banned);
/* AK_STORE_OK with *banned, or AK_STORE_NOT_FOUND. */
int ak_store_user_banned(struct ak_store *st, int64_t user, bool *banned);
/* Computer players (ak_store_computer.c): an account marked or unmarked
 * (inside the caller's transaction), whether one is, and all of them
 * with whether each is banned, oldest first, at most cap. */
int ak_store_user_set_computer_rows(struct ak_store *st, int64_t user, bool computer);
int ak_store_user_computer(struct ak_store *st, int64_t user, bool *computer);
int ak_store_computers(struct ak_store *st, int64_t *users, bool *banned, int cap, int *n);
/* The admin role, held by accounts (migration 15): granted or taken back
 * (source "operator" or "config"); whether an account holds it (and
 * from where, when source is not NULL); a name of the config key admins,
 * recorded the first time akd sees it there with the newest account then
 * (*last_user: an account with a greater id was registered after); the
 * accounts holding it from the configuration (up to max, -1 on error). */
int ak_store_admin_set(struct ak_store *st, int64_t user, bool admin, int64_t now, const char *source);
int ak_store_is_admin(struct ak_store *st, int64_t user, bool *admin, char *source, size_t cap);
int ak_store_admin_config_name(struct ak_store *st, const char *name, int64_t now, int64_t *last_user);
int ak_store_admin_config_ids(struct ak_store *st, int64_t *ids, int max);
/* Every account holding the admin role, oldest grant first, up to max; -1 on error. */
int ak_store_admin_ids(struct ak_store *st, int64_t *ids, int max);
/* A password reset for user: the hash of its one-time token, valid until
 * expires (replaces one pending). */
int ak_store_reset_put(struct ak_store *st, int64_t user, const char *token_hash, int64_t expires);
/* AK_STORE_OK with the pending reset's hash (65 bytes) and expiry, or
 * AK_STORE_NOT_FOUND. */
int ak_store_reset_get(struct ak_store *st, int64_t user, char *token_hash, int64_t *expires);
/* The reset with token_hash used up, the new password hash and every
 * session of the account revoked, in one transaction; NOT_FOUND (nothing
 * changed) if that reset is no longer there. */
int ak_store_reset_finish(struct ak_store *st, int64_t user, const char *token_hash, const char *password_hash);
/* The same inside the caller's transaction; on NOT_FOUND nothing was changed. */
int ak_store_reset_finish_rows(struct ak_store *st, int64_t user, const char *token_hash, const char *password_hash);
/* Tournaments (ak_store_tournament.c, migration 10). */
struct ak_store_tournament {
    int64_t id;
    char name[64];
    char kind[16];              /* "round_robin" or "swiss" */
    char ruleset[16];
    int both_sides;             /* round robin: each pair plays twice, sides swapped */
    int rounds;                 /* swiss: how many */
    int round;                  /* the current one, 0 before the start */
    int64_t starts;
    char status[12];            /* "open", "running", "finished", "cancelled" */
    int tc_seconds;
    char tc_per[8], tc_expiry[8];
    int rated, vacation;
    char created_by[64];
    char crt_digest[65];        /* Updated: the table its games are fought on (crt_tables), "" none */
    int bid;                    /* its pairings bid for sides (issue 32): each game opens with an auction */
};
int ak_store_tournament_create(struct ak_store *st, struct ak_store_tournament *t);  /* sets t->id; EXISTS: name */
int ak_store_tournament_get(struct ak_store *st, int64_t id, struct ak_store_tournament *t);
/* Up to max tournaments, newest first; the count. */
int ak_store_tournament_list(struct ak_store *st, struct ak_store_tournament *out, int max);
int ak_store_tournament_set_round(struct ak_store *st, int64_t id, const char *status, int round, int rounds);
int ak_store_tournament_join(struct ak_store *st, int64_t id, int64_t user, int64_t now);   /* EXISTS */
/* Corrections before the start (the tournament still open: else
 * AK_STORE_NOT_FOUND and nothing done): a player out; the name, start,
 * rounds and time control as t says (EXISTS: the name is taken). */
int ak_store_tournament_leave(struct ak_store *st, int64_t id, int64_t user);
/* A player of a running tournament withdrawn in its current round
 * (NOT_FOUND: not running, not his, or withdrawn already); the round he
 * withdrew in (0: he did not). */
int ak_store_tournament_withdraw(struct ak_store *st, int64_t id, int64_t user);
int ak_store_tournament_withdrawn(struct ak_store *st, int64_t id, int64_t user, int *withdrawn);
/* Up to max (tournament, player) pairs withdrawn from running
 * tournaments, in order, after the pair given; how many, or -1. */
int ak_store_tournament_withdrawn_all(struct ak_store *st, int64_t after_tournament, int64_t after_user,
                                      int64_t *tournament, int64_t *user, int max);
int ak_store_tournament_edit(struct ak_store *st, const struct ak_store_tournament *t);
/* Cancelled, open or running: its status "cancelled" and its name
 * renamed (free for a new tournament); NOT_FOUND when it is neither,
 * EXISTS (nothing done) when another tournament has that name. */
int ak_store_tournament_cancel(struct ak_store *st, int64_t id, const char *renamed);
/* Its players (by when they joined), up to max: the count. */
int ak_store_tournament_players(struct ak_store *st, int64_t id, int64_t *users, int max);
int ak_store_tournament_add_game(struct ak_store *st, int64_t id, int round, int64_t game);
/* Every tournament pairing: cb gets the game, its tournament and round. */
int ak_store_tournament_games_each(struct ak_store *st, void (*cb)(void *ud, int64_t game, int64_t id, int round),
                                   void *ud);
/* The open tournaments whose start is due at now, up to max: the count. */
int ak_store_tournaments_due(struct ak_store *st, int64_t now, int64_t *ids, int max);
/* A player's own settings and state beside his account
 * (ak_store_people.c, migration 12). */
struct ak_store_prefs {
    int chat_muted;
    char notify_mode[8];        /* "each" or "digest" */
    char email[128];
    int email_verified;
    char email_token_hash[65];  /* the pending verification, "" for none */
    int64_t vacation_start, vacation_until;    /* 0: not on vacation */
    int vacation_year;          /* the year vacation_used counts */
    int64_t vacation_used;      /* seconds of vacation taken in it */
    int64_t email_sent;         /* when the last verification was sent */
    int64_t digest_day;         /* the day (since the epoch) of the last digest */
};
int ak_store_prefs_get(struct ak_store *st, int64_t user, struct ak_store_prefs *p);
int ak_store_prefs_put(struct ak_store *st, int64_t user, const struct ak_store_prefs *p);
/* Each user with a vacation running at now, or in digest mode. */
int ak_store_vacations_each(struct ak_store *st, int64_t now, void (*cb)(void *ud, int64_t user, int64_t until),
                            void *ud);
/* Up to max accounts in digest mode numbered above after, in order. */
int ak_store_digest_users(struct ak_store *st, int64_t after, int64_t *users, int max);
int ak_store_chat_add(struct ak_store *st, int64_t game, int64_t at, int64_t user, const char *channel,
                      const char *text);
/* Messages of a game (of one channel; NULL: both), of one author (0: any). */
int ak_store_chat_count(struct ak_store *st, int64_t game, const char *channel, int64_t user, int64_t *count);
/* A page of a game's chat, newest first: at most limit messages of the
 * channel (NULL: both) numbered below before (0: the newest); cb gets
 * each with its number and its author's name. */
int ak_store_chat_page(struct ak_store *st, int64_t game, const char *channel, int64_t before, int limit,
                       void (*cb)(void *ud, int64_t id, int64_t at, const char *user, const char *channel,
                                  const char *text, bool removed),
                       void *ud);
/* The id of the message just added (on the connection that added it). */
int64_t ak_store_last_id(struct ak_store *st);

/* Chat moderation (ak_store_moderation.c, migration 19). */
struct ak_store_chat_message {
    int64_t id, game, author, at;
    char channel[12];
    char author_name[64];
    bool removed;
};
/* A message by its number: AK_STORE_OK, or AK_STORE_NOT_FOUND. */
int ak_store_chat_get(struct ak_store *st, int64_t id, struct ak_store_chat_message *m);
/* A player's report of a message: AK_STORE_EXISTS when he reported it
 * already; *open_by_reporter, *open_all: the open reports after it. */
int ak_store_chat_report(struct ak_store *st, int64_t message, int64_t reporter, int64_t at, const char *reason);
int ak_store_chat_reports_count(struct ak_store *st, int64_t reporter, int64_t *count);
/* The open reports, one row per message, oldest first, after message
 * `after` (0: from the first), at most limit: cb gets the message (its text
 * too), how many reported it, and the first report's reason and reporter. */
int ak_store_chat_reports(struct ak_store *st, int64_t after, int limit,
                          void (*cb)(void *ud, const struct ak_store_chat_message *m, const char *text, int reports,
                                     const char *reason, const char *reporter),
                          void *ud);
/* Remove a message's text (it keeps its row) and close its reports; or
 * close them only (dismiss). AK_STORE_NOT_FOUND: no such message. */
int ak_store_chat_remove(struct ak_store *st, int64_t message, bool remove_text);
/* An account's chat muted until a time (0: not muted), and read back. */
int ak_store_chat_mute(struct ak_store *st, int64_t user, int64_t until);
int ak_store_chat_muted_until(struct ak_store *st, int64_t user, int64_t *until);
/* Chat retention: up to max messages older than before deleted with their
 * reports, oldest first; how many in *deleted. */
int ak_store_chat_expire(struct ak_store *st, int64_t before, int max, int *deleted);
/* games_keep_days (server/ak_retention.c): a game the caller knows is over
 * or called off, deleted with its actions, snapshot, chat and rating
 * changes when it last moved before `before` and no tournament counts it;
 * *expired says whether it was. */
int ak_store_game_expire(struct ak_store *st, int64_t game, int64_t before, bool *expired);

/* Personal data (ak_store_personal.c): an account's games and chat for
 * its export (at most limit of each, newest first; the count of all in
 * *total), and its erasure, inside the caller's transaction: the name
 * becomes placeholder, the password, e-mail, settings, sessions, reset
 * tokens, admin role, open reports and ratings go, and the text of every
 * message it wrote is removed; games and their records stay. */
int ak_store_user_created(struct ak_store *st, int64_t user, int64_t *created);
int ak_store_user_games_each(struct ak_store *st, int64_t user, int limit, int64_t *total,
                             void (*cb)(void *ud, int64_t game, const char *ruleset, int side, const char *opponent,
                                        int64_t created, const char *status),
                             void *ud);
int ak_store_user_chat_each(struct ak_store *st, int64_t user, int limit, int64_t *total,
                            void (*cb)(void *ud, int64_t id, int64_t game, int64_t at, const char *channel,
                                       const char *text, bool removed),
                            void *ud);
int ak_store_user_erase(struct ak_store *st, int64_t user, const char *placeholder, int64_t now);
/* ... AK_STORE_EXISTS (nothing done) when another account has placeholder's name. */
/* One admin action, for the audit. */
int ak_store_audit(struct ak_store *st, int64_t now, const char *admin, const char *op, const char *target,
                   const char *detail);

/* Ratings (ak_store_ratings.c): one Glicko-2 rating per player and
 * ruleset, and each rated game's change. */
struct ak_store_glicko {
    double rating, rd, volatility;
    int games;
    int64_t last_played;        /* seconds since the epoch; 0: never or migrated */
};
/* The player's rating for ruleset; AK_STORE_NOT_FOUND if he has none. */
int ak_store_glicko_get(struct ak_store *st, int64_t user, const char *ruleset, struct ak_store_glicko *r);
/* Inside the caller's transaction: mark the game counted (AK_STORE_EXISTS
 * if it was before, and nothing is written). */
int ak_store_rated_mark(struct ak_store *st, int64_t game);
/* Inside the caller's transaction: the player's new rating, and the
 * change it made (side "axis" or "allied", score 1, 0.5 or 0). */
int ak_store_glicko_put(struct ak_store *st, int64_t user, const char *ruleset, const struct ak_store_glicko *r,
                        int64_t game, const char *side, double score, double before, int64_t now);
struct ak_store_ladder_row {
    char name[64];
    double rating, rd;
    int games;
    bool computer;              /* a computer player (migration 16): rated, flagged */
};
/* A page of the ladder of a ruleset, best first; *total the players on it. */
int ak_store_ladder_page(struct ak_store *st, const char *ruleset, int offset, int limit,
                         struct ak_store_ladder_row *out, int *total);
/* A player's ratings, one per ruleset he has played rated. */
struct ak_store_player_rating {
    char ruleset[16];
    double rating, rd;
    int games;
};
int ak_store_player_ratings(struct ak_store *st, int64_t user, struct ak_store_player_rating *out, int max);
/* His rated games' changes, newest first. */
struct ak_store_rating_change {
    int64_t game, at;
    char ruleset[16], side[8], opponent[64];
    double score, before, after, rd;
    int bid, bid_supply, bid_side;      /* a settled side auction: the bid and the side it won */
};
int ak_store_rating_changes(struct ak_store *st, int64_t user, struct ak_store_rating_change *out, int max);

int ak_store_session_create(struct ak_store *st, const char *token_hash, int64_t user,
                            int64_t expires);
/* The user of a session still valid at now, and when it expires (expires
 * may be NULL). */
int ak_store_session_find(struct ak_store *st, const char *token_hash, int64_t now, int64_t *user,
                          int64_t *expires);
int ak_store_session_delete(struct ak_store *st, const char *token_hash);

/* A new game, numbered *id if that is above 0 (the server numbers its
 * games itself), else by SQLite; *id is its number. */
int ak_store_game_create(struct ak_store *st, const char *ruleset, uint64_t seed, int side,
                         int64_t user, int64_t now, const struct ak_store_game_meta *meta,
                         const char *position, int64_t *id);
/* Undo: drop the actions after seq and store the snapshot at seq, in one
 * transaction. */
int ak_store_game_truncate(struct ak_store *st, int64_t game, uint32_t seq, const void *snapshot,
                           size_t snapshot_len);
/* The same inside the caller's transaction (the writer's group commit). */
int ak_store_game_truncate_rows(struct ak_store *st, int64_t game, uint32_t seq, const void *snapshot,
                                size_t snapshot_len);
/* Rewrite the lobby and clock columns of a game. */
int ak_store_game_set_meta(struct ak_store *st, int64_t game, const struct ak_store_game_meta *m);
/* One field of the meta alone (a small write that must not put back the
 * others as they were when it was asked for): the deadline; the status
 * (a call-off, whose deadline goes too). */
int ak_store_game_set_deadline(struct ak_store *st, int64_t game, int64_t deadline);
/* That the awaited player was told of deadline (near: it nears; else: it
 * passed), so that akd does not tell him again when it restarts. */
int ak_store_game_told(struct ak_store *st, int64_t game, bool near, int64_t deadline);
int ak_store_game_set_status(struct ak_store *st, int64_t game, const char *status);
/* A combat results table's text under its digest, kept if it is there
 * already (the same digest is the same text). */
int ak_store_crt_put(struct ak_store *st, const char *digest, const char *text);
/* AK_STORE_OK with the text in *text (malloc'd, the caller's), or
 * AK_STORE_NOT_FOUND. */
int ak_store_crt_text(struct ak_store *st, const char *digest, char **text);
/* Online backup of the whole database to a file (SQLite backup API). */
int ak_store_backup(struct ak_store *st, const char *path);
/* A side auction's step: the seats (a bidder sits at the side he bid
 * for), the auction's figures (meta) and, once settled, the starting
 * position with the extra supply units (NULL: the position unchanged). */
int ak_store_game_bid(struct ak_store *st, int64_t game, const int64_t player[2],
                      const struct ak_store_game_meta *m, const char *position);
int ak_store_game_seat(struct ak_store *st, int64_t game, int side, int64_t user);
/* Group commit: several appends in one transaction, one sync to disk.
 * ak_store_commit rolls back by itself when the commit fails. */
int ak_store_begin(struct ak_store *st);
int ak_store_commit(struct ak_store *st);
void ak_store_rollback(struct ak_store *st);
/* Inside a transaction: append action seq and the snapshot after it (or,
 * with snapshot NULL, keep the last snapshot: loading replays the actions
 * after it). */
int ak_store_game_append_rows(struct ak_store *st, int64_t game, uint32_t seq, int side,
                              const char *action_json, const char *nonce, int64_t now,
                              const void *snapshot, size_t snapshot_len);
/* Append action number seq (1-based) and the snapshot after it, committed.
 * nonce: the one the player sent with it (NULL: none). */
int ak_store_game_append(struct ak_store *st, int64_t game, uint32_t seq, int side,
                         const char *action_json, const char *nonce, int64_t now,
                         const void *snapshot, size_t snapshot_len);

/* The game's stored snapshot (a copy of its state after action *seq) into
 * buf if it is exactly len bytes; AK_STORE_NOT_FOUND if there is none. */
int ak_store_game_snapshot(struct ak_store *st, int64_t game, uint32_t *seq, void *buf, size_t len);
int ak_store_games_each(struct ak_store *st,
                        int (*cb)(void *ud, const struct ak_store_game *g), void *ud);
int ak_store_actions_each(struct ak_store *st, int64_t game,
                          int (*cb)(void *ud, uint32_t seq, int side, const char *json,
                                    const char *nonce),
                          void *ud);
/* The same for the actions numbered first to last only (an index read:
 * a replay to action N reads N rows, not the whole log). */
int ak_store_actions_range(struct ak_store *st, int64_t game, uint32_t first, uint32_t last,
                           int (*cb)(void *ud, uint32_t seq, int side, const char *json, const char *nonce),
                           void *ud);

#endif
