/* ak_migrations: the schema, as numbered steps. PRAGMA user_version holds
 * the number of steps applied; ak_store_open runs the rest, each in its own
 * transaction. Never edit a step that has shipped: add a new one. */
#include <stddef.h>

const char *const ak_migrations[] = {
    /* 1: accounts, sessions, games and their action logs */
    "CREATE TABLE users ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  pwhash TEXT NOT NULL,"           /* libsodium crypto_pwhash_str (argon2id) */
    "  created INTEGER NOT NULL);"
    "CREATE TABLE sessions ("
    "  token_hash TEXT PRIMARY KEY,"    /* BLAKE2b of the token; the token is never stored */
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  expires INTEGER NOT NULL);"
    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY,"
    "  ruleset TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  axis_user INTEGER REFERENCES users(id),"
    "  allied_user INTEGER REFERENCES users(id),"
    "  created INTEGER NOT NULL,"
    "  seq INTEGER NOT NULL DEFAULT 0,"
    "  snapshot BLOB,"
    "  snapshot_seq INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE actions ("
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  seq INTEGER NOT NULL,"
    "  side TEXT NOT NULL,"
    "  action TEXT NOT NULL,"           /* ak_notation JSON */
    "  created INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, seq));",
    /* 2: verifiable dice, the lobby (challenges, rated), time controls */
    "ALTER TABLE games ADD COLUMN dice_commit TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN dice_secret TEXT NOT NULL DEFAULT '';"  /* revealed at the end */
    "ALTER TABLE games ADD COLUMN challenge_user INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN tc_seconds INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN tc_per TEXT NOT NULL DEFAULT 'action';"
    "ALTER TABLE games ADD COLUMN tc_expiry TEXT NOT NULL DEFAULT 'lose';"
    "ALTER TABLE games ADD COLUMN deadline INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'active';",  /* active, aborted, declined */
    /* 3: games that start from a given position (public state JSON) */
    "ALTER TABLE games ADD COLUMN position TEXT NOT NULL DEFAULT '';",
    /* 4: the ladder: an Elo rating per player, and the rated games counted */
    "ALTER TABLE users ADD COLUMN rating INTEGER NOT NULL DEFAULT 1500;"
    "ALTER TABLE users ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rated_done INTEGER NOT NULL DEFAULT 0;",
    /* 5: snapshots in a table of their own. A row of games carries the
     * starting position; SQLite rewrites a whole row to change one column,
     * so keeping the log's length and the snapshot there rewrote kilobytes
     * for every action. The length of the log is now read off the log. */
    "CREATE TABLE snapshots ("
    "  game_id INTEGER PRIMARY KEY REFERENCES games(id),"
    "  seq INTEGER NOT NULL,"           /* the state after this action */
    "  state BLOB NOT NULL);"
    "INSERT INTO snapshots(game_id, seq, state)"
    "  SELECT id, snapshot_seq, snapshot FROM games WHERE snapshot IS NOT NULL;"
    "ALTER TABLE games DROP COLUMN snapshot;"
    "ALTER TABLE games DROP COLUMN snapshot_seq;"
    "ALTER TABLE games DROP COLUMN seq;",
    /* 6: dice nobody can know in advance (proto/ak_dice.h): the scheme a
     * game's dice follow (1 for every game before this step), and the
     * nonce each action was sent with. */
    "ALTER TABLE games ADD COLUMN dice_scheme INTEGER NOT NULL DEFAULT 1;"
    "ALTER TABLE actions ADD COLUMN nonce TEXT NOT NULL DEFAULT '';",
    /* 7: Glicko-2 ratings, one per player and ruleset, and each rated
     * game's change (the rating history). The Elo ratings of step 4 carry
     * over as Glicko-2 ratings of the classic rules with a deviation of
     * 200 (known, not yet sure) and the usual volatility; users.rating and
     * users.rated_games stay, unused, for a downgrade to read. */
    "CREATE TABLE ratings ("
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  ruleset TEXT NOT NULL,"
    "  rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,"
    "  games INTEGER NOT NULL DEFAULT 0,"
    "  last_played INTEGER NOT NULL DEFAULT 0,"     /* seconds since the epoch; 0: migrated */
    "  PRIMARY KEY (user_id, ruleset));"
    "CREATE TABLE rating_changes ("
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  ruleset TEXT NOT NULL, side TEXT NOT NULL, score REAL NOT NULL,"
    "  rating_before REAL NOT NULL, rating_after REAL NOT NULL, rd_after REAL NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, user_id));"
    "CREATE INDEX rating_changes_user ON rating_changes(user_id, at);"
    "INSERT INTO ratings(user_id, ruleset, rating, rd, volatility, games, last_played)"
    "  SELECT id, 'classic', rating, 200.0, 0.06, rated_games, 0 FROM users WHERE rated_games > 0;",
    /* 8: the admin role: banned accounts, and every admin action audited */
    "ALTER TABLE users ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE admin_actions ("
    "  id INTEGER PRIMARY KEY,"
    "  at INTEGER NOT NULL,"            /* seconds since the epoch */
    "  admin TEXT NOT NULL, op TEXT NOT NULL, target TEXT NOT NULL,"
    "  detail TEXT NOT NULL DEFAULT '');",
    /* 9: password resets an admin issues: one pending per account, only
     * the token's hash kept (like sessions) */
    "CREATE TABLE password_resets ("
    "  user_id INTEGER PRIMARY KEY REFERENCES users(id),"
    "  token_hash TEXT NOT NULL,"
    "  expires INTEGER NOT NULL);",
    /* 10: tournaments an admin runs (server/ak_tournament.c): who plays,
     * and which game is which round's pairing */
    "CREATE TABLE tournaments ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  kind TEXT NOT NULL,"                 /* round_robin or swiss */
    "  ruleset TEXT NOT NULL,"
    "  both_sides INTEGER NOT NULL DEFAULT 0,"
    "  rounds INTEGER NOT NULL DEFAULT 0,"   /* swiss */
    "  round INTEGER NOT NULL DEFAULT 0,"    /* the current round, 0 before the start */
    "  starts INTEGER NOT NULL,"             /* seconds since the epoch */
    "  status TEXT NOT NULL DEFAULT 'open',"  /* open, running, finished */
    "  tc_seconds INTEGER NOT NULL DEFAULT 0, tc_per TEXT NOT NULL DEFAULT 'action',"
    "  tc_expiry TEXT NOT NULL DEFAULT 'lose', rated INTEGER NOT NULL DEFAULT 0,"
    "  vacation INTEGER NOT NULL DEFAULT 0,"
    "  created_by TEXT NOT NULL);"
    "CREATE TABLE tournament_players ("
    "  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),"
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  joined INTEGER NOT NULL,"
    "  PRIMARY KEY (tournament_id, user_id));"
    "CREATE TABLE tournament_games ("
    "  game_id INTEGER PRIMARY KEY REFERENCES games(id),"
    "  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),"
    "  round INTEGER NOT NULL);"
    "CREATE INDEX tournament_games_t ON tournament_games(tournament_id, round);",
    /* 11: who may accept an open seek: a rating range (0: no bound) */
    "ALTER TABLE games ADD COLUMN min_rating INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN max_rating INTEGER NOT NULL DEFAULT 0;",
    /* 12: correspondence comforts: chat kept with its game (not part of
     * the record), and per player: chat muted, one notification per move
     * or a daily digest, an e-mail address and its verification, and
     * vacations (when, and the seconds used in the year) */
    "CREATE TABLE chat ("
    "  id INTEGER PRIMARY KEY,"
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  at INTEGER NOT NULL,"
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  channel TEXT NOT NULL,"             /* players or spectators */
    "  text TEXT NOT NULL);"
    "CREATE INDEX chat_game ON chat(game_id, id);"
    "ALTER TABLE users ADD COLUMN chat_muted INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN notify_mode TEXT NOT NULL DEFAULT 'each';"
    "ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN email_token_hash TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE users ADD COLUMN vacation_start INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN vacation_until INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN vacation_year INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN vacation_used INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN email_sent INTEGER NOT NULL DEFAULT 0;"   /* the last verification mail */
    "ALTER TABLE users ADD COLUMN digest_day INTEGER NOT NULL DEFAULT 0;",  /* the last digest's day */
    /* 13: the Updated ruleset's combat results tables (the operator's
     * updated_crt), each stored once by its BLAKE2b-256 digest, and the
     * table each game is fought on: a game keeps its table when the
     * operator changes the file ("" for the 1964 rules) */
    "CREATE TABLE crt_tables ("
    "  digest TEXT PRIMARY KEY,"
    "  text TEXT NOT NULL"
    ");"
    "ALTER TABLE games ADD COLUMN crt_digest TEXT NOT NULL DEFAULT '';",
    /* 14: a tournament of the Updated ruleset pairs every round on the
     * table akd held when it was created */
    "ALTER TABLE tournaments ADD COLUMN crt_digest TEXT NOT NULL DEFAULT '';",
    /* 15: the admin role belongs to accounts, never to names (issue 27):
     * granted by the operator (akd --admin-add, or the config key admins
     * for accounts that existed when the name was first configured: each
     * configured name and when akd first saw it) */
    "CREATE TABLE admins ("
    "  user_id INTEGER PRIMARY KEY REFERENCES users(id),"
    "  granted INTEGER NOT NULL,"
    "  source TEXT NOT NULL);"             /* 'operator' (akd --admin-add) or 'config' */
    "CREATE TABLE admin_config_names ("
    "  name TEXT PRIMARY KEY COLLATE NOCASE,"
    "  first_seen INTEGER NOT NULL,"
    "  last_user INTEGER NOT NULL);",     /* the newest account then: later ones are not it */
    /* 16: computer players (issue 31): accounts the operator marks as
     * played by a program (akd --computer-add, admin op computer), shown
     * as computers and rated as such; a game made against the computer
     * keeps the level the player asked for (0: none asked) */
    "ALTER TABLE users ADD COLUMN computer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN computer_level INTEGER NOT NULL DEFAULT 0;",
    /* 17: the computer accounts found without a scan of every account */
    "CREATE INDEX users_computer ON users(id) WHERE computer = 1;",
    /* 18: the deadline whose "deadline_near" and "deadline_passed" the
     * awaited player was told (issue 33): told once, not again after each
     * restart; a new deadline is a new one to tell */
    "ALTER TABLE games ADD COLUMN near_told INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN passed_told INTEGER NOT NULL DEFAULT 0;",
    /* 19: chat moderation (issue 33): a message an admin removed keeps
     * its row (its number, author and time) without its text; players
     * report messages (one report each, open until an admin deletes or
     * dismisses it); an admin mutes an account's chat until a time */
    "ALTER TABLE chat ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE chat_reports ("
    "  message_id INTEGER NOT NULL REFERENCES chat(id),"
    "  reporter INTEGER NOT NULL REFERENCES users(id),"
    "  at INTEGER NOT NULL,"
    "  reason TEXT NOT NULL,"
    "  PRIMARY KEY (message_id, reporter));"
    "CREATE INDEX chat_reports_reporter ON chat_reports(reporter);"
    "ALTER TABLE users ADD COLUMN chat_muted_until INTEGER NOT NULL DEFAULT 0;",
    /* 20: accounts deleted by their owner or an admin (issue 33): when;
     * the row stays (finished games and ratings name it) under a
     * placeholder name, without its personal data */
    "ALTER TABLE users ADD COLUMN erased INTEGER NOT NULL DEFAULT 0;",
    /* 21: an account's games and chat found without a scan of every row
     * (account export and delete; chat retention) */
    "CREATE INDEX games_axis_user ON games(axis_user);"
    "CREATE INDEX games_allied_user ON games(allied_user);"
    "CREATE INDEX chat_user ON chat(user_id);"
    "CREATE INDEX chat_at ON chat(at);",
    /* 22: a player who left a running tournament (issue 33): his games
     * resigned, never paired again; his row stays for the standings */
    "ALTER TABLE tournament_players ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0;",
    /* 23: side bids (issue 32): a game's side auction (0 none, 1 open, 2
     * settled), the standing bid in supply units (-1 before the first),
     * its side and bidder; a tournament whose pairings bid for sides */
    "ALTER TABLE games ADD COLUMN bid INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN bid_supply INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE games ADD COLUMN bid_side INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN bid_by INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE tournaments ADD COLUMN bid INTEGER NOT NULL DEFAULT 0;",
    NULL,
};
