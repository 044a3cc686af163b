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
                _w109 = np.abs(_e107)
                def _direct114(_k110, _r112, _m113):
                    _e115 = ((_s0__given_x[:, _k110[0]][_r112])[:, None] - (_given_y[:, _k110[0]]))
                    return (_e115 * _e115)
                def _at117(_pos111):
                    _e118 = (_s0__given_x[_pos111[0], :] - (_given_y[_pos111[1], :]))
                    return np.sum((_e118 * _e118), axis=1)
                def _expanded121():
                    return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
                _c129 = np.sum((y * y), axis=1)
                _e130 = np.sqrt(_c129)
                def _bound131(_r112, _m113):
                    _c133 = np.sum(((_s1_x[_r112, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c133)[:, None]) * _e130) + _c133[:, None] + _c129)
                _e139 = np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct114, _at117, _expanded121, _bound131)))
                _w141 = np.abs(_e139)
                def _direct146(_r144, _m145):
                    return (-2.0 * (_e107 * np.einsum("ab,ba->a", _e139[_r144, :], np.einsum("abc,ab->ac", (_given_y[:, :, None] - np.transpose(_s0__given_x[_r144, :], (1, 0))), ((b[:, None]) * dy_), optimize=True), optimize=True)))
                def _at151(_pos143):
                    _c154 = np.einsum("abc,ab->ac", (_given_y[:, :, None] - np.transpose(_s0__given_x[_pos143[0], :], (1, 0))), ((b[:, None]) * dy_), optimize=True)
                    return (-2.0 * (_e107 * np.einsum("ab,ba->a", _e139[_pos143[0], :], _c154, optimize=True)))
                def _expanded156():
                    return ((2.0 * np.einsum("ab,ab->a", _s1_x, (_e139 @ ((b[:, None]) * dy_)), optimize=True) * _e107) - (2.0 * (_e139 @ (b * np.sum((dy_ * y), axis=1))) * _e107))
                _e166 = np.abs(b)
                _e167 = np.abs(dy_)
                _e168 = np.abs(y)
                def _bound169(_r144, _m145):
                    return ((2.0 * np.einsum("ab,ab->a", np.abs(_s1_x[_r144, :]), ((_w141[_r144, :]) @ ((_e166[:, None]) * _e167)), optimize=True) * _w109) + (2.0 * ((_w141[_r144, :]) @ (_e166 * np.sum((_e167 * _e168), axis=1))) * _w109))
                def _floor180(_r144, _m145):
                    return np.abs(((2.0 * np.einsum("ab,ab->a", _s1_x[_r144, :], ((_w141[_r144, :]) @ ((_e166[:, None]) * _e167)), optimize=True) * _w109) - (2.0 * ((_w141[_r144, :]) @ (_e166 * np.sum((_e167 * y), axis=1))) * _w109)))
                return np.checked_sum((n_j, n_d, ), _m, _direct146, _at151, _expanded156, _bound169, floor=_floor180, budget=_CHUNK_ELEMENTS)
            _step192 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step192 >= n_i:
                _p105 = _chunk106(n_i, _given_x, x)
            else:
                _p105 = np.concatenate([_chunk106(min(_step192, n_i - _s193), _given_x[_s193:_s193 + _step192], x[_s193:_s193 + _step192]) for _s193 in range(0, n_i, _step192)], axis=0)
            dout = _add(dout, _p105)
        if not is_zero(dx):
            def _chunk195(_m, _s0__given_x, _s1_d_x, _s2_x):
                _e196 = _div(1, s)
                _w198 = np.abs(_e196)
                def _direct203(_k199, _r201, _m202):
                    _e204 = ((_s0__given_x[:, _k199[0]][_r201])[:, None] - (_given_y[:, _k199[0]]))
                    return (_e204 * _e204)
                def _at206(_pos200):
                    _e207 = (_s0__given_x[_pos200[0], :] - (_given_y[_pos200[1], :]))
                    return np.sum((_e207 * _e207), axis=1)
                def _expanded210():
                    return (np.sum((_s2_x * _s2_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s2_x @ np.transpose(y))))
                _c218 = np.sum((y * y), axis=1)
                _e219 = np.sqrt(_c218)
                def _bound220(_r201, _m202):
                    _c222 = np.sum(((_s2_x[_r201, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c222)[:, None]) * _e219) + _c222[:, None] + _c218)
                _e228 = np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct203, _at206, _expanded210, _bound220)))
                _w230 = np.abs(_e228)
                def _direct235(_r233, _m234):
                    return (-2.0 * (_e196 * np.einsum("ab,ab->a", _s1_d_x[_r233, :], np.einsum("abc,ac->ab", ((_s0__given_x[_r233, :])[:, :, None] - np.transpose(_given_y, (1, 0))), ((_e228[_r233, :]) * b), optimize=True), optimize=True)))
                def _at240(_pos232):
                    _c243 = np.einsum("abc,ac->ab", ((_s0__given_x[_pos232[0], :])[:, :, None] - np.transpose(_given_y, (1, 0))), ((_e228[_pos232[0], :]) * b), optimize=True)
                    return (-2.0 * (_e196 * np.einsum("ab,ab->a", _s1_d_x[_pos232[0], :], _c243, optimize=True)))
                def _expanded245():
                    return ((2.0 * np.einsum("ab,ab->a", _s1_d_x, (_e228 @ ((b[:, None]) * y)), optimize=True) * _e196) - (2.0 * (np.sum((_s1_d_x * _s2_x), axis=1) * (_e228 @ b)) * _e196))
                _e255 = np.abs(b)
                _e256 = np.abs(y)
                def _bound257(_r233, _m234):
                    _e258 = np.abs(_s2_x[_r233, :])
                    _e259 = np.abs(_s1_d_x[_r233, :])
                    return ((2.0 * (np.sum((_e258 * _e259), axis=1) * (_e255 @ np.transpose(_w230[_r233, :]))) * _w198) + (2.0 * np.einsum("ab,ab->a", _e259, ((_w230[_r233, :]) @ ((_e255[:, None]) * _e256)), optimize=True) * _w198))
                def _floor269(_r233, _m234):
                    _e270 = np.abs(_s1_d_x[_r233, :])
                    _e274 = (2.0 * (np.sum((_e270 * (_s2_x[_r233, :])), axis=1) * (_e255 @ np.transpose(_w230[_r233, :]))) * _w198)
                    return np.abs((_e274 - (2.0 * np.einsum("ab,ab->a", _e270, ((_w230[_r233, :]) @ ((_e255[:, None]) * y)), optimize=True) * _w198)))
                return np.checked_sum((n_d, n_j, ), _m, _direct235, _at240, _expanded245, _bound257, floor=_floor269, budget=_CHUNK_ELEMENTS)
            _step282 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step282 >= n_i:
                _p194 = _chunk195(n_i, _given_x, dx, x)
            else:
                _p194 = np.concatenate([_chunk195(min(_step282, n_i - _s283), _given_x[_s283:_s283 + _step282], dx[_s283:_s283 + _step282], x[_s283:_s283 + _step282]) for _s283 in range(0, n_i, _step282)], axis=0)
            dout = _add(dout, _p194)
        if not is_zero(ds):
            def _chunk285(_m, _s0__given_x, _s1_x):
                def _direct290(_k286, _r288, _m289):
                    _e291 = ((_s0__given_x[:, _k286[0]][_r288])[:, None] - (_given_y[:, _k286[0]]))
                    return (_e291 * _e291)
                def _at293(_pos287):
                    _e294 = (_s0__given_x[_pos287[0], :] - (_given_y[_pos287[1], :]))
                    return np.sum((_e294 * _e294), axis=1)
                def _expanded297():
                    return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
                _c305 = np.sum((y * y), axis=1)
                _e306 = np.sqrt(_c305)
                def _bound307(_r288, _m289):
                    _c309 = np.sum(((_s1_x[_r288, :]) ** 2), axis=1)
                    return ((2.0 * (np.sqrt(_c309)[:, None]) * _e306) + _c309[:, None] + _c305)
                _d2313 = np.checked_sum((n_d, ), _m, _direct290, _at293, _expanded297, _bound307)
                return (((_d2313 * np.exp(((_div(-1, s)) * _d2313))) @ b) / s / s * ds)
            _step319 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step319 >= n_i:
                _p284 = _chunk285(n_i, _given_x, x)
            else:
                _p284 = np.concatenate([_chunk285(min(_step319, n_i - _s320), _given_x[_s320:_s320 + _step319], x[_s320:_s320 + _step319]) for _s320 in range(0, n_i, _step319)], axis=0)
            dout = _add(dout, _p284)
        return out, dout

    def gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift321 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        _given_x = x
        x = x - _shift321
        _given_y = y
        y = y - _shift321
        def _chunk322(_m, _s0__given_x, _s1_x):
            def _direct327(_k323, _r325, _m326):
                _e328 = ((_s0__given_x[:, _k323[0]][_r325])[:, None] - (_given_y[:, _k323[0]]))
                return (_e328 * _e328)
            def _at330(_pos324):
                _e331 = (_s0__given_x[_pos324[0], :] - (_given_y[_pos324[1], :]))
                return np.sum((_e331 * _e331), axis=1)
            def _expanded334():
                return (np.sum((_s1_x * _s1_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s1_x @ np.transpose(y))))
            _c342 = np.sum((y * y), axis=1)
            _e343 = np.sqrt(_c342)
            def _bound344(_r325, _m326):
                _c346 = np.sum(((_s1_x[_r325, :]) ** 2), axis=1)
                return ((2.0 * (np.sqrt(_c346)[:, None]) * _e343) + _c346[:, None] + _c342)
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _m, _direct327, _at330, _expanded334, _bound344)))))
        _step354 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step354 >= n_i:
            out = _chunk322(n_i, _given_x, x)
        else:
            out = np.concatenate([_chunk322(min(_step354, n_i - _s355), _given_x[_s355:_s355 + _step354], x[_s355:_s355 + _step354]) for _s355 in range(0, n_i, _step354)], axis=0)
        def gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo489 = []
            def _fused356():
                if not _memo489:
                    def _fused356_slice(_m, _s0__given_x, _s1_b_out, _s2_x):
                        _e357 = _div(1, s)
                        _w359 = np.abs(_e357)
                        def _direct364(_k360, _r362, _m363):
                            _e365 = ((_s0__given_x[:, _k360[0]][_r362])[:, None] - (_given_y[:, _k360[0]]))
                            return (_e365 * _e365)
                        def _at367(_pos361):
                            _e368 = (_s0__given_x[_pos361[0], :] - (_given_y[_pos361[1], :]))
                            return np.sum((_e368 * _e368), axis=1)
                        def _expanded371():
                            return (np.sum((_s2_x * _s2_x), axis=1)[:, None] + np.sum((y * y), axis=1) + (-2.0 * (_s2_x @ np.transpose(y))))
                        _c379 = np.sum((y * y), axis=1)
                        _e380 = np.sqrt(_c379)
                        def _bound381(_r362, _m363):
                            _c383 = np.sum(((_s2_x[_r362, :]) ** 2), axis=1)
                            return ((2.0 * (np.sqrt(_c383)[:, None]) * _e380) + _c383[:, None] + _c379)
                        _d2387 = np.checked_sum((n_d, ), _m, _direct364, _at367, _expanded371, _bound381)
                        _e389 = np.exp(((_div(-1, s)) * _d2387))
                        _w391 = np.abs(_e389)
                        def _direct396(_r394, _m395):
                            _e397 = ((_s0__given_x[_r394, :])[:, :, None] - np.transpose(_given_y, (1, 0)))
                            return (-2.0 * (_e357 * np.einsum("abc,ca->ab", _e397, ((b[:, None]) * np.transpose((((_s1_b_out[_r394])[:, None]) * (_e389[_r394, :])), (1, 0))), optimize=True)))
                        def _at401(_pos393):
                            return (-2.0 * (_e357 * ((_s1_b_out[_pos393[0]]) * ((((_s0__given_x[_pos393[0], _pos393[1]])[:, None] - np.transpose(_given_y[:, _pos393[1]], (1, 0))) * (_e389[_pos393[0], :])) @ b))))
                        def _expanded406():
                            return ((2.0 * (_e389 @ ((b[:, None]) * y)) * (_s1_b_out[:, None]) * _e357) - (2.0 * ((_e389 @ b)[:, None]) * (_s1_b_out[:, None]) * _s2_x * _e357))
                        _e413 = np.abs(b)
                        _e414 = np.abs(y)
                        def _bound415(_r394, _m395):
                            _e416 = np.abs(_s1_b_out[_r394])
                            return ((2.0 * (_e416[:, None]) * ((_w391[_r394, :]) @ ((_e413[:, None]) * _e414)) * _w359) + (2.0 * (_e416[:, None]) * np.abs(_s2_x[_r394, :]) * ((_e413 @ np.transpose(_w391[_r394, :]))[:, None]) * _w359))
                        def _floor424(_r394, _m395):
                            _e425 = np.abs(_s1_b_out[_r394])
                            return np.abs(((2.0 * (_e425[:, None]) * ((_e413 @ np.transpose(_w391[_r394, :]))[:, None]) * (_s2_x[_r394, :]) * _w359) - (2.0 * (_e425[:, None]) * ((_w391[_r394, :]) @ ((_e413[:, None]) * y)) * _w359)))
                        _r434 = np.checked_sum((n_j, ), _m, _direct396, _at401, _expanded406, _bound415, floor=_floor424, budget=_CHUNK_ELEMENTS)
                        _w436 = np.abs(_e357)
                        _w437 = np.transpose(_e389, (1, 0))
                        _w438 = np.abs(_w437)
                        def _direct443(_r441, _m442):
                            _e444 = ((_given_y[_r441, :])[:, :, None] - np.transpose(_s0__given_x, (1, 0)))
                            return (-2.0 * (_e357 * np.einsum("abc,ca->ab", _e444, ((_s1_b_out[:, None]) * np.transpose(((_w437[_r441, :]) * ((b[_r441])[:, None])), (1, 0))), optimize=True)))
                        def _at448(_pos440):
                            return (-2.0 * (_e357 * ((b[_pos440[0]]) * ((((_given_y[_pos440[0], _pos440[1]])[:, None] - np.transpose(_s0__given_x[:, _pos440[1]], (1, 0))) * (_w437[_pos440[0], :])) @ _s1_b_out))))
                        def _expanded453():
                            return ((2.0 * (_w437 @ ((_s1_b_out[:, None]) * _s2_x)) * _e357 * (b[:, None])) - (2.0 * ((_s1_b_out @ np.transpose(_w437))[:, None]) * _e357 * (b[:, None]) * y))
                        _e460 = np.abs(_s1_b_out)
                        _e461 = np.abs(_s2_x)
                        def _bound462(_r441, _m442):
                            _e463 = np.abs(b[_r441])
                            return ((2.0 * (_e463[:, None]) * ((_w438[_r441, :]) @ ((_e460[:, None]) * _e461)) * _w436) + (2.0 * (_e463[:, None]) * np.abs(y[_r441, :]) * ((_e460 @ np.transpose(_w438[_r441, :]))[:, None]) * _w436))
                        def _floor471(_r441, _m442):
                            _e472 = np.abs(b[_r441])
                            return np.abs(((2.0 * (_e472[:, None]) * ((_e460 @ np.transpose(_w438[_r441, :]))[:, None]) * (y[_r441, :]) * _w436) - (2.0 * (_e472[:, None]) * ((_w438[_r441, :]) @ ((_e460[:, None]) * _s2_x)) * _w436)))
                        _r481 = np.checked_sum((_m, ), n_j, _direct443, _at448, _expanded453, _bound462, floor=_floor471, budget=_CHUNK_ELEMENTS)
                        return (_r434, _r481, (_s1_b_out @ _e389), (_div(_div((b @ (np.transpose((_d2387 * _e389)) @ _s1_b_out)), s), s)),)
                    _step490 = max(1, _CHUNK_ELEMENTS // max(1, n_j, n_j, n_j, n_j))
                    if _step490 >= n_i:
                        _memo489.append(_fused356_slice(n_i, _given_x, dout, x))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, None, None, None)]
                        for _s491 in range(0, n_i, _step490):
                            _part492 = _fused356_slice(min(_step490, n_i - _s491), _given_x[_s491:_s491 + _step490], dout[_s491:_s491 + _step490], x[_s491:_s491 + _step490])
                            for k, axis in enumerate((0, None, None, None)):
                                if axis is not None:
                                    acc[k].append(_part492[k])
                                else:
                                    acc[k] = _part492[k] if acc[k] is None else acc[k] + _part492[k]
                        _memo489.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, None, None, None))))
                return _memo489[0]
            def _pb_x_493():
                return _fused356()[0]
            def _pb_y_494():
                return _fused356()[1]
            def _pb_b_495():
                return _fused356()[2]
            def _pb_s_496():
                return _fused356()[3]
            return (_NO, Thunk(_pb_x_493), Thunk(_pb_y_494), Thunk(_pb_b_495), Thunk(_pb_s_496))
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
                _w111 = np.abs(_e109)
                def _direct116(_k112, _r114, _m115):
                    _e117 = ((_s1__given_x[:, :, _k112[0]][_r114, :])[:, :, None] - ((_s2__given_y[:, :, _k112[0]][_r114, :])[:, None]))
                    return (_e117 * _e117)
                def _at119(_pos113):
                    _e120 = (_s1__given_x[_pos113[0], _pos113[1], :] - (_s2__given_y[_pos113[0], _pos113[2], :]))
                    return np.sum((_e120 * _e120), axis=1)
                def _expanded123():
                    return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                def _bound130(_r114, _m115):
                    _c132 = np.sum(((_s5_x[_r114, :, :]) ** 2), axis=2)
                    _e133 = np.sqrt(_c132)
                    _c135 = np.sum(((_s6_y[_r114, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e133[:, :, None]) * (np.sqrt(_c135)[:, None])) + _c132[:, :, None] + _c135[:, None])
                _e141 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct116, _at119, _expanded123, _bound130))))
                _w143 = np.abs(_e141)
                def _direct148(_r146, _m147):
                    _e149 = ((_s2__given_y[_r146, :, :])[:, :, :, None] - (np.transpose(_s1__given_x[_r146, :, :], (0, 2, 1))[:, None]))
                    return (-2.0 * np.einsum("abc,acb->ab", _e141[_r146, :, :], np.einsum("abcd,abc->abd", _e149, ((_s4_d_y[_r146, :, :]) * (((_s3_b[_r146, :]) * ((_e109[_r146])[:, None]))[:, :, None])), optimize=True), optimize=True))
                def _at154(_pos145):
                    _e156 = ((_s2__given_y[_pos145[0], :, :] - ((_s1__given_x[_pos145[0], _pos145[1], :])[:, None])) * (_s4_d_y[_pos145[0], :, :]))
                    return (-2.0 * ((_e109[_pos145[0]]) * np.einsum("ab,ab->a", np.sum(_e156, axis=2), ((_s3_b[_pos145[0], :]) * (_e141[_pos145[0], _pos145[1], :])), optimize=True)))
                def _expanded160():
                    _e164 = (2.0 * np.einsum("abc,abc->ab", _s5_x, np.einsum("abc,acd->abd", _e141, ((_s3_b[:, :, None]) * _s4_d_y), optimize=True), optimize=True) * (_e109[:, None]))
                    return (_e164 - (2.0 * np.einsum("abc,ac->ab", _e141, (_s3_b * np.sum((_s4_d_y * _s6_y), axis=2)), optimize=True) * (_e109[:, None])))
                def _bound170(_r146, _m147):
                    _e171 = np.abs(_s5_x[_r146, :, :])
                    _e172 = np.abs(_s3_b[_r146, :])
                    _e173 = np.abs(_s4_d_y[_r146, :, :])
                    _e177 = (2.0 * np.einsum("abc,abc->ab", _e171, np.einsum("abc,acd->abd", _w143[_r146, :, :], ((_e172[:, :, None]) * _e173), optimize=True), optimize=True) * ((_w111[_r146])[:, None]))
                    return (_e177 + (2.0 * np.einsum("abc,ac->ab", _w143[_r146, :, :], (_e172 * np.sum((_e173 * np.abs(_s6_y[_r146, :, :])), axis=2)), optimize=True) * ((_w111[_r146])[:, None])))
                def _floor184(_r146, _m147):
                    _e185 = np.abs(_s3_b[_r146, :])
                    _e186 = np.abs(_s4_d_y[_r146, :, :])
                    _e190 = (2.0 * np.einsum("abc,ac->ab", _w143[_r146, :, :], (_e185 * np.sum((_e186 * (_s6_y[_r146, :, :])), axis=2)), optimize=True) * ((_w111[_r146])[:, None]))
                    return np.abs((_e190 - (2.0 * np.einsum("abc,abc->ab", _s5_x[_r146, :, :], np.einsum("abc,acd->abd", _w143[_r146, :, :], ((_e185[:, :, None]) * _e186), optimize=True), optimize=True) * ((_w111[_r146])[:, None]))))
                return np.checked_sum((n_j, n_d, ), _m, _direct148, _at154, _expanded160, _bound170, floor=_floor184, budget=_CHUNK_ELEMENTS)
            _step198 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step198 >= n__batch:
                _p107 = _chunk108(n__batch, s, _given_x, _given_y, b, dy_, x, y)
            else:
                _p107 = np.concatenate([_chunk108(min(_step198, n__batch - _s199), s[_s199:_s199 + _step198], _given_x[_s199:_s199 + _step198], _given_y[_s199:_s199 + _step198], b[_s199:_s199 + _step198], dy_[_s199:_s199 + _step198], x[_s199:_s199 + _step198], y[_s199:_s199 + _step198]) for _s199 in range(0, n__batch, _step198)], axis=0)
            dout = _add(dout, _p107)
        if not is_zero(dx):
            def _chunk201(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_b, _s4_d_x, _s5_x, _s6_y):
                _e202 = (1 / _s0_s)
                _w204 = np.abs(_e202)
                def _direct209(_k205, _r207, _m208):
                    _e210 = ((_s2__given_x[:, :, _k205[0]][_r207, :])[:, :, None] - ((_s1__given_y[:, :, _k205[0]][_r207, :])[:, None]))
                    return (_e210 * _e210)
                def _at212(_pos206):
                    _e213 = (_s2__given_x[_pos206[0], _pos206[1], :] - (_s1__given_y[_pos206[0], _pos206[2], :]))
                    return np.sum((_e213 * _e213), axis=1)
                def _expanded216():
                    return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                def _bound223(_r207, _m208):
                    _c225 = np.sum(((_s5_x[_r207, :, :]) ** 2), axis=2)
                    _e226 = np.sqrt(_c225)
                    _c228 = np.sum(((_s6_y[_r207, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e226[:, :, None]) * (np.sqrt(_c228)[:, None])) + _c225[:, :, None] + _c228[:, None])
                _e234 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct209, _at212, _expanded216, _bound223))))
                _w236 = np.abs(_e234)
                def _direct241(_r239, _m240):
                    _e242 = ((_s2__given_x[_r239, :, :])[:, :, :, None] - (np.transpose(_s1__given_y[_r239, :, :], (0, 2, 1))[:, None]))
                    return (-2.0 * np.einsum("abc,abc->ab", _s4_d_x[_r239, :, :], np.einsum("abcd,abd->abc", _e242, ((_e234[_r239, :, :]) * (((_s3_b[_r239, :]) * ((_e202[_r239])[:, None]))[:, None])), optimize=True), optimize=True))
                def _at247(_pos238):
                    _e248 = ((_s2__given_x[_pos238[0], _pos238[1], :])[:, :, None] - np.transpose(_s1__given_y[_pos238[0], :, :], (0, 2, 1)))
                    _e249 = ((_s3_b[_pos238[0], :]) * (_e234[_pos238[0], _pos238[1], :]))
                    return (-2.0 * np.einsum("ab,ab->a", ((_s4_d_x[_pos238[0], _pos238[1], :]) * ((_e202[_pos238[0]])[:, None])), np.einsum("abc,ac->ab", _e248, _e249, optimize=True), optimize=True))
                def _expanded253():
                    _e257 = (2.0 * np.einsum("abc,abc->ab", _s4_d_x, np.einsum("abc,acd->abd", _e234, ((_s3_b[:, :, None]) * _s6_y), optimize=True), optimize=True) * (_e202[:, None]))
                    return (_e257 - (2.0 * (np.sum((_s4_d_x * _s5_x), axis=2) * np.einsum("ab,acb->ac", _s3_b, _e234, optimize=True)) * (_e202[:, None])))
                def _bound263(_r239, _m240):
                    _e264 = np.abs(_s5_x[_r239, :, :])
                    _e265 = np.abs(_s4_d_x[_r239, :, :])
                    _e266 = (_e264 * _e265)
                    _e267 = np.abs(_s3_b[_r239, :])
                    _e270 = (2.0 * (np.sum(_e266, axis=2) * np.einsum("ab,acb->ac", _e267, _w236[_r239, :, :], optimize=True)) * ((_w204[_r239])[:, None]))
                    return (_e270 + (2.0 * np.einsum("abc,abc->ab", _e265, np.einsum("abc,acd->abd", _w236[_r239, :, :], ((_e267[:, :, None]) * np.abs(_s6_y[_r239, :, :])), optimize=True), optimize=True) * ((_w204[_r239])[:, None])))
                def _floor277(_r239, _m240):
                    _e278 = np.abs(_s3_b[_r239, :])
                    _e279 = np.abs(_s4_d_x[_r239, :, :])
                    _e283 = (2.0 * np.einsum("abc,abc->ab", _e279, np.einsum("abc,acd->abd", _w236[_r239, :, :], ((_e278[:, :, None]) * (_s6_y[_r239, :, :])), optimize=True), optimize=True) * ((_w204[_r239])[:, None]))
                    return np.abs((_e283 - (2.0 * (np.sum((_e279 * (_s5_x[_r239, :, :])), axis=2) * np.einsum("ab,acb->ac", _e278, _w236[_r239, :, :], optimize=True)) * ((_w204[_r239])[:, None]))))
                return np.checked_sum((n_d, n_j, ), _m, _direct241, _at247, _expanded253, _bound263, floor=_floor277, budget=_CHUNK_ELEMENTS)
            _step291 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step291 >= n__batch:
                _p200 = _chunk201(n__batch, s, _given_y, _given_x, b, dx, x, y)
            else:
                _p200 = np.concatenate([_chunk201(min(_step291, n__batch - _s292), s[_s292:_s292 + _step291], _given_y[_s292:_s292 + _step291], _given_x[_s292:_s292 + _step291], b[_s292:_s292 + _step291], dx[_s292:_s292 + _step291], x[_s292:_s292 + _step291], y[_s292:_s292 + _step291]) for _s292 in range(0, n__batch, _step291)], axis=0)
            dout = _add(dout, _p200)
        if not is_zero(ds):
            def _chunk294(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_x, _s4_y, _s5_b, _s6_d_s):
                _e296 = ((1 / (_s0_s * _s0_s)) * _s6_d_s)
                def _direct301(_k297, _r299, _m300):
                    _e302 = ((_s2__given_x[:, :, _k297[0]][_r299, :])[:, :, None] - ((_s1__given_y[:, :, _k297[0]][_r299, :])[:, None]))
                    return (_e302 * _e302)
                def _at304(_pos298):
                    _e305 = (_s2__given_x[_pos298[0], _pos298[1], :] - (_s1__given_y[_pos298[0], _pos298[2], :]))
                    return np.sum((_e305 * _e305), axis=1)
                def _expanded308():
                    return (np.sum((_s3_x * _s3_x), axis=2)[:, :, None] + np.sum((_s4_y * _s4_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s3_x, _s4_y, optimize=True)))
                def _bound315(_r299, _m300):
                    _c317 = np.sum(((_s3_x[_r299, :, :]) ** 2), axis=2)
                    _e318 = np.sqrt(_c317)
                    _c320 = np.sum(((_s4_y[_r299, :, :]) ** 2), axis=2)
                    return ((2.0 * (_e318[:, :, None]) * (np.sqrt(_c320)[:, None])) + _c317[:, :, None] + _c320[:, None])
                _d2324 = np.checked_sum((n_d, ), _m, _direct301, _at304, _expanded308, _bound315)
                return np.einsum("abc,ac->ab", (_d2324 * np.exp((-(1 / (_s0_s[:, None, None]) * _d2324)))), ((_e296[:, None]) * _s5_b), optimize=True)
            _step330 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step330 >= n__batch:
                _p293 = _chunk294(n__batch, s, _given_y, _given_x, x, y, b, ds)
            else:
                _p293 = np.concatenate([_chunk294(min(_step330, n__batch - _s331), s[_s331:_s331 + _step330], _given_y[_s331:_s331 + _step330], _given_x[_s331:_s331 + _step330], x[_s331:_s331 + _step330], y[_s331:_s331 + _step330], b[_s331:_s331 + _step330], ds[_s331:_s331 + _step330]) for _s331 in range(0, n__batch, _step330)], axis=0)
            dout = _add(dout, _p293)
        return out, dout

    def _op___batched_gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift332 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        _given_x = x
        x = x - _shift332[:, None, None]
        _given_y = y
        y = y - _shift332[:, None, None]
        _shift333 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        _given_x = x
        x = x - _shift333
        _given_y = y
        y = y - _shift333
        def _chunk334(_m, _s0_b, _s1_s, _s2__given_y, _s3__given_x, _s4_x, _s5_y):
            def _direct339(_k335, _r337, _m338):
                _e340 = ((_s3__given_x[:, :, _k335[0]][_r337, :])[:, :, None] - ((_s2__given_y[:, :, _k335[0]][_r337, :])[:, None]))
                return (_e340 * _e340)
            def _at342(_pos336):
                _e343 = (_s3__given_x[_pos336[0], _pos336[1], :] - (_s2__given_y[_pos336[0], _pos336[2], :]))
                return np.sum((_e343 * _e343), axis=1)
            def _expanded346():
                return (np.sum((_s4_x * _s4_x), axis=2)[:, :, None] + np.sum((_s5_y * _s5_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s4_x, _s5_y, optimize=True)))
            def _bound353(_r337, _m338):
                _c355 = np.sum(((_s4_x[_r337, :, :]) ** 2), axis=2)
                _e356 = np.sqrt(_c355)
                _c358 = np.sum(((_s5_y[_r337, :, :]) ** 2), axis=2)
                return ((2.0 * (_e356[:, :, None]) * (np.sqrt(_c358)[:, None])) + _c355[:, :, None] + _c358[:, None])
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _m, _direct339, _at342, _expanded346, _bound353)))), optimize=True)
        _step366 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step366 >= n__batch:
            out = _chunk334(n__batch, b, s, _given_y, _given_x, x, y)
        else:
            out = np.concatenate([_chunk334(min(_step366, n__batch - _s367), b[_s367:_s367 + _step366], s[_s367:_s367 + _step366], _given_y[_s367:_s367 + _step366], _given_x[_s367:_s367 + _step366], x[_s367:_s367 + _step366], y[_s367:_s367 + _step366]) for _s367 in range(0, n__batch, _step366)], axis=0)
        def _op___batched_gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo506 = []
            def _fused368():
                if not _memo506:
                    def _fused368_slice(_m, _s0_s, _s1__given_y, _s2__given_x, _s3_b, _s4_b_out, _s5_x, _s6_y):
                        _e369 = (1 / _s0_s)
                        _w371 = np.abs(_e369)
                        def _direct376(_k372, _r374, _m375):
                            _e377 = ((_s2__given_x[:, :, _k372[0]][_r374, :])[:, :, None] - ((_s1__given_y[:, :, _k372[0]][_r374, :])[:, None]))
                            return (_e377 * _e377)
                        def _at379(_pos373):
                            _e380 = (_s2__given_x[_pos373[0], _pos373[1], :] - (_s1__given_y[_pos373[0], _pos373[2], :]))
                            return np.sum((_e380 * _e380), axis=1)
                        def _expanded383():
                            return (np.sum((_s5_x * _s5_x), axis=2)[:, :, None] + np.sum((_s6_y * _s6_y), axis=2)[:, None] + (-2.0 * np.einsum("abc,adc->abd", _s5_x, _s6_y, optimize=True)))
                        def _bound390(_r374, _m375):
                            _c392 = np.sum(((_s5_x[_r374, :, :]) ** 2), axis=2)
                            _e393 = np.sqrt(_c392)
                            _c395 = np.sum(((_s6_y[_r374, :, :]) ** 2), axis=2)
                            return ((2.0 * (_e393[:, :, None]) * (np.sqrt(_c395)[:, None])) + _c392[:, :, None] + _c395[:, None])
                        _d2399 = np.checked_sum((n_d, ), _m, _direct376, _at379, _expanded383, _bound390)
                        _e401 = np.exp((-(1 / (_s0_s[:, None, None]) * _d2399)))
                        _w403 = np.abs(_e401)
                        def _direct408(_r406, _m407):
                            _e409 = ((_s2__given_x[_r406, :, :])[:, :, :, None] - (np.transpose(_s1__given_y[_r406, :, :], (0, 2, 1))[:, None]))
                            _c412 = (((_s3_b[_r406, :]) * ((_e369[_r406])[:, None]))[:, :, None]) * np.transpose((((_s4_b_out[_r406, :])[:, :, None]) * (_e401[_r406, :, :])), (0, 2, 1))
                            return (-2.0 * np.einsum("abcd,adb->abc", _e409, _c412, optimize=True))
                        def _at414(_pos405):
                            _e416 = (((_s2__given_x[_pos405[0], _pos405[1], _pos405[2]])[:, None] - (_s1__given_y[_pos405[0], :, _pos405[2]])) * (_s3_b[_pos405[0], :]) * (_e401[_pos405[0], _pos405[1], :]))
                            return (-2.0 * (np.sum(_e416, axis=1) * ((_s4_b_out[_pos405[0], _pos405[1]]) * (_e369[_pos405[0]]))))
                        def _expanded419():
                            _e422 = (2.0 * np.einsum("abc,acd->abd", _e401, ((_s3_b[:, :, None]) * _s6_y), optimize=True) * (_s4_b_out[:, :, None]) * (_e369[:, None, None]))
                            return (_e422 - (2.0 * (np.einsum("ab,acb->ac", _s3_b, _e401, optimize=True)[:, :, None]) * (_s4_b_out[:, :, None]) * _s5_x * (_e369[:, None, None])))
                        def _bound426(_r406, _m407):
                            _e427 = np.abs(_s4_b_out[_r406, :])
                            _e428 = np.abs(_s6_y[_r406, :, :])
                            _e429 = np.abs(_s3_b[_r406, :])
                            _e432 = (2.0 * (_e427[:, :, None]) * np.einsum("abc,acd->abd", _w403[_r406, :, :], (_e428 * (_e429[:, :, None])), optimize=True) * ((_w371[_r406])[:, None, None]))
                            return (_e432 + (2.0 * (_e427[:, :, None]) * np.abs(_s5_x[_r406, :, :]) * (np.einsum("ab,acb->ac", _e429, _w403[_r406, :, :], optimize=True)[:, :, None]) * ((_w371[_r406])[:, None, None])))
                        def _floor437(_r406, _m407):
                            _e438 = np.abs(_s4_b_out[_r406, :])
                            _e439 = np.abs(_s3_b[_r406, :])
                            _e441 = (2.0 * (_e438[:, :, None]) * (np.einsum("ab,acb->ac", _e439, _w403[_r406, :, :], optimize=True)[:, :, None]) * (_s5_x[_r406, :, :]) * ((_w371[_r406])[:, None, None]))
                            return np.abs((_e441 - (2.0 * (_e438[:, :, None]) * np.einsum("abc,acd->abd", _w403[_r406, :, :], ((_e439[:, :, None]) * (_s6_y[_r406, :, :])), optimize=True) * ((_w371[_r406])[:, None, None]))))
                        _r448 = np.checked_sum((n_j, ), _m, _direct408, _at414, _expanded419, _bound426, floor=_floor437, budget=_CHUNK_ELEMENTS)
                        _w450 = np.abs(_e369)
                        _w451 = np.transpose(_e401, (0, 2, 1))
                        _w452 = np.abs(_w451)
                        def _direct457(_r455, _m456):
                            _e458 = ((_s1__given_y[_r455, :, :])[:, :, :, None] - (np.transpose(_s2__given_x[_r455, :, :], (0, 2, 1))[:, None]))
                            _c459 = (_s3_b[_r455, :]) * ((_e369[_r455])[:, None])
                            return (-2.0 * ((_c459[:, :, None]) * np.einsum("abcd,adb->abc", _e458, (((_s4_b_out[_r455, :])[:, :, None]) * np.transpose(_w451[_r455, :, :], (0, 2, 1))), optimize=True)))
                        def _at463(_pos454):
                            _e465 = (((_s1__given_y[_pos454[0], _pos454[1], _pos454[2]])[:, None] - (_s2__given_x[_pos454[0], :, _pos454[2]])) * (_s4_b_out[_pos454[0], :]) * (_w451[_pos454[0], _pos454[1], :]))
                            return (-2.0 * (np.sum(_e465, axis=1) * ((_s3_b[_pos454[0], _pos454[1]]) * (_e369[_pos454[0]]))))
                        def _expanded468():
                            _e471 = (2.0 * np.einsum("abc,acd->abd", _w451, ((_s4_b_out[:, :, None]) * _s5_x), optimize=True) * (_s3_b[:, :, None]) * (_e369[:, None, None]))
                            return (_e471 - (2.0 * (np.einsum("ab,acb->ac", _s4_b_out, _w451, optimize=True)[:, :, None]) * (_s3_b[:, :, None]) * _s6_y * (_e369[:, None, None])))
                        def _bound475(_r455, _m456):
                            _e476 = np.abs(_s3_b[_r455, :])
                            _e477 = np.abs(_s5_x[_r455, :, :])
                            _e478 = np.abs(_s4_b_out[_r455, :])
                            _e481 = (2.0 * (_e476[:, :, None]) * np.einsum("abc,acd->abd", _w452[_r455, :, :], (_e477 * (_e478[:, :, None])), optimize=True) * ((_w450[_r455])[:, None, None]))
                            return (_e481 + (2.0 * (_e476[:, :, None]) * np.abs(_s6_y[_r455, :, :]) * (np.einsum("ab,acb->ac", _e478, _w452[_r455, :, :], optimize=True)[:, :, None]) * ((_w450[_r455])[:, None, None])))
                        def _floor486(_r455, _m456):
                            _e487 = np.abs(_s3_b[_r455, :])
                            _e488 = np.abs(_s4_b_out[_r455, :])
                            _e490 = (2.0 * (_e487[:, :, None]) * (np.einsum("ab,acb->ac", _e488, _w452[_r455, :, :], optimize=True)[:, :, None]) * (_s6_y[_r455, :, :]) * ((_w450[_r455])[:, None, None]))
                            return np.abs((_e490 - (2.0 * (_e487[:, :, None]) * np.einsum("abc,acd->abd", _w452[_r455, :, :], ((_e488[:, :, None]) * (_s5_x[_r455, :, :])), optimize=True) * ((_w450[_r455])[:, None, None]))))
                        _r497 = np.checked_sum((n_i, ), _m, _direct457, _at463, _expanded468, _bound475, floor=_floor486, budget=_CHUNK_ELEMENTS)
                        _r499 = np.einsum("ab,abc->ac", _s4_b_out, _e401, optimize=True)
                        return (_r448, _r497, _r499, np.einsum("ab,ab->a", (((1 / (_s0_s * _s0_s))[:, None]) * _s3_b), np.einsum("abc,ab->ac", (_d2399 * _e401), _s4_b_out, optimize=True), optimize=True),)
                    _step507 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j, n_i * n_j, n_i * n_j, n_i * n_j))
                    if _step507 >= n__batch:
                        _memo506.append(_fused368_slice(n__batch, s, _given_y, _given_x, b, dout, x, y))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, 0, 0, 0)]
                        for _s508 in range(0, n__batch, _step507):
                            _part509 = _fused368_slice(min(_step507, n__batch - _s508), s[_s508:_s508 + _step507], _given_y[_s508:_s508 + _step507], _given_x[_s508:_s508 + _step507], b[_s508:_s508 + _step507], dout[_s508:_s508 + _step507], x[_s508:_s508 + _step507], y[_s508:_s508 + _step507])
                            for k, axis in enumerate((0, 0, 0, 0)):
                                if axis is not None:
                                    acc[k].append(_part509[k])
                                else:
                                    acc[k] = _part509[k] if acc[k] is None else acc[k] + _part509[k]
                        _memo506.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, 0, 0, 0))))
                return _memo506[0]
            def _pb_x_510():
                return _fused368()[0]
            def _pb_y_511():
                return _fused368()[1]
            def _pb_b_512():
                return _fused368()[2]
            def _pb_s_513():
                return _fused368()[3]
            return (_NO, Thunk(_pb_x_510), Thunk(_pb_y_511), Thunk(_pb_b_512), Thunk(_pb_s_513))
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
                                'text': 'dy = (softmax(x) ⊙ dx)ᵀ·𝟙',
                                'latex': '\\mathrm{d}y = (\\operatorname{softmax}\\left(x\\right) \\odot '
                                         '\\mathrm{d}x)^{\\top} \\mathbf{1}',
                                'matrix': 'dy = (softmax(x) ⊙ dx)ᵀ·𝟙',
                                'index': 'dy = Σ_k dx[k]·exp(x[k])/Σ_i′(exp(x[i′]))',
                                'index_latex': '\\mathrm{d}y = \\sum_{k} \\frac{\\mathrm{d}x_{k} '
                                               "e^{x_{k}}}{\\sum_{i'} e^{x_{i'}}}"},
                               {'target': 'softmax',
                                'text': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                'latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                         'e^{u_{k}}} \\text{, along the last index}',
                                'matrix': None,
                                'index': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                'index_latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                               'e^{u_{k}}} \\text{, along the last index}',
                                'where': True}],
               'pullback': [{'target': 'dx',
                             'text': 'dx = dy·softmax(x)',
                             'latex': '\\mathrm{d}x = \\mathrm{d}y \\operatorname{softmax}\\left(x\\right)',
                             'matrix': 'dx = dy·softmax(x)',
                             'index': 'dx[i] = dy·exp(x[i])/Σ_i′(exp(x[i′]))',
                             'index_latex': "\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y e^{x_{i}}}{\\sum_{i'} "
                                            "e^{x_{i'}}}"},
                            {'target': 'softmax',
                             'text': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                             'latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                      'e^{u_{k}}} \\text{, along the last index}',
                             'matrix': None,
                             'index': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                             'index_latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                            'e^{u_{k}}} \\text{, along the last index}',
                             'where': True}],
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
                          'index': 'dL = 2·(Σ_kl (-p[k,l] + t[k,l])·dt[k,l]/(size(b)·size(o)) + Σ_kl (p[k,l] '
                                   '- t[k,l])·dp[k,l]/(size(b)·size(o)))',
                          'index_latex': '\\mathrm{d}L = 2 \\left(\\sum_{kl} \\frac{\\left(- p_{kl} + '
                                         't_{kl}\\right) \\mathrm{d}t_{kl}}{\\lvert b \\rvert \\lvert o '
                                         '\\rvert} + \\sum_{kl} \\frac{\\left(p_{kl} - t_{kl}\\right) '
                                         '\\mathrm{d}p_{kl}}{\\lvert b \\rvert \\lvert o \\rvert}\\right)'}],
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
                                    'text': 'dlse = (softmax(z) ⊙ dz)·𝟙',
                                    'latex': '\\mathrm{d}\\mathit{lse} = '
                                             '(\\operatorname{softmax}\\left(z\\right) \\odot \\mathrm{d}z) '
                                             '\\mathbf{1}',
                                    'matrix': 'dlse = (softmax(z) ⊙ dz)·𝟙',
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
                                                   '\\mathrm{d}t_{kl}}{\\lvert b \\rvert}'},
                                   {'target': 'softmax',
                                    'text': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                    'latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                             'e^{u_{k}}} \\text{, along the last index}',
                                    'matrix': None,
                                    'index': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                    'index_latex': '\\operatorname{softmax}(u)_{i} = '
                                                   '\\frac{e^{u_{i}}}{\\sum_{k} e^{u_{k}}} \\text{, along '
                                                   'the last index}',
                                    'where': True}],
                   'pullback': [{'target': 'dz',
                                 'text': 'dz = dL·(softmax(z) ⊙ (t·𝟙·𝟙ᵀ) - t)/size(b)',
                                 'latex': '\\mathrm{d}z = \\frac{\\mathrm{d}L '
                                          '\\left(\\left(\\operatorname{softmax}\\left(z\\right) \\odot '
                                          '\\left(t \\mathbf{1} \\mathbf{1}^{\\top}\\right)\\right) - '
                                          't\\right)}{\\lvert b \\rvert}',
                                 'matrix': 'dz = dL·(softmax(z) ⊙ (t·𝟙·𝟙ᵀ) - t)/size(b)',
                                 'index': 'dz[b,c] = -dL·t[b,c]/size(b) + Σ_k '
                                          'dL·t[b,k]·exp(z[b,c])/(size(b)·Σ_c′(exp(z[b,c′])))',
                                 'index_latex': '\\mathrm{d}z_{bc} = - \\frac{\\mathrm{d}L t_{bc}}{\\lvert b '
                                                '\\rvert} + \\sum_{k} \\frac{\\mathrm{d}L t_{bk} '
                                                "e^{z_{bc}}}{\\lvert b \\rvert \\sum_{c'} e^{z_{b,c'}}}"},
                                {'target': 'dt',
                                 'text': 'dt = dL·(lse·𝟙ᵀ - z)/size(b)',
                                 'latex': '\\mathrm{d}t = \\frac{\\mathrm{d}L (\\mathit{lse} '
                                          '\\mathbf{1}^{\\top} - z)}{\\lvert b \\rvert}',
                                 'matrix': 'dt = dL·(lse·𝟙ᵀ - z)/size(b)',
                                 'index': 'dt[b,c] = (lse[b] - z[b,c])·dL/size(b)',
                                 'index_latex': '\\mathrm{d}t_{bc} = \\frac{\\left({\\mathit{lse}}_{b} - '
                                                'z_{bc}\\right) \\mathrm{d}L}{\\lvert b \\rvert}'},
                                {'target': 'softmax',
                                 'text': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                 'latex': '\\operatorname{softmax}(u)_{i} = \\frac{e^{u_{i}}}{\\sum_{k} '
                                          'e^{u_{k}}} \\text{, along the last index}',
                                 'matrix': None,
                                 'index': 'softmax(u)[i] = exp(u[i])/Σ_k exp(u[k]), along the last index',
                                 'index_latex': '\\operatorname{softmax}(u)_{i} = '
                                                '\\frac{e^{u_{i}}}{\\sum_{k} e^{u_{k}}} \\text{, along the '
                                                'last index}',
                                 'where': True}],
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
