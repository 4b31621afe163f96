# The C types of anonymous.py (Cython's pure-Python mode: this augments the .py, which
# stays plain Python and is the one source of the step).  Keys are uint64 words, counts
# uint32 residues, the table int32 slots.
cimport cython

ctypedef unsigned long long u64
ctypedef long long i64
ctypedef unsigned int u32
ctypedef int i32

@cython.locals(h=u64, w=i64, size=i64)
cdef i64 slot_of(u64[::1] key, i64 words, i32[::1] slots)

@cython.locals(size=i64, j=i64, w=i64, at=i64)
cpdef i64 rehash(u64[::1] keys, i64 fill, i64 words, i32[::1] slots, u64[::1] key)

@cython.locals(size=i64, room=i64, keep=u64, i=i64, s=i64, e=i64, t=i64, w=i64, r=i64,
               at=i64, j=i64, same=bint, c=u64)
cpdef i64 step(u64[::1] keys, u32[::1] counts, i64 start, i64 stop, i64 n, i64 words,
               u64 mask, u64 clear, i64[::1] lines, i64[::1] ends, u64[::1] primes,
               u64[::1] out_keys, u32[::1] out_counts, i32[::1] slots, i64[::1] fill,
               u64[::1] pats, u64[::1] succ, u64[::1] sets, u64[::1] key)

@cython.locals(moved=bint, begin=i64, g=i64, k=i64, x=i64, v=u64, s=i64)
cdef i64 canonical(u64[::1] pats, i64 n, i64[::1] lines, i64[::1] ends, u64[::1] sets)

@cython.locals(k=i64)
cdef bint sorted_run(u64[::1] a, i64 lo, i64 hi)

@cython.locals(k=i64, v=u64, j=i64)
cdef i64 sort(u64[::1] a, i64 lo, i64 hi)

cdef i64 RESIDUES
cdef u64 FIELD_MASK, WORD_MASK, MIX
