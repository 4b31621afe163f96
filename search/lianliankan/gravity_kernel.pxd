# The C types of gravity_kernel.py (Cython's pure-Python mode: this augments the .py,
# which stays plain Python and is the one source of the search's hot loop). Every
# buffer is the standard library's array('q'), so the compiled kernel needs no numpy.
cimport cython

ctypedef long long i64

@cython.locals(ra=i64, ca=i64, rb=i64, cb=i64, p=i64, q=i64, lo=i64, hi=i64, left=i64,
               right=i64, r=i64, x=i64, end=i64, c=i64, top=i64, bottom=i64)
cpdef bint joined(i64[::1] cells, i64 s, i64 a, i64 b, i64 turns, i64[::1] mark,
                  i64[::1] queue, i64 stamp) noexcept

@cython.locals(head=i64, tail=i64, _t=i64, end=i64, x=i64, k=i64, step=i64, y=i64)
cdef bint _joined_rays(i64[::1] cells, i64 s, i64 a, i64 b, i64 turns, i64[::1] mark,
                       i64[::1] queue, i64 stamp) noexcept

cpdef i64 generate(i64[::1] cells, i64 s, i64 h, i64 w, i64 turns, bint gravity,
                   i64 pictures, i64[::1] count, i64[::1] tiles, i64[::1] moved,
                   i64[::1] mv, i64 at, i64 cap, bint store, i64[::1] seen, i64[::1] mark,
                   i64[::1] queue, i64[::1] st) noexcept

@cython.locals(by_tiles=i64, stamp=i64, c1=i64, c2=i64, found=i64, start=i64, v=i64,
               end=i64, n=i64, k=i64, x=i64, a=i64, m=i64, b=i64, walled=bint, hit=bint)
cdef i64 pairs(i64[::1] cells, i64 s, i64 turns, bint gravity, i64 pictures,
               i64[::1] count, i64[::1] tiles, i64 g1, i64 g2, i64[::1] moved, i64[::1] mv,
               i64 at, i64 cap, bint store, i64[::1] seen, i64[::1] mark, i64[::1] queue,
               i64[::1] st) noexcept

@cython.locals(v=i64, r=i64, i=i64)
cdef void bucket(i64[::1] cells, i64 s, i64 h, i64 w, i64 pictures, i64[::1] count,
                 i64[::1] tiles) noexcept

@cython.locals(top=i64, v=i64, start=i64, n=i64, on_top=bint, k=i64, i=i64)
cdef bint safe_move(i64[::1] cells, i64 s, i64 h, i64 w, i64 turns, bint gravity,
                    i64 pictures, i64[::1] count, i64[::1] tiles, i64[::1] work,
                    i64[::1] mark, i64[::1] queue, i64[::1] st, i64[::1] mv, i64 at) noexcept

@cython.locals(a=i64, k=i64, b=i64, g1=i64, g2=i64, m=i64, j=i64, x=i64, v=i64, rest=i64)
cdef i64 _clears(i64[::1] cells, i64 s, i64 turns, bint gravity, i64[::1] work, i64 at,
                 i64 n, i64[::1] mark, i64[::1] queue, i64[::1] st) noexcept

@cython.locals(i=i64, top=i64)
cdef void remove(i64[::1] cells, i64 s, i64 g, bint gravity) noexcept

@cython.locals(i=i64)
cdef void restore(i64[::1] cells, i64 s, i64 g, i64 v, bint gravity) noexcept

@cython.locals(key=i64, base=i64, r=i64, i=i64, v=i64)
cpdef i64 board_key(i64[::1] cells, i64 s, i64 h, i64 w, i64 pictures, i64[::1] zobrist,
                   i64 half) noexcept

@cython.locals(i=i64, j=i64)
cdef bint table_has(i64[::1] table, i64 k1, i64 k2) noexcept

@cython.locals(i=i64, j=i64)
cpdef bint table_add(i64[::1] table, i64 k1, i64 k2, i64[::1] st) noexcept

@cython.locals(p1=i64, second=i64, k1=i64, k2=i64, i=i64, v=i64)
cdef void _xor_column(i64[::1] cells, i64 s, i64 g, i64 pictures, i64[::1] zobrist,
                      i64[::1] keys) noexcept

cdef void _xor_region(i64[::1] cells, i64 s, i64 g1, i64 g2, i64 pictures,
                      i64[::1] zobrist, i64[::1] keys) noexcept

cdef i64 _first_key(i64[::1] keys) noexcept

@cython.locals(x=i64)
cdef i64 _next_random(i64[::1] st) noexcept

@cython.locals(cap=i64, mode=i64, d=i64, k1=i64, k2=i64, first=i64, n=i64, j=i64, a=i64,
               b=i64, g1=i64, g2=i64, v=i64)
cpdef i64 run(i64[::1] cells, i64 s, i64 h, i64 w, i64 turns, bint gravity, i64 pictures,
              i64[::1] st, i64[::1] zobrist, i64[::1] table, i64[::1] mv, i64[::1] score,
              i64[::1] mstart, i64[::1] mnext, i64[::1] mend, i64[::1] ua, i64[::1] ub,
              i64[::1] uv, i64[::1] count, i64[::1] tiles, i64[::1] seen, i64[::1] mark,
              i64[::1] queue, i64[::1] keys, i64[::1] work, i64[::1] moved) noexcept

@cython.locals(kept=i64, j=i64, a=i64, b=i64, g1=i64, g2=i64, v=i64, alive=bint, m=i64,
               key=i64, i=i64)
cdef i64 _order(i64[::1] cells, i64 s, i64 turns, bint gravity, i64 pictures,
                i64[::1] st, i64[::1] zobrist, i64[::1] table, i64[::1] mv, i64[::1] score,
                i64 first, i64 n, i64[::1] count, i64[::1] tiles, i64[::1] moved,
                i64[::1] seen, i64[::1] mark, i64[::1] queue, i64[::1] keys) noexcept

@cython.locals(j=i64, i=i64, a=i64, b=i64)
cdef void _shuffle(i64[::1] mv, i64 first, i64 n, i64[::1] st) noexcept
