/* akd: the Afrika Korps play server.
 *
 * Parses the command line, opens the store (running migrations), loads every
 * game, listens, and runs the libuv loop until SIGINT or SIGTERM, when it
 * stops accepting, closes connections and the store, and exits 0. Every
 * acknowledged action is already committed, so stopping loses nothing.
 */
#include <getopt.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"
#include "ak_version.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: akd --listen HOST:PORT --db PATH [--log-level LEVEL] [--max-line BYTES]\n"
            "       akd --help | --version\n"
            "\n"
            "The Afrika Korps play server: referees games by the 1964 rules, stores\n"
            "them in SQLite and pushes changes to players and spectators.\n"
            "\n"
            "  --listen HOST:PORT   address to listen on (e.g. 127.0.0.1:7140)\n"
            "  --db PATH            SQLite database, created if missing\n"
            "  --log-level LEVEL    debug, info (default), warn or error\n"
            "  --max-line BYTES     longest request line accepted (default %d)\n",
            AK_FRAME_DEFAULT_LIMIT);
}

static int parse_listen(const char *arg, char *host, size_t cap, int *port)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || (size_t)(colon - arg) >= cap)
        return -1;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (*end || p < 0 || p > 65535)
        return -1;
    memcpy(host, arg, (size_t)(colon - arg));
    host[colon - arg] = '\0';
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = '\0';
    }
    *port = (int)p;
    return 0;
}

static void on_signal(uv_signal_t *sig, int signum)
{
    struct ak_server *srv = sig->data;
    ak_log(AK_LOG_INFO, "signal %d: shutting down", signum);
    srv->stopping = true;
    ak_server_close_all(srv);
    uv_close((uv_handle_t *)&srv->sigint, NULL);
    uv_close((uv_handle_t *)&srv->sigterm, NULL);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"listen", required_argument, NULL, 'l'}, {"db", required_argument, NULL, 'd'},
        {"log-level", required_argument, NULL, 'L'}, {"max-line", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
    };
    const char *listen = NULL, *db = NULL;
    struct ak_server srv = {0};
    srv.line_limit = AK_FRAME_DEFAULT_LIMIT;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': listen = optarg; break;
        case 'd': db = optarg; break;
        case 'L':
            if (ak_log_parse_level(optarg) < 0) {
                fprintf(stderr, "akd: unknown log level '%s' (debug, info, warn, error)\n", optarg);
                return 2;
            }
            ak_log_set_level(ak_log_parse_level(optarg));
            break;
        case 'm': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 256 || v > 16 * 1024 * 1024) {
                fprintf(stderr, "akd: --max-line must be a number of bytes from 256 to 16777216\n");
                return 2;
            }
            srv.line_limit = (size_t)v;
            break;
        }
        case 'h': usage(stdout); return 0;
        case 'V': printf("akd %s\n", AK_VERSION); return 0;
        default: usage(stderr); return 2;
        }
    }
    char host[256];
    int port;
    if (optind < argc || !listen || !db) {
        fprintf(stderr, "akd: %s\n", optind < argc ? "unexpected argument" : "--listen and --db are required");
        usage(stderr);
        return 2;
    }
    if (parse_listen(listen, host, sizeof host, &port) != 0) {
        fprintf(stderr, "akd: --listen wants HOST:PORT, e.g. 127.0.0.1:7140\n");
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "akd: libsodium failed to initialise\n");
        return 1;
    }
    char err[512];
    srv.store = ak_store_open(db, err, sizeof err);
    if (!srv.store) {
        fprintf(stderr, "akd: cannot open the database: %s\n", err);
        return 1;
    }
    if (ak_games_load(&srv) != 0) {
        fprintf(stderr, "akd: cannot load the games in %s\n", db);
        ak_games_free(&srv);
        ak_store_close(srv.store);
        return 1;
    }
    srv.loop = uv_default_loop();
    int rc = ak_server_listen(&srv, host, port);
    if (rc != 0) {
        fprintf(stderr, "akd: cannot listen on %s: %s\n", listen, uv_strerror(rc));
        uv_close((uv_handle_t *)&srv.listener, NULL);
        uv_run(srv.loop, UV_RUN_DEFAULT);
        uv_loop_close(srv.loop);
        ak_games_free(&srv);
        ak_store_close(srv.store);
        return 1;
    }
    uv_signal_init(srv.loop, &srv.sigint);
    uv_signal_init(srv.loop, &srv.sigterm);
    srv.sigint.data = srv.sigterm.data = &srv;
    uv_signal_start(&srv.sigint, on_signal, SIGINT);
    uv_signal_start(&srv.sigterm, on_signal, SIGTERM);
    ak_log(AK_LOG_INFO, "akd %s listening on %s, database %s", AK_VERSION, listen, db);
    printf("akd listening on %s\n", listen);
    fflush(stdout);
    uv_run(srv.loop, UV_RUN_DEFAULT);
    uv_loop_close(srv.loop);
    ak_games_free(&srv);
    ak_store_close(srv.store);
    ak_log(AK_LOG_INFO, "stopped");
    return 0;
}
