# @generated from rules/masks.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: index comparisons -- cumulative sums, triangular parts, causal masks.

A comparison of indices (j <= i, i == j, i != j, i < 3, i < size(i) - 1) is a condition of where():
where(j <= i, a, 0) is a where j ≤ i and 0 elsewhere, shown as a·[j ≤ i]. `i == j` means delta(i, j).
Indices are positions here, never arithmetic values. `inf` is the constant ∞ (a causal mask's -inf)."""
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

    # ---- cumsum(x[i]) -> y[i]    (rules/masks.rules:8)
    # Cumulative sums: generated as np.cumsum (no N×N mask); each pullback is the reverse cumulative sum.
    def cumsum(x):
        y = (np.cumsum(x, axis=-1))
        return y

    def cumsum_frule(tangents, x):
        _, dx = tangents
        y = (np.cumsum(x, axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.cumsum(dx, axis=-1)))
        return y, dy_

    def cumsum_rrule(x):
        y = (np.cumsum(x, axis=-1))
        def cumsum_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.cumsum(np.flip(dy_, -1), axis=-1), -1))
            return (_NO, dx)
        return y, cumsum_pullback

    # ---- cumsum_exclusive(x[i]) -> y[i]    (rules/masks.rules:9)
    def cumsum_exclusive(x):
        y = (np.concatenate([np.zeros((1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        return y

    def cumsum_exclusive_frule(tangents, x):
        _, dx = tangents
        y = (np.concatenate([np.zeros((1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.concatenate([np.zeros((1,), dtype=np.result_type(x)), np.cumsum(dx[..., :-1], axis=-1)], axis=-1)))
        return y, dy_

    def cumsum_exclusive_rrule(x):
        y = (np.concatenate([np.zeros((1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        def cumsum_exclusive_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.concatenate([np.zeros((1,), dtype=np.result_type(x)), np.cumsum(np.flip(dy_, -1)[..., :-1], axis=-1)], axis=-1), -1))
            return (_NO, dx)
        return y, cumsum_exclusive_pullback

    # ---- reverse_cumsum(x[i]) -> y[i]    (rules/masks.rules:10)
    def reverse_cumsum(x):
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        return y

    def reverse_cumsum_frule(tangents, x):
        _, dx = tangents
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.flip(np.cumsum(np.flip(dx, -1), axis=-1), -1)))
        return y, dy_

    def reverse_cumsum_rrule(x):
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        def reverse_cumsum_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.cumsum(dy_, axis=-1))
            return (_NO, dx)
        return y, reverse_cumsum_pullback

    # ---- cumsum_rows(x[b,i]) -> y[b,i]    (rules/masks.rules:12)
    # Along the last axis, each row b on its own.
    def cumsum_rows(x):
        n_b = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        return y

    def cumsum_rows_frule(tangents, x):
        _, dx = tangents
        n_b = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.cumsum(dx, axis=-1)))
        return y, dy_

    def cumsum_rows_rrule(x):
        n_b = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        def cumsum_rows_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.cumsum(np.flip(dy_, -1), axis=-1), -1))
            return (_NO, dx)
        return y, cumsum_rows_pullback

    # ---- tril(A[i,j]) -> L[i,j]    (rules/masks.rules:15)
    # Triangular parts, as np.tril(A) and np.triu(A, 1).
    def tril(A):
        n_j = A.shape[1]
        n_i = A.shape[0]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        return L

    def tril_frule(tangents, A):
        _, dA = tangents
        n_j = A.shape[1]
        n_i = A.shape[0]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        dL = _ZERO
        if not is_zero(dA):
            dL = _add(dL, np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dA, 0.0))
        return L, dL

    def tril_rrule(A):
        n_j = A.shape[1]
        n_i = A.shape[0]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        def tril_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO)
            dA = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dL, 0.0)
            return (_NO, dA)
        return L, tril_pullback

    # ---- triu_strict(A[i,j]) -> U[i,j]    (rules/masks.rules:16)
    def triu_strict(A):
        n_j = A.shape[1]
        n_i = A.shape[0]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        return U

    def triu_strict_frule(tangents, A):
        _, dA = tangents
        n_j = A.shape[1]
        n_i = A.shape[0]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        dU = _ZERO
        if not is_zero(dA):
            dU = _add(dU, np.where((np.arange(n_j) > np.arange(n_i)[:, None]), dA, 0.0))
        return U, dU

    def triu_strict_rrule(A):
        n_j = A.shape[1]
        n_i = A.shape[0]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        def triu_strict_pullback(dU):
            if is_zero(dU):
                return (_NO, _ZERO)
            dA = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), dU, 0.0)
            return (_NO, dA)
        return U, triu_strict_pullback

    # ---- causal_softmax(s[i,j]) -> y[i,j]    (rules/masks.rules:20)
    # Row softmax over the positions j ≤ i only: masked scores are -inf, so their weights are exactly 0 (and so are
    # the gradients with respect to them); each row is shifted by its maximum, as log-sum-exp is.
    def causal_softmax(s):
        n_j = s.shape[1]
        n_i = s.shape[0]
        m = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), s, (-np.inf))
        _m3 = np.lse_shift(m, axis=1)
        y = (np.exp(((m - np.sum(_m3, axis=1)[:, None]) - np.log(np.sum(np.exp(m - _m3), axis=1))[:, None])))
        return y

    def causal_softmax_frule(tangents, s):
        _, ds = tangents
        n_j = s.shape[1]
        n_i = s.shape[0]
        m = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), s, (-np.inf))
        _m12 = np.lse_shift(m, axis=1)
        y = (np.exp(((m - np.sum(_m12, axis=1)[:, None]) - np.log(np.sum(np.exp(m - _m12), axis=1))[:, None])))
        dm = _ZERO
        if not is_zero(ds):
            dm = _add(dm, np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), ds, 0.0))
        dy_ = _ZERO
        if not is_zero(dm):
            _e21 = (dm * y)
            dy_ = _add(dy_, _e21 + (-((np.sum(_e21, axis=1)[:, None]) * y)))
        return y, dy_

    def causal_softmax_rrule(s):
        n_j = s.shape[1]
        n_i = s.shape[0]
        m = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), s, (-np.inf))
        _m26 = np.lse_shift(m, axis=1)
        y = (np.exp(((m - np.sum(_m26, axis=1)[:, None]) - np.log(np.sum(np.exp(m - _m26), axis=1))[:, None])))
        def causal_softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _e32 = (dy_ * y)
            dm = _e32 + (-((np.sum(_e32, axis=1)[:, None]) * y))
            ds = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dm, 0.0)
            return (_NO, ds)
        return y, causal_softmax_pullback

    # ---- causal_attention(q[i,d], k[i,d], v[i,e]) -> o[i,e]    (rules/masks.rules:25)
    # One head of causal self-attention: queries q, keys k, values v over the same positions.
    def causal_attention(q, k_, v):
        n_i = q.shape[0]
        n_d = q.shape[1]
        s = np.where((np.arange(n_i) <= np.arange(n_i)[:, None]), (_recip((n_d ** 0.5)) * (q @ np.transpose(k_))), (-np.inf))
        _m6 = np.lse_shift(s, axis=1)
        p = (np.exp(((s - np.sum(_m6, axis=1)[:, None]) - np.log(np.sum(np.exp(s - _m6), axis=1))[:, None])))
        o = (p @ v)
        return o

    def causal_attention_frule(tangents, q, k_, v):
        _, dq, dk, dv = tangents
        n_i = q.shape[0]
        n_d = q.shape[1]
        _r13 = np.arange(n_i)
        _r14 = np.arange(n_i)
        _c15 = q @ np.transpose(k_)
        _e16 = n_d ** 0.5
        s = np.where((_r13 <= _r14[:, None]), (_recip(_e16) * _c15), (-np.inf))
        _m19 = np.lse_shift(s, axis=1)
        p = (np.exp(((s - np.sum(_m19, axis=1)[:, None]) - np.log(np.sum(np.exp(s - _m19), axis=1))[:, None])))
        o = (p @ v)
        ds = _ZERO
        if not is_zero(dk):
            ds = _add(ds, (q @ np.transpose(dk)))
        if not is_zero(dq):
            ds = _add(ds, (dq @ np.transpose(k_)))
        if not is_zero(ds):
            ds = ds * np.asarray(np.where((np.arange(n_i) <= np.arange(n_i)[:, None]), _recip(_e16), 0.0), dtype=np.result_type(q, k_, v))
        dp = _ZERO
        if not is_zero(ds):
            _e32 = (ds * p)
            dp = _add(dp, _e32 + (-((np.sum(_e32, axis=1)[:, None]) * p)))
        do = _ZERO
        if not is_zero(dp):
            do = _add(do, (dp @ v))
        if not is_zero(dv):
            do = _add(do, (p @ dv))
        return o, do

    def causal_attention_rrule(q, k_, v):
        n_i = q.shape[0]
        n_d = q.shape[1]
        _r36 = np.arange(n_i)
        _r37 = np.arange(n_i)
        _c38 = q @ np.transpose(k_)
        _e39 = n_d ** 0.5
        s = np.where((_r36 <= _r37[:, None]), (_recip(_e39) * _c38), (-np.inf))
        _m42 = np.lse_shift(s, axis=1)
        p = (np.exp(((s - np.sum(_m42, axis=1)[:, None]) - np.log(np.sum(np.exp(s - _m42), axis=1))[:, None])))
        o = (p @ v)
        def causal_attention_pullback(do):
            if is_zero(do):
                return (_NO, _ZERO, _ZERO, _ZERO)
            dp = (do @ np.transpose(v))
            _e50 = (dp * p)
            ds = _e50 + (-((np.sum(_e50, axis=1)[:, None]) * p))
            def _pb_q_52():
                dq = (_recip(_e39) * (np.where((np.arange(n_i) <= np.arange(n_i)[:, None]), ds, 0.0) @ k_))
                return dq
            def _pb_k_57():
                dk = (_recip(_e39) * (np.where((np.arange(n_i)[:, None] <= np.arange(n_i)), np.transpose(ds, (1, 0)), 0.0) @ q))
                return dk
            def _pb_v_62():
                dv = (np.transpose(p) @ do)
                return dv
            return (_NO, Thunk(_pb_q_52), Thunk(_pb_k_57), Thunk(_pb_v_62))
        return o, causal_attention_pullback

    # ---- __batched_cumsum(x[_batch,i]) -> y[_batch,i]    (rules/masks.rules:8)
    # Cumulative sums: generated as np.cumsum (no N×N mask); each pullback is the reverse cumulative sum.
    def _op___batched_cumsum(x):
        n__batch = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        return y

    def _op___batched_cumsum_frule(tangents, x):
        _, dx = tangents
        n__batch = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.cumsum(dx, axis=-1)))
        return y, dy_

    def _op___batched_cumsum_rrule(x):
        n__batch = x.shape[0]
        y = (np.cumsum(x, axis=-1))
        def _op___batched_cumsum_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.cumsum(np.flip(dy_, -1), axis=-1), -1))
            return (_NO, dx)
        return y, _op___batched_cumsum_pullback

    # ---- __batched_cumsum_exclusive(x[_batch,i]) -> y[_batch,i]    (rules/masks.rules:9)
    def _op___batched_cumsum_exclusive(x):
        n__batch = x.shape[0]
        y = (np.concatenate([np.zeros((n__batch, 1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        return y

    def _op___batched_cumsum_exclusive_frule(tangents, x):
        _, dx = tangents
        n__batch = x.shape[0]
        y = (np.concatenate([np.zeros((n__batch, 1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.concatenate([np.zeros((n__batch, 1,), dtype=np.result_type(x)), np.cumsum(dx[..., :-1], axis=-1)], axis=-1)))
        return y, dy_

    def _op___batched_cumsum_exclusive_rrule(x):
        n__batch = x.shape[0]
        y = (np.concatenate([np.zeros((n__batch, 1,), dtype=np.result_type(x)), np.cumsum(x[..., :-1], axis=-1)], axis=-1))
        def _op___batched_cumsum_exclusive_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.concatenate([np.zeros((n__batch, 1,), dtype=np.result_type(x)), np.cumsum(np.flip(dy_, -1)[..., :-1], axis=-1)], axis=-1), -1))
            return (_NO, dx)
        return y, _op___batched_cumsum_exclusive_pullback

    # ---- __batched_reverse_cumsum(x[_batch,i]) -> y[_batch,i]    (rules/masks.rules:10)
    def _op___batched_reverse_cumsum(x):
        n__batch = x.shape[0]
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        return y

    def _op___batched_reverse_cumsum_frule(tangents, x):
        _, dx = tangents
        n__batch = x.shape[0]
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.flip(np.cumsum(np.flip(dx, -1), axis=-1), -1)))
        return y, dy_

    def _op___batched_reverse_cumsum_rrule(x):
        n__batch = x.shape[0]
        y = (np.flip(np.cumsum(np.flip(x, -1), axis=-1), -1))
        def _op___batched_reverse_cumsum_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.cumsum(dy_, axis=-1))
            return (_NO, dx)
        return y, _op___batched_reverse_cumsum_pullback

    # ---- __batched_cumsum_rows(x[_batch,b,i]) -> y[_batch,b,i]    (rules/masks.rules:12)
    # Along the last axis, each row b on its own.
    def _op___batched_cumsum_rows(x):
        n__batch = x.shape[0]
        n_b = x.shape[1]
        y = (np.cumsum(x, axis=-1))
        return y

    def _op___batched_cumsum_rows_frule(tangents, x):
        _, dx = tangents
        n__batch = x.shape[0]
        n_b = x.shape[1]
        y = (np.cumsum(x, axis=-1))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.cumsum(dx, axis=-1)))
        return y, dy_

    def _op___batched_cumsum_rows_rrule(x):
        n__batch = x.shape[0]
        n_b = x.shape[1]
        y = (np.cumsum(x, axis=-1))
        def _op___batched_cumsum_rows_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.flip(np.cumsum(np.flip(dy_, -1), axis=-1), -1))
            return (_NO, dx)
        return y, _op___batched_cumsum_rows_pullback

    # ---- __batched_tril(A[_batch,i,j]) -> L[_batch,i,j]    (rules/masks.rules:15)
    # Triangular parts, as np.tril(A) and np.triu(A, 1).
    def _op___batched_tril(A):
        n_j = A.shape[2]
        n_i = A.shape[1]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        return L

    def _op___batched_tril_frule(tangents, A):
        _, dA = tangents
        n_j = A.shape[2]
        n_i = A.shape[1]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        dL = _ZERO
        if not is_zero(dA):
            dL = _add(dL, np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dA, 0.0))
        return L, dL

    def _op___batched_tril_rrule(A):
        n_j = A.shape[2]
        n_i = A.shape[1]
        L = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), A, 0.0)
        def _op___batched_tril_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO)
            dA = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dL, 0.0)
            return (_NO, dA)
        return L, _op___batched_tril_pullback

    # ---- __batched_triu_strict(A[_batch,i,j]) -> U[_batch,i,j]    (rules/masks.rules:16)
    def _op___batched_triu_strict(A):
        n_j = A.shape[2]
        n_i = A.shape[1]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        return U

    def _op___batched_triu_strict_frule(tangents, A):
        _, dA = tangents
        n_j = A.shape[2]
        n_i = A.shape[1]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        dU = _ZERO
        if not is_zero(dA):
            dU = _add(dU, np.where((np.arange(n_j) > np.arange(n_i)[:, None]), dA, 0.0))
        return U, dU

    def _op___batched_triu_strict_rrule(A):
        n_j = A.shape[2]
        n_i = A.shape[1]
        U = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), A, 0.0)
        def _op___batched_triu_strict_pullback(dU):
            if is_zero(dU):
                return (_NO, _ZERO)
            dA = np.where((np.arange(n_j) > np.arange(n_i)[:, None]), dU, 0.0)
            return (_NO, dA)
        return U, _op___batched_triu_strict_pullback

    # ---- __batched_causal_softmax(s[_batch,i,j]) -> y[_batch,i,j]    (rules/masks.rules:20)
    # Row softmax over the positions j ≤ i only: masked scores are -inf, so their weights are exactly 0 (and so are
    # the gradients with respect to them); each row is shifted by its maximum, as log-sum-exp is.
    def _op___batched_causal_softmax(s):
        n_j = s.shape[2]
        n_i = s.shape[1]
        m = np.transpose(np.where((np.arange(n_j) <= np.arange(n_i)[:, None])[:, :, None], np.transpose(s, (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m3 = np.lse_shift(m, axis=2)
        y = (np.exp(((m - np.sum(_m3, axis=2)[:, :, None]) - np.log(np.sum(np.exp(m - _m3), axis=2))[:, :, None])))
        return y

    def _op___batched_causal_softmax_frule(tangents, s):
        _, ds = tangents
        n_j = s.shape[2]
        n_i = s.shape[1]
        m = np.transpose(np.where((np.arange(n_j) <= np.arange(n_i)[:, None])[:, :, None], np.transpose(s, (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m12 = np.lse_shift(m, axis=2)
        y = (np.exp(((m - np.sum(_m12, axis=2)[:, :, None]) - np.log(np.sum(np.exp(m - _m12), axis=2))[:, :, None])))
        dm = _ZERO
        if not is_zero(ds):
            dm = _add(dm, np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), ds, 0.0))
        dy_ = _ZERO
        if not is_zero(dm):
            _e21 = (dm * y)
            dy_ = _add(dy_, _e21 + (-((np.sum(_e21, axis=2)[:, :, None]) * y)))
        return y, dy_

    def _op___batched_causal_softmax_rrule(s):
        n_j = s.shape[2]
        n_i = s.shape[1]
        m = np.transpose(np.where((np.arange(n_j) <= np.arange(n_i)[:, None])[:, :, None], np.transpose(s, (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m26 = np.lse_shift(m, axis=2)
        y = (np.exp(((m - np.sum(_m26, axis=2)[:, :, None]) - np.log(np.sum(np.exp(m - _m26), axis=2))[:, :, None])))
        def _op___batched_causal_softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _e32 = (dy_ * y)
            dm = _e32 + (-((np.sum(_e32, axis=2)[:, :, None]) * y))
            ds = np.where((np.arange(n_j) <= np.arange(n_i)[:, None]), dm, 0.0)
            return (_NO, ds)
        return y, _op___batched_causal_softmax_pullback

    # ---- __batched_causal_attention(q[_batch,i,d], k[_batch,i,d], v[_batch,i,e]) -> o[_batch,i,e]    (rules/masks.rules:25)
    # One head of causal self-attention: queries q, keys k, values v over the same positions.
    def _op___batched_causal_attention(q, k_, v):
        n_i = q.shape[1]
        n_d = q.shape[2]
        s = np.transpose(np.where((np.arange(n_i) <= np.arange(n_i)[:, None])[:, :, None], np.transpose((_recip((n_d ** 0.5)) * np.einsum("abc,adc->adb", k_, q, optimize=True)), (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m6 = np.lse_shift(s, axis=2)
        p = (np.exp(((s - np.sum(_m6, axis=2)[:, :, None]) - np.log(np.sum(np.exp(s - _m6), axis=2))[:, :, None])))
        o = np.einsum("abc,acd->abd", p, v, optimize=True)
        return o

    def _op___batched_causal_attention_frule(tangents, q, k_, v):
        _, dq, dk, dv = tangents
        n_i = q.shape[1]
        n_d = q.shape[2]
        _r13 = np.arange(n_i)
        _r14 = np.arange(n_i)
        _c15 = np.einsum("abc,adc->adb", k_, q, optimize=True)
        _e16 = n_d ** 0.5
        s = np.transpose(np.where((_r13 <= _r14[:, None])[:, :, None], np.transpose((_recip(_e16) * _c15), (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m19 = np.lse_shift(s, axis=2)
        p = (np.exp(((s - np.sum(_m19, axis=2)[:, :, None]) - np.log(np.sum(np.exp(s - _m19), axis=2))[:, :, None])))
        o = np.einsum("abc,acd->abd", p, v, optimize=True)
        ds = _ZERO
        if not is_zero(dk):
            ds = _add(ds, np.einsum("abc,adc->adb", dk, q, optimize=True))
        if not is_zero(dq):
            ds = _add(ds, np.einsum("abc,adc->abd", dq, k_, optimize=True))
        if not is_zero(ds):
            ds = ds * np.asarray(np.where((np.arange(n_i) <= np.arange(n_i)[:, None]), _recip(_e16), 0.0), dtype=np.result_type(q, k_, v))
        dp = _ZERO
        if not is_zero(ds):
            _e32 = (ds * p)
            dp = _add(dp, _e32 + (-((np.sum(_e32, axis=2)[:, :, None]) * p)))
        do = _ZERO
        if not is_zero(dp):
            do = _add(do, np.einsum("abc,acd->abd", dp, v, optimize=True))
        if not is_zero(dv):
            do = _add(do, np.einsum("abc,adb->adc", dv, p, optimize=True))
        return o, do

    def _op___batched_causal_attention_rrule(q, k_, v):
        n_i = q.shape[1]
        n_d = q.shape[2]
        _r36 = np.arange(n_i)
        _r37 = np.arange(n_i)
        _c38 = np.einsum("abc,adc->adb", k_, q, optimize=True)
        _e39 = n_d ** 0.5
        s = np.transpose(np.where((_r36 <= _r37[:, None])[:, :, None], np.transpose((_recip(_e39) * _c38), (1, 2, 0)), (-np.inf)), (2, 0, 1))
        _m42 = np.lse_shift(s, axis=2)
        p = (np.exp(((s - np.sum(_m42, axis=2)[:, :, None]) - np.log(np.sum(np.exp(s - _m42), axis=2))[:, :, None])))
        o = np.einsum("abc,acd->abd", p, v, optimize=True)
        def _op___batched_causal_attention_pullback(do):
            if is_zero(do):
                return (_NO, _ZERO, _ZERO, _ZERO)
            dp = np.einsum("abc,adc->abd", do, v, optimize=True)
            _e50 = (dp * p)
            ds = _e50 + (-((np.sum(_e50, axis=2)[:, :, None]) * p))
            def _pb_q_52():
                dq = (_recip(_e39) * np.einsum("abc,dba->adc", k_, ((np.asarray((np.arange(n_i) <= np.arange(n_i)[:, None]), dtype=np.result_type(q, k_, v))[:, :, None]) * np.transpose(ds, (1, 2, 0))), optimize=True))
                return dq
            def _pb_k_58():
                dk = (_recip(_e39) * np.einsum("abc,dba->adc", q, ((np.asarray((np.arange(n_i)[:, None] <= np.arange(n_i)), dtype=np.result_type(q, k_, v))[:, :, None]) * np.transpose(ds, (2, 1, 0))), optimize=True))
                return dk
            def _pb_v_64():
                dv = np.einsum("abc,abd->adc", do, p, optimize=True)
                return dv
            return (_NO, Thunk(_pb_q_52), Thunk(_pb_k_58), Thunk(_pb_v_64))
        return o, _op___batched_causal_attention_pullback

    return {
        'cumsum': cumsum,
        'cumsum_frule': cumsum_frule,
        'cumsum_rrule': cumsum_rrule,
        'cumsum_exclusive': cumsum_exclusive,
        'cumsum_exclusive_frule': cumsum_exclusive_frule,
        'cumsum_exclusive_rrule': cumsum_exclusive_rrule,
        'reverse_cumsum': reverse_cumsum,
        'reverse_cumsum_frule': reverse_cumsum_frule,
        'reverse_cumsum_rrule': reverse_cumsum_rrule,
        'cumsum_rows': cumsum_rows,
        'cumsum_rows_frule': cumsum_rows_frule,
        'cumsum_rows_rrule': cumsum_rows_rrule,
        'tril': tril,
        'tril_frule': tril_frule,
        'tril_rrule': tril_rrule,
        'triu_strict': triu_strict,
        'triu_strict_frule': triu_strict_frule,
        'triu_strict_rrule': triu_strict_rrule,
        'causal_softmax': causal_softmax,
        'causal_softmax_frule': causal_softmax_frule,
        'causal_softmax_rrule': causal_softmax_rrule,
        'causal_attention': causal_attention,
        'causal_attention_frule': causal_attention_frule,
        'causal_attention_rrule': causal_attention_rrule,
        '__batched_cumsum': _op___batched_cumsum,
        '__batched_cumsum_frule': _op___batched_cumsum_frule,
        '__batched_cumsum_rrule': _op___batched_cumsum_rrule,
        '__batched_cumsum_exclusive': _op___batched_cumsum_exclusive,
        '__batched_cumsum_exclusive_frule': _op___batched_cumsum_exclusive_frule,
        '__batched_cumsum_exclusive_rrule': _op___batched_cumsum_exclusive_rrule,
        '__batched_reverse_cumsum': _op___batched_reverse_cumsum,
        '__batched_reverse_cumsum_frule': _op___batched_reverse_cumsum_frule,
        '__batched_reverse_cumsum_rrule': _op___batched_reverse_cumsum_rrule,
        '__batched_cumsum_rows': _op___batched_cumsum_rows,
        '__batched_cumsum_rows_frule': _op___batched_cumsum_rows_frule,
        '__batched_cumsum_rows_rrule': _op___batched_cumsum_rows_rrule,
        '__batched_tril': _op___batched_tril,
        '__batched_tril_frule': _op___batched_tril_frule,
        '__batched_tril_rrule': _op___batched_tril_rrule,
        '__batched_triu_strict': _op___batched_triu_strict,
        '__batched_triu_strict_frule': _op___batched_triu_strict_frule,
        '__batched_triu_strict_rrule': _op___batched_triu_strict_rrule,
        '__batched_causal_softmax': _op___batched_causal_softmax,
        '__batched_causal_softmax_frule': _op___batched_causal_softmax_frule,
        '__batched_causal_softmax_rrule': _op___batched_causal_softmax_rrule,
        '__batched_causal_attention': _op___batched_causal_attention,
        '__batched_causal_attention_frule': _op___batched_causal_attention_frule,
        '__batched_causal_attention_rrule': _op___batched_causal_attention_rrule,
    }


OPS = {'cumsum': {'signature': 'cumsum(x[i]) -> y[i]',
            'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'equal_extents': [],
            'domains': {'x': 'real'},
            'source': 'rules/masks.rules:8',
            'doc': 'Cumulative sums: generated as np.cumsum (no N×N mask); each pullback is the reverse '
                   'cumulative sum.',
            'batched': '__batched_cumsum'},
 'cumsum_exclusive': {'signature': 'cumsum_exclusive(x[i]) -> y[i]',
                      'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
                      'outputs': [{'name': 'y', 'indices': ['i']}],
                      'equal_extents': [],
                      'domains': {'x': 'real'},
                      'source': 'rules/masks.rules:9',
                      'batched': '__batched_cumsum_exclusive'},
 'reverse_cumsum': {'signature': 'reverse_cumsum(x[i]) -> y[i]',
                    'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
                    'outputs': [{'name': 'y', 'indices': ['i']}],
                    'equal_extents': [],
                    'domains': {'x': 'real'},
                    'source': 'rules/masks.rules:10',
                    'batched': '__batched_reverse_cumsum'},
 'cumsum_rows': {'signature': 'cumsum_rows(x[b,i]) -> y[b,i]',
                 'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['b', 'i']}],
                 'outputs': [{'name': 'y', 'indices': ['b', 'i']}],
                 'equal_extents': [],
                 'domains': {'x': 'real'},
                 'source': 'rules/masks.rules:12',
                 'doc': 'Along the last axis, each row b on its own.',
                 'batched': '__batched_cumsum_rows'},
 'tril': {'signature': 'tril(A[i,j]) -> L[i,j]',
          'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
          'outputs': [{'name': 'L', 'indices': ['i', 'j']}],
          'equal_extents': [],
          'domains': {'A': 'real'},
          'source': 'rules/masks.rules:15',
          'doc': 'Triangular parts, as np.tril(A) and np.triu(A, 1).',
          'batched': '__batched_tril'},
 'triu_strict': {'signature': 'triu_strict(A[i,j]) -> U[i,j]',
                 'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
                 'outputs': [{'name': 'U', 'indices': ['i', 'j']}],
                 'equal_extents': [],
                 'domains': {'A': 'real'},
                 'source': 'rules/masks.rules:16',
                 'batched': '__batched_triu_strict'},
 'causal_softmax': {'signature': 'causal_softmax(s[i,j]) -> y[i,j]',
                    'inputs': [{'name': 's', 'kind': 'tensor', 'indices': ['i', 'j']}],
                    'outputs': [{'name': 'y', 'indices': ['i', 'j']}],
                    'equal_extents': [],
                    'domains': {'s': 'real'},
                    'source': 'rules/masks.rules:20',
                    'doc': 'Row softmax over the positions j ≤ i only: masked scores are -inf, so their '
                           'weights are exactly 0 (and so are\n'
                           'the gradients with respect to them); each row is shifted by its maximum, as '
                           'log-sum-exp is.',
                    'batched': '__batched_causal_softmax'},
 'causal_attention': {'signature': 'causal_attention(q[i,d], k[i,d], v[i,e]) -> o[i,e]',
                      'inputs': [{'name': 'q', 'kind': 'tensor', 'indices': ['i', 'd']},
                                 {'name': 'k', 'kind': 'tensor', 'indices': ['i', 'd']},
                                 {'name': 'v', 'kind': 'tensor', 'indices': ['i', 'e']}],
                      'outputs': [{'name': 'o', 'indices': ['i', 'e']}],
                      'equal_extents': [],
                      'domains': {'q': 'real', 'k': 'real', 'v': 'real'},
                      'source': 'rules/masks.rules:25',
                      'doc': 'One head of causal self-attention: queries q, keys k, values v over the same '
                             'positions.',
                      'batched': '__batched_causal_attention'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'cumsum': {'name': 'cumsum',
            'signature': 'cumsum(x[i]) -> y[i]',
            'file': 'rules/masks.rules',
            'line': 8,
            'text': 'cumsum(x[i]) -> y[i] = sum(j, where(j <= i, x[j], 0))',
            'doc': 'Cumulative sums: generated as np.cumsum (no N×N mask); each pullback is the reverse '
                   'cumulative sum.',
            'inputs': [{'name': 'x',
                        'kind': 'tensor',
                        'indices': ['i'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dy',
                             'text': 'dy = cumsum(dx)',
                             'latex': '\\mathrm{d}y = \\operatorname{cumsum}\\left(\\mathrm{d}x\\right)',
                             'matrix': 'dy = cumsum(dx)',
                             'index': 'dy[i] = Σ_k dx[k]·[k ≤ i]',
                             'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}x_{k} [k \\le i]'},
                            {'target': 'cumsum',
                             'text': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                             'latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, u_{k} '
                                      '\\text{, along the last index}',
                             'matrix': None,
                             'index': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                             'index_latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, u_{k} '
                                            '\\text{, along the last index}',
                             'where': True}],
            'pullback': [{'target': 'dx',
                          'text': 'dx = revcumsum(dy)',
                          'latex': '\\mathrm{d}x = \\operatorname{revcumsum}\\left(\\mathrm{d}y\\right)',
                          'matrix': 'dx = revcumsum(dy)',
                          'index': 'dx[i] = Σ_k dy[k]·[i ≤ k]',
                          'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\mathrm{d}y_{k} [i \\le k]'},
                         {'target': 'revcumsum',
                          'text': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                          'latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, u_{k} '
                                   '\\text{, along the last index}',
                          'matrix': None,
                          'index': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                          'index_latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, u_{k} '
                                         '\\text{, along the last index}',
                          'where': True}],
            'holds_for': 'every real input',
            'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 2,
                             'skipped': 0,
                             'extents': [{'i': 3}]}},
 'cumsum_exclusive': {'name': 'cumsum_exclusive',
                      'signature': 'cumsum_exclusive(x[i]) -> y[i]',
                      'file': 'rules/masks.rules',
                      'line': 9,
                      'text': 'cumsum_exclusive(x[i]) -> y[i] = sum(j, where(j < i, x[j], 0))',
                      'doc': '',
                      'inputs': [{'name': 'x',
                                  'kind': 'tensor',
                                  'indices': ['i'],
                                  'domain': 'real',
                                  'declared': False}],
                      'outputs': [{'name': 'y', 'indices': ['i']}],
                      'extents': {},
                      'equal_extents': [],
                      'pushforward': [{'target': 'dy',
                                       'text': 'dy = cumsum(dx) - dx',
                                       'latex': '\\mathrm{d}y = '
                                                '\\operatorname{cumsum}\\left(\\mathrm{d}x\\right) - '
                                                '\\mathrm{d}x',
                                       'matrix': 'dy = cumsum(dx) - dx',
                                       'index': 'dy[i] = Σ_k dx[k]·[k < i]',
                                       'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}x_{k} [k < '
                                                      'i]'},
                                      {'target': 'cumsum',
                                       'text': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                       'latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, '
                                                'u_{k} \\text{, along the last index}',
                                       'matrix': None,
                                       'index': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                       'index_latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] '
                                                      '\\, u_{k} \\text{, along the last index}',
                                       'where': True}],
                      'pullback': [{'target': 'dx',
                                    'text': 'dx = revcumsum(dy) - dy',
                                    'latex': '\\mathrm{d}x = '
                                             '\\operatorname{revcumsum}\\left(\\mathrm{d}y\\right) - '
                                             '\\mathrm{d}y',
                                    'matrix': 'dx = revcumsum(dy) - dy',
                                    'index': 'dx[i] = Σ_k dy[k]·[i < k]',
                                    'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\mathrm{d}y_{k} [i < k]'},
                                   {'target': 'revcumsum',
                                    'text': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                                    'latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, '
                                             'u_{k} \\text{, along the last index}',
                                    'matrix': None,
                                    'index': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                                    'index_latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] '
                                                   '\\, u_{k} \\text{, along the last index}',
                                    'where': True}],
                      'holds_for': 'every real input',
                      'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                      'verified': True,
                      'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                       'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                       'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                       'points': 2,
                                       'skipped': 0,
                                       'extents': [{'i': 3}]}},
 'reverse_cumsum': {'name': 'reverse_cumsum',
                    'signature': 'reverse_cumsum(x[i]) -> y[i]',
                    'file': 'rules/masks.rules',
                    'line': 10,
                    'text': 'reverse_cumsum(x[i]) -> y[i] = sum(j, where(j >= i, x[j], 0))',
                    'doc': '',
                    'inputs': [{'name': 'x',
                                'kind': 'tensor',
                                'indices': ['i'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'y', 'indices': ['i']}],
                    'extents': {},
                    'equal_extents': [],
                    'pushforward': [{'target': 'dy',
                                     'text': 'dy = revcumsum(dx)',
                                     'latex': '\\mathrm{d}y = '
                                              '\\operatorname{revcumsum}\\left(\\mathrm{d}x\\right)',
                                     'matrix': 'dy = revcumsum(dx)',
                                     'index': 'dy[i] = Σ_k dx[k]·[k ≥ i]',
                                     'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}x_{k} [k \\ge '
                                                    'i]'},
                                    {'target': 'revcumsum',
                                     'text': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                                     'latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, '
                                              'u_{k} \\text{, along the last index}',
                                     'matrix': None,
                                     'index': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                                     'index_latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] '
                                                    '\\, u_{k} \\text{, along the last index}',
                                     'where': True}],
                    'pullback': [{'target': 'dx',
                                  'text': 'dx = cumsum(dy)',
                                  'latex': '\\mathrm{d}x = \\operatorname{cumsum}\\left(\\mathrm{d}y\\right)',
                                  'matrix': 'dx = cumsum(dy)',
                                  'index': 'dx[i] = Σ_k dy[k]·[i ≥ k]',
                                  'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} \\mathrm{d}y_{k} [i \\ge k]'},
                                 {'target': 'cumsum',
                                  'text': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                  'latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, u_{k} '
                                           '\\text{, along the last index}',
                                  'matrix': None,
                                  'index': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                  'index_latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, '
                                                 'u_{k} \\text{, along the last index}',
                                  'where': True}],
                    'holds_for': 'every real input',
                    'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 2,
                                     'skipped': 0,
                                     'extents': [{'i': 3}]}},
 'cumsum_rows': {'name': 'cumsum_rows',
                 'signature': 'cumsum_rows(x[b,i]) -> y[b,i]',
                 'file': 'rules/masks.rules',
                 'line': 12,
                 'text': 'cumsum_rows(x[b,i]) -> y[b,i] = sum(j, where(j <= i, x[b,j], 0))',
                 'doc': 'Along the last axis, each row b on its own.',
                 'inputs': [{'name': 'x',
                             'kind': 'tensor',
                             'indices': ['b', 'i'],
                             'domain': 'real',
                             'declared': False}],
                 'outputs': [{'name': 'y', 'indices': ['b', 'i']}],
                 'extents': {},
                 'equal_extents': [],
                 'pushforward': [{'target': 'dy',
                                  'text': 'dy = cumsum(dx)',
                                  'latex': '\\mathrm{d}y = \\operatorname{cumsum}\\left(\\mathrm{d}x\\right)',
                                  'matrix': 'dy = cumsum(dx)',
                                  'index': 'dy[b,i] = Σ_k dx[b,k]·[k ≤ i]',
                                  'index_latex': '\\mathrm{d}y_{bi} = \\sum_{k} \\mathrm{d}x_{bk} [k \\le '
                                                 'i]'},
                                 {'target': 'cumsum',
                                  'text': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                  'latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, u_{k} '
                                           '\\text{, along the last index}',
                                  'matrix': None,
                                  'index': 'cumsum(u)[i] = Σ_k [k ≤ i]·u[k], along the last index',
                                  'index_latex': '\\operatorname{cumsum}(u)_{i} = \\sum_{k} [k \\le i] \\, '
                                                 'u_{k} \\text{, along the last index}',
                                  'where': True}],
                 'pullback': [{'target': 'dx',
                               'text': 'dx = revcumsum(dy)',
                               'latex': '\\mathrm{d}x = \\operatorname{revcumsum}\\left(\\mathrm{d}y\\right)',
                               'matrix': 'dx = revcumsum(dy)',
                               'index': 'dx[b,i] = Σ_k dy[b,k]·[i ≤ k]',
                               'index_latex': '\\mathrm{d}x_{bi} = \\sum_{k} \\mathrm{d}y_{bk} [i \\le k]'},
                              {'target': 'revcumsum',
                               'text': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                               'latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, u_{k} '
                                        '\\text{, along the last index}',
                               'matrix': None,
                               'index': 'revcumsum(u)[i] = Σ_k [k ≥ i]·u[k], along the last index',
                               'index_latex': '\\operatorname{revcumsum}(u)_{i} = \\sum_{k} [k \\ge i] \\, '
                                              'u_{k} \\text{, along the last index}',
                               'where': True}],
                 'holds_for': 'every real input',
                 'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                  'points': 4,
                                  'skipped': 0,
                                  'extents': [{'b': 3, 'i': 4}, {'b': 4, 'i': 3}]}},
 'tril': {'name': 'tril',
          'signature': 'tril(A[i,j]) -> L[i,j]',
          'file': 'rules/masks.rules',
          'line': 15,
          'text': 'tril(A[i,j]) -> L[i,j] = where(j <= i, A[i,j], 0)',
          'doc': 'Triangular parts, as np.tril(A) and np.triu(A, 1).',
          'inputs': [{'name': 'A',
                      'kind': 'tensor',
                      'indices': ['i', 'j'],
                      'domain': 'real',
                      'declared': False}],
          'outputs': [{'name': 'L', 'indices': ['i', 'j']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dL',
                           'text': 'dL = tril(dA)',
                           'latex': '\\mathrm{d}L = \\operatorname{tril}\\left(\\mathrm{d}A\\right)',
                           'matrix': 'dL = tril(dA)',
                           'index': 'dL[i,j] = dA[i,j]·[j ≤ i]',
                           'index_latex': '\\mathrm{d}L_{ij} = \\mathrm{d}A_{ij} [j \\le i]'},
                          {'target': 'tril',
                           'text': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                           'latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} \\text{, } '
                                    '\\operatorname{tril}(A) = \\operatorname{tril}(A, 0)',
                           'matrix': None,
                           'index': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                           'index_latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} '
                                          '\\text{, } \\operatorname{tril}(A) = \\operatorname{tril}(A, 0)',
                           'where': True}],
          'pullback': [{'target': 'dA',
                        'text': 'dA = tril(dL)',
                        'latex': '\\mathrm{d}A = \\operatorname{tril}\\left(\\mathrm{d}L\\right)',
                        'matrix': 'dA = tril(dL)',
                        'index': 'dA[i,j] = dL[i,j]·[j ≤ i]',
                        'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}L_{ij} [j \\le i]'},
                       {'target': 'tril',
                        'text': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                        'latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} \\text{, } '
                                 '\\operatorname{tril}(A) = \\operatorname{tril}(A, 0)',
                        'matrix': None,
                        'index': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                        'index_latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} \\text{, '
                                       '} \\operatorname{tril}(A) = \\operatorname{tril}(A, 0)',
                        'where': True}],
          'holds_for': 'every real input',
          'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                           'points': 4,
                           'skipped': 0,
                           'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'triu_strict': {'name': 'triu_strict',
                 'signature': 'triu_strict(A[i,j]) -> U[i,j]',
                 'file': 'rules/masks.rules',
                 'line': 16,
                 'text': 'triu_strict(A[i,j]) -> U[i,j] = where(j > i, A[i,j], 0)',
                 'doc': '',
                 'inputs': [{'name': 'A',
                             'kind': 'tensor',
                             'indices': ['i', 'j'],
                             'domain': 'real',
                             'declared': False}],
                 'outputs': [{'name': 'U', 'indices': ['i', 'j']}],
                 'extents': {},
                 'equal_extents': [],
                 'pushforward': [{'target': 'dU',
                                  'text': 'dU = triu(dA, 1)',
                                  'latex': '\\mathrm{d}U = \\operatorname{triu}\\left(\\mathrm{d}A, '
                                           '1\\right)',
                                  'matrix': 'dU = triu(dA, 1)',
                                  'index': 'dU[i,j] = dA[i,j]·[j > i]',
                                  'index_latex': '\\mathrm{d}U_{ij} = \\mathrm{d}A_{ij} [j > i]'},
                                 {'target': 'triu',
                                  'text': 'triu(A, m)[i,j] = [j - i ≥ m]·A[i,j], triu(A) = triu(A, 0)',
                                  'latex': '\\operatorname{triu}(A, m)_{ij} = [j - i \\ge m] \\, A_{ij} '
                                           '\\text{, } \\operatorname{triu}(A) = \\operatorname{triu}(A, 0)',
                                  'matrix': None,
                                  'index': 'triu(A, m)[i,j] = [j - i ≥ m]·A[i,j], triu(A) = triu(A, 0)',
                                  'index_latex': '\\operatorname{triu}(A, m)_{ij} = [j - i \\ge m] \\, '
                                                 'A_{ij} \\text{, } \\operatorname{triu}(A) = '
                                                 '\\operatorname{triu}(A, 0)',
                                  'where': True}],
                 'pullback': [{'target': 'dA',
                               'text': 'dA = triu(dU, 1)',
                               'latex': '\\mathrm{d}A = \\operatorname{triu}\\left(\\mathrm{d}U, 1\\right)',
                               'matrix': 'dA = triu(dU, 1)',
                               'index': 'dA[i,j] = dU[i,j]·[j > i]',
                               'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}U_{ij} [j > i]'},
                              {'target': 'triu',
                               'text': 'triu(A, m)[i,j] = [j - i ≥ m]·A[i,j], triu(A) = triu(A, 0)',
                               'latex': '\\operatorname{triu}(A, m)_{ij} = [j - i \\ge m] \\, A_{ij} '
                                        '\\text{, } \\operatorname{triu}(A) = \\operatorname{triu}(A, 0)',
                               'matrix': None,
                               'index': 'triu(A, m)[i,j] = [j - i ≥ m]·A[i,j], triu(A) = triu(A, 0)',
                               'index_latex': '\\operatorname{triu}(A, m)_{ij} = [j - i \\ge m] \\, A_{ij} '
                                              '\\text{, } \\operatorname{triu}(A) = \\operatorname{triu}(A, '
                                              '0)',
                               'where': True}],
                 'holds_for': 'every real input',
                 'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                  'points': 4,
                                  'skipped': 0,
                                  'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'causal_softmax': {'name': 'causal_softmax',
                    'signature': 'causal_softmax(s[i,j]) -> y[i,j]',
                    'file': 'rules/masks.rules',
                    'line': 20,
                    'text': 'causal_softmax(s[i,j]) -> y[i,j]:\n'
                            '    m[i,j] = where(j <= i, s[i,j], -inf)\n'
                            '    y[i,j] = exp(m[i,j] - log(sum(k, exp(m[i,k]))))',
                    'doc': 'Row softmax over the positions j ≤ i only: masked scores are -inf, so their '
                           'weights are exactly 0 (and so are\n'
                           'the gradients with respect to them); each row is shifted by its maximum, as '
                           'log-sum-exp is.',
                    'inputs': [{'name': 's',
                                'kind': 'tensor',
                                'indices': ['i', 'j'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'y', 'indices': ['i', 'j']}],
                    'extents': {},
                    'equal_extents': [],
                    'pushforward': [{'target': 'dm',
                                     'text': 'dm = tril(ds)',
                                     'latex': '\\mathrm{d}m = '
                                              '\\operatorname{tril}\\left(\\mathrm{d}s\\right)',
                                     'matrix': 'dm = tril(ds)',
                                     'index': 'dm[i,j] = ds[i,j]·[j ≤ i]',
                                     'index_latex': '\\mathrm{d}m_{ij} = \\mathrm{d}s_{ij} [j \\le i]'},
                                    {'target': 'dy',
                                     'text': 'dy = y ⊙ (dm - (dm ⊙ y)·𝟙·𝟙ᵀ)',
                                     'latex': '\\mathrm{d}y = y \\odot \\mathrm{d}m - \\left(y \\odot '
                                              '\\left((\\mathrm{d}m \\odot y) \\mathbf{1} '
                                              '\\mathbf{1}^{\\top}\\right)\\right)',
                                     'matrix': 'dy = y ⊙ (dm - (dm ⊙ y)·𝟙·𝟙ᵀ)',
                                     'index': 'dy[i,j] = dm[i,j]·y[i,j] + Σ_k -dm[i,k]·y[i,j]·y[i,k]',
                                     'index_latex': '\\mathrm{d}y_{ij} = \\mathrm{d}m_{ij} y_{ij} + '
                                                    '\\sum_{k} - \\mathrm{d}m_{ik} y_{ij} y_{ik}'},
                                    {'target': 'tril',
                                     'text': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                     'latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} '
                                              '\\text{, } \\operatorname{tril}(A) = \\operatorname{tril}(A, '
                                              '0)',
                                     'matrix': None,
                                     'index': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                     'index_latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, '
                                                    'A_{ij} \\text{, } \\operatorname{tril}(A) = '
                                                    '\\operatorname{tril}(A, 0)',
                                     'where': True}],
                    'pullback': [{'target': 'ds',
                                  'text': 'ds = tril(y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ))',
                                  'latex': '\\mathrm{d}s = \\operatorname{tril}\\left(y \\odot \\mathrm{d}y '
                                           '- \\left(y \\odot \\left((\\mathrm{d}y \\odot y) \\mathbf{1} '
                                           '\\mathbf{1}^{\\top}\\right)\\right)\\right)',
                                  'matrix': 'ds = tril(y ⊙ (dy - (dy ⊙ y)·𝟙·𝟙ᵀ))',
                                  'index': 'ds[i,j] = dy[i,j]·y[i,j]·[j ≤ i] + Σ_k -dy[i,k]·y[i,j]·y[i,k]·[j '
                                           '≤ i]',
                                  'index_latex': '\\mathrm{d}s_{ij} = \\mathrm{d}y_{ij} y_{ij} [j \\le i] + '
                                                 '\\sum_{k} - \\mathrm{d}y_{ik} y_{ij} y_{ik} [j \\le i]'},
                                 {'target': 'tril',
                                  'text': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                  'latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} '
                                           '\\text{, } \\operatorname{tril}(A) = \\operatorname{tril}(A, 0)',
                                  'matrix': None,
                                  'index': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                  'index_latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, '
                                                 'A_{ij} \\text{, } \\operatorname{tril}(A) = '
                                                 '\\operatorname{tril}(A, 0)',
                                  'where': True}],
                    'holds_for': 'every real input',
                    'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'causal_attention': {'name': 'causal_attention',
                      'signature': 'causal_attention(q[i,d], k[i,d], v[i,e]) -> o[i,e]',
                      'file': 'rules/masks.rules',
                      'line': 25,
                      'text': 'causal_attention(q[i,d], k[i,d], v[i,e]) -> o[i,e]:\n'
                              '    s[i,j] = where(j <= i, sum(d, q[i,d] * k[j,d]) / sqrt(size(d)), -inf)\n'
                              '    p[i,j] = exp(s[i,j] - log(sum(l, exp(s[i,l]))))\n'
                              '    o[i,e] = sum(j, p[i,j] * v[j,e])',
                      'doc': 'One head of causal self-attention: queries q, keys k, values v over the same '
                             'positions.',
                      'inputs': [{'name': 'q',
                                  'kind': 'tensor',
                                  'indices': ['i', 'd'],
                                  'domain': 'real',
                                  'declared': False},
                                 {'name': 'k',
                                  'kind': 'tensor',
                                  'indices': ['i', 'd'],
                                  'domain': 'real',
                                  'declared': False},
                                 {'name': 'v',
                                  'kind': 'tensor',
                                  'indices': ['i', 'e'],
                                  'domain': 'real',
                                  'declared': False}],
                      'outputs': [{'name': 'o', 'indices': ['i', 'e']}],
                      'extents': {},
                      'equal_extents': [],
                      'pushforward': [{'target': 'ds',
                                       'text': 'ds = tril(q·dkᵀ/sqrt(size(d)) + dq·kᵀ/sqrt(size(d)))',
                                       'latex': '\\mathrm{d}s = \\operatorname{tril}\\left(\\frac{q '
                                                '\\mathrm{d}k^{\\top}}{\\sqrt{\\lvert d \\rvert}} + '
                                                '\\frac{\\mathrm{d}q k^{\\top}}{\\sqrt{\\lvert d '
                                                '\\rvert}}\\right)',
                                       'matrix': 'ds = tril(q·dkᵀ/sqrt(size(d)) + dq·kᵀ/sqrt(size(d)))',
                                       'index': 'ds[i,j] = Σ_l dk[j,l]·q[i,l]·[j ≤ i]/sqrt(size(d)) + Σ_l '
                                                'dq[i,l]·k[j,l]·[j ≤ i]/sqrt(size(d))',
                                       'index_latex': '\\mathrm{d}s_{ij} = \\sum_{l} '
                                                      '\\frac{\\mathrm{d}k_{jl} q_{il} [j \\le '
                                                      'i]}{\\sqrt{\\lvert d \\rvert}} + \\sum_{l} '
                                                      '\\frac{\\mathrm{d}q_{il} k_{jl} [j \\le '
                                                      'i]}{\\sqrt{\\lvert d \\rvert}}'},
                                      {'target': 'dp',
                                       'text': 'dp = p ⊙ (ds - (ds ⊙ p)·𝟙·𝟙ᵀ)',
                                       'latex': '\\mathrm{d}p = p \\odot \\mathrm{d}s - \\left(p \\odot '
                                                '\\left((\\mathrm{d}s \\odot p) \\mathbf{1} '
                                                '\\mathbf{1}^{\\top}\\right)\\right)',
                                       'matrix': 'dp = p ⊙ (ds - (ds ⊙ p)·𝟙·𝟙ᵀ)',
                                       'index': 'dp[i,j] = ds[i,j]·p[i,j] + Σ_k -ds[i,k]·p[i,j]·p[i,k]',
                                       'index_latex': '\\mathrm{d}p_{ij} = \\mathrm{d}s_{ij} p_{ij} + '
                                                      '\\sum_{k} - \\mathrm{d}s_{ik} p_{ij} p_{ik}'},
                                      {'target': 'do',
                                       'text': 'do = dp·v + p·dv',
                                       'latex': '\\mathrm{d}o = \\mathrm{d}p v + p \\mathrm{d}v',
                                       'matrix': 'do = dp·v + p·dv',
                                       'index': 'do[i,e] = Σ_k dp[i,k]·v[k,e] + Σ_k dv[k,e]·p[i,k]',
                                       'index_latex': '\\mathrm{d}o_{ie} = \\sum_{k} \\mathrm{d}p_{ik} '
                                                      'v_{ke} + \\sum_{k} \\mathrm{d}v_{ke} p_{ik}'},
                                      {'target': 'tril',
                                       'text': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                       'latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, A_{ij} '
                                                '\\text{, } \\operatorname{tril}(A) = '
                                                '\\operatorname{tril}(A, 0)',
                                       'matrix': None,
                                       'index': 'tril(A, m)[i,j] = [j - i ≤ m]·A[i,j], tril(A) = tril(A, 0)',
                                       'index_latex': '\\operatorname{tril}(A, m)_{ij} = [j - i \\le m] \\, '
                                                      'A_{ij} \\text{, } \\operatorname{tril}(A) = '
                                                      '\\operatorname{tril}(A, 0)',
                                       'where': True}],
                      'pullback': [{'target': 'dp',
                                    'text': 'dp = do·vᵀ',
                                    'latex': '\\mathrm{d}p = \\mathrm{d}o v^{\\top}',
                                    'matrix': 'dp = do·vᵀ',
                                    'index': 'dp[i,j] = Σ_k do[i,k]·v[j,k]',
                                    'index_latex': '\\mathrm{d}p_{ij} = \\sum_{k} \\mathrm{d}o_{ik} v_{jk}'},
                                   {'target': 'ds',
                                    'text': 'ds = p ⊙ (dp - (dp ⊙ p)·𝟙·𝟙ᵀ)',
                                    'latex': '\\mathrm{d}s = p \\odot \\mathrm{d}p - \\left(p \\odot '
                                             '\\left((\\mathrm{d}p \\odot p) \\mathbf{1} '
                                             '\\mathbf{1}^{\\top}\\right)\\right)',
                                    'matrix': 'ds = p ⊙ (dp - (dp ⊙ p)·𝟙·𝟙ᵀ)',
                                    'index': 'ds[i,j] = dp[i,j]·p[i,j] + Σ_k -dp[i,k]·p[i,j]·p[i,k]',
                                    'index_latex': '\\mathrm{d}s_{ij} = \\mathrm{d}p_{ij} p_{ij} + \\sum_{k} '
                                                   '- \\mathrm{d}p_{ik} p_{ij} p_{ik}'},
                                   {'target': 'dq',
                                    'text': 'dq[i,d] = Σ_l ds[i,l]·k[l,d]·[l ≤ i]/sqrt(size(d))',
                                    'latex': '\\mathrm{d}q_{id} = \\sum_{l} \\frac{\\mathrm{d}s_{il} k_{ld} '
                                             '[l \\le i]}{\\sqrt{\\lvert d \\rvert}}',
                                    'matrix': None,
                                    'index': 'dq[i,d] = Σ_l ds[i,l]·k[l,d]·[l ≤ i]/sqrt(size(d))',
                                    'index_latex': '\\mathrm{d}q_{id} = \\sum_{l} \\frac{\\mathrm{d}s_{il} '
                                                   'k_{ld} [l \\le i]}{\\sqrt{\\lvert d \\rvert}}'},
                                   {'target': 'dk',
                                    'text': 'dk[i,d] = Σ_k ds[k,i]·q[k,d]·[i ≤ k]/sqrt(size(d))',
                                    'latex': '\\mathrm{d}k_{id} = \\sum_{k} \\frac{\\mathrm{d}s_{ki} q_{kd} '
                                             '[i \\le k]}{\\sqrt{\\lvert d \\rvert}}',
                                    'matrix': None,
                                    'index': 'dk[i,d] = Σ_k ds[k,i]·q[k,d]·[i ≤ k]/sqrt(size(d))',
                                    'index_latex': '\\mathrm{d}k_{id} = \\sum_{k} \\frac{\\mathrm{d}s_{ki} '
                                                   'q_{kd} [i \\le k]}{\\sqrt{\\lvert d \\rvert}}'},
                                   {'target': 'dv',
                                    'text': 'dv = pᵀ·do',
                                    'latex': '\\mathrm{d}v = p^{\\top} \\mathrm{d}o',
                                    'matrix': 'dv = pᵀ·do',
                                    'index': 'dv[i,e] = Σ_k do[k,e]·p[k,i]',
                                    'index_latex': '\\mathrm{d}v_{ie} = \\sum_{k} \\mathrm{d}o_{ke} p_{ki}'}],
                      'holds_for': 'every real input',
                      'saves': {'inputs': ['q', 'k', 'v'], 'outputs': [], 'intermediates': ['p']},
                      'verified': True,
                      'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                       'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                       'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 1},
                                       'points': 4,
                                       'skipped': 0,
                                       'extents': [{'i': 3, 'd': 4, 'e': 5}, {'i': 5, 'd': 4, 'e': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
