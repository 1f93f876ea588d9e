/* coup.rules._rng: the game's generator (SplitMix64, coup/rules/rng.py) in C.
 *
 * The hand-written C part of the compiled rules core that shuffles: `shuffle(state,
 * items)` is `coup.rules.rng.shuffle` exactly (the same Fisher-Yates over the same
 * SplitMix64 outputs, the same index for each position by Lemire's multiply-shift, the
 * same new state), in machine words instead of Python's arbitrary-precision integers:
 * every state of the generator is below 2**64, which Python's ints carry as several
 * digits, so each step of the pure version makes new int objects (a deal's shuffle took
 * about 4 us compiled by mypyc). `rng.py` calls it where the compiled core runs and it
 * was built from the source beside it; the pure version stays the reference, and a test
 * compares the two over many states and lengths.
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
    PyObject **items = ((PyListObject *)args[1])->ob_item;
    Py_ssize_t length = PyList_GET_SIZE(args[1]);
    if ((uint64_t)length > 0xFFFFFFFFu) {
        PyErr_SetString(PyExc_ValueError, "shuffle: more than 2**32 items");
        return NULL;
    }
    for (Py_ssize_t i = length - 1; i > 0; i--) {
        state += 0x9E3779B97F4A7C15u;
        uint64_t z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        Py_ssize_t j = (Py_ssize_t)high_of_product(z ^ (z >> 31), (uint64_t)i + 1);
        PyObject *swap = items[i]; /* a swap: the list keeps the same references */
        items[i] = items[j];
        items[j] = swap;
    }
    return PyLong_FromUnsignedLongLong(state);
}

static PyMethodDef rng_methods[] = {
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(state, items) -> new state: coup.rules.rng.shuffle, in machine words"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef rng_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "coup.rules._rng",
    .m_doc = "The game's generator (SplitMix64) shuffling in machine words (the compiled core).",
    .m_size = -1,
    .m_methods = rng_methods,
};

#ifndef COUP_C_SOURCE /* setup.py defines it: the SHA-256 of this file */
#define COUP_C_SOURCE "unknown"
#endif

PyMODINIT_FUNC PyInit__rng(void) {
    PyObject *m = PyModule_Create(&rng_module);
    if (m == NULL) return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE", COUP_C_SOURCE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
