/* coup.envs._copy: `copy(array)`, a new numpy array with the same contents as `array`,
 * what `array.copy()` returns, in about half its time for the learning environments' small
 * observation vectors and masks (numpy's copy() goes through its general machinery of
 * orders, strides and casts; here a C-contiguous array is one allocation and a memcpy).
 *
 * Built by setup.py against numpy's headers where numpy is at build time; the
 * environments use `array.copy()` where it was not built (coup/envs/arrays.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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
    return PyModule_Create(&copy_module);
}
