# The C types of kernel.py (Cython's pure-Python mode: this augments the .py, which
# stays plain Python and is the one source of the rules). Domains are int64 bitsets,
# so the compiled kernel serves squares up to kernel.LIMIT = 62 a side.
cimport cython

ctypedef long long i64

@cython.locals(c=i64)
cdef i64 _count(i64 x) noexcept

@cython.locals(s=i64)
cdef i64 _below_highest(i64 x, i64 n) noexcept


@cython.locals(k=i64)
cdef i64 _index(i64 x) noexcept


@cython.final
cdef class State:
    cdef public i64 n, cells, full, ttop, qtop, dirty_values, last_conflict
    cdef public bint forward, bounds, bars, bar_sets, singles
    cdef i64[::1] dom, weight, trail, queue, dirty, hdirty, saved
    cdef i64[::1] lptr, lidx, sptr, sidx, bptr, bidx, uptr, uidx, kptr, kidx
    cdef i64 seen
    cdef i64[::1] kept, pos, mdom, slot, mate, owner, succ, within
    cdef public i64[::1] low, high  # chain bounds: read by the engine's chain_bounds
    cdef i64[::1] order, indeg, stamp, stack, tally

    @cython.locals(old=i64, t=i64, r=i64, c=i64)
    cpdef bint narrow(self, i64 i, i64 mask)

    @cython.locals(t=i64, n=i64, i=i64)
    cpdef void undo(self, i64 mark)

    @cython.locals(i=i64, u=i64)
    cpdef void requeue(self)

    cpdef bint fixpoint(self)

    @cython.locals(n=i64, i=i64, d=i64, assigned=bint, first=i64, j=i64, e=i64, low=i64,
                   above=i64, below=i64, k=i64)
    cdef bint _cells(self)

    @cython.locals(full=i64, near=i64, k=i64, j=i64, e=i64, far=i64, rest=i64, low=i64)
    cdef bint _bars(self, i64 i, i64 d)

    @cython.locals(n=i64, u=i64, first=i64, step=i64, once=i64, twice=i64, k=i64, d=i64,
                   single=i64, i=i64, hit=i64)
    cdef bint _singles(self)

    @cython.locals(i=i64, d=i64, keep=i64, rest=i64, low=i64, mark=i64, values=i64, u=i64)
    cpdef i64 probe(self, i64 start, i64 end, i64 most)

    @cython.locals(last=i64, best=i64, best_key=double, i=i64, d=i64, w=i64, k=i64, e=i64,
                   key=double)
    cpdef i64 choose(self)

    @cython.locals(n=i64, cells=i64, top=i64, i=i64, done=i64, e=i64, j=i64, t=i64, k=i64)
    cpdef bint chains(self)

    @cython.locals(n=i64, u=i64, most=i64, top=i64, j=i64, e=i64, k=i64, r=i64, c=i64)
    cdef i64 _spread(self, i64 i, i64[::1] ptr, i64[::1] idx, i64 tag)

    @cython.locals(n=i64, i=i64, low=i64, high=i64, mask=i64, given=object, value=i64)
    cpdef bint start(self, tuple givens, bint chains)

    @cython.locals(n=i64, u=i64, first=i64, step=i64, m=i64, k=i64, i=i64, d=i64, found=i64,
                   keep=i64)
    cpdef bint lines(self)

    @cython.locals(n=i64, low=i64, v=i64, m=i64, r=i64, columns=i64, placed=bint, c=i64,
                   d=i64, found=i64, k=i64, drop=i64, bit=i64, i=i64)
    cpdef bint planes(self)

    cdef inline i64 _place(self, i64 m, i64 pos, i64 d, i64 slot)

    @cython.locals(v=i64, k=i64)
    cdef i64 _regin(self, i64 m)

    @cython.locals(d=i64, low=i64, v=i64, holder=i64)
    cdef bint _augment(self, i64 k)

    @cython.locals(every=i64, k=i64, v=i64, left=i64, start=i64, seen=i64, frontier=i64,
                   low=i64, new=i64, back=i64, grown=bint, rest=i64, component=i64,
                   members=i64)
    cdef i64 _supported(self, i64 m)

    @cython.locals(cells=i64, count=i64, e=i64, i=i64, a=i64, b=i64, ptr=i64[::1], idx=i64[::1])
    cdef tuple _graph(self, object new, i64[::1] edges, i64 stride, i64 want, bint forward,
                      bint backward)

    @cython.locals(e=i64)
    cdef i64 _append(self, i64 k, i64[::1] ptr, i64[::1] idx, i64 i)

    @cython.locals(k=i64, d=i64)
    cpdef bint tied(self, i64 i)

    @cython.locals(n=i64, cells=i64, i=i64, u=i64, k=i64)
    cdef void _fill(self)

    @cython.locals(cells=i64)
    cdef void _build(self, i64 n, i64[::1] dom, i64[::1] weight, i64[::1] dirty, object new,
                     i64[::1] less, i64[::1] bars)

    @cython.locals(n=i64, r=i64, c=i64, rows=list, row=list)
    cpdef tuple grid(self)
