# Typing for engine/dice/board.py when compiled by Cython (an augmenting .pxd:
# the .py stays as it is). Only what is safe with the source unchanged: cell
# numbers stay Python ints wherever the code shifts by them (1 << t), because
# the masks have 66 bits and a C shift would overflow; the masks stay Python ints.
cimport cython

# private tables, read as C globals instead of module dict look-ups
cdef tuple _NEIGHBOUR_MASK, _LEAP_FROM_MASK, _SLIDE4_FROM, _SLIDE5_FROM, _SLIDE6_FROM, _BETWEEN
cdef tuple _NEIGHBOUR_SET, _LEAP_SET
cdef dict _PAWN_FROM_MASK, _SLIDES, _PLAIN_ONE

@cython.locals(k=cython.int, old=cython.int)
cpdef put_die(bytearray board, list masks, object i, int code)

@cython.locals(k=cython.int, w=cython.int)
cpdef move_die(bytearray board, list masks, object o, object t, int code)

cpdef list cells_of(object bits)

@cython.locals(k=cython.int, between=tuple)
cpdef bint attacked(object masks, int x, int by, bint jump)

@cython.locals(v=cython.int)
cpdef _steps(object board, object cells, int side, list out)

@cython.locals(v=cython.int, out=list)
cpdef list targets(object board, int o, int side, int face, bint jump)

@cython.locals(v=cython.int, own=cython.int, foe=cython.int, enemy=cython.int, after=list, out=list)
cpdef tuple escapes(bytearray board, list masks, object threatened, int side, bint jump)

@cython.locals(v=cython.int)
cpdef turn_back(bytearray board, list masks, object i, int side)
