# @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: reductions, normalizations, layers and losses.

`size(b)` is the extent of index b as a number (for means)."""
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

    # ---- sum(x[i]) -> s[]    (rules/nn.rules:5)
    def _op_sum(x):
        s = np.sum(x, axis=0)
        return s

    def _op_sum_frule(tangents, x):
        _, dx = tangents
        s = np.sum(x, axis=0)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.sum(dx, axis=0))
        return s, ds

    def _op_sum_rrule(x):
        n_i = x.shape[0]
        s = np.sum(x, axis=0)
        def _op_sum_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO)
            dx = np.broadcast_to(ds, (n_i, ))
            return (_NO, dx)
        return s, _op_sum_pullback

    # ---- mean(x[i]) -> m[]    (rules/nn.rules:6)
    def mean(x):
        n_i = x.shape[0]
        m = (_recip(n_i) * np.sum(x, axis=0))
        return m

    def mean_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[0]
        m = (_recip(n_i) * np.sum(x, axis=0))
        dm = _ZERO
        if not is_zero(dx):
            dm = _add(dm, (_recip(n_i) * np.sum(dx, axis=0)))
        return m, dm

    def mean_rrule(x):
        n_i = x.shape[0]
        m = (_recip(n_i) * np.sum(x, axis=0))
        def mean_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO)
            dx = np.broadcast_to((_recip(n_i) * dm), (n_i, ))
            return (_NO, dx)
        return m, mean_pullback

    # ---- logsumexp(x[i]) -> y[]    (rules/nn.rules:7)
    def logsumexp(x):
        y = np.logsumexp(x, axis=0)
        return y

    def logsumexp_frule(tangents, x):
        _, dx = tangents
        y = np.logsumexp(x, axis=0)
        dy_ = _ZERO
        if not is_zero(dx):
            _m2 = np.lse_shift(x, axis=0)
            dy_ = _add(dy_, np.sum((dx * np.exp(((x - np.sum(_m2)) - np.log(np.sum(np.exp(x - _m2)))))), axis=0))
        return y, dy_

    def logsumexp_rrule(x):
        y = np.logsumexp(x, axis=0)
        def logsumexp_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _m10 = np.lse_shift(x, axis=0)
            dx = (dy_ * np.exp(((x - np.sum(_m10)) - np.log(np.sum(np.exp(x - _m10))))))
            return (_NO, dx)
        return y, logsumexp_pullback

    # ---- softmax(x[i]) -> y[i]    (rules/nn.rules:9)
    # Written through the log-sum-exp, which the generated code evaluates without overflow.
    def softmax(x):
        _m0 = np.lse_shift(x, axis=0)
        y = (np.exp(((x - np.sum(_m0)) - np.log(np.sum(np.exp(x - _m0))))))
        return y

    def softmax_frule(tangents, x):
        _, dx = tangents
        _m6 = np.lse_shift(x, axis=0)
        y = (np.exp(((x - np.sum(_m6)) - np.log(np.sum(np.exp(x - _m6))))))
        dy_ = _ZERO
        if not is_zero(dx):
            _e12 = (dx * y)
            dy_ = _add(dy_, _e12 + (-(np.sum(_e12, axis=0) * y)))
        return y, dy_

    def softmax_rrule(x):
        _m14 = np.lse_shift(x, axis=0)
        y = (np.exp(((x - np.sum(_m14)) - np.log(np.sum(np.exp(x - _m14))))))
        def softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _e20 = (dy_ * y)
            dx = _e20 + (-(np.sum(_e20, axis=0) * y))
            return (_NO, dx)
        return y, softmax_pullback

    # ---- log_softmax(x[i]) -> y[i]    (rules/nn.rules:10)
    def log_softmax(x):
        _m0 = np.lse_shift(x, axis=0)
        y = ((x - np.sum(_m0)) - np.log(np.sum(np.exp(x - _m0))))
        return y

    def log_softmax_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[0]
        _m4 = np.lse_shift(x, axis=0)
        y = ((x - np.sum(_m4)) - np.log(np.sum(np.exp(x - _m4))))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.broadcast_to((-np.sum((dx * np.exp(y)), axis=0)), (n_i, )) + dx)
        return y, dy_

    def log_softmax_rrule(x):
        _m11 = np.lse_shift(x, axis=0)
        y = ((x - np.sum(_m11)) - np.log(np.sum(np.exp(x - _m11))))
        def log_softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (-(np.sum(dy_, axis=0) * np.exp(y))) + dy_
            return (_NO, dx)
        return y, log_softmax_pullback

    # ---- dense(W[o,i], x[b,i], c[o]) -> y[b,o]    (rules/nn.rules:13)
    # A dense layer over a batch b: the bias c broadcasts over b, so its pullback sums over b.
    def dense(W, x, c):
        y = np.tanh(((x @ np.transpose(W)) + c))
        return y

    def dense_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n_b = x.shape[0]
        n_o = W.shape[0]
        y = np.tanh(((x @ np.transpose(W)) + c))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx @ np.transpose(W)))
        if not is_zero(dW):
            dy_ = _add(dy_, (x @ np.transpose(dW)))
        if not is_zero(dc):
            dy_ = _add(dy_, np.broadcast_to(dc, (n_b, n_o, )))
        if not is_zero(dy_):
            dy_ = dy_ * (1.0 - (y * y))
        return y, dy_

    def dense_rrule(W, x, c):
        y = np.tanh(((x @ np.transpose(W)) + c))
        def dense_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO, _ZERO)
            _e15 = ((1.0 - (y * y)) * dy_)
            def _pb_W_16():
                dW = (np.transpose(_e15) @ x)
                return dW
            def _pb_x_18():
                dx = (_e15 @ W)
                return dx
            def _pb_c_20():
                dc = np.sum(_e15, axis=0)
                return dc
            return (_NO, Thunk(_pb_W_16), Thunk(_pb_x_18), Thunk(_pb_c_20))
        return y, dense_pullback

    # ---- linear(W[o,i], x[b,i], c[o]) -> y[b,o]    (rules/nn.rules:14)
    def linear(W, x, c):
        y = ((x @ np.transpose(W)) + c)
        return y

    def linear_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n_b = x.shape[0]
        n_o = W.shape[0]
        y = ((x @ np.transpose(W)) + c)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx @ np.transpose(W)))
        if not is_zero(dW):
            dy_ = _add(dy_, (x @ np.transpose(dW)))
        if not is_zero(dc):
            dy_ = _add(dy_, np.broadcast_to(dc, (n_b, n_o, )))
        return y, dy_

    def linear_rrule(W, x, c):
        y = ((x @ np.transpose(W)) + c)
        def linear_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_W_8():
                dW = (np.transpose(dy_) @ x)
                return dW
            def _pb_x_10():
                dx = (dy_ @ W)
                return dx
            def _pb_c_12():
                dc = np.sum(dy_, axis=0)
                return dc
            return (_NO, Thunk(_pb_W_8), Thunk(_pb_x_10), Thunk(_pb_c_12))
        return y, linear_pullback

    # ---- mse(p[b,o], t[b,o]) -> L[]    (rules/nn.rules:17)
    # Losses, averaged over the batch.
    def mse(p, t):
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e0 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e0 * _e0), axis=(0, 1)))
        return L

    def mse_frule(tangents, p, t):
        _, dp, dt = tangents
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e4 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e4 * _e4), axis=(0, 1)))
        dL = _ZERO
        if not is_zero(dt):
            dL = _add(dL, np.sum((((2.0 * t) - (2.0 * p)) * dt), axis=(0, 1)))
        if not is_zero(dp):
            dL = _add(dL, np.sum((((2.0 * p) - (2.0 * t)) * dp), axis=(0, 1)))
        if not is_zero(dL):
            dL = dL * _recip(n_b * n_o)
        return L, dL

    def mse_rrule(p, t):
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e19 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e19 * _e19), axis=(0, 1)))
        def mse_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            def _pb_p_23():
                dp = (2.0 * _recip(n_b * n_o) * _e19 * dL)
                return dp
            def _pb_t_25():
                dt = (2.0 * _recip(n_b * n_o) * (t - p) * dL)
                return dt
            return (_NO, Thunk(_pb_p_23), Thunk(_pb_t_25))
        return L, mse_pullback

    # ---- cross_entropy(z[b,c], t[b,c]) -> L[]    (rules/nn.rules:19)
    # Cross-entropy of logits z against targets t, through each row's log-sum-exp (kept for the pullback).
    def cross_entropy(z, t):
        n_b = z.shape[0]
        _m0 = np.lse_shift(z, axis=1)
        L = (-(_recip(n_b) * np.sum((((z - np.sum(_m0, axis=1)[:, None]) - np.log(np.sum(np.exp(z - _m0), axis=1))[:, None]) * t), axis=(0, 1))))
        return L

    def cross_entropy_frule(tangents, z, t):
        _, dz, dt = tangents
        n_b = z.shape[0]
        _m7 = np.lse_shift(z, axis=1)
        _ls8 = np.log(np.sum(np.exp(z - _m7), axis=1))
        _m9 = np.sum(_m7, axis=1)
        L = (-(_recip(n_b) * np.sum((((z - _m9[:, None]) - _ls8[:, None]) * t), axis=(0, 1))))
        dlse = _ZERO
        if not is_zero(dz):
            dlse = _add(dlse, np.sum((dz * np.exp(((z - _m9[:, None]) - _ls8[:, None]))), axis=1))
        dL = _ZERO
        if not is_zero(dlse):
            dL = _add(dL, (dlse @ np.sum(t, axis=1)))
        if not is_zero(dz):
            dL = _add(dL, (-np.sum((dz * t), axis=(0, 1))))
        if not is_zero(dt):
            dL = _add(dL, np.sum(((((-z) + _m9[:, None]) + _ls8[:, None]) * dt), axis=(0, 1)))
        if not is_zero(dL):
            dL = dL * _recip(n_b)
        return L, dL

    def cross_entropy_rrule(z, t):
        n_b = z.shape[0]
        _m26 = np.lse_shift(z, axis=1)
        _ls27 = np.log(np.sum(np.exp(z - _m26), axis=1))
        _m28 = np.sum(_m26, axis=1)
        L = (-(_recip(n_b) * np.sum((((z - _m28[:, None]) - _ls27[:, None]) * t), axis=(0, 1))))
        def cross_entropy_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            dlse = ((_recip(n_b) * dL) * np.sum(t, axis=1))
            def _pb_z_35():
                dz = ((-_recip(n_b)) * dL * t)
                dz = _add(dz, ((dlse[:, None]) * np.exp(((z - _m28[:, None]) - _ls27[:, None]))))
                return dz
            def _pb_t_40():
                dt = (_recip(n_b) * (((-z) + _m28[:, None]) + _ls27[:, None]) * dL)
                return dt
            return (_NO, Thunk(_pb_z_35), Thunk(_pb_t_40))
        return L, cross_entropy_pullback

    # ---- gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]    (rules/nn.rules:25)
    # The Gaussian kernel sum (KeOps' classic): out[i] = Σ_j exp(-|x_i - y_j|² / s) b_j. Evaluated in
    # chunks of i, so the N×M matrix is never materialized.
    def gaussian_kernel_sum(x, y, b, s):
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift0 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        _given_x = x
        x = x - _shift0
        _given_y = y
        y = y - _shift0
        def _chunk1(_m, _s0__given_x, _s1_x):
            def _direct6(_k2, _r4, _m5):
                _e7 = ((_s0__given_x[:, _k2[0]][_r4])[:, None] - (_given_y[:, _k2[0]]))
                return (_e7 * _e7)
            def _at9(_pos3):
                _e10 = (_s0__given_x[_pos3[0], :] - (_given_y[_pos3[1], :]))
                return np.sum((_e10 * _e10), axis=1)
            def _expanded13():
                return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
            _c21 = np.sum((y * y), axis=1)
            _e22 = np.sqrt(_c21)
            def _bound23(_r4, _m5):
                _c25 = np.sum(((_s1_x[_r4, :]) ** 2), axis=1)
                return ((2.0 * (np.sqrt(_c25)[:, None]) * _e22) + _c25[:, None] + _c21)
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct6, _at9, _expanded13, _bound23)))))
        _step33 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step33 >= n_i:
            out = _chunk1(n_i, _given_x, x)
        else:
            out = np.concatenate([_chunk1(min(_step33, n_i - _s34), _given_x[_s34:_s34 + _step33], x[_s34:_s34 + _step33]) for _s34 in range(0, n_i, _step33)], axis=0)
        return out

    def gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy_, db, ds = tangents
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift35 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        _given_x = x
        x = x - _shift35
        _given_y = y
        y = y - _shift35
        def _chunk36(_m, _s0__given_x, _s1_x):
            def _direct41(_k37, _r39, _m40):
                _e42 = ((_s0__given_x[:, _k37[0]][_r39])[:, None] - (_given_y[:, _k37[0]]))
                return (_e42 * _e42)
            def _at44(_pos38):
                _e45 = (_s0__given_x[_pos38[0], :] - (_given_y[_pos38[1], :]))
                return np.sum((_e45 * _e45), axis=1)
            def _expanded48():
                return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
            _c56 = np.sum((y * y), axis=1)
            _e57 = np.sqrt(_c56)
            def _bound58(_r39, _m40):
                _c60 = np.sum(((_s1_x[_r39, :]) ** 2), axis=1)
                return ((2.0 * (np.sqrt(_c60)[:, None]) * _e57) + _c60[:, None] + _c56)
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct41, _at44, _expanded48, _bound58)))))
        _step68 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step68 >= n_i:
            out = _chunk36(n_i, _given_x, x)
        else:
            out = np.concatenate([_chunk36(min(_step68, n_i - _s69), _given_x[_s69:_s69 + _step68], x[_s69:_s69 + _step68]) for _s69 in range(0, n_i, _step68)], axis=0)
        dout = _ZERO
        if not is_zero(db):
            def _chunk71(_m, _s0__given_x, _s1_x):
                def _direct76(_k72, _r74, _m75):
                    _e77 = ((_s0__given_x[:, _k72[0]][_r74])[:, None] - (_given_y[:, _k72[0]]))
                    return (_e77 * _e77)
                def _at79(_pos73):
                    _e80 = (_s0__given_x[_pos73[0], :] - (_given_y[_pos73[1], :]))
                    return np.sum((_e80 * _e80), axis=1)
                def _expanded83():
                    return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
                _c91 = np.sum((y * y), axis=1)
                _e92 = np.sqrt(_c91)
                def _bound93(_r74, _m75):
                    _c95 = np.sum(((_s1_x[_r74, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c95)[:, None]) * _e92) + _c95[:, None] + _c91)
                return (db @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct76, _at79, _expanded83, _bound93)))))
            _step103 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step103 >= n_i:
                _p70 = _chunk71(n_i, _given_x, x)
            else:
                _p70 = np.concatenate([_chunk71(min(_step103, n_i - _s104), _given_x[_s104:_s104 + _step103], x[_s104:_s104 + _step103]) for _s104 in range(0, n_i, _step103)], axis=0)
            dout = _add(dout, _p70)
        if not is_zero(dy_):
            def _chunk106(_m, _s0__given_x, _s1_x):
                _e107 = _div(1, s)
                _e108 = (_given_y[:, :, None] - np.transpose(_s0__given_x, (1, 0)))
                def _direct113(_k109, _r111, _m112):
                    _e114 = ((_s0__given_x[:, _k109[0]][_r111])[:, None] - (_given_y[:, _k109[0]]))
                    return (_e114 * _e114)
                def _at116(_pos110):
                    _e117 = (_s0__given_x[_pos110[0], :] - (_given_y[_pos110[1], :]))
                    return np.sum((_e117 * _e117), axis=1)
                def _expanded120():
                    return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
                _c128 = np.sum((y * y), axis=1)
                _e129 = np.sqrt(_c128)
                def _bound130(_r111, _m112):
                    _c132 = np.sum(((_s1_x[_r111, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c132)[:, None]) * _e129) + _c132[:, None] + _c128)
                _e138 = np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct113, _at116, _expanded120, _bound130)))
                return (-2.0 * (_e107 * np.einsum("ab,ba->a", _e138, np.einsum("abc,ab->ac", _e108, ((b[:, None]) * dy_), optimize=True), optimize=True)))
            _step142 = max(1, _CHUNK_ELEMENTS // max(1, n_d * n_j))
            if _step142 >= n_i:
                _p105 = _chunk106(n_i, _given_x, x)
            else:
                _p105 = np.concatenate([_chunk106(min(_step142, n_i - _s143), _given_x[_s143:_s143 + _step142], x[_s143:_s143 + _step142]) for _s143 in range(0, n_i, _step142)], axis=0)
            dout = _add(dout, _p105)
        if not is_zero(dx):
            def _chunk145(_m, _s0__given_x, _s1_d_x, _s2_x):
                _e146 = _div(1, s)
                _e147 = (_s0__given_x[:, :, None] - np.transpose(_given_y, (1, 0)))
                def _direct152(_k148, _r150, _m151):
                    _e153 = ((_s0__given_x[:, _k148[0]][_r150])[:, None] - (_given_y[:, _k148[0]]))
                    return (_e153 * _e153)
                def _at155(_pos149):
                    _e156 = (_s0__given_x[_pos149[0], :] - (_given_y[_pos149[1], :]))
                    return np.sum((_e156 * _e156), axis=1)
                def _expanded159():
                    return (np.sum((_s2_x * _s2_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s2_x @ np.transpose(y))))
                _c167 = np.sum((y * y), axis=1)
                _e168 = np.sqrt(_c167)
                def _bound169(_r150, _m151):
                    _c171 = np.sum(((_s2_x[_r150, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c171)[:, None]) * _e168) + _c171[:, None] + _c167)
                _c178 = (b[:, None]) * np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct152, _at155, _expanded159, _bound169))), (1, 0))
                return (-2.0 * (_e146 * np.einsum("ab,ba->b", _c178, np.einsum("abc,ab->ac", _e147, _s1_d_x, optimize=True), optimize=True)))
            _step181 = max(1, _CHUNK_ELEMENTS // max(1, n_j * n_d))
            if _step181 >= n_i:
                _p144 = _chunk145(n_i, _given_x, dx, x)
            else:
                _p144 = np.concatenate([_chunk145(min(_step181, n_i - _s182), _given_x[_s182:_s182 + _step181], dx[_s182:_s182 + _step181], x[_s182:_s182 + _step181]) for _s182 in range(0, n_i, _step181)], axis=0)
            dout = _add(dout, _p144)
        if not is_zero(ds):
            def _chunk184(_m, _s0__given_x, _s1_x):
                def _direct189(_k185, _r187, _m188):
                    _e190 = ((_s0__given_x[:, _k185[0]][_r187])[:, None] - (_given_y[:, _k185[0]]))
                    return (_e190 * _e190)
                def _at192(_pos186):
                    _e193 = (_s0__given_x[_pos186[0], :] - (_given_y[_pos186[1], :]))
                    return np.sum((_e193 * _e193), axis=1)
                def _expanded196():
                    return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
                _c204 = np.sum((y * y), axis=1)
                _e205 = np.sqrt(_c204)
                def _bound206(_r187, _m188):
                    _c208 = np.sum(((_s1_x[_r187, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c208)[:, None]) * _e205) + _c208[:, None] + _c204)
                _d2212 = np.checked_sum((n_d, ), _m, _direct189, _at192, _expanded196, _bound206)
                return (((_d2212 * np.exp(((_div(-1, s)) * _d2212))) @ b) / s / s * ds)
            _step218 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step218 >= n_i:
                _p183 = _chunk184(n_i, _given_x, x)
            else:
                _p183 = np.concatenate([_chunk184(min(_step218, n_i - _s219), _given_x[_s219:_s219 + _step218], x[_s219:_s219 + _step218]) for _s219 in range(0, n_i, _step218)], axis=0)
            dout = _add(dout, _p183)
        return out, dout

    def gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift220 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        _given_x = x
        x = x - _shift220
        _given_y = y
        y = y - _shift220
        def _chunk221(_m, _s0__given_x, _s1_x):
            def _direct226(_k222, _r224, _m225):
                _e227 = ((_s0__given_x[:, _k222[0]][_r224])[:, None] - (_given_y[:, _k222[0]]))
                return (_e227 * _e227)
            def _at229(_pos223):
                _e230 = (_s0__given_x[_pos223[0], :] - (_given_y[_pos223[1], :]))
                return np.sum((_e230 * _e230), axis=1)
            def _expanded233():
                return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
            _c241 = np.sum((y * y), axis=1)
            _e242 = np.sqrt(_c241)
            def _bound243(_r224, _m225):
                _c245 = np.sum(((_s1_x[_r224, :]) ** 2), axis=1)
                return ((2.0 * (np.sqrt(_c245)[:, None]) * _e242) + _c245[:, None] + _c241)
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct226, _at229, _expanded233, _bound243)))))
        _step253 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step253 >= n_i:
            out = _chunk221(n_i, _given_x, x)
        else:
            out = np.concatenate([_chunk221(min(_step253, n_i - _s254), _given_x[_s254:_s254 + _step253], x[_s254:_s254 + _step253]) for _s254 in range(0, n_i, _step253)], axis=0)
        def gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo302 = []
            def _fused255():
                if not _memo302:
                    def _fused255_slice(_m, _s0__given_x, _s1_b_out, _s2_x):
                        _e256 = _div(1, s)
                        _e257 = (_s0__given_x[:, :, None] - np.transpose(_given_y, (1, 0)))
                        def _direct262(_k258, _r260, _m261):
                            _e263 = ((_s0__given_x[:, _k258[0]][_r260])[:, None] - (_given_y[:, _k258[0]]))
                            return (_e263 * _e263)
                        def _at265(_pos259):
                            _e266 = (_s0__given_x[_pos259[0], :] - (_given_y[_pos259[1], :]))
                            return np.sum((_e266 * _e266), axis=1)
                        def _expanded269():
                            return (np.sum((_s2_x * _s2_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s2_x @ np.transpose(y))))
                        _c277 = np.sum((y * y), axis=1)
                        _e278 = np.sqrt(_c277)
                        def _bound279(_r260, _m261):
                            _c281 = np.sum(((_s2_x[_r260, :]) ** 2), axis=1)
                            return ((2.0 * (np.sqrt(_c281)[:, None]) * _e278) + _c281[:, None] + _c277)
                        _d2285 = np.checked_sum((n_d, ), _m, _direct262, _at265, _expanded269, _bound279)
                        _e287 = np.exp(((_div(-1, s)) * _d2285))
                        _c289 = _e287 * ((_s1_b_out[:, None]) * b)
                        _r291 = (-2.0 * (_e256 * np.einsum("abc,ac->ab", _e257, _c289, optimize=True)))
                        _r294 = (-2.0 * (_e256 * np.einsum("abc,ca->ab", (_given_y[:, :, None] - np.transpose(_s0__given_x, (1, 0))), _c289, optimize=True)))
                        return (_r291, _r294, (_s1_b_out @ _e287), (_div(_div((b @ (np.transpose((_d2285 * _e287)) @ _s1_b_out)), s), s)),)
                    _step303 = max(1, _CHUNK_ELEMENTS // max(1, n_j * n_d, n_d * n_j, n_j, n_j))
                    if _step303 >= n_i:
                        _memo302.append(_fused255_slice(n_i, _given_x, dout, x))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, None, None, None)]
                        for _s304 in range(0, n_i, _step303):
                            _part305 = _fused255_slice(min(_step303, n_i - _s304), _given_x[_s304:_s304 + _step303], dout[_s304:_s304 + _step303], x[_s304:_s304 + _step303])
                            for k, axis in enumerate((0, None, None, None)):
                                if axis is not None:
                                    acc[k].append(_part305[k])
                                else:
                                    acc[k] = _part305[k] if acc[k] is None else acc[k] + _part305[k]
                        _memo302.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, None, None, None))))
                return _memo302[0]
            def _pb_x_306():
                return _fused255()[0]
            def _pb_y_307():
                return _fused255()[1]
            def _pb_b_308():
                return _fused255()[2]
            def _pb_s_309():
                return _fused255()[3]
            return (_NO, Thunk(_pb_x_306), Thunk(_pb_y_307), Thunk(_pb_b_308), Thunk(_pb_s_309))
        return out, gaussian_kernel_sum_pullback

    # ---- __batched_sum(x[_batch,i]) -> s[_batch]    (rules/nn.rules:5)
    def _op___batched_sum(x):
        s = np.sum(x, axis=1)
        return s

    def _op___batched_sum_frule(tangents, x):
        _, dx = tangents
        s = np.sum(x, axis=1)
        ds = _ZERO
        if not is_zero(dx):
            ds = _add(ds, np.sum(dx, axis=1))
        return s, ds

    def _op___batched_sum_rrule(x):
        n__batch = x.shape[0]
        n_i = x.shape[1]
        s = np.sum(x, axis=1)
        def _op___batched_sum_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO)
            dx = np.broadcast_to(ds[:, None], (n__batch, n_i, ))
            return (_NO, dx)
        return s, _op___batched_sum_pullback

    # ---- __batched_mean(x[_batch,i]) -> m[_batch]    (rules/nn.rules:6)
    def _op___batched_mean(x):
        n_i = x.shape[1]
        m = (_recip(n_i) * np.sum(x, axis=1))
        return m

    def _op___batched_mean_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[1]
        m = (_recip(n_i) * np.sum(x, axis=1))
        dm = _ZERO
        if not is_zero(dx):
            dm = _add(dm, (_recip(n_i) * np.sum(dx, axis=1)))
        return m, dm

    def _op___batched_mean_rrule(x):
        n_i = x.shape[1]
        n__batch = x.shape[0]
        m = (_recip(n_i) * np.sum(x, axis=1))
        def _op___batched_mean_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO)
            dx = np.broadcast_to((_recip(n_i) * dm)[:, None], (n__batch, n_i, ))
            return (_NO, dx)
        return m, _op___batched_mean_pullback

    # ---- __batched_logsumexp(x[_batch,i]) -> y[_batch]    (rules/nn.rules:7)
    def _op___batched_logsumexp(x):
        y = np.logsumexp(x, axis=1)
        return y

    def _op___batched_logsumexp_frule(tangents, x):
        _, dx = tangents
        y = np.logsumexp(x, axis=1)
        dy_ = _ZERO
        if not is_zero(dx):
            _m2 = np.lse_shift(x, axis=1)
            dy_ = _add(dy_, np.sum((dx * np.exp(((x - np.sum(_m2, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m2), axis=1))[:, None]))), axis=1))
        return y, dy_

    def _op___batched_logsumexp_rrule(x):
        y = np.logsumexp(x, axis=1)
        def _op___batched_logsumexp_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _m10 = np.lse_shift(x, axis=1)
            dx = ((dy_[:, None]) * np.exp(((x - np.sum(_m10, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m10), axis=1))[:, None])))
            return (_NO, dx)
        return y, _op___batched_logsumexp_pullback

    # ---- __batched_softmax(x[_batch,i]) -> y[_batch,i]    (rules/nn.rules:9)
    # Written through the log-sum-exp, which the generated code evaluates without overflow.
    def _op___batched_softmax(x):
        _m0 = np.lse_shift(x, axis=1)
        y = (np.exp(((x - np.sum(_m0, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m0), axis=1))[:, None])))
        return y

    def _op___batched_softmax_frule(tangents, x):
        _, dx = tangents
        _m6 = np.lse_shift(x, axis=1)
        y = (np.exp(((x - np.sum(_m6, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m6), axis=1))[:, None])))
        dy_ = _ZERO
        if not is_zero(dx):
            _e12 = (dx * y)
            dy_ = _add(dy_, _e12 + (-((np.sum(_e12, axis=1)[:, None]) * y)))
        return y, dy_

    def _op___batched_softmax_rrule(x):
        _m14 = np.lse_shift(x, axis=1)
        y = (np.exp(((x - np.sum(_m14, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m14), axis=1))[:, None])))
        def _op___batched_softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _e20 = (dy_ * y)
            dx = _e20 + (-((np.sum(_e20, axis=1)[:, None]) * y))
            return (_NO, dx)
        return y, _op___batched_softmax_pullback

    # ---- __batched_log_softmax(x[_batch,i]) -> y[_batch,i]    (rules/nn.rules:10)
    def _op___batched_log_softmax(x):
        _m0 = np.lse_shift(x, axis=1)
        y = ((x - np.sum(_m0, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m0), axis=1))[:, None])
        return y

    def _op___batched_log_softmax_frule(tangents, x):
        _, dx = tangents
        n__batch = x.shape[0]
        n_i = x.shape[1]
        _m4 = np.lse_shift(x, axis=1)
        y = ((x - np.sum(_m4, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m4), axis=1))[:, None])
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.broadcast_to((-np.sum((dx * np.exp(y)), axis=1))[:, None], (n__batch, n_i, )) + dx)
        return y, dy_

    def _op___batched_log_softmax_rrule(x):
        _m11 = np.lse_shift(x, axis=1)
        y = ((x - np.sum(_m11, axis=1)[:, None]) - np.log(np.sum(np.exp(x - _m11), axis=1))[:, None])
        def _op___batched_log_softmax_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (-((np.sum(dy_, axis=1)[:, None]) * np.exp(y))) + dy_
            return (_NO, dx)
        return y, _op___batched_log_softmax_pullback

    # ---- __batched_dense(W[_batch,o,i], x[_batch,b,i], c[_batch,o]) -> y[_batch,b,o]    (rules/nn.rules:13)
    # A dense layer over a batch b: the bias c broadcasts over b, so its pullback sums over b.
    def _op___batched_dense(W, x, c):
        y = np.tanh((np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None]))
        return y

    def _op___batched_dense_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n__batch = W.shape[0]
        n_b = x.shape[1]
        n_o = W.shape[1]
        y = np.tanh((np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None]))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,adc->adb", W, dx, optimize=True))
        if not is_zero(dW):
            dy_ = _add(dy_, np.einsum("abc,adc->adb", dW, x, optimize=True))
        if not is_zero(dc):
            dy_ = _add(dy_, np.broadcast_to(dc[:, None], (n__batch, n_b, n_o, )))
        if not is_zero(dy_):
            dy_ = dy_ * (1.0 - (y * y))
        return y, dy_

    def _op___batched_dense_rrule(W, x, c):
        y = np.tanh((np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None]))
        def _op___batched_dense_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO, _ZERO)
            _e15 = ((1.0 - (y * y)) * dy_)
            def _pb_W_16():
                dW = np.einsum("abc,abd->acd", _e15, x, optimize=True)
                return dW
            def _pb_x_18():
                dx = np.einsum("abc,acd->abd", _e15, W, optimize=True)
                return dx
            def _pb_c_20():
                dc = np.sum(_e15, axis=1)
                return dc
            return (_NO, Thunk(_pb_W_16), Thunk(_pb_x_18), Thunk(_pb_c_20))
        return y, _op___batched_dense_pullback

    # ---- __batched_linear(W[_batch,o,i], x[_batch,b,i], c[_batch,o]) -> y[_batch,b,o]    (rules/nn.rules:14)
    def _op___batched_linear(W, x, c):
        y = (np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None])
        return y

    def _op___batched_linear_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n__batch = W.shape[0]
        n_b = x.shape[1]
        n_o = W.shape[1]
        y = (np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None])
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,adc->adb", W, dx, optimize=True))
        if not is_zero(dW):
            dy_ = _add(dy_, np.einsum("abc,adc->adb", dW, x, optimize=True))
        if not is_zero(dc):
            dy_ = _add(dy_, np.broadcast_to(dc[:, None], (n__batch, n_b, n_o, )))
        return y, dy_

    def _op___batched_linear_rrule(W, x, c):
        y = (np.einsum("abc,adc->adb", W, x, optimize=True) + c[:, None])
        def _op___batched_linear_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_W_8():
                dW = np.einsum("abc,abd->acd", dy_, x, optimize=True)
                return dW
            def _pb_x_10():
                dx = np.einsum("abc,adb->adc", W, dy_, optimize=True)
                return dx
            def _pb_c_12():
                dc = np.sum(dy_, axis=1)
                return dc
            return (_NO, Thunk(_pb_W_8), Thunk(_pb_x_10), Thunk(_pb_c_12))
        return y, _op___batched_linear_pullback

    # ---- __batched_mse(p[_batch,b,o], t[_batch,b,o]) -> L[_batch]    (rules/nn.rules:17)
    # Losses, averaged over the batch.
    def _op___batched_mse(p, t):
        n_b = p.shape[1]
        n_o = p.shape[2]
        _e0 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e0 * _e0), axis=(1, 2)))
        return L

    def _op___batched_mse_frule(tangents, p, t):
        _, dp, dt = tangents
        n_b = p.shape[1]
        n_o = p.shape[2]
        _e4 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e4 * _e4), axis=(1, 2)))
        dL = _ZERO
        if not is_zero(dt):
            dL = _add(dL, np.sum((((2.0 * t) - (2.0 * p)) * dt), axis=(1, 2)))
        if not is_zero(dp):
            dL = _add(dL, np.sum((((2.0 * p) - (2.0 * t)) * dp), axis=(1, 2)))
        if not is_zero(dL):
            dL = dL * _recip(n_b * n_o)
        return L, dL

    def _op___batched_mse_rrule(p, t):
        n_b = p.shape[1]
        n_o = p.shape[2]
        _e19 = (p - t)
        L = (_recip(n_b * n_o) * np.sum((_e19 * _e19), axis=(1, 2)))
        def _op___batched_mse_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            def _pb_p_23():
                dp = (2.0 * _recip(n_b * n_o) * _e19 * (dL[:, None, None]))
                return dp
            def _pb_t_25():
                dt = (2.0 * _recip(n_b * n_o) * (t - p) * (dL[:, None, None]))
                return dt
            return (_NO, Thunk(_pb_p_23), Thunk(_pb_t_25))
        return L, _op___batched_mse_pullback

    # ---- __batched_cross_entropy(z[_batch,b,c], t[_batch,b,c]) -> L[_batch]    (rules/nn.rules:19)
    # Cross-entropy of logits z against targets t, through each row's log-sum-exp (kept for the pullback).
    def _op___batched_cross_entropy(z, t):
        n_b = z.shape[1]
        _m0 = np.lse_shift(z, axis=2)
        L = ((-_recip(n_b)) * np.sum((((z - np.sum(_m0, axis=2)[:, :, None]) - np.log(np.sum(np.exp(z - _m0), axis=2))[:, :, None]) * t), axis=(1, 2)))
        return L

    def _op___batched_cross_entropy_frule(tangents, z, t):
        _, dz, dt = tangents
        n_b = z.shape[1]
        _m7 = np.lse_shift(z, axis=2)
        _ls8 = np.log(np.sum(np.exp(z - _m7), axis=2))
        _m9 = np.sum(_m7, axis=2)
        L = ((-_recip(n_b)) * np.sum((((z - _m9[:, :, None]) - _ls8[:, :, None]) * t), axis=(1, 2)))
        dlse = _ZERO
        if not is_zero(dz):
            dlse = _add(dlse, np.sum((dz * np.exp(((z - _m9[:, :, None]) - _ls8[:, :, None]))), axis=2))
        dL = _ZERO
        if not is_zero(dlse):
            dL = _add(dL, np.einsum("ab,ab->a", dlse, np.sum(t, axis=2), optimize=True))
        if not is_zero(dz):
            dL = _add(dL, (-np.sum((dz * t), axis=(1, 2))))
        if not is_zero(dt):
            dL = _add(dL, np.sum(((((-z) + _m9[:, :, None]) + _ls8[:, :, None]) * dt), axis=(1, 2)))
        if not is_zero(dL):
            dL = dL * _recip(n_b)
        return L, dL

    def _op___batched_cross_entropy_rrule(z, t):
        n_b = z.shape[1]
        _m26 = np.lse_shift(z, axis=2)
        _ls27 = np.log(np.sum(np.exp(z - _m26), axis=2))
        _m28 = np.sum(_m26, axis=2)
        L = ((-_recip(n_b)) * np.sum((((z - _m28[:, :, None]) - _ls27[:, :, None]) * t), axis=(1, 2)))
        def _op___batched_cross_entropy_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            dlse = (_recip(n_b) * ((dL[:, None]) * np.sum(t, axis=2)))
            def _pb_z_34():
                dz = ((-_recip(n_b)) * (dL[:, None, None]) * t)
                dz = _add(dz, ((dlse[:, :, None]) * np.exp(((z - _m28[:, :, None]) - _ls27[:, :, None]))))
                return dz
            def _pb_t_39():
                dt = (_recip(n_b) * (((-z) + _m28[:, :, None]) + _ls27[:, :, None]) * (dL[:, None, None]))
                return dt
            return (_NO, Thunk(_pb_z_34), Thunk(_pb_t_39))
        return L, _op___batched_cross_entropy_pullback

    # ---- __batched_gaussian_kernel_sum(x[_batch,i,d], y[_batch,j,d], b[_batch,j], s[_batch]) -> out[_batch,i]    (rules/nn.rules:25)
    # The Gaussian kernel sum (KeOps' classic): out[i] = Σ_j exp(-|x_i - y_j|² / s) b_j. Evaluated in
    # chunks of i, so the N×M matrix is never materialized.
    def _op___batched_gaussian_kernel_sum(x, y, b, s):
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift0 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        _given_x = x
        x = x - _shift0[:, None, None]
        _given_y = y
        y = y - _shift0[:, None, None]
        _shift1 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        _given_x = x
        x = x - _shift1
        _given_y = y
        y = y - _shift1
        def _chunk2(_m, _s0_b, _s1_s, _s2__given_y, _s3__given_x, _s4_x, _s5_y):
            def _direct7(_k3, _r5, _m6):
                _e8 = ((_s3__given_x[:, :, _k3[0]][_r5, :])[:, :, None] - ((_s2__given_y[:, :, _k3[0]][_r5, :])[:, None]))
                return (_e8 * _e8)
            def _at10(_pos4):
                _e11 = (_s3__given_x[_pos4[0], _pos4[1], :] - (_s2__given_y[_pos4[0], _pos4[2], :]))
                return np.sum((_e11 * _e11), axis=1)
            def _expanded14():
                return (np.sum((_s4_x * _s4_x), axis=2)[:, :, None] + np.sum((_s5_y * _s5_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s4_x, _s5_y, optimize=True)))
            def _bound21(_r5, _m6):
                _c23 = np.sum(((_s4_x[_r5, :, :]) ** 2), axis=2)
                _e24 = np.sqrt(_c23)
                _c26 = np.sum(((_s5_y[_r5, :, :]) ** 2), axis=2)
                return ((2.0 * (_e24[:, :, None]) * (np.sqrt(_c26)[:, None])) + _c23[:, :, None] + _c26[:, None])
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct7, _at10, _expanded14, _bound21)))), optimize=True)
        _step34 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step34 >= n__batch:
            out = _chunk2(n__batch, b, s, _given_y, _given_x, x, y)
        else:
            out = np.concatenate([_chunk2(min(_step34, n__batch - _s35), b[_s35:_s35 + _step34], s[_s35:_s35 + _step34], _given_y[_s35:_s35 + _step34], _given_x[_s35:_s35 + _step34], x[_s35:_s35 + _step34], y[_s35:_s35 + _step34]) for _s35 in range(0, n__batch, _step34)], axis=0)
        return out

    def _op___batched_gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy_, db, ds = tangents
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift36 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        _given_x = x
        x = x - _shift36[:, None, None]
        _given_y = y
        y = y - _shift36[:, None, None]
        _shift37 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        _given_x = x
        x = x - _shift37
        _given_y = y
        y = y - _shift37
        def _chunk38(_m, _s0_b, _s1_s, _s2__given_y, _s3__given_x, _s4_x, _s5_y):
            def _direct43(_k39, _r41, _m42):
                _e44 = ((_s3__given_x[:, :, _k39[0]][_r41, :])[:, :, None] - ((_s2__given_y[:, :, _k39[0]][_r41, :])[:, None]))
                return (_e44 * _e44)
            def _at46(_pos40):
                _e47 = (_s3__given_x[_pos40[0], _pos40[1], :] - (_s2__given_y[_pos40[0], _pos40[2], :]))
                return np.sum((_e47 * _e47), axis=1)
            def _expanded50():
                return (np.sum((_s4_x * _s4_x), axis=2)[:, :, None] + np.sum((_s5_y * _s5_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s4_x, _s5_y, optimize=True)))
            def _bound57(_r41, _m42):
                _c59 = np.sum(((_s4_x[_r41, :, :]) ** 2), axis=2)
                _e60 = np.sqrt(_c59)
                _c62 = np.sum(((_s5_y[_r41, :, :]) ** 2), axis=2)
                return ((2.0 * (_e60[:, :, None]) * (np.sqrt(_c62)[:, None])) + _c59[:, :, None] + _c62[:, None])
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct43, _at46, _expanded50, _bound57)))), optimize=True)
        _step70 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step70 >= n__batch:
            out = _chunk38(n__batch, b, s, _given_y, _given_x, x, y)
        else:
            out = np.concatenate([_chunk38(min(_step70, n__batch - _s71), b[_s71:_s71 + _step70], s[_s71:_s71 + _step70], _given_y[_s71:_s71 + _step70], _given_x[_s71:_s71 + _step70], x[_s71:_s71 + _step70], y[_s71:_s71 + _step70]) for _s71 in range(0, n__batch, _step70)], axis=0)
        dout = _ZERO
        if not is_zero(db):
            def _chunk73(_m, _s0_d_b, _s1_s, _s2__given_y, _s3__given_x, _s4_x, _s5_y):
                def _direct78(_k74, _r76, _m77):
                    _e79 = ((_s3__given_x[:, :, _k74[0]][_r76, :])[:, :, None] - ((_s2__given_y[:, :, _k74[0]][_r76, :])[:, None]))
                    return (_e79 * _e79)
                def _at81(_pos75):
                    _e82 = (_s3__given_x[_pos75[0], _pos75[1], :] - (_s2__given_y[_pos75[0], _pos75[2], :]))
                    return np.sum((_e82 * _e82), axis=1)
                def _expanded85():
                    return (np.sum((_s4_x * _s4_x), axis=2)[:, :, None] + np.sum((_s5_y * _s5_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s4_x, _s5_y, optimize=True)))
                def _bound92(_r76, _m77):
                    _c94 = np.sum(((_s4_x[_r76, :, :]) ** 2), axis=2)
                    _e95 = np.sqrt(_c94)
                    _c97 = np.sum(((_s5_y[_r76, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e95[:, :, None]) * (np.sqrt(_c97)[:, None])) + _c94[:, :, None] + _c97[:, None])
                return np.einsum("ab,acb->ac", _s0_d_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct78, _at81, _expanded85, _bound92)))), optimize=True)
            _step105 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step105 >= n__batch:
                _p72 = _chunk73(n__batch, db, s, _given_y, _given_x, x, y)
            else:
                _p72 = np.concatenate([_chunk73(min(_step105, n__batch - _s106), db[_s106:_s106 + _step105], s[_s106:_s106 + _step105], _given_y[_s106:_s106 + _step105], _given_x[_s106:_s106 + _step105], x[_s106:_s106 + _step105], y[_s106:_s106 + _step105]) for _s106 in range(0, n__batch, _step105)], axis=0)
            dout = _add(dout, _p72)
        if not is_zero(dy_):
            def _chunk108(_m, _s0_s, _s1__given_x, _s2__given_y, _s3_b, _s4_d_y, _s5_x, _s6_y):
                _e109 = (1 / _s0_s)
                _e110 = (_s2__given_y[:, :, :, None] - (np.transpose(_s1__given_x, (0, 2, 1))[:, None]))
                def _direct115(_k111, _r113, _m114):
                    _e116 = ((_s1__given_x[:, :, _k111[0]][_r113, :])[:, :, None] - ((_s2__given_y[:, :, _k111[0]][_r113, :])[:, None]))
                    return (_e116 * _e116)
                def _at118(_pos112):
                    _e119 = (_s1__given_x[_pos112[0], _pos112[1], :] - (_s2__given_y[_pos112[0], _pos112[2], :]))
                    return np.sum((_e119 * _e119), axis=1)
                def _expanded122():
                    return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                def _bound129(_r113, _m114):
                    _c131 = np.sum(((_s5_x[_r113, :, :]) ** 2), axis=2)
                    _e132 = np.sqrt(_c131)
                    _c134 = np.sum(((_s6_y[_r113, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e132[:, :, None]) * (np.sqrt(_c134)[:, None])) + _c131[:, :, None] + _c134[:, None])
                _e140 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct115, _at118, _expanded122, _bound129))))
                return (-2.0 * np.einsum("abc,acb->ab", _e140, np.einsum("abcd,abc->abd", _e110, (_s4_d_y * (((_e109[:, None]) * _s3_b)[:, :, None])), optimize=True), optimize=True))
            _step145 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_d * n_j))
            if _step145 >= n__batch:
                _p107 = _chunk108(n__batch, s, _given_x, _given_y, b, dy_, x, y)
            else:
                _p107 = np.concatenate([_chunk108(min(_step145, n__batch - _s146), s[_s146:_s146 + _step145], _given_x[_s146:_s146 + _step145], _given_y[_s146:_s146 + _step145], b[_s146:_s146 + _step145], dy_[_s146:_s146 + _step145], x[_s146:_s146 + _step145], y[_s146:_s146 + _step145]) for _s146 in range(0, n__batch, _step145)], axis=0)
            dout = _add(dout, _p107)
        if not is_zero(dx):
            def _chunk148(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_b, _s4_d_x, _s5_x, _s6_y):
                _e149 = (1 / _s0_s)
                _e150 = (_s2__given_x[:, :, :, None] - (np.transpose(_s1__given_y, (0, 2, 1))[:, None]))
                def _direct155(_k151, _r153, _m154):
                    _e156 = ((_s2__given_x[:, :, _k151[0]][_r153, :])[:, :, None] - ((_s1__given_y[:, :, _k151[0]][_r153, :])[:, None]))
                    return (_e156 * _e156)
                def _at158(_pos152):
                    _e159 = (_s2__given_x[_pos152[0], _pos152[1], :] - (_s1__given_y[_pos152[0], _pos152[2], :]))
                    return np.sum((_e159 * _e159), axis=1)
                def _expanded162():
                    return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                def _bound169(_r153, _m154):
                    _c171 = np.sum(((_s5_x[_r153, :, :]) ** 2), axis=2)
                    _e172 = np.sqrt(_c171)
                    _c174 = np.sum(((_s6_y[_r153, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e172[:, :, None]) * (np.sqrt(_c174)[:, None])) + _c171[:, :, None] + _c174[:, None])
                _c182 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct155, _at158, _expanded162, _bound169)))) * (((_e149[:, None]) * _s3_b)[:, None])
                return (-2.0 * np.einsum("abc,abc->ab", _c182, np.einsum("abcd,abc->abd", _e150, _s4_d_x, optimize=True), optimize=True))
            _step185 = max(1, _CHUNK_ELEMENTS // max(1, n_j * n_d * n_i))
            if _step185 >= n__batch:
                _p147 = _chunk148(n__batch, s, _given_y, _given_x, b, dx, x, y)
            else:
                _p147 = np.concatenate([_chunk148(min(_step185, n__batch - _s186), s[_s186:_s186 + _step185], _given_y[_s186:_s186 + _step185], _given_x[_s186:_s186 + _step185], b[_s186:_s186 + _step185], dx[_s186:_s186 + _step185], x[_s186:_s186 + _step185], y[_s186:_s186 + _step185]) for _s186 in range(0, n__batch, _step185)], axis=0)
            dout = _add(dout, _p147)
        if not is_zero(ds):
            def _chunk188(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_x, _s4_y, _s5_b, _s6_d_s):
                _e190 = ((1 / (_s0_s * _s0_s)) * _s6_d_s)
                def _direct195(_k191, _r193, _m194):
                    _e196 = ((_s2__given_x[:, :, _k191[0]][_r193, :])[:, :, None] - ((_s1__given_y[:, :, _k191[0]][_r193, :])[:, None]))
                    return (_e196 * _e196)
                def _at198(_pos192):
                    _e199 = (_s2__given_x[_pos192[0], _pos192[1], :] - (_s1__given_y[_pos192[0], _pos192[2], :]))
                    return np.sum((_e199 * _e199), axis=1)
                def _expanded202():
                    return (np.sum((_s3_x * _s3_x), axis=2)[:, :, None] + np.sum((_s4_y * _s4_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s3_x, _s4_y, optimize=True)))
                def _bound209(_r193, _m194):
                    _c211 = np.sum(((_s3_x[_r193, :, :]) ** 2), axis=2)
                    _e212 = np.sqrt(_c211)
                    _c214 = np.sum(((_s4_y[_r193, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e212[:, :, None]) * (np.sqrt(_c214)[:, None])) + _c211[:, :, None] + _c214[:, None])
                _d2218 = np.checked_sum((n_d, ), _m, _direct195, _at198, _expanded202, _bound209)
                return np.einsum("abc,ac->ab", (_d2218 * np.exp((-(1 / (_s0_s[:, None, None]) * _d2218)))), ((_e190[:, None]) * _s5_b), optimize=True)
            _step224 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step224 >= n__batch:
                _p187 = _chunk188(n__batch, s, _given_y, _given_x, x, y, b, ds)
            else:
                _p187 = np.concatenate([_chunk188(min(_step224, n__batch - _s225), s[_s225:_s225 + _step224], _given_y[_s225:_s225 + _step224], _given_x[_s225:_s225 + _step224], x[_s225:_s225 + _step224], y[_s225:_s225 + _step224], b[_s225:_s225 + _step224], ds[_s225:_s225 + _step224]) for _s225 in range(0, n__batch, _step224)], axis=0)
            dout = _add(dout, _p187)
        return out, dout

    def _op___batched_gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift226 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        _given_x = x
        x = x - _shift226[:, None, None]
        _given_y = y
        y = y - _shift226[:, None, None]
        _shift227 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        _given_x = x
        x = x - _shift227
        _given_y = y
        y = y - _shift227
        def _chunk228(_m, _s0_b, _s1_s, _s2__given_y, _s3__given_x, _s4_x, _s5_y):
            def _direct233(_k229, _r231, _m232):
                _e234 = ((_s3__given_x[:, :, _k229[0]][_r231, :])[:, :, None] - ((_s2__given_y[:, :, _k229[0]][_r231, :])[:, None]))
                return (_e234 * _e234)
            def _at236(_pos230):
                _e237 = (_s3__given_x[_pos230[0], _pos230[1], :] - (_s2__given_y[_pos230[0], _pos230[2], :]))
                return np.sum((_e237 * _e237), axis=1)
            def _expanded240():
                return (np.sum((_s4_x * _s4_x), axis=2)[:, :, None] + np.sum((_s5_y * _s5_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s4_x, _s5_y, optimize=True)))
            def _bound247(_r231, _m232):
                _c249 = np.sum(((_s4_x[_r231, :, :]) ** 2), axis=2)
                _e250 = np.sqrt(_c249)
                _c252 = np.sum(((_s5_y[_r231, :, :]) ** 2), axis=2)
                return ((2.0 * (_e250[:, :, None]) * (np.sqrt(_c252)[:, None])) + _c249[:, :, None] + _c252[:, None])
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct233, _at236, _expanded240, _bound247)))), optimize=True)
        _step260 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step260 >= n__batch:
            out = _chunk228(n__batch, b, s, _given_y, _given_x, x, y)
        else:
            out = np.concatenate([_chunk228(min(_step260, n__batch - _s261), b[_s261:_s261 + _step260], s[_s261:_s261 + _step260], _given_y[_s261:_s261 + _step260], _given_x[_s261:_s261 + _step260], x[_s261:_s261 + _step260], y[_s261:_s261 + _step260]) for _s261 in range(0, n__batch, _step260)], axis=0)
        def _op___batched_gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo311 = []
            def _fused262():
                if not _memo311:
                    def _fused262_slice(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_b, _s4_b_out, _s5_x, _s6_y):
                        _e263 = (1 / _s0_s)
                        _e264 = (_s2__given_x[:, :, :, None] - (np.transpose(_s1__given_y, (0, 2, 1))[:, None]))
                        def _direct269(_k265, _r267, _m268):
                            _e270 = ((_s2__given_x[:, :, _k265[0]][_r267, :])[:, :, None] - ((_s1__given_y[:, :, _k265[0]][_r267, :])[:, None]))
                            return (_e270 * _e270)
                        def _at272(_pos266):
                            _e273 = (_s2__given_x[_pos266[0], _pos266[1], :] - (_s1__given_y[_pos266[0], _pos266[2], :]))
                            return np.sum((_e273 * _e273), axis=1)
                        def _expanded276():
                            return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                        def _bound283(_r267, _m268):
                            _c285 = np.sum(((_s5_x[_r267, :, :]) ** 2), axis=2)
                            _e286 = np.sqrt(_c285)
                            _c288 = np.sum(((_s6_y[_r267, :, :]) ** 2), axis=2)
                            return ((2.0 * (_e286[:, :, None]) * (np.sqrt(_c288)[:, None])) + _c285[:, :, None] + _c288[:, None])
                        _d2292 = np.checked_sum((n_d, ), _m, _direct269, _at272, _expanded276, _bound283)
                        _e294 = np.exp((-(1 / (_s0_s[:, None, None]) * _d2292)))
                        _c297 = (((_e263[:, None]) * _s3_b)[:, :, None]) * np.transpose(((_s4_b_out[:, :, None]) * _e294), (0, 2, 1))
                        _r299 = (-2.0 * np.einsum("abcd,adb->abc", _e264, _c297, optimize=True))
                        _r302 = (-2.0 * np.einsum("abcd,abd->abc", (_s1__given_y[:, :, :, None] - (np.transpose(_s2__given_x, (0, 2, 1))[:, None])), _c297, optimize=True))
                        _r304 = np.einsum("ab,abc->ac", _s4_b_out, _e294, optimize=True)
                        return (_r299, _r302, _r304, np.einsum("ab,ab->a", (((1 / (_s0_s * _s0_s))[:, None]) * _s3_b), np.einsum("abc,ab->ac", (_d2292 * _e294), _s4_b_out, optimize=True), optimize=True),)
                    _step312 = max(1, _CHUNK_ELEMENTS // max(1, n_j * n_d * n_i, n_i * n_d * n_j, n_i * n_j, n_i * n_j))
                    if _step312 >= n__batch:
                        _memo311.append(_fused262_slice(n__batch, s, _given_y, _given_x, b, dout, x, y))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, 0, 0, 0)]
                        for _s313 in range(0, n__batch, _step312):
                            _part314 = _fused262_slice(min(_step312, n__batch - _s313), s[_s313:_s313 + _step312], _given_y[_s313:_s313 + _step312], _given_x[_s313:_s313 + _step312], b[_s313:_s313 + _step312], dout[_s313:_s313 + _step312], x[_s313:_s313 + _step312], y[_s313:_s313 + _step312])
                            for k, axis in enumerate((0, 0, 0, 0)):
                                if axis is not None:
                                    acc[k].append(_part314[k])
                                else:
                                    acc[k] = _part314[k] if acc[k] is None else acc[k] + _part314[k]
                        _memo311.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, 0, 0, 0))))
                return _memo311[0]
            def _pb_x_315():
                return _fused262()[0]
            def _pb_y_316():
                return _fused262()[1]
            def _pb_b_317():
                return _fused262()[2]
            def _pb_s_318():
                return _fused262()[3]
            return (_NO, Thunk(_pb_x_315), Thunk(_pb_y_316), Thunk(_pb_b_317), Thunk(_pb_s_318))
        return out, _op___batched_gaussian_kernel_sum_pullback

    return {
        'sum': _op_sum,
        'sum_frule': _op_sum_frule,
        'sum_rrule': _op_sum_rrule,
        'mean': mean,
        'mean_frule': mean_frule,
        'mean_rrule': mean_rrule,
        'logsumexp': logsumexp,
        'logsumexp_frule': logsumexp_frule,
        'logsumexp_rrule': logsumexp_rrule,
        'softmax': softmax,
        'softmax_frule': softmax_frule,
        'softmax_rrule': softmax_rrule,
        'log_softmax': log_softmax,
        'log_softmax_frule': log_softmax_frule,
        'log_softmax_rrule': log_softmax_rrule,
        'dense': dense,
        'dense_frule': dense_frule,
        'dense_rrule': dense_rrule,
        'linear': linear,
        'linear_frule': linear_frule,
        'linear_rrule': linear_rrule,
        'mse': mse,
        'mse_frule': mse_frule,
        'mse_rrule': mse_rrule,
        'cross_entropy': cross_entropy,
        'cross_entropy_frule': cross_entropy_frule,
        'cross_entropy_rrule': cross_entropy_rrule,
        'gaussian_kernel_sum': gaussian_kernel_sum,
        'gaussian_kernel_sum_frule': gaussian_kernel_sum_frule,
        'gaussian_kernel_sum_rrule': gaussian_kernel_sum_rrule,
        '__batched_sum': _op___batched_sum,
        '__batched_sum_frule': _op___batched_sum_frule,
        '__batched_sum_rrule': _op___batched_sum_rrule,
        '__batched_mean': _op___batched_mean,
        '__batched_mean_frule': _op___batched_mean_frule,
        '__batched_mean_rrule': _op___batched_mean_rrule,
        '__batched_logsumexp': _op___batched_logsumexp,
        '__batched_logsumexp_frule': _op___batched_logsumexp_frule,
        '__batched_logsumexp_rrule': _op___batched_logsumexp_rrule,
        '__batched_softmax': _op___batched_softmax,
        '__batched_softmax_frule': _op___batched_softmax_frule,
        '__batched_softmax_rrule': _op___batched_softmax_rrule,
        '__batched_log_softmax': _op___batched_log_softmax,
        '__batched_log_softmax_frule': _op___batched_log_softmax_frule,
        '__batched_log_softmax_rrule': _op___batched_log_softmax_rrule,
        '__batched_dense': _op___batched_dense,
        '__batched_dense_frule': _op___batched_dense_frule,
        '__batched_dense_rrule': _op___batched_dense_rrule,
        '__batched_linear': _op___batched_linear,
        '__batched_linear_frule': _op___batched_linear_frule,
        '__batched_linear_rrule': _op___batched_linear_rrule,
        '__batched_mse': _op___batched_mse,
        '__batched_mse_frule': _op___batched_mse_frule,
        '__batched_mse_rrule': _op___batched_mse_rrule,
        '__batched_cross_entropy': _op___batched_cross_entropy,
        '__batched_cross_entropy_frule': _op___batched_cross_entropy_frule,
        '__batched_cross_entropy_rrule': _op___batched_cross_entropy_rrule,
        '__batched_gaussian_kernel_sum': _op___batched_gaussian_kernel_sum,
        '__batched_gaussian_kernel_sum_frule': _op___batched_gaussian_kernel_sum_frule,
        '__batched_gaussian_kernel_sum_rrule': _op___batched_gaussian_kernel_sum_rrule,
    }


OPS = {'sum': {'signature': 'sum(x[i]) -> s[]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 's', 'indices': []}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'source': 'rules/nn.rules:5',
         'batched': '__batched_sum'},
 'mean': {'signature': 'mean(x[i]) -> m[]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'm', 'indices': []}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'source': 'rules/nn.rules:6',
          'batched': '__batched_mean'},
 'logsumexp': {'signature': 'logsumexp(x[i]) -> y[]',
               'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
               'outputs': [{'name': 'y', 'indices': []}],
               'equal_extents': [],
               'domains': {'x': 'real'},
               'source': 'rules/nn.rules:7',
               'batched': '__batched_logsumexp'},
 'softmax': {'signature': 'softmax(x[i]) -> y[i]',
             'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
             'outputs': [{'name': 'y', 'indices': ['i']}],
             'equal_extents': [],
             'domains': {'x': 'real'},
             'source': 'rules/nn.rules:9',
             'doc': 'Written through the log-sum-exp, which the generated code evaluates without overflow.',
             'batched': '__batched_softmax'},
 'log_softmax': {'signature': 'log_softmax(x[i]) -> y[i]',
                 'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
                 'outputs': [{'name': 'y', 'indices': ['i']}],
                 'equal_extents': [],
                 'domains': {'x': 'real'},
                 'source': 'rules/nn.rules:10',
                 'batched': '__batched_log_softmax'},
 'dense': {'signature': 'dense(W[o,i], x[b,i], c[o]) -> y[b,o]',
           'inputs': [{'name': 'W', 'kind': 'tensor', 'indices': ['o', 'i']},
                      {'name': 'x', 'kind': 'tensor', 'indices': ['b', 'i']},
                      {'name': 'c', 'kind': 'tensor', 'indices': ['o']}],
           'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
           'equal_extents': [],
           'domains': {'W': 'real', 'x': 'real', 'c': 'real'},
           'source': 'rules/nn.rules:13',
           'doc': 'A dense layer over a batch b: the bias c broadcasts over b, so its pullback sums over b.',
           'batched': '__batched_dense'},
 'linear': {'signature': 'linear(W[o,i], x[b,i], c[o]) -> y[b,o]',
            'inputs': [{'name': 'W', 'kind': 'tensor', 'indices': ['o', 'i']},
                       {'name': 'x', 'kind': 'tensor', 'indices': ['b', 'i']},
                       {'name': 'c', 'kind': 'tensor', 'indices': ['o']}],
            'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
            'equal_extents': [],
            'domains': {'W': 'real', 'x': 'real', 'c': 'real'},
            'source': 'rules/nn.rules:14',
            'batched': '__batched_linear'},
 'mse': {'signature': 'mse(p[b,o], t[b,o]) -> L[]',
         'inputs': [{'name': 'p', 'kind': 'tensor', 'indices': ['b', 'o']},
                    {'name': 't', 'kind': 'tensor', 'indices': ['b', 'o']}],
         'outputs': [{'name': 'L', 'indices': []}],
         'equal_extents': [],
         'domains': {'p': 'real', 't': 'real'},
         'source': 'rules/nn.rules:17',
         'doc': 'Losses, averaged over the batch.',
         'batched': '__batched_mse'},
 'cross_entropy': {'signature': 'cross_entropy(z[b,c], t[b,c]) -> L[]',
                   'inputs': [{'name': 'z', 'kind': 'tensor', 'indices': ['b', 'c']},
                              {'name': 't', 'kind': 'tensor', 'indices': ['b', 'c']}],
                   'outputs': [{'name': 'L', 'indices': []}],
                   'equal_extents': [],
                   'domains': {'z': 'real', 't': 'real'},
                   'source': 'rules/nn.rules:19',
                   'doc': "Cross-entropy of logits z against targets t, through each row's log-sum-exp (kept "
                          'for the pullback).',
                   'batched': '__batched_cross_entropy'},
 'gaussian_kernel_sum': {'signature': 'gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]',
                         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i', 'd']},
                                    {'name': 'y', 'kind': 'tensor', 'indices': ['j', 'd']},
                                    {'name': 'b', 'kind': 'tensor', 'indices': ['j']},
                                    {'name': 's', 'kind': 'scalar'}],
                         'outputs': [{'name': 'out', 'indices': ['i']}],
                         'equal_extents': [],
                         'domains': {'x': 'real', 'y': 'real', 'b': 'real', 's': 'real'},
                         'source': 'rules/nn.rules:25',
                         'doc': "The Gaussian kernel sum (KeOps' classic): out[i] = Σ_j exp(-|x_i - y_j|² / "
                                's) b_j. Evaluated in\n'
                                'chunks of i, so the N×M matrix is never materialized.',
                         'batched': '__batched_gaussian_kernel_sum'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'sum': {'name': 'sum',
         'signature': 'sum(x[i]) -> s[]',
         'file': 'rules/nn.rules',
         'line': 5,
         'text': 'sum(x[i]) -> s[] = sum(i, x[i])',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 's', 'indices': []}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'ds',
                          'text': 'ds = dxᵀ·𝟙',
                          'latex': '\\mathrm{d}s = \\mathrm{d}x^{\\top} \\mathbf{1}',
                          'matrix': 'ds = dxᵀ·𝟙',
                          'index': 'ds = Σ_k dx[k]',
                          'index_latex': '\\mathrm{d}s = \\sum_{k} \\mathrm{d}x_{k}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = ds·𝟙',
                       'latex': '\\mathrm{d}x = \\mathrm{d}s \\mathbf{1}',
                       'matrix': 'dx = ds·𝟙',
                       'index': 'dx[i] = ds',
                       'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}s'}],
         'holds_for': 'every real input',
         'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'mean': {'name': 'mean',
          'signature': 'mean(x[i]) -> m[]',
          'file': 'rules/nn.rules',
          'line': 6,
          'text': 'mean(x[i]) -> m[] = sum(i, x[i]) / size(i)',
          'doc': '',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
          'outputs': [{'name': 'm', 'indices': []}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dm',
                           'text': 'dm = dxᵀ·𝟙/size(i)',
                           'latex': '\\mathrm{d}m = \\frac{\\mathrm{d}x^{\\top} \\mathbf{1}}{\\lvert i '
                                    '\\rvert}',
                           'matrix': 'dm = dxᵀ·𝟙/size(i)',
                           'index': 'dm = Σ_k dx[k]/size(i)',
                           'index_latex': '\\mathrm{d}m = \\sum_{k} \\frac{\\mathrm{d}x_{k}}{\\lvert i '
                                          '\\rvert}'}],
          'pullback': [{'target': 'dx',
                        'text': 'dx = dm·𝟙/size(i)',
                        'latex': '\\mathrm{d}x = \\frac{\\mathrm{d}m \\mathbf{1}}{\\lvert i \\rvert}',
                        'matrix': 'dx = dm·𝟙/size(i)',
                        'index': 'dx[i] = dm/size(i)',
                        'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}m}{\\lvert i \\rvert}'}],
          'holds_for': 'every real input',
          'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'logsumexp': {'name': 'logsumexp',
               'signature': 'logsumexp(x[i]) -> y[]',
               'file': 'rules/nn.rules',
               'line': 7,
               'text': 'logsumexp(x[i]) -> y[] = log(sum(i, exp(x[i])))',
               'doc': '',
               'inputs': [{'name': 'x',
                           'kind': 'tensor',
                           'indices': ['i'],
                           'domain': 'real',
                           'declared': False}],
               'outputs': [{'name': 'y', 'indices': []}],
               'extents': {},
               'equal_extents': [],
               'pushforward': [{'target': 'dy',
                                'text': 'dy = (exp(x) ⊙ dx)ᵀ·𝟙/(exp(x)ᵀ·𝟙)',
                                'latex': '\\mathrm{d}y = \\frac{(e^{x} \\odot \\mathrm{d}x)^{\\top} '
                                         '\\mathbf{1}}{\\left({e^{x}}^{\\top} \\mathbf{1}\\right)}',
                                'matrix': 'dy = (exp(x) ⊙ dx)ᵀ·𝟙/(exp(x)ᵀ·𝟙)',
                                'index': 'dy = Σ_k dx[k]·exp(x[k])/Σ_i′(exp(x[i′]))',
                                'index_latex': '\\mathrm{d}y = \\sum_{k} \\frac{\\mathrm{d}x_{k} '
                                               "e^{x_{k}}}{\\sum_{i'} e^{x_{i'}}}"}],
               'pullback': [{'target': 'dx',
                             'text': 'dx = dy·exp(x)/(exp(x)ᵀ·𝟙)',
                             'latex': '\\mathrm{d}x = \\frac{\\mathrm{d}y e^{x}}{\\left({e^{x}}^{\\top} '
                                      '\\mathbf{1}\\right)}',
                             'matrix': 'dx = dy·exp(x)/(exp(x)ᵀ·𝟙)',
                             'index': 'dx[i] = dy·exp(x[i])/Σ_i′(exp(x[i′]))',
                             'index_latex': "\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y e^{x_{i}}}{\\sum_{i'} "
                                            "e^{x_{i'}}}"}],
               'holds_for': 'every real input',
               'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
               'verified': True,
               'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                                'points': 2,
                                'skipped': 0,
                                'extents': [{'i': 3}]}},
 'softmax': {'name': 'softmax',
             'signature': 'softmax(x[i]) -> y[i]',
             'file': 'rules/nn.rules',
             'line': 9,
             'text': 'softmax(x[i]) -> y[i] = exp(x[i] - log(sum(j, exp(x[j]))))',
             'doc': 'Written through the log-sum-exp, which the generated code evaluates without overflow.',
             'inputs': [{'name': 'x',
                         'kind': 'tensor',
                         'indices': ['i'],
                         'domain': 'real',
                         'declared': False}],
             'outputs': [{'name': 'y', 'indices': ['i']}],
             'extents': {},
             'equal_extents': [],
             'pushforward': [{'target': 'dy',
                              'text': 'dy = y ⊙ dx - y·yᵀ·dx',
                              'latex': '\\mathrm{d}y = y \\odot \\mathrm{d}x - y y^{\\top} \\mathrm{d}x',
                              'matrix': 'dy = y ⊙ dx - y·yᵀ·dx',
                              'index': 'dy[i] = dx[i]·y[i] + Σ_k -dx[k]·y[i]·y[k]',
                              'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} y_{i} + \\sum_{k} - '
                                             '\\mathrm{d}x_{k} y_{i} y_{k}'}],
             'pullback': [{'target': 'dx',
                           'text': 'dx = y ⊙ dy - y·yᵀ·dy',
                           'latex': '\\mathrm{d}x = y \\odot \\mathrm{d}y - y y^{\\top} \\mathrm{d}y',
                           'matrix': 'dx = y ⊙ dy - y·yᵀ·dy',
                           'index': 'dx[i] = dy[i]·y[i] + Σ_k -dy[k]·y[i]·y[k]',
                           'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} y_{i} + \\sum_{k} - '
                                          '\\mathrm{d}y_{k} y_{i} y_{k}'}],
             'holds_for': 'every real input',
             'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
             'verified': True,
             'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                              'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                              'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                              'points': 2,
                              'skipped': 0,
                              'extents': [{'i': 3}]}},
 'log_softmax': {'name': 'log_softmax',
                 'signature': 'log_softmax(x[i]) -> y[i]',
                 'file': 'rules/nn.rules',
                 'line': 10,
                 'text': 'log_softmax(x[i]) -> y[i] = x[i] - log(sum(j, exp(x[j])))',
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
                                  'text': 'dy = dx - 𝟙·(exp(y) ⊙ dx)ᵀ·𝟙',
                                  'latex': '\\mathrm{d}y = \\mathrm{d}x - \\mathbf{1} (e^{y} \\odot '
                                           '\\mathrm{d}x)^{\\top} \\mathbf{1}',
                                  'matrix': 'dy = dx - 𝟙·(exp(y) ⊙ dx)ᵀ·𝟙',
                                  'index': 'dy[i] = Σ_k -dx[k]·exp(y[k]) + dx[i]',
                                  'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} - \\mathrm{d}x_{k} e^{y_{k}} '
                                                 '+ \\mathrm{d}x_{i}'}],
                 'pullback': [{'target': 'dx',
                               'text': 'dx = dy - exp(y)·dyᵀ·𝟙',
                               'latex': '\\mathrm{d}x = \\mathrm{d}y - e^{y} \\mathrm{d}y^{\\top} '
                                        '\\mathbf{1}',
                               'matrix': 'dx = dy - exp(y)·dyᵀ·𝟙',
                               'index': 'dx[i] = Σ_k -dy[k]·exp(y[i]) + dy[i]',
                               'index_latex': '\\mathrm{d}x_{i} = \\sum_{k} - \\mathrm{d}y_{k} e^{y_{i}} + '
                                              '\\mathrm{d}y_{i}'}],
                 'holds_for': 'every real input',
                 'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                                  'points': 2,
                                  'skipped': 0,
                                  'extents': [{'i': 3}]}},
 'dense': {'name': 'dense',
           'signature': 'dense(W[o,i], x[b,i], c[o]) -> y[b,o]',
           'file': 'rules/nn.rules',
           'line': 13,
           'text': 'dense(W[o,i], x[b,i], c[o]) -> y[b,o] = tanh(W[o,i] * x[b,i] + c[o])',
           'doc': 'A dense layer over a batch b: the bias c broadcasts over b, so its pullback sums over b.',
           'inputs': [{'name': 'W',
                       'kind': 'tensor',
                       'indices': ['o', 'i'],
                       'domain': 'real',
                       'declared': False},
                      {'name': 'x',
                       'kind': 'tensor',
                       'indices': ['b', 'i'],
                       'domain': 'real',
                       'declared': False},
                      {'name': 'c', 'kind': 'tensor', 'indices': ['o'], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dy',
                            'text': 'dy[b,o] = Σ_k (1 - y[b,o]²)·W[o,k]·dx[b,k] + Σ_k (1 - '
                                    'y[b,o]²)·dW[o,k]·x[b,k] + (1 - y[b,o]²)·dc[o]',
                            'latex': '\\mathrm{d}y_{bo} = \\sum_{k} \\left(1 - y_{bo}^{2}\\right) W_{ok} '
                                     '\\mathrm{d}x_{bk} + \\sum_{k} \\left(1 - y_{bo}^{2}\\right) '
                                     '\\mathrm{d}W_{ok} x_{bk} + \\left(1 - y_{bo}^{2}\\right) '
                                     '\\mathrm{d}c_{o}',
                            'matrix': None,
                            'index': 'dy[b,o] = Σ_k (1 - y[b,o]²)·W[o,k]·dx[b,k] + Σ_k (1 - '
                                     'y[b,o]²)·dW[o,k]·x[b,k] + (1 - y[b,o]²)·dc[o]',
                            'index_latex': '\\mathrm{d}y_{bo} = \\sum_{k} \\left(1 - y_{bo}^{2}\\right) '
                                           'W_{ok} \\mathrm{d}x_{bk} + \\sum_{k} \\left(1 - '
                                           'y_{bo}^{2}\\right) \\mathrm{d}W_{ok} x_{bk} + \\left(1 - '
                                           'y_{bo}^{2}\\right) \\mathrm{d}c_{o}'}],
           'pullback': [{'target': 'dW',
                         'text': 'dW = ((1 - y∘²) ⊙ dy)ᵀ·x',
                         'latex': '\\mathrm{d}W = ((1 - y^{\\circ 2}) \\odot \\mathrm{d}y)^{\\top} x',
                         'matrix': 'dW = ((1 - y∘²) ⊙ dy)ᵀ·x',
                         'index': 'dW[o,i] = Σ_k (1 - y[k,o]²)·dy[k,o]·x[k,i]',
                         'index_latex': '\\mathrm{d}W_{oi} = \\sum_{k} \\left(1 - y_{ko}^{2}\\right) '
                                        '\\mathrm{d}y_{ko} x_{ki}'},
                        {'target': 'dx',
                         'text': 'dx = ((1 - y∘²) ⊙ dy)·W',
                         'latex': '\\mathrm{d}x = ((1 - y^{\\circ 2}) \\odot \\mathrm{d}y) W',
                         'matrix': 'dx = ((1 - y∘²) ⊙ dy)·W',
                         'index': 'dx[b,i] = Σ_k (1 - y[b,k]²)·W[k,i]·dy[b,k]',
                         'index_latex': '\\mathrm{d}x_{bi} = \\sum_{k} \\left(1 - y_{bk}^{2}\\right) W_{ki} '
                                        '\\mathrm{d}y_{bk}'},
                        {'target': 'dc',
                         'text': 'dc = ((1 - y∘²) ⊙ dy)ᵀ·𝟙',
                         'latex': '\\mathrm{d}c = ((1 - y^{\\circ 2}) \\odot \\mathrm{d}y)^{\\top} '
                                  '\\mathbf{1}',
                         'matrix': 'dc = ((1 - y∘²) ⊙ dy)ᵀ·𝟙',
                         'index': 'dc[o] = Σ_k (1 - y[k,o]²)·dy[k,o]',
                         'index_latex': '\\mathrm{d}c_{o} = \\sum_{k} \\left(1 - y_{ko}^{2}\\right) '
                                        '\\mathrm{d}y_{ko}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['W', 'x'], 'outputs': ['y'], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 4,
                            'skipped': 0,
                            'extents': [{'o': 3, 'i': 4, 'b': 5}, {'o': 5, 'i': 4, 'b': 3}]}},
 'linear': {'name': 'linear',
            'signature': 'linear(W[o,i], x[b,i], c[o]) -> y[b,o]',
            'file': 'rules/nn.rules',
            'line': 14,
            'text': 'linear(W[o,i], x[b,i], c[o]) -> y[b,o] = W[o,i] * x[b,i] + c[o]',
            'doc': '',
            'inputs': [{'name': 'W',
                        'kind': 'tensor',
                        'indices': ['o', 'i'],
                        'domain': 'real',
                        'declared': False},
                       {'name': 'x',
                        'kind': 'tensor',
                        'indices': ['b', 'i'],
                        'domain': 'real',
                        'declared': False},
                       {'name': 'c',
                        'kind': 'tensor',
                        'indices': ['o'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dy',
                             'text': 'dy = dx·Wᵀ + x·dWᵀ + 𝟙·dcᵀ',
                             'latex': '\\mathrm{d}y = \\mathrm{d}x W^{\\top} + x \\mathrm{d}W^{\\top} + '
                                      '\\mathbf{1} \\mathrm{d}c^{\\top}',
                             'matrix': 'dy = dx·Wᵀ + x·dWᵀ + 𝟙·dcᵀ',
                             'index': 'dy[b,o] = Σ_k W[o,k]·dx[b,k] + Σ_k dW[o,k]·x[b,k] + dc[o]',
                             'index_latex': '\\mathrm{d}y_{bo} = \\sum_{k} W_{ok} \\mathrm{d}x_{bk} + '
                                            '\\sum_{k} \\mathrm{d}W_{ok} x_{bk} + \\mathrm{d}c_{o}'}],
            'pullback': [{'target': 'dW',
                          'text': 'dW = dyᵀ·x',
                          'latex': '\\mathrm{d}W = \\mathrm{d}y^{\\top} x',
                          'matrix': 'dW = dyᵀ·x',
                          'index': 'dW[o,i] = Σ_k dy[k,o]·x[k,i]',
                          'index_latex': '\\mathrm{d}W_{oi} = \\sum_{k} \\mathrm{d}y_{ko} x_{ki}'},
                         {'target': 'dx',
                          'text': 'dx = dy·W',
                          'latex': '\\mathrm{d}x = \\mathrm{d}y W',
                          'matrix': 'dx = dy·W',
                          'index': 'dx[b,i] = Σ_k W[k,i]·dy[b,k]',
                          'index_latex': '\\mathrm{d}x_{bi} = \\sum_{k} W_{ki} \\mathrm{d}y_{bk}'},
                         {'target': 'dc',
                          'text': 'dc = dyᵀ·𝟙',
                          'latex': '\\mathrm{d}c = \\mathrm{d}y^{\\top} \\mathbf{1}',
                          'matrix': 'dc = dyᵀ·𝟙',
                          'index': 'dc[o] = Σ_k dy[k,o]',
                          'index_latex': '\\mathrm{d}c_{o} = \\sum_{k} \\mathrm{d}y_{ko}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': ['W', 'x'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 4,
                             'skipped': 0,
                             'extents': [{'o': 3, 'i': 4, 'b': 5}, {'o': 5, 'i': 4, 'b': 3}]}},
 'mse': {'name': 'mse',
         'signature': 'mse(p[b,o], t[b,o]) -> L[]',
         'file': 'rules/nn.rules',
         'line': 17,
         'text': 'mse(p[b,o], t[b,o]) -> L[] = sum(b, o, (p[b,o] - t[b,o])**2) / (size(b) * size(o))',
         'doc': 'Losses, averaged over the batch.',
         'inputs': [{'name': 'p',
                     'kind': 'tensor',
                     'indices': ['b', 'o'],
                     'domain': 'real',
                     'declared': False},
                    {'name': 't',
                     'kind': 'tensor',
                     'indices': ['b', 'o'],
                     'domain': 'real',
                     'declared': False}],
         'outputs': [{'name': 'L', 'indices': []}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dL',
                          'text': 'dL = 2·𝟙ᵀ·((t - p) ⊙ dt + (p - t) ⊙ dp)·𝟙/(size(b)·size(o))',
                          'latex': '\\mathrm{d}L = 2 \\frac{\\mathbf{1}^{\\top} \\left((t - p) \\odot '
                                   '\\mathrm{d}t + (p - t) \\odot \\mathrm{d}p\\right) \\mathbf{1}}{\\lvert '
                                   'b \\rvert \\lvert o \\rvert}',
                          'matrix': 'dL = 2·𝟙ᵀ·((t - p) ⊙ dt + (p - t) ⊙ dp)·𝟙/(size(b)·size(o))',
                          'index': 'dL = Σ_kl 2·(-p[k,l] + t[k,l])·dt[k,l]/(size(b)·size(o)) + Σ_kl '
                                   '2·(p[k,l] - t[k,l])·dp[k,l]/(size(b)·size(o))',
                          'index_latex': '\\mathrm{d}L = \\sum_{kl} \\frac{2 \\left(- p_{kl} + '
                                         't_{kl}\\right) \\mathrm{d}t_{kl}}{\\lvert b \\rvert \\lvert o '
                                         '\\rvert} + \\sum_{kl} \\frac{2 \\left(p_{kl} - t_{kl}\\right) '
                                         '\\mathrm{d}p_{kl}}{\\lvert b \\rvert \\lvert o \\rvert}'}],
         'pullback': [{'target': 'dp',
                       'text': 'dp = 2·dL·(p - t)/(size(b)·size(o))',
                       'latex': '\\mathrm{d}p = 2 \\frac{\\mathrm{d}L (p - t)}{\\lvert b \\rvert \\lvert o '
                                '\\rvert}',
                       'matrix': 'dp = 2·dL·(p - t)/(size(b)·size(o))',
                       'index': 'dp[b,o] = 2·(p[b,o] - t[b,o])·dL/(size(b)·size(o))',
                       'index_latex': '\\mathrm{d}p_{bo} = \\frac{2 \\left(p_{bo} - t_{bo}\\right) '
                                      '\\mathrm{d}L}{\\lvert b \\rvert \\lvert o \\rvert}'},
                      {'target': 'dt',
                       'text': 'dt = 2·dL·(t - p)/(size(b)·size(o))',
                       'latex': '\\mathrm{d}t = 2 \\frac{\\mathrm{d}L (t - p)}{\\lvert b \\rvert \\lvert o '
                                '\\rvert}',
                       'matrix': 'dt = 2·dL·(t - p)/(size(b)·size(o))',
                       'index': 'dt[b,o] = 2·(-p[b,o] + t[b,o])·dL/(size(b)·size(o))',
                       'index_latex': '\\mathrm{d}t_{bo} = \\frac{2 \\left(- p_{bo} + t_{bo}\\right) '
                                      '\\mathrm{d}L}{\\lvert b \\rvert \\lvert o \\rvert}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['p', 't'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 4,
                          'skipped': 0,
                          'extents': [{'b': 3, 'o': 4}, {'b': 4, 'o': 3}]}},
 'cross_entropy': {'name': 'cross_entropy',
                   'signature': 'cross_entropy(z[b,c], t[b,c]) -> L[]',
                   'file': 'rules/nn.rules',
                   'line': 19,
                   'text': 'cross_entropy(z[b,c], t[b,c]) -> L[]:\n'
                           '    lse[b] = log(sum(k, exp(z[b,k])))\n'
                           '    L[] = -sum(b, c, t[b,c] * (z[b,c] - lse[b])) / size(b)',
                   'doc': "Cross-entropy of logits z against targets t, through each row's log-sum-exp (kept "
                          'for the pullback).',
                   'inputs': [{'name': 'z',
                               'kind': 'tensor',
                               'indices': ['b', 'c'],
                               'domain': 'real',
                               'declared': False},
                              {'name': 't',
                               'kind': 'tensor',
                               'indices': ['b', 'c'],
                               'domain': 'real',
                               'declared': False}],
                   'outputs': [{'name': 'L', 'indices': []}],
                   'extents': {},
                   'equal_extents': [],
                   'pushforward': [{'target': 'dlse',
                                    'text': 'dlse[b] = Σ_k dz[b,k]·exp(z[b,k])/Σ_c′(exp(z[b,c′]))',
                                    'latex': '\\mathrm{d}\\mathit{lse}_{b} = \\sum_{k} '
                                             "\\frac{\\mathrm{d}z_{bk} e^{z_{bk}}}{\\sum_{c'} e^{z_{b,c'}}}",
                                    'matrix': None,
                                    'index': 'dlse[b] = Σ_k dz[b,k]·exp(z[b,k])/Σ_c′(exp(z[b,c′]))',
                                    'index_latex': '\\mathrm{d}\\mathit{lse}_{b} = \\sum_{k} '
                                                   "\\frac{\\mathrm{d}z_{bk} e^{z_{bk}}}{\\sum_{c'} "
                                                   "e^{z_{b,c'}}}"},
                                   {'target': 'dL',
                                    'text': 'dL = dlseᵀ·t·𝟙/size(b) - tr(t·dzᵀ)/size(b) + 𝟙ᵀ·((lse·𝟙ᵀ - z) ⊙ '
                                            'dt)·𝟙/size(b)',
                                    'latex': '\\mathrm{d}L = \\frac{\\mathrm{d}\\mathit{lse}^{\\top} t '
                                             '\\mathbf{1}}{\\lvert b \\rvert} - '
                                             '\\frac{\\operatorname{tr}\\left(t '
                                             '\\mathrm{d}z^{\\top}\\right)}{\\lvert b \\rvert} + '
                                             '\\frac{\\mathbf{1}^{\\top} ((\\mathit{lse} \\mathbf{1}^{\\top} '
                                             '- z) \\odot \\mathrm{d}t) \\mathbf{1}}{\\lvert b \\rvert}',
                                    'matrix': 'dL = dlseᵀ·t·𝟙/size(b) - tr(t·dzᵀ)/size(b) + 𝟙ᵀ·((lse·𝟙ᵀ - z) '
                                              '⊙ dt)·𝟙/size(b)',
                                    'index': 'dL = Σ_kl dlse[k]·t[k,l]/size(b) + Σ_kl '
                                             '-dz[k,l]·t[k,l]/size(b) + Σ_kl (lse[k] - '
                                             'z[k,l])·dt[k,l]/size(b)',
                                    'index_latex': '\\mathrm{d}L = \\sum_{kl} '
                                                   '\\frac{{\\mathrm{d}\\mathit{lse}}_{k} t_{kl}}{\\lvert b '
                                                   '\\rvert} + \\sum_{kl} - \\frac{\\mathrm{d}z_{kl} '
                                                   't_{kl}}{\\lvert b \\rvert} + \\sum_{kl} '
                                                   '\\frac{\\left({\\mathit{lse}}_{k} - z_{kl}\\right) '
                                                   '\\mathrm{d}t_{kl}}{\\lvert b \\rvert}'}],
                   'pullback': [{'target': 'dlse',
                                 'text': 'dlse = dL·t·𝟙/size(b)',
                                 'latex': '\\mathrm{d}\\mathit{lse} = \\frac{\\mathrm{d}L t '
                                          '\\mathbf{1}}{\\lvert b \\rvert}',
                                 'matrix': 'dlse = dL·t·𝟙/size(b)',
                                 'index': 'dlse[b] = Σ_k dL·t[b,k]/size(b)',
                                 'index_latex': '\\mathrm{d}\\mathit{lse}_{b} = \\sum_{k} '
                                                '\\frac{\\mathrm{d}L t_{bk}}{\\lvert b \\rvert}'},
                                {'target': 'dz',
                                 'text': 'dz = exp(z) ⊙ (dlse/(exp(z)·𝟙)·𝟙ᵀ) - dL·t/size(b)',
                                 'latex': '\\mathrm{d}z = \\left(e^{z} \\odot \\left(\\left(\\frac{1}{e^{z} '
                                          '\\mathbf{1}} \\odot \\mathrm{d}\\mathit{lse}\\right) '
                                          '\\mathbf{1}^{\\top}\\right)\\right) - \\frac{\\mathrm{d}L '
                                          't}{\\lvert b \\rvert}',
                                 'matrix': 'dz = exp(z) ⊙ (dlse/(exp(z)·𝟙)·𝟙ᵀ) - dL·t/size(b)',
                                 'index': 'dz[b,c] = -dL·t[b,c]/size(b) + '
                                          'dlse[b]·exp(z[b,c])/Σ_c′(exp(z[b,c′]))',
                                 'index_latex': '\\mathrm{d}z_{bc} = - \\frac{\\mathrm{d}L t_{bc}}{\\lvert b '
                                                '\\rvert} + \\frac{{\\mathrm{d}\\mathit{lse}}_{b} '
                                                "e^{z_{bc}}}{\\sum_{c'} e^{z_{b,c'}}}"},
                                {'target': 'dt',
                                 'text': 'dt = dL·(lse·𝟙ᵀ - z)/size(b)',
                                 'latex': '\\mathrm{d}t = \\frac{\\mathrm{d}L (\\mathit{lse} '
                                          '\\mathbf{1}^{\\top} - z)}{\\lvert b \\rvert}',
                                 'matrix': 'dt = dL·(lse·𝟙ᵀ - z)/size(b)',
                                 'index': 'dt[b,c] = (lse[b] - z[b,c])·dL/size(b)',
                                 'index_latex': '\\mathrm{d}t_{bc} = \\frac{\\left({\\mathit{lse}}_{b} - '
                                                'z_{bc}\\right) \\mathrm{d}L}{\\lvert b \\rvert}'}],
                   'holds_for': 'every real input',
                   'saves': {'inputs': ['z', 't'], 'outputs': [], 'intermediates': []},
                   'verified': True,
                   'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                    'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                    'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                                    'points': 4,
                                    'skipped': 0,
                                    'extents': [{'b': 3, 'c': 4}, {'b': 4, 'c': 3}]}},
 'gaussian_kernel_sum': {'name': 'gaussian_kernel_sum',
                         'signature': 'gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]',
                         'file': 'rules/nn.rules',
                         'line': 25,
                         'text': 'gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i] = sum(j, '
                                 'exp(-sum(d, (x[i,d] - y[j,d])**2) / s) * b[j])',
                         'doc': "The Gaussian kernel sum (KeOps' classic): out[i] = Σ_j exp(-|x_i - y_j|² / "
                                's) b_j. Evaluated in\n'
                                'chunks of i, so the N×M matrix is never materialized.',
                         'inputs': [{'name': 'x',
                                     'kind': 'tensor',
                                     'indices': ['i', 'd'],
                                     'domain': 'real',
                                     'declared': False},
                                    {'name': 'y',
                                     'kind': 'tensor',
                                     'indices': ['j', 'd'],
                                     'domain': 'real',
                                     'declared': False},
                                    {'name': 'b',
                                     'kind': 'tensor',
                                     'indices': ['j'],
                                     'domain': 'real',
                                     'declared': False},
                                    {'name': 's',
                                     'kind': 'scalar',
                                     'indices': [],
                                     'domain': 'real',
                                     'declared': False}],
                         'outputs': [{'name': 'out', 'indices': ['i']}],
                         'extents': {},
                         'equal_extents': [],
                         'pushforward': [{'target': 'dout',
                                          'text': 'dout[i] = Σ_k db[k]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s) + '
                                                  'Σ_kl -2·(-x[i,l] + '
                                                  'y[k,l])·b[k]·dy[k,l]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s)/s '
                                                  '+ Σ_kl -2·(x[i,k] - '
                                                  'y[l,k])·b[l]·dx[i,k]·exp(-Σ_d′((x[i,d′] - y[l,d′])²)/s)/s '
                                                  '+ Σ_k b[k]·ds·exp(-Σ_d′((x[i,d′] - '
                                                  'y[k,d′])²)/s)·Σ_d′((x[i,d′] - y[k,d′])²)/s²',
                                          'latex': '\\mathrm{d}\\mathit{out}_{i} = \\sum_{k} '
                                                   "\\mathrm{d}b_{k} e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} "
                                                   "- y_{k,d'}\\right)^{2}}{s}} + \\sum_{kl} - \\frac{2 "
                                                   '\\left(- x_{il} + y_{kl}\\right) b_{k} \\mathrm{d}y_{kl} '
                                                   "e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} - \\frac{2 "
                                                   '\\left(x_{ik} - y_{lk}\\right) b_{l} \\mathrm{d}x_{ik} '
                                                   "e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{l,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} \\frac{b_{k} "
                                                   "\\mathrm{d}s e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s}} \\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s^{2}}",
                                          'matrix': None,
                                          'index': 'dout[i] = Σ_k db[k]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s) + '
                                                   'Σ_kl -2·(-x[i,l] + '
                                                   'y[k,l])·b[k]·dy[k,l]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[k,d′])²)/s)/s + Σ_kl -2·(x[i,k] - '
                                                   'y[l,k])·b[l]·dx[i,k]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[l,d′])²)/s)/s + Σ_k b[k]·ds·exp(-Σ_d′((x[i,d′] - '
                                                   'y[k,d′])²)/s)·Σ_d′((x[i,d′] - y[k,d′])²)/s²',
                                          'index_latex': '\\mathrm{d}\\mathit{out}_{i} = \\sum_{k} '
                                                         "\\mathrm{d}b_{k} e^{- \\frac{\\sum_{d'} "
                                                         "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s}} + "
                                                         '\\sum_{kl} - \\frac{2 \\left(- x_{il} + '
                                                         'y_{kl}\\right) b_{k} \\mathrm{d}y_{kl} e^{- '
                                                         "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} - "
                                                         '\\frac{2 \\left(x_{ik} - y_{lk}\\right) b_{l} '
                                                         "\\mathrm{d}x_{ik} e^{- \\frac{\\sum_{d'} "
                                                         "\\left(x_{i,d'} - y_{l,d'}\\right)^{2}}{s}}}{s} + "
                                                         '\\sum_{k} \\frac{b_{k} \\mathrm{d}s e^{- '
                                                         "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{k,d'}\\right)^{2}}{s}} \\sum_{d'} "
                                                         "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s^{2}}"}],
                         'pullback': [{'target': 'dx',
                                       'text': 'dx[i,d] = Σ_k -2·(x[i,d] - '
                                               'y[k,d])·b[k]·dout[i]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s)/s',
                                       'latex': '\\mathrm{d}x_{id} = \\sum_{k} - \\frac{2 \\left(x_{id} - '
                                                'y_{kd}\\right) b_{k} {\\mathrm{d}\\mathit{out}}_{i} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                "y_{k,d'}\\right)^{2}}{s}}}{s}",
                                       'matrix': None,
                                       'index': 'dx[i,d] = Σ_k -2·(x[i,d] - '
                                                'y[k,d])·b[k]·dout[i]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s)/s',
                                       'index_latex': '\\mathrm{d}x_{id} = \\sum_{k} - \\frac{2 '
                                                      '\\left(x_{id} - y_{kd}\\right) b_{k} '
                                                      "{\\mathrm{d}\\mathit{out}}_{i} e^{- \\frac{\\sum_{d'} "
                                                      "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s}}}{s}"},
                                      {'target': 'dy',
                                       'text': 'dy[j,d] = Σ_k -2·(-x[k,d] + '
                                               'y[j,d])·b[j]·dout[k]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)/s',
                                       'latex': '\\mathrm{d}y_{jd} = \\sum_{k} - \\frac{2 \\left(- x_{kd} + '
                                                'y_{jd}\\right) b_{j} {\\mathrm{d}\\mathit{out}}_{k} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                "y_{j,d'}\\right)^{2}}{s}}}{s}",
                                       'matrix': None,
                                       'index': 'dy[j,d] = Σ_k -2·(-x[k,d] + '
                                                'y[j,d])·b[j]·dout[k]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)/s',
                                       'index_latex': '\\mathrm{d}y_{jd} = \\sum_{k} - \\frac{2 \\left(- '
                                                      'x_{kd} + y_{jd}\\right) b_{j} '
                                                      "{\\mathrm{d}\\mathit{out}}_{k} e^{- \\frac{\\sum_{d'} "
                                                      "\\left(x_{k,d'} - y_{j,d'}\\right)^{2}}{s}}}{s}"},
                                      {'target': 'db',
                                       'text': 'db[j] = Σ_k dout[k]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)',
                                       'latex': '\\mathrm{d}b_{j} = \\sum_{k} {\\mathrm{d}\\mathit{out}}_{k} '
                                                "e^{- \\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                "y_{j,d'}\\right)^{2}}{s}}",
                                       'matrix': None,
                                       'index': 'db[j] = Σ_k dout[k]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)',
                                       'index_latex': '\\mathrm{d}b_{j} = \\sum_{k} '
                                                      "{\\mathrm{d}\\mathit{out}}_{k} e^{- \\frac{\\sum_{d'} "
                                                      "\\left(x_{k,d'} - y_{j,d'}\\right)^{2}}{s}}"},
                                      {'target': 'ds',
                                       'text': 'ds = Σ_kl b[l]·dout[k]·exp(-Σ_d′((x[k,d′] - '
                                               'y[l,d′])²)/s)·Σ_d′((x[k,d′] - y[l,d′])²)/s²',
                                       'latex': '\\mathrm{d}s = \\sum_{kl} \\frac{b_{l} '
                                                "{\\mathrm{d}\\mathit{out}}_{k} e^{- \\frac{\\sum_{d'} "
                                                "\\left(x_{k,d'} - y_{l,d'}\\right)^{2}}{s}} \\sum_{d'} "
                                                "\\left(x_{k,d'} - y_{l,d'}\\right)^{2}}{s^{2}}",
                                       'matrix': None,
                                       'index': 'ds = Σ_kl b[l]·dout[k]·exp(-Σ_d′((x[k,d′] - '
                                                'y[l,d′])²)/s)·Σ_d′((x[k,d′] - y[l,d′])²)/s²',
                                       'index_latex': '\\mathrm{d}s = \\sum_{kl} \\frac{b_{l} '
                                                      "{\\mathrm{d}\\mathit{out}}_{k} e^{- \\frac{\\sum_{d'} "
                                                      "\\left(x_{k,d'} - y_{l,d'}\\right)^{2}}{s}} "
                                                      "\\sum_{d'} \\left(x_{k,d'} - "
                                                      "y_{l,d'}\\right)^{2}}{s^{2}}"}],
                         'holds_for': 'every real input',
                         'saves': {'inputs': ['x', 'y', 'b', 's'], 'outputs': [], 'intermediates': []},
                         'verified': True,
                         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                          'points': 4,
                                          'skipped': 0,
                                          'extents': [{'i': 3, 'd': 4, 'j': 5}, {'i': 5, 'd': 4, 'j': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
