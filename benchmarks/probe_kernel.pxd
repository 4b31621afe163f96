# Cython's types for probe_kernel.py (an augmenting declaration file: the .py stays plain
# Python). Used only by benchmarks/compiled_kernels.py.
cimport cython

ctypedef long long i64

@cython.locals(full=i64, width=i64, i=i64, d=i64, k=i64, j=i64, e=i64, low=i64, above=i64,
               h=i64, below=i64, u=i64, first=i64, step=i64, once=i64, twice=i64,
               single=i64, hit=i64)
cpdef bint fixpoint(i64[::1] work, i64 n, i64[::1] peers, i64[::1] lptr, i64[::1] lidx,
                    i64[::1] sptr, i64[::1] sidx, i64[::1] stack, i64 top,
                    i64[::1] dirty, i64[::1] weight)

@cython.locals(cells=i64, i=i64, d=i64, size=i64, rest=i64, keep=i64, low=i64, k=i64)
cpdef i64 probe_from(i64[::1] dom, i64 start, i64 n, i64[::1] peers, i64[::1] lptr,
                     i64[::1] lidx, i64[::1] sptr, i64[::1] sidx, i64 maxvals, i64[::1] work,
                     i64[::1] stack, i64[::1] dirty, i64[::1] weight)

@cython.locals(cells=i64, i=i64, k=i64)
cpdef i64 probe(i64[::1] dom, i64 n, i64[::1] peers, i64[::1] lptr, i64[::1] lidx,
                i64[::1] sptr, i64[::1] sidx, i64 maxvals, i64[::1] work, i64[::1] stack,
                i64[::1] dirty, i64[::1] weight)
