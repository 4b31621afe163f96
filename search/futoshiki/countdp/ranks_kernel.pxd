# The C types of ranks_kernel.py (Cython's pure-Python mode: this augments the .py,
# which stays plain Python and is the one source of the step).  Keys are uint64 words,
# counts uint32 residues, the table int32 slots.
cimport cython

ctypedef unsigned long long u64
ctypedef long long i64
ctypedef unsigned int u32
ctypedef int i32

cdef i64 CHAIN_SHIFT, FIELDS, META
cdef u64 FIELD_MASK, WORD_MASK, MIX

cpdef i64 most_fields()

cpdef i64 chain_shift()

cpdef i64 meta_numbers()

@cython.locals(h=u64, w=i64)
cdef i64 slot_of(u64[::1] keys, i64 at, i64 width, i32[::1] slots)

@cython.locals(size=i64, j=i64, at=i64)
cpdef i64 rehash(u64[::1] keys, i64 fill, i64 width, i32[::1] slots)

@cython.locals(width=i64, room=i64, most=i64, mask=u64, names=i64, gaps=i64, i=i64, s=i64,
               e=i64, f=i64, g=i64, at=i64, chain=i64, extra=u64, made=i64, batch=i64,
               out_width=i64)
cpdef i64 step(u64[::1] keys, u32[::1] counts, i64 start, i64 stop, i64 n, i64 words,
               i64 chained, i64[::1] place, i64[::1] links, i64[::1] moves, i64[::1] lines,
               i64[::1] ends, i64[::1] marks, i64[::1] tokens, i64[::1] places,
               u64[::1] inverses, i64[::1] grown, u64[::1] ways, i64[::1] given_slots,
               u64[::1] primes, u64[::1] out_keys, u32[::1] out_counts, i32[::1] slots,
               i64[::1] fill, u64[::1] scratch, u64[::1] pending, i64[::1] meta)

@cython.locals(k=i64, f=i64)
cdef bint allowed(u64[::1] scratch, i64 n, i64[::1] links, i64 s, i64 naming)

@cython.locals(succ=i64, out=i64, t=i64, value=i64, chain=u64, k=i64, f=i64, width=i64,
               w=i64, base=i64)
cdef i64 successor(i64 made, i64 i, i64 n, i64 words, i64 chained, i64 s, i64 at, i64 after,
                   i64 times, i64 gap, i64[::1] place, i64[::1] moves, i64[::1] lines,
                   i64[::1] ends, i64[::1] tokens, i32[::1] slots, u64[::1] scratch,
                   u64[::1] pending, i64[::1] meta)

@cython.locals(residues=i64, size=i64, touched=u64, k=i64, j=i64, base=i64,
               h=i64, w=i64, same=bint, times=u64, gap=i64, after=i64, r=i64, c=u64,
               i=i64)
cdef i64 merge(u32[::1] counts, i64 made, i64 width, i64[::1] place,
               u64[::1] inverses, u64[::1] ways, u64[::1] primes, u64[::1] out_keys,
               u32[::1] out_counts, i32[::1] slots, i64[::1] fill, u64[::1] pending,
               i64[::1] meta)

@cython.locals(g=i64, moved=bint, begin=i64, k=i64, x=i64, v=u64, s=i64)
cdef i64 canonical(u64[::1] scratch, i64 at, i64 n, i64[::1] tokens, i64 first, i64 gaps,
                   i64[::1] lines, i64[::1] ends, i64 sets)

@cython.locals(k=i64)
cdef bint sorted_run(u64[::1] a, i64 lo, i64 hi)

@cython.locals(k=i64, v=u64, j=i64)
cdef i64 sort(u64[::1] a, i64 lo, i64 hi)
