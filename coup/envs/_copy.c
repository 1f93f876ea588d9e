/* coup.envs._copy: `copy(array)`, a new numpy array with the same contents as `array`,
 * what `array.copy()` returns, in about half its time for the learning environments' small
 * observation vectors and masks (numpy's copy() goes through its general machinery of
 * orders, strides and casts; here a C-contiguous array is one allocation and a memcpy).
 *
 * `Copier()`, called with an array, returns what `copy` does, but takes back the arrays it
 * handed out once nobody holds them any more: it keeps the last few copies of each array
 * it is called with, and an earlier copy whose only reference is the Copier's own (no
 * variable, container, view, buffer or weak reference of anybody's reaches it) gets the
 * new contents instead of a new array being made. Nobody can tell such an array from a
 * new one: whoever holds a copy keeps it unchanged, as with `copy`. An environment that
 * hands out new arrays at every step (PettingZoo's `copy=True`, Gymnasium's step) so
 * makes them without an allocation and a deallocation each, when its caller lets go of
 * them, as a loop that looks at one observation at a time does.
 *
 * Built by setup.py against numpy's headers where numpy is at build time; the
 * environments use `array.copy()` where it was not built (coup/envs/arrays.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

static PyObject *copy_array(PyObject *module, PyObject *arg) {
    (void)module;
    if (!PyArray_CheckExact(arg)) /* a subclass, or not an array: its own copy() */
        return PyObject_CallMethod(arg, "copy", NULL);
    PyArrayObject *array = (PyArrayObject *)arg;
    PyArray_Descr *descr = PyArray_DESCR(array);
    /* strided, or holding references (object fields): numpy's own copy, C order */
    if (!PyArray_IS_C_CONTIGUOUS(array) || PyDataType_REFCHK(descr))
        return PyArray_NewCopy(array, NPY_CORDER);
    Py_INCREF(descr); /* PyArray_NewFromDescr steals it */
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, descr, PyArray_NDIM(array),
                                         PyArray_DIMS(array), NULL, NULL, 0, NULL);
    if (out == NULL) return NULL;
    npy_intp bytes = PyArray_NBYTES(array);
    if (bytes) memcpy(PyArray_DATA((PyArrayObject *)out), PyArray_DATA(array), (size_t)bytes);
    return out;
}


/* ---- Copier: copies that come back once nobody holds them ------------------------------ */

#define SOURCES 4 /* arrays a Copier keeps copies of (an environment copies two or three) */
#define KEPT 3    /* copies kept of each: the one in the caller's hands, and spares */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;          /* calls without an argument tuple */
    PyObject *sources[SOURCES];         /* the arrays copied (strong references) */
    PyArrayObject *kept[SOURCES][KEPT]; /* copies of each handed out (strong; or NULL) */
    int next[SOURCES];                  /* the copy to forget next when none is free */
    Py_ssize_t recycled, made;          /* copies handed out again, and made new */
} Copier;

/* `copy` of `array` may be written into `old` instead: the Copier's reference is its only
 * one, no weak reference reaches it, and it still is what `copy` makes of `array` (its
 * owner may have changed its shape, dtype or flags in place while holding it). */
static int free_copy_of(PyArrayObject *old, PyArrayObject *array) {
#ifdef Py_GIL_DISABLED
    (void)old, (void)array;
    return 0; /* reference counts are not a proof of "nobody" without the GIL */
#else
    const int flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_OWNDATA | NPY_ARRAY_WRITEABLE;
    int nd = PyArray_NDIM(array);
    return Py_REFCNT(old) == 1 && ((PyArrayObject_fields *)old)->weakreflist == NULL &&
           Py_TYPE(old) == &PyArray_Type && (PyArray_FLAGS(old) & flags) == flags &&
           PyArray_BASE(old) == NULL && PyArray_DESCR(old) == PyArray_DESCR(array) &&
           PyArray_NDIM(old) == nd &&
           (nd == 0 || memcmp(PyArray_DIMS(old), PyArray_DIMS(array),
                              (size_t)nd * sizeof(npy_intp)) == 0);
#endif
}

static PyObject *Copier_vectorcall(PyObject *self_, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames) {
    Copier *self = (Copier *)self_;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "a Copier takes one argument, the array to copy");
        return NULL;
    }
    PyObject *arg = args[0];
    /* what `copy` would not copy bytewise into an array of its own: `copy` it */
    if (!PyArray_CheckExact(arg) || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)arg) ||
        PyDataType_REFCHK(PyArray_DESCR((PyArrayObject *)arg)))
        return copy_array(NULL, arg);
    PyArrayObject *array = (PyArrayObject *)arg;
    int at = 0;
    while (at < SOURCES && self->sources[at] != NULL && self->sources[at] != arg) at++;
    if (at == SOURCES) return copy_array(NULL, arg); /* more arrays than it keeps copies of */
    if (self->sources[at] == NULL) {
        Py_INCREF(arg);
        self->sources[at] = arg;
    }
    PyArrayObject **kept = self->kept[at];
    for (int i = 0; i < KEPT; i++) {
        PyArrayObject *old = kept[i];
        if (old != NULL && free_copy_of(old, array)) {
            npy_intp bytes = PyArray_NBYTES(array);
            if (bytes) memcpy(PyArray_DATA(old), PyArray_DATA(array), (size_t)bytes);
            self->recycled++;
            Py_INCREF(old);
            return (PyObject *)old;
        }
    }
    PyObject *made = copy_array(NULL, arg);
    if (made == NULL) return NULL;
    int slot = self->next[at];
    self->next[at] = (slot + 1) % KEPT;
    Py_XSETREF(kept[slot], (PyArrayObject *)Py_NewRef(made)); /* its holder keeps the old */
    self->made++;
    return made;
}

static PyObject *Copier_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if (PyTuple_GET_SIZE(args) || (kwargs != NULL && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "Copier() takes no arguments");
        return NULL;
    }
    Copier *self = (Copier *)type->tp_alloc(type, 0); /* zeroed: nothing kept yet */
    if (self != NULL) self->vectorcall = Copier_vectorcall;
    return (PyObject *)self;
}

static void Copier_dealloc(PyObject *self_) {
    Copier *self = (Copier *)self_;
    for (int at = 0; at < SOURCES; at++) {
        Py_CLEAR(self->sources[at]);
        for (int i = 0; i < KEPT; i++) Py_CLEAR(self->kept[at][i]);
    }
    Py_TYPE(self_)->tp_free(self_);
}

static PyObject *Copier_counts(PyObject *self_, PyObject *unused) {
    (void)unused;
    Copier *self = (Copier *)self_;
    return Py_BuildValue("(nn)", self->recycled, self->made);
}

static PyMethodDef Copier_methods[] = {
    {"counts", Copier_counts, METH_NOARGS,
     "counts() -> (copies handed out again, copies made new) so far"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CopierType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "coup.envs._copy.Copier",
    .tp_basicsize = sizeof(Copier),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Copier, vectorcall),
    .tp_doc = "Copier() -> copier; copier(array) is copy(array), in an array handed out "
              "before when nobody holds that one any more",
    .tp_new = Copier_new,
    .tp_dealloc = Copier_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_methods = Copier_methods,
};

static PyMethodDef copy_methods[] = {
    {"copy", copy_array, METH_O,
     "copy(array) -> a new array with array's shape, dtype and contents (array.copy())"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef copy_module = {
    PyModuleDef_HEAD_INIT, "_copy", "A fast copy of small numpy arrays (array.copy()).", -1,
    copy_methods,
};

PyMODINIT_FUNC PyInit__copy(void) {
    import_array(); /* returns NULL with ImportError set if numpy cannot be imported */
    if (PyType_Ready(&CopierType) < 0) return NULL;
    PyObject *module = PyModule_Create(&copy_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Copier", (PyObject *)&CopierType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
