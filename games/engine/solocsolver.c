/* The search of games/engine/solo_solver.py (Klammern for 2 or 3 players), in C for speed.

   This is the same alpha-beta search as ``solo_solver.SoloSolver.search`` (and the
   functions it calls), step for step: the same transposition table entries, the same
   move ordering, the same equivalent-card reduction, so it visits the same positions in
   the same order and gives the same value for every call (the tests compare both, node
   count included). ``solo_solver.py`` is the readable description; read it first. This
   file only mirrors it; its table code is csolver.c's.

   ``scripts/build_engine.py`` builds it into ``games.engine._solocsolver`` beside the
   mypyc-compiled modules; without that build (or with KLAMMERN_ENGINE=python) the
   Python search runs instead. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_MOVE 32
#define BITS 10
#define FIELD_MASK 1023u
/* A hint to load a table slot into the cache (gcc drops some __builtin_prefetch calls) */
#if defined(__x86_64__) || defined(__i386__)
#define PREFETCH(address) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(address)))
#else
#define PREFETCH(address) __builtin_prefetch(address)
#endif
#define KEY_BITS 35 /* key: remaining | leader << 32 | took << 34; entry: 26 bits */
#define KEY_MASK ((1ull << KEY_BITS) - 1)
#define INFINITE 1000
#define LAST_BONUS 10
#define SUIT_MASK(s) (0xFFu << (8 * (s)))

typedef struct {
    PyObject_HEAD
    uint32_t hands[3];
    int players;
    int declarer;
    int meld_bonus;
    uint32_t trump_mask;
    uint32_t defence; /* the defenders' cards, all of them */
    int trump;
    int power[32];
    uint32_t beaten_by[32];
    int value[32];
    int strict_lead;
    int no_undertrump;
    int order[4][8];
    uint8_t ranked[4][256]; /* a suit's cards (bits by rank) as bits in ``order`` */
    /* the transposition table: open addressing, linear probing; each slot holds the key
       (KEY_BITS bits) and the entry above it, 0 is empty */
    uint64_t *slots;
    size_t capacity; /* a power of two */
    int shift;       /* 64 - log2(capacity): the hash's top bits pick the slot */
    size_t used;
    long long nodes;
    int out_of_memory; /* set when the table could not grow: the search unwinds */
} Core;

/* ----- the transposition table ---------------------------------------------------------- */

static size_t slot_of(const Core *self, uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> self->shift);
}

/* The entry for ``key``, or -1. */
static int64_t table_get(const Core *self, uint64_t key) {
    size_t i = slot_of(self, key);
    for (;;) {
        uint64_t slot = self->slots[i];
        if ((slot & KEY_MASK) == key) { return (int64_t)(slot >> KEY_BITS); }
        if (slot == 0) { return -1; }
        i = (i + 1) & (self->capacity - 1);
    }
}

static int table_grow(Core *self) {
    size_t old_capacity = self->capacity;
    uint64_t *old_slots = self->slots;
    size_t capacity = old_capacity * 2;
    uint64_t *slots = calloc(capacity, sizeof(uint64_t));
    if (slots == NULL) { return -1; }
    self->slots = slots;
    self->capacity = capacity;
    self->shift -= 1;
    for (size_t j = 0; j < old_capacity; j++) {
        if (old_slots[j] != 0) {
            size_t i = slot_of(self, old_slots[j] & KEY_MASK);
            while (slots[i] != 0) { i = (i + 1) & (capacity - 1); }
            slots[i] = old_slots[j];
        }
    }
    free(old_slots);
    return 0;
}

/* Store ``entry`` under ``key``; -1 when memory ran out. */
static int table_put(Core *self, uint64_t key, uint32_t entry) {
    size_t i = slot_of(self, key);
    uint64_t packed = key | (uint64_t)entry << KEY_BITS;
    for (;;) {
        uint64_t slot = self->slots[i];
        if ((slot & KEY_MASK) == key) { self->slots[i] = packed; return 0; }
        if (slot == 0) { break; }
        i = (i + 1) & (self->capacity - 1);
    }
    self->slots[i] = packed;
    self->used += 1;
    if (self->used * 2 > self->capacity) { return table_grow(self); }
    return 0;
}

/* ----- the search (solo_solver.SoloSolver's methods of the same names) ------------------ */

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

static int available(const Core *self, uint32_t cards, int took) {
    if (!cards) { return 0; }
    int total = LAST_BONUS + (took ? 0 : self->meld_bonus);
    while (cards) {
        total += self->value[lowest(cards)];
        cards &= cards - 1;
    }
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
        int prev = -1;
        for (uint32_t ranks = self->ranked[s][mine]; ranks; ranks &= ranks - 1) {
            int k = __builtin_ctz(ranks);
            int c = self->order[s][k];
            if (theirs & ((1u << k) - 1)) { prev = -1; } /* another's card between */
            theirs &= ~((2u << k) - 1);
            if (self->value[c] != prev) { out[count++] = c; }
            prev = self->value[c];
        }
    }
    return count;
}

/* Sort ``keys`` (score * 64 + card) from the highest down and leave the cards in ``out``. */
static void sorted_cards(int *keys, int count, int *out) {
    for (int i = 1; i < count; i++) {
        int k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] < k) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = k;
    }
    for (int i = 0; i < count; i++) { out[i] = keys[i] & 63; }
}

static int lead_moves(const Core *self, uint32_t hand, uint32_t remaining, int first, int *out) {
    int cards[9], keys[9];
    uint32_t others = remaining & ~hand;
    int count = distinct(self, hand, others, cards);
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        uint32_t stronger = others & SUIT_MASK(c >> 3);
        int top = 1;
        while (stronger) {
            if (self->power[lowest(stronger)] > self->power[c]) { top = 0; break; }
            stronger &= stronger - 1;
        }
        int score = c == first ? 1000
                               : top * 100 + self->power[c] * 4 + self->value[c] / 4;
        keys[i] = score * 64 + c;
    }
    sorted_cards(keys, count, out);
    return count;
}

static int follow_moves(const Core *self, uint32_t legal, uint32_t others, int best, int led,
                        int seat, int best_seat, int *out) {
    int cards[9], keys[9];
    int count = distinct(self, legal, others, cards);
    if (count == 1) { out[0] = cards[0]; return 1; }
    int own_ahead = seat != self->declarer && best_seat != self->declarer;
    for (int i = 0; i < count; i++) {
        int c = cards[i];
        int v = self->value[c];
        int score;
        if (beats(self, c, best, led)) {
            score = 200 + self->power[c] * 2 - (own_ahead ? 100 : 0);
        } else if (own_ahead) {
            score = 150 + v;
        } else {
            score = 100 - v - self->power[c];
        }
        keys[i] = score * 64 + c;
    }
    sorted_cards(keys, count, out);
    return count;
}

static uint32_t legal_cards(const Core *self, uint32_t hand, int led, int best) {
    uint32_t trumps = hand & self->trump_mask;
    if (led == self->trump) {
        if (!trumps) { return hand; }
        uint32_t higher = trumps & self->beaten_by[best];
        return (self->strict_lead && higher) ? higher : trumps;
    }
    uint32_t follow = hand & SUIT_MASK(led);
    if (follow) { return follow; }
    if (!trumps) { return hand; }
    if ((best >> 3) == self->trump) {
        uint32_t higher = trumps & self->beaten_by[best];
        if (higher) { return higher; }
        if (self->no_undertrump) {
            uint32_t side = hand & ~self->trump_mask;
            return side ? side : hand;
        }
    }
    return trumps;
}

static int last_trick(const Core *self, uint32_t remaining, int leader, int took) {
    int best = highest(self->hands[leader] & remaining);
    int led = best >> 3;
    int winner = leader;
    int total = self->value[best];
    for (int pos = 1; pos < self->players; pos++) {
        int seat = (leader + pos) % self->players;
        int c = highest(self->hands[seat] & remaining);
        total += self->value[c];
        if (beats(self, c, best, led)) { best = c; winner = seat; }
    }
    if (winner != self->declarer) { return 0; }
    return total + LAST_BONUS + (took ? 0 : self->meld_bonus);
}

static int lead(Core *self, uint32_t remaining, int leader, int took, int avail, int alpha,
                int beta);

/* What the trumps alone settle at a trick boundary. A defender's trump above every trump
   the declarer still holds wins its trick for the defence, whoever leads: its points are
   ``*lost`` to the declarer. A declarer's trump above every trump the defence still holds
   wins its trick for the declarer: its points are ``*sure``, with the meld bonus when it is
   not yet earned. */
static void trump_bounds(const Core *self, uint32_t remaining, int took, int *sure,
                         int *lost) {
    uint32_t own = remaining & self->trump_mask & self->hands[self->declarer];
    uint32_t theirs = remaining & self->trump_mask & self->defence;
    int own_top = -1, their_top = -1;
    for (uint32_t cards = own; cards; cards &= cards - 1) {
        int p = self->power[lowest(cards)];
        if (p > own_top) { own_top = p; }
    }
    for (uint32_t cards = theirs; cards; cards &= cards - 1) {
        int p = self->power[lowest(cards)];
        if (p > their_top) { their_top = p; }
    }
    int won = 0, count = 0, gone = 0;
    for (uint32_t cards = own; cards; cards &= cards - 1) {
        int c = lowest(cards);
        if (self->power[c] > their_top) { won += self->value[c]; count += 1; }
    }
    for (uint32_t cards = theirs; cards; cards &= cards - 1) {
        int c = lowest(cards);
        if (self->power[c] > own_top) { gone += self->value[c]; }
    }
    *sure = won + (count && !took ? self->meld_bonus : 0);
    *lost = gone;
}

/* Ask the memory for the table slots of the trick boundaries that the last card of a
   trick can reach, while its moves are sorted: the table's lookups wait on memory most
   of all. Only the speed changes. */
static void prefetch_leads(const Core *self, uint32_t remaining, uint32_t legal, int led,
                           int best, int best_seat, int seat, int took) {
    for (uint32_t cards = legal; cards; cards &= cards - 1) {
        int c = lowest(cards);
        uint32_t rest = remaining ^ (1u << c);
        int winner = beats(self, c, best, led) ? seat : best_seat;
        int now = winner == self->declarer ? 1 : took;
        uint64_t key = (uint64_t)rest | ((uint64_t)winner << 32) | ((uint64_t)now << 34);
        PREFETCH(&self->slots[slot_of(self, key)]);
    }
}

static int follow(Core *self, uint32_t remaining, int leader, int n, int led, int best,
                  int best_seat, int points, uint32_t trick_mask, int took, int avail,
                  int alpha, int beta) {
    self->nodes += 1;
    int seat = (leader + n) % self->players;
    uint32_t hand = self->hands[seat] & remaining;
    uint32_t legal = legal_cards(self, hand, led, best);
    int maximising = seat == self->declarer;
    int moves[9];
    int count = follow_moves(self, legal, (remaining & ~hand) | trick_mask, best, led, seat,
                             best_seat, moves);
    int last = n == self->players - 1;
    if (last && popcount32(remaining) > self->players + 1) {
        prefetch_leads(self, remaining, legal, led, best, best_seat, seat, took);
    }
    int result = maximising ? -1 : INFINITE;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        int nb = best, ns = best_seat;
        if (beats(self, c, best, led)) { nb = c; ns = seat; }
        int v;
        if (!last) {
            v = follow(self, remaining ^ (1u << c), leader, n + 1, led, nb, ns,
                       points + self->value[c], trick_mask | (1u << c), took, avail, alpha,
                       beta);
        } else {
            uint32_t rest = remaining ^ (1u << c);
            int won = points + self->value[c] + (rest == 0 ? LAST_BONUS : 0);
            if (ns == self->declarer) {
                if (!took) { won += self->meld_bonus; }
                v = won + lead(self, rest, ns, 1, avail - won, alpha - won, beta - won);
            } else {
                v = lead(self, rest, ns, took, avail - won, alpha, beta);
            }
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

static int lead(Core *self, uint32_t remaining, int leader, int took, int avail, int alpha,
                int beta) {
    self->nodes += 1;
    if (remaining == 0) { return 0; }
    if (avail <= alpha) { return avail; }
    if (beta <= 0) { return 0; }
    /* the last trick is never stored: no lookup */
    if (popcount32(remaining) == self->players) {
        return last_trick(self, remaining, leader, took);
    }
    int sure, lost;
    trump_bounds(self, remaining, took, &sure, &lost);
    if (avail - lost <= alpha) { return avail - lost; }
    if (sure >= beta) { return sure; }
    uint64_t key = (uint64_t)remaining | ((uint64_t)leader << 32) | ((uint64_t)took << 34);
    int64_t entry = table_get(self, key);
    int lower = sure, upper = avail - lost, first = NO_MOVE;
    if (entry >= 0) {
        lower = (int)(entry & FIELD_MASK);
        upper = (int)((entry >> BITS) & FIELD_MASK);
        first = (int)(entry >> (2 * BITS));
        if (lower >= beta || lower == upper) { return lower; }
        if (upper <= alpha) { return upper; }
    }
    int a = alpha > lower ? alpha : lower;
    int b = beta < upper ? beta : upper;
    uint32_t hand = self->hands[leader] & remaining;
    int maximising = leader == self->declarer;
    int moves[9];
    int count = lead_moves(self, hand, remaining, first, moves);
    int result = maximising ? -1 : INFINITE;
    int best_move = NO_MOVE;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        int v = follow(self, remaining ^ (1u << c), leader, 1, c >> 3, c, leader,
                       self->value[c], 1u << c, took, avail, a, b);
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
    uint32_t packed = (uint32_t)lower | (uint32_t)upper << BITS | (uint32_t)best_move << (2 * BITS);
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
    static char *names[] = {"hands", "declarer", "meld_bonus", "trump", "trump_mask", "power",
                            "beaten_by", "value", "order", "strict_lead", "no_undertrump",
                            NULL};
    PyObject *hands, *power, *beaten_by, *value, *order;
    int declarer, meld_bonus, trump, strict_lead, no_undertrump;
    unsigned long long trump_mask;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiiiKOOOOpp", names, &hands, &declarer,
                                     &meld_bonus, &trump, &trump_mask, &power, &beaten_by,
                                     &value, &order, &strict_lead, &no_undertrump)) {
        return -1;
    }
    long long buffer[32];
    Py_ssize_t players = PySequence_Size(hands);
    if (players < 0) { return -1; }
    if (players < 2 || players > 3) {
        PyErr_SetString(PyExc_ValueError, "hands: 2 or 3 hands");
        return -1;
    }
    if (read_ints(hands, (int)players, buffer, "hands")) { return -1; }
    for (int i = 0; i < players; i++) { self->hands[i] = (uint32_t)buffer[i]; }
    self->players = (int)players;
    if (read_ints(power, 32, buffer, "power")) { return -1; }
    for (int i = 0; i < 32; i++) { self->power[i] = (int)buffer[i]; }
    if (read_ints(beaten_by, 32, buffer, "beaten_by")) { return -1; }
    for (int i = 0; i < 32; i++) { self->beaten_by[i] = (uint32_t)buffer[i]; }
    if (read_ints(value, 32, buffer, "value")) { return -1; }
    for (int i = 0; i < 32; i++) { self->value[i] = (int)buffer[i]; }
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
    if (trump < 0 || trump > 3 || declarer < 0 || declarer >= players || meld_bonus < 0 ||
        meld_bonus > 500) {
        PyErr_SetString(PyExc_ValueError, "trump 0-3, declarer a seat, meld_bonus 0-500");
        return -1;
    }
    self->declarer = declarer;
    self->defence = 0;
    for (int i = 0; i < players; i++) {
        if (i != declarer) { self->defence |= self->hands[i]; }
    }
    self->meld_bonus = meld_bonus;
    self->trump = trump;
    self->trump_mask = (uint32_t)trump_mask;
    self->strict_lead = strict_lead;
    self->no_undertrump = no_undertrump;
    free(self->slots);
    self->capacity = 1 << 16; /* a 3-player deal's search fills some 10^5 entries */
    self->used = 0;
    self->nodes = 0;
    self->shift = 64 - 16;
    self->slots = calloc(self->capacity, sizeof(uint64_t));
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

/* search(remaining, leader, trick, took, alpha, beta): SoloSolver.search's value. */
static PyObject *Core_search(Core *self, PyObject *args) {
    unsigned long long remaining_arg;
    int leader, took, alpha, beta;
    PyObject *trick_arg;
    if (!PyArg_ParseTuple(args, "KiOpii", &remaining_arg, &leader, &trick_arg, &took, &alpha,
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
    int trick[2];
    if (n >= self->players || leader < 0 || leader >= self->players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a trick holds fewer cards than players; a seat");
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
    int avail = available(self, remaining | mask, took);
    int value;
    self->out_of_memory = 0;
    if (n == 0) {
        value = lead(self, remaining, leader, took, avail, alpha, beta);
    } else {
        int led = trick[0] >> 3, best = trick[0], best_seat = leader;
        int points = self->value[trick[0]];
        for (Py_ssize_t pos = 1; pos < n; pos++) {
            int c = trick[pos];
            points += self->value[c];
            if (beats(self, c, best, led)) {
                best = c;
                best_seat = (leader + (int)pos) % self->players;
            }
        }
        value = follow(self, remaining, leader, (int)n, led, best, best_seat, points, mask,
                       took, avail, alpha, beta);
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
     "search(remaining, leader, trick, took, alpha, beta) -> int: fail-soft alpha-beta"},
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
    .name = "games.engine._solocsolver.Core",
    .basicsize = sizeof(Core),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Core_slots,
};

static int module_exec(PyObject *module) {
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
    .m_name = "games.engine._solocsolver",
    .m_doc = "The C search of games.engine.solo_solver (see solocsolver.c).",
    .m_size = 0,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__solocsolver(void) { return PyModuleDef_Init(&module_def); }
