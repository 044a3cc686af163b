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

    # ---- cayley(A[i,j]) -> Q[i,j]    (rules/linalg.rules:31)
    # The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them in reverse.
    # Written 2·(I - A)⁻¹ - I (the same matrix: (I - A)⁻¹·((I + A) + (I - A)) = 2·(I - A)⁻¹), whose derivative
    # 2·M·dA·M cancels nothing; through (I + A) it came out M·dA·(Q + I), which cancels where Q ≈ -I (large A).
    def cayley(A):
        n_i = A.shape[0]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d0 - A))
        M = np.prim.inv.factored(_F_t0)
        Q = ((2.0 * M) - _d0)
        return Q

    def cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[0]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d4 - A))
        M = np.prim.inv.factored(_F_t0)
        Q = ((2.0 * M) - _d4)
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-((M @ _dt0) @ M)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, (2.0 * dM))
        return Q, dQ

    def cayley_rrule(A):
        n_i = A.shape[0]
        _d12 = np.eye(n_i, dtype=np.result_type(A))
        _F_t0 = np.prim.factor((_d12 - A))
        M = np.prim.inv.factored(_F_t0)
        Q = ((2.0 * M) - _d12)
        def cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = (2.0 * dQ)
            dA = (-(-(np.transpose(M) @ np.transpose((M @ np.transpose(dM))))))
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

    # ---- __batched_cayley(A[_batch,i,j]) -> Q[_batch,i,j]    (rules/linalg.rules:31)
    # The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them in reverse.
    # Written 2·(I - A)⁻¹ - I (the same matrix: (I - A)⁻¹·((I + A) + (I - A)) = 2·(I - A)⁻¹), whose derivative
    # 2·M·dA·M cancels nothing; through (I + A) it came out M·dA·(Q + I), which cancels where Q ≈ -I (large A).
    def _op___batched_cayley(A):
        n_i = A.shape[1]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d0 - A))
        Q = ((2.0 * M) - _d0)
        return Q

    def _op___batched_cayley_frule(tangents, A):
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

    def _op___batched_cayley_rrule(A):
        n_i = A.shape[1]
        _d12 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d12 - A))
        Q = ((2.0 * M) - _d12)
        def _op___batched_cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = (2.0 * dQ)
            dA = (-(-np.einsum("abc,adb->acd", M, np.einsum("abc,adc->abd", M, dM, optimize=True), optimize=True)))
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
            'source': 'rules/linalg.rules:31',
            'doc': 'The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them '
                   'in reverse.\n'
                   'Written 2·(I - A)⁻¹ - I (the same matrix: (I - A)⁻¹·((I + A) + (I - A)) = 2·(I - A)⁻¹), '
                   'whose derivative\n'
                   '2·M·dA·M cancels nothing; through (I + A) it came out M·dA·(Q + I), which cancels where '
                   'Q ≈ -I (large A).',
            'batched': '__batched_cayley'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'matmul': {'name': 'matmul',
            'signature': 'matmul(A[i,k], B[k,j]) -> C[i,j]',
            'file': 'rules/linalg.rules',
            'line': 7,
            'text': 'matmul(A[i,k], B[k,j]) -> C[i,j] = A[i,k] * B[k,j]',
            'doc': 'Matrix product: one contraction per input in the pullback (dA = dC·Bᵀ, dB = Aᵀ·dC).',
            'inputs': [{'name': 'A',
                        'kind': 'tensor',
                        'indices': ['i', 'k'],
                        'domain': 'real',
                        'declared': False},
                       {'name': 'B',
                        'kind': 'tensor',
                        'indices': ['k', 'j'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'C', 'indices': ['i', 'j']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dC',
                             'text': 'dC = A·dB + dA·B',
                             'latex': '\\mathrm{d}C = A \\mathrm{d}B + \\mathrm{d}A B',
                             'matrix': 'dC = A·dB + dA·B',
                             'index': 'dC[i,j] = Σ_k A[i,k]·dB[k,j] + Σ_k B[k,j]·dA[i,k]',
                             'index_latex': '\\mathrm{d}C_{ij} = \\sum_{k} A_{ik} \\mathrm{d}B_{kj} + '
                                            '\\sum_{k} B_{kj} \\mathrm{d}A_{ik}'}],
            'pullback': [{'target': 'dA',
                          'text': 'dA = dC·Bᵀ',
                          'latex': '\\mathrm{d}A = \\mathrm{d}C B^{\\top}',
                          'matrix': 'dA = dC·Bᵀ',
                          'index': 'dA[i,k] = Σ_l B[k,l]·dC[i,l]',
                          'index_latex': '\\mathrm{d}A_{ik} = \\sum_{l} B_{kl} \\mathrm{d}C_{il}'},
                         {'target': 'dB',
                          'text': 'dB = Aᵀ·dC',
                          'latex': '\\mathrm{d}B = A^{\\top} \\mathrm{d}C',
                          'matrix': 'dB = Aᵀ·dC',
                          'index': 'dB[k,j] = Σ_l A[l,k]·dC[l,j]',
                          'index_latex': '\\mathrm{d}B_{kj} = \\sum_{l} A_{lk} \\mathrm{d}C_{lj}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': ['A', 'B'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 4,
                             'skipped': 0,
                             'extents': [{'i': 3, 'k': 4, 'j': 5}, {'i': 5, 'k': 4, 'j': 3}]}},
 'matvec': {'name': 'matvec',
            'signature': 'matvec(A[i,j], x[j]) -> y[i]',
            'file': 'rules/linalg.rules',
            'line': 8,
            'text': 'matvec(A[i,j], x[j]) -> y[i] = A[i,j] * x[j]',
            'doc': '',
            'inputs': [{'name': 'A',
                        'kind': 'tensor',
                        'indices': ['i', 'j'],
                        'domain': 'real',
                        'declared': False},
                       {'name': 'x',
                        'kind': 'tensor',
                        'indices': ['j'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dy',
                             'text': 'dy = A·dx + dA·x',
                             'latex': '\\mathrm{d}y = A \\mathrm{d}x + \\mathrm{d}A x',
                             'matrix': 'dy = A·dx + dA·x',
                             'index': 'dy[i] = Σ_k A[i,k]·dx[k] + Σ_k dA[i,k]·x[k]',
                             'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} A_{ik} \\mathrm{d}x_{k} + '
                                            '\\sum_{k} \\mathrm{d}A_{ik} x_{k}'}],
            'pullback': [{'target': 'dA',
                          'text': 'dA = dy·xᵀ',
                          'latex': '\\mathrm{d}A = \\mathrm{d}y x^{\\top}',
                          'matrix': 'dA = dy·xᵀ',
                          'index': 'dA[i,j] = dy[i]·x[j]',
                          'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}y_{i} x_{j}'},
                         {'target': 'dx',
                          'text': 'dx = Aᵀ·dy',
                          'latex': '\\mathrm{d}x = A^{\\top} \\mathrm{d}y',
                          'matrix': 'dx = Aᵀ·dy',
                          'index': 'dx[j] = Σ_k A[k,j]·dy[k]',
                          'index_latex': '\\mathrm{d}x_{j} = \\sum_{k} A_{kj} \\mathrm{d}y_{k}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': ['A', 'x'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 4,
                             'skipped': 0,
                             'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'dot': {'name': 'dot',
         'signature': 'dot(x[i], y[i]) -> s[]',
         'file': 'rules/linalg.rules',
         'line': 9,
         'text': 'dot(x[i], y[i]) -> s[] = x[i] * y[i]',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False},
                    {'name': 'y', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 's', 'indices': []}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'ds',
                          'text': 'ds = yᵀ·dx + xᵀ·dy',
                          'latex': '\\mathrm{d}s = y^{\\top} \\mathrm{d}x + x^{\\top} \\mathrm{d}y',
                          'matrix': 'ds = yᵀ·dx + xᵀ·dy',
                          'index': 'ds = Σ_k dx[k]·y[k] + Σ_k dy[k]·x[k]',
                          'index_latex': '\\mathrm{d}s = \\sum_{k} \\mathrm{d}x_{k} y_{k} + \\sum_{k} '
                                         '\\mathrm{d}y_{k} x_{k}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = ds·y',
                       'latex': '\\mathrm{d}x = \\mathrm{d}s y',
                       'matrix': 'dx = ds·y',
                       'index': 'dx[i] = ds·y[i]',
                       'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}s y_{i}'},
                      {'target': 'dy',
                       'text': 'dy = ds·x',
                       'latex': '\\mathrm{d}y = \\mathrm{d}s x',
                       'matrix': 'dy = ds·x',
                       'index': 'dy[i] = ds·x[i]',
                       'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}s x_{i}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['x', 'y'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'outer': {'name': 'outer',
           'signature': 'outer(x[i], y[j]) -> A[i,j]',
           'file': 'rules/linalg.rules',
           'line': 10,
           'text': 'outer(x[i], y[j]) -> A[i,j] = x[i] * y[j]',
           'doc': '',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False},
                      {'name': 'y', 'kind': 'tensor', 'indices': ['j'], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'A', 'indices': ['i', 'j']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dA',
                            'text': 'dA = dx·yᵀ + x·dyᵀ',
                            'latex': '\\mathrm{d}A = \\mathrm{d}x y^{\\top} + x \\mathrm{d}y^{\\top}',
                            'matrix': 'dA = dx·yᵀ + x·dyᵀ',
                            'index': 'dA[i,j] = dx[i]·y[j] + dy[j]·x[i]',
                            'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}x_{i} y_{j} + \\mathrm{d}y_{j} '
                                           'x_{i}'}],
           'pullback': [{'target': 'dx',
                         'text': 'dx = dA·y',
                         'latex': '\\mathrm{d}x = \\mathrm{d}A y',
                         'matrix': 'dx = dA·y',
                         'index': 'dx[i] = Σ_k dA[i,k]·y[k]',
                         'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\mathrm{d}A_{ik} y_{k}'},
                        {'target': 'dy',
                         'text': 'dy = dAᵀ·x',
                         'latex': '\\mathrm{d}y = \\mathrm{d}A^{\\top} x',
                         'matrix': 'dy = dAᵀ·x',
                         'index': 'dy[j] = Σ_k dA[k,j]·x[k]',
                         'index_latex': '\\mathrm{d}y_{j} = \\sum_{k} \\mathrm{d}A_{kj} x_{k}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['x', 'y'], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 4,
                            'skipped': 0,
                            'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'transpose': {'name': 'transpose',
               'signature': 'transpose(A[i,j]) -> B[j,i]',
               'file': 'rules/linalg.rules',
               'line': 11,
               'text': 'transpose(A[i,j]) -> B[j,i] = A[i,j]',
               'doc': '',
               'inputs': [{'name': 'A',
                           'kind': 'tensor',
                           'indices': ['i', 'j'],
                           'domain': 'real',
                           'declared': False}],
               'outputs': [{'name': 'B', 'indices': ['j', 'i']}],
               'extents': {},
               'equal_extents': [],
               'pushforward': [{'target': 'dB',
                                'text': 'dB = dAᵀ',
                                'latex': '\\mathrm{d}B = \\mathrm{d}A^{\\top}',
                                'matrix': 'dB = dAᵀ',
                                'index': 'dB[j,i] = dA[i,j]',
                                'index_latex': '\\mathrm{d}B_{ji} = \\mathrm{d}A_{ij}'}],
               'pullback': [{'target': 'dA',
                             'text': 'dA = dBᵀ',
                             'latex': '\\mathrm{d}A = \\mathrm{d}B^{\\top}',
                             'matrix': 'dA = dBᵀ',
                             'index': 'dA[i,j] = dB[j,i]',
                             'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}B_{ji}'}],
               'holds_for': 'every real input',
               'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
               'verified': True,
               'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                'points': 4,
                                'skipped': 0,
                                'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'trace': {'name': 'trace',
           'signature': 'trace(A[i,j]) -> t[]',
           'file': 'rules/linalg.rules',
           'line': 12,
           'text': 'trace(A[i,j]) -> t[] = A[i,i]',
           'doc': '',
           'inputs': [{'name': 'A',
                       'kind': 'tensor',
                       'indices': ['i', 'j'],
                       'domain': 'real',
                       'declared': False}],
           'outputs': [{'name': 't', 'indices': []}],
           'extents': {},
           'equal_extents': [['i', 'j']],
           'pushforward': [{'target': 'dt',
                            'text': 'dt = tr(dA)',
                            'latex': '\\mathrm{d}t = \\operatorname{tr}\\left(\\mathrm{d}A\\right)',
                            'matrix': 'dt = tr(dA)',
                            'index': 'dt = Σ_k dA[k,k]',
                            'index_latex': '\\mathrm{d}t = \\sum_{k} \\mathrm{d}A_{kk}'}],
           'pullback': [{'target': 'dA',
                         'text': 'dA = dt·I',
                         'latex': '\\mathrm{d}A = \\mathrm{d}t I',
                         'matrix': 'dA = dt·I',
                         'index': 'dA[i,j] = dt·δ[i,j]',
                         'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}t \\delta_{ij}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3, 'j': 3}]}},
 'bilinear': {'name': 'bilinear',
              'signature': 'bilinear(x[i], A[i,j], y[j]) -> s[]',
              'file': 'rules/linalg.rules',
              'line': 15,
              'text': 'bilinear(x[i], A[i,j], y[j]) -> s[] = x[i] * A[i,j] * y[j]',
              'doc': 'Bilinear and quadratic forms.',
              'inputs': [{'name': 'x',
                          'kind': 'tensor',
                          'indices': ['i'],
                          'domain': 'real',
                          'declared': False},
                         {'name': 'A',
                          'kind': 'tensor',
                          'indices': ['i', 'j'],
                          'domain': 'real',
                          'declared': False},
                         {'name': 'y',
                          'kind': 'tensor',
                          'indices': ['j'],
                          'domain': 'real',
                          'declared': False}],
              'outputs': [{'name': 's', 'indices': []}],
              'extents': {},
              'equal_extents': [],
              'pushforward': [{'target': 'ds',
                               'text': 'ds = yᵀ·Aᵀ·dx + xᵀ·A·dy + xᵀ·dA·y',
                               'latex': '\\mathrm{d}s = y^{\\top} A^{\\top} \\mathrm{d}x + x^{\\top} A '
                                        '\\mathrm{d}y + x^{\\top} \\mathrm{d}A y',
                               'matrix': 'ds = yᵀ·Aᵀ·dx + xᵀ·A·dy + xᵀ·dA·y',
                               'index': 'ds = Σ_kl A[k,l]·dx[k]·y[l] + Σ_kl A[l,k]·dy[k]·x[l] + Σ_kl '
                                        'dA[k,l]·x[k]·y[l]',
                               'index_latex': '\\mathrm{d}s = \\sum_{kl} A_{kl} \\mathrm{d}x_{k} y_{l} + '
                                              '\\sum_{kl} A_{lk} \\mathrm{d}y_{k} x_{l} + \\sum_{kl} '
                                              '\\mathrm{d}A_{kl} x_{k} y_{l}'}],
              'pullback': [{'target': 'dx',
                            'text': 'dx = ds·A·y',
                            'latex': '\\mathrm{d}x = \\mathrm{d}s A y',
                            'matrix': 'dx = ds·A·y',
                            'index': 'dx[i] = Σ_k A[i,k]·ds·y[k]',
                            'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} A_{ik} \\mathrm{d}s y_{k}'},
                           {'target': 'dA',
                            'text': 'dA = ds·x·yᵀ',
                            'latex': '\\mathrm{d}A = \\mathrm{d}s x y^{\\top}',
                            'matrix': 'dA = ds·x·yᵀ',
                            'index': 'dA[i,j] = ds·x[i]·y[j]',
                            'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}s x_{i} y_{j}'},
                           {'target': 'dy',
                            'text': 'dy = ds·Aᵀ·x',
                            'latex': '\\mathrm{d}y = \\mathrm{d}s A^{\\top} x',
                            'matrix': 'dy = ds·Aᵀ·x',
                            'index': 'dy[j] = Σ_k A[k,j]·ds·x[k]',
                            'index_latex': '\\mathrm{d}y_{j} = \\sum_{k} A_{kj} \\mathrm{d}s x_{k}'}],
              'holds_for': 'every real input',
              'saves': {'inputs': ['x', 'A', 'y'], 'outputs': [], 'intermediates': []},
              'verified': True,
              'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                               'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                               'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                               'points': 4,
                               'skipped': 0,
                               'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'quadratic': {'name': 'quadratic',
               'signature': 'quadratic(x[i], A[i,j]) -> s[]',
               'file': 'rules/linalg.rules',
               'line': 16,
               'text': 'quadratic(x[i], A[i,j]) -> s[] = x[i] * A[i,j] * x[j]',
               'doc': '',
               'inputs': [{'name': 'x',
                           'kind': 'tensor',
                           'indices': ['i'],
                           'domain': 'real',
                           'declared': False},
                          {'name': 'A',
                           'kind': 'tensor',
                           'indices': ['i', 'j'],
                           'domain': 'real',
                           'declared': False}],
               'outputs': [{'name': 's', 'indices': []}],
               'extents': {},
               'equal_extents': [['i', 'j']],
               'pushforward': [{'target': 'ds',
                                'text': 'ds = xᵀ·(Aᵀ + A)·dx + xᵀ·dA·x',
                                'latex': '\\mathrm{d}s = x^{\\top} (A^{\\top} + A) \\mathrm{d}x + x^{\\top} '
                                         '\\mathrm{d}A x',
                                'matrix': 'ds = xᵀ·(Aᵀ + A)·dx + xᵀ·dA·x',
                                'index': 'ds = Σ_kl (A[k,l] + A[l,k])·dx[k]·x[l] + Σ_kl dA[k,l]·x[k]·x[l]',
                                'index_latex': '\\mathrm{d}s = \\sum_{kl} \\left(A_{kl} + A_{lk}\\right) '
                                               '\\mathrm{d}x_{k} x_{l} + \\sum_{kl} \\mathrm{d}A_{kl} x_{k} '
                                               'x_{l}'}],
               'pullback': [{'target': 'dx',
                             'text': 'dx = ds·(A + Aᵀ)·x',
                             'latex': '\\mathrm{d}x = \\mathrm{d}s (A + A^{\\top}) x',
                             'matrix': 'dx = ds·(A + Aᵀ)·x',
                             'index': 'dx[i] = Σ_k (A[i,k] + A[k,i])·ds·x[k]',
                             'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\left(A_{ik} + A_{ki}\\right) '
                                            '\\mathrm{d}s x_{k}'},
                            {'target': 'dA',
                             'text': 'dA = ds·x·xᵀ',
                             'latex': '\\mathrm{d}A = \\mathrm{d}s x x^{\\top}',
                             'matrix': 'dA = ds·x·xᵀ',
                             'index': 'dA[i,j] = ds·x[i]·x[j]',
                             'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}s x_{i} x_{j}'}],
               'holds_for': 'every real input',
               'saves': {'inputs': ['x', 'A'], 'outputs': [], 'intermediates': []},
               'verified': True,
               'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                'points': 2,
                                'skipped': 0,
                                'extents': [{'i': 3, 'j': 3}]}},
 'inv': {'name': 'inv',
         'signature': 'inv(A[i,j]) -> B[i,j]',
         'file': 'rules/linalg.rules',
         'line': 19,
         'text': 'inv(A[i,j]) -> B[i,j] = inv(A[i,j])',
         'doc': 'Matrix functions: each contributes its differential once (d inv(A) = -B·dA·B with B = '
                'inv(A), ...).',
         'inputs': [{'name': 'A',
                     'kind': 'tensor',
                     'indices': ['i', 'j'],
                     'domain': 'wellcond',
                     'declared': False}],
         'outputs': [{'name': 'B', 'indices': ['i', 'j']}],
         'extents': {},
         'equal_extents': [['i', 'j']],
         'pushforward': [{'target': 'dB',
                          'text': 'dB = -B·dA·B',
                          'latex': '\\mathrm{d}B = -B \\mathrm{d}A B',
                          'matrix': 'dB = -B·dA·B',
                          'index': 'dB[i,j] = Σ_kl -B[i,k]·B[l,j]·dA[k,l]',
                          'index_latex': '\\mathrm{d}B_{ij} = \\sum_{kl} - B_{ik} B_{lj} \\mathrm{d}A_{kl}'}],
         'pullback': [{'target': 'dA',
                       'text': 'dA = -Bᵀ·dB·Bᵀ',
                       'latex': '\\mathrm{d}A = -B^{\\top} \\mathrm{d}B B^{\\top}',
                       'matrix': 'dA = -Bᵀ·dB·Bᵀ',
                       'index': 'dA[i,j] = Σ_kl -B[j,l]·B[k,i]·dB[k,l]',
                       'index_latex': '\\mathrm{d}A_{ij} = \\sum_{kl} - B_{jl} B_{ki} \\mathrm{d}B_{kl}'}],
         'holds_for': 'every invertible square A',
         'saves': {'inputs': [], 'outputs': ['B'], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3, 'j': 3}]}},
 'det': {'name': 'det',
         'signature': 'det(A[i,j]) -> d[]',
         'file': 'rules/linalg.rules',
         'line': 20,
         'text': 'det(A[i,j]) -> d[] = det(A[i,j])',
         'doc': '',
         'inputs': [{'name': 'A',
                     'kind': 'tensor',
                     'indices': ['i', 'j'],
                     'domain': 'wellcond',
                     'declared': False}],
         'outputs': [{'name': 'd', 'indices': []}],
         'extents': {},
         'equal_extents': [['i', 'j']],
         'pushforward': [{'target': 'dd',
                          'text': 'dd = tr(adj(A)·dA)',
                          'latex': '\\mathrm{d}d = \\operatorname{tr}\\left(\\operatorname{adj}(A) '
                                   '\\mathrm{d}A\\right)',
                          'matrix': 'dd = tr(adj(A)·dA)',
                          'index': 'dd = Σ_kl adj(A)[l,k]·dA[k,l]',
                          'index_latex': '\\mathrm{d}d = \\sum_{kl} \\operatorname{adj}(A)_{lk} '
                                         '\\mathrm{d}A_{kl}'},
                         {'target': 'adj(A)',
                          'text': 'adj(A) = the adjugate (det(A)·A⁻¹ where A is invertible, continuous at '
                                  'singular A)',
                          'latex': '\\operatorname{adj}(A) = \\text{the adjugate}',
                          'matrix': None,
                          'index': 'adj(A) = the adjugate (det(A)·A⁻¹ where A is invertible, continuous at '
                                   'singular A)',
                          'index_latex': '\\operatorname{adj}(A) = \\text{the adjugate}',
                          'where': True}],
         'pullback': [{'target': 'dA',
                       'text': 'dA = d·dd·A⁻ᵀ',
                       'latex': '\\mathrm{d}A = d \\mathrm{d}d A^{-\\top}',
                       'matrix': 'dA = d·dd·A⁻ᵀ',
                       'index': 'dA[i,j] = A⁻¹[j,i]·dd·d',
                       'index_latex': '\\mathrm{d}A_{ij} = {A^{-1}}_{ji} \\mathrm{d}d d'}],
         'holds_for': 'every invertible square A',
         'saves': {'inputs': ['A'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3, 'j': 3}]}},
 'logdet': {'name': 'logdet',
            'signature': 'logdet(A[i,j]) -> d[]',
            'file': 'rules/linalg.rules',
            'line': 21,
            'text': 'logdet(A[i,j]) -> d[] = logdet(A[i,j])',
            'doc': '',
            'inputs': [{'name': 'A',
                        'kind': 'tensor',
                        'indices': ['i', 'j'],
                        'domain': 'spd',
                        'declared': False}],
            'outputs': [{'name': 'd', 'indices': []}],
            'extents': {},
            'equal_extents': [['i', 'j']],
            'pushforward': [{'target': 'dd',
                             'text': 'dd = tr(A⁻¹·dA)',
                             'latex': '\\mathrm{d}d = \\operatorname{tr}\\left(A^{-1} \\mathrm{d}A\\right)',
                             'matrix': 'dd = tr(A⁻¹·dA)',
                             'index': 'dd = Σ_kl A⁻¹[l,k]·dA[k,l]',
                             'index_latex': '\\mathrm{d}d = \\sum_{kl} {A^{-1}}_{lk} \\mathrm{d}A_{kl}'}],
            'pullback': [{'target': 'dA',
                          'text': 'dA = dd·A⁻ᵀ',
                          'latex': '\\mathrm{d}A = \\mathrm{d}d A^{-\\top}',
                          'matrix': 'dA = dd·A⁻ᵀ',
                          'index': 'dA[i,j] = A⁻¹[j,i]·dd',
                          'index_latex': '\\mathrm{d}A_{ij} = {A^{-1}}_{ji} \\mathrm{d}d'}],
            'holds_for': 'every invertible square A',
            'saves': {'inputs': ['A'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 2,
                             'skipped': 0,
                             'extents': [{'i': 3, 'j': 3}]}},
 'solve': {'name': 'solve',
           'signature': 'solve(A[i,j], b[j]) -> x[i]',
           'file': 'rules/linalg.rules',
           'line': 22,
           'text': 'solve(A[i,j], b[j]) -> x[i] = solve(A[i,j], b[j])',
           'doc': '',
           'inputs': [{'name': 'A',
                       'kind': 'tensor',
                       'indices': ['i', 'j'],
                       'domain': 'wellcond',
                       'declared': False},
                      {'name': 'b', 'kind': 'tensor', 'indices': ['j'], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'x', 'indices': ['i']}],
           'extents': {},
           'equal_extents': [['i', 'j']],
           'pushforward': [{'target': 'dz',
                            'text': 'dz = db - dA·x',
                            'latex': '\\mathrm{d}z = \\mathrm{d}b - \\mathrm{d}A x',
                            'matrix': 'dz = db - dA·x',
                            'index': 'dz[i] = Σ_k -dA[i,k]·x[k] + db[i]',
                            'index_latex': '\\mathrm{d}z_{i} = \\sum_{k} - \\mathrm{d}A_{ik} x_{k} + '
                                           '\\mathrm{d}b_{i}'},
                           {'target': 'dx',
                            'text': 'dx = A⁻¹·dz',
                            'latex': '\\mathrm{d}x = A^{-1} \\mathrm{d}z',
                            'matrix': 'dx = A⁻¹·dz',
                            'index': 'dx[i] = Σ_k A⁻¹[i,k]·dz[k]',
                            'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} {A^{-1}}_{ik} \\mathrm{d}z_{k}'}],
           'pullback': [{'target': 'db',
                         'text': 'db = A⁻ᵀ·dx',
                         'latex': '\\mathrm{d}b = A^{-\\top} \\mathrm{d}x',
                         'matrix': 'db = A⁻ᵀ·dx',
                         'index': 'db[j] = Σ_k A⁻¹[k,j]·dx[k]',
                         'index_latex': '\\mathrm{d}b_{j} = \\sum_{k} {A^{-1}}_{kj} \\mathrm{d}x_{k}'},
                        {'target': 'dA',
                         'text': 'dA = -db·xᵀ',
                         'latex': '\\mathrm{d}A = -\\mathrm{d}b x^{\\top}',
                         'matrix': 'dA = -db·xᵀ',
                         'index': 'dA[i,j] = -db[i]·x[j]',
                         'index_latex': '\\mathrm{d}A_{ij} = - \\mathrm{d}b_{i} x_{j}'}],
           'holds_for': 'every invertible square A, every real value of the other inputs',
           'saves': {'inputs': ['A'], 'outputs': ['x'], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3, 'j': 3}]}},
 'solve_matrix': {'name': 'solve_matrix',
                  'signature': 'solve_matrix(A[i,j], B[j,k]) -> X[i,k]',
                  'file': 'rules/linalg.rules',
                  'line': 23,
                  'text': 'solve_matrix(A[i,j], B[j,k]) -> X[i,k] = solve(A[i,j], B[j,k])',
                  'doc': '',
                  'inputs': [{'name': 'A',
                              'kind': 'tensor',
                              'indices': ['i', 'j'],
                              'domain': 'wellcond',
                              'declared': False},
                             {'name': 'B',
                              'kind': 'tensor',
                              'indices': ['j', 'k'],
                              'domain': 'real',
                              'declared': False}],
                  'outputs': [{'name': 'X', 'indices': ['i', 'k']}],
                  'extents': {},
                  'equal_extents': [['i', 'j']],
                  'pushforward': [{'target': 'dz',
                                   'text': 'dz = dB - dA·X',
                                   'latex': '\\mathrm{d}z = \\mathrm{d}B - \\mathrm{d}A X',
                                   'matrix': 'dz = dB - dA·X',
                                   'index': 'dz[i,k] = Σ_l -X[l,k]·dA[i,l] + dB[i,k]',
                                   'index_latex': '\\mathrm{d}z_{ik} = \\sum_{l} - X_{lk} \\mathrm{d}A_{il} '
                                                  '+ \\mathrm{d}B_{ik}'},
                                  {'target': 'dX',
                                   'text': 'dX = A⁻¹·dz',
                                   'latex': '\\mathrm{d}X = A^{-1} \\mathrm{d}z',
                                   'matrix': 'dX = A⁻¹·dz',
                                   'index': 'dX[i,k] = Σ_l A⁻¹[i,l]·dz[l,k]',
                                   'index_latex': '\\mathrm{d}X_{ik} = \\sum_{l} {A^{-1}}_{il} '
                                                  '\\mathrm{d}z_{lk}'}],
                  'pullback': [{'target': 'dB',
                                'text': 'dB = A⁻ᵀ·dX',
                                'latex': '\\mathrm{d}B = A^{-\\top} \\mathrm{d}X',
                                'matrix': 'dB = A⁻ᵀ·dX',
                                'index': 'dB[j,k] = Σ_l A⁻¹[l,j]·dX[l,k]',
                                'index_latex': '\\mathrm{d}B_{jk} = \\sum_{l} {A^{-1}}_{lj} '
                                               '\\mathrm{d}X_{lk}'},
                               {'target': 'dA',
                                'text': 'dA = -dB·Xᵀ',
                                'latex': '\\mathrm{d}A = -\\mathrm{d}B X^{\\top}',
                                'matrix': 'dA = -dB·Xᵀ',
                                'index': 'dA[i,j] = Σ_k -X[j,k]·dB[i,k]',
                                'index_latex': '\\mathrm{d}A_{ij} = \\sum_{k} - X_{jk} \\mathrm{d}B_{ik}'}],
                  'holds_for': 'every invertible square A, every real value of the other inputs',
                  'saves': {'inputs': ['A'], 'outputs': ['X'], 'intermediates': []},
                  'verified': True,
                  'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                   'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                   'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                   'points': 4,
                                   'skipped': 0,
                                   'extents': [{'i': 3, 'j': 3, 'k': 4}, {'i': 4, 'j': 4, 'k': 3}]}},
 'mahalanobis': {'name': 'mahalanobis',
                 'signature': 'mahalanobis(x[i], S[i,j]) -> m[]',
                 'file': 'rules/linalg.rules',
                 'line': 26,
                 'text': 'mahalanobis(x[i], S[i,j]) -> m[] = x[i] * inv(S)[i,j] * x[j]',
                 'doc': 'Gaussian log-likelihood pieces: a quadratic form through the inverse.',
                 'inputs': [{'name': 'x',
                             'kind': 'tensor',
                             'indices': ['i'],
                             'domain': 'real',
                             'declared': False},
                            {'name': 'S',
                             'kind': 'tensor',
                             'indices': ['i', 'j'],
                             'domain': 'wellcond',
                             'declared': False}],
                 'outputs': [{'name': 'm', 'indices': []}],
                 'extents': {},
                 'equal_extents': [['i', 'j']],
                 'pushforward': [{'target': 'd(S⁻¹)',
                                  'text': 'd(S⁻¹) = -S⁻¹·dS·S⁻¹',
                                  'latex': '\\mathrm{d}(S^{-1}) = -S^{-1} \\mathrm{d}S S^{-1}',
                                  'matrix': 'd(S⁻¹) = -S⁻¹·dS·S⁻¹',
                                  'index': 'd(S⁻¹)[i,j] = Σ_kl -S⁻¹[i,k]·S⁻¹[l,j]·dS[k,l]',
                                  'index_latex': '\\mathrm{d}(S^{-1})_{ij} = \\sum_{kl} - {S^{-1}}_{ik} '
                                                 '{S^{-1}}_{lj} \\mathrm{d}S_{kl}'},
                                 {'target': 'dm',
                                  'text': 'dm = xᵀ·(S⁻ᵀ + S⁻¹)·dx + xᵀ·d(S⁻¹)·x',
                                  'latex': '\\mathrm{d}m = x^{\\top} (S^{-\\top} + S^{-1}) \\mathrm{d}x + '
                                           'x^{\\top} \\mathrm{d}(S^{-1}) x',
                                  'matrix': 'dm = xᵀ·(S⁻ᵀ + S⁻¹)·dx + xᵀ·d(S⁻¹)·x',
                                  'index': 'dm = Σ_kl (S⁻¹[k,l] + S⁻¹[l,k])·dx[k]·x[l] + Σ_kl '
                                           'd(S⁻¹)[k,l]·x[k]·x[l]',
                                  'index_latex': '\\mathrm{d}m = \\sum_{kl} \\left({S^{-1}}_{kl} + '
                                                 '{S^{-1}}_{lk}\\right) \\mathrm{d}x_{k} x_{l} + \\sum_{kl} '
                                                 '\\mathrm{d}(S^{-1})_{kl} x_{k} x_{l}'}],
                 'pullback': [{'target': 'dx',
                               'text': 'dx = dm·(S⁻¹ + S⁻ᵀ)·x',
                               'latex': '\\mathrm{d}x = \\mathrm{d}m (S^{-1} + S^{-\\top}) x',
                               'matrix': 'dx = dm·(S⁻¹ + S⁻ᵀ)·x',
                               'index': 'dx[i] = Σ_k (S⁻¹[i,k] + S⁻¹[k,i])·dm·x[k]',
                               'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\left({S^{-1}}_{ik} + '
                                              '{S^{-1}}_{ki}\\right) \\mathrm{d}m x_{k}'},
                              {'target': 'dS',
                               'text': 'dS = -dm·S⁻ᵀ·x·xᵀ·S⁻ᵀ',
                               'latex': '\\mathrm{d}S = -\\mathrm{d}m S^{-\\top} x x^{\\top} S^{-\\top}',
                               'matrix': 'dS = -dm·S⁻ᵀ·x·xᵀ·S⁻ᵀ',
                               'index': 'dS[i,j] = Σ_kl -S⁻¹[j,l]·S⁻¹[k,i]·dm·x[k]·x[l]',
                               'index_latex': '\\mathrm{d}S_{ij} = \\sum_{kl} - {S^{-1}}_{jl} {S^{-1}}_{ki} '
                                              '\\mathrm{d}m x_{k} x_{l}'}],
                 'holds_for': 'every invertible square S, every real value of the other inputs',
                 'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': ['_inv_S']},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                  'points': 2,
                                  'skipped': 0,
                                  'extents': [{'i': 3, 'j': 3}]}},
 'cayley': {'name': 'cayley',
            'signature': 'cayley(A[i,j]) -> Q[i,j]',
            'file': 'rules/linalg.rules',
            'line': 31,
            'text': 'cayley(A[i,j]) -> Q[i,j]:\n'
                    '    M[i,j] = inv(delta(i,j) - A[i,j])\n'
                    '    Q[i,j] = 2 * M[i,j] - delta(i,j)',
            'doc': 'The Cayley transform Q = (I - A)⁻¹·(I + A), as two statements; its pullback chains them '
                   'in reverse.\n'
                   'Written 2·(I - A)⁻¹ - I (the same matrix: (I - A)⁻¹·((I + A) + (I - A)) = 2·(I - A)⁻¹), '
                   'whose derivative\n'
                   '2·M·dA·M cancels nothing; through (I + A) it came out M·dA·(Q + I), which cancels where '
                   'Q ≈ -I (large A).',
            'inputs': [{'name': 'A',
                        'kind': 'tensor',
                        'indices': ['i', 'j'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'Q', 'indices': ['i', 'j']}],
            'extents': {},
            'equal_extents': [['i', 'j']],
            'pushforward': [{'target': 'dt0',
                             'text': 'dt0 = -dA',
                             'latex': '\\mathrm{d}\\mathit{t0} = -\\mathrm{d}A',
                             'matrix': 'dt0 = -dA',
                             'index': 'dt0[i,j] = -dA[i,j]',
                             'index_latex': '\\mathrm{d}\\mathit{t0}_{ij} = - \\mathrm{d}A_{ij}'},
                            {'target': 'dM',
                             'text': 'dM = -M·dt0·M',
                             'latex': '\\mathrm{d}M = -M \\mathrm{d}\\mathit{t0} M',
                             'matrix': 'dM = -M·dt0·M',
                             'index': 'dM[i,j] = Σ_kl -M[i,k]·M[l,j]·dt0[k,l]',
                             'index_latex': '\\mathrm{d}M_{ij} = \\sum_{kl} - M_{ik} M_{lj} '
                                            '{\\mathrm{d}\\mathit{t0}}_{kl}'},
                            {'target': 'dQ',
                             'text': 'dQ = 2·dM',
                             'latex': '\\mathrm{d}Q = 2 \\mathrm{d}M',
                             'matrix': 'dQ = 2·dM',
                             'index': 'dQ[i,j] = 2·dM[i,j]',
                             'index_latex': '\\mathrm{d}Q_{ij} = 2 \\mathrm{d}M_{ij}'}],
            'pullback': [{'target': 'dA',
                          'text': 'dA = 2·Mᵀ·dQ·Mᵀ',
                          'latex': '\\mathrm{d}A = 2 M^{\\top} \\mathrm{d}Q M^{\\top}',
                          'matrix': 'dA = 2·Mᵀ·dQ·Mᵀ',
                          'index': 'dA[i,j] = Σ_kl 2·M[j,l]·M[k,i]·dQ[k,l]',
                          'index_latex': '\\mathrm{d}A_{ij} = \\sum_{kl} 2 M_{jl} M_{ki} \\mathrm{d}Q_{kl}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': [], 'outputs': [], 'intermediates': ['M']},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 5},
                             'points': 2,
                             'skipped': 0,
                             'extents': [{'i': 3, 'j': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
