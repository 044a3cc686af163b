# @generated from rules/batched.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: batched tensor products and batched matrix functions.

As in NumPy, matrix functions act on the last two indices of their argument and leading indices are batch
indices (b below): inv(A[b,i,j]) inverts each A[b,:,:]; products broadcast over b or contract with an
unbatched operand."""
from runtime.registry import export_ops

# Elements of the largest intermediate one slice of a chunked reduction holds. Read when an op runs, so setting
# it small (as verification does) sends the same code through its sliced path.
_CHUNK_ELEMENTS = 4194304


def _define(np):
    """The ops' forward functions, frules and rrules over the array namespace `np`."""
    # helpers are bound here, not at module level: a rule may be named like one (`math`, `is_zero`), and its
    # export replaces the module attribute, never what the ops read
    import math

    from runtime.tangents import NoTangent, ZeroTangent, Thunk, is_zero

    _NO, _ZERO = NoTangent(), ZeroTangent()  # singletons: bound once, not constructed in every pullback

    def _div(a, b):
        """a / b for numbers (a scalar parameter): at b = 0, ±inf or nan as NumPy's float64 scalars give (and as the
        native kernels compute), not a ZeroDivisionError; anything else divides as usual."""
        try:
            return a / b
        except ZeroDivisionError:
            if a != a or a == 0:
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)

    def _recip(n):
        """1 / n for a product of extents n (a Python number): inf where an extent is 0, so that an empty mean
        is 0 * inf = nan as in NumPy, not a ZeroDivisionError; a Python float keeps float32 results float32."""
        return _div(1, n)

    def _add(a, b):
        if is_zero(a):
            return b
        if is_zero(b):
            return a
        return a + b

    # ---- batched_matmul(A[b,i,k], B[k,j]) -> C[b,i,j]    (rules/batched.rules:8)
    # One operand batched, the other shared across the batch (its pullback sums over b).
    def batched_matmul(A, B):
        C = np.einsum("abc,cd->abd", A, B, optimize=True)
        return C

    def batched_matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abc,cd->abd", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abc,cd->abd", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("ab,cda->cdb", B, dA, optimize=True))
        return C, dC

    def batched_matmul_rrule(A, B):
        C = np.einsum("abc,cd->abd", A, B, optimize=True)
        def batched_matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("ab,cdb->cda", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abc,abd->cd", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, batched_matmul_pullback

    # ---- bmm(A[b,i,k], B[b,k,j]) -> C[b,i,j]    (rules/batched.rules:10)
    # Both operands batched.
    def bmm(A, B):
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        return C

    def bmm_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abc,acd->abd", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("abc,adb->adc", B, dA, optimize=True))
        return C, dC

    def bmm_rrule(A, B):
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        def bmm_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("abc,adc->adb", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abc,abd->acd", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, bmm_pullback

    # ---- batched_transpose(A[b,i,j]) -> B[b,j,i]    (rules/batched.rules:11)
    def batched_transpose(A):
        B = np.transpose(A, (0, 2, 1))
        return B

    def batched_transpose_frule(tangents, A):
        _, dA = tangents
        B = np.transpose(A, (0, 2, 1))
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, np.transpose(dA, (0, 2, 1)))
        return B, dB

    def batched_transpose_rrule(A):
        B = np.transpose(A, (0, 2, 1))
        def batched_transpose_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = np.transpose(dB, (0, 2, 1))
            return (_NO, dA)
        return B, batched_transpose_pullback

    # ---- batched_inv(A[b,i,j]) -> B[b,i,j]    (rules/batched.rules:12)
    def batched_inv(A):
        B = np.prim.inv.forward(A)
        return B

    def batched_inv_frule(tangents, A):
        _, dA = tangents
        B = np.prim.inv.forward(A)
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, (-np.einsum("abc,adb->adc", B, np.einsum("abc,acd->abd", B, dA, optimize=True), optimize=True)))
        return B, dB

    def batched_inv_rrule(A):
        B = np.prim.inv.forward(A)
        def batched_inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = (-np.einsum("abc,adb->acd", B, np.einsum("abc,adc->abd", B, dB, optimize=True), optimize=True))
            return (_NO, dA)
        return B, batched_inv_pullback

    # ---- batched_logdet(A[b,i,j]) -> d[b]    (rules/batched.rules:13)
    def batched_logdet(A):
        d = np.prim.logdet.forward(A)
        return d

    def batched_logdet_frule(tangents, A):
        _, dA = tangents
        d = np.prim.logdet.forward(A)
        _inv_A = np.prim.inv.forward(A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_inv_A * np.transpose(dA, (0, 2, 1))), axis=(1, 2)))
        return d, dd

    def batched_logdet_rrule(A):
        d = np.prim.logdet.forward(A)
        def batched_logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.inv.forward(A), (0, 2, 1)) * (dd[:, None, None]))
            return (_NO, dA)
        return d, batched_logdet_pullback

    # ---- batched_solve(A[b,i,j], y[b,j]) -> x[b,i]    (rules/batched.rules:14)
    def batched_solve(A, y):
        x = np.prim.solve.forward(A, y)
        return x

    def batched_solve_frule(tangents, A, y):
        _, dA, dy_ = tangents
        x = np.prim.solve.forward(A, y)
        _inv_A = np.prim.inv.forward(A)
        _dz1 = _ZERO
        if not is_zero(dA):
            _dz1 = _add(_dz1, (-np.einsum("abc,ac->ab", dA, x, optimize=True)))
        if not is_zero(dy_):
            _dz1 = _add(_dz1, dy_)
        dx = _ZERO
        if not is_zero(_dz1):
            dx = _add(dx, np.einsum("abc,ac->ab", _inv_A, _dz1, optimize=True))
        return x, dx

    def batched_solve_rrule(A, y):
        x = np.prim.solve.forward(A, y)
        def batched_solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _dz1 = np.einsum("abc,ab->ac", np.prim.inv.forward(A), dx, optimize=True)
            def _pb_A_3():
                dA = (-((_dz1[:, :, None]) * (x[:, None])))
                return dA
            def _pb_y_5():
                dy_ = _dz1
                return dy_
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_y_5))
        return x, batched_solve_pullback

    # ---- batched_cayley(A[b,i,j]) -> Q[b,i,j]    (rules/batched.rules:18)
    # Volume-preserving attention's building block: a Cayley transform per batch element, (I - A)⁻¹·(I + A)
    # written 2·(I - A)⁻¹ - I so that its derivative 2·M·dA·M does not cancel for large A (as cayley's).
    def batched_cayley(A):
        n_i = A.shape[1]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d0 - A))
        Q = ((2.0 * M) - _d0)
        return Q

    def batched_cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[1]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d4 - A))
        Q = ((2.0 * M) - _d4)
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-np.einsum("abc,adb->adc", M, np.einsum("abc,acd->abd", M, _dt0, optimize=True), optimize=True)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, (2.0 * dM))
        return Q, dQ

    def batched_cayley_rrule(A):
        n_i = A.shape[1]
        _d12 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d12 - A))
        Q = ((2.0 * M) - _d12)
        def batched_cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = (2.0 * dQ)
            dA = (-(-np.einsum("abc,adb->acd", M, np.einsum("abc,adc->abd", M, dM, optimize=True), optimize=True)))
            return (_NO, dA)
        return Q, batched_cayley_pullback

    # ---- __batched_batched_matmul(A[_batch,b,i,k], B[_batch,k,j]) -> C[_batch,b,i,j]    (rules/batched.rules:8)
    # One operand batched, the other shared across the batch (its pullback sums over b).
    def _op___batched_batched_matmul(A, B):
        C = np.einsum("abcd,ade->abce", A, B, optimize=True)
        return C

    def _op___batched_batched_matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abcd,ade->abce", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abcd,ade->abce", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("abc,adeb->adec", B, dA, optimize=True))
        return C, dC

    def _op___batched_batched_matmul_rrule(A, B):
        C = np.einsum("abcd,ade->abce", A, B, optimize=True)
        def _op___batched_batched_matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("abc,adec->adeb", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abcd,abce->ade", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, _op___batched_batched_matmul_pullback

    # ---- __batched_bmm(A[_batch,b,i,k], B[_batch,b,k,j]) -> C[_batch,b,i,j]    (rules/batched.rules:10)
    # Both operands batched.
    def _op___batched_bmm(A, B):
        C = np.einsum("abcd,abde->abce", A, B, optimize=True)
        return C

    def _op___batched_bmm_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abcd,abde->abce", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abcd,abde->abce", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("abcd,abec->abed", B, dA, optimize=True))
        return C, dC

    def _op___batched_bmm_rrule(A, B):
        C = np.einsum("abcd,abde->abce", A, B, optimize=True)
        def _op___batched_bmm_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("abcd,abed->abec", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abcd,abce->abde", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, _op___batched_bmm_pullback

    # ---- __batched_batched_transpose(A[_batch,b,i,j]) -> B[_batch,b,j,i]    (rules/batched.rules:11)
    def _op___batched_batched_transpose(A):
        B = np.transpose(A, (0, 1, 3, 2))
        return B

    def _op___batched_batched_transpose_frule(tangents, A):
        _, dA = tangents
        B = np.transpose(A, (0, 1, 3, 2))
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, np.transpose(dA, (0, 1, 3, 2)))
        return B, dB

    def _op___batched_batched_transpose_rrule(A):
        B = np.transpose(A, (0, 1, 3, 2))
        def _op___batched_batched_transpose_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = np.transpose(dB, (0, 1, 3, 2))
            return (_NO, dA)
        return B, _op___batched_batched_transpose_pullback

    # ---- __batched_batched_inv(A[_batch,b,i,j]) -> B[_batch,b,i,j]    (rules/batched.rules:12)
    def _op___batched_batched_inv(A):
        B = np.prim.inv.forward(A)
        return B

    def _op___batched_batched_inv_frule(tangents, A):
        _, dA = tangents
        B = np.prim.inv.forward(A)
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, (-np.einsum("abcd,abec->abed", B, np.einsum("abcd,abde->abce", B, dA, optimize=True), optimize=True)))
        return B, dB

    def _op___batched_batched_inv_rrule(A):
        B = np.prim.inv.forward(A)
        def _op___batched_batched_inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = (-np.einsum("abcd,abec->abde", B, np.einsum("abcd,abed->abce", B, dB, optimize=True), optimize=True))
            return (_NO, dA)
        return B, _op___batched_batched_inv_pullback

    # ---- __batched_batched_logdet(A[_batch,b,i,j]) -> d[_batch,b]    (rules/batched.rules:13)
    def _op___batched_batched_logdet(A):
        d = np.prim.logdet.forward(A)
        return d

    def _op___batched_batched_logdet_frule(tangents, A):
        _, dA = tangents
        d = np.prim.logdet.forward(A)
        _inv_A = np.prim.inv.forward(A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_inv_A * np.transpose(dA, (0, 1, 3, 2))), axis=(2, 3)))
        return d, dd

    def _op___batched_batched_logdet_rrule(A):
        d = np.prim.logdet.forward(A)
        def _op___batched_batched_logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.inv.forward(A), (0, 1, 3, 2)) * (dd[:, :, None, None]))
            return (_NO, dA)
        return d, _op___batched_batched_logdet_pullback

    # ---- __batched_batched_solve(A[_batch,b,i,j], y[_batch,b,j]) -> x[_batch,b,i]    (rules/batched.rules:14)
    def _op___batched_batched_solve(A, y):
        x = np.prim.solve.forward(A, y)
        return x

    def _op___batched_batched_solve_frule(tangents, A, y):
        _, dA, dy_ = tangents
        x = np.prim.solve.forward(A, y)
        _inv_A = np.prim.inv.forward(A)
        _dz33 = _ZERO
        if not is_zero(dA):
            _dz33 = _add(_dz33, (-np.einsum("abcd,abd->abc", dA, x, optimize=True)))
        if not is_zero(dy_):
            _dz33 = _add(_dz33, dy_)
        dx = _ZERO
        if not is_zero(_dz33):
            dx = _add(dx, np.einsum("abcd,abd->abc", _inv_A, _dz33, optimize=True))
        return x, dx

    def _op___batched_batched_solve_rrule(A, y):
        x = np.prim.solve.forward(A, y)
        def _op___batched_batched_solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _dz33 = np.einsum("abcd,abc->abd", np.prim.inv.forward(A), dx, optimize=True)
            def _pb_A_3():
                dA = (-((_dz33[:, :, :, None]) * (x[:, :, None])))
                return dA
            def _pb_y_5():
                dy_ = _dz33
                return dy_
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_y_5))
        return x, _op___batched_batched_solve_pullback

    # ---- __batched_batched_cayley(A[_batch,b,i,j]) -> Q[_batch,b,i,j]    (rules/batched.rules:18)
    # Volume-preserving attention's building block: a Cayley transform per batch element, (I - A)⁻¹·(I + A)
    # written 2·(I - A)⁻¹ - I so that its derivative 2·M·dA·M does not cancel for large A (as cayley's).
    def _op___batched_batched_cayley(A):
        n_i = A.shape[2]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d0 - A))
        Q = ((2.0 * M) - _d0)
        return Q

    def _op___batched_batched_cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[2]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d4 - A))
        Q = ((2.0 * M) - _d4)
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-np.einsum("abcd,abec->abed", M, np.einsum("abcd,abde->abce", M, _dt0, optimize=True), optimize=True)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, (2.0 * dM))
        return Q, dQ

    def _op___batched_batched_cayley_rrule(A):
        n_i = A.shape[2]
        _d12 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d12 - A))
        Q = ((2.0 * M) - _d12)
        def _op___batched_batched_cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = (2.0 * dQ)
            dA = (-(-np.einsum("abcd,abec->abde", M, np.einsum("abcd,abed->abce", M, dM, optimize=True), optimize=True)))
            return (_NO, dA)
        return Q, _op___batched_batched_cayley_pullback

    return {
        'batched_matmul': batched_matmul,
        'batched_matmul_frule': batched_matmul_frule,
        'batched_matmul_rrule': batched_matmul_rrule,
        'bmm': bmm,
        'bmm_frule': bmm_frule,
        'bmm_rrule': bmm_rrule,
        'batched_transpose': batched_transpose,
        'batched_transpose_frule': batched_transpose_frule,
        'batched_transpose_rrule': batched_transpose_rrule,
        'batched_inv': batched_inv,
        'batched_inv_frule': batched_inv_frule,
        'batched_inv_rrule': batched_inv_rrule,
        'batched_logdet': batched_logdet,
        'batched_logdet_frule': batched_logdet_frule,
        'batched_logdet_rrule': batched_logdet_rrule,
        'batched_solve': batched_solve,
        'batched_solve_frule': batched_solve_frule,
        'batched_solve_rrule': batched_solve_rrule,
        'batched_cayley': batched_cayley,
        'batched_cayley_frule': batched_cayley_frule,
        'batched_cayley_rrule': batched_cayley_rrule,
        '__batched_batched_matmul': _op___batched_batched_matmul,
        '__batched_batched_matmul_frule': _op___batched_batched_matmul_frule,
        '__batched_batched_matmul_rrule': _op___batched_batched_matmul_rrule,
        '__batched_bmm': _op___batched_bmm,
        '__batched_bmm_frule': _op___batched_bmm_frule,
        '__batched_bmm_rrule': _op___batched_bmm_rrule,
        '__batched_batched_transpose': _op___batched_batched_transpose,
        '__batched_batched_transpose_frule': _op___batched_batched_transpose_frule,
        '__batched_batched_transpose_rrule': _op___batched_batched_transpose_rrule,
        '__batched_batched_inv': _op___batched_batched_inv,
        '__batched_batched_inv_frule': _op___batched_batched_inv_frule,
        '__batched_batched_inv_rrule': _op___batched_batched_inv_rrule,
        '__batched_batched_logdet': _op___batched_batched_logdet,
        '__batched_batched_logdet_frule': _op___batched_batched_logdet_frule,
        '__batched_batched_logdet_rrule': _op___batched_batched_logdet_rrule,
        '__batched_batched_solve': _op___batched_batched_solve,
        '__batched_batched_solve_frule': _op___batched_batched_solve_frule,
        '__batched_batched_solve_rrule': _op___batched_batched_solve_rrule,
        '__batched_batched_cayley': _op___batched_batched_cayley,
        '__batched_batched_cayley_frule': _op___batched_batched_cayley_frule,
        '__batched_batched_cayley_rrule': _op___batched_batched_cayley_rrule,
    }


OPS = {'batched_matmul': {'signature': 'batched_matmul(A[b,i,k], B[k,j]) -> C[b,i,j]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'k']},
                               {'name': 'B', 'kind': 'tensor', 'indices': ['k', 'j']}],
                    'outputs': [{'name': 'C', 'indices': ['b', 'i', 'j']}],
                    'equal_extents': [],
                    'domains': {'A': 'real', 'B': 'real'},
                    'source': 'rules/batched.rules:8',
                    'doc': 'One operand batched, the other shared across the batch (its pullback sums over '
                           'b).',
                    'batched': '__batched_batched_matmul'},
 'bmm': {'signature': 'bmm(A[b,i,k], B[b,k,j]) -> C[b,i,j]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'k']},
                    {'name': 'B', 'kind': 'tensor', 'indices': ['b', 'k', 'j']}],
         'outputs': [{'name': 'C', 'indices': ['b', 'i', 'j']}],
         'equal_extents': [],
         'domains': {'A': 'real', 'B': 'real'},
         'source': 'rules/batched.rules:10',
         'doc': 'Both operands batched.',
         'batched': '__batched_bmm'},
 'batched_transpose': {'signature': 'batched_transpose(A[b,i,j]) -> B[b,j,i]',
                       'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'j']}],
                       'outputs': [{'name': 'B', 'indices': ['b', 'j', 'i']}],
                       'equal_extents': [],
                       'domains': {'A': 'real'},
                       'source': 'rules/batched.rules:11',
                       'batched': '__batched_batched_transpose'},
 'batched_inv': {'signature': 'batched_inv(A[b,i,j]) -> B[b,i,j]',
                 'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'j']}],
                 'outputs': [{'name': 'B', 'indices': ['b', 'i', 'j']}],
                 'equal_extents': [['i', 'j']],
                 'domains': {'A': 'wellcond'},
                 'source': 'rules/batched.rules:12',
                 'batched': '__batched_batched_inv'},
 'batched_logdet': {'signature': 'batched_logdet(A[b,i,j]) -> d[b]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'j']}],
                    'outputs': [{'name': 'd', 'indices': ['b']}],
                    'equal_extents': [['i', 'j']],
                    'domains': {'A': 'spd'},
                    'source': 'rules/batched.rules:13',
                    'batched': '__batched_batched_logdet'},
 'batched_solve': {'signature': 'batched_solve(A[b,i,j], y[b,j]) -> x[b,i]',
                   'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'j']},
                              {'name': 'y', 'kind': 'tensor', 'indices': ['b', 'j']}],
                   'outputs': [{'name': 'x', 'indices': ['b', 'i']}],
                   'equal_extents': [['i', 'j']],
                   'domains': {'A': 'wellcond', 'y': 'real'},
                   'source': 'rules/batched.rules:14',
                   'batched': '__batched_batched_solve'},
 'batched_cayley': {'signature': 'batched_cayley(A[b,i,j]) -> Q[b,i,j]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['b', 'i', 'j']}],
                    'outputs': [{'name': 'Q', 'indices': ['b', 'i', 'j']}],
                    'equal_extents': [['i', 'j']],
                    'domains': {'A': 'real'},
                    'source': 'rules/batched.rules:18',
                    'doc': "Volume-preserving attention's building block: a Cayley transform per batch "
                           'element, (I - A)⁻¹·(I + A)\n'
                           'written 2·(I - A)⁻¹ - I so that its derivative 2·M·dA·M does not cancel for '
                           "large A (as cayley's).",
                    'batched': '__batched_batched_cayley'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'batched_matmul': {'name': 'batched_matmul',
                    'signature': 'batched_matmul(A[b,i,k], B[k,j]) -> C[b,i,j]',
                    'file': 'rules/batched.rules',
                    'line': 8,
                    'text': 'batched_matmul(A[b,i,k], B[k,j]) -> C[b,i,j] = A[b,i,k] * B[k,j]',
                    'doc': 'One operand batched, the other shared across the batch (its pullback sums over '
                           'b).',
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['b', 'i', 'k'],
                                'domain': 'real',
                                'declared': False},
                               {'name': 'B',
                                'kind': 'tensor',
                                'indices': ['k', 'j'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'C', 'indices': ['b', 'i', 'j']}],
                    'extents': {},
                    'equal_extents': [],
                    'pushforward': [{'target': 'dC',
                                     'text': 'dC_b = A_b·dB + dA_b·B',
                                     'latex': '\\mathrm{d}C_{b} = A_{b} \\mathrm{d}B + \\mathrm{d}A_{b} B',
                                     'matrix': 'dC_b = A_b·dB + dA_b·B',
                                     'index': 'dC[b,i,j] = Σ_k A[b,i,k]·dB[k,j] + Σ_k B[k,j]·dA[b,i,k]',
                                     'index_latex': '\\mathrm{d}C_{bij} = \\sum_{k} A_{bik} '
                                                    '\\mathrm{d}B_{kj} + \\sum_{k} B_{kj} '
                                                    '\\mathrm{d}A_{bik}'}],
                    'pullback': [{'target': 'dA',
                                  'text': 'dA_b = dC_b·Bᵀ',
                                  'latex': '\\mathrm{d}A_{b} = \\mathrm{d}C_{b} B^{\\top}',
                                  'matrix': 'dA_b = dC_b·Bᵀ',
                                  'index': 'dA[b,i,k] = Σ_l B[k,l]·dC[b,i,l]',
                                  'index_latex': '\\mathrm{d}A_{bik} = \\sum_{l} B_{kl} \\mathrm{d}C_{bil}'},
                                 {'target': 'dB',
                                  'text': 'dB = Σ_b A_bᵀ·dC_b',
                                  'latex': '\\mathrm{d}B = \\sum_{b} A_{b}^{\\top} \\mathrm{d}C_{b}',
                                  'matrix': 'dB = Σ_b A_bᵀ·dC_b',
                                  'index': 'dB[k,j] = Σ_lm A[l,m,k]·dC[l,m,j]',
                                  'index_latex': '\\mathrm{d}B_{kj} = \\sum_{lm} A_{lmk} '
                                                 '\\mathrm{d}C_{lmj}'}],
                    'holds_for': 'every real input',
                    'saves': {'inputs': ['A', 'B'], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'b': 3, 'i': 4, 'k': 5, 'j': 6},
                                                 {'b': 6, 'i': 5, 'k': 4, 'j': 3}]}},
 'bmm': {'name': 'bmm',
         'signature': 'bmm(A[b,i,k], B[b,k,j]) -> C[b,i,j]',
         'file': 'rules/batched.rules',
         'line': 10,
         'text': 'bmm(A[b,i,k], B[b,k,j]) -> C[b,i,j] = A[b,i,k] * B[b,k,j]',
         'doc': 'Both operands batched.',
         'inputs': [{'name': 'A',
                     'kind': 'tensor',
                     'indices': ['b', 'i', 'k'],
                     'domain': 'real',
                     'declared': False},
                    {'name': 'B',
                     'kind': 'tensor',
                     'indices': ['b', 'k', 'j'],
                     'domain': 'real',
                     'declared': False}],
         'outputs': [{'name': 'C', 'indices': ['b', 'i', 'j']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dC',
                          'text': 'dC_b = A_b·dB_b + dA_b·B_b',
                          'latex': '\\mathrm{d}C_{b} = A_{b} \\mathrm{d}B_{b} + \\mathrm{d}A_{b} B_{b}',
                          'matrix': 'dC_b = A_b·dB_b + dA_b·B_b',
                          'index': 'dC[b,i,j] = Σ_k A[b,i,k]·dB[b,k,j] + Σ_k B[b,k,j]·dA[b,i,k]',
                          'index_latex': '\\mathrm{d}C_{bij} = \\sum_{k} A_{bik} \\mathrm{d}B_{bkj} + '
                                         '\\sum_{k} B_{bkj} \\mathrm{d}A_{bik}'}],
         'pullback': [{'target': 'dA',
                       'text': 'dA_b = dC_b·B_bᵀ',
                       'latex': '\\mathrm{d}A_{b} = \\mathrm{d}C_{b} B_{b}^{\\top}',
                       'matrix': 'dA_b = dC_b·B_bᵀ',
                       'index': 'dA[b,i,k] = Σ_l B[b,k,l]·dC[b,i,l]',
                       'index_latex': '\\mathrm{d}A_{bik} = \\sum_{l} B_{bkl} \\mathrm{d}C_{bil}'},
                      {'target': 'dB',
                       'text': 'dB_b = A_bᵀ·dC_b',
                       'latex': '\\mathrm{d}B_{b} = A_{b}^{\\top} \\mathrm{d}C_{b}',
                       'matrix': 'dB_b = A_bᵀ·dC_b',
                       'index': 'dB[b,k,j] = Σ_l A[b,l,k]·dC[b,l,j]',
                       'index_latex': '\\mathrm{d}B_{bkj} = \\sum_{l} A_{blk} \\mathrm{d}C_{blj}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['A', 'B'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 4,
                          'skipped': 0,
                          'extents': [{'b': 3, 'i': 4, 'k': 5, 'j': 6}, {'b': 6, 'i': 5, 'k': 4, 'j': 3}]}},
 'batched_transpose': {'name': 'batched_transpose',
                       'signature': 'batched_transpose(A[b,i,j]) -> B[b,j,i]',
                       'file': 'rules/batched.rules',
                       'line': 11,
                       'text': 'batched_transpose(A[b,i,j]) -> B[b,j,i] = A[b,i,j]',
                       'doc': '',
                       'inputs': [{'name': 'A',
                                   'kind': 'tensor',
                                   'indices': ['b', 'i', 'j'],
                                   'domain': 'real',
                                   'declared': False}],
                       'outputs': [{'name': 'B', 'indices': ['b', 'j', 'i']}],
                       'extents': {},
                       'equal_extents': [],
                       'pushforward': [{'target': 'dB',
                                        'text': 'dB_b = dA_bᵀ',
                                        'latex': '\\mathrm{d}B_{b} = \\mathrm{d}A_{b}^{\\top}',
                                        'matrix': 'dB_b = dA_bᵀ',
                                        'index': 'dB[b,j,i] = dA[b,i,j]',
                                        'index_latex': '\\mathrm{d}B_{bji} = \\mathrm{d}A_{bij}'}],
                       'pullback': [{'target': 'dA',
                                     'text': 'dA_b = dB_bᵀ',
                                     'latex': '\\mathrm{d}A_{b} = \\mathrm{d}B_{b}^{\\top}',
                                     'matrix': 'dA_b = dB_bᵀ',
                                     'index': 'dA[b,i,j] = dB[b,j,i]',
                                     'index_latex': '\\mathrm{d}A_{bij} = \\mathrm{d}B_{bji}'}],
                       'holds_for': 'every real input',
                       'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                       'verified': True,
                       'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                        'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                        'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                        'points': 4,
                                        'skipped': 0,
                                        'extents': [{'b': 3, 'i': 4, 'j': 5}, {'b': 5, 'i': 4, 'j': 3}]}},
 'batched_inv': {'name': 'batched_inv',
                 'signature': 'batched_inv(A[b,i,j]) -> B[b,i,j]',
                 'file': 'rules/batched.rules',
                 'line': 12,
                 'text': 'batched_inv(A[b,i,j]) -> B[b,i,j] = inv(A[b,i,j])',
                 'doc': '',
                 'inputs': [{'name': 'A',
                             'kind': 'tensor',
                             'indices': ['b', 'i', 'j'],
                             'domain': 'wellcond',
                             'declared': False}],
                 'outputs': [{'name': 'B', 'indices': ['b', 'i', 'j']}],
                 'extents': {},
                 'equal_extents': [['i', 'j']],
                 'pushforward': [{'target': 'dB',
                                  'text': 'dB_b = -B_b·dA_b·B_b',
                                  'latex': '\\mathrm{d}B_{b} = -B_{b} \\mathrm{d}A_{b} B_{b}',
                                  'matrix': 'dB_b = -B_b·dA_b·B_b',
                                  'index': 'dB[b,i,j] = Σ_kl -B[b,i,k]·B[b,l,j]·dA[b,k,l]',
                                  'index_latex': '\\mathrm{d}B_{bij} = \\sum_{kl} - B_{bik} B_{blj} '
                                                 '\\mathrm{d}A_{bkl}'}],
                 'pullback': [{'target': 'dA',
                               'text': 'dA_b = -B_bᵀ·dB_b·B_bᵀ',
                               'latex': '\\mathrm{d}A_{b} = -B_{b}^{\\top} \\mathrm{d}B_{b} B_{b}^{\\top}',
                               'matrix': 'dA_b = -B_bᵀ·dB_b·B_bᵀ',
                               'index': 'dA[b,i,j] = Σ_kl -B[b,j,l]·B[b,k,i]·dB[b,k,l]',
                               'index_latex': '\\mathrm{d}A_{bij} = \\sum_{kl} - B_{bjl} B_{bki} '
                                              '\\mathrm{d}B_{bkl}'}],
                 'holds_for': 'every invertible square A',
                 'saves': {'inputs': [], 'outputs': ['B'], 'intermediates': []},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                  'points': 4,
                                  'skipped': 0,
                                  'extents': [{'b': 3, 'i': 4, 'j': 4}, {'b': 4, 'i': 3, 'j': 3}]}},
 'batched_logdet': {'name': 'batched_logdet',
                    'signature': 'batched_logdet(A[b,i,j]) -> d[b]',
                    'file': 'rules/batched.rules',
                    'line': 13,
                    'text': 'batched_logdet(A[b,i,j]) -> d[b] = logdet(A[b,i,j])',
                    'doc': '',
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['b', 'i', 'j'],
                                'domain': 'spd',
                                'declared': False}],
                    'outputs': [{'name': 'd', 'indices': ['b']}],
                    'extents': {},
                    'equal_extents': [['i', 'j']],
                    'pushforward': [{'target': 'dd',
                                     'text': 'dd_b = tr(A_b⁻¹·dA_b)',
                                     'latex': '\\mathrm{d}d_{b} = \\operatorname{tr}\\left(A_{b}^{-1} '
                                              '\\mathrm{d}A_{b}\\right)',
                                     'matrix': 'dd_b = tr(A_b⁻¹·dA_b)',
                                     'index': 'dd[b] = Σ_kl A⁻¹[b,l,k]·dA[b,k,l]',
                                     'index_latex': '\\mathrm{d}d_{b} = \\sum_{kl} {A^{-1}}_{blk} '
                                                    '\\mathrm{d}A_{bkl}'}],
                    'pullback': [{'target': 'dA',
                                  'text': 'dA_b = dd_b·A_b⁻ᵀ',
                                  'latex': '\\mathrm{d}A_{b} = \\mathrm{d}d_{b} A_{b}^{-\\top}',
                                  'matrix': 'dA_b = dd_b·A_b⁻ᵀ',
                                  'index': 'dA[b,i,j] = A⁻¹[b,j,i]·dd[b]',
                                  'index_latex': '\\mathrm{d}A_{bij} = {A^{-1}}_{bji} \\mathrm{d}d_{b}'}],
                    'holds_for': 'every invertible square A',
                    'saves': {'inputs': ['A'], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'b': 3, 'i': 4, 'j': 4}, {'b': 4, 'i': 3, 'j': 3}]}},
 'batched_solve': {'name': 'batched_solve',
                   'signature': 'batched_solve(A[b,i,j], y[b,j]) -> x[b,i]',
                   'file': 'rules/batched.rules',
                   'line': 14,
                   'text': 'batched_solve(A[b,i,j], y[b,j]) -> x[b,i] = solve(A[b,i,j], y[b,j])',
                   'doc': '',
                   'inputs': [{'name': 'A',
                               'kind': 'tensor',
                               'indices': ['b', 'i', 'j'],
                               'domain': 'wellcond',
                               'declared': False},
                              {'name': 'y',
                               'kind': 'tensor',
                               'indices': ['b', 'j'],
                               'domain': 'real',
                               'declared': False}],
                   'outputs': [{'name': 'x', 'indices': ['b', 'i']}],
                   'extents': {},
                   'equal_extents': [['i', 'j']],
                   'pushforward': [{'target': 'dz',
                                    'text': 'dz_b = dy_b - dA_b·x_b',
                                    'latex': '\\mathrm{d}z_{b} = \\mathrm{d}y_{b} - \\mathrm{d}A_{b} x_{b}',
                                    'matrix': 'dz_b = dy_b - dA_b·x_b',
                                    'index': 'dz[b,i] = Σ_k -dA[b,i,k]·x[b,k] + dy[b,i]',
                                    'index_latex': '\\mathrm{d}z_{bi} = \\sum_{k} - \\mathrm{d}A_{bik} '
                                                   'x_{bk} + \\mathrm{d}y_{bi}'},
                                   {'target': 'dx',
                                    'text': 'dx_b = A_b⁻¹·dz_b',
                                    'latex': '\\mathrm{d}x_{b} = A_{b}^{-1} \\mathrm{d}z_{b}',
                                    'matrix': 'dx_b = A_b⁻¹·dz_b',
                                    'index': 'dx[b,i] = Σ_k A⁻¹[b,i,k]·dz[b,k]',
                                    'index_latex': '\\mathrm{d}x_{bi} = \\sum_{k} {A^{-1}}_{bik} '
                                                   '\\mathrm{d}z_{bk}'}],
                   'pullback': [{'target': 'dy',
                                 'text': 'dy_b = A_b⁻ᵀ·dx_b',
                                 'latex': '\\mathrm{d}y_{b} = A_{b}^{-\\top} \\mathrm{d}x_{b}',
                                 'matrix': 'dy_b = A_b⁻ᵀ·dx_b',
                                 'index': 'dy[b,j] = Σ_k A⁻¹[b,k,j]·dx[b,k]',
                                 'index_latex': '\\mathrm{d}y_{bj} = \\sum_{k} {A^{-1}}_{bkj} '
                                                '\\mathrm{d}x_{bk}'},
                                {'target': 'dA',
                                 'text': 'dA_b = -dy_b·x_bᵀ',
                                 'latex': '\\mathrm{d}A_{b} = -\\mathrm{d}y_{b} x_{b}^{\\top}',
                                 'matrix': 'dA_b = -dy_b·x_bᵀ',
                                 'index': 'dA[b,i,j] = -dy[b,i]·x[b,j]',
                                 'index_latex': '\\mathrm{d}A_{bij} = - \\mathrm{d}y_{bi} x_{bj}'}],
                   'holds_for': 'every invertible square A, every real value of the other inputs',
                   'saves': {'inputs': ['A'], 'outputs': ['x'], 'intermediates': []},
                   'verified': True,
                   'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                    'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                    'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                    'points': 4,
                                    'skipped': 0,
                                    'extents': [{'b': 3, 'i': 4, 'j': 4}, {'b': 4, 'i': 3, 'j': 3}]}},
 'batched_cayley': {'name': 'batched_cayley',
                    'signature': 'batched_cayley(A[b,i,j]) -> Q[b,i,j]',
                    'file': 'rules/batched.rules',
                    'line': 18,
                    'text': 'batched_cayley(A[b,i,j]) -> Q[b,i,j]:\n'
                            '    M[b,i,j] = inv(delta(i,j) - A[b,i,j])\n'
                            '    Q[b,i,j] = 2 * M[b,i,j] - delta(i,j)',
                    'doc': "Volume-preserving attention's building block: a Cayley transform per batch "
                           'element, (I - A)⁻¹·(I + A)\n'
                           'written 2·(I - A)⁻¹ - I so that its derivative 2·M·dA·M does not cancel for '
                           "large A (as cayley's).",
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['b', 'i', 'j'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'Q', 'indices': ['b', 'i', 'j']}],
                    'extents': {},
                    'equal_extents': [['i', 'j']],
                    'pushforward': [{'target': 'dt0',
                                     'text': 'dt0_b = -dA_b',
                                     'latex': '\\mathrm{d}{\\mathit{t0}}_{b} = -\\mathrm{d}A_{b}',
                                     'matrix': 'dt0_b = -dA_b',
                                     'index': 'dt0[b,i,j] = -dA[b,i,j]',
                                     'index_latex': '\\mathrm{d}\\mathit{t0}_{bij} = - \\mathrm{d}A_{bij}'},
                                    {'target': 'dM',
                                     'text': 'dM_b = -M_b·dt0_b·M_b',
                                     'latex': '\\mathrm{d}M_{b} = -M_{b} \\mathrm{d}{\\mathit{t0}}_{b} M_{b}',
                                     'matrix': 'dM_b = -M_b·dt0_b·M_b',
                                     'index': 'dM[b,i,j] = Σ_kl -M[b,i,k]·M[b,l,j]·dt0[b,k,l]',
                                     'index_latex': '\\mathrm{d}M_{bij} = \\sum_{kl} - M_{bik} M_{blj} '
                                                    '{\\mathrm{d}\\mathit{t0}}_{bkl}'},
                                    {'target': 'dQ',
                                     'text': 'dQ_b = 2·dM_b',
                                     'latex': '\\mathrm{d}Q_{b} = 2 \\mathrm{d}M_{b}',
                                     'matrix': 'dQ_b = 2·dM_b',
                                     'index': 'dQ[b,i,j] = 2·dM[b,i,j]',
                                     'index_latex': '\\mathrm{d}Q_{bij} = 2 \\mathrm{d}M_{bij}'}],
                    'pullback': [{'target': 'dA',
                                  'text': 'dA_b = 2·M_bᵀ·dQ_b·M_bᵀ',
                                  'latex': '\\mathrm{d}A_{b} = 2 M_{b}^{\\top} \\mathrm{d}Q_{b} '
                                           'M_{b}^{\\top}',
                                  'matrix': 'dA_b = 2·M_bᵀ·dQ_b·M_bᵀ',
                                  'index': 'dA[b,i,j] = Σ_kl 2·M[b,j,l]·M[b,k,i]·dQ[b,k,l]',
                                  'index_latex': '\\mathrm{d}A_{bij} = \\sum_{kl} 2 M_{bjl} M_{bki} '
                                                 '\\mathrm{d}Q_{bkl}'}],
                    'holds_for': 'every real input',
                    'saves': {'inputs': [], 'outputs': [], 'intermediates': ['M']},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 5},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'b': 3, 'i': 4, 'j': 4}, {'b': 4, 'i': 3, 'j': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
