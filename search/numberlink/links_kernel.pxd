# The C types of links_kernel.py (Cython's pure-Python mode: this augments the .py,
# which stays plain Python and is the one source of the links search). The per-cell
# buffers are the standard library's array('q'); the conflict sets stay Python ints.
cimport cython

ctypedef long long i64

cdef i64[::1] SHAPES, FITS, ENDS_NOT
cdef i64 NO_LABEL, REGION_EVERY, ON, OFF, MATE, CORNER, COLOUR, SQUARE, PARTS, CHAIN_WHY
cdef i64 CORNER_WHY

cdef i64 pop4(i64 m) noexcept

cdef object zeros(i64 n)

@cython.locals(n=i64, k=i64)
cdef object grown(i64[::1] buffer)


cdef class Links:
    cdef public object puzzle, conflict, decisions
    cdef public bint nst, backjump, full, spiky
    cdef public i64 stride, size, tn, qn, nodes, first
    cdef public tuple step
    cdef public list cell_of, inside, ends, why, chain_why, colour_why, corner_why, saved
    cdef public i64[::1] steps, diagonal, live, label, need, optional
    cdef public i64[::1] mem, on, off, mate, corners, colour, square, trail, queue

    @cython.locals(live=i64[::1], label=i64[::1], steps=i64[::1], off=i64[::1], mate=i64[::1],
                   colour=i64[::1], i=i64, n=i64, m=i64, d=i64)
    cpdef void fill(self, object deadline)

    @cython.locals(live=i64[::1], label=i64[::1], steps=i64[::1], k=i64, s1=i64, s2=i64,
                   diagonal=i64, n=i64, start=i64, i=i64, ok=bint, j=i64, known=dict,
                   walk=list, allowed=list)
    cpdef list spikes(self, object deadline=*)

    @cython.locals(trail=i64[::1], t=i64, at=i64)
    cdef void keep(self, i64 part, i64 i, i64 j=*)

    @cython.locals(trail=i64[::1], t=i64, saved=list, sets=list)
    cdef void keep_why(self, i64 part, i64 i, i64 j=*)

    cpdef i64 mark(self) noexcept

    @cython.locals(trail=i64[::1], mem=i64[::1], limit=i64, low=i64, t=i64, position=i64)
    cpdef void undo(self, i64 mark)

    cdef void push(self, i64 i, i64 j=*)

    cpdef void clear_queue(self) noexcept

    @cython.locals(why=list, base=i64, m=i64, d=i64)
    cpdef object cell_why(self, i64 i)

    cdef bint fail(self, object why) noexcept

    @cython.locals(on=i64[::1], need=i64[::1], mate=i64[::1], colour=i64[::1],
                   square=i64[::1], chain_why=list, bit=i64, j=i64, x=i64, y=i64, ci=i64,
                   cj=i64, corner=i64, before=i64, k=i64, t=i64, n=i64, e=i64)
    cpdef bint link(self, i64 i, i64 d, object why=*) except -1

    @cython.locals(colour=i64[::1], on=i64[::1], steps=i64[::1], colour_why=list,
                   touching=list, prev=i64, cur=i64, nxt=i64, m=i64, d=i64, n=i64, t=i64,
                   i=i64)
    cpdef bint paint(self, i64 start, i64 came, i64 c, object why) except -1

    @cython.locals(off=i64[::1], bit=i64, j=i64)
    cpdef bint cut(self, i64 i, i64 d, object why=*) except -1

    @cython.locals(on=i64[::1], why=list, w=i64)
    cdef object square_why(self, i64 t)

    @cython.locals(on=i64[::1], off=i64[::1], w=i64, k=i64, i=i64, d=i64)
    cdef bint close_square(self, i64 t) except -1

    @cython.locals(corners=i64[::1], live=i64[::1], label=i64[::1], corner_why=list, k=i64,
                   back=i64, j=i64)
    cdef void lose_corners(self, i64 i, i64 lost, object why)

    @cython.locals(on=i64[::1], off=i64[::1], need=i64[::1], optional=i64[::1],
                   corners=i64[::1], live=i64[::1], i=i64, m_on=i64, m_off=i64, want=i64,
                   state=i64, lost=i64, entry=i64, d=i64)
    cpdef bint propagate(self) except -1

    @cython.locals(optional=i64, lost=i64, has=i64, open_links=i64, free=i64, d=i64)
    cdef bint other_degree(self, i64 i, i64 m_on, i64 m_off, i64 want) except -1

    @cython.locals(off=i64[::1], colour=i64[::1], mate=i64[::1], steps=i64[::1],
                   region=i64[::1], count=i64, start=i64, i=i64, j=i64, d=i64, closed=i64,
                   x=i64, y=i64, a=i64, b=i64, r=i64, beside=bint)
    cpdef bint regions_fail(self) except -1

    @cython.locals(on=i64[::1], off=i64[::1], need=i64[::1], optional=i64[::1], inside=list,
                   first=i64, n=i64, best=i64, best_key=i64, k=i64, i=i64, m=i64, has=i64,
                   key=i64, way=i64, fewest=i64, d=i64, j=i64, decided=i64)
    cpdef i64 choose(self)

    @cython.locals(first=i64, picked=i64, i=i64, d=i64, mark=i64)
    cpdef object descend(self, object deadline, i64 max_nodes, object depth)
