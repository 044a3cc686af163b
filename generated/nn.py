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
        x = x - _shift0
        y = y - _shift0
        def _chunk1(_m, _s0_x):
            def _direct4(_k2):
                _e5 = ((_s0_x[:, _k2[0]])[:, None] - (y[:, _k2[0]]))
                return (_e5 * _e5)
            def _at7(_pos3):
                _e8 = (_s0_x[_pos3[0], :] - (y[_pos3[1], :]))
                return np.sum((_e8 * _e8), axis=1)
            def _expanded11():
                _c13 = np.sum((_s0_x * _s0_x), axis=1)
                _c15 = np.sum((y * y), axis=1)
                return ((_c13[:, None] + _c15 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c13)[:, None]) * np.sqrt(_c15)) + _c13[:, None] + _c15))
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct4, _at7, _expanded11)))))
        _step26 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step26 >= n_i:
            out = _chunk1(n_i, x)
        else:
            out = np.concatenate([_chunk1(min(_step26, n_i - _s27), x[_s27:_s27 + _step26]) for _s27 in range(0, n_i, _step26)], axis=0)
        return out

    def gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy_, db, ds = tangents
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift28 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        x = x - _shift28
        y = y - _shift28
        def _chunk29(_m, _s0_x):
            def _direct32(_k30):
                _e33 = ((_s0_x[:, _k30[0]])[:, None] - (y[:, _k30[0]]))
                return (_e33 * _e33)
            def _at35(_pos31):
                _e36 = (_s0_x[_pos31[0], :] - (y[_pos31[1], :]))
                return np.sum((_e36 * _e36), axis=1)
            def _expanded39():
                _c41 = np.sum((_s0_x * _s0_x), axis=1)
                _c43 = np.sum((y * y), axis=1)
                return ((_c41[:, None] + _c43 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c41)[:, None]) * np.sqrt(_c43)) + _c41[:, None] + _c43))
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct32, _at35, _expanded39)))))
        _step54 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step54 >= n_i:
            out = _chunk29(n_i, x)
        else:
            out = np.concatenate([_chunk29(min(_step54, n_i - _s55), x[_s55:_s55 + _step54]) for _s55 in range(0, n_i, _step54)], axis=0)
        dout = _ZERO
        if not is_zero(db):
            def _chunk57(_m, _s0_x):
                def _direct60(_k58):
                    _e61 = ((_s0_x[:, _k58[0]])[:, None] - (y[:, _k58[0]]))
                    return (_e61 * _e61)
                def _at63(_pos59):
                    _e64 = (_s0_x[_pos59[0], :] - (y[_pos59[1], :]))
                    return np.sum((_e64 * _e64), axis=1)
                def _expanded67():
                    _c69 = np.sum((_s0_x * _s0_x), axis=1)
                    _c71 = np.sum((y * y), axis=1)
                    return ((_c69[:, None] + _c71 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c69)[:, None]) * np.sqrt(_c71)) + _c69[:, None] + _c71))
                return (db @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct60, _at63, _expanded67)))))
            _step82 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step82 >= n_i:
                _p56 = _chunk57(n_i, x)
            else:
                _p56 = np.concatenate([_chunk57(min(_step82, n_i - _s83), x[_s83:_s83 + _step82]) for _s83 in range(0, n_i, _step82)], axis=0)
            dout = _add(dout, _p56)
        if not is_zero(dy_):
            def _chunk85(_m, _s0_x):
                _e86 = _div(1, s)
                _e87 = (dy_ * y)
                def _direct90(_k88):
                    _e91 = ((_s0_x[:, _k88[0]])[:, None] - (y[:, _k88[0]]))
                    return (_e91 * _e91)
                def _at93(_pos89):
                    _e94 = (_s0_x[_pos89[0], :] - (y[_pos89[1], :]))
                    return np.sum((_e94 * _e94), axis=1)
                def _expanded97():
                    _c99 = np.sum((_s0_x * _s0_x), axis=1)
                    _c101 = np.sum((y * y), axis=1)
                    return ((_c99[:, None] + _c101 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c99)[:, None]) * np.sqrt(_c101)) + _c99[:, None] + _c101))
                _e110 = np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct90, _at93, _expanded97)))
                return ((-2.0 * (_e86 * (_e110 @ (b * np.sum(_e87, axis=1))))) + (2.0 * (_e86 * np.einsum("ab,ab->a", _s0_x, (_e110 @ ((b[:, None]) * dy_)), optimize=True))))
            _step117 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step117 >= n_i:
                _p84 = _chunk85(n_i, x)
            else:
                _p84 = np.concatenate([_chunk85(min(_step117, n_i - _s118), x[_s118:_s118 + _step117]) for _s118 in range(0, n_i, _step117)], axis=0)
            dout = _add(dout, _p84)
        if not is_zero(dx):
            def _chunk120(_m, _s0_d_x, _s1_x):
                _e121 = _div(1, s)
                _e122 = (_s0_d_x * _s1_x)
                def _direct125(_k123):
                    _e126 = ((_s1_x[:, _k123[0]])[:, None] - (y[:, _k123[0]]))
                    return (_e126 * _e126)
                def _at128(_pos124):
                    _e129 = (_s1_x[_pos124[0], :] - (y[_pos124[1], :]))
                    return np.sum((_e129 * _e129), axis=1)
                def _expanded132():
                    _c134 = np.sum((_s1_x * _s1_x), axis=1)
                    _c136 = np.sum((y * y), axis=1)
                    return ((_c134[:, None] + _c136 + (-2.0 * (_s1_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c134)[:, None]) * np.sqrt(_c136)) + _c134[:, None] + _c136))
                _e145 = np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct125, _at128, _expanded132)))
                return ((-2.0 * (_e121 * (np.sum(_e122, axis=1) * (b @ np.transpose(_e145))))) + (2.0 * (_e121 * np.einsum("ab,ab->a", _s0_d_x, (_e145 @ ((b[:, None]) * y)), optimize=True))))
            _step152 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step152 >= n_i:
                _p119 = _chunk120(n_i, dx, x)
            else:
                _p119 = np.concatenate([_chunk120(min(_step152, n_i - _s153), dx[_s153:_s153 + _step152], x[_s153:_s153 + _step152]) for _s153 in range(0, n_i, _step152)], axis=0)
            dout = _add(dout, _p119)
        if not is_zero(ds):
            def _chunk155(_m, _s0_x):
                def _direct158(_k156):
                    _e159 = ((_s0_x[:, _k156[0]])[:, None] - (y[:, _k156[0]]))
                    return (_e159 * _e159)
                def _at161(_pos157):
                    _e162 = (_s0_x[_pos157[0], :] - (y[_pos157[1], :]))
                    return np.sum((_e162 * _e162), axis=1)
                def _expanded165():
                    _c167 = np.sum((_s0_x * _s0_x), axis=1)
                    _c169 = np.sum((y * y), axis=1)
                    return ((_c167[:, None] + _c169 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c167)[:, None]) * np.sqrt(_c169)) + _c167[:, None] + _c169))
                _d2176 = np.checked_sum((n_d, ), _direct158, _at161, _expanded165)
                return (((_d2176 * np.exp(((_div(-1, s)) * _d2176))) @ b) / s / s * ds)
            _step182 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
            if _step182 >= n_i:
                _p154 = _chunk155(n_i, x)
            else:
                _p154 = np.concatenate([_chunk155(min(_step182, n_i - _s183), x[_s183:_s183 + _step182]) for _s183 in range(0, n_i, _step182)], axis=0)
            dout = _add(dout, _p154)
        return out, dout

    def gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[1]
        n_j = y.shape[0]
        n_i = x.shape[0]
        _shift184 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=0) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=0)) / max(1, x.shape[0] + y.shape[0])
        x = x - _shift184
        y = y - _shift184
        def _chunk185(_m, _s0_x):
            def _direct188(_k186):
                _e189 = ((_s0_x[:, _k186[0]])[:, None] - (y[:, _k186[0]]))
                return (_e189 * _e189)
            def _at191(_pos187):
                _e192 = (_s0_x[_pos187[0], :] - (y[_pos187[1], :]))
                return np.sum((_e192 * _e192), axis=1)
            def _expanded195():
                _c197 = np.sum((_s0_x * _s0_x), axis=1)
                _c199 = np.sum((y * y), axis=1)
                return ((_c197[:, None] + _c199 + (-2.0 * (_s0_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c197)[:, None]) * np.sqrt(_c199)) + _c197[:, None] + _c199))
            return (b @ np.transpose(np.exp(((_div(-1, s)) * np.checked_sum((n_d, ), _direct188, _at191, _expanded195)))))
        _step210 = max(1, _CHUNK_ELEMENTS // max(1, n_j))
        if _step210 >= n_i:
            out = _chunk185(n_i, x)
        else:
            out = np.concatenate([_chunk185(min(_step210, n_i - _s211), x[_s211:_s211 + _step210]) for _s211 in range(0, n_i, _step210)], axis=0)
        def gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo259 = []
            def _fused212():
                if not _memo259:
                    def _fused212_slice(_m, _s0_b_out, _s1_x):
                        _e213 = _div(1, s)
                        def _direct216(_k214):
                            _e217 = ((_s1_x[:, _k214[0]])[:, None] - (y[:, _k214[0]]))
                            return (_e217 * _e217)
                        def _at219(_pos215):
                            _e220 = (_s1_x[_pos215[0], :] - (y[_pos215[1], :]))
                            return np.sum((_e220 * _e220), axis=1)
                        def _expanded223():
                            _c225 = np.sum((_s1_x * _s1_x), axis=1)
                            _c227 = np.sum((y * y), axis=1)
                            return ((_c225[:, None] + _c227 + (-2.0 * (_s1_x @ np.transpose(y)))), ((2.0 * (np.sqrt(_c225)[:, None]) * np.sqrt(_c227)) + _c225[:, None] + _c227))
                        _d2234 = np.checked_sum((n_d, ), _direct216, _at219, _expanded223)
                        _e236 = np.exp(((_div(-1, s)) * _d2234))
                        _r244 = ((-2.0 * (_e213 * (_s1_x * ((_s0_b_out * (b @ np.transpose(_e236)))[:, None])))) + (2.0 * (_e213 * ((_s0_b_out[:, None]) * (_e236 @ ((b[:, None]) * y))))))
                        _c245 = _s0_b_out @ _e236
                        _r252 = ((-2.0 * (_e213 * (y * ((b * _c245)[:, None])))) + (2.0 * (_e213 * ((b[:, None]) * (np.transpose(_e236) @ ((_s0_b_out[:, None]) * _s1_x))))))
                        return (_r244, _r252, _c245, (_div(_div((b @ (np.transpose((_d2234 * _e236)) @ _s0_b_out)), s), s)),)
                    _step260 = max(1, _CHUNK_ELEMENTS // max(1, n_j, n_j, n_j, n_j))
                    if _step260 >= n_i:
                        _memo259.append(_fused212_slice(n_i, dout, x))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, None, None, None)]
                        for _s261 in range(0, n_i, _step260):
                            _part262 = _fused212_slice(min(_step260, n_i - _s261), dout[_s261:_s261 + _step260], x[_s261:_s261 + _step260])
                            for k, axis in enumerate((0, None, None, None)):
                                if axis is not None:
                                    acc[k].append(_part262[k])
                                else:
                                    acc[k] = _part262[k] if acc[k] is None else acc[k] + _part262[k]
                        _memo259.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, None, None, None))))
                return _memo259[0]
            def _pb_x_263():
                return _fused212()[0]
            def _pb_y_264():
                return _fused212()[1]
            def _pb_b_265():
                return _fused212()[2]
            def _pb_s_266():
                return _fused212()[3]
            return (_NO, Thunk(_pb_x_263), Thunk(_pb_y_264), Thunk(_pb_b_265), Thunk(_pb_s_266))
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
        x = x - _shift0[:, None, None]
        y = y - _shift0[:, None, None]
        _shift1 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        x = x - _shift1
        y = y - _shift1
        def _chunk2(_m, _s0_b, _s1_s, _s2_y, _s3_x):
            def _direct5(_k3):
                _e6 = ((_s3_x[:, :, _k3[0]])[:, :, None] - ((_s2_y[:, :, _k3[0]])[:, None]))
                return (_e6 * _e6)
            def _at8(_pos4):
                _e9 = (_s3_x[_pos4[0], _pos4[1], :] - (_s2_y[_pos4[0], _pos4[2], :]))
                return np.sum((_e9 * _e9), axis=1)
            def _expanded12():
                _c14 = np.sum((_s2_y * _s2_y), axis=2)
                _c16 = np.sum((_s3_x * _s3_x), axis=2)
                return ((_c14[:, None] + _c16[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s2_y, _s3_x, optimize=True))), ((2.0 * (np.sqrt(_c14)[:, None]) * (np.sqrt(_c16)[:, :, None])) + _c14[:, None] + _c16[:, :, None]))
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _direct5, _at8, _expanded12)))), optimize=True)
        _step27 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step27 >= n__batch:
            out = _chunk2(n__batch, b, s, y, x)
        else:
            out = np.concatenate([_chunk2(min(_step27, n__batch - _s28), b[_s28:_s28 + _step27], s[_s28:_s28 + _step27], y[_s28:_s28 + _step27], x[_s28:_s28 + _step27]) for _s28 in range(0, n__batch, _step27)], axis=0)
        return out

    def _op___batched_gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy_, db, ds = tangents
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift29 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        x = x - _shift29[:, None, None]
        y = y - _shift29[:, None, None]
        _shift30 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        x = x - _shift30
        y = y - _shift30
        def _chunk31(_m, _s0_b, _s1_s, _s2_y, _s3_x):
            def _direct34(_k32):
                _e35 = ((_s3_x[:, :, _k32[0]])[:, :, None] - ((_s2_y[:, :, _k32[0]])[:, None]))
                return (_e35 * _e35)
            def _at37(_pos33):
                _e38 = (_s3_x[_pos33[0], _pos33[1], :] - (_s2_y[_pos33[0], _pos33[2], :]))
                return np.sum((_e38 * _e38), axis=1)
            def _expanded41():
                _c43 = np.sum((_s2_y * _s2_y), axis=2)
                _c45 = np.sum((_s3_x * _s3_x), axis=2)
                return ((_c43[:, None] + _c45[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s2_y, _s3_x, optimize=True))), ((2.0 * (np.sqrt(_c43)[:, None]) * (np.sqrt(_c45)[:, :, None])) + _c43[:, None] + _c45[:, :, None]))
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _direct34, _at37, _expanded41)))), optimize=True)
        _step56 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step56 >= n__batch:
            out = _chunk31(n__batch, b, s, y, x)
        else:
            out = np.concatenate([_chunk31(min(_step56, n__batch - _s57), b[_s57:_s57 + _step56], s[_s57:_s57 + _step56], y[_s57:_s57 + _step56], x[_s57:_s57 + _step56]) for _s57 in range(0, n__batch, _step56)], axis=0)
        dout = _ZERO
        if not is_zero(db):
            def _chunk59(_m, _s0_d_b, _s1_s, _s2_y, _s3_x):
                def _direct62(_k60):
                    _e63 = ((_s3_x[:, :, _k60[0]])[:, :, None] - ((_s2_y[:, :, _k60[0]])[:, None]))
                    return (_e63 * _e63)
                def _at65(_pos61):
                    _e66 = (_s3_x[_pos61[0], _pos61[1], :] - (_s2_y[_pos61[0], _pos61[2], :]))
                    return np.sum((_e66 * _e66), axis=1)
                def _expanded69():
                    _c71 = np.sum((_s2_y * _s2_y), axis=2)
                    _c73 = np.sum((_s3_x * _s3_x), axis=2)
                    return ((_c71[:, None] + _c73[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s2_y, _s3_x, optimize=True))), ((2.0 * (np.sqrt(_c71)[:, None]) * (np.sqrt(_c73)[:, :, None])) + _c71[:, None] + _c73[:, :, None]))
                return np.einsum("ab,acb->ac", _s0_d_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _direct62, _at65, _expanded69)))), optimize=True)
            _step84 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step84 >= n__batch:
                _p58 = _chunk59(n__batch, db, s, y, x)
            else:
                _p58 = np.concatenate([_chunk59(min(_step84, n__batch - _s85), db[_s85:_s85 + _step84], s[_s85:_s85 + _step84], y[_s85:_s85 + _step84], x[_s85:_s85 + _step84]) for _s85 in range(0, n__batch, _step84)], axis=0)
            dout = _add(dout, _p58)
        if not is_zero(dy_):
            def _chunk87(_m, _s0_s, _s1_b, _s2_d_y, _s3_y, _s4_x):
                _e88 = (1 / _s0_s)
                _e89 = (_s2_d_y * _s3_y)
                def _direct92(_k90):
                    _e93 = ((_s4_x[:, :, _k90[0]])[:, :, None] - ((_s3_y[:, :, _k90[0]])[:, None]))
                    return (_e93 * _e93)
                def _at95(_pos91):
                    _e96 = (_s4_x[_pos91[0], _pos91[1], :] - (_s3_y[_pos91[0], _pos91[2], :]))
                    return np.sum((_e96 * _e96), axis=1)
                def _expanded99():
                    _c101 = np.sum((_s3_y * _s3_y), axis=2)
                    _c103 = np.sum((_s4_x * _s4_x), axis=2)
                    return ((_c101[:, None] + _c103[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s3_y, _s4_x, optimize=True))), ((2.0 * (np.sqrt(_c101)[:, None]) * (np.sqrt(_c103)[:, :, None])) + _c101[:, None] + _c103[:, :, None]))
                _e112 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _direct92, _at95, _expanded99))))
                _c113 = (_e88[:, None]) * _s1_b
                _c115 = -2.0 * np.einsum("abc,ac->ab", _e112, (np.sum(_e89, axis=2) * _c113), optimize=True)
                return (_c115 + (2.0 * np.einsum("abc,abc->ab", _s4_x, np.einsum("abc,acd->abd", _e112, (_s2_d_y * (_c113[:, :, None])), optimize=True), optimize=True)))
            _step120 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step120 >= n__batch:
                _p86 = _chunk87(n__batch, s, b, dy_, y, x)
            else:
                _p86 = np.concatenate([_chunk87(min(_step120, n__batch - _s121), s[_s121:_s121 + _step120], b[_s121:_s121 + _step120], dy_[_s121:_s121 + _step120], y[_s121:_s121 + _step120], x[_s121:_s121 + _step120]) for _s121 in range(0, n__batch, _step120)], axis=0)
            dout = _add(dout, _p86)
        if not is_zero(dx):
            def _chunk123(_m, _s0_s, _s1_b, _s2_d_x, _s3_y, _s4_x):
                _e124 = (1 / _s0_s)
                _e125 = (_s2_d_x * _s4_x)
                def _direct128(_k126):
                    _e129 = ((_s4_x[:, :, _k126[0]])[:, :, None] - ((_s3_y[:, :, _k126[0]])[:, None]))
                    return (_e129 * _e129)
                def _at131(_pos127):
                    _e132 = (_s4_x[_pos127[0], _pos127[1], :] - (_s3_y[_pos127[0], _pos127[2], :]))
                    return np.sum((_e132 * _e132), axis=1)
                def _expanded135():
                    _c137 = np.sum((_s3_y * _s3_y), axis=2)
                    _c139 = np.sum((_s4_x * _s4_x), axis=2)
                    return ((_c137[:, None] + _c139[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s3_y, _s4_x, optimize=True))), ((2.0 * (np.sqrt(_c137)[:, None]) * (np.sqrt(_c139)[:, :, None])) + _c137[:, None] + _c139[:, :, None]))
                _e148 = np.exp((-(1 / (_s0_s[:, None, None]) * np.checked_sum((n_d, ), _direct128, _at131, _expanded135))))
                _c149 = (_e124[:, None]) * _s1_b
                _c151 = -2.0 * (np.sum(_e125, axis=2) * np.einsum("abc,ac->ab", _e148, _c149, optimize=True))
                return (_c151 + (2.0 * np.einsum("abc,abc->ab", _s2_d_x, np.einsum("abc,acd->abd", _e148, (_s3_y * (_c149[:, :, None])), optimize=True), optimize=True)))
            _step156 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step156 >= n__batch:
                _p122 = _chunk123(n__batch, s, b, dx, y, x)
            else:
                _p122 = np.concatenate([_chunk123(min(_step156, n__batch - _s157), s[_s157:_s157 + _step156], b[_s157:_s157 + _step156], dx[_s157:_s157 + _step156], y[_s157:_s157 + _step156], x[_s157:_s157 + _step156]) for _s157 in range(0, n__batch, _step156)], axis=0)
            dout = _add(dout, _p122)
        if not is_zero(ds):
            def _chunk159(_m, _s0_s, _s1_y, _s2_x, _s3_b, _s4_d_s):
                _e161 = ((1 / (_s0_s * _s0_s)) * _s4_d_s)
                def _direct164(_k162):
                    _e165 = ((_s2_x[:, :, _k162[0]])[:, :, None] - ((_s1_y[:, :, _k162[0]])[:, None]))
                    return (_e165 * _e165)
                def _at167(_pos163):
                    _e168 = (_s2_x[_pos163[0], _pos163[1], :] - (_s1_y[_pos163[0], _pos163[2], :]))
                    return np.sum((_e168 * _e168), axis=1)
                def _expanded171():
                    _c173 = np.sum((_s1_y * _s1_y), axis=2)
                    _c175 = np.sum((_s2_x * _s2_x), axis=2)
                    return ((_c173[:, None] + _c175[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s1_y, _s2_x, optimize=True))), ((2.0 * (np.sqrt(_c173)[:, None]) * (np.sqrt(_c175)[:, :, None])) + _c173[:, None] + _c175[:, :, None]))
                _d2182 = np.checked_sum((n_d, ), _direct164, _at167, _expanded171)
                return np.einsum("abc,ac->ab", (_d2182 * np.exp((-(1 / (_s0_s[:, None, None]) * _d2182)))), ((_e161[:, None]) * _s3_b), optimize=True)
            _step188 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
            if _step188 >= n__batch:
                _p158 = _chunk159(n__batch, s, y, x, b, ds)
            else:
                _p158 = np.concatenate([_chunk159(min(_step188, n__batch - _s189), s[_s189:_s189 + _step188], y[_s189:_s189 + _step188], x[_s189:_s189 + _step188], b[_s189:_s189 + _step188], ds[_s189:_s189 + _step188]) for _s189 in range(0, n__batch, _step188)], axis=0)
            dout = _add(dout, _p158)
        return out, dout

    def _op___batched_gaussian_kernel_sum_rrule(x, y, b, s):
        n_d = x.shape[2]
        n_i = x.shape[1]
        n_j = y.shape[1]
        n__batch = x.shape[0]
        _shift190 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(1, 2)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(1, 2))) / max(1, x.shape[1] * x.shape[2] + y.shape[1] * y.shape[2])
        x = x - _shift190[:, None, None]
        y = y - _shift190[:, None, None]
        _shift191 = (np.sum(np.where(np.isfinite(x), x, 0.0), axis=(0, 1)) + np.sum(np.where(np.isfinite(y), y, 0.0), axis=(0, 1))) / max(1, x.shape[0] * x.shape[1] + y.shape[0] * y.shape[1])
        x = x - _shift191
        y = y - _shift191
        def _chunk192(_m, _s0_b, _s1_s, _s2_y, _s3_x):
            def _direct195(_k193):
                _e196 = ((_s3_x[:, :, _k193[0]])[:, :, None] - ((_s2_y[:, :, _k193[0]])[:, None]))
                return (_e196 * _e196)
            def _at198(_pos194):
                _e199 = (_s3_x[_pos194[0], _pos194[1], :] - (_s2_y[_pos194[0], _pos194[2], :]))
                return np.sum((_e199 * _e199), axis=1)
            def _expanded202():
                _c204 = np.sum((_s2_y * _s2_y), axis=2)
                _c206 = np.sum((_s3_x * _s3_x), axis=2)
                return ((_c204[:, None] + _c206[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s2_y, _s3_x, optimize=True))), ((2.0 * (np.sqrt(_c204)[:, None]) * (np.sqrt(_c206)[:, :, None])) + _c204[:, None] + _c206[:, :, None]))
            return np.einsum("ab,acb->ac", _s0_b, np.exp((-(1 / (_s1_s[:, None, None]) * np.checked_sum((n_d, ), _direct195, _at198, _expanded202)))), optimize=True)
        _step217 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j))
        if _step217 >= n__batch:
            out = _chunk192(n__batch, b, s, y, x)
        else:
            out = np.concatenate([_chunk192(min(_step217, n__batch - _s218), b[_s218:_s218 + _step217], s[_s218:_s218 + _step217], y[_s218:_s218 + _step217], x[_s218:_s218 + _step217]) for _s218 in range(0, n__batch, _step217)], axis=0)
        def _op___batched_gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo268 = []
            def _fused219():
                if not _memo268:
                    def _fused219_slice(_m, _s0_s, _s1_b, _s2_b_out, _s3_y, _s4_x):
                        _e220 = (1 / _s0_s)
                        def _direct223(_k221):
                            _e224 = ((_s4_x[:, :, _k221[0]])[:, :, None] - ((_s3_y[:, :, _k221[0]])[:, None]))
                            return (_e224 * _e224)
                        def _at226(_pos222):
                            _e227 = (_s4_x[_pos222[0], _pos222[1], :] - (_s3_y[_pos222[0], _pos222[2], :]))
                            return np.sum((_e227 * _e227), axis=1)
                        def _expanded230():
                            _c232 = np.sum((_s3_y * _s3_y), axis=2)
                            _c234 = np.sum((_s4_x * _s4_x), axis=2)
                            _e236 = (_c232[:, None] + _c234[:, :, None] + (-2.0 * np.einsum("abc,adc->adb", _s3_y, _s4_x, optimize=True)))
                            return (_e236, ((2.0 * (np.sqrt(_c232)[:, None]) * (np.sqrt(_c234)[:, :, None])) + _c232[:, None] + _c234[:, :, None]))
                        _d2241 = np.checked_sum((n_d, ), _direct223, _at226, _expanded230)
                        _e243 = np.exp((-(1 / (_s0_s[:, None, None]) * _d2241)))
                        _c244 = (_e220[:, None]) * _s1_b
                        _c247 = -2.0 * (_s4_x * ((_s2_b_out * np.einsum("abc,ac->ab", _e243, _c244, optimize=True))[:, :, None]))
                        _r252 = (_c247 + (2.0 * ((_s2_b_out[:, :, None]) * np.einsum("abc,acd->abd", _e243, (_s3_y * (_c244[:, :, None])), optimize=True))))
                        _c253 = np.einsum("ab,abc->ac", _s2_b_out, _e243, optimize=True)
                        _r260 = ((-2.0 * (_s3_y * ((_c244 * _c253)[:, :, None]))) + (2.0 * ((_c244[:, :, None]) * np.einsum("abc,abd->acd", _e243, ((_s2_b_out[:, :, None]) * _s4_x), optimize=True))))
                        return (_r252, _r260, _c253, np.einsum("ab,ab->a", (((1 / (_s0_s * _s0_s))[:, None]) * _s1_b), np.einsum("abc,ab->ac", (_d2241 * _e243), _s2_b_out, optimize=True), optimize=True),)
                    _step269 = max(1, _CHUNK_ELEMENTS // max(1, n_i * n_j, n_i * n_j, n_i * n_j, n_i * n_j))
                    if _step269 >= n__batch:
                        _memo268.append(_fused219_slice(n__batch, s, b, dout, y, x))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, 0, 0, 0)]
                        for _s270 in range(0, n__batch, _step269):
                            _part271 = _fused219_slice(min(_step269, n__batch - _s270), s[_s270:_s270 + _step269], b[_s270:_s270 + _step269], dout[_s270:_s270 + _step269], y[_s270:_s270 + _step269], x[_s270:_s270 + _step269])
                            for k, axis in enumerate((0, 0, 0, 0)):
                                if axis is not None:
                                    acc[k].append(_part271[k])
                                else:
                                    acc[k] = _part271[k] if acc[k] is None else acc[k] + _part271[k]
                        _memo268.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, 0, 0, 0))))
                return _memo268[0]
            def _pb_x_272():
                return _fused219()[0]
            def _pb_y_273():
                return _fused219()[1]
            def _pb_b_274():
                return _fused219()[2]
            def _pb_s_275():
                return _fused219()[3]
            return (_NO, Thunk(_pb_x_272), Thunk(_pb_y_273), Thunk(_pb_b_274), Thunk(_pb_s_275))
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
                                                  'Σ_kl 2·b[k]·dy[k,l]·x[i,l]·exp(-Σ_d′((x[i,d′] - '
                                                  'y[k,d′])²)/s)/s + Σ_kl '
                                                  '-2·b[k]·dy[k,l]·y[k,l]·exp(-Σ_d′((x[i,d′] - '
                                                  'y[k,d′])²)/s)/s + Σ_kl '
                                                  '2·b[l]·dx[i,k]·y[l,k]·exp(-Σ_d′((x[i,d′] - '
                                                  'y[l,d′])²)/s)/s + Σ_kl '
                                                  '-2·b[l]·dx[i,k]·x[i,k]·exp(-Σ_d′((x[i,d′] - '
                                                  'y[l,d′])²)/s)/s + Σ_k b[k]·ds·exp(-Σ_d′((x[i,d′] - '
                                                  'y[k,d′])²)/s)·Σ_d′((x[i,d′] - y[k,d′])²)/s²',
                                          'latex': '\\mathrm{d}\\mathit{out}_{i} = \\sum_{k} '
                                                   "\\mathrm{d}b_{k} e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} "
                                                   "- y_{k,d'}\\right)^{2}}{s}} + \\sum_{kl} \\frac{2 b_{k} "
                                                   "\\mathrm{d}y_{kl} x_{il} e^{- \\frac{\\sum_{d'} "
                                                   "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s}}}{s} + "
                                                   '\\sum_{kl} - \\frac{2 b_{k} \\mathrm{d}y_{kl} y_{kl} '
                                                   "e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} \\frac{2 "
                                                   "b_{l} \\mathrm{d}x_{ik} y_{lk} e^{- \\frac{\\sum_{d'} "
                                                   "\\left(x_{i,d'} - y_{l,d'}\\right)^{2}}{s}}}{s} + "
                                                   '\\sum_{kl} - \\frac{2 b_{l} \\mathrm{d}x_{ik} x_{ik} '
                                                   "e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{l,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} \\frac{b_{k} "
                                                   "\\mathrm{d}s e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s}} \\sum_{d'} \\left(x_{i,d'} - "
                                                   "y_{k,d'}\\right)^{2}}{s^{2}}",
                                          'matrix': None,
                                          'index': 'dout[i] = Σ_k db[k]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s) + '
                                                   'Σ_kl 2·b[k]·dy[k,l]·x[i,l]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[k,d′])²)/s)/s + Σ_kl '
                                                   '-2·b[k]·dy[k,l]·y[k,l]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[k,d′])²)/s)/s + Σ_kl '
                                                   '2·b[l]·dx[i,k]·y[l,k]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[l,d′])²)/s)/s + Σ_kl '
                                                   '-2·b[l]·dx[i,k]·x[i,k]·exp(-Σ_d′((x[i,d′] - '
                                                   'y[l,d′])²)/s)/s + Σ_k b[k]·ds·exp(-Σ_d′((x[i,d′] - '
                                                   'y[k,d′])²)/s)·Σ_d′((x[i,d′] - y[k,d′])²)/s²',
                                          'index_latex': '\\mathrm{d}\\mathit{out}_{i} = \\sum_{k} '
                                                         "\\mathrm{d}b_{k} e^{- \\frac{\\sum_{d'} "
                                                         "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s}} + "
                                                         '\\sum_{kl} \\frac{2 b_{k} \\mathrm{d}y_{kl} x_{il} '
                                                         "e^{- \\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} - "
                                                         '\\frac{2 b_{k} \\mathrm{d}y_{kl} y_{kl} e^{- '
                                                         "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} "
                                                         '\\frac{2 b_{l} \\mathrm{d}x_{ik} y_{lk} e^{- '
                                                         "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{l,d'}\\right)^{2}}{s}}}{s} + \\sum_{kl} - "
                                                         '\\frac{2 b_{l} \\mathrm{d}x_{ik} x_{ik} e^{- '
                                                         "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{l,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} "
                                                         "\\frac{b_{k} \\mathrm{d}s e^{- \\frac{\\sum_{d'} "
                                                         "\\left(x_{i,d'} - y_{k,d'}\\right)^{2}}{s}} "
                                                         "\\sum_{d'} \\left(x_{i,d'} - "
                                                         "y_{k,d'}\\right)^{2}}{s^{2}}"}],
                         'pullback': [{'target': 'dx',
                                       'text': 'dx[i,d] = Σ_k 2·b[k]·dout[i]·y[k,d]·exp(-Σ_d′((x[i,d′] - '
                                               'y[k,d′])²)/s)/s + Σ_k '
                                               '-2·b[k]·dout[i]·x[i,d]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s)/s',
                                       'latex': '\\mathrm{d}x_{id} = \\sum_{k} \\frac{2 b_{k} '
                                                '{\\mathrm{d}\\mathit{out}}_{i} y_{kd} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} - \\frac{2 b_{k} "
                                                '{\\mathrm{d}\\mathit{out}}_{i} x_{id} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                "y_{k,d'}\\right)^{2}}{s}}}{s}",
                                       'matrix': None,
                                       'index': 'dx[i,d] = Σ_k 2·b[k]·dout[i]·y[k,d]·exp(-Σ_d′((x[i,d′] - '
                                                'y[k,d′])²)/s)/s + Σ_k '
                                                '-2·b[k]·dout[i]·x[i,d]·exp(-Σ_d′((x[i,d′] - y[k,d′])²)/s)/s',
                                       'index_latex': '\\mathrm{d}x_{id} = \\sum_{k} \\frac{2 b_{k} '
                                                      '{\\mathrm{d}\\mathit{out}}_{i} y_{kd} e^{- '
                                                      "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                      "y_{k,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} - \\frac{2 "
                                                      'b_{k} {\\mathrm{d}\\mathit{out}}_{i} x_{id} e^{- '
                                                      "\\frac{\\sum_{d'} \\left(x_{i,d'} - "
                                                      "y_{k,d'}\\right)^{2}}{s}}}{s}"},
                                      {'target': 'dy',
                                       'text': 'dy[j,d] = Σ_k 2·b[j]·dout[k]·x[k,d]·exp(-Σ_d′((x[k,d′] - '
                                               'y[j,d′])²)/s)/s + Σ_k '
                                               '-2·b[j]·dout[k]·y[j,d]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)/s',
                                       'latex': '\\mathrm{d}y_{jd} = \\sum_{k} \\frac{2 b_{j} '
                                                '{\\mathrm{d}\\mathit{out}}_{k} x_{kd} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                "y_{j,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} - \\frac{2 b_{j} "
                                                '{\\mathrm{d}\\mathit{out}}_{k} y_{jd} e^{- '
                                                "\\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                "y_{j,d'}\\right)^{2}}{s}}}{s}",
                                       'matrix': None,
                                       'index': 'dy[j,d] = Σ_k 2·b[j]·dout[k]·x[k,d]·exp(-Σ_d′((x[k,d′] - '
                                                'y[j,d′])²)/s)/s + Σ_k '
                                                '-2·b[j]·dout[k]·y[j,d]·exp(-Σ_d′((x[k,d′] - y[j,d′])²)/s)/s',
                                       'index_latex': '\\mathrm{d}y_{jd} = \\sum_{k} \\frac{2 b_{j} '
                                                      '{\\mathrm{d}\\mathit{out}}_{k} x_{kd} e^{- '
                                                      "\\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                      "y_{j,d'}\\right)^{2}}{s}}}{s} + \\sum_{k} - \\frac{2 "
                                                      'b_{j} {\\mathrm{d}\\mathit{out}}_{k} y_{jd} e^{- '
                                                      "\\frac{\\sum_{d'} \\left(x_{k,d'} - "
                                                      "y_{j,d'}\\right)^{2}}{s}}}{s}"},
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
