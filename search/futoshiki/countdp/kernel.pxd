# The C types of kernel.py (Cython's pure-Python mode: this augments the .py, which
# stays plain Python and is the one source of the step). Masks are uint64 (n <= 8).
cimport cython

ctypedef unsigned long long u64
ctypedef long long i64

cdef const unsigned char[:] POPCOUNT

@cython.locals(one=u64, total=i64, row=u64, flip=u64, at=i64, i=i64, k=u64, x=u64,
               span=i64, half=i64, m=u64, s=i64, bad=u64)
cpdef i64 mark(u64[::1] keys, i64 n, i64 r, i64 opened, unsigned char[::1] lookup,
               i64[::1] special, u64[::1] avoids, u64[::1] needs, unsigned char[::1] ok)

@cython.locals(size=i64, live=i64, p=i64, i=i64, m=i64, best=i64, s=i64, low=u64,
               head=u64)
cpdef i64 merge(u64[::1] keys, i64[::1] counts, unsigned char[::1] ok, u64[::1] bits,
                i64[::1] at, u64[::1] heads, u64[::1] out_keys, i64[::1] out_counts)

@cython.locals(one=u64, row=u64, spread=u64, r=i64, i=i64, j=i64, k=u64, word=u64,
               free_rows=u64, free_columns=u64, sweep=i64, free=u64, step=i64, mask=u64,
               m=i64, x=i64, f=u64)
cpdef i64 forms(u64[::1] keys, i64 n, u64[::1] shifts, u64[::1] lines, u64 later,
                u64[::1] pinned, u64[::1] out, u64[::1] fields, bint together)

@cython.locals(size=i64, d=i64, i=i64, total=i64, here=i64, at=i64)
cpdef i64 radix_pass(u64[::1] keys, i64[::1] order, u64[::1] out_keys, i64[::1] out_order,
                     i64[::1] counts, u64 shift)
