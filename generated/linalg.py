# @generated from rules/linalg.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: linear algebra.

Matrices are tensors with two indices, rows first. Matrix functions (inv, det, logdet, solve, trace)
act on their argument's first two indices; further indices are batch indices (see batched.rules)."""
from runtime.tangents import NoTangent, ZeroTangent, Thunk, is_zero
from runtime.registry import export_ops

def _define(np):
    """The ops' forward functions, frules and rrules over the array namespace `np`."""
    _NO, _ZERO = NoTangent(), ZeroTangent()  # singletons: bound once, not constructed in every pullback

    def _add(a, b):
        if is_zero(a):
            return b
        if is_zero(b):
            return a
        return a + b

    # ---- matmul(A[i,k], B[k,j]) -> C[i,j]    (rules/linalg.rules:7)
    def matmul(A, B):
        _c0 = A @ B
        C = _c0
        return C

    def matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        _c1 = A @ B
        C = _c1
        dC = _ZERO
        if not is_zero(dB):
            _c2 = A @ dB
            dC = _add(dC, _c2)
        if not is_zero(dA):
            _c3 = dA @ B
            dC = _add(dC, _c3)
        return C, dC

    def matmul_rrule(A, B):
        _c4 = A @ B
        C = _c4
        def matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A5():
                _c6 = dC @ np.transpose(B)
                dA = _c6
                return dA
            def _pb_B7():
                _c8 = np.transpose(A) @ dC
                dB = _c8
                return dB
            return (_NO, Thunk(_pb_A5), Thunk(_pb_B7))
        return C, matmul_pullback

    # ---- matvec(A[i,j], x[j]) -> y[i]    (rules/linalg.rules:8)
    def matvec(A, x):
        _c0 = A @ x
        y = _c0
        return y

    def matvec_frule(tangents, A, x):
        _, dA, dx = tangents
        _c1 = A @ x
        y = _c1
        dy = _ZERO
        if not is_zero(dx):
            _c2 = A @ dx
            dy = _add(dy, _c2)
        if not is_zero(dA):
            _c3 = dA @ x
            dy = _add(dy, _c3)
        return y, dy

    def matvec_rrule(A, x):
        _c4 = A @ x
        y = _c4
        def matvec_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO, _ZERO)
            def _pb_A5():
                _e6 = ((dy[:, None]) * x)
                dA = _e6
                return dA
            def _pb_x7():
                _c8 = np.transpose(A) @ dy
                dx = _c8
                return dx
            return (_NO, Thunk(_pb_A5), Thunk(_pb_x7))
        return y, matvec_pullback

    # ---- dot(x[i], y[i]) -> s[]    (rules/linalg.rules:9)
    def dot(x, y):
        _e0 = (x * y)
        _c1 = np.sum(_e0, axis=0)
        s = _c1
        return s

    def dot_frule(tangents, x, y):
        _, dx, dy = tangents
        _e2 = (x * y)
        _c3 = np.sum(_e2, axis=0)
        s = _c3
        ds = _ZERO
        if not is_zero(dx):
            _e4 = (dx * y)
            _c5 = np.sum(_e4, axis=0)
            ds = _add(ds, _c5)
        if not is_zero(dy):
            _e6 = (dy * x)
            _c7 = np.sum(_e6, axis=0)
            ds = _add(ds, _c7)
        return s, ds

    def dot_rrule(x, y):
        _e8 = (x * y)
        _c9 = np.sum(_e8, axis=0)
        s = _c9
        def dot_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x10():
                _e11 = (ds * y)
                dx = _e11
                return dx
            def _pb_y12():
                _e13 = (ds * x)
                dy = _e13
                return dy
            return (_NO, Thunk(_pb_x10), Thunk(_pb_y12))
        return s, dot_pullback

    # ---- outer(x[i], y[j]) -> A[i,j]    (rules/linalg.rules:10)
    def outer(x, y):
        _e0 = ((x[:, None]) * y)
        A = _e0
        return A

    def outer_frule(tangents, x, y):
        _, dx, dy = tangents
        _e1 = ((x[:, None]) * y)
        A = _e1
        dA = _ZERO
        if not is_zero(dx):
            _e2 = ((dx[:, None]) * y)
            dA = _add(dA, _e2)
        if not is_zero(dy):
            _e3 = (dy * (x[:, None]))
            dA = _add(dA, _e3)
        return A, dA

    def outer_rrule(x, y):
        _e4 = ((x[:, None]) * y)
        A = _e4
        def outer_pullback(dA):
            if is_zero(dA):
                return (_NO, _ZERO, _ZERO)
            def _pb_x5():
                _c6 = dA @ y
                dx = _c6
                return dx
            def _pb_y7():
                _c8 = np.transpose(dA) @ x
                dy = _c8
                return dy
            return (_NO, Thunk(_pb_x5), Thunk(_pb_y7))
        return A, outer_pullback

    # ---- transpose(A[i,j]) -> B[j,i]    (rules/linalg.rules:11)
    def transpose(A):
        B = np.transpose(A, (1, 0))
        return B

    def transpose_frule(tangents, A):
        _, dA = tangents
        B = np.transpose(A, (1, 0))
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, np.transpose(dA, (1, 0)))
        return B, dB

    def transpose_rrule(A):
        B = np.transpose(A, (1, 0))
        def transpose_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = np.transpose(dB, (1, 0))
            return (_NO, dA)
        return B, transpose_pullback

    # ---- trace(A[i,j]) -> t[]    (rules/linalg.rules:12)
    def trace(A):
        _g0 = np.einsum("aa->a", A)
        _c1 = np.sum(_g0, axis=0)
        t = _c1
        return t

    def trace_frule(tangents, A):
        _, dA = tangents
        _g2 = np.einsum("aa->a", A)
        _c3 = np.sum(_g2, axis=0)
        t = _c3
        dt = _ZERO
        if not is_zero(dA):
            _g4 = np.einsum("aa->a", dA)
            _c5 = np.sum(_g4, axis=0)
            dt = _add(dt, _c5)
        return t, dt

    def trace_rrule(A):
        n_i = A.shape[0]
        _g6 = np.einsum("aa->a", A)
        _c7 = np.sum(_g6, axis=0)
        t = _c7
        def trace_pullback(dt):
            if is_zero(dt):
                return (_NO, _ZERO)
            _d8 = np.eye(n_i, dtype=np.result_type(A))
            _e9 = (_d8 * dt)
            dA = _e9
            return (_NO, dA)
        return t, trace_pullback

    # ---- bilinear(x[i], A[i,j], y[j]) -> s[]    (rules/linalg.rules:15)
    def bilinear(x, A, y):
        _c0 = np.transpose(A) @ x
        _c1 = y @ _c0
        s = _c1
        return s

    def bilinear_frule(tangents, x, A, y):
        _, dx, dA, dy = tangents
        _c2 = np.transpose(A) @ x
        _c3 = y @ _c2
        s = _c3
        ds = _ZERO
        if not is_zero(dx):
            _c4 = np.transpose(A) @ dx
            _c5 = y @ _c4
            ds = _add(ds, _c5)
        if not is_zero(dy):
            _c6 = A @ dy
            _c7 = x @ _c6
            ds = _add(ds, _c7)
        if not is_zero(dA):
            _c8 = np.transpose(dA) @ x
            _c9 = y @ _c8
            ds = _add(ds, _c9)
        return s, ds

    def bilinear_rrule(x, A, y):
        _c10 = np.transpose(A) @ x
        _c11 = y @ _c10
        s = _c11
        def bilinear_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_x12():
                _c13 = ds * (A @ y)
                dx = _c13
                return dx
            def _pb_A14():
                _e15 = (ds * (x[:, None]) * y)
                dA = _e15
                return dA
            def _pb_y16():
                _c17 = ds * _c10
                dy = _c17
                return dy
            return (_NO, Thunk(_pb_x12), Thunk(_pb_A14), Thunk(_pb_y16))
        return s, bilinear_pullback

    # ---- quadratic(x[i], A[i,j]) -> s[]    (rules/linalg.rules:16)
    def quadratic(x, A):
        _c0 = np.transpose(A) @ x
        _c1 = x @ _c0
        s = _c1
        return s

    def quadratic_frule(tangents, x, A):
        _, dx, dA = tangents
        _c2 = np.transpose(A) @ x
        _c3 = x @ _c2
        s = _c3
        ds = _ZERO
        if not is_zero(dx):
            _c4 = np.transpose(A) @ dx
            _c5 = x @ _c4
            _c6 = A @ dx
            _c7 = x @ _c6
            _e8 = (_c5 + _c7)
            ds = _add(ds, _e8)
        if not is_zero(dA):
            _c9 = np.transpose(dA) @ x
            _c10 = x @ _c9
            ds = _add(ds, _c10)
        return s, ds

    def quadratic_rrule(x, A):
        _c11 = np.transpose(A) @ x
        _c12 = x @ _c11
        s = _c12
        def quadratic_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x13():
                _c14 = ds * (A @ x)
                _c15 = ds * _c11
                _e16 = (_c14 + _c15)
                dx = _e16
                return dx
            def _pb_A17():
                _e18 = (ds * (x[:, None]) * x)
                dA = _e18
                return dA
            return (_NO, Thunk(_pb_x13), Thunk(_pb_A17))
        return s, quadratic_pullback

    # ---- inv(A[i,j]) -> B[i,j]    (rules/linalg.rules:19)
    def inv(A):
        B = np.linalg.inv(A)
        return B

    def inv_frule(tangents, A):
        _, dA = tangents
        B = np.linalg.inv(A)
        dB = _ZERO
        if not is_zero(dA):
            _c0 = B @ dA
            _c1 = -(_c0 @ B)
            dB = _add(dB, _c1)
        return B, dB

    def inv_rrule(A):
        B = np.linalg.inv(A)
        def inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            _c2 = B @ np.transpose(dB)
            _c3 = -(np.transpose(B) @ np.transpose(_c2))
            dA = _c3
            return (_NO, dA)
        return B, inv_pullback

    # ---- det(A[i,j]) -> d[]    (rules/linalg.rules:20)
    def det(A):
        d = np.linalg.det(A)
        return d

    def det_frule(tangents, A):
        _, dA = tangents
        d = np.linalg.det(A)
        _inv_A = np.linalg.inv(A)
        dd = _ZERO
        if not is_zero(dA):
            _e0 = (_inv_A * np.transpose(dA, (1, 0)))
            _c1 = d * np.sum(_e0, axis=(0, 1))
            dd = _add(dd, _c1)
        return d, dd

    def det_rrule(A):
        d = np.linalg.det(A)
        def det_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            _inv_A = np.linalg.inv(A)
            _e2 = (np.transpose(_inv_A, (1, 0)) * dd * d)
            dA = _e2
            return (_NO, dA)
        return d, det_pullback

    # ---- logdet(A[i,j]) -> d[]    (rules/linalg.rules:21)
    def logdet(A):
        d = np.linalg.slogdet(A)[1]
        return d

    def logdet_frule(tangents, A):
        _, dA = tangents
        d = np.linalg.slogdet(A)[1]
        _inv_A = np.linalg.inv(A)
        dd = _ZERO
        if not is_zero(dA):
            _e0 = (_inv_A * np.transpose(dA, (1, 0)))
            _c1 = np.sum(_e0, axis=(0, 1))
            dd = _add(dd, _c1)
        return d, dd

    def logdet_rrule(A):
        d = np.linalg.slogdet(A)[1]
        def logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            _inv_A = np.linalg.inv(A)
            _e2 = (np.transpose(_inv_A, (1, 0)) * dd)
            dA = _e2
            return (_NO, dA)
        return d, logdet_pullback

    # ---- solve(A[i,j], b[j]) -> x[i]    (rules/linalg.rules:22)
    def solve(A, b):
        x = np.linalg.solve(A, b)
        return x

    def solve_frule(tangents, A, b):
        _, dA, db = tangents
        x = np.linalg.solve(A, b)
        _inv_A = np.linalg.inv(A)
        _dz4 = _ZERO
        if not is_zero(dA):
            _c0 = -(dA @ x)
            _dz4 = _add(_dz4, _c0)
        if not is_zero(db):
            _dz4 = _add(_dz4, db)
        dx = _ZERO
        if not is_zero(_dz4):
            _c1 = _inv_A @ _dz4
            dx = _add(dx, _c1)
        return x, dx

    def solve_rrule(A, b):
        x = np.linalg.solve(A, b)
        def solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _c2 = np.linalg.solve(np.transpose(A), dx)
            _dz4 = _c2
            def _pb_A3():
                _e4 = (-((_dz4[:, None]) * x))
                dA = _e4
                return dA
            def _pb_b5():
                db = _dz4
                return db
            return (_NO, Thunk(_pb_A3), Thunk(_pb_b5))
        return x, solve_pullback

    # ---- solve_matrix(A[i,j], B[j,k]) -> X[i,k]    (rules/linalg.rules:23)
    def solve_matrix(A, B):
        X = np.linalg.solve(A, B)
        return X

    def solve_matrix_frule(tangents, A, B):
        _, dA, dB = tangents
        X = np.linalg.solve(A, B)
        _inv_A = np.linalg.inv(A)
        _dz5 = _ZERO
        if not is_zero(dA):
            _c0 = -(dA @ X)
            _dz5 = _add(_dz5, _c0)
        if not is_zero(dB):
            _dz5 = _add(_dz5, dB)
        dX = _ZERO
        if not is_zero(_dz5):
            _c1 = _inv_A @ _dz5
            dX = _add(dX, _c1)
        return X, dX

    def solve_matrix_rrule(A, B):
        X = np.linalg.solve(A, B)
        def solve_matrix_pullback(dX):
            if is_zero(dX):
                return (_NO, _ZERO, _ZERO)
            _c2 = np.linalg.solve(np.transpose(A), dX)
            _dz5 = _c2
            def _pb_A3():
                _c4 = -(_dz5 @ np.transpose(X))
                dA = _c4
                return dA
            def _pb_B5():
                dB = _dz5
                return dB
            return (_NO, Thunk(_pb_A3), Thunk(_pb_B5))
        return X, solve_matrix_pullback

    # ---- mahalanobis(x[i], S[i,j]) -> m[]    (rules/linalg.rules:26)
    def mahalanobis(x, S):
        _c0 = np.linalg.solve(np.transpose(S), x)
        _c1 = x @ _c0
        m = _c1
        return m

    def mahalanobis_frule(tangents, x, S):
        _, dx, dS = tangents
        _inv_S = np.linalg.inv(S)
        _c2 = np.transpose(_inv_S) @ x
        _c3 = x @ _c2
        m = _c3
        _dinv_S = _ZERO
        if not is_zero(dS):
            _c4 = _inv_S @ dS
            _c5 = -(_c4 @ _inv_S)
            _dinv_S = _add(_dinv_S, _c5)
        dm = _ZERO
        if not is_zero(dx):
            _c6 = np.transpose(_inv_S) @ dx
            _c7 = x @ _c6
            _c8 = _inv_S @ dx
            _c9 = x @ _c8
            _e10 = (_c7 + _c9)
            dm = _add(dm, _e10)
        if not is_zero(_dinv_S):
            _c11 = np.transpose(_dinv_S) @ x
            _c12 = x @ _c11
            dm = _add(dm, _c12)
        return m, dm

    def mahalanobis_rrule(x, S):
        _inv_S = np.linalg.inv(S)
        _c13 = np.transpose(_inv_S) @ x
        _c14 = x @ _c13
        m = _c14
        def mahalanobis_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO, _ZERO)
            _e15 = (dm * (x[:, None]) * x)
            _dinv_S = _e15
            def _pb_x16():
                _c17 = dm * (_inv_S @ x)
                _c18 = dm * _c13
                _e19 = (_c17 + _c18)
                dx = _e19
                return dx
            def _pb_S20():
                _c21 = _inv_S @ np.transpose(_dinv_S)
                _c22 = -(np.transpose(_inv_S) @ np.transpose(_c21))
                dS = _c22
                return dS
            return (_NO, Thunk(_pb_x16), Thunk(_pb_S20))
        return m, mahalanobis_pullback

    # ---- cayley(A[i,j]) -> Q[i,j]    (rules/linalg.rules:29)
    def cayley(A):
        n_i = A.shape[0]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        _e1 = (_d0 - A)
        _t0 = _e1
        _e2 = (A + np.transpose(_d0, (1, 0)))
        _c3 = np.linalg.solve(_t0, _e2)
        Q = _c3
        return Q

    def cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[0]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        _e5 = (_d4 - A)
        _t0 = _e5
        _M = np.linalg.inv(_t0)
        _e6 = (A + np.transpose(_d4, (1, 0)))
        _c7 = _M @ _e6
        Q = _c7
        _dt0 = _ZERO
        if not is_zero(dA):
            _e8 = (-dA)
            _dt0 = _add(_dt0, _e8)
        _dM = _ZERO
        if not is_zero(_dt0):
            _c9 = _M @ _dt0
            _c10 = -(_c9 @ _M)
            _dM = _add(_dM, _c10)
        dQ = _ZERO
        if not is_zero(_dM):
            _c11 = _dM @ A
            dQ = _add(dQ, _c11 + _dM)
        if not is_zero(dA):
            _c12 = _M @ dA
            dQ = _add(dQ, _c12)
        return Q, dQ

    def cayley_rrule(A):
        n_i = A.shape[0]
        _d13 = np.eye(n_i, dtype=np.result_type(A))
        _e14 = (_d13 - A)
        _t0 = _e14
        _M = np.linalg.inv(_t0)
        _e15 = (A + np.transpose(_d13, (1, 0)))
        _c16 = _M @ _e15
        Q = _c16
        def cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            _c17 = dQ @ np.transpose(A)
            _dM = _c17 + dQ
            _c18 = _M @ np.transpose(_dM)
            _c19 = -(np.transpose(_M) @ np.transpose(_c18))
            _dt0 = _c19
            _c20 = np.transpose(_M) @ dQ
            dA = _c20
            _e21 = (-_dt0)
            dA = _add(dA, _e21)
            return (_NO, dA)
        return Q, cayley_pullback

    return {
        "matmul": matmul,
        "matmul_frule": matmul_frule,
        "matmul_rrule": matmul_rrule,
        "matvec": matvec,
        "matvec_frule": matvec_frule,
        "matvec_rrule": matvec_rrule,
        "dot": dot,
        "dot_frule": dot_frule,
        "dot_rrule": dot_rrule,
        "outer": outer,
        "outer_frule": outer_frule,
        "outer_rrule": outer_rrule,
        "transpose": transpose,
        "transpose_frule": transpose_frule,
        "transpose_rrule": transpose_rrule,
        "trace": trace,
        "trace_frule": trace_frule,
        "trace_rrule": trace_rrule,
        "bilinear": bilinear,
        "bilinear_frule": bilinear_frule,
        "bilinear_rrule": bilinear_rrule,
        "quadratic": quadratic,
        "quadratic_frule": quadratic_frule,
        "quadratic_rrule": quadratic_rrule,
        "inv": inv,
        "inv_frule": inv_frule,
        "inv_rrule": inv_rrule,
        "det": det,
        "det_frule": det_frule,
        "det_rrule": det_rrule,
        "logdet": logdet,
        "logdet_frule": logdet_frule,
        "logdet_rrule": logdet_rrule,
        "solve": solve,
        "solve_frule": solve_frule,
        "solve_rrule": solve_rrule,
        "solve_matrix": solve_matrix,
        "solve_matrix_frule": solve_matrix_frule,
        "solve_matrix_rrule": solve_matrix_rrule,
        "mahalanobis": mahalanobis,
        "mahalanobis_frule": mahalanobis_frule,
        "mahalanobis_rrule": mahalanobis_rrule,
        "cayley": cayley,
        "cayley_frule": cayley_frule,
        "cayley_rrule": cayley_rrule,
    }


OPS = {'matmul': {'signature': 'matmul(A[i,k], B[k,j]) -> C[i,j]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'k']},
                       {'name': 'B', 'kind': 'tensor', 'indices': ['k', 'j']}],
            'outputs': [{'name': 'C', 'indices': ['i', 'j']}],
            'equal_extents': [],
            'domains': {'A': 'real', 'B': 'real'},
            'source': 'rules/linalg.rules:7'},
 'matvec': {'signature': 'matvec(A[i,j], x[j]) -> y[i]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                       {'name': 'x', 'kind': 'tensor', 'indices': ['j']}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'equal_extents': [],
            'domains': {'A': 'real', 'x': 'real'},
            'source': 'rules/linalg.rules:8'},
 'dot': {'signature': 'dot(x[i], y[i]) -> s[]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                    {'name': 'y', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 's', 'indices': []}],
         'equal_extents': [],
         'domains': {'x': 'real', 'y': 'real'},
         'source': 'rules/linalg.rules:9'},
 'outer': {'signature': 'outer(x[i], y[j]) -> A[i,j]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                      {'name': 'y', 'kind': 'tensor', 'indices': ['j']}],
           'outputs': [{'name': 'A', 'indices': ['i', 'j']}],
           'equal_extents': [],
           'domains': {'x': 'real', 'y': 'real'},
           'source': 'rules/linalg.rules:10'},
 'transpose': {'signature': 'transpose(A[i,j]) -> B[j,i]',
               'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
               'outputs': [{'name': 'B', 'indices': ['j', 'i']}],
               'equal_extents': [],
               'domains': {'A': 'real'},
               'source': 'rules/linalg.rules:11'},
 'trace': {'signature': 'trace(A[i,j]) -> t[]',
           'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
           'outputs': [{'name': 't', 'indices': []}],
           'equal_extents': [['i', 'j']],
           'domains': {'A': 'real'},
           'source': 'rules/linalg.rules:12'},
 'bilinear': {'signature': 'bilinear(x[i], A[i,j], y[j]) -> s[]',
              'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                         {'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                         {'name': 'y', 'kind': 'tensor', 'indices': ['j']}],
              'outputs': [{'name': 's', 'indices': []}],
              'equal_extents': [],
              'domains': {'x': 'real', 'A': 'real', 'y': 'real'},
              'source': 'rules/linalg.rules:15'},
 'quadratic': {'signature': 'quadratic(x[i], A[i,j]) -> s[]',
               'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                          {'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
               'outputs': [{'name': 's', 'indices': []}],
               'equal_extents': [['i', 'j']],
               'domains': {'x': 'real', 'A': 'real'},
               'source': 'rules/linalg.rules:16'},
 'inv': {'signature': 'inv(A[i,j]) -> B[i,j]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
         'outputs': [{'name': 'B', 'indices': ['i', 'j']}],
         'equal_extents': [['i', 'j']],
         'domains': {'A': 'wellcond'},
         'source': 'rules/linalg.rules:19'},
 'det': {'signature': 'det(A[i,j]) -> d[]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
         'outputs': [{'name': 'd', 'indices': []}],
         'equal_extents': [['i', 'j']],
         'domains': {'A': 'wellcond'},
         'source': 'rules/linalg.rules:20'},
 'logdet': {'signature': 'logdet(A[i,j]) -> d[]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
            'outputs': [{'name': 'd', 'indices': []}],
            'equal_extents': [['i', 'j']],
            'domains': {'A': 'spd'},
            'source': 'rules/linalg.rules:21'},
 'solve': {'signature': 'solve(A[i,j], b[j]) -> x[i]',
           'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                      {'name': 'b', 'kind': 'tensor', 'indices': ['j']}],
           'outputs': [{'name': 'x', 'indices': ['i']}],
           'equal_extents': [['i', 'j']],
           'domains': {'A': 'wellcond', 'b': 'real'},
           'source': 'rules/linalg.rules:22'},
 'solve_matrix': {'signature': 'solve_matrix(A[i,j], B[j,k]) -> X[i,k]',
                  'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                             {'name': 'B', 'kind': 'tensor', 'indices': ['j', 'k']}],
                  'outputs': [{'name': 'X', 'indices': ['i', 'k']}],
                  'equal_extents': [['i', 'j']],
                  'domains': {'A': 'wellcond', 'B': 'real'},
                  'source': 'rules/linalg.rules:23'},
 'mahalanobis': {'signature': 'mahalanobis(x[i], S[i,j]) -> m[]',
                 'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                            {'name': 'S', 'kind': 'tensor', 'indices': ['i', 'j']}],
                 'outputs': [{'name': 'm', 'indices': []}],
                 'equal_extents': [['i', 'j']],
                 'domains': {'x': 'real', 'S': 'wellcond'},
                 'source': 'rules/linalg.rules:26'},
 'cayley': {'signature': 'cayley(A[i,j]) -> Q[i,j]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
            'outputs': [{'name': 'Q', 'indices': ['i', 'j']}],
            'equal_extents': [['i', 'j']],
            'domains': {'A': 'real'},
            'source': 'rules/linalg.rules:29'}}

globals().update(export_ops(__name__, OPS, _define))
