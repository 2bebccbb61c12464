from cpython cimport array

cpdef array.array doubles(Py_ssize_t n)
cpdef array.array int64s(Py_ssize_t n)
cpdef array.array floats(Py_ssize_t n)
