/*
 * In-process baseline for the SQLite read: the statement the server runs for a /rest/v1 read,
 * on THREADS connections to the same file, one thread per connection, for SECONDS seconds.
 *
 *   sqlite_read DATABASE THREADS SECONDS SQL
 *
 * Each connection is opened as SQLiteNIO opens the server's (read-write, full mutex, URI),
 * then made read-only as the server's readers are (query_only, busy_timeout); each query is
 * BEGIN DEFERRED / the statement / COMMIT, as SQLiteReaders.read runs it, with the three
 * statements prepared once (SQLite's own limit, not a client's), and every column of every
 * row is fetched as text. run.sh compiles this against the amalgamation sqlite-nio vendors,
 * with the defines sqlite-nio's Package.swift sets, so both run the same SQLite.
 * Prints one line: "<queries/s> q/s, <queries> queries, <rows> rows/query, <bytes> bytes/query".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sqlite_nio_sqlite3.h"

static const char *database;
static const char *statement_text;
static double seconds;

struct worker {
    pthread_t thread;
    long queries;
    long rows;
    long bytes;
    int failed;
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int step_all(sqlite3_stmt *statement, struct worker *self) {
    int rc;
    while ((rc = sqlite_nio_sqlite3_step(statement)) == SQLITE_ROW) {
        int columns = sqlite_nio_sqlite3_column_count(statement);
        for (int i = 0; i < columns; i++) {
            /* Text, as the server reads every value before rendering it. */
            sqlite_nio_sqlite3_column_text(statement, i);
            self->bytes += sqlite_nio_sqlite3_column_bytes(statement, i);
        }
        self->rows++;
    }
    sqlite_nio_sqlite3_reset(statement);
    return rc == SQLITE_DONE ? 0 : rc;
}

static void *run(void *argument) {
    struct worker *self = argument;
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE;
    if (sqlite_nio_sqlite3_open_v2(database, &db, flags, NULL) != SQLITE_OK) {
        fprintf(stderr, "open %s: %s\n", database, sqlite_nio_sqlite3_errmsg(db));
        self->failed = 1;
        return NULL;
    }
    sqlite_nio_sqlite3_exec(db, "PRAGMA query_only=ON; PRAGMA busy_timeout=5000", NULL, NULL, NULL);
    sqlite3_stmt *begin = NULL, *select = NULL, *commit = NULL;
    if (sqlite_nio_sqlite3_prepare_v2(db, "BEGIN DEFERRED", -1, &begin, NULL) != SQLITE_OK
        || sqlite_nio_sqlite3_prepare_v2(db, statement_text, -1, &select, NULL) != SQLITE_OK
        || sqlite_nio_sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite_nio_sqlite3_errmsg(db));
        self->failed = 1;
        return NULL;
    }
    double end = now() + seconds;
    while (now() < end) {
        int rc = step_all(begin, self);
        if (rc == 0) rc = step_all(select, self);
        if (rc == 0) rc = step_all(commit, self);
        if (rc != 0) {
            fprintf(stderr, "step: %s\n", sqlite_nio_sqlite3_errmsg(db));
            self->failed = 1;
            break;
        }
        self->queries++;
    }
    sqlite_nio_sqlite3_finalize(begin);
    sqlite_nio_sqlite3_finalize(select);
    sqlite_nio_sqlite3_finalize(commit);
    sqlite_nio_sqlite3_close(db);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s DATABASE THREADS SECONDS SQL\n", argv[0]);
        return 2;
    }
    database = argv[1];
    int threads = atoi(argv[2]);
    seconds = atof(argv[3]);
    statement_text = argv[4];
    if (threads < 1 || threads > 256 || !(seconds > 0)) {
        fprintf(stderr, "THREADS must be 1-256 and SECONDS positive\n");
        return 2;
    }
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    if (!workers) return 1;
    double start = now();
    for (int i = 0; i < threads; i++) pthread_create(&workers[i].thread, NULL, run, &workers[i]);
    long queries = 0, rows = 0, bytes = 0;
    int failed = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        queries += workers[i].queries;
        rows += workers[i].rows;
        bytes += workers[i].bytes;
        failed |= workers[i].failed;
    }
    double elapsed = now() - start;
    if (failed || queries == 0) return 1;
    printf("%.1f q/s, %ld queries, %.1f rows/query, %.0f bytes/query\n", (double)queries / elapsed, queries, (double)rows / (double)queries,
           (double)bytes / (double)queries);
    free(workers);
    return 0;
}
