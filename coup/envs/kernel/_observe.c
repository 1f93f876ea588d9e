/* coup.envs.kernel._observe: a seat's observation vector written straight into a buffer.
 *
 * The hand-written C part of the compiled learning kernel. `Writer.observe` writes one
 * seat's float32 vector into a bytearray at an offset, every value at the place the layout
 * gives (coup/envs/kernel/layout.py: the writer is handed each field's offset and size when
 * made, and checks that they lie within the vector). The pure-Python writer,
 * `Features.observe_blocks`, places the same values from the same layout; a test compares
 * both with a reference that encodes the view dict, over random games of every table
 * shape. `Features` reads the state's fields (cheap in compiled code) and passes them
 * here, so this file knows the fields' types but not the State class; the names (cards,
 * phases, actions, verbs, allegiances) come from the layout too.
 *
 * Only Python's C API: the kernel needs nothing but the standard library and coup.rules.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_NAMES 32
#define SLOTS 256 /* places in a Names table: a power of two, more than MAX_KEYS */
#define MAX_KEYS 96

/* Names and their numbers, found by the string object's identity in a small hash table of
 * pointers: the dict's own keys, then each other string object found equal to one through
 * the dict (the engine's constants are a handful of objects; up to MAX_KEYS are
 * remembered, any others are looked up in the dict every time). */
typedef struct {
    int count;
    PyObject *keys[SLOTS];
    int values[SLOTS];
    PyObject *dict; /* str -> int */
} Names;

static inline size_t place(PyObject *key) { return ((size_t)key >> 4) & (SLOTS - 1); }

static void names_clear(Names *t) {
    for (int i = 0; i < SLOTS; i++) Py_CLEAR(t->keys[i]);
    t->count = 0;
    Py_CLEAR(t->dict);
}

/* Remember `key` (a reference is taken) as `value`. */
static void names_add(Names *t, PyObject *key, int value) {
    size_t i = place(key);
    while (t->keys[i] != NULL) {
        if (t->keys[i] == key) return;
        i = (i + 1) & (SLOTS - 1);
    }
    Py_INCREF(key);
    t->keys[i] = key;
    t->values[i] = value;
    t->count++;
}

/* `dict`'s names, numbered 0..limit-1 (a limit of 0: below the dict's size). */
static int names_init(Names *t, PyObject *dict, const char *what, long limit) {
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "%s: a dict of names to numbers", what);
        return -1;
    }
    if (PyDict_GET_SIZE(dict) > MAX_NAMES) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d names", what, MAX_NAMES);
        return -1;
    }
    if (limit == 0) limit = (long)PyDict_GET_SIZE(dict);
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        long v = PyLong_AsLong(value);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= limit) { /* every number is a place in its field */
            PyErr_Format(PyExc_ValueError, "%s: numbers 0..%ld", what, limit - 1);
            return -1;
        }
        names_add(t, key, (int)v);
    }
    Py_INCREF(dict);
    t->dict = dict;
    return 0;
}

/* The number of `name`, or -1 if it has none; -2 with an exception set. */
static int names_find(Names *t, PyObject *name) {
    size_t i = place(name);
    PyObject *key;
    while ((key = t->keys[i]) != NULL) {
        if (key == name) return t->values[i];
        i = (i + 1) & (SLOTS - 1);
    }
    PyObject *v = PyDict_GetItemWithError(t->dict, name);
    if (v == NULL) return PyErr_Occurred() ? -2 : -1;
    int value = (int)PyLong_AsLong(v);
    if (t->count < MAX_KEYS && PyUnicode_CheckExact(name)) names_add(t, name, value);
    return value;
}

/* One history entry, as every viewer needs it. */
struct Decoded {
    long mover, audience; /* audience -1: none */
    int verb;
    int kind;  /* 0: no argument shown; 1: a seat, `value`; 2: a character slot, `value` */
    long value;
};

/* A field of the layout: its offset (from the start of what holds it) and size. */
typedef struct {
    Py_ssize_t at, size;
} Place;

/* Where the layout puts every field (coup/envs/kernel/layout.py). The vector's fields are
 * placed from its start; a seat block's from the block's start (`seat` is the block
 * itself: its size), a history entry's from the entry's start (`entry`). */
typedef struct {
    Place hand, seats, phase, treasury, court, reserve, actor, action, target, claim,
        block_seat, block_claim, challenger, loser, drawn, shown_card, shown_seat, known_court,
        history;
    Place seat, alive, influence, coins, can_assassinate, can_coup, must_coup, revealed, turn,
        waiting, passed, known, allegiance;
    Place entry, present, mover, verb, character, target_seat;
} Places;

typedef struct {
    PyObject_HEAD
    int made; /* __init__ succeeded */
    int n, history, reformation;
    Py_ssize_t size; /* floats in the vector */
    int verbs_count, actions_count, phases_count;
    Places p;
    PyObject *seats[MAX_NAMES]; /* the int objects of seats 0..n-1 */
    int phase_exchange, phase_examine, phase_lose; /* -1 where the layout has none */
    char quiet[MAX_NAMES];   /* per phase: no action under way (action, draft, ...) */
    char private[MAX_NAMES]; /* per verb: its argument is private (keep, show, draft) */
    Names slots, phases, actions, verbs, allegiances;
    /* the history entries decoded for the game seen last: `decoded[k]` is entry `base + k`
     * of the list `seen` (a reference kept, so it stays that list), whose entry
     * `base + count - 1` is `last` (also kept): the same list grown by some moves is
     * decoded from there on, anything else from the start of the window */
    PyObject *seen, *last;
    Py_ssize_t base, count, capacity;
    struct Decoded *decoded;
} Writer;

/* The number of `name`, which must have one (a KeyError otherwise, as the dict says). */
static int names_need(Names *t, PyObject *name) {
    int v = names_find(t, name);
    if (v == -1) {
        PyErr_SetObject(PyExc_KeyError, name);
        return -2;
    }
    return v;
}

static inline float clip(float v) { return v > 1.0f ? 1.0f : v; }

/* Python's (a - b) % n for n > 0 (without a division for seats 0..n-1). */
static inline long rel(long a, long b, long n) {
    long r = a - b;
    if (r < 0) r += n;
    if (r >= 0 && r < n) return r;
    r = (a - b) % n;
    return r < 0 ? r + n : r;
}

/* An int's value (-1 with an exception set if it is not an int or does not fit). */
static inline long as_long(PyObject *o) { return PyLong_AsLong(o); }

/* A seat number, or -1 for None; -2 with an exception set. */
static long seat_or_none(PyObject *o) {
    if (o == Py_None) return -1;
    long v = as_long(o);
    if (v == -1 && PyErr_Occurred()) return -2;
    return v;
}

/* Add `scale` at the slot of each card of the tuple or list `cards`, from `out`, each
 * count clipped to 1. */
static int add_cards(Writer *w, PyObject *cards, float *out, float scale) {
    int tuple = PyTuple_Check(cards);
    if (!tuple && !PyList_Check(cards)) {
        PyErr_SetString(PyExc_TypeError, "cards must be a tuple or a list");
        return -1;
    }
    Py_ssize_t count = tuple ? PyTuple_GET_SIZE(cards) : PyList_GET_SIZE(cards);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *card = tuple ? PyTuple_GET_ITEM(cards, k) : PyList_GET_ITEM(cards, k);
        int slot = names_need(&w->slots, card);
        if (slot < 0) return -1;
        out[slot] = clip(out[slot] + scale);
    }
    return 0;
}

/* Is `seat` (whose int object is `obj`) in the tuple of seats? By identity first: small
 * ints are one object each in CPython. */
static int in_seats(PyObject *tuple, long seat, PyObject *obj) {
    Py_ssize_t count = PyTuple_GET_SIZE(tuple);
    for (Py_ssize_t k = 0; k < count; k++)
        if (PyTuple_GET_ITEM(tuple, k) == obj) return 1;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, k);
        if (PyLong_Check(item) && as_long(item) == seat) return 1;
    }
    return 0;
}

/* -- Writer(players, history, reformation, size, offsets, slots, phases, actions, verbs,
 *           allegiances, quiet, private) --------------------------------------------------- */
static void forget(Writer *w);

static void Writer_dealloc(Writer *w) {
    names_clear(&w->slots);
    names_clear(&w->phases);
    names_clear(&w->actions);
    names_clear(&w->verbs);
    names_clear(&w->allegiances);
    for (int i = 0; i < w->n; i++) Py_CLEAR(w->seats[i]);
    forget(w);
    PyMem_Free(w->decoded);
    PyTypeObject *type = Py_TYPE(w);
    type->tp_free((PyObject *)w);
    Py_DECREF(type); /* instances of a heap type hold a reference to it */
}

/* Set `flags[k]` for the number k of each name in `which` that has one. */
static int mark(Names *t, PyObject *which, char *flags) {
    PyObject *iter = PyObject_GetIter(which);
    if (iter == NULL) return -1;
    PyObject *name;
    while ((name = PyIter_Next(iter)) != NULL) {
        int v = names_find(t, name);
        Py_DECREF(name);
        if (v == -2) {
            Py_DECREF(iter);
            return -1;
        }
        if (v >= 0) flags[v] = 1;
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) return -1;
    return 0;
}

/* `offsets[name]`, an (offset, size) pair of ints, into `out`: its size must be `size`
 * (any, if negative) and it must lie within `room` floats. */
static int field_place(PyObject *offsets, const char *name, Py_ssize_t size, Py_ssize_t room,
                 Place *out) {
    PyObject *pair = PyDict_GetItemString(offsets, name); /* borrowed */
    if (pair == NULL || !PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_ValueError, "offsets: %s must be an (offset, size) pair", name);
        return -1;
    }
    out->at = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 0));
    out->size = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
    if ((out->at == -1 || out->size == -1) && PyErr_Occurred()) return -1;
    if ((size >= 0 && out->size != size) || out->at < 0 || out->size < 0 ||
        out->size > room - out->at) {
        PyErr_Format(PyExc_ValueError,
                     "offsets: %s at %zd, %zd floats, is not a field of %zd floats within %zd",
                     name, out->at, out->size, size, room);
        return -1;
    }
    return 0;
}

/* Every field the writer writes, from `offsets` (Layout.offsets()), checked to lie within
 * the vector, its seat blocks and its history entries. */
static int places(Writer *w, PyObject *offsets) {
    Places *p = &w->p;
    Py_ssize_t n = w->n, size = w->size;
    if (!PyDict_Check(offsets)) {
        PyErr_SetString(PyExc_TypeError, "offsets: a dict of names to (offset, size)");
        return -1;
    }
    if (field_place(offsets, "seat", -1, size, &p->seat) < 0 ||
        field_place(offsets, "entry", -1, size, &p->entry) < 0)
        return -1;
    Py_ssize_t seat = p->seat.size, entry = p->entry.size;
    struct {
        const char *name;
        Py_ssize_t size, room;
        Place *out;
    } fields[] = {
        {"hand", 5, size, &p->hand},
        {"seats", seat * n, size, &p->seats},
        {"phase", w->phases_count, size, &p->phase},
        {"treasury", 1, size, &p->treasury},
        {"court", 1, size, &p->court},
        {"pending.actor", n, size, &p->actor},
        {"pending.action", w->actions_count, size, &p->action},
        {"pending.target", n, size, &p->target},
        {"pending.claim", 5, size, &p->claim},
        {"block.seat", n, size, &p->block_seat},
        {"block.claim", 5, size, &p->block_claim},
        {"challenger", n, size, &p->challenger},
        {"loser", n, size, &p->loser},
        {"drawn", 5, size, &p->drawn},
        {"shown.card", 5, size, &p->shown_card},
        {"shown.seat", n, size, &p->shown_seat},
        {"known.court", 5, size, &p->known_court},
        {"history", entry * w->history, size, &p->history},
        {"seat.alive", 1, seat, &p->alive},
        {"seat.influence", 1, seat, &p->influence},
        {"seat.coins", 1, seat, &p->coins},
        {"seat.can_assassinate", 1, seat, &p->can_assassinate},
        {"seat.can_coup", 1, seat, &p->can_coup},
        {"seat.must_coup", 1, seat, &p->must_coup},
        {"seat.revealed", 5, seat, &p->revealed},
        {"seat.turn", 1, seat, &p->turn},
        {"seat.waiting", 1, seat, &p->waiting},
        {"seat.passed", 1, seat, &p->passed},
        {"seat.known", 5, seat, &p->known},
        {"entry.present", 1, entry, &p->present},
        {"entry.mover", n, entry, &p->mover},
        {"entry.verb", w->verbs_count, entry, &p->verb},
        {"entry.character", 5, entry, &p->character},
        {"entry.target", n, entry, &p->target_seat},
    };
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        if (field_place(offsets, fields[k].name, fields[k].size, fields[k].room, fields[k].out) < 0)
            return -1;
    if (w->reformation &&
        (field_place(offsets, "reserve", 1, size, &p->reserve) < 0 ||
         field_place(offsets, "seat.allegiance", 2, seat, &p->allegiance) < 0))
        return -1;
    return 0;
}

static int Writer_init(Writer *w, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"players", "history", "reformation", "size",   "offsets",
                             "slots",   "phases",  "actions",     "verbs",  "allegiances",
                             "quiet",   "private", NULL};
    int n, history, reformation;
    Py_ssize_t size;
    PyObject *offsets, *slots, *phases, *actions, *verbs, *allegiances, *quiet, *private;
    if (w->slots.dict != NULL || w->n) {
        PyErr_SetString(PyExc_RuntimeError, "a Writer is made once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iipnOOOOOOOO", kwlist, &n, &history,
                                     &reformation, &size, &offsets, &slots, &phases, &actions,
                                     &verbs, &allegiances, &quiet, &private))
        return -1;
    if (n < 2 || history < 0 || size < 1) {
        PyErr_SetString(PyExc_ValueError, "players >= 2, history >= 0, size >= 1");
        return -1;
    }
    if (n > MAX_NAMES) {
        PyErr_Format(PyExc_ValueError, "at most %d players", MAX_NAMES);
        return -1;
    }
    w->history = history;
    w->reformation = reformation;
    w->size = size;
    /* five character slots, two allegiances; phases, actions and verbs one place each */
    if (names_init(&w->slots, slots, "slots", 5) < 0 ||
        names_init(&w->phases, phases, "phases", 0) < 0 ||
        names_init(&w->actions, actions, "actions", 0) < 0 ||
        names_init(&w->verbs, verbs, "verbs", 0) < 0 ||
        names_init(&w->allegiances, allegiances, "allegiances", 2) < 0)
        return -1;
    w->verbs_count = (int)PyDict_GET_SIZE(verbs);
    w->actions_count = (int)PyDict_GET_SIZE(actions);
    w->phases_count = (int)PyDict_GET_SIZE(phases);
    w->n = n; /* the seats' places are checked against it */
    if (places(w, offsets) < 0) return -1;
    for (int i = 0; i < n; i++) {
        w->seats[i] = PyLong_FromLong(i);
        if (w->seats[i] == NULL) return -1;
    }
    memset(w->quiet, 0, sizeof w->quiet);
    memset(w->private, 0, sizeof w->private);
    if (mark(&w->phases, quiet, w->quiet) < 0 || mark(&w->verbs, private, w->private) < 0)
        return -1;
    PyObject *name;
    name = PyUnicode_FromString("exchange");
    w->phase_exchange = name ? names_find(&w->phases, name) : -2;
    Py_XDECREF(name);
    name = PyUnicode_FromString("examine");
    w->phase_examine = name ? names_find(&w->phases, name) : -2;
    Py_XDECREF(name);
    name = PyUnicode_FromString("lose");
    w->phase_lose = name ? names_find(&w->phases, name) : -2;
    Py_XDECREF(name);
    if (w->phase_exchange == -2 || w->phase_examine == -2 || w->phase_lose == -2) return -1;
    w->made = 1;
    return 0;
}

/* The seats' blocks, the viewer's first, then clockwise. */
static int write_seats(Writer *w, float *v, long me, PyObject *hands, PyObject *coins,
                       PyObject *revealed, PyObject *alive, long turn, PyObject *waiting,
                       PyObject *passed, PyObject *known_hands, PyObject *allegiance) {
    const Places *p = &w->p;
    long n = w->n;
    int knowing = PyDict_GET_SIZE(known_hands) > 0;
    long i = me;
    for (long k = 0; k < n; k++) {
        float *s = v + p->seats.at + k * p->seat.size;
        PyObject *hand = PyList_GET_ITEM(hands, i);
        long c = as_long(PyList_GET_ITEM(coins, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (!PyTuple_Check(hand)) {
            PyErr_SetString(PyExc_TypeError, "hands must be tuples");
            return -1;
        }
        int up = PyObject_IsTrue(PyList_GET_ITEM(alive, i));
        if (up < 0) return -1;
        s[p->alive.at] = up ? 1.0f : 0.0f;
        s[p->influence.at] = clip((float)((double)PyTuple_GET_SIZE(hand) * 0.5));
        s[p->coins.at] = (float)((double)(c < 12 ? c : 12) / 12.0);
        s[p->can_assassinate.at] = c >= 3 ? 1.0f : 0.0f;
        s[p->can_coup.at] = c >= 7 ? 1.0f : 0.0f;
        s[p->must_coup.at] = c >= 10 ? 1.0f : 0.0f;
        if (add_cards(w, PyList_GET_ITEM(revealed, i), s + p->revealed.at, 0.5f) < 0) return -1;
        s[p->turn.at] = i == turn ? 1.0f : 0.0f;
        s[p->waiting.at] = in_seats(waiting, i, w->seats[i]) ? 1.0f : 0.0f;
        s[p->passed.at] = in_seats(passed, i, w->seats[i]) ? 1.0f : 0.0f;
        if (k && knowing) {
            PyObject *key = Py_BuildValue("(ll)", me, i);
            if (key == NULL) return -1;
            PyObject *cards = PyDict_GetItemWithError(known_hands, key);
            Py_DECREF(key);
            if (cards == NULL && PyErr_Occurred()) return -1;
            if (cards != NULL && add_cards(w, cards, s + p->known.at, 0.5f) < 0) return -1;
        }
        if (w->reformation) {
            int side = PyTuple_GET_ITEM(allegiance, i) == Py_None
                           ? -1
                           : names_need(&w->allegiances, PyTuple_GET_ITEM(allegiance, i));
            if (side == -2) return -1;
            if (side >= 0) s[p->allegiance.at + side] = 1.0f;
        }
        if (++i == n) i = 0;
    }
    return 0;
}

/* The action under way and what the viewer was shown (zeros when nothing is under way
 * and the viewer knows nothing of the Court). */
static int write_pending(Writer *w, float *v, long me, int phase, PyObject *const *f) {
    /* f: known_court, actor, action, target, claim, block_seat, block_claim, challenger,
     *    loser, drawn, shown */
    const Places *p = &w->p;
    long n = w->n;
    PyObject *known_court = f[0], *court = NULL;
    if (PyDict_GET_SIZE(known_court)) {
        PyObject *key = PyLong_FromLong(me);
        if (key == NULL) return -1;
        court = PyDict_GetItemWithError(known_court, key);
        Py_DECREF(key);
        if (court == NULL && PyErr_Occurred()) return -1;
        if (court != NULL && PyTuple_Check(court) && PyTuple_GET_SIZE(court) == 0) court = NULL;
    }
    int quiet = w->quiet[phase];
    if (quiet && court == NULL) return 0;
    if (!quiet) {
        long actor = seat_or_none(f[1]), target = seat_or_none(f[3]);
        long blocker = seat_or_none(f[5]), challenger = seat_or_none(f[7]);
        long loser = seat_or_none(f[8]);
        if (actor == -2 || target == -2 || blocker == -2 || challenger == -2 || loser == -2)
            return -1;
        long target_rel = target < 0 ? -1 : rel(target, me, n);
        if (actor >= 0) v[p->actor.at + rel(actor, me, n)] = 1.0f;
        int action = names_need(&w->actions, f[2]);
        if (action < 0) return -1;
        v[p->action.at + action] = 1.0f;
        if (target_rel >= 0) v[p->target.at + target_rel] = 1.0f;
        if (PyUnicode_Check(f[4])) {
            int slot = names_need(&w->slots, f[4]);
            if (slot < 0) return -1;
            v[p->claim.at + slot] = 1.0f;
        }
        if (blocker >= 0 && PyUnicode_Check(f[6])) {
            int slot = names_need(&w->slots, f[6]);
            if (slot < 0) return -1;
            v[p->block_seat.at + rel(blocker, me, n)] = 1.0f;
            v[p->block_claim.at + slot] = 1.0f;
        }
        if (challenger >= 0) v[p->challenger.at + rel(challenger, me, n)] = 1.0f;
        if (loser >= 0 && phase == w->phase_lose) v[p->loser.at + rel(loser, me, n)] = 1.0f;
        if (phase == w->phase_exchange && me == actor) {
            if (add_cards(w, f[9], v + p->drawn.at, 0.5f) < 0) return -1;
        } else if (phase == w->phase_examine && (me == actor || me == target) &&
                   PyUnicode_Check(f[10]) && target_rel >= 0) {
            int slot = names_need(&w->slots, f[10]);
            if (slot < 0) return -1;
            v[p->shown_card.at + slot] = 1.0f;
            v[p->shown_seat.at + target_rel] = 1.0f;
        }
    }
    if (court != NULL && add_cards(w, court, v + p->known_court.at, 0.5f) < 0) return -1;
    return 0;
}

/* Decode entry `entry` of a history into `d`; -1 with an exception set. */
static int decode(Writer *w, PyObject *entry, struct Decoded *d) {
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 6) {
        PyErr_SetString(PyExc_TypeError, "a history entry is a tuple of six");
        return -1;
    }
    PyObject *move = PyTuple_GET_ITEM(entry, 1);
    if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 2) {
        PyErr_SetString(PyExc_TypeError, "a move is a (verb, arg) tuple");
        return -1;
    }
    d->mover = as_long(PyTuple_GET_ITEM(entry, 0));
    d->audience = seat_or_none(PyTuple_GET_ITEM(entry, 5));
    if ((d->mover == -1 || d->audience == -2) && PyErr_Occurred()) return -1;
    d->verb = names_need(&w->verbs, PyTuple_GET_ITEM(move, 0));
    if (d->verb < 0) return -1;
    PyObject *arg = PyTuple_GET_ITEM(move, 1);
    d->kind = 0;
    if (arg == Py_None || PyTuple_Check(arg)) return 0;
    if (PyLong_Check(arg)) {
        d->value = as_long(arg);
        if (d->value == -1 && PyErr_Occurred()) return -1;
        d->kind = 1;
        return 0;
    }
    int slot = names_find(&w->slots, arg);
    if (slot == -2) return -1;
    if (slot >= 0) {
        d->kind = 2;
        d->value = slot;
    }
    return 0;
}

static void forget(Writer *w) {
    Py_CLEAR(w->seen);
    Py_CLEAR(w->last);
    w->base = w->count = 0;
}

/* Make `decoded` hold the entries of `history` from `first` on; -1 on error. */
static int decode_history(Writer *w, PyObject *history, Py_ssize_t first) {
    Py_ssize_t length = PyList_GET_SIZE(history);
    Py_ssize_t end = w->base + w->count;
    if (history != w->seen || w->count == 0 || w->base > first || end > length ||
        PyList_GET_ITEM(history, end - 1) != w->last) {
        /* another game, an older state or a copy: from the window's start */
        forget(w);
        w->base = first;
    } else if (w->count > 4 * (Py_ssize_t)w->history + 64) { /* a long game: drop the oldest */
        Py_ssize_t drop = first - w->base;
        memmove(w->decoded, w->decoded + drop, (size_t)(w->count - drop) * sizeof *w->decoded);
        w->base += drop;
        w->count -= drop;
    }
    Py_ssize_t need = length - w->base;
    if (need > w->capacity) {
        Py_ssize_t capacity = need + need / 2 + 16;
        struct Decoded *grown = PyMem_Realloc(w->decoded, (size_t)capacity * sizeof *grown);
        if (grown == NULL) {
            forget(w);
            PyErr_NoMemory();
            return -1;
        }
        w->decoded = grown;
        w->capacity = capacity;
    }
    for (Py_ssize_t k = w->base + w->count; k < length; k++) {
        if (decode(w, PyList_GET_ITEM(history, k), w->decoded + (k - w->base)) < 0) {
            forget(w);
            return -1;
        }
        w->count++;
    }
    if (w->count) {
        PyObject *last = PyList_GET_ITEM(history, length - 1);
        if (history != w->seen) {
            Py_INCREF(history);
            Py_XSETREF(w->seen, history);
        }
        if (last != w->last) {
            Py_INCREF(last);
            Py_XSETREF(w->last, last);
        }
    }
    return 0;
}

/* The last `history` moves, newest first, as `me` sees them. */
static int write_history(Writer *w, float *v, long me, PyObject *history) {
    const Places *p = &w->p;
    long n = w->n;
    Py_ssize_t length = PyList_GET_SIZE(history);
    Py_ssize_t first = length > w->history ? length - w->history : 0;
    if (length == 0) return 0;
    if (decode_history(w, history, first) < 0) return -1;
    float *e = v + p->history.at;
    for (Py_ssize_t k = length - 1; k >= first; k--, e += p->entry.size) {
        struct Decoded *d = w->decoded + (k - w->base);
        e[p->present.at] = 1.0f;
        e[p->mover.at + rel(d->mover, me, n)] = 1.0f;
        e[p->verb.at + d->verb] = 1.0f;
        if (d->kind == 0 || (w->private[d->verb] && me != d->mover && me != d->audience))
            continue;
        if (d->kind == 1)
            e[p->target_seat.at + rel(d->value, me, n)] = 1.0f;
        else
            e[p->character.at + d->value] = 1.0f;
    }
    return 0;
}

#define FIELDS 30
static const char *field_names[FIELDS] = {
    "target", "at", "me", "hands", "coins", "revealed", "alive_flags", "turn", "waiting",
    "passed", "known_hands", "allegiance", "phase", "treasury", "settings_treasury",
    "court", "copies", "reserve", "known_court", "actor", "action", "target_seat", "claim",
    "block_seat", "block_claim", "challenger", "loser", "drawn", "shown", "history"};

static PyObject *Writer_observe(Writer *w, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != FIELDS) {
        PyErr_Format(PyExc_TypeError, "observe takes %d arguments (%s, ...), not %zd", FIELDS,
                     field_names[0], nargs);
        return NULL;
    }
    if (!w->made) {
        PyErr_SetString(PyExc_RuntimeError, "the Writer was not made");
        return NULL;
    }
    const Places *p = &w->p;
    PyObject *out = args[0];
    Py_ssize_t at = PyLong_AsSsize_t(args[1]);
    long me = as_long(args[2]);
    long turn = as_long(args[7]);
    long treasury = as_long(args[13]), settings_treasury = as_long(args[14]);
    long court = as_long(args[15]), copies = as_long(args[16]);
    long reserve = as_long(args[17]);
    if (PyErr_Occurred()) return NULL;
    PyObject *hands = args[3], *coins = args[4], *revealed = args[5], *alive = args[6];
    PyObject *waiting = args[8], *passed = args[9], *known_hands = args[10];
    PyObject *allegiance = args[11], *history = args[29];
    long n = w->n;
    if (!PyByteArray_Check(out)) {
        PyErr_SetString(PyExc_TypeError, "observe writes into a bytearray");
        return NULL;
    }
    if (at < 0 || at % 4 || PyByteArray_GET_SIZE(out) - at < 4 * w->size) {
        PyErr_Format(PyExc_ValueError, "no room for %zd floats at byte %zd of %zd", w->size,
                     at, PyByteArray_GET_SIZE(out));
        return NULL;
    }
    if (!PyList_Check(hands) || !PyList_Check(coins) || !PyList_Check(revealed) ||
        !PyList_Check(alive) || !PyTuple_Check(waiting) || !PyTuple_Check(passed) ||
        !PyDict_Check(known_hands) || !PyTuple_Check(allegiance) || !PyDict_Check(args[18]) ||
        !PyList_Check(history)) {
        PyErr_SetString(PyExc_TypeError, "a state's fields of the wrong types");
        return NULL;
    }
    if (PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(coins) != n ||
        PyList_GET_SIZE(revealed) != n || PyList_GET_SIZE(alive) != n ||
        (w->reformation && PyTuple_GET_SIZE(allegiance) != n) || me < 0 || me >= n) {
        PyErr_Format(PyExc_ValueError, "not a state of a %ld-seat table, or no seat %ld", n, me);
        return NULL;
    }
    char *base = PyByteArray_AS_STRING(out) + at;
    if ((Py_uintptr_t)base % sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "the buffer is not aligned for float32");
        return NULL;
    }
    float *v = (float *)base;
    memset(v, 0, 4 * (size_t)w->size);
    if (add_cards(w, PyList_GET_ITEM(hands, me), v + p->hand.at, 0.5f) < 0) return NULL;
    if (write_seats(w, v, me, hands, coins, revealed, alive, turn, waiting, passed, known_hands,
                    allegiance) < 0)
        return NULL;
    /* the table: phase, treasury, Court, Reserve */
    int phase = names_need(&w->phases, args[12]);
    if (phase < 0) return NULL;
    v[p->phase.at + phase] = 1.0f;
    double start = (double)(settings_treasury > 1 ? settings_treasury : 1);
    v[p->treasury.at] = clip((float)((double)treasury / start));
    v[p->court.at] = clip((float)((double)court / (double)(5 * copies)));
    if (w->reformation) v[p->reserve.at] = (float)((double)(reserve < 12 ? reserve : 12) / 12.0);
    if (write_pending(w, v, me, phase, args + 18) < 0) return NULL;
    if (w->history && write_history(w, v, me, history) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef Writer_methods[] = {
    {"observe", (PyCFunction)(void (*)(void))Writer_observe, METH_FASTCALL,
     "observe(target, at, me, hands, coins, revealed, alive_flags, turn, waiting, passed, "
     "known_hands, allegiance, phase, treasury, settings_treasury, court, copies, reserve, "
     "known_court, actor, action, target_seat, claim, block_seat, block_claim, challenger, "
     "loser, drawn, shown, history): write seat `me`'s vector into the bytearray `target` "
     "from byte `at` (the state's fields, as coup.envs.kernel.features.Features.write passes "
     "them)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *Writer_size(Writer *w, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(w->size);
}

static PyGetSetDef Writer_getset[] = {
    {"size", (getter)Writer_size, NULL, "floats in the vector", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Writer_slots[] = {
    {Py_tp_doc, "Writes observation vectors of one layout (made by coup.envs.kernel.c_writer)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, (initproc)Writer_init},
    {Py_tp_dealloc, (destructor)Writer_dealloc},
    {Py_tp_methods, Writer_methods},
    {Py_tp_getset, Writer_getset},
    {0, NULL},
};

static PyType_Spec Writer_spec = {
    .name = "coup.envs.kernel._observe.Writer",
    .basicsize = sizeof(Writer),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = Writer_slots,
};

#ifndef COUP_C_SOURCE /* setup.py defines it: the SHA-256 of this file */
#define COUP_C_SOURCE "unknown"
#endif

/* The module's contents: the Writer class (a type of this module, so that each
 * interpreter that imports it has its own) and the digest of the source it was built from. */
static int observe_exec(PyObject *m) {
    PyObject *type = PyType_FromModuleAndSpec(m, &Writer_spec, NULL);
    if (type == NULL) return -1;
    int added = PyModule_AddObjectRef(m, "Writer", type);
    Py_DECREF(type);
    if (added < 0) return -1;
    return PyModule_AddStringConstant(m, "SOURCE", COUP_C_SOURCE);
}

static PyModuleDef_Slot observe_slots[] = {
    {Py_mod_exec, observe_exec},
#ifdef Py_mod_multiple_interpreters
    /* no state outside the module's own objects: fine in any interpreter, each with its
     * own GIL */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_mod_gil
    /* Not safe without the GIL: `observe` reads the state's lists and dicts through
     * borrowed references and keeps a per-Writer cache of decoded history entries, both of
     * which another thread could change in the middle of a call. Under a free-threaded
     * Python importing this module keeps the GIL on. */
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef observe_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "coup.envs.kernel._observe",
    .m_doc = "A seat's observation vector written straight into a buffer (the compiled kernel).",
    .m_size = 0,
    .m_slots = observe_slots,
};

PyMODINIT_FUNC PyInit__observe(void) { return PyModuleDef_Init(&observe_module); }
