/* coup.rules._rng: the game's generator (SplitMix64, coup/rules/rng.py) in C.
 *
 * The hand-written C part of the compiled rules core that shuffles: `shuffle(state,
 * items)` is `coup.rules.rng.shuffle` exactly (the same Fisher-Yates over the same
 * SplitMix64 outputs, the same index for each position by Lemire's multiply-shift, the
 * same new state), in machine words instead of Python's arbitrary-precision integers:
 * every state of the generator is below 2**64, which Python's ints carry as several
 * digits, so each step of the pure version makes new int objects. `rng.py` calls it where
 * the compiled core runs and it was built from the source beside it; the pure version
 * stays the reference, and a test compares the two over many states and lengths.
 *
 * Only Python's C API: coup.rules still needs nothing but the standard library.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* The high 64 bits of z * m for m < 2**32 (Lemire's index), without 128-bit integers. */
static inline uint64_t high_of_product(uint64_t z, uint64_t m) {
    uint64_t low = (z & 0xFFFFFFFFu) * m;  /* < 2**64 */
    uint64_t high = (z >> 32) * m;         /* < 2**64 - 2**33 */
    return (high + (low >> 32)) >> 32;     /* no carry out: the sum stays below 2**64 */
}

static PyObject *shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "shuffle takes 2 arguments (state, items), not %zd",
                     nargs);
        return NULL;
    }
    if (!PyLong_Check(args[0]) || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "shuffle(state, items): an int and a list");
        return NULL;
    }
    uint64_t state = PyLong_AsUnsignedLongLong(args[0]); /* OverflowError outside 0..2**64 */
    if (state == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *items = args[1];
    int refused = 0;
#ifdef Py_BEGIN_CRITICAL_SECTION
    /* without the GIL: no other thread changes the list while it is shuffled (its lock,
     * as the list's own methods take it) */
    Py_BEGIN_CRITICAL_SECTION(items);
#endif
    Py_ssize_t length = PyList_GET_SIZE(items);
    if ((uint64_t)length > 0xFFFFFFFFu) {
        refused = 1;
    } else {
        for (Py_ssize_t i = length - 1; i > 0; i--) {
            state += 0x9E3779B97F4A7C15u;
            uint64_t z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9u;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
            Py_ssize_t j = (Py_ssize_t)high_of_product(z ^ (z >> 31), (uint64_t)i + 1);
            /* a swap: the list keeps the same references, so no reference counts change */
            PyObject *swap = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, swap);
        }
    }
#ifdef Py_END_CRITICAL_SECTION
    Py_END_CRITICAL_SECTION();
#endif
    if (refused) {
        PyErr_SetString(PyExc_ValueError, "shuffle: more than 2**32 items");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(state);
}

static PyMethodDef rng_methods[] = {
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(state, items) -> new state: coup.rules.rng.shuffle, in machine words"},
    {NULL, NULL, 0, NULL},
};

#ifndef COUP_C_SOURCE /* setup.py defines it: the SHA-256 of this file */
#define COUP_C_SOURCE "unknown"
#endif

static int rng_exec(PyObject *m) { return PyModule_AddStringConstant(m, "SOURCE", COUP_C_SOURCE); }

static PyModuleDef_Slot rng_slots[] = {
    {Py_mod_exec, rng_exec},
#ifdef Py_mod_multiple_interpreters
    /* no state at all: fine in any interpreter, each with its own GIL */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_mod_gil
    /* safe without the GIL: `shuffle` keeps no state and holds the list's own lock while
     * it swaps its items */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef rng_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "coup.rules._rng",
    .m_doc = "The game's generator (SplitMix64) shuffling in machine words (the compiled core).",
    .m_size = 0,
    .m_methods = rng_methods,
    .m_slots = rng_slots,
};

PyMODINIT_FUNC PyInit__rng(void) { return PyModuleDef_Init(&rng_module); }
