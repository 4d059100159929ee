/* The Klaverjas double-dummy search of games/engine/klaverjas_solver.py, in C for speed.

   This is ``klaverjas_solver.KlaverjasSolver.search`` (and the methods it calls) step for
   step: the same transposition table entries, the same move ordering, the same
   equivalent-card reduction, so it visits the same positions in the same order and gives
   the same margin for every call (the tests compare both, node count included).
   ``klaverjas_solver.py`` is the readable description; read it first. This file only
   mirrors it, as ``csolver.c`` mirrors ``solver.py`` for Klammern.

   ``scripts/build_engine.py`` builds it into ``games.engine._kjsolver``. The module knows
   nothing of rules beyond the tables and switches it is given; ``count_roem`` off and
   ``all_tricks_bonus`` 90 are Belote's margin (no roem, the capot), as in the Python;
   ``free_when_outtrumped`` is Belote Contrée's legal-card rule. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_MOVE 32
/* A hint to load a table slot into the cache (gcc drops some __builtin_prefetch calls) */
#if defined(__x86_64__) || defined(__i386__)
#define PREFETCH(address) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(address)))
#else
#define PREFETCH(address) __builtin_prefetch(address)
#endif
#define OFFSET 32768
#define HALF 65535u
#define ALL_CARDS 0xFFFFFFFFu
#define LAST_TRICK_BONUS 10
#define STUK_ROEM 20

/* A table slot: key and entry side by side, one cache line (key 0 is empty). */
typedef struct {
    uint64_t key;
    uint64_t entry;
} Slot;

typedef struct {
    PyObject_HEAD
    uint32_t hands[4];
    uint32_t trump_mask;
    int trump;
    int power[32];
    uint32_t beaten_by[32];
    int value[32];
    uint32_t stuk;
    int strict_lead;
    int partner_exempt;
    int partner_exempt_trump_lead;
    int no_undertrump;
    int free_when_outtrumped; /* Belote Contrée: unable to overtrump, any card */
    int count_roem;       /* Klaverjas: roem counts; Belote: none */
    int all_tricks_bonus; /* the pit's 100 (Klaverjas) or the capot's 90 (Belote) */
    int order[4][8];
    uint8_t ranked[4][256]; /* a suit's cards (bits by rank) as bits in ``order`` */
    int suit_value[4][256]; /* the card points of each set of one suit's cards */
    /* the transposition table: open addressing, linear probing, key 0 is empty */
    Slot *slots;
    size_t capacity; /* a power of two */
    int shift;       /* 64 - log2(capacity): the hash's top bits pick the slot */
    size_t used;
    long long nodes;
    int out_of_memory; /* set when the table could not grow: the search unwinds */
} Core;

/* Roem tables (klaverjas_solver / seatwalk): filled once when the module loads. */
static int SEQUENCE_ROEM[256];
static int SEQUENCE_CAP[256];
static int LIVE_RANKS[256];
static const int FOUR_ROEM[8] = {0, 0, 0, 100, 200, 100, 100, 100};

static void fill_tables(void) {
    for (int bits = 0; bits < 256; bits++) {
        int roem = 0;
        for (int r = 0; r < 6 && roem < 20; r++) {
            if (((bits >> r) & 7) == 7) { roem = 20; }
        }
        for (int r = 0; r < 5; r++) {
            if (((bits >> r) & 15) == 15) { roem = 50; }
        }
        SEQUENCE_ROEM[bits] = roem;
        int live = 0;
        for (int r = 0; r < 8; r++) {
            for (int low = r - 2; low <= r; low++) {
                if (low < 0 || low + 2 > 7) { continue; }
                int others = ((7 << low) & ~(1 << r)) & 0xFF;
                if ((bits & others) == others) { live |= 1 << r; }
            }
        }
        LIVE_RANKS[bits] = live;
    }
    /* SEQUENCE_CAP: the most sequence roem a suit's remaining cards can make, split among
       tricks of at most 4 of them (every subset is smaller than its set: filled in order) */
    for (int bits = 0; bits < 256; bits++) {
        int best = 0;
        for (int group = bits; group; group = (group - 1) & bits) {
            if (__builtin_popcount((unsigned)group) <= 4 && SEQUENCE_ROEM[group]) {
                int v = SEQUENCE_ROEM[group] + SEQUENCE_CAP[bits & ~group];
                if (v > best) { best = v; }
            }
        }
        SEQUENCE_CAP[bits] = best;
    }
}

/* ----- the transposition table ---------------------------------------------------------- */

static size_t slot_of(const Core *self, uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> self->shift);
}

/* The entry for ``key``, or -1 (entries are below 2**40). */
static int64_t table_get(const Core *self, uint64_t key) {
    size_t i = slot_of(self, key);
    for (;;) {
        uint64_t k = self->slots[i].key;
        if (k == key) { return (int64_t)self->slots[i].entry; }
        if (k == 0) { return -1; }
        i = (i + 1) & (self->capacity - 1);
    }
}

static int table_grow(Core *self) {
    size_t old_capacity = self->capacity;
    Slot *old_slots = self->slots;
    size_t capacity = old_capacity * 2;
    Slot *slots = calloc(capacity, sizeof(Slot));
    if (slots == NULL) { return -1; }
    self->slots = slots;
    self->capacity = capacity;
    self->shift -= 1;
    for (size_t j = 0; j < old_capacity; j++) {
        if (old_slots[j].key != 0) {
            size_t i = slot_of(self, old_slots[j].key);
            while (slots[i].key != 0) { i = (i + 1) & (capacity - 1); }
            slots[i] = old_slots[j];
        }
    }
    free(old_slots);
    return 0;
}

/* Store ``entry`` under ``key``; -1 when memory ran out. */
static int table_put(Core *self, uint64_t key, uint64_t entry) {
    size_t i = slot_of(self, key);
    for (;;) {
        uint64_t k = self->slots[i].key;
        if (k == key) { self->slots[i].entry = entry; return 0; }
        if (k == 0) { break; }
        i = (i + 1) & (self->capacity - 1);
    }
    self->slots[i].key = key;
    self->slots[i].entry = entry;
    self->used += 1;
    if (self->used * 2 > self->capacity) { return table_grow(self); }
    return 0;
}

/* ----- the search (KlaverjasSolver's methods of the same names) ------------------------- */

/* The number of cards in a mask (bit arithmetic: without -mpopcnt gcc calls a library
   function for __builtin_popcount) */
static int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
static int lowest(uint32_t x) { return __builtin_ctz(x); }
static int highest(uint32_t x) { return 31 - __builtin_clz(x); }

static int roem_of(const Core *self, uint32_t mask) {
    if (!self->count_roem) { return 0; }
    int total = 0;
    for (int s = 0; s < 4; s++) { total += SEQUENCE_ROEM[(mask >> (8 * s)) & 0xFF]; }
    for (int r = 3; r < 8; r++) { /* four of a kind: only T J Q K A make roem */
        if (((mask >> r) & 0x01010101u) == 0x01010101u) { total += FOUR_ROEM[r]; }
    }
    if ((mask & self->stuk) == self->stuk) { total += STUK_ROEM; }
    return total;
}

static int bound_of(const Core *self, uint32_t cards, int clean) {
    int total = LAST_TRICK_BONUS + (clean ? self->all_tricks_bonus : 0);
    if (!self->count_roem) {
        for (int s = 0; s < 4; s++) { total += self->suit_value[s][(cards >> (8 * s)) & 0xFF]; }
        return total;
    }
    for (int s = 0; s < 4; s++) {
        int bits = (cards >> (8 * s)) & 0xFF;
        total += self->suit_value[s][bits] + SEQUENCE_CAP[bits];
    }
    for (int r = 3; r < 8; r++) { /* four of a kind: only T J Q K A make roem */
        if (((cards >> r) & 0x01010101u) == 0x01010101u) { total += FOUR_ROEM[r]; }
    }
    if ((cards & self->stuk) == self->stuk) { total += STUK_ROEM; }
    return total;
}

static int beats(const Core *self, int card, int best, int led) {
    int suit = card >> 3;
    return (suit == led || suit == self->trump) && self->power[card] > self->power[best];
}

/* The cards of ``cards`` less the equivalent ones, into ``out``; returns how many. Each
   suit's cards are visited from the weakest up through ``ranked`` (the suit's cards as
   bits in that order): the cards in ``cards`` one by one, the ``others`` between them as
   one test. */
static int distinct(const Core *self, uint32_t cards, uint32_t others, int *out) {
    if (!(cards & (cards - 1))) { /* one card (or none) */
        if (!cards) { return 0; }
        out[0] = __builtin_ctz(cards);
        return 1;
    }
    int count = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t mine = (cards >> (8 * s)) & 0xFFu;
        if (!mine) { continue; }
        uint32_t theirs = self->ranked[s][(others >> (8 * s)) & 0xFFu];
        int live = self->count_roem ? LIVE_RANKS[(others >> (8 * s)) & 0xFF] : 0;
        int prev = -1;
        for (uint32_t ranks = self->ranked[s][mine]; ranks; ranks &= ranks - 1) {
            int k = __builtin_ctz(ranks);
            int c = self->order[s][k];
            if (theirs & ((1u << k) - 1)) { prev = -1; } /* another's card between */
            theirs &= ~((2u << k) - 1);
            if ((live >> (c & 7)) & 1) {
                out[count++] = c;
                prev = -1;
                continue;
            }
            if (self->value[c] != prev) { out[count++] = c; }
            prev = self->value[c];
        }
    }
    return count;
}

static void sorted_cards(int *keys, int count, int *out) {
    for (int i = 1; i < count; i++) {
        int k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] < k) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = k;
    }
    for (int i = 0; i < count; i++) { out[i] = keys[i] & 63; }
}

static int lead_moves(const Core *self, uint32_t hand, uint32_t remaining, int first, int *out) {
    int cards[8], keys[8];
    uint32_t others = remaining & ~hand;
    int count = distinct(self, hand, others, cards);
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        uint32_t stronger = others & (0xFFu << (8 * (c >> 3)));
        int top = 1;
        while (stronger) {
            if (self->power[lowest(stronger)] > self->power[c]) { top = 0; break; }
            stronger &= stronger - 1;
        }
        int score = c == first ? 1000 : top * 30 - self->power[c] * 4;
        keys[i] = score * 64 + c;
    }
    sorted_cards(keys, count, out);
    return count;
}


static int follow_moves(const Core *self, uint32_t legal, uint32_t others, uint32_t trick_mask,
                        int best, int led, int seat, int best_seat, int *out) {
    int cards[8], keys[8];
    int count = distinct(self, legal, others | trick_mask, cards);
    if (count == 1) { out[0] = cards[0]; return 1; }
    int partner_ahead = best_seat == (seat ^ 2);
    int last = popcount32(trick_mask) == 3;
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        int v = self->value[c];
        if (last) { v += roem_of(self, trick_mask | (1u << c)); }
        int score;
        if (beats(self, c, best, led)) {
            score = 200 + (last ? v : self->power[c] * 2) - (partner_ahead ? 100 : 0);
        } else if (partner_ahead) {
            score = 150 + v;
        } else {
            score = 100 - v - self->power[c];
        }
        keys[i] = score * 64 + c;
    }
    sorted_cards(keys, count, out);
    return count;
}

static uint32_t legal_cards(const Core *self, uint32_t hand, int led, int best, int best_seat,
                            int seat) {
    uint32_t trumps = hand & self->trump_mask;
    int partner_heads = best_seat == (seat ^ 2);
    if (led == self->trump) {
        if (!trumps) { return hand; }
        uint32_t higher = trumps & self->beaten_by[best];
        if (self->strict_lead && higher && !(self->partner_exempt_trump_lead && partner_heads)) {
            return higher;
        }
        return trumps;
    }
    uint32_t follow = hand & (0xFFu << (8 * led));
    if (follow) { return follow; }
    if (!trumps) { return hand; }
    int best_is_trump = (best >> 3) == self->trump;
    if (self->partner_exempt && partner_heads) {
        if (self->no_undertrump && best_is_trump && hand != trumps) {
            return (hand & ~self->trump_mask) | (trumps & self->beaten_by[best]);
        }
        return hand;
    }
    if (best_is_trump) {
        uint32_t higher = trumps & self->beaten_by[best];
        if (higher) { return higher; }
        if (self->no_undertrump) {
            uint32_t side = hand & ~self->trump_mask;
            return side ? side : hand;
        }
        if (self->free_when_outtrumped) { return hand; }
    }
    return trumps;
}

static int last_trick(const Core *self, uint32_t remaining, int leader, int clean) {
    int best = highest(self->hands[leader] & remaining);
    int led = best >> 3;
    int winner = leader;
    int total = LAST_TRICK_BONUS + roem_of(self, remaining);
    for (int pos = 0; pos < 4; pos++) {
        int seat = (leader + pos) & 3;
        int c = highest(self->hands[seat] & remaining);
        total += self->value[c];
        if (pos && beats(self, c, best, led)) { best = c; winner = seat; }
    }
    if (clean && (winner & 1) == (leader & 1)) { total += self->all_tricks_bonus; }
    return (winner & 1) == 0 ? total : -total;
}

static int lead(Core *self, uint32_t remaining, int leader, int clean, int alpha, int beta);

static int trick_done(Core *self, uint32_t rest, int leader, int clean, int winner, int points,
                      uint32_t trick_mask, int alpha, int beta) {
    int won = points + roem_of(self, trick_mask);
    int still = (rest | trick_mask) == ALL_CARDS || (clean && (winner & 1) == (leader & 1));
    if (rest == 0) {
        won += LAST_TRICK_BONUS + (still ? self->all_tricks_bonus : 0);
        return (winner & 1) == 0 ? won : -won;
    }
    if ((winner & 1) == 0) { return won + lead(self, rest, winner, still, alpha - won, beta - won); }
    return -won + lead(self, rest, winner, still, alpha + won, beta + won);
}

/* Ask the memory for the table slots of the trick boundaries that the last card of a
   trick can reach, while its moves are sorted: the table's lookups wait on memory most
   of all. Only the speed changes. */
static void prefetch_leads(const Core *self, uint32_t remaining, uint32_t legal, int leader,
                           int clean, int led, int best, int best_seat, int seat,
                           uint32_t trick_mask) {
    for (uint32_t cards = legal; cards; cards &= cards - 1) {
        int c = lowest(cards);
        uint32_t rest = remaining ^ (1u << c);
        int winner = beats(self, c, best, led) ? seat : best_seat;
        int still = (rest | trick_mask | (1u << c)) == ALL_CARDS ||
                    (clean && (winner & 1) == (leader & 1));
        uint64_t key = (uint64_t)rest | ((uint64_t)winner << 32) | ((uint64_t)still << 34);
        PREFETCH(&self->slots[slot_of(self, key)]);
    }
}

static int follow(Core *self, uint32_t remaining, int leader, int clean, int n, int led,
                  int best, int best_seat, int points, uint32_t trick_mask, int alpha,
                  int beta) {
    self->nodes += 1;
    int seat = (leader + n) & 3;
    uint32_t hand = self->hands[seat] & remaining;
    uint32_t legal = legal_cards(self, hand, led, best, best_seat, seat);
    if (n == 3 && popcount32(remaining) > 5) {
        prefetch_leads(self, remaining, legal, leader, clean, led, best, best_seat, seat,
                       trick_mask);
    }
    int maximising = (seat & 1) == 0;
    int moves[8];
    int count = follow_moves(self, legal, remaining & ~hand, trick_mask, best, led, seat,
                             best_seat, moves);
    int result = maximising ? -100000 : 100000;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        int nb = best, ns = best_seat;
        if (beats(self, c, best, led)) { nb = c; ns = seat; }
        int v;
        if (n < 3) {
            v = follow(self, remaining ^ (1u << c), leader, clean, n + 1, led, nb, ns,
                       points + self->value[c], trick_mask | (1u << c), alpha, beta);
        } else {
            v = trick_done(self, remaining ^ (1u << c), leader, clean, ns,
                           points + self->value[c], trick_mask | (1u << c), alpha, beta);
        }
        if (self->out_of_memory) { return 0; }
        if (maximising) {
            if (v > result) {
                result = v;
                if (v > alpha) { alpha = v; }
            }
        } else if (v < result) {
            result = v;
            if (v < beta) { beta = v; }
        }
        if (alpha >= beta) { break; }
    }
    return result;
}

static int lead(Core *self, uint32_t remaining, int leader, int clean, int alpha, int beta) {
    self->nodes += 1;
    if (remaining == 0) { return 0; }
    int top = bound_of(self, remaining, clean);
    if (top <= alpha) { return top; }
    if (-top >= beta) { return -top; }
    /* the last trick is never stored: no lookup */
    if (popcount32(remaining) == 4) { return last_trick(self, remaining, leader, clean); }
    uint64_t key = (uint64_t)remaining | ((uint64_t)leader << 32) | ((uint64_t)(clean ? 1 : 0) << 34);
    int64_t entry = table_get(self, key);
    int lower = -top, upper = top, first = NO_MOVE;
    if (entry >= 0) {
        lower = (int)(entry & HALF) - OFFSET;
        upper = (int)((entry >> 16) & HALF) - OFFSET;
        first = (int)(entry >> 32);
        if (lower >= beta || lower == upper) { return lower; }
        if (upper <= alpha) { return upper; }
    }
    int a = alpha > lower ? alpha : lower;
    int b = beta < upper ? beta : upper;
    uint32_t hand = self->hands[leader] & remaining;
    int maximising = (leader & 1) == 0;
    int moves[8];
    int count = lead_moves(self, hand, remaining, first, moves);
    int result = maximising ? -100000 : 100000;
    int best_move = NO_MOVE;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        int v = follow(self, remaining ^ (1u << c), leader, clean, 1, c >> 3, c, leader,
                       self->value[c], 1u << c, a, b);
        if (self->out_of_memory) { return 0; }
        if (maximising) {
            if (v > result) {
                result = v;
                best_move = c;
                if (v > a) { a = v; }
            }
        } else if (v < result) {
            result = v;
            best_move = c;
            if (v < b) { b = v; }
        }
        if (a >= b) { break; }
    }
    if (result <= alpha) {
        if (result < upper) { upper = result; }
    } else if (result >= beta) {
        if (result > lower) { lower = result; }
    } else {
        lower = upper = result;
    }
    uint64_t packed = (uint64_t)(lower + OFFSET) | ((uint64_t)(upper + OFFSET) << 16) |
                      ((uint64_t)best_move << 32);
    if (table_put(self, key, packed)) {
        self->out_of_memory = 1;
        return 0;
    }
    return result;
}

/* ----- the Python type ------------------------------------------------------------------ */

/* Read a sequence of exactly ``count`` ints into ``out``. */
static int read_ints(PyObject *sequence, int count, long long *out, const char *name) {
    PyObject *fast = PySequence_Fast(sequence, name);
    if (fast == NULL) { return -1; }
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: %d values expected", name, count);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"hands", "trump", "trump_mask", "power", "beaten_by", "value",
                            "order", "stuk", "strict_lead", "partner_exempt",
                            "partner_exempt_trump_lead", "no_undertrump", "count_roem",
                            "all_tricks_bonus", "free_when_outtrumped", NULL};
    PyObject *hands, *power, *beaten_by, *value, *order;
    int trump, strict_lead, partner_exempt, partner_exempt_trump_lead, no_undertrump;
    int count_roem = 1, all_tricks_bonus = 100, free_when_outtrumped = 0;
    unsigned long long trump_mask, stuk;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiKOOOOKpppp|pip", names, &hands, &trump,
                                     &trump_mask, &power, &beaten_by, &value, &order, &stuk,
                                     &strict_lead, &partner_exempt, &partner_exempt_trump_lead,
                                     &no_undertrump, &count_roem, &all_tricks_bonus,
                                     &free_when_outtrumped)) {
        return -1;
    }
    long long buffer[32];
    if (read_ints(hands, 4, buffer, "hands")) { return -1; }
    for (int i = 0; i < 4; i++) { self->hands[i] = (uint32_t)buffer[i]; }
    if (read_ints(power, 32, buffer, "power")) { return -1; }
    for (int i = 0; i < 32; i++) { self->power[i] = (int)buffer[i]; }
    if (read_ints(beaten_by, 32, buffer, "beaten_by")) { return -1; }
    for (int i = 0; i < 32; i++) { self->beaten_by[i] = (uint32_t)buffer[i]; }
    if (read_ints(value, 32, buffer, "value")) { return -1; }
    for (int i = 0; i < 32; i++) { self->value[i] = (int)buffer[i]; }
    for (int suit = 0; suit < 4; suit++) {
        for (int bits = 0; bits < 256; bits++) {
            int total = 0;
            for (int r = 0; r < 8; r++) {
                if ((bits >> r) & 1) { total += self->value[8 * suit + r]; }
            }
            self->suit_value[suit][bits] = total;
        }
    }
    if (read_ints(order, 32, buffer, "order")) { return -1; }
    for (int i = 0; i < 32; i++) {
        if (buffer[i] < 0 || buffer[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "order: cards are 0-31");
            return -1;
        }
        self->order[i / 8][i % 8] = (int)buffer[i];
    }
    for (int s = 0; s < 4; s++) {
        for (int k = 0; k < 8; k++) {
            if (self->order[s][k] >> 3 != s) {
                PyErr_SetString(PyExc_ValueError, "order: each suit's eight cards in turn");
                return -1;
            }
        }
        for (int bits = 0; bits < 256; bits++) {
            uint32_t ranks = 0;
            for (int k = 0; k < 8; k++) {
                if ((bits >> (self->order[s][k] & 7)) & 1) { ranks |= 1u << k; }
            }
            self->ranked[s][bits] = (uint8_t)ranks;
        }
    }
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump: a suit 0-3");
        return -1;
    }
    self->trump = trump;
    self->trump_mask = (uint32_t)trump_mask;
    self->stuk = (uint32_t)stuk;
    self->strict_lead = strict_lead;
    self->partner_exempt = partner_exempt;
    self->partner_exempt_trump_lead = partner_exempt_trump_lead;
    self->no_undertrump = no_undertrump;
    self->free_when_outtrumped = free_when_outtrumped;
    self->count_roem = count_roem;
    self->all_tricks_bonus = all_tricks_bonus;
    free(self->slots);
    self->capacity = 1 << 12;
    self->used = 0;
    self->nodes = 0;
    self->shift = 64 - 12;
    self->slots = calloc(self->capacity, sizeof(Slot));
    if (self->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    free(self->slots);
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

/* search(remaining, leader, trick, clean, alpha, beta): KlaverjasSolver.search's value. */
static PyObject *Core_search(Core *self, PyObject *args) {
    unsigned long long remaining_arg;
    int leader, clean, alpha, beta;
    PyObject *trick_arg;
    if (!PyArg_ParseTuple(args, "KiOpii", &remaining_arg, &leader, &trick_arg, &clean, &alpha,
                          &beta)) {
        return NULL;
    }
    if (self->slots == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core was not initialised");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(trick_arg, "trick: a list of cards");
    if (fast == NULL) { return NULL; }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int trick[3] = {0, 0, 0};
    if (n > 3 || leader < 0 || leader > 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a trick holds at most 3 cards; a seat is 0-3");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        if (c < 0 || c > 31) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "cards are 0-31");
            return NULL;
        }
        trick[i] = (int)c;
    }
    Py_DECREF(fast);
    uint32_t remaining = (uint32_t)remaining_arg;
    uint32_t mask = 0;
    for (Py_ssize_t i = 0; i < n; i++) { mask |= 1u << trick[i]; }
    int value;
    self->out_of_memory = 0;
    if (n == 0) {
        value = lead(self, remaining, leader, clean, alpha, beta);
    } else {
        int led = trick[0] >> 3, best = trick[0], best_seat = leader;
        int points = self->value[trick[0]];
        for (Py_ssize_t pos = 1; pos < n; pos++) {
            int c = trick[pos];
            points += self->value[c];
            if (beats(self, c, best, led)) { best = c; best_seat = (leader + (int)pos) & 3; }
        }
        value = follow(self, remaining, leader, clean, (int)n, led, best, best_seat, points, mask,
                       alpha, beta);
    }
    if (self->out_of_memory) { return PyErr_NoMemory(); }
    return PyLong_FromLong(value);
}

static PyObject *Core_get_nodes(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)Core_search, METH_VARARGS,
     "search(remaining, leader, trick, clean, alpha, beta) -> int: fail-soft alpha-beta margin"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "positions visited so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Core_slots[] = {
    {Py_tp_doc, "The search of one deal; its transposition table lives as long as it does."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Core_init},
    {Py_tp_dealloc, Core_dealloc},
    {Py_tp_methods, Core_methods},
    {Py_tp_getset, Core_getset},
    {0, NULL},
};

static PyType_Spec Core_spec = {
    .name = "games.engine._kjsolver.Core",
    .basicsize = sizeof(Core),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Core_slots,
};

static int module_exec(PyObject *module) {
    fill_tables();
    PyObject *type = PyType_FromSpec(&Core_spec);
    if (type == NULL) { return -1; }
    if (PyModule_AddObject(module, "Core", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.engine._kjsolver",
    .m_doc = "The C Klaverjas search of games.engine.klaverjas_solver (see kjsolver.c).",
    .m_size = 0,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__kjsolver(void) { return PyModuleDef_Init(&module_def); }
