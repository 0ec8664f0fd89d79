/* The double-dummy search core of sueca.solver, in C.
 *
 * The same algorithm as sueca/solver/reference.py (read that first: it is the specification
 * and the fallback), written for speed: a boolean null-window search "does team 0 take at least
 * TARGET points from here?", driven MTD(f)-style by solve_value(); a transposition table at
 * trick starts keyed by the hands with the zero-point cards of each suit renumbered (cards that
 * are equivalent once the cards between them are gone); one card of each run of equivalent
 * zero-point cards; move ordering; sure points from the top run of trumps. Beyond the
 * reference: fail-soft tests, the leader's quick points, a table found by the position's shape
 * whose entries also bound the positions of the same shape with other point cards (point_diff()),
 * dominated cards left unsearched (dominated()), a search of its own for the fourth card of a
 * trick, and the last two tricks played out without the table (docs/solver.md says why each is
 * exact). On request several threads run each dear test at once, sharing the table
 * (threaded_test()).
 *
 * Cards are ints 0-39 (suit * 10 + rank, ranks low to high 2 3 4 5 6 Q J K 7 A), hands are
 * 64-bit masks, seats 0-3 play in order, team[seat] is 0 or 1. Values are always the card
 * points team 0 takes from the position on (the cards of the trick in progress included).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define HAVE_THREADS 1
#else
#define HAVE_THREADS 0
#endif
#ifdef __linux__
#include <sys/mman.h>
#endif

typedef uint64_t u64;

#define NCARDS 40
#define SUIT_BITS 0x3FFULL
#define LOW_RANKS_MAX 5

/* One transposition-table entry: bounds on team 0's points from a trick start. It is found by
 * the position's shape (shape_of(): who holds each suit's first, second, ... card left), so that
 * one entry also bounds the positions of the same shape with other cards left (point_diff()).
 * The shape is known by a 64-bit check hash, independent of the hash that picks the bucket:
 * another shape's entry in the same bucket passes for this one only if its 64-bit check agrees
 * by chance (about once in 4 * 10^18 probes). 32 bytes, four to a bucket of two cache lines.
 *
 * Threads share the table without locks, so an entry may be read half written, or written by
 * two threads at once. The check is therefore stored xor'ed with the other three words
 * (`lock`, as in Hyatt's lockless hashing): an entry whose words come from different writes
 * fails its check like another shape's entry (but for coincidences of the same order as a
 * false match of the check), and is not used. */
typedef struct {
    u64 lock;            /* check ^ cards ^ words[0] ^ words[1] (entry_check()) */
    u64 cards;           /* the cards left at or above their suit's low run (zero-point ranks) */
    union {
        struct {
            int16_t lb, ub;
            int8_t best;     /* the lead that last cut off, as a shape card, or -1 */
            uint8_t depth;   /* cards left in all hands: deeper entries are costlier */
            uint16_t gen;    /* the solve that wrote it: older entries are replaced first */
            uint32_t epoch;  /* the clear() it was written after: another one's is empty */
            uint32_t unused; /* (the size a power of two: no entry straddles a bucket) */
        };
        u64 words[2];
    };
} Entry;

/* An entry is read and written a word at a time, into and from a private copy. */
static inline void entry_read(const Entry *e, Entry *out) {
    out->lock = __atomic_load_n(&e->lock, __ATOMIC_RELAXED);
    out->cards = __atomic_load_n(&e->cards, __ATOMIC_RELAXED);
    out->words[0] = __atomic_load_n(&e->words[0], __ATOMIC_RELAXED);
    out->words[1] = __atomic_load_n(&e->words[1], __ATOMIC_RELAXED);
}

static inline u64 entry_check(const Entry *e) {
    return e->lock ^ e->cards ^ e->words[0] ^ e->words[1];
}

static inline void entry_write(Entry *e, Entry *in, u64 check) {
    in->lock = check ^ in->cards ^ in->words[0] ^ in->words[1];
    __atomic_store_n(&e->lock, in->lock, __ATOMIC_RELAXED);
    __atomic_store_n(&e->cards, in->cards, __ATOMIC_RELAXED);
    __atomic_store_n(&e->words[0], in->words[0], __ATOMIC_RELAXED);
    __atomic_store_n(&e->words[1], in->words[1], __ATOMIC_RELAXED);
}

#define BUCKET 4

typedef struct Worker Worker;

typedef struct {
    PyObject_HEAD
    int points[NCARDS];
    int team[4];
    int must_trump;
    int bonus;
    int low_run[4];               /* per suit: ranks below this score 0 (at most 5) */
    u64 high_cards;               /* the cards at or above their suit's low run */
    /* point_diff() of a suit whose low run is 5 ranks, by its two patterns of high ranks */
    int16_t diff_below[4][32][32], diff_above[4][32][32];
    int suit_points[4][1024];     /* points of each 10-bit pattern of a suit */
    Entry *tt;
    size_t tt_mask;               /* bucket count - 1 */
    uint16_t gen;
    uint32_t epoch;               /* Entry.epoch of the live entries (zeroed memory: none) */
    unsigned long long nodes;
    unsigned long long node_limit; /* stop the call when nodes reaches it (0: no limit) */
    int aborted;                  /* the call ran out of nodes: its answer means nothing */
    int busy;                     /* a search is running (without the GIL) */
    int threads;                  /* threads that run each dear test (threaded_test()) */
    Worker *workers;              /* theirs (threads of them, allocated with the solver) */
    int worker;                   /* in a worker's copy: which (0 runs in the caller's thread) */
    int *stop;                    /* in a worker's copy: set once a worker has the answer */
    unsigned long long solo_nodes;     /* a test's nodes alone before its threads start */
    unsigned long long threaded_tests; /* tests that ran on the threads */
    /* per call */
    int trump;
    u64 trump_mask;
    u64 beaters[NCARDS];          /* the cards that beat each card under this call's trump */
} Solver;

typedef struct {
    u64 hand[4];
    int leader;
    int n;                        /* cards in the trick in progress */
    int cards[4];
    int win_seat, win_card, trick_pts;
} Pos;

static unsigned char compress_table[32][32]; /* [present][held]: held's bits packed down */

static inline int suit_of(int c) { return c / 10; }
static inline u64 suit_mask(int s) { return SUIT_BITS << (10 * s); }
static inline int top_bit(u64 m) { return 63 - __builtin_clzll(m); }
static inline int popcount(u64 m) { return __builtin_popcountll(m); }
/* The cards above c in the deck's order (masked by c's suit: the higher cards of its suit). */
static inline u64 above(int c) { return ~((2ULL << c) - 1); }

/* Whether c takes the trick from w, and every card that would: one table lookup (set by
 * parse_position for the call's trump) where the rule's arithmetic cost a tenth of the time. */
static inline int beats(const Solver *S, int c, int w) { return (int)(S->beaters[w] >> c & 1); }
static inline u64 beaters_of(const Solver *S, int w) { return S->beaters[w]; }

static inline int mask_points(const Solver *S, u64 m) {
    return S->suit_points[0][m & SUIT_BITS] + S->suit_points[1][(m >> 10) & SUIT_BITS] +
           S->suit_points[2][(m >> 20) & SUIT_BITS] + S->suit_points[3][(m >> 30) & SUIT_BITS];
}

static u64 legal_mask(const Solver *S, const Pos *P, int seat) {
    u64 h = P->hand[seat];
    if (P->n == 0) return h;
    u64 follow = h & suit_mask(suit_of(P->cards[0]));
    if (follow) return follow;
    if (S->must_trump && (h & S->trump_mask)) return h & S->trump_mask;
    return h;
}

/* ---- the transposition table ------------------------------------------------------------ */

/* A 10-bit pattern's bits at the places of `present`'s bits packed down (a software pext). */
static inline u64 compress10(u64 present, u64 held) {
    unsigned lo = (unsigned)(present & 31), hi = (unsigned)(present >> 5);
    return (u64)compress_table[lo][held & 31] |
           ((u64)compress_table[hi][(held >> 5) & 31] << __builtin_popcount(lo));
}

/* The position's shape: each hand with the cards left in each suit renumbered 0, 1, ... in
 * order. Two positions of one shape have game trees alike move for move (a card's place in its
 * suit decides what it beats), and differ only in the points of the cards (point_diff()). */
static void shape_of(const Pos *P, u64 all, u64 out[4]) {
    for (int seat = 0; seat < 4; seat++) out[seat] = 0;
    for (int s = 0; s < 4; s++) {
        u64 present = (all >> (10 * s)) & SUIT_BITS;
        for (int seat = 0; seat < 4; seat++)
            out[seat] |= compress10(present, (P->hand[seat] >> (10 * s)) & SUIT_BITS) << (10 * s);
    }
}

/* A card as its place in its suit among the cards left, and back (-1: no such card). */
static int shape_card(u64 all, int c) {
    int s = suit_of(c);
    return 10 * s + popcount((all >> (10 * s)) & ((1ULL << (c % 10)) - 1));
}

static int unshape_card(u64 all, int c) {
    int s = suit_of(c), k = c % 10;
    u64 present = (all >> (10 * s)) & SUIT_BITS;
    if (k >= popcount(present)) return -1;
    for (; k > 0; k--) present &= present - 1;
    return 10 * s + __builtin_ctzll(present);
}

/* Two positions of one shape: map each card of one onto the card of the same place in the
 * other. Every line of play maps onto a line that wins the same tricks, so team 0's points
 * differ by the sum, over the cards team 0 wins, of the mapped cards' point differences d:
 * between the sum of the negative d and the sum of the positive ones, whatever is played, and
 * so the minimax values too. `a` and `b` are one suit's cards left at or above its low run;
 * paired from the top, as below them lie only zero-point cards. */
static void suit_diff(const Solver *S, int s, u64 a, u64 b, int *below, int *above_) {
    int lo = 0, hi = 0;
    while (a | b) {
        int d = 0;
        if (a) { int c = top_bit(a); d += S->points[10 * s + c]; a ^= 1ULL << c; }
        if (b) { int c = top_bit(b); d -= S->points[10 * s + c]; b ^= 1ULL << c; }
        if (d < 0) lo += d; else hi += d;
    }
    *below = lo;
    *above_ = hi;
}

/* How far team 0's points from position `a` can lie below and above those from `b`, a
 * position of the same shape (a and b: their high cards, as Entry.cards). */
static void point_diff(const Solver *S, u64 a, u64 b, int *below, int *above_) {
    int lo = 0, hi = 0;
    for (int s = 0; s < 4; s++) {
        u64 x = (a >> (10 * s)) & SUIT_BITS, y = (b >> (10 * s)) & SUIT_BITS;
        if (x == y) continue;
        if (S->low_run[s] == 5) {
            lo += S->diff_below[s][x >> 5][y >> 5];
            hi += S->diff_above[s][x >> 5][y >> 5];
        } else {
            int l, h;
            suit_diff(S, s, x, y, &l, &h);
            lo += l;
            hi += h;
        }
    }
    *below = lo;
    *above_ = hi;
}

static inline u64 fmix(u64 h) { /* MurmurHash3's finaliser: a bijection that mixes well */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

static void make_key(const Solver *S, const u64 c[4], int leader, u64 key[3]) {
    key[0] = c[0] | ((c[3] & 0xFFFFFFULL) << 40);
    key[1] = c[1] | ((c[3] >> 24) << 40);
    key[2] = c[2] | ((u64)leader << 40) | ((u64)S->trump << 42);
}

/* The key's bucket, and its check hash (a second, independent hash of the same key). */
static inline Entry *tt_bucket(const Solver *S, const u64 key[3], u64 *check) {
    u64 a = fmix(key[0] ^ fmix(key[1] ^ fmix(key[2])));
    *check = fmix((key[2] + 0x9E3779B97F4A7C15ULL) ^
                  fmix((key[1] + 0x632BE59BD9B4E019ULL) ^ fmix(key[0] + 0x165667B19E3779F9ULL)));
    return S->tt + (a & S->tt_mask) * BUCKET;
}

static void tt_store(Solver *S, Entry *bucket, u64 check, u64 cards, int lb, int ub, int best,
                     int depth) {
    Entry *victim = bucket;
    Entry e; /* a private copy of each entry in turn, then of the one written */
    int victim_cost = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        entry_read(bucket + i, &e);
        int live = e.epoch == S->epoch && entry_check(&e) == check;
        if (live && e.cards == cards) {
            if (lb > e.lb) e.lb = (int16_t)lb;
            if (ub < e.ub) e.ub = (int16_t)ub;
            if (best >= 0) e.best = (int8_t)best;
            e.gen = S->gen;
            entry_write(bucket + i, &e, check);
            return;
        }
        int cost = e.epoch == S->epoch ? e.depth + (e.gen == S->gen ? 64 : 0) : -1;
        if (cost < victim_cost) {
            victim_cost = cost;
            victim = bucket + i;
        }
    }
    e.cards = cards;
    e.lb = (int16_t)lb;
    e.ub = (int16_t)ub;
    e.best = (int8_t)best;
    e.depth = (uint8_t)depth;
    e.gen = S->gen;
    e.epoch = S->epoch;
    e.unused = 0;
    entry_write(victim, &e, check);
}

/* The table is big (32 MB for the shared cores) and probed at random: on 4 KB pages nearly
 * every probe also misses the TLB. Where the system allows, ask for 2 MB pages; mmap's memory
 * comes zeroed and is touched as the table fills. */
static Entry *tt_alloc(size_t count) {
    size_t bytes = count * sizeof(Entry);
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return (Entry *)p;
#else
    return PyMem_Calloc(count, sizeof(Entry));
#endif
}

static void tt_free(Entry *tt, size_t count) {
    if (!tt) return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    munmap(tt, count * sizeof(Entry));
#else
    (void)count;
    PyMem_Free(tt);
#endif
}

/* ---- the search ------------------------------------------------------------------------- */

static int trick_start(Solver *S, Pos *P, int target);

/* The call's node limit is reached. In a worker (threaded_test()) the limit only marks the next
 * look at whether another worker has answered already. */
#define STOP_POLL 1024
static void out_of_nodes(Solver *S) {
    if (!S->stop || __atomic_load_n(S->stop, __ATOMIC_RELAXED))
        S->aborted = 1;
    else
        S->node_limit += STOP_POLL;
}

/* Workers after the first try their moves in another order near the top of the tree: where
 * the mover holds at least SPREAD_FROM cards, worker w swaps its second and (w + 2)th moves.
 * The first move, the likeliest to cut off, stays first for all; after it, where every move
 * must be searched, the workers start on different ones and find each other's results in the
 * shared table when they come to them. (Swapping from 4, 5, 7 or 8 cards up measured alike;
 * the tail reversed, or each move put off while another worker searches it, were slower:
 * docs/solver.md.) */
#define SPREAD_FROM 6
static inline void spread(const Solver *S, int *moves, int count, int cards) {
    if (!S->worker || count < 3 || cards < SPREAD_FROM) return;
    int j = S->worker + 1 < count ? S->worker + 1 : count - 1;
    int t = moves[1];
    moves[1] = moves[j];
    moves[j] = t;
}

/* The legal cards of `seat` when `led` is the suit led. */
static inline u64 legal_for(const Solver *S, u64 h, int led) {
    u64 follow = h & suit_mask(led);
    if (follow) return follow;
    if (S->must_trump && (h & S->trump_mask)) return h & S->trump_mask;
    return h;
}

/* The team that takes the trick whatever the seats after `seat` play, once `seat` plays c; -1
 * when that is not settled. Cards of one run (below) give the same answer. */
static int sure_team(const Solver *S, const Pos *P, int seat, int c) {
    int w, wteam, led;
    if (P->n == 0 || beats(S, c, P->win_card)) {
        w = c;
        wteam = S->team[seat];
    } else {
        w = P->win_card;
        wteam = S->team[P->win_seat];
    }
    led = P->n ? suit_of(P->cards[0]) : suit_of(c);
    u64 beaters = beaters_of(S, w);
    /* A later card of the winner's side changes nothing; an opponent's card beating the
     * winner's would beat it too (beating is transitive within a trick). */
    u64 can[4];
    int beaten = 0;
    for (int k = P->n + 1; k < 4; k++) {
        int o = (P->leader + k) & 3;
        can[k] = legal_for(S, P->hand[o], led);
        if (S->team[o] != wteam && (can[k] & beaters)) beaten = 1;
    }
    if (!beaten) return wteam;
    /* Or the other side surely takes it: one of its later seats has only cards that beat the
     * winning card, and no later seat of the winner's side holds anything above the lowest
     * of them. */
    u64 led_mask = suit_mask(led);
    for (int k = P->n + 1; k < 4; k++) {
        int o = (P->leader + k) & 3;
        if (S->team[o] == wteam) continue;
        u64 m = can[k];
        if ((m & ~led_mask) && (m & ~S->trump_mask)) continue; /* it may throw a card away */
        int low = __builtin_ctzll(m);
        if (!beats(S, low, w)) continue;
        u64 over_low = beaters_of(S, low);
        int held = 0;
        for (int j = P->n + 1; j < 4; j++)
            if (S->team[(P->leader + j) & 3] == wteam && (can[j] & over_low)) held = 1;
        if (!held) return 1 - wteam;
    }
    return -1;
}

/* Which legal cards need no search. A run is cards of one hand and suit with no card of
 * another hand between them: after this trick each card of a run wins and loses exactly where
 * the others would. Where no card on the table lies between them either, that holds in this
 * trick too, so the run's zero-point cards are interchangeable. And where the trick's side is
 * settled whatever the later seats play (sure_team) and every card of the run takes it or
 * none does (so the same seat leads next),
 * the run's card with the most points is at least as good as any other for that side (its
 * points go to the trick; a cheaper card kept could only ever earn the same card's worth
 * later), and the one with the fewest at least as good for the other side. */
static u64 dominated(const Solver *S, const Pos *P, int seat, u64 legal, u64 live) {
    u64 skip = 0, rest = legal;
    u64 others = (P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3]) & ~P->hand[seat];
    int my_team = S->team[seat];
    while (rest) {
        int first = __builtin_ctzll(rest), last = first;
        u64 run = 1ULL << first;
        rest &= rest - 1;
        while (rest) {
            int d = __builtin_ctzll(rest);
            if (suit_of(d) != suit_of(last) ||
                (others & ((1ULL << d) - 1) & above(last)))
                break;
            run |= 1ULL << d;
            last = d;
            rest &= rest - 1;
        }
        if (run == (1ULL << first)) continue;
        /* A card on the table between them: the same trick only if all or none of the run
         * beats the card now winning (else the seat that leads next differs). */
        int team = P->n && beats(S, first, P->win_card) != beats(S, last, P->win_card)
                       ? -1 : sure_team(S, P, seat, first);
        if (team < 0) { /* zero-point cards with no live card between: the lowest stands */
            for (u64 m = run & (run - 1); m; m &= m - 1) {
                int c = __builtin_ctzll(m);
                u64 below = live & suit_mask(suit_of(c)) & ((1ULL << c) - 1);
                if (c % 10 < S->low_run[suit_of(c)] && (run >> top_bit(below) & 1))
                    skip |= 1ULL << c;
            }
            continue;
        }
        int keep = first;
        for (u64 m = run; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (team == my_team ? S->points[c] >= S->points[keep] : S->points[c] < S->points[keep])
                keep = c;
        }
        skip |= run & ~(1ULL << keep);
    }
    return skip;
}

/* The legal cards of the seat to move, less the dominated ones (above), best first. */
static int ordered_moves(Solver *S, const Pos *P, int seat, int hint, int out[10]) {
    u64 legal = legal_mask(S, P, seat);
    if (!(legal & (legal - 1))) { /* one legal card: nothing to order or prune */
        out[0] = __builtin_ctzll(legal);
        return 1;
    }
    u64 all = P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3];
    u64 live = all;
    for (int i = 0; i < P->n; i++) live |= 1ULL << P->cards[i];
    u64 mine = P->hand[seat];
    int count = 0, scores[10];
    int my_team = S->team[seat];
    u64 beaters = 0, led_mask = 0;
    int partner_winning = 0, safe = 1; /* (the fourth hand has a search of its own) */
    u64 opp_can = 0; /* what the opponents still to play in this trick may play */
    if (P->n) {
        beaters = beaters_of(S, P->win_card);
        led_mask = suit_mask(suit_of(P->cards[0]));
        partner_winning = S->team[P->win_seat] == my_team;
        /* Can a later opponent take the trick from the card now winning it? */
        for (int k = P->n + 1; k < 4; k++) {
            int o = (P->leader + k) & 3;
            if (S->team[o] == my_team) continue;
            u64 h = P->hand[o], can = h & led_mask;
            if (!can) can = (S->must_trump && (h & S->trump_mask)) ? h & S->trump_mask : h;
            if (can & beaters) safe = 0;
            opp_can |= can;
        }
    }
    /* Second hand, an opponent winning: will the partner (fourth) surely take the trick? Then
     * this hand plays as onto a partner's safe trick (points first). */
    int partner_takes = 0;
    if (P->n == 1 && !partner_winning) {
        u64 h = P->hand[(seat + 2) & 3], can = h & led_mask;
        if (!can) can = (S->must_trump && (h & S->trump_mask)) ? h & S->trump_mask : h;
        for (u64 m = can & beaters; m; m &= m - 1) {
            int x = __builtin_ctzll(m);
            if (!(opp_can & beaters_of(S, x))) partner_takes = 1;
        }
    }
    /* The leader's view of each suit, computed once: how many opponents ruff it; whether the
     * partner ruffs it while the opponent after him follows; whether the partner holds its top
     * card (above this hand's). */
    int ruffers[4] = {0, 0, 0, 0}, partner_ruffs = 0, partner_top = 0;
    if (P->n == 0) {
        u64 partner = P->hand[(seat + 2) & 3], next = P->hand[(seat + 1) & 3];
        u64 last_hand = P->hand[(seat + 3) & 3];
        for (int s = 0; s < 4; s++) {
            u64 sm = suit_mask(s);
            if (!(mine & sm)) continue;
            if (s != S->trump) {
                ruffers[s] = (!(next & sm) && (next & S->trump_mask)) +
                             (!(last_hand & sm) && (last_hand & S->trump_mask));
                if (!(partner & sm) && (partner & S->trump_mask) && (last_hand & sm))
                    partner_ruffs |= 1 << s;
            }
            u64 others_s = all & ~mine & sm;
            if (others_s && (partner >> top_bit(others_s) & 1) &&
                !(mine & sm & above(top_bit(others_s))))
                partner_top |= 1 << s;
        }
    }
    for (u64 m = legal & ~dominated(S, P, seat, legal, live); m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        int s = suit_of(c), r = c % 10;
        int p = S->points[c], score;
        int ruff = s == S->trump && P->n && suit_of(P->cards[0]) != S->trump;
        /* Where points come first, they count three times (3 * p): the rank r only breaks
         * ties. With p alone a queen (2 points, rank 5) came after a zero-point 2; weighing
         * points right cut the nodes of 600 deals (--seed 1-3) by a fifth. */
        if (c == hint) {
            score = 1000;
        } else if (P->n == 0) {
            u64 higher_others = all & ~mine & suit_mask(s) & above(c);
            if (!higher_others && !ruffers[s]) {
                /* Side-suit masters first; a top trump after them and after leads into the
                 * partner's top card or ruff, but before other low cards (measured: drawing
                 * trumps first was the commonest lead tried before the one that cut off). */
                score = s == S->trump ? 120 + p : 200 + p;
            } else {
                /* Low cards from the shortest suit first (on the way to a void). */
                score = 100 - p - (s == S->trump ? 10 : 0) - r - 4 * popcount(mine & suit_mask(s));
                /* The partner holds the suit's top card, above this hand's, and neither
                 * opponent can ruff it: a card led to him wins the trick for the side, so
                 * lead points into it (the most first). */
                if ((partner_top >> s & 1) && !ruffers[s]) score = 150 + 3 * p - r;
                /* An opponent is void and ruffs: a lead that gives a trick away, tried late
                 * (later still where both ruff); a zero-point one after the point cards
                 * (measured on 200 deals: 3.8% fewer nodes than at a point card's place; later
                 * still gains nothing more). */
                score -= (p ? 30 : 60) * ruffers[s];
                /* The partner is void and ruffs, and the opponent after him follows suit: points
                 * into the partner's ruff likewise. */
                if (partner_ruffs >> s & 1) score = 150 + 3 * p - r;
            }
        } else if (partner_winning) {
            score = safe ? 100 + p : 50 - p - r;
            /* A trump on the partner's trick wastes it: after the cards of other suits. */
            if (ruff) score -= 20;
            /* The partner's card would lose the trick and this one would not: take it over. */
            if (!safe && (beaters >> c & 1) && !(opp_can & beaters_of(S, c)))
                score = 120 + p;
        } else if (partner_takes) {
            score = 100 + 3 * p - r;
            if (ruff) score -= 20;
        } else if (beaters >> c & 1) {
            /* A card that wins the trick whatever the opponents still to play do: the one
             * with the most points (but the cheapest trump, when ruffing); else the cheapest
             * card that wins for now, but second hand low on a lead worth nothing (after the
             * discards; measured on 600 deals, --seed 1-3: 2-6% fewer nodes at the median,
             * 1-2% in all). */
            if (!(opp_can & beaters_of(S, c)))
                score = ruff ? 200 - 2 * p - r : 200 + 3 * p - r;
            else
                score = (P->n == 1 && !P->trick_pts ? 40 : 150) - r - (s == S->trump ? 10 : 0);
        } else {
            /* A discard: the cheapest, from the shortest suit. */
            score = 50 - 2 * p - (s == S->trump ? 10 : 0) - r - 2 * popcount(mine & suit_mask(s));
        }
        int i = count++;
        while (i > 0 && scores[i - 1] < score) {
            scores[i] = scores[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        scores[i] = score;
        out[i] = c;
    }
    return count;
}

/* The run rule of dominated() for the fourth hand, where every card settles the trick: among
 * `cards` (all taking the trick, or none), one card per run, the most points where the trick
 * goes to the seat's side, else the fewest. */
static int fourth_runs(const Solver *S, u64 cards, u64 others, int most, int *out, int count) {
    while (cards) {
        int keep = __builtin_ctzll(cards), last = keep;
        cards &= cards - 1;
        while (cards) {
            int d = __builtin_ctzll(cards);
            if (suit_of(d) != suit_of(last) || (others & ((1ULL << d) - 1) & above(last)))
                break;
            if (most ? S->points[d] >= S->points[keep] : S->points[d] < S->points[keep]) keep = d;
            last = d;
            cards &= cards - 1;
        }
        out[count++] = keep;
    }
    return count;
}

/* search() for the fourth card of a trick: the trick's winner is known for each card, so the
 * moves, their order and the trick's points come straight from it. */
static int fourth_hand(Solver *S, Pos *P, int target) {
    if (++S->nodes >= S->node_limit && S->node_limit) out_of_nodes(S);
    if (S->aborted) return 0;
    int seat = (P->leader + 3) & 3, my_team = S->team[seat];
    int maximizing = my_team == 0;
    u64 hand = P->hand[seat];
    u64 legal = legal_for(S, hand, suit_of(P->cards[0]));
    u64 others = (P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3]) & ~hand;
    u64 wins = legal & beaters_of(S, P->win_card);
    int partner_winning = S->team[P->win_seat] == my_team;
    /* Moves: the cards that take the trick, then those that do not (one per run each). */
    int moves[10], scores[10], count = fourth_runs(S, wins, others, 1, moves, 0);
    int nwins = count;
    count = fourth_runs(S, legal & ~wins, others, partner_winning, moves, count);
    int ruffing = suit_of(P->cards[0]) != S->trump; /* any trump played here is a ruff */
    for (int i = 0; i < count; i++) {
        int c = moves[i], p = S->points[c], score;
        int ruff = ruffing && suit_of(c) == S->trump;
        /* Onto the partner's trick the most points, but a master (no higher card of its suit
         * left in another hand: it would take a trick of its own) after the other point
         * cards, and a ruff last (it wastes a trump); taking the trick with the most points,
         * but ruffing with the cheapest trump. Measured on the 200 deals of --seed 1: 5% fewer
         * nodes for the cheapest ruff, 7% for the ruff last; masters: 2% fewer on --seed 1,
         * 7% on --seed 2 (the master dumped first was the commonest card tried before the one
         * that cut off). */
        int master = p && !(others & suit_mask(suit_of(c)) & above(c));
        if (partner_winning)
            score = 100 + (master ? 1 : p) - (ruff ? 20 : 0);
        else if (i < nwins)
            score = ruff ? 200 - 2 * p - c % 10 : 200 + p;
        else
            score = 50 - 2 * p - (suit_of(c) == S->trump ? 10 : 0) - c % 10;
        int j = i;
        while (j > 0 && scores[j - 1] < score) {
            scores[j] = scores[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        scores[j] = score;
        moves[j] = c;
    }
    spread(S, moves, count, popcount(hand));
    int bound = maximizing ? -1 : 1 << 30;
    int leader = P->leader, cards[4];
    memcpy(cards, P->cards, sizeof cards); /* the next trick writes over them */
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        int winner = (wins >> c & 1) ? seat : P->win_seat;
        P->hand[seat] ^= 1ULL << c;
        int pts = P->trick_pts + S->points[c];
        if (!(P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3])) pts += S->bonus;
        int won = S->team[winner] == 0 ? pts : 0;
        int saved_pts = P->trick_pts, saved_seat = P->win_seat, saved_card = P->win_card;
        P->n = 0;
        P->leader = winner;
        int g = won + trick_start(S, P, target - won);
        P->leader = leader;
        P->n = 3;
        memcpy(P->cards, cards, sizeof cards);
        P->trick_pts = saved_pts;
        P->win_seat = saved_seat;
        P->win_card = saved_card;
        P->hand[seat] ^= 1ULL << c;
        if (S->aborted) return 0;
        if (maximizing ? g > bound : g < bound) {
            bound = g;
            if ((g >= target) == maximizing) return g;
        }
    }
    return bound;
}

/* Does team 0 take at least `target` points from here (any point of a trick)? Fail-soft: the
 * result g is a bound on the value, a lower bound when g >= target (yes), an upper bound when
 * g < target (no); bounds beyond the target make the table and the next test sharper. */
static int search(Solver *S, Pos *P, int target, int hint, int *best) {
    if (P->n == 3) return fourth_hand(S, P, target);
    if (++S->nodes >= S->node_limit && S->node_limit) out_of_nodes(S);
    if (S->aborted) return 0;
    int seat = (P->leader + P->n) & 3;
    int maximizing = S->team[seat] == 0;
    int moves[10];
    int count = ordered_moves(S, P, seat, hint, moves);
    spread(S, moves, count, popcount(P->hand[seat]));
    int bound = maximizing ? -1 : 1 << 30;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        u64 bit = 1ULL << c;
        int saved_seat = P->win_seat, saved_card = P->win_card, saved_pts = P->trick_pts;
        P->hand[seat] ^= bit;
        if (P->n == 0) {
            P->win_seat = seat;
            P->win_card = c;
            P->trick_pts = S->points[c];
        } else {
            if (beats(S, c, P->win_card)) {
                P->win_seat = seat;
                P->win_card = c;
            }
            P->trick_pts += S->points[c];
        }
        P->cards[P->n++] = c;
        int g;
        if (P->n == 4) {
            int winner = P->win_seat, leader = P->leader;
            int pts = P->trick_pts;
            if (!(P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3])) pts += S->bonus;
            int won = S->team[winner] == 0 ? pts : 0;
            int cards[4];
            memcpy(cards, P->cards, sizeof cards); /* the next trick writes over them */
            P->n = 0;
            P->leader = winner;
            g = won + trick_start(S, P, target - won);
            P->leader = leader;
            P->n = 4;
            memcpy(P->cards, cards, sizeof cards);
        } else {
            g = search(S, P, target, -1, NULL);
        }
        P->n--;
        P->hand[seat] ^= bit;
        P->win_seat = saved_seat;
        P->win_card = saved_card;
        P->trick_pts = saved_pts;
        if (S->aborted) return 0;
        if (maximizing ? g > bound : g < bound) {
            bound = g;
            if (best) *best = c;
            if ((g >= target) == maximizing) return g;
        }
    }
    return bound;
}

/* Quick points: what the leader can cash at once, winning every trick himself. First his
 * trumps above every other trump; then, per side suit, his cards above every other card of
 * it, as many as each opponent who still holds a trump can follow (so none can ruff), and
 * with must_trump only where no partner can be forced to ruff his own winner. */
static int quick_points(const Solver *S, const Pos *P) {
    int L = P->leader;
    u64 mine = P->hand[L], tm = S->trump_mask;
    u64 others = 0;
    for (int k = 1; k < 4; k++) others |= P->hand[(L + k) & 3];
    int total = 0;
    u64 other_trumps = others & tm;
    u64 cash = mine & tm;
    if (other_trumps) cash &= above(top_bit(other_trumps));
    total += mask_points(S, cash);
    int drawn = popcount(cash);
    /* The hands that limit how many masters of a suit cash: each opponent who may still
     * ruff, and (with must_trump) each partner who holds a trump, as he would have to ruff
     * a master he cannot follow. Partners need not sit opposite (rules may seat them apart). */
    u64 limit[3];
    int limits = 0;
    for (int k = 1; k < 4; k++) {
        int seat = (L + k) & 3;
        u64 h = P->hand[seat];
        if (S->team[seat] != S->team[L] ? popcount(h & tm) > drawn
                                          : S->must_trump && (h & tm))
            limit[limits++] = h;
    }
    for (int s = 0; s < 4; s++) {
        if (s == S->trump) continue;
        u64 sm = suit_mask(s);
        u64 mine_s = mine & sm;
        if (!mine_s) continue;
        u64 others_s = others & sm;
        u64 masters = others_s ? mine_s & above(top_bit(others_s)) : mine_s;
        int k = popcount(masters);
        for (int i = 0; i < limits && k; i++)
            if (popcount(limit[i] & sm) < k) k = popcount(limit[i] & sm);
        for (; k > 0; k--) {
            int c = top_bit(masters);
            total += S->points[c];
            masters ^= 1ULL << c;
        }
    }
    return total;
}

/* Team 0's points from the last trick, every hand holding one card (bonus included). */
static int last_trick(const Solver *S, const u64 h[4], int leader) {
    int win_seat = leader, win_card = top_bit(h[leader]), pts = S->points[win_card];
    for (int k = 1; k < 4; k++) {
        int seat = (leader + k) & 3, c = top_bit(h[seat]);
        pts += S->points[c];
        if (beats(S, c, win_card)) {
            win_seat = seat;
            win_card = c;
        }
    }
    return S->team[win_seat] == 0 ? pts + S->bonus : 0;
}

/* One step of the null-window minimax below: v improves the bound of a seat that maximizes
 * (or minimizes); nonzero when it settles the test there (a cut-off). */
static inline int improve(int *bound, int v, int maximizing, int target) {
    if (maximizing ? v > *bound : v < *bound) {
        *bound = v;
        return (v >= target) == maximizing;
    }
    return 0;
}

/* The exact value of the last two tricks by plain minimax (16 lines at most): cheaper than a
 * probe of the table, and it keeps those small positions out of it. Written as four nested
 * loops, one a seat (k = 0-3 in the order of play), each hand holding two cards: after the
 * first trick each holds one, other[k], so the last trick needs only its winner (its points
 * are what the first trick left). Fail-soft like search(). */
static int two_tricks(const Solver *S, const u64 h[4], int leader, int target) {
    u64 hand[4];
    int max[4], other[4];
    for (int k = 0; k < 4; k++) {
        hand[k] = h[(leader + k) & 3];
        max[k] = S->team[(leader + k) & 3] == 0;
    }
    int total = mask_points(S, hand[0] | hand[1] | hand[2] | hand[3]) + S->bonus;
    int b0 = max[0] ? -1 : 1 << 30;
    for (u64 m0 = hand[0]; m0; m0 &= m0 - 1) {
        int c0 = __builtin_ctzll(m0), led = suit_of(c0);
        other[0] = __builtin_ctzll(hand[0] ^ (1ULL << c0));
        int b1 = max[1] ? -1 : 1 << 30;
        for (u64 m1 = legal_for(S, hand[1], led); m1; m1 &= m1 - 1) {
            int c1 = __builtin_ctzll(m1);
            other[1] = __builtin_ctzll(hand[1] ^ (1ULL << c1));
            int w1 = beats(S, c1, c0), wc1 = w1 ? c1 : c0;
            int b2 = max[2] ? -1 : 1 << 30;
            for (u64 m2 = legal_for(S, hand[2], led); m2; m2 &= m2 - 1) {
                int c2 = __builtin_ctzll(m2);
                other[2] = __builtin_ctzll(hand[2] ^ (1ULL << c2));
                int w2 = w1, wc2 = wc1;
                if (beats(S, c2, wc1)) { w2 = 2; wc2 = c2; }
                int b3 = max[3] ? -1 : 1 << 30;
                int pts3 = S->points[c0] + S->points[c1] + S->points[c2];
                for (u64 m3 = legal_for(S, hand[3], led); m3; m3 &= m3 - 1) {
                    int c3 = __builtin_ctzll(m3);
                    other[3] = __builtin_ctzll(hand[3] ^ (1ULL << c3));
                    int w = beats(S, c3, wc2) ? 3 : w2, first = pts3 + S->points[c3];
                    int last_w = w, last_c = other[w];
                    for (int j = 1; j < 4; j++) {
                        int k = (w + j) & 3;
                        if (beats(S, other[k], last_c)) { last_w = k; last_c = other[k]; }
                    }
                    int v = (max[w] ? first : 0) + (max[last_w] ? total - first : 0);
                    if (improve(&b3, v, max[3], target)) break;
                }
                if (improve(&b2, b3, max[2], target)) break;
            }
            if (improve(&b1, b2, max[1], target)) break;
        }
        if (improve(&b0, b1, max[0], target)) break;
    }
    return b0;
}

/* The same question at the start of a trick, where the transposition table and bounds live.
 * Here the value counts the remaining tricks only. */
static int trick_start(Solver *S, Pos *P, int target) {
    u64 all = P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3];
    if (!all) return 0;
    if (target <= 0) return 0;
    int rem = mask_points(S, all) + S->bonus;
    if (target > rem) return rem;
    int size = popcount(P->hand[P->leader]);
    if (size <= 2) { /* the last trick plays itself; the last two are cheaper to play out */
        S->nodes++;
        if (size == 1) return last_trick(S, P->hand, P->leader);
        return two_tricks(S, P->hand, P->leader, target);
    }
    /* The table's bucket is fetched from memory while the bounds below are computed. */
    u64 shape[4], key[3], check;
    shape_of(P, all, shape);
    make_key(S, shape, P->leader, key);
    Entry *bucket = tt_bucket(S, key, &check);
    __builtin_prefetch(bucket);
    __builtin_prefetch(bucket + BUCKET - 1);
    /* Sure points: the unbroken run of top trumps one team holds never loses a trick. */
    int lb = 0, ub = rem;
    u64 trumps = all & S->trump_mask;
    if (trumps) {
        u64 team0 = 0;
        for (int seat = 0; seat < 4; seat++)
            if (S->team[seat] == 0) team0 |= P->hand[seat];
        int run_team = (team0 >> top_bit(trumps) & 1) ? 0 : 1;
        u64 breakers = trumps & (run_team == 0 ? ~team0 : team0); /* the other team's trumps */
        u64 run = breakers ? trumps & above(top_bit(breakers)) : trumps;
        int sure = mask_points(S, run);
        if (run_team == 0) lb = sure; else ub = rem - sure;
        if (lb >= target) return lb;
        if (ub < target) return ub;
    }
    {
        int qt = quick_points(S, P);
        if (S->team[P->leader] == 0) { if (qt > lb) lb = qt; }
        else if (rem - qt < ub) ub = rem - qt;
        if (lb >= target) return lb;
        if (ub < target) return ub;
    }
    /* The table: this position's bounds, and those of the positions of its shape, shifted by
     * their point differences. The lead to try first comes from the position's own entry,
     * else from one of its shape. */
    int hint = -1;
    u64 cards = all & S->high_cards;
    for (int i = 0; i < BUCKET; i++) {
        Entry copy, *e = &copy;
        entry_read(bucket + i, e);
        if (e->epoch != S->epoch || entry_check(e) != check) continue;
        int elb = e->lb, eub = e->ub;
        if (e->cards != cards) {
            int below, above_;
            point_diff(S, cards, e->cards, &below, &above_);
            elb += below;
            eub += above_;
        }
        if (elb > lb) lb = elb;
        if (eub < ub) ub = eub;
        if (e->best >= 0 && (hint < 0 || e->cards == cards)) hint = unshape_card(all, e->best);
    }
    if (lb >= target) return lb;
    if (ub < target) return ub;
    int best = -1;
    int g = search(S, P, target, hint, &best);
    if (S->aborted) return 0; /* nothing learnt: store nothing */
    if (g >= target) { if (g > lb) lb = g; } else { if (g < ub) ub = g; }
    /* The lead worth trying first next time is one that settled the question; where every
     * lead failed, the least bad of them is no better a guess than the move order's. */
    int settled = (g >= target) == (S->team[P->leader] == 0);
    tt_store(S, bucket, check, cards, lb, ub, best >= 0 && settled ? shape_card(all, best) : -1,
             popcount(all));
    return g;
}

static int ge(Solver *S, Pos *P, int target) {
    if (P->n == 0) return trick_start(S, P, target);
    return search(S, P, target, -1, NULL);
}

/* ---- threads ----------------------------------------------------------------------------- */

#define THREADS_MAX 16

/* A worker searches on a copy of the solver (its counters are its own, the table is shared)
 * and of the position. Aligned apart: a line one thread writes and another reads would cost
 * every node a cache miss (measured: a node 25-45% dearer before they were). */
struct Worker {
    _Alignas(64) Solver S;
    _Alignas(64) Pos P;
    int target, result, started;
    _Alignas(64) int stop; /* (worker 0's is the one they all look at) */
};

#if HAVE_THREADS
static void *worker_main(void *arg) {
    Worker *w = arg;
    w->result = ge(&w->S, &w->P, w->target);
    if (!w->S.aborted) __atomic_store_n(w->S.stop, 1, __ATOMIC_RELAXED);
    return NULL;
}
#endif

/* One test on S->threads workers at once, sharing the table; the first to finish answers and
 * stops the others. Whichever that is, the test's answer is the same (its bound may differ,
 * so the node counts and the next targets vary from run to run; the value does not).
 * Most tests are cheap, and for them starting the threads would cost more than they save
 * (measured: 7-card positions 2-4.5 times slower). So a test first runs alone, with a budget
 * (S->solo_nodes, 10,000 unless the caller said otherwise); the threads start only if it
 * outgrows it, and find in the table what it stored so far. */
static int threaded_test(Solver *S, Pos *P, int target) {
#if HAVE_THREADS
    if (S->solo_nodes) {
        S->node_limit = S->nodes + S->solo_nodes;
        int solo = ge(S, P, target);
        S->node_limit = 0;
        if (!S->aborted) return solo;
        S->aborted = 0;
    }
    S->threaded_tests++;
    Worker *workers = S->workers;
    int *stop = &workers[0].stop;
    pthread_t ids[THREADS_MAX];
    *stop = 0;
    for (int i = 0; i < S->threads; i++) {
        Worker *w = workers + i;
        /* (not the object's header: its reference count is Python's, touched under the GIL) */
        memcpy((char *)&w->S + offsetof(Solver, points), (char *)S + offsetof(Solver, points),
               sizeof *S - offsetof(Solver, points));
        w->S.worker = i;
        w->S.stop = stop;
        w->S.nodes = 0;
        w->S.node_limit = STOP_POLL;
        w->S.aborted = 0;
        w->P = *P;
        w->target = target;
        w->started = i == 0;
    }
    for (int i = 1; i < S->threads; i++)
        workers[i].started = pthread_create(&ids[i], NULL, worker_main, workers + i) == 0;
    worker_main(workers);
    int g = -1;
    for (int i = 0; i < S->threads; i++) {
        Worker *w = workers + i;
        if (!w->started) continue;
        if (i) pthread_join(ids[i], NULL);
        S->nodes += w->S.nodes;
        if (!w->S.aborted && g < 0) g = w->result;
    }
    return g;
#else
    return ge(S, P, target);
#endif
}

/* The exact value by null-window tests, each test's fail-soft bound setting the next target
 * (MTD(f)). Those bounds are rarely more than a point past the target, so from the default
 * first guess (half the points) the tests bisect what is left at once; from a guess given by
 * the caller (the value of a sibling move, usually near), the bounds are followed for two tests
 * first. Once [lo, hi] is at most WALK points wide the tests walk instead, from the end that
 * the side to move proves cheaply: a test goes that side's way as soon as one of its moves
 * does, and against it only once every one of its moves is refuted. So where team 1 is to move
 * the next target is hi (where team 0 is, lo + 1): that test either ends the solve, being the
 * one dear test it needs anyway, or goes the cheap way and moves the bound. Bisecting there
 * took two or three dear tests (docs/solver.md). */
#define WALK 8
static int solve_value(Solver *S, Pos *P, int guess) {
    u64 all = P->hand[0] | P->hand[1] | P->hand[2] | P->hand[3];
    if (!all) return 0; /* the deal is over */
    int hi = mask_points(S, all) + P->trick_pts + S->bonus;
    int seat = (P->leader + P->n) & 3;
    int lo = 0, follow = 2, team0_to_move = S->team[seat] == 0;
    int threaded = S->threads > 1 && !S->node_limit;
    if (guess < 0) {
        guess = (hi + 1) / 2;
        follow = 0;
    }
    for (int pass = 0; lo < hi; pass++) {
        if (guess <= lo) guess = lo + 1;
        if (guess > hi) guess = hi;
        int g = threaded ? threaded_test(S, P, guess) : ge(S, P, guess);
        if (S->aborted) return -1;
        if (g >= guess) { lo = g; guess = g + 1; } else { hi = g; guess = g; }
        if (pass >= follow)
            guess = hi - lo > WALK ? lo + (hi - lo + 1) / 2 : team0_to_move ? lo + 1 : hi;
    }
    return lo;
}

/* ---- Python binding --------------------------------------------------------------------- */

static int parse_position(Solver *S, PyObject *args, Pos *P, int *guess) {
    PyObject *hands, *trick;
    /* The search runs without the GIL: a second thread must not enter the same solver. */
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this solver is searching in another thread: give each thread its own");
        return -1;
    }
    int trump, leader;
    long long limit = 0;
    *guess = -1;
    if (!PyArg_ParseTuple(args, "OiiO|iL", &hands, &trump, &leader, &trick, guess, &limit))
        return -1;
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "node_limit must be >= 0");
        return -1;
    }
    S->aborted = 0;
    S->node_limit = limit ? S->nodes + (unsigned long long)limit : 0;
    if (trump < 0 || trump > 3 || leader < 0 || leader > 3) {
        PyErr_SetString(PyExc_ValueError, "trump and leader must be 0-3");
        return -1;
    }
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence of 4 masks");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != 4) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "hands must hold 4 masks");
        return -1;
    }
    memset(P, 0, sizeof *P);
    u64 seen = 0;
    for (int s = 0; s < 4; s++) {
        unsigned long long h = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hs, s));
        if (PyErr_Occurred()) { Py_DECREF(hs); return -1; }
        if ((h >> NCARDS) || (h & seen)) {
            Py_DECREF(hs);
            PyErr_SetString(PyExc_ValueError, "hands must be disjoint masks of cards 0-39");
            return -1;
        }
        seen |= h;
        P->hand[s] = h;
    }
    Py_DECREF(hs);
    PyObject *ts = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!ts) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
    if (n > 3) {
        Py_DECREF(ts);
        PyErr_SetString(PyExc_ValueError, "a trick in progress holds at most 3 cards");
        return -1;
    }
    S->trump = trump;
    S->trump_mask = suit_mask(trump);
    for (int w = 0; w < NCARDS; w++) {
        u64 higher = suit_mask(suit_of(w)) & above(w);
        S->beaters[w] = suit_of(w) == trump ? higher : higher | S->trump_mask;
    }
    P->leader = leader;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, i));
        if (PyErr_Occurred()) { Py_DECREF(ts); return -1; }
        if (c < 0 || c >= NCARDS || (seen >> c & 1)) {
            Py_DECREF(ts);
            PyErr_SetString(PyExc_ValueError, "trick cards must be cards 0-39 not in a hand");
            return -1;
        }
        seen |= 1ULL << c;
        int seat = (leader + (int)i) & 3;
        if (i == 0 || beats(S, (int)c, P->win_card)) {
            P->win_seat = seat;
            P->win_card = (int)c;
        }
        P->trick_pts += S->points[c];
        P->cards[P->n++] = (int)c;
    }
    Py_DECREF(ts);
    int size = popcount(P->hand[(leader + P->n) & 3]);
    for (int k = 0; k < 4; k++) {
        int seat = (leader + k) & 3;
        int want = k < P->n ? size - 1 : size;
        if (popcount(P->hand[seat]) != want) {
            PyErr_SetString(PyExc_ValueError, "hand sizes do not fit the trick in progress");
            return -1;
        }
    }
    if (size == 0 && P->n > 0) {
        PyErr_SetString(PyExc_ValueError, "hand sizes do not fit the trick in progress");
        return -1;
    }
    S->gen++;
    return 0;
}

static PyObject *Solver_value(Solver *S, PyObject *args) {
    Pos P;
    int guess;
    if (parse_position(S, args, &P, &guess) < 0) return NULL;
    int v;
    S->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    v = solve_value(S, &P, guess);
    Py_END_ALLOW_THREADS
    S->busy = 0;
    if (S->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Solver_test(Solver *S, PyObject *args) {
    Pos P;
    int target;
    if (parse_position(S, args, &P, &target) < 0) return NULL;
    return PyBool_FromLong(ge(S, &P, target) >= target);
}

/* Every legal card with team 0's points after playing it (the trick on the table included). */
static PyObject *Solver_move_values(Solver *S, PyObject *args) {
    Pos P;
    int guess;
    if (parse_position(S, args, &P, &guess) < 0) return NULL;
    int seat = (P.leader + P.n) & 3;
    u64 legal = legal_mask(S, &P, seat);
    u64 live = P.hand[0] | P.hand[1] | P.hand[2] | P.hand[3];
    for (int i = 0; i < P.n; i++) live |= 1ULL << P.cards[i];
    int values[NCARDS];
    for (int i = 0; i < NCARDS; i++) values[i] = -1;
    S->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (u64 m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m), s = suit_of(c);
        if (c % 10 < S->low_run[s]) {
            u64 below = live & suit_mask(s) & ((1ULL << c) - 1);
            if (below && (legal >> top_bit(below) & 1)) {
                values[c] = values[top_bit(below)]; /* equivalent: the same value */
                continue;
            }
        }
        Pos Q = P;
        Q.hand[seat] ^= 1ULL << c;
        if (Q.n == 0 || beats(S, c, Q.win_card)) {
            Q.win_seat = seat;
            Q.win_card = c;
        }
        Q.trick_pts += S->points[c];
        Q.cards[Q.n++] = c;
        int v;
        if (Q.n == 4) {
            int pts = Q.trick_pts;
            if (!(Q.hand[0] | Q.hand[1] | Q.hand[2] | Q.hand[3])) pts += S->bonus;
            int won = S->team[Q.win_seat] == 0 ? pts : 0;
            Q.n = 0;
            Q.leader = Q.win_seat;
            Q.trick_pts = 0;
            v = won + solve_value(S, &Q, guess < 0 ? -1 : (guess > won ? guess - won : 0));
        } else {
            v = solve_value(S, &Q, guess);
        }
        if (S->aborted) break;
        values[c] = v;
        guess = v;
    }
    Py_END_ALLOW_THREADS
    S->busy = 0;
    if (S->aborted) Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (u64 m = legal; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        PyObject *item = Py_BuildValue("(ii)", c, values[c]);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyObject *Solver_clear(Solver *S, PyObject *Py_UNUSED(ignored)) {
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    /* A new epoch empties every entry at once (pimc clears its table at every move). */
    if (++S->epoch == 0) {
        memset(S->tt, 0, (S->tt_mask + 1) * BUCKET * sizeof(Entry));
        S->epoch = 1;
    }
    Py_RETURN_NONE;
}

static PyObject *Solver_get_nodes(Solver *S, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(S->nodes);
}

static PyObject *Solver_get_threads(Solver *S, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(S->threads);
}

static PyObject *Solver_get_threaded_tests(Solver *S, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(S->threaded_tests);
}

static int Solver_init(Solver *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"points", "teams", "must_trump", "last_trick_bonus", "table_bits",
                             "threads", "solo_nodes", NULL};
    PyObject *points, *teams;
    int must_trump, bonus, bits = 18, threads = 1;
    long long solo_nodes = 10000;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOpi|iiL", kwlist, &points, &teams,
                                     &must_trump, &bonus, &bits, &threads, &solo_nodes))
        return -1;
    if (solo_nodes < 0) {
        PyErr_SetString(PyExc_ValueError, "solo_nodes must be >= 0");
        return -1;
    }
    if (bits < 4 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be 4-26");
        return -1;
    }
    if (threads < 1 || threads > THREADS_MAX) {
        PyErr_Format(PyExc_ValueError, "threads must be 1-%d", THREADS_MAX);
        return -1;
    }
    if (threads > 1 && !HAVE_THREADS) {
        PyErr_SetString(PyExc_ValueError, "this build of the solver runs on one thread only");
        return -1;
    }
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return -1;
    }
    PyObject *ps = PySequence_Fast(points, "points must be a sequence of 40 ints");
    if (!ps) return -1;
    if (PySequence_Fast_GET_SIZE(ps) != NCARDS) {
        Py_DECREF(ps);
        PyErr_SetString(PyExc_ValueError, "points must hold 40 values");
        return -1;
    }
    for (int c = 0; c < NCARDS; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ps, c));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(ps); return -1; }
        if (v < 0 || v > 500) {
            Py_DECREF(ps);
            PyErr_SetString(PyExc_ValueError, "card points must be 0-500");
            return -1;
        }
        S->points[c] = (int)v;
    }
    Py_DECREF(ps);
    PyObject *ts = PySequence_Fast(teams, "teams must be a sequence of 4 ints");
    if (!ts) return -1;
    if (PySequence_Fast_GET_SIZE(ts) != 4) {
        Py_DECREF(ts);
        PyErr_SetString(PyExc_ValueError, "teams must hold 4 seats");
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, s));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(ts); return -1; }
        if (v != 0 && v != 1) {
            Py_DECREF(ts);
            PyErr_SetString(PyExc_ValueError, "teams must be 0 or 1");
            return -1;
        }
        S->team[s] = (int)v;
    }
    Py_DECREF(ts);
    if (bonus < 0 || bonus > 1000) {
        PyErr_SetString(PyExc_ValueError, "last_trick_bonus must be 0-1000");
        return -1;
    }
    S->must_trump = must_trump;
    S->bonus = bonus;
    S->high_cards = 0;
    for (int s = 0; s < 4; s++) {
        int m = 0;
        while (m < LOW_RANKS_MAX && S->points[10 * s + m] == 0) m++;
        S->low_run[s] = m;
        S->high_cards |= SUIT_BITS << (10 * s) & ~((1ULL << (10 * s + m)) - 1);
        for (int pattern = 0; pattern < 1024; pattern++) {
            int total = 0;
            for (int r = 0; r < 10; r++)
                if (pattern >> r & 1) total += S->points[10 * s + r];
            S->suit_points[s][pattern] = total;
        }
    }
    for (int s = 0; s < 4; s++)
        for (int a = 0; a < 32 && S->low_run[s] == 5; a++)
            for (int b = 0; b < 32; b++) {
                int below, above_;
                suit_diff(S, s, (u64)a << 5, (u64)b << 5, &below, &above_);
                S->diff_below[s][a][b] = (int16_t)below;
                S->diff_above[s][a][b] = (int16_t)above_;
            }
    /* The new table and workers first: where memory runs out, the solver keeps its old ones. */
    size_t buckets = (size_t)1 << bits;
    Entry *tt = tt_alloc(buckets * BUCKET);
    Worker *workers = NULL;
#if HAVE_THREADS
    if (tt && threads > 1 && posix_memalign((void **)&workers, _Alignof(Worker),
                                            threads * sizeof(Worker)) != 0) {
        tt_free(tt, buckets * BUCKET);
        tt = NULL;
    }
#endif
    if (!tt) {
        PyErr_NoMemory();
        return -1;
    }
    tt_free(S->tt, S->tt ? (S->tt_mask + 1) * BUCKET : 0);
    S->tt = tt;
    S->tt_mask = buckets - 1;
    free(S->workers);
    S->workers = workers;
    S->threads = threads;
    S->solo_nodes = (unsigned long long)solo_nodes;
    S->worker = 0;
    S->stop = NULL;
    S->gen = 0;
    S->epoch = 1;
    S->nodes = 0;
    return 0;
}

static void Solver_dealloc(Solver *S) {
    tt_free(S->tt, (S->tt_mask + 1) * BUCKET);
    free(S->workers);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyMethodDef Solver_methods[] = {
    {"value", (PyCFunction)Solver_value, METH_VARARGS,
     "value(hands, trump, leader, trick, guess=-1, node_limit=0) -> team 0's points from "
     "here, or None when the node limit ran out first"},
    {"test", (PyCFunction)Solver_test, METH_VARARGS,
     "test(hands, trump, leader, trick, target) -> whether team 0 takes >= target"},
    {"move_values", (PyCFunction)Solver_move_values, METH_VARARGS,
     "move_values(hands, trump, leader, trick, guess=-1, node_limit=0) -> "
     "[(card, team 0's points)], or None when the node limit ran out first"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "empty the transposition table"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "search nodes visited so far", NULL},
    {"threads", (getter)Solver_get_threads, NULL,
     "threads that run each dear test (value() and move_values() without a node limit)", NULL},
    {"threaded_tests", (getter)Solver_get_threaded_tests, NULL,
     "tests so far that outgrew solo_nodes alone and ran on the threads", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sueca.solver._dds.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Double-dummy search core for one rules object (points, teams, options).\n\n"
              "Solver(points, teams, must_trump, last_trick_bonus, table_bits=18, threads=1, "
              "solo_nodes=10000)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef dds_module = {
    PyModuleDef_HEAD_INIT, "_dds", "Double-dummy search core (C) of sueca.solver.", -1, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) {
    for (int present = 0; present < 32; present++) {
        for (int held = 0; held < 32; held++) {
            int out = 0, j = 0;
            for (int r = 0; r < 5; r++) {
                if (!(present >> r & 1)) continue;
                if (held >> r & 1) out |= 1 << j;
                j++;
            }
            compress_table[present][held] = (unsigned char)out;
        }
    }
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&dds_module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_THREADS", HAVE_THREADS ? THREADS_MAX : 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
