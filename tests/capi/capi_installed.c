/* The C API as a C program sees it: only retrograde.h, linked against the installed
 * libretrograde.so (tests/capi_installed.sh builds and runs it).
 *
 *   capi_installed DIR             checks against DIR holding KQvK, KRvK and KQvKR; exit status 1 on
 *                                  any failure
 *   capi_installed DIR --batch     FENs on stdin -> the lines tbprobe --batch prints
 *   capi_installed DIR --random N  N random legal KQvKR positions made and probed as bitboards,
 *                                  printed as tbprobe --batch prints them */
#include <retrograde.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                              \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: failed: %s (last error: '%s')\n", __FILE__, __LINE__, #cond, \
                    retro_last_error());                                                         \
            ++failures;                                                                          \
        }                                                                                        \
    } while (0)

static int starts_with(const char* s, const char* prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static uint64_t bit(int square) { return (uint64_t)1 << square; }

/* "win 13", "loss 0", "draw" */
static void describe(retro_value v, char* out, size_t size) {
    if (v.wdl == RETRO_DRAW)
        snprintf(out, size, "draw");
    else
        snprintf(out, size, "%s %u", v.wdl == RETRO_WIN ? "win" : "loss", v.dtm);
}

static int preference(retro_value v) {
    if (v.wdl == RETRO_WIN) return (1 << 17) - (int)v.dtm;
    if (v.wdl == RETRO_LOSS) return -(1 << 17) + (int)v.dtm;
    return 0;
}

static void checks(const char* dir) {
    retro_tablebase* tb = NULL;
    retro_value v;
    retro_move best, moves[RETRO_MAX_MOVES];
    retro_position fen_bits, bits;
    size_t count = 0, i;
    char missing[4096];
    const char* kqk = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";

    CHECK(retro_version()[0] >= '0' && retro_version()[0] <= '9');
    CHECK(strcmp(retro_status_text(RETRO_ERR_MISSING_TABLE), "missing table") == 0);

    /* Opening: a directory that is not there, a null one, then the real one. */
    snprintf(missing, sizeof missing, "%s/missing", dir);
    CHECK(retro_open(missing, 0, &tb) == RETRO_ERR_DIRECTORY);
    CHECK(tb == NULL);
    CHECK(starts_with(retro_last_error(), "no such directory: "));
    CHECK(retro_open(NULL, 0, &tb) == RETRO_ERR_ARGUMENT);
    CHECK(retro_open(dir, 1 << 20, &tb) == RETRO_OK);
    CHECK(strcmp(retro_last_error(), "") == 0);
    if (!tb) return;

    /* KQvK: white mates in 13 plies, starting with Qc6. */
    CHECK(retro_probe_fen(tb, kqk, &v) == RETRO_OK);
    CHECK(v.dtm == 13 && v.wdl == RETRO_WIN);
    CHECK(retro_best_move_fen(tb, kqk, &best) == RETRO_OK);
    CHECK(strcmp(best.uci, "h1c6") == 0 && best.from == 7 && best.to == 42 && best.promotion == 0);
    CHECK(best.value.dtm == 13 && best.value.wdl == RETRO_WIN);
    CHECK(retro_probe_fen(tb, "8/8/2Q5/4k3/8/8/8/4K3 b - - 1 1", &v) == RETRO_OK);
    CHECK(v.dtm == 12 && v.wdl == RETRO_LOSS);

    /* The same position as bitboards, made by hand: king e1 (4), queen h1 (7), king e5 (36). */
    memset(&bits, 0, sizeof bits);
    bits.white = bit(4) | bit(7);
    bits.black = bit(36);
    bits.kings = bit(4) | bit(36);
    bits.queens = bit(7);
    bits.side_to_move = RETRO_WHITE;
    CHECK(retro_parse_fen(kqk, &fen_bits) == RETRO_OK);
    CHECK(memcmp(&bits, &fen_bits, sizeof bits) == 0);
    CHECK(retro_probe(tb, &bits, &v) == RETRO_OK);
    CHECK(v.dtm == 13 && v.wdl == RETRO_WIN);
    CHECK(retro_best_move(tb, &bits, &best) == RETRO_OK);
    CHECK(strcmp(best.uci, "h1c6") == 0);

    /* Every move, best first: the king has 5 moves, the queen 16. */
    CHECK(retro_moves(tb, &bits, moves, RETRO_MAX_MOVES, &count) == RETRO_OK);
    CHECK(count == 21);
    CHECK(strcmp(moves[0].uci, "h1c6") == 0 && moves[0].value.dtm == 13);
    for (i = 1; i < count; ++i) {
        const int a = preference(moves[i - 1].value), b = preference(moves[i].value);
        CHECK(a > b || (a == b && strcmp(moves[i - 1].uci, moves[i].uci) < 0));
    }
    /* All win but the two that put the queen next to the black king, unprotected: last, in UCI order. */
    for (i = 0; i < 19; ++i) CHECK(moves[i].value.wdl == RETRO_WIN && moves[i].value.dtm % 2 == 1);
    CHECK(strcmp(moves[19].uci, "h1d5") == 0 && strcmp(moves[20].uci, "h1e4") == 0);
    CHECK(moves[19].value.wdl == RETRO_DRAW && moves[20].value.dtm == RETRO_DTM_DRAW);
    count = 0;
    CHECK(retro_moves_fen(tb, kqk, moves, 5, &count) == RETRO_ERR_BUFFER_TOO_SMALL);
    CHECK(count == 21);
    CHECK(strcmp(retro_last_error(), "21 legal moves, room for 5") == 0);

    /* Checkmate: lost in 0, no move. */
    CHECK(retro_probe_fen(tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", &v) == RETRO_OK);
    CHECK(v.dtm == 0 && v.wdl == RETRO_LOSS);
    CHECK(retro_best_move_fen(tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", &best) == RETRO_ERR_NO_MOVE);
    CHECK(strcmp(retro_last_error(), "checkmate: no legal move") == 0);
    CHECK(retro_moves_fen(tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", moves, RETRO_MAX_MOVES, &count) == RETRO_OK);
    CHECK(count == 0);

    /* Bad input, each with its code and message. */
    CHECK(retro_probe_fen(tb, "garbage", &v) == RETRO_ERR_BAD_FEN);
    CHECK(strcmp(retro_last_error(), "a FEN has 4 or 6 fields, this one has 1") == 0);
    CHECK(retro_probe_fen(tb, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", &v) == RETRO_ERR_BAD_FEN);
    CHECK(strstr(retro_last_error(), "castling rights") != NULL);
    CHECK(retro_probe_fen(tb, "8/8/8/4k3/8/8/8/4KB1Q w - - 0 1", &v) == RETRO_ERR_MISSING_TABLE);
    CHECK(starts_with(retro_last_error(), "no table for KQBvK in "));
    CHECK(retro_probe_fen(tb, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", &v) ==
          RETRO_ERR_TOO_MANY_MEN);
    CHECK(starts_with(retro_last_error(), "the position has 32 men; tables hold at most "));
    CHECK(retro_probe_fen(tb, NULL, &v) == RETRO_ERR_ARGUMENT);
    CHECK(strcmp(retro_last_error(), "the FEN is null") == 0);
    CHECK(retro_probe_fen(tb, kqk, NULL) == RETRO_ERR_ARGUMENT);
    CHECK(retro_probe_fen(NULL, kqk, &v) == RETRO_ERR_ARGUMENT);
    bits.black |= bit(4); /* e1 both white and black */
    CHECK(retro_probe(tb, &bits, &v) == RETRO_ERR_BAD_POSITION);
    CHECK(strcmp(retro_last_error(), "a square is in both the white and the black bitboard") == 0);
    bits.black = 0;
    bits.kings = bit(4); /* no black king */
    bits.white = bit(4) | bit(7);
    CHECK(retro_probe(tb, &bits, &v) == RETRO_ERR_BAD_POSITION);
    CHECK(strcmp(retro_last_error(), "the black king is missing") == 0);
    /* A success clears the message. */
    CHECK(retro_probe_fen(tb, kqk, &v) == RETRO_OK);
    CHECK(strcmp(retro_last_error(), "") == 0);

    retro_close(tb);
    retro_close(NULL);
}

/* One line as tbprobe --batch prints it: "FEN<TAB>win 13<TAB>h1c6", "FEN<TAB>error: ...". */
static void batch_line(retro_tablebase* tb, const char* fen, const retro_position* bits) {
    retro_value v;
    retro_move best;
    retro_status s = bits ? retro_probe(tb, bits, &v) : retro_probe_fen(tb, fen, &v);
    char value[32];
    if (s == RETRO_ERR_BAD_FEN) {
        printf("%s\terror: bad FEN: %s\n", fen, retro_last_error());
        return;
    }
    if (s != RETRO_OK) {
        printf("%s\terror: %s\n", fen, retro_last_error());
        return;
    }
    describe(v, value, sizeof value);
    s = bits ? retro_best_move(tb, bits, &best) : retro_best_move_fen(tb, fen, &best);
    printf("%s\t%s\t%s\n", fen, value, s == RETRO_OK ? best.uci : "-");
}

static void batch(retro_tablebase* tb) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        if (n > 0 && line[0] != '#') batch_line(tb, line, NULL);
    }
}

static void fen_of(const retro_position* p, char* out) {
    const uint64_t* types[] = {&p->kings, &p->queens, &p->rooks, &p->bishops, &p->knights, &p->pawns};
    const char letters[] = "KQRBNP";
    int rank, file, t, empty;
    for (rank = 7; rank >= 0; --rank) {
        empty = 0;
        for (file = 0; file < 8; ++file) {
            const uint64_t b = bit(rank * 8 + file);
            char letter = 0;
            for (t = 0; t < 6; ++t)
                if (*types[t] & b) letter = (char)(p->black & b ? letters[t] - 'A' + 'a' : letters[t]);
            if (!letter) {
                ++empty;
                continue;
            }
            if (empty) *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = letter;
        }
        if (empty) *out++ = (char)('0' + empty);
        if (rank) *out++ = '/';
    }
    sprintf(out, " %c - - 0 1", p->side_to_move == RETRO_WHITE ? 'w' : 'b');
}

/* Random KQvKR positions (colours swapped half the time), made as bitboards; illegal ones skipped. */
static void random_positions(retro_tablebase* tb, int n) {
    uint64_t x = 88172645463325252ULL;
    char fen[128];
    while (n > 0) {
        retro_position p;
        retro_value v;
        uint64_t* types[4];
        int i, swap;
        memset(&p, 0, sizeof p);
        types[0] = &p.kings, types[1] = &p.queens, types[2] = &p.kings, types[3] = &p.rooks;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        swap = (int)(x >> 63);
        p.side_to_move = (int)(x >> 62) & 1;
        for (i = 0; i < 4; ++i) {
            const uint64_t b = bit((int)((x >> (6 * i)) & 63));
            *types[i] |= b;
            *(((i < 2) != swap) ? &p.white : &p.black) |= b;
        }
        if (retro_probe(tb, &p, &v) == RETRO_ERR_BAD_POSITION) continue; /* two men on a square, a check */
        fen_of(&p, fen);
        batch_line(tb, fen, &p);
        --n;
    }
}

int main(int argc, char** argv) {
    retro_tablebase* tb = NULL;
    if (argc == 2) {
        checks(argv[1]);
        printf("%s: %d failed\n", argv[0], failures);
        return failures ? 1 : 0;
    }
    if (argc < 3 || retro_open(argv[1], 0, &tb) != RETRO_OK) {
        fprintf(stderr, "usage: capi_installed DIR [--batch | --random N] (%s)\n", retro_last_error());
        return 2;
    }
    if (strcmp(argv[2], "--batch") == 0)
        batch(tb);
    else if (strcmp(argv[2], "--random") == 0 && argc == 4)
        random_positions(tb, atoi(argv[3]));
    retro_close(tb);
    return 0;
}
