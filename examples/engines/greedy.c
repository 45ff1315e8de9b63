/*
 * A greedy pdk engine in C (C99, standard library only), speaking docs/protocol.md.
 * It plays as greedy.py plays, move for move:
 *   leading:   the legal play with the most cards (the first listed among equals);
 *   following: the first listed play that is not a bomb, else (option "bombs", or when it
 *              may not pass) the first bomb; otherwise it passes.
 * Build:  cc -O2 -std=c99 -o greedy examples/engines/greedy.c   (or: make -C examples/engines)
 * Run:    pdk selfplay -p cmd:./greedy,normal,normal
 *
 * pdk writes compact JSON, one object a line, with "type" as its first key; this engine
 * reads just the fields it needs with a small scanner rather than a JSON library.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* The value after "key": within [p, end), or NULL. */
static const char *field(const char *p, const char *end, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    size_t n = strlen(pat);
    for (const char *q = p; q && q + n <= end; q++) {
        q = strstr(q, pat);
        if (!q || q + n > end) return NULL;
        return skip_ws(q + n);
    }
    return NULL;
}

static int is_true(const char *v) { return v && strncmp(v, "true", 4) == 0; }

static int is_type(const char *line, const char *type) {
    char pat[64];
    snprintf(pat, sizeof pat, "{\"type\":\"%s\"", type);
    return strncmp(skip_ws(line), pat, strlen(pat)) == 0;
}

static void say(const char *text) {
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static void act(const char *line, int use_bombs) {
    const char *end = line + strlen(line);
    int lead = is_true(field(line, end, "lead"));
    int can_pass = is_true(field(line, end, "can_pass"));
    const char *legal = field(line, end, "legal");
    int best = -1, best_size = -1, first_plain = -1, first_bomb = -1;
    const char *p = legal;
    while (p && (p = strstr(p, "\"index\":")) != NULL) {
        const char *next = strstr(p + 1, "\"index\":");
        const char *stop = next ? next : end;
        int index = atoi(skip_ws(p + 8));
        const char *size = field(p, stop, "size");
        const char *kind = field(p, stop, "kind");
        int n = size ? atoi(size) : 0;
        int bomb = kind && strncmp(kind, "\"bomb\"", 6) == 0;
        if (n > best_size) { best = index; best_size = n; }
        if (bomb && first_bomb < 0) first_bomb = index;
        if (!bomb && first_plain < 0) first_plain = index;
        p = stop;
    }
    char out[64];
    if (best < 0) {
        say("{\"pass\":true}");
        return;
    }
    if (lead) {
        snprintf(out, sizeof out, "{\"play\":%d}", best);
    } else if (first_plain >= 0) {
        snprintf(out, sizeof out, "{\"play\":%d}", first_plain);
    } else if (first_bomb >= 0 && (use_bombs || !can_pass)) {
        snprintf(out, sizeof out, "{\"play\":%d}", first_bomb);
    } else {
        snprintf(out, sizeof out, "{\"pass\":true}");
    }
    say(out);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    int use_bombs = 1;
    while (getline(&line, &cap, stdin) != -1) {
        const char *end = line + strlen(line);
        if (is_type(line, "hello")) {
            say("{\"type\":\"hello\",\"protocol_version\":1,\"name\":\"greedy-c\","
                "\"author\":\"pdk examples\","
                "\"options\":[{\"name\":\"bombs\",\"type\":\"bool\",\"default\":true}]}");
        } else if (is_type(line, "setoption")) {
            const char *name = field(line, end, "name");
            if (name && strncmp(name, "\"bombs\"", 7) == 0) use_bombs = is_true(field(line, end, "value"));
        } else if (is_type(line, "act")) {
            act(line, use_bombs);
        } else if (is_type(line, "quit")) {
            break;
        }
        /* The deal, its events ("play", "pass", "trick", "bao_dan", "out", "deal_over") and
           messages of later versions: news it does not need. */
    }
    free(line);
    return 0;
}
