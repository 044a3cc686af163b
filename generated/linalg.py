# @generated from rules/linalg.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: linear algebra.

Matrices are tensors with two indices, rows first. Matrix functions (inv, det, logdet, solve, trace)
act on their argument's first two indices; further indices are batch indices (see batched.rules)."""
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

    def _recip(n):
        """1 / n for a product of extents n (a Python number): inf where an extent is 0, so that an empty mean
        is 0 * inf = nan as in NumPy, not a ZeroDivisionError; a Python float keeps float32 results float32."""
        return 1 / n if n else math.inf

    def _add(a, b):
        if is_zero(a):
            return b
        if is_zero(b):
            return a
        return a + b

    # ---- matmul(A[i,k], B[k,j]) -> C[i,j]    (rules/linalg.rules:7)
    # Matrix product: one contraction per input in the pullback (dA = dC·Bᵀ, dB = Aᵀ·dC).
    def matmul(A, B):
        C = (A @ B)
        return C

    def matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = (A @ B)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, (A @ dB))
        if not is_zero(dA):
            dC = _add(dC, (dA @ B))
        return C, dC

    def matmul_rrule(A, B):
        C = (A @ B)
        def matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = (dC @ np.transpose(B))
                return dA
            def _pb_B_7():
                dB = (np.transpose(A) @ dC)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, matmul_pullback

    # ---- matvec(A[i,j], x[j]) -> y[i]    (rules/linalg.rules:8)
    def matvec(A, x):
        y = (A @ x)
        return y

    def matvec_frule(tangents, A, x):
        _, dA, dx = tangents
        y = (A @ x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (A @ dx))
        if not is_zero(dA):
            dy_ = _add(dy_, (dA @ x))
        return y, dy_

    def matvec_rrule(A, x):
        y = (A @ x)
        def matvec_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = ((dy_[:, None]) * x)
                return dA
            def _pb_x_7():
                dx = (np.transpose(A) @ dy_)
                return dx
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_x_7))
        return y, matvec_pullback

    # ---- dot(x[i], y[i]) -> s[]    (rules/linalg.rules:9)
    def dot(x, y):
        s = np.sum((x * y), axis=0)
        return s

    def dot_frule(tangents, x, y):
        _, dx, dy_ = tangents
        s = np.sum((x * y), axis=0)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.sum((dx * y), axis=0))
        if not is_zero(dy_):
            ds = _add(ds, np.sum((dy_ * x), axis=0))
        return s, ds

    def dot_rrule(x, y):
        s = np.sum((x * y), axis=0)
        def dot_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                dx = (ds * y)
                return dx
            def _pb_y_12():
                dy_ = (ds * x)
                return dy_
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_y_12))
        return s, dot_pullback

    # ---- outer(x[i], y[j]) -> A[i,j]    (rules/linalg.rules:10)
    def outer(x, y):
        A = ((x[:, None]) * y)
        return A

    def outer_frule(tangents, x, y):
        _, dx, dy_ = tangents
        A = ((x[:, None]) * y)
        dA = _ZERO
        if not is_zero(dx):
            dA = _add(dA, ((dx[:, None]) * y))
        if not is_zero(dy_):
            dA = _add(dA, (dy_ * (x[:, None])))
        return A, dA

    def outer_rrule(x, y):
        A = ((x[:, None]) * y)
        def outer_pullback(dA):
            if is_zero(dA):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_5():
                dx = (dA @ y)
                return dx
            def _pb_y_7():
                dy_ = (np.transpose(dA) @ x)
                return dy_
            return (_NO, Thunk(_pb_x_5), Thunk(_pb_y_7))
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
        t = np.sum(np.einsum("aa->a", A), axis=0)
        return t

    def trace_frule(tangents, A):
        _, dA = tangents
        t = np.sum(np.einsum("aa->a", A), axis=0)
        dt = _ZERO
        if not is_zero(dA):
            dt = _add(dt, np.sum(np.einsum("aa->a", dA), axis=0))
        return t, dt

    def trace_rrule(A):
        n_i = A.shape[0]
        t = np.sum(np.einsum("aa->a", A), axis=0)
        def trace_pullback(dt):
            if is_zero(dt):
                return (_NO, _ZERO)
            dA = (np.eye(n_i, dtype=np.result_type(A)) * dt)
            return (_NO, dA)
        return t, trace_pullback

    # ---- bilinear(x[i], A[i,j], y[j]) -> s[]    (rules/linalg.rules:15)
    # Bilinear and quadratic forms.
    def bilinear(x, A, y):
        s = (y @ (np.transpose(A) @ x))
        return s

    def bilinear_frule(tangents, x, A, y):
        _, dx, dA, dy_ = tangents
        s = (y @ (np.transpose(A) @ x))
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, (y @ (np.transpose(A) @ dx)))
        if not is_zero(dy_):
            ds = _add(ds, (x @ (A @ dy_)))
        if not is_zero(dA):
            ds = _add(ds, (y @ (np.transpose(dA) @ x)))
        return s, ds

    def bilinear_rrule(x, A, y):
        _c10 = np.transpose(A) @ x
        s = (y @ _c10)
        def bilinear_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_x_12():
                dx = (ds * (A @ y))
                return dx
            def _pb_A_14():
                dA = (ds * (x[:, None]) * y)
                return dA
            def _pb_y_16():
                dy_ = (ds * _c10)
                return dy_
            return (_NO, Thunk(_pb_x_12), Thunk(_pb_A_14), Thunk(_pb_y_16))
        return s, bilinear_pullback

    # ---- quadratic(x[i], A[i,j]) -> s[]    (rules/linalg.rules:16)
    def quadratic(x, A):
        s = (x @ (np.transpose(A) @ x))
        return s

    def quadratic_frule(tangents, x, A):
        _, dx, dA = tangents
        s = (x @ (np.transpose(A) @ x))
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, (x @ (np.transpose((A + np.transpose(A, (1, 0)))) @ dx)))
        if not is_zero(dA):
            ds = _add(ds, (x @ (np.transpose(dA) @ x)))
        return s, ds

    def quadratic_rrule(x, A):
        s = (x @ (np.transpose(A) @ x))
        def quadratic_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_11():
                dx = (ds * ((A + np.transpose(A, (1, 0))) @ x))
                return dx
            def _pb_A_14():
                dA = (ds * (x[:, None]) * x)
                return dA
            return (_NO, Thunk(_pb_x_11), Thunk(_pb_A_14))
        return s, quadratic_pullback

    # ---- inv(A[i,j]) -> B[i,j]    (rules/linalg.rules:19)
    # Matrix functions: each contributes its differential once (d inv(A) = -B·dA·B with B = inv(A), ...).
    def inv(A):
        _F_A = np.prim.factor(A)
        B = np.prim.inv.factored(_F_A)
        return B

    def inv_frule(tangents, A):
        _, dA = tangents
        _F_A = np.prim.factor(A)
        B = np.prim.inv.factored(_F_A)
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, (-((B @ dA) @ B)))
        return B, dB

    def inv_rrule(A):
        _F_A = np.prim.factor(A)
        B = np.prim.inv.factored(_F_A)
        def inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = (-(np.transpose(B) @ np.transpose((B @ np.transpose(dB)))))
            return (_NO, dA)
        return B, inv_pullback

    # ---- det(A[i,j]) -> d[]    (rules/linalg.rules:20)
    def det(A):
        _F_A = np.prim.factor(A)
        d = np.prim.det.factored(_F_A)
        return d

    def det_frule(tangents, A):
        _, dA = tangents
        _F_A = np.prim.factor(A)
        d = np.prim.det.factored(_F_A)
        _adj_A = np.prim.adj.forward(A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_adj_A * np.transpose(dA, (1, 0))), axis=(0, 1)))
        return d, dd

    def det_rrule(A):
        _F_A = np.prim.factor(A)
        d = np.prim.det.factored(_F_A)
        def det_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.adj.forward(A), (1, 0)) * dd)
            return (_NO, dA)
        return d, det_pullback

    # ---- logdet(A[i,j]) -> d[]    (rules/linalg.rules:21)
    def logdet(A):
        _F_A = np.prim.factor(A, spd=True)
        d = np.prim.logdet.factored(_F_A)
        return d

    def logdet_frule(tangents, A):
        _, dA = tangents
        _F_A = np.prim.factor(A, spd=True)
        d = np.prim.logdet.factored(_F_A)
        _inv_A = np.prim.inv.factored(_F_A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_inv_A * np.transpose(dA, (1, 0))), axis=(0, 1)))
        return d, dd

    def logdet_rrule(A):
        _F_A = np.prim.factor(A, spd=True)
        d = np.prim.logdet.factored(_F_A)
        def logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.inv.factored(_F_A), (1, 0)) * dd)
            return (_NO, dA)
        return d, logdet_pullback

    # ---- solve(A[i,j], b[j]) -> x[i]    (rules/linalg.rules:22)
    def solve(A, b):
        _F_A = np.prim.factor(A)
        x = np.prim.solve.factored(_F_A, b)
        return x

    def solve_frule(tangents, A, b):
        _, dA, db = tangents
        _F_A = np.prim.factor(A)
        x = np.prim.solve.factored(_F_A, b)
        _inv_A = np.prim.inv.factored(_F_A)
        _dz0 = _ZERO
        if not is_zero(dA):
            _dz0 = _add(_dz0, (-(dA @ x)))
        if not is_zero(db):
            _dz0 = _add(_dz0, db)
        dx = _ZERO
        if not is_zero(_dz0):
            dx = _add(dx, (_inv_A @ _dz0))
        return x, dx

    def solve_rrule(A, b):
        _F_A = np.prim.factor(A)
        x = np.prim.solve.factored(_F_A, b)
        def solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _dz0 = np.prim.solve.factored(_F_A, dx, trans=True)
            def _pb_A_3():
                dA = (-((_dz0[:, None]) * x))
                return dA
            def _pb_b_5():
                db = _dz0
                return db
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_b_5))
        return x, solve_pullback

    # ---- solve_matrix(A[i,j], B[j,k]) -> X[i,k]    (rules/linalg.rules:23)
    def solve_matrix(A, B):
        _F_A = np.prim.factor(A)
        X = np.prim.solve.factored(_F_A, B)
        return X

    def solve_matrix_frule(tangents, A, B):
        _, dA, dB = tangents
        _F_A = np.prim.factor(A)
        X = np.prim.solve.factored(_F_A, B)
        _inv_A = np.prim.inv.factored(_F_A)
        _dz0 = _ZERO
        if not is_zero(dA):
            _dz0 = _add(_dz0, (-(dA @ X)))
        if not is_zero(dB):
            _dz0 = _add(_dz0, dB)
        dX = _ZERO
        if not is_zero(_dz0):
            dX = _add(dX, (_inv_A @ _dz0))
        return X, dX

    def solve_matrix_rrule(A, B):
        _F_A = np.prim.factor(A)
        X = np.prim.solve.factored(_F_A, B)
        def solve_matrix_pullback(dX):
            if is_zero(dX):
                return (_NO, _ZERO, _ZERO)
            _dz0 = np.prim.solve.factored(_F_A, dX, trans=True)
            def _pb_A_3():
                dA = (-(_dz0 @ np.transpose(X)))
                return dA
            def _pb_B_5():
                dB = _dz0
                return dB
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_B_5))
        return X, solve_matrix_pullback

    # ---- mahalanobis(x[i], S[i,j]) -> m[]    (rules/linalg.rules:26)
    # Gaussian log-likelihood pieces: a quadratic form through the inverse.
    def mahalanobis(x, S):
        _F_S = np.prim.factor(S)
        m = (x @ np.prim.solve.factored(_F_S, x, trans=True))
        return m

    def mahalanobis_frule(tangents, x, S):
        _, dx, dS = tangents
        _F_S = np.prim.factor(S)
        _inv_S = np.prim.inv.factored(_F_S)
        m = (x @ (np.transpose(_inv_S) @ x))
        _dinv_S = _ZERO
        if not is_zero(dS):
            _dinv_S = _add(_dinv_S, (-((_inv_S @ dS) @ _inv_S)))
        dm = _ZERO
        if not is_zero(dx):
            dm = _add(dm, (x @ (np.transpose((_inv_S + np.transpose(_inv_S, (1, 0)))) @ dx)))
        if not is_zero(_dinv_S):
            dm = _add(dm, (x @ (np.transpose(_dinv_S) @ x)))
        return m, dm

    def mahalanobis_rrule(x, S):
        _F_S = np.prim.factor(S)
        _inv_S = np.prim.inv.factored(_F_S)
        _c11 = np.transpose(_inv_S) @ x
        m = (x @ _c11)
        def mahalanobis_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_13():
                dx = (dm * ((_inv_S + np.transpose(_inv_S, (1, 0))) @ x))
                return dx
            def _pb_S_16():
                dS = (-(dm * ((_c11[:, None]) * (_inv_S @ x))))
                return dS
            return (_NO, Thunk(_pb_x_13), Thunk(_pb_S_16))
        return m, mahalanobis_pullback

    # ---- cayley(A[i,j]) -> Q[i,j]    (rules/linalg.rules:29)
    # The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them in reverse.
    def cayley(A):
        n_i = A.shape[0]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d0 - A))
        Q = np.prim.solve.factored(_F_t0, (A + np.transpose(_d0, (1, 0))))
        return Q

    def cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[0]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d4 - A))
        M = np.prim.inv.factored(_F_t0)
        Q = (M @ (A + np.transpose(_d4, (1, 0))))
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-((M @ _dt0) @ M)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, (dM @ A) + dM)
        if not is_zero(dA):
            dQ = _add(dQ, (M @ dA))
        return Q, dQ

    def cayley_rrule(A):
        n_i = A.shape[0]
        _d13 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d13 - A))
        M = np.prim.inv.factored(_F_t0)
        Q = (M @ (A + np.transpose(_d13, (1, 0))))
        def cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = (dQ @ np.transpose(A)) + dQ
            _dt0 = (-(np.transpose(M) @ np.transpose((M @ np.transpose(dM)))))
            dA = (np.transpose(M) @ dQ)
            dA = _add(dA, (-_dt0))
            return (_NO, dA)
        return Q, cayley_pullback

    # ---- __batched_matmul(A[_batch,i,k], B[_batch,k,j]) -> C[_batch,i,j]    (rules/linalg.rules:7)
    # Matrix product: one contraction per input in the pullback (dA = dC·Bᵀ, dB = Aᵀ·dC).
    def _op___batched_matmul(A, B):
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        return C

    def _op___batched_matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abc,acd->abd", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("abc,adb->adc", B, dA, optimize=True))
        return C, dC

    def _op___batched_matmul_rrule(A, B):
        C = np.einsum("abc,acd->abd", A, B, optimize=True)
        def _op___batched_matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("abc,adc->adb", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abc,abd->acd", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, _op___batched_matmul_pullback

    # ---- __batched_matvec(A[_batch,i,j], x[_batch,j]) -> y[_batch,i]    (rules/linalg.rules:8)
    def _op___batched_matvec(A, x):
        y = np.einsum("abc,ac->ab", A, x, optimize=True)
        return y

    def _op___batched_matvec_frule(tangents, A, x):
        _, dA, dx = tangents
        y = np.einsum("abc,ac->ab", A, x, optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,ac->ab", A, dx, optimize=True))
        if not is_zero(dA):
            dy_ = _add(dy_, np.einsum("abc,ac->ab", dA, x, optimize=True))
        return y, dy_

    def _op___batched_matvec_rrule(A, x):
        y = np.einsum("abc,ac->ab", A, x, optimize=True)
        def _op___batched_matvec_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = ((dy_[:, :, None]) * (x[:, None]))
                return dA
            def _pb_x_7():
                dx = np.einsum("abc,ab->ac", A, dy_, optimize=True)
                return dx
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_x_7))
        return y, _op___batched_matvec_pullback

    # ---- __batched_dot(x[_batch,i], y[_batch,i]) -> s[_batch]    (rules/linalg.rules:9)
    def _op___batched_dot(x, y):
        s = np.sum((x * y), axis=1)
        return s

    def _op___batched_dot_frule(tangents, x, y):
        _, dx, dy_ = tangents
        s = np.sum((x * y), axis=1)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.sum((dx * y), axis=1))
        if not is_zero(dy_):
            ds = _add(ds, np.sum((dy_ * x), axis=1))
        return s, ds

    def _op___batched_dot_rrule(x, y):
        s = np.sum((x * y), axis=1)
        def _op___batched_dot_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                dx = ((ds[:, None]) * y)
                return dx
            def _pb_y_12():
                dy_ = ((ds[:, None]) * x)
                return dy_
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_y_12))
        return s, _op___batched_dot_pullback

    # ---- __batched_outer(x[_batch,i], y[_batch,j]) -> A[_batch,i,j]    (rules/linalg.rules:10)
    def _op___batched_outer(x, y):
        A = ((x[:, :, None]) * (y[:, None]))
        return A

    def _op___batched_outer_frule(tangents, x, y):
        _, dx, dy_ = tangents
        A = ((x[:, :, None]) * (y[:, None]))
        dA = _ZERO
        if not is_zero(dx):
            dA = _add(dA, ((dx[:, :, None]) * (y[:, None])))
        if not is_zero(dy_):
            dA = _add(dA, ((dy_[:, None]) * (x[:, :, None])))
        return A, dA

    def _op___batched_outer_rrule(x, y):
        A = ((x[:, :, None]) * (y[:, None]))
        def _op___batched_outer_pullback(dA):
            if is_zero(dA):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_5():
                dx = np.einsum("abc,ac->ab", dA, y, optimize=True)
                return dx
            def _pb_y_7():
                dy_ = np.einsum("abc,ab->ac", dA, x, optimize=True)
                return dy_
            return (_NO, Thunk(_pb_x_5), Thunk(_pb_y_7))
        return A, _op___batched_outer_pullback

    # ---- __batched_transpose(A[_batch,i,j]) -> B[_batch,j,i]    (rules/linalg.rules:11)
    def _op___batched_transpose(A):
        B = np.transpose(A, (0, 2, 1))
        return B

    def _op___batched_transpose_frule(tangents, A):
        _, dA = tangents
        B = np.transpose(A, (0, 2, 1))
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, np.transpose(dA, (0, 2, 1)))
        return B, dB

    def _op___batched_transpose_rrule(A):
        B = np.transpose(A, (0, 2, 1))
        def _op___batched_transpose_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = np.transpose(dB, (0, 2, 1))
            return (_NO, dA)
        return B, _op___batched_transpose_pullback

    # ---- __batched_trace(A[_batch,i,j]) -> t[_batch]    (rules/linalg.rules:12)
    def _op___batched_trace(A):
        t = np.sum(np.einsum("abb->ab", A), axis=1)
        return t

    def _op___batched_trace_frule(tangents, A):
        _, dA = tangents
        t = np.sum(np.einsum("abb->ab", A), axis=1)
        dt = _ZERO
        if not is_zero(dA):
            dt = _add(dt, np.sum(np.einsum("abb->ab", dA), axis=1))
        return t, dt

    def _op___batched_trace_rrule(A):
        n_i = A.shape[1]
        t = np.sum(np.einsum("abb->ab", A), axis=1)
        def _op___batched_trace_pullback(dt):
            if is_zero(dt):
                return (_NO, _ZERO)
            dA = (np.eye(n_i, dtype=np.result_type(A)) * (dt[:, None, None]))
            return (_NO, dA)
        return t, _op___batched_trace_pullback

    # ---- __batched_bilinear(x[_batch,i], A[_batch,i,j], y[_batch,j]) -> s[_batch]    (rules/linalg.rules:15)
    # Bilinear and quadratic forms.
    def _op___batched_bilinear(x, A, y):
        s = np.einsum("ab,ab->a", y, np.einsum("abc,ab->ac", A, x, optimize=True), optimize=True)
        return s

    def _op___batched_bilinear_frule(tangents, x, A, y):
        _, dx, dA, dy_ = tangents
        s = np.einsum("ab,ab->a", y, np.einsum("abc,ab->ac", A, x, optimize=True), optimize=True)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.einsum("ab,ab->a", y, np.einsum("abc,ab->ac", A, dx, optimize=True), optimize=True))
        if not is_zero(dy_):
            ds = _add(ds, np.einsum("ab,ab->a", x, np.einsum("abc,ac->ab", A, dy_, optimize=True), optimize=True))
        if not is_zero(dA):
            ds = _add(ds, np.einsum("ab,ab->a", y, np.einsum("abc,ab->ac", dA, x, optimize=True), optimize=True))
        return s, ds

    def _op___batched_bilinear_rrule(x, A, y):
        _c10 = np.einsum("abc,ab->ac", A, x, optimize=True)
        s = np.einsum("ab,ab->a", y, _c10, optimize=True)
        def _op___batched_bilinear_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_x_12():
                dx = ((ds[:, None]) * np.einsum("abc,ac->ab", A, y, optimize=True))
                return dx
            def _pb_A_15():
                dA = ((ds[:, None, None]) * (x[:, :, None]) * (y[:, None]))
                return dA
            def _pb_y_17():
                dy_ = ((ds[:, None]) * _c10)
                return dy_
            return (_NO, Thunk(_pb_x_12), Thunk(_pb_A_15), Thunk(_pb_y_17))
        return s, _op___batched_bilinear_pullback

    # ---- __batched_quadratic(x[_batch,i], A[_batch,i,j]) -> s[_batch]    (rules/linalg.rules:16)
    def _op___batched_quadratic(x, A):
        s = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", A, x, optimize=True), optimize=True)
        return s

    def _op___batched_quadratic_frule(tangents, x, A):
        _, dx, dA = tangents
        s = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", A, x, optimize=True), optimize=True)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", (A + np.transpose(A, (0, 2, 1))), dx, optimize=True), optimize=True))
        if not is_zero(dA):
            ds = _add(ds, np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", dA, x, optimize=True), optimize=True))
        return s, ds

    def _op___batched_quadratic_rrule(x, A):
        s = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", A, x, optimize=True), optimize=True)
        def _op___batched_quadratic_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_11():
                dx = ((ds[:, None]) * np.einsum("abc,ac->ab", (A + np.transpose(A, (0, 2, 1))), x, optimize=True))
                return dx
            def _pb_A_15():
                dA = ((ds[:, None, None]) * (x[:, :, None]) * (x[:, None]))
                return dA
            return (_NO, Thunk(_pb_x_11), Thunk(_pb_A_15))
        return s, _op___batched_quadratic_pullback

    # ---- __batched_inv(A[_batch,i,j]) -> B[_batch,i,j]    (rules/linalg.rules:19)
    # Matrix functions: each contributes its differential once (d inv(A) = -B·dA·B with B = inv(A), ...).
    def _op___batched_inv(A):
        B = np.prim.inv.forward(A)
        return B

    def _op___batched_inv_frule(tangents, A):
        _, dA = tangents
        B = np.prim.inv.forward(A)
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, (-np.einsum("abc,adb->adc", B, np.einsum("abc,acd->abd", B, dA, optimize=True), optimize=True)))
        return B, dB

    def _op___batched_inv_rrule(A):
        B = np.prim.inv.forward(A)
        def _op___batched_inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = (-np.einsum("abc,adb->acd", B, np.einsum("abc,adc->abd", B, dB, optimize=True), optimize=True))
            return (_NO, dA)
        return B, _op___batched_inv_pullback

    # ---- __batched_det(A[_batch,i,j]) -> d[_batch]    (rules/linalg.rules:20)
    def _op___batched_det(A):
        d = np.prim.det.forward(A)
        return d

    def _op___batched_det_frule(tangents, A):
        _, dA = tangents
        d = np.prim.det.forward(A)
        _adj_A = np.prim.adj.forward(A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_adj_A * np.transpose(dA, (0, 2, 1))), axis=(1, 2)))
        return d, dd

    def _op___batched_det_rrule(A):
        d = np.prim.det.forward(A)
        def _op___batched_det_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.adj.forward(A), (0, 2, 1)) * (dd[:, None, None]))
            return (_NO, dA)
        return d, _op___batched_det_pullback

    # ---- __batched_logdet(A[_batch,i,j]) -> d[_batch]    (rules/linalg.rules:21)
    def _op___batched_logdet(A):
        d = np.prim.logdet.forward(A)
        return d

    def _op___batched_logdet_frule(tangents, A):
        _, dA = tangents
        d = np.prim.logdet.forward(A)
        _inv_A = np.prim.inv.forward(A)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_inv_A * np.transpose(dA, (0, 2, 1))), axis=(1, 2)))
        return d, dd

    def _op___batched_logdet_rrule(A):
        d = np.prim.logdet.forward(A)
        def _op___batched_logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.inv.forward(A), (0, 2, 1)) * (dd[:, None, None]))
            return (_NO, dA)
        return d, _op___batched_logdet_pullback

    # ---- __batched_solve(A[_batch,i,j], b[_batch,j]) -> x[_batch,i]    (rules/linalg.rules:22)
    def _op___batched_solve(A, b):
        x = np.prim.solve.forward(A, b)
        return x

    def _op___batched_solve_frule(tangents, A, b):
        _, dA, db = tangents
        x = np.prim.solve.forward(A, b)
        _inv_A = np.prim.inv.forward(A)
        _dz25 = _ZERO
        if not is_zero(dA):
            _dz25 = _add(_dz25, (-np.einsum("abc,ac->ab", dA, x, optimize=True)))
        if not is_zero(db):
            _dz25 = _add(_dz25, db)
        dx = _ZERO
        if not is_zero(_dz25):
            dx = _add(dx, np.einsum("abc,ac->ab", _inv_A, _dz25, optimize=True))
        return x, dx

    def _op___batched_solve_rrule(A, b):
        x = np.prim.solve.forward(A, b)
        def _op___batched_solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _dz25 = np.einsum("abc,ab->ac", np.prim.inv.forward(A), dx, optimize=True)
            def _pb_A_3():
                dA = (-((_dz25[:, :, None]) * (x[:, None])))
                return dA
            def _pb_b_5():
                db = _dz25
                return db
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_b_5))
        return x, _op___batched_solve_pullback

    # ---- __batched_solve_matrix(A[_batch,i,j], B[_batch,j,k]) -> X[_batch,i,k]    (rules/linalg.rules:23)
    def _op___batched_solve_matrix(A, B):
        X = np.prim.solve.forward(A, B)
        return X

    def _op___batched_solve_matrix_frule(tangents, A, B):
        _, dA, dB = tangents
        X = np.prim.solve.forward(A, B)
        _inv_A = np.prim.inv.forward(A)
        _dz34 = _ZERO
        if not is_zero(dA):
            _dz34 = _add(_dz34, (-np.einsum("abc,adb->adc", X, dA, optimize=True)))
        if not is_zero(dB):
            _dz34 = _add(_dz34, dB)
        dX = _ZERO
        if not is_zero(_dz34):
            dX = _add(dX, np.einsum("abc,acd->abd", _inv_A, _dz34, optimize=True))
        return X, dX

    def _op___batched_solve_matrix_rrule(A, B):
        X = np.prim.solve.forward(A, B)
        def _op___batched_solve_matrix_pullback(dX):
            if is_zero(dX):
                return (_NO, _ZERO, _ZERO)
            _dz34 = np.einsum("abc,abd->acd", np.prim.inv.forward(A), dX, optimize=True)
            def _pb_A_3():
                dA = (-np.einsum("abc,adc->adb", X, _dz34, optimize=True))
                return dA
            def _pb_B_5():
                dB = _dz34
                return dB
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_B_5))
        return X, _op___batched_solve_matrix_pullback

    # ---- __batched_mahalanobis(x[_batch,i], S[_batch,i,j]) -> m[_batch]    (rules/linalg.rules:26)
    # Gaussian log-likelihood pieces: a quadratic form through the inverse.
    def _op___batched_mahalanobis(x, S):
        m = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", np.prim.inv.forward(S), x, optimize=True), optimize=True)
        return m

    def _op___batched_mahalanobis_frule(tangents, x, S):
        _, dx, dS = tangents
        _inv_S = np.prim.inv.forward(S)
        m = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", _inv_S, x, optimize=True), optimize=True)
        _dinv_S = _ZERO
        if not is_zero(dS):
            _dinv_S = _add(_dinv_S, (-np.einsum("abc,adb->adc", _inv_S, np.einsum("abc,acd->abd", _inv_S, dS, optimize=True), optimize=True)))
        dm = _ZERO
        if not is_zero(dx):
            dm = _add(dm, np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", (_inv_S + np.transpose(_inv_S, (0, 2, 1))), dx, optimize=True), optimize=True))
        if not is_zero(_dinv_S):
            dm = _add(dm, np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", _dinv_S, x, optimize=True), optimize=True))
        return m, dm

    def _op___batched_mahalanobis_rrule(x, S):
        _inv_S = np.prim.inv.forward(S)
        m = np.einsum("ab,ab->a", x, np.einsum("abc,ab->ac", _inv_S, x, optimize=True), optimize=True)
        def _op___batched_mahalanobis_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO, _ZERO)
            _dinv_S = ((dm[:, None, None]) * (x[:, :, None]) * (x[:, None]))
            def _pb_x_14():
                dx = ((dm[:, None]) * np.einsum("abc,ac->ab", (_inv_S + np.transpose(_inv_S, (0, 2, 1))), x, optimize=True))
                return dx
            def _pb_S_18():
                dS = (-np.einsum("abc,adb->acd", _inv_S, np.einsum("abc,adc->abd", _inv_S, _dinv_S, optimize=True), optimize=True))
                return dS
            return (_NO, Thunk(_pb_x_14), Thunk(_pb_S_18))
        return m, _op___batched_mahalanobis_pullback

    # ---- __batched_cayley(A[_batch,i,j]) -> Q[_batch,i,j]    (rules/linalg.rules:29)
    # The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them in reverse.
    def _op___batched_cayley(A):
        n_i = A.shape[1]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d0 - A))
        Q = np.einsum("abc,adb->adc", (A + np.transpose(_d0, (1, 0))), M, optimize=True)
        return Q

    def _op___batched_cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[1]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d4 - A))
        Q = np.einsum("abc,adb->adc", (A + np.transpose(_d4, (1, 0))), M, optimize=True)
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-np.einsum("abc,adb->adc", M, np.einsum("abc,acd->abd", M, _dt0, optimize=True), optimize=True)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, np.einsum("abc,adb->adc", A, dM, optimize=True) + dM)
        if not is_zero(dA):
            dQ = _add(dQ, np.einsum("abc,acd->abd", M, dA, optimize=True))
        return Q, dQ

    def _op___batched_cayley_rrule(A):
        n_i = A.shape[1]
        _d13 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d13 - A))
        Q = np.einsum("abc,adb->adc", (A + np.transpose(_d13, (1, 0))), M, optimize=True)
        def _op___batched_cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = np.einsum("abc,adc->adb", A, dQ, optimize=True) + dQ
            _dt0 = (-np.einsum("abc,adb->acd", M, np.einsum("abc,adc->abd", M, dM, optimize=True), optimize=True))
            dA = np.einsum("abc,abd->acd", M, dQ, optimize=True)
            dA = _add(dA, (-_dt0))
            return (_NO, dA)
        return Q, _op___batched_cayley_pullback

    return {
        'matmul': matmul,
        'matmul_frule': matmul_frule,
        'matmul_rrule': matmul_rrule,
        'matvec': matvec,
        'matvec_frule': matvec_frule,
        'matvec_rrule': matvec_rrule,
        'dot': dot,
        'dot_frule': dot_frule,
        'dot_rrule': dot_rrule,
        'outer': outer,
        'outer_frule': outer_frule,
        'outer_rrule': outer_rrule,
        'transpose': transpose,
        'transpose_frule': transpose_frule,
        'transpose_rrule': transpose_rrule,
        'trace': trace,
        'trace_frule': trace_frule,
        'trace_rrule': trace_rrule,
        'bilinear': bilinear,
        'bilinear_frule': bilinear_frule,
        'bilinear_rrule': bilinear_rrule,
        'quadratic': quadratic,
        'quadratic_frule': quadratic_frule,
        'quadratic_rrule': quadratic_rrule,
        'inv': inv,
        'inv_frule': inv_frule,
        'inv_rrule': inv_rrule,
        'det': det,
        'det_frule': det_frule,
        'det_rrule': det_rrule,
        'logdet': logdet,
        'logdet_frule': logdet_frule,
        'logdet_rrule': logdet_rrule,
        'solve': solve,
        'solve_frule': solve_frule,
        'solve_rrule': solve_rrule,
        'solve_matrix': solve_matrix,
        'solve_matrix_frule': solve_matrix_frule,
        'solve_matrix_rrule': solve_matrix_rrule,
        'mahalanobis': mahalanobis,
        'mahalanobis_frule': mahalanobis_frule,
        'mahalanobis_rrule': mahalanobis_rrule,
        'cayley': cayley,
        'cayley_frule': cayley_frule,
        'cayley_rrule': cayley_rrule,
        '__batched_matmul': _op___batched_matmul,
        '__batched_matmul_frule': _op___batched_matmul_frule,
        '__batched_matmul_rrule': _op___batched_matmul_rrule,
        '__batched_matvec': _op___batched_matvec,
        '__batched_matvec_frule': _op___batched_matvec_frule,
        '__batched_matvec_rrule': _op___batched_matvec_rrule,
        '__batched_dot': _op___batched_dot,
        '__batched_dot_frule': _op___batched_dot_frule,
        '__batched_dot_rrule': _op___batched_dot_rrule,
        '__batched_outer': _op___batched_outer,
        '__batched_outer_frule': _op___batched_outer_frule,
        '__batched_outer_rrule': _op___batched_outer_rrule,
        '__batched_transpose': _op___batched_transpose,
        '__batched_transpose_frule': _op___batched_transpose_frule,
        '__batched_transpose_rrule': _op___batched_transpose_rrule,
        '__batched_trace': _op___batched_trace,
        '__batched_trace_frule': _op___batched_trace_frule,
        '__batched_trace_rrule': _op___batched_trace_rrule,
        '__batched_bilinear': _op___batched_bilinear,
        '__batched_bilinear_frule': _op___batched_bilinear_frule,
        '__batched_bilinear_rrule': _op___batched_bilinear_rrule,
        '__batched_quadratic': _op___batched_quadratic,
        '__batched_quadratic_frule': _op___batched_quadratic_frule,
        '__batched_quadratic_rrule': _op___batched_quadratic_rrule,
        '__batched_inv': _op___batched_inv,
        '__batched_inv_frule': _op___batched_inv_frule,
        '__batched_inv_rrule': _op___batched_inv_rrule,
        '__batched_det': _op___batched_det,
        '__batched_det_frule': _op___batched_det_frule,
        '__batched_det_rrule': _op___batched_det_rrule,
        '__batched_logdet': _op___batched_logdet,
        '__batched_logdet_frule': _op___batched_logdet_frule,
        '__batched_logdet_rrule': _op___batched_logdet_rrule,
        '__batched_solve': _op___batched_solve,
        '__batched_solve_frule': _op___batched_solve_frule,
        '__batched_solve_rrule': _op___batched_solve_rrule,
        '__batched_solve_matrix': _op___batched_solve_matrix,
        '__batched_solve_matrix_frule': _op___batched_solve_matrix_frule,
        '__batched_solve_matrix_rrule': _op___batched_solve_matrix_rrule,
        '__batched_mahalanobis': _op___batched_mahalanobis,
        '__batched_mahalanobis_frule': _op___batched_mahalanobis_frule,
        '__batched_mahalanobis_rrule': _op___batched_mahalanobis_rrule,
        '__batched_cayley': _op___batched_cayley,
        '__batched_cayley_frule': _op___batched_cayley_frule,
        '__batched_cayley_rrule': _op___batched_cayley_rrule,
    }


OPS = {'matmul': {'signature': 'matmul(A[i,k], B[k,j]) -> C[i,j]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'k']},
                       {'name': 'B', 'kind': 'tensor', 'indices': ['k', 'j']}],
            'outputs': [{'name': 'C', 'indices': ['i', 'j']}],
            'equal_extents': [],
            'domains': {'A': 'real', 'B': 'real'},
            'source': 'rules/linalg.rules:7',
            'doc': 'Matrix product: one contraction per input in the pullback (dA = dC·Bᵀ, dB = Aᵀ·dC).',
            'batched': '__batched_matmul'},
 'matvec': {'signature': 'matvec(A[i,j], x[j]) -> y[i]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                       {'name': 'x', 'kind': 'tensor', 'indices': ['j']}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'equal_extents': [],
            'domains': {'A': 'real', 'x': 'real'},
            'source': 'rules/linalg.rules:8',
            'batched': '__batched_matvec'},
 'dot': {'signature': 'dot(x[i], y[i]) -> s[]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                    {'name': 'y', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 's', 'indices': []}],
         'equal_extents': [],
         'domains': {'x': 'real', 'y': 'real'},
         'source': 'rules/linalg.rules:9',
         'batched': '__batched_dot'},
 'outer': {'signature': 'outer(x[i], y[j]) -> A[i,j]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                      {'name': 'y', 'kind': 'tensor', 'indices': ['j']}],
           'outputs': [{'name': 'A', 'indices': ['i', 'j']}],
           'equal_extents': [],
           'domains': {'x': 'real', 'y': 'real'},
           'source': 'rules/linalg.rules:10',
           'batched': '__batched_outer'},
 'transpose': {'signature': 'transpose(A[i,j]) -> B[j,i]',
               'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
               'outputs': [{'name': 'B', 'indices': ['j', 'i']}],
               'equal_extents': [],
               'domains': {'A': 'real'},
               'source': 'rules/linalg.rules:11',
               'batched': '__batched_transpose'},
 'trace': {'signature': 'trace(A[i,j]) -> t[]',
           'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
           'outputs': [{'name': 't', 'indices': []}],
           'equal_extents': [['i', 'j']],
           'domains': {'A': 'real'},
           'source': 'rules/linalg.rules:12',
           'batched': '__batched_trace'},
 'bilinear': {'signature': 'bilinear(x[i], A[i,j], y[j]) -> s[]',
              'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                         {'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                         {'name': 'y', 'kind': 'tensor', 'indices': ['j']}],
              'outputs': [{'name': 's', 'indices': []}],
              'equal_extents': [],
              'domains': {'x': 'real', 'A': 'real', 'y': 'real'},
              'source': 'rules/linalg.rules:15',
              'doc': 'Bilinear and quadratic forms.',
              'batched': '__batched_bilinear'},
 'quadratic': {'signature': 'quadratic(x[i], A[i,j]) -> s[]',
               'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                          {'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
               'outputs': [{'name': 's', 'indices': []}],
               'equal_extents': [['i', 'j']],
               'domains': {'x': 'real', 'A': 'real'},
               'source': 'rules/linalg.rules:16',
               'batched': '__batched_quadratic'},
 'inv': {'signature': 'inv(A[i,j]) -> B[i,j]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
         'outputs': [{'name': 'B', 'indices': ['i', 'j']}],
         'equal_extents': [['i', 'j']],
         'domains': {'A': 'wellcond'},
         'source': 'rules/linalg.rules:19',
         'doc': 'Matrix functions: each contributes its differential once (d inv(A) = -B·dA·B with B = '
                'inv(A), ...).',
         'batched': '__batched_inv'},
 'det': {'signature': 'det(A[i,j]) -> d[]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
         'outputs': [{'name': 'd', 'indices': []}],
         'equal_extents': [['i', 'j']],
         'domains': {'A': 'wellcond'},
         'source': 'rules/linalg.rules:20',
         'batched': '__batched_det'},
 'logdet': {'signature': 'logdet(A[i,j]) -> d[]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
            'outputs': [{'name': 'd', 'indices': []}],
            'equal_extents': [['i', 'j']],
            'domains': {'A': 'spd'},
            'source': 'rules/linalg.rules:21',
            'batched': '__batched_logdet'},
 'solve': {'signature': 'solve(A[i,j], b[j]) -> x[i]',
           'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                      {'name': 'b', 'kind': 'tensor', 'indices': ['j']}],
           'outputs': [{'name': 'x', 'indices': ['i']}],
           'equal_extents': [['i', 'j']],
           'domains': {'A': 'wellcond', 'b': 'real'},
           'source': 'rules/linalg.rules:22',
           'batched': '__batched_solve'},
 'solve_matrix': {'signature': 'solve_matrix(A[i,j], B[j,k]) -> X[i,k]',
                  'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']},
                             {'name': 'B', 'kind': 'tensor', 'indices': ['j', 'k']}],
                  'outputs': [{'name': 'X', 'indices': ['i', 'k']}],
                  'equal_extents': [['i', 'j']],
                  'domains': {'A': 'wellcond', 'B': 'real'},
                  'source': 'rules/linalg.rules:23',
                  'batched': '__batched_solve_matrix'},
 'mahalanobis': {'signature': 'mahalanobis(x[i], S[i,j]) -> m[]',
                 'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']},
                            {'name': 'S', 'kind': 'tensor', 'indices': ['i', 'j']}],
                 'outputs': [{'name': 'm', 'indices': []}],
                 'equal_extents': [['i', 'j']],
                 'domains': {'x': 'real', 'S': 'wellcond'},
                 'source': 'rules/linalg.rules:26',
                 'doc': 'Gaussian log-likelihood pieces: a quadratic form through the inverse.',
                 'batched': '__batched_mahalanobis'},
 'cayley': {'signature': 'cayley(A[i,j]) -> Q[i,j]',
            'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
            'outputs': [{'name': 'Q', 'indices': ['i', 'j']}],
            'equal_extents': [['i', 'j']],
            'domains': {'A': 'real'},
            'source': 'rules/linalg.rules:29',
            'doc': 'The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them '
                   'in reverse.',
            'batched': '__batched_cayley'}}

globals().update(export_ops(__name__, OPS, _define))
