# @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: reductions, normalizations, layers and losses.

`size(b)` is the extent of index b as a number (for means)."""
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

    # ---- sum(x[i]) -> s[]    (rules/nn.rules:5)
    def sum(x):
        _c0 = np.sum(x, axis=0)
        s = _c0
        return s

    def sum_frule(tangents, x):
        _, dx = tangents
        _c1 = np.sum(x, axis=0)
        s = _c1
        ds = _ZERO
        if not is_zero(dx):
            _c2 = np.sum(dx, axis=0)
            ds = _add(ds, _c2)
        return s, ds

    def sum_rrule(x):
        n_i = x.shape[0]
        _c3 = np.sum(x, axis=0)
        s = _c3
        def sum_pullback(ds):
            if is_zero(ds):
                return (_NO, _ZERO)
            dx = np.broadcast_to(ds, (n_i, ))
            return (_NO, dx)
        return s, sum_pullback

    # ---- mean(x[i]) -> m[]    (rules/nn.rules:6)
    def mean(x):
        n_i = x.shape[0]
        _c0 = np.sum(x, axis=0)
        _e1 = (1 / n_i * _c0)
        m = _e1
        return m

    def mean_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[0]
        _c2 = np.sum(x, axis=0)
        _e3 = (1 / n_i * _c2)
        m = _e3
        dm = _ZERO
        if not is_zero(dx):
            _e4 = (1 / n_i)
            _c5 = _e4 * np.sum(dx, axis=0)
            dm = _add(dm, _c5)
        return m, dm

    def mean_rrule(x):
        n_i = x.shape[0]
        _c6 = np.sum(x, axis=0)
        _e7 = (1 / n_i * _c6)
        m = _e7
        def mean_pullback(dm):
            if is_zero(dm):
                return (_NO, _ZERO)
            _e8 = (1 / n_i * dm)
            dx = np.broadcast_to(_e8, (n_i, ))
            return (_NO, dx)
        return m, mean_pullback

    # ---- logsumexp(x[i]) -> y[]    (rules/nn.rules:7)
    def logsumexp(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _m0 = np.where(np.isfinite(_m0), _m0, 0.0)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.sum(_m0)
        y = _e1
        return y

    def logsumexp_frule(tangents, x):
        _, dx = tangents
        _m2 = np.max(x, axis=0, keepdims=True)
        _m2 = np.where(np.isfinite(_m2), _m2, 0.0)
        _e3 = np.log(np.sum(np.exp(x - _m2))) + np.sum(_m2)
        y = _e3
        dy = _ZERO
        if not is_zero(dx):
            _e4 = (x - y)
            _e5 = np.exp(_e4)
            _e6 = (dx * _e5)
            _c7 = np.sum(_e6, axis=0)
            dy = _add(dy, _c7)
        return y, dy

    def logsumexp_rrule(x):
        _m8 = np.max(x, axis=0, keepdims=True)
        _m8 = np.where(np.isfinite(_m8), _m8, 0.0)
        _e9 = np.log(np.sum(np.exp(x - _m8))) + np.sum(_m8)
        y = _e9
        def logsumexp_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e10 = (x - y)
            _e11 = np.exp(_e10)
            _e12 = (dy * _e11)
            dx = _e12
            return (_NO, dx)
        return y, logsumexp_pullback

    # ---- softmax(x[i]) -> y[i]    (rules/nn.rules:9)
    def softmax(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _m0 = np.where(np.isfinite(_m0), _m0, 0.0)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.sum(_m0)
        _e2 = (x - _e1)
        _e3 = np.exp(_e2)
        _e4 = (_e3)
        y = _e4
        return y

    def softmax_frule(tangents, x):
        _, dx = tangents
        _m5 = np.max(x, axis=0, keepdims=True)
        _m5 = np.where(np.isfinite(_m5), _m5, 0.0)
        _e6 = np.log(np.sum(np.exp(x - _m5))) + np.sum(_m5)
        _e7 = (x - _e6)
        _e8 = np.exp(_e7)
        _e9 = (_e8)
        y = _e9
        dy = _ZERO
        if not is_zero(dx):
            _e10 = (dx * y)
            _c11 = -np.einsum("a,b->b", _e10, y)
            dy = _add(dy, _e10 + _c11)
        return y, dy

    def softmax_rrule(x):
        _m12 = np.max(x, axis=0, keepdims=True)
        _m12 = np.where(np.isfinite(_m12), _m12, 0.0)
        _e13 = np.log(np.sum(np.exp(x - _m12))) + np.sum(_m12)
        _e14 = (x - _e13)
        _e15 = np.exp(_e14)
        _e16 = (_e15)
        y = _e16
        def softmax_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e17 = (dy * y)
            _c18 = -np.einsum("a,b->b", _e17, y)
            dx = _e17 + _c18
            return (_NO, dx)
        return y, softmax_pullback

    # ---- log_softmax(x[i]) -> y[i]    (rules/nn.rules:10)
    def log_softmax(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _m0 = np.where(np.isfinite(_m0), _m0, 0.0)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.sum(_m0)
        _e2 = (x - _e1)
        y = _e2
        return y

    def log_softmax_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[0]
        _m3 = np.max(x, axis=0, keepdims=True)
        _m3 = np.where(np.isfinite(_m3), _m3, 0.0)
        _e4 = np.log(np.sum(np.exp(x - _m3))) + np.sum(_m3)
        _e5 = (x - _e4)
        y = _e5
        dy = _ZERO
        if not is_zero(dx):
            _e6 = np.exp(y)
            _e7 = (dx * _e6)
            _c8 = -np.sum(_e7, axis=0)
            dy = _add(dy, np.broadcast_to(_c8, (n_i, )) + dx)
        return y, dy

    def log_softmax_rrule(x):
        _m9 = np.max(x, axis=0, keepdims=True)
        _m9 = np.where(np.isfinite(_m9), _m9, 0.0)
        _e10 = np.log(np.sum(np.exp(x - _m9))) + np.sum(_m9)
        _e11 = (x - _e10)
        y = _e11
        def log_softmax_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e12 = np.exp(y)
            _c13 = -np.einsum("a,b->b", dy, _e12)
            dx = _c13 + dy
            return (_NO, dx)
        return y, log_softmax_pullback

    # ---- dense(W[o,i], x[b,i], c[o]) -> y[b,o]    (rules/nn.rules:13)
    def dense(W, x, c):
        _c0 = x @ np.transpose(W)
        _e1 = (_c0 + c)
        _e2 = np.tanh(_e1)
        y = _e2
        return y

    def dense_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n_o = W.shape[0]
        n_b = x.shape[0]
        _c3 = x @ np.transpose(W)
        _e4 = (_c3 + c)
        _e5 = np.tanh(_e4)
        y = _e5
        dy = _ZERO
        if not is_zero(dx):
            _c6 = dx @ np.transpose(W)
            dy = _add(dy, _c6)
        if not is_zero(dW):
            _c7 = x @ np.transpose(dW)
            dy = _add(dy, _c7)
        if not is_zero(dc):
            dy = _add(dy, np.broadcast_to(dc, (n_b, n_o, )))
        if not is_zero(dy):
            _e8 = (y * y)
            _e9 = (1.0 - _e8)
            dy = dy * _e9
        return y, dy

    def dense_rrule(W, x, c):
        _c10 = x @ np.transpose(W)
        _e11 = (_c10 + c)
        _e12 = np.tanh(_e11)
        y = _e12
        def dense_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO, _ZERO, _ZERO)
            _e13 = (y * y)
            _e14 = (1.0 - _e13)
            _e15 = (_e14 * dy)
            def _pb_W16():
                _c17 = np.transpose(_e15) @ x
                dW = _c17
                return dW
            def _pb_x18():
                _c19 = _e15 @ W
                dx = _c19
                return dx
            def _pb_c20():
                _c21 = np.sum(_e15, axis=0)
                dc = _c21
                return dc
            return (_NO, Thunk(_pb_W16), Thunk(_pb_x18), Thunk(_pb_c20))
        return y, dense_pullback

    # ---- linear(W[o,i], x[b,i], c[o]) -> y[b,o]    (rules/nn.rules:14)
    def linear(W, x, c):
        _c0 = x @ np.transpose(W)
        _e1 = (_c0 + c)
        y = _e1
        return y

    def linear_frule(tangents, W, x, c):
        _, dW, dx, dc = tangents
        n_o = W.shape[0]
        n_b = x.shape[0]
        _c2 = x @ np.transpose(W)
        _e3 = (_c2 + c)
        y = _e3
        dy = _ZERO
        if not is_zero(dx):
            _c4 = dx @ np.transpose(W)
            dy = _add(dy, _c4)
        if not is_zero(dW):
            _c5 = x @ np.transpose(dW)
            dy = _add(dy, _c5)
        if not is_zero(dc):
            dy = _add(dy, np.broadcast_to(dc, (n_b, n_o, )))
        return y, dy

    def linear_rrule(W, x, c):
        _c6 = x @ np.transpose(W)
        _e7 = (_c6 + c)
        y = _e7
        def linear_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO, _ZERO, _ZERO)
            def _pb_W8():
                _c9 = np.transpose(dy) @ x
                dW = _c9
                return dW
            def _pb_x10():
                _c11 = dy @ W
                dx = _c11
                return dx
            def _pb_c12():
                _c13 = np.sum(dy, axis=0)
                dc = _c13
                return dc
            return (_NO, Thunk(_pb_W8), Thunk(_pb_x10), Thunk(_pb_c12))
        return y, linear_pullback

    # ---- mse(p[b,o], t[b,o]) -> L[]    (rules/nn.rules:17)
    def mse(p, t):
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e0 = (p - t)
        _e1 = (_e0 * _e0)
        _c2 = np.sum(_e1, axis=(0, 1))
        _e3 = (1 / n_b / n_o * _c2)
        L = _e3
        return L

    def mse_frule(tangents, p, t):
        _, dp, dt = tangents
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e4 = (p - t)
        _e5 = (_e4 * _e4)
        _c6 = np.sum(_e5, axis=(0, 1))
        _e7 = (1 / n_b / n_o * _c6)
        L = _e7
        dL = _ZERO
        if not is_zero(dt):
            _e8 = (dt * p)
            _c9 = -2.0 * np.sum(_e8, axis=(0, 1))
            _e10 = (dt * t)
            _c11 = 2.0 * np.sum(_e10, axis=(0, 1))
            _e12 = (_c9 + _c11)
            dL = _add(dL, _e12)
        if not is_zero(dp):
            _e13 = (dp * t)
            _c14 = -2.0 * np.sum(_e13, axis=(0, 1))
            _e15 = (dp * p)
            _c16 = 2.0 * np.sum(_e15, axis=(0, 1))
            _e17 = (_c14 + _c16)
            dL = _add(dL, _e17)
        if not is_zero(dL):
            _e18 = (1 / n_b / n_o)
            dL = dL * _e18
        return L, dL

    def mse_rrule(p, t):
        n_b = p.shape[0]
        n_o = p.shape[1]
        _e19 = (p - t)
        _e20 = (_e19 * _e19)
        _c21 = np.sum(_e20, axis=(0, 1))
        _e22 = (1 / n_b / n_o * _c21)
        L = _e22
        def mse_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            def _pb_p23():
                _e24 = (2.0 * 1 / n_b / n_o * _e19 * dL)
                dp = _e24
                return dp
            def _pb_t25():
                _e26 = (t - p)
                _e27 = (2.0 * 1 / n_b / n_o * _e26 * dL)
                dt = _e27
                return dt
            return (_NO, Thunk(_pb_p23), Thunk(_pb_t25))
        return L, mse_pullback

    # ---- cross_entropy(z[b,c], t[b,c]) -> L[]    (rules/nn.rules:19)
    def cross_entropy(z, t):
        n_b = z.shape[0]
        _m0 = np.max(z, axis=1, keepdims=True)
        _m0 = np.where(np.isfinite(_m0), _m0, 0.0)
        _e1 = np.log(np.sum(np.exp(z - _m0), axis=1)) + np.sum(_m0, axis=1)
        _lse = _e1
        _e2 = (t * z)
        _c3 = np.sum(_e2, axis=(0, 1))
        _c4 = -np.einsum("a,ab->", _lse, t, optimize=True)
        _e5 = (_c3 + _c4)
        _e6 = (-(1 / n_b * _e5))
        L = _e6
        return L

    def cross_entropy_frule(tangents, z, t):
        _, dz, dt = tangents
        n_b = z.shape[0]
        _m7 = np.max(z, axis=1, keepdims=True)
        _m7 = np.where(np.isfinite(_m7), _m7, 0.0)
        _e8 = np.log(np.sum(np.exp(z - _m7), axis=1)) + np.sum(_m7, axis=1)
        _lse = _e8
        _e9 = (t * z)
        _c10 = np.sum(_e9, axis=(0, 1))
        _c11 = -np.einsum("a,ab->", _lse, t, optimize=True)
        _e12 = (_c10 + _c11)
        _e13 = (-(1 / n_b * _e12))
        L = _e13
        _dlse = _ZERO
        if not is_zero(dz):
            _e14 = (z - (_lse[:, None]))
            _e15 = np.exp(_e14)
            _e16 = (dz * _e15)
            _c17 = np.sum(_e16, axis=1)
            _dlse = _add(_dlse, _c17)
        dL = _ZERO
        if not is_zero(_dlse):
            _c18 = np.einsum("a,ab->", _dlse, t, optimize=True)
            dL = _add(dL, _c18)
        if not is_zero(dz):
            _e19 = (dz * t)
            _c20 = -np.sum(_e19, axis=(0, 1))
            dL = _add(dL, _c20)
        if not is_zero(dt):
            _c21 = np.einsum("ab,a->", dt, _lse, optimize=True)
            _e22 = (dt * z)
            _c23 = -np.sum(_e22, axis=(0, 1))
            _e24 = (_c21 + _c23)
            dL = _add(dL, _e24)
        if not is_zero(dL):
            _e25 = (1 / n_b)
            dL = dL * _e25
        return L, dL

    def cross_entropy_rrule(z, t):
        n_b = z.shape[0]
        _m26 = np.max(z, axis=1, keepdims=True)
        _m26 = np.where(np.isfinite(_m26), _m26, 0.0)
        _e27 = np.log(np.sum(np.exp(z - _m26), axis=1)) + np.sum(_m26, axis=1)
        _lse = _e27
        _e28 = (t * z)
        _c29 = np.sum(_e28, axis=(0, 1))
        _c30 = -np.einsum("a,ab->", _lse, t, optimize=True)
        _e31 = (_c29 + _c30)
        _e32 = (-(1 / n_b * _e31))
        L = _e32
        def cross_entropy_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO, _ZERO)
            _e33 = (1 / n_b * dL)
            _c34 = _e33 * np.sum(t, axis=1)
            _dlse = _c34
            def _pb_z35():
                _e36 = (-(1 / n_b * dL * t))
                dz = _e36
                _e37 = (z - (_lse[:, None]))
                _e38 = np.exp(_e37)
                _e39 = ((_dlse[:, None]) * _e38)
                dz = _add(dz, _e39)
                return dz
            def _pb_t40():
                _e41 = (_lse[:, None] - z)
                _e42 = (1 / n_b * _e41 * dL)
                dt = _e42
                return dt
            return (_NO, Thunk(_pb_z35), Thunk(_pb_t40))
        return L, cross_entropy_pullback

    # ---- gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]    (rules/nn.rules:25)
    def gaussian_kernel_sum(x, y, b, s):
        n_i = x.shape[0]
        n_j = y.shape[0]
        def _chunk0(_m, _s0_x):
            _e1 = (_s0_x * _s0_x)
            _c2 = np.sum(_e1, axis=1)
            _e3 = (y * y)
            _c4 = np.sum(_e3, axis=1)
            _c5 = -2.0 * (_s0_x @ np.transpose(y))
            _e6 = (_c2[:, None] + _c4 + _c5)
            _e7 = (-(1 / s * _e6))
            _e8 = np.exp(_e7)
            _c9 = b @ np.transpose(_e8)
            return _c9
        _step10 = max(1, 4194304 // max(1, n_j))
        if _step10 >= n_i:
            out = _chunk0(n_i, x)
        else:
            out = np.concatenate([_chunk0(min(_step10, n_i - _s11), x[_s11:_s11 + _step10]) for _s11 in range(0, n_i, _step10)], axis=0)
        return out

    def gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy, db, ds = tangents
        n_i = x.shape[0]
        n_j = y.shape[0]
        def _chunk12(_m, _s0_x):
            _e13 = (_s0_x * _s0_x)
            _c14 = np.sum(_e13, axis=1)
            _e15 = (y * y)
            _c16 = np.sum(_e15, axis=1)
            _c17 = -2.0 * (_s0_x @ np.transpose(y))
            _e18 = (_c14[:, None] + _c16 + _c17)
            _e19 = (-(1 / s * _e18))
            _e20 = np.exp(_e19)
            _c21 = b @ np.transpose(_e20)
            return _c21
        _step22 = max(1, 4194304 // max(1, n_j))
        if _step22 >= n_i:
            out = _chunk12(n_i, x)
        else:
            out = np.concatenate([_chunk12(min(_step22, n_i - _s23), x[_s23:_s23 + _step22]) for _s23 in range(0, n_i, _step22)], axis=0)
        dout = _ZERO
        if not is_zero(db):
            def _chunk25(_m, _s0_x):
                _e26 = (_s0_x * _s0_x)
                _c27 = np.sum(_e26, axis=1)
                _e28 = (y * y)
                _c29 = np.sum(_e28, axis=1)
                _c30 = -2.0 * (_s0_x @ np.transpose(y))
                _e31 = (_c27[:, None] + _c29 + _c30)
                _e32 = (-(1 / s * _e31))
                _e33 = np.exp(_e32)
                _c34 = db @ np.transpose(_e33)
                return _c34
            _step35 = max(1, 4194304 // max(1, n_j))
            if _step35 >= n_i:
                _p24 = _chunk25(n_i, x)
            else:
                _p24 = np.concatenate([_chunk25(min(_step35, n_i - _s36), x[_s36:_s36 + _step35]) for _s36 in range(0, n_i, _step35)], axis=0)
            dout = _add(dout, _p24)
        if not is_zero(dy):
            def _chunk38(_m, _s0_x):
                _e39 = (1 / s)
                _e40 = (dy * y)
                _e41 = (_s0_x * _s0_x)
                _c42 = np.sum(_e41, axis=1)
                _e43 = (y * y)
                _c44 = np.sum(_e43, axis=1)
                _c45 = -2.0 * (_s0_x @ np.transpose(y))
                _e46 = (_c42[:, None] + _c44 + _c45)
                _e47 = (-(1 / s * _e46))
                _e48 = np.exp(_e47)
                _c49 = np.einsum("a,ab->a", b, _e40)
                _c50 = -2.0 * (_e39 * (_e48 @ _c49))
                _c51 = (b[:, None]) * dy
                _c52 = _e48 @ _c51
                _c53 = 2.0 * (_e39 * np.einsum("ab,ab->a", _s0_x, _c52, optimize=True))
                _e54 = (_c50 + _c53)
                return _e54
            _step55 = max(1, 4194304 // max(1, n_j))
            if _step55 >= n_i:
                _p37 = _chunk38(n_i, x)
            else:
                _p37 = np.concatenate([_chunk38(min(_step55, n_i - _s56), x[_s56:_s56 + _step55]) for _s56 in range(0, n_i, _step55)], axis=0)
            dout = _add(dout, _p37)
        if not is_zero(dx):
            def _chunk58(_m, _s0_d_x, _s1_x):
                _e59 = (1 / s)
                _e60 = (_s0_d_x * _s1_x)
                _e61 = (_s1_x * _s1_x)
                _c62 = np.sum(_e61, axis=1)
                _e63 = (y * y)
                _c64 = np.sum(_e63, axis=1)
                _c65 = -2.0 * (_s1_x @ np.transpose(y))
                _e66 = (_c62[:, None] + _c64 + _c65)
                _e67 = (-(1 / s * _e66))
                _e68 = np.exp(_e67)
                _c69 = b @ np.transpose(_e68)
                _c70 = -2.0 * (_e59 * np.einsum("ab,a->a", _e60, _c69))
                _c71 = (b[:, None]) * y
                _c72 = _e68 @ _c71
                _c73 = 2.0 * (_e59 * np.einsum("ab,ab->a", _s0_d_x, _c72, optimize=True))
                _e74 = (_c70 + _c73)
                return _e74
            _step75 = max(1, 4194304 // max(1, n_j))
            if _step75 >= n_i:
                _p57 = _chunk58(n_i, dx, x)
            else:
                _p57 = np.concatenate([_chunk58(min(_step75, n_i - _s76), dx[_s76:_s76 + _step75], x[_s76:_s76 + _step75]) for _s76 in range(0, n_i, _step75)], axis=0)
            dout = _add(dout, _p57)
        if not is_zero(ds):
            def _chunk78(_m, _s0_x):
                _e79 = s ** -2
                _e80 = (_e79 * ds)
                _e81 = (_s0_x * _s0_x)
                _c82 = np.sum(_e81, axis=1)
                _e83 = (y * y)
                _c84 = np.sum(_e83, axis=1)
                _c85 = -2.0 * (_s0_x @ np.transpose(y))
                _e86 = (_c82[:, None] + _c84 + _c85)
                _e87 = (-(1 / s * _e86))
                _e88 = np.exp(_e87)
                _e89 = (_e86 * _e88)
                _c90 = _e80 * (_e89 @ b)
                return _c90
            _step91 = max(1, 4194304 // max(1, n_j))
            if _step91 >= n_i:
                _p77 = _chunk78(n_i, x)
            else:
                _p77 = np.concatenate([_chunk78(min(_step91, n_i - _s92), x[_s92:_s92 + _step91]) for _s92 in range(0, n_i, _step91)], axis=0)
            dout = _add(dout, _p77)
        return out, dout

    def gaussian_kernel_sum_rrule(x, y, b, s):
        n_i = x.shape[0]
        n_j = y.shape[0]
        def _chunk93(_m, _s0_x):
            _e94 = (_s0_x * _s0_x)
            _c95 = np.sum(_e94, axis=1)
            _e96 = (y * y)
            _c97 = np.sum(_e96, axis=1)
            _c98 = -2.0 * (_s0_x @ np.transpose(y))
            _e99 = (_c95[:, None] + _c97 + _c98)
            _e100 = (-(1 / s * _e99))
            _e101 = np.exp(_e100)
            _c102 = b @ np.transpose(_e101)
            return _c102
        _step103 = max(1, 4194304 // max(1, n_j))
        if _step103 >= n_i:
            out = _chunk93(n_i, x)
        else:
            out = np.concatenate([_chunk93(min(_step103, n_i - _s104), x[_s104:_s104 + _step103]) for _s104 in range(0, n_i, _step103)], axis=0)
        def gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (_NO, _ZERO, _ZERO, _ZERO, _ZERO)
            _memo137 = []
            def _fused105():
                if not _memo137:
                    def _fused105_slice(_m, _s0_b_out, _s1_x):
                        _e106 = (1 / s)
                        _e107 = (_s1_x * _s1_x)
                        _c108 = np.sum(_e107, axis=1)
                        _e109 = (y * y)
                        _c110 = np.sum(_e109, axis=1)
                        _c111 = -2.0 * (_s1_x @ np.transpose(y))
                        _e112 = (_c108[:, None] + _c110 + _c111)
                        _e113 = (-(1 / s * _e112))
                        _e114 = np.exp(_e113)
                        _c115 = b @ np.transpose(_e114)
                        _c116 = _s0_b_out * _c115
                        _c117 = -2.0 * (_e106 * (_s1_x * (_c116[:, None])))
                        _c118 = (b[:, None]) * y
                        _c119 = _e114 @ _c118
                        _c120 = 2.0 * (_e106 * ((_s0_b_out[:, None]) * _c119))
                        _e121 = (_c117 + _c120)
                        _r122 = _e121
                        _c123 = _s0_b_out @ _e114
                        _c124 = b * _c123
                        _c125 = -2.0 * (_e106 * (y * (_c124[:, None])))
                        _c126 = (_s0_b_out[:, None]) * _s1_x
                        _c127 = np.transpose(_e114) @ _c126
                        _c128 = 2.0 * (_e106 * ((b[:, None]) * _c127))
                        _e129 = (_c125 + _c128)
                        _r130 = _e129
                        _r131 = _c123
                        _e132 = s ** -2
                        _e133 = (_e112 * _e114)
                        _c134 = np.transpose(_e133) @ _s0_b_out
                        _c135 = _e132 * (b @ _c134)
                        _r136 = _c135
                        return (_r122, _r130, _r131, _r136,)
                    _step138 = max(1, 4194304 // max(1, n_j, n_j, n_j, n_j))
                    if _step138 >= n_i:
                        _memo137.append(_fused105_slice(n_i, dout, x))
                    else:
                        acc = [[] if axis is not None else None for axis in (0, None, None, None)]
                        for _s139 in range(0, n_i, _step138):
                            _part140 = _fused105_slice(min(_step138, n_i - _s139), dout[_s139:_s139 + _step138], x[_s139:_s139 + _step138])
                            for k, axis in enumerate((0, None, None, None)):
                                if axis is not None:
                                    acc[k].append(_part140[k])
                                else:
                                    acc[k] = _part140[k] if acc[k] is None else acc[k] + _part140[k]
                        _memo137.append(tuple(np.concatenate(a, axis=axis) if axis is not None else a for a, axis in zip(acc, (0, None, None, None))))
                return _memo137[0]
            def _pb_x141():
                return _fused105()[0]
            def _pb_y142():
                return _fused105()[1]
            def _pb_b143():
                return _fused105()[2]
            def _pb_s144():
                return _fused105()[3]
            return (_NO, Thunk(_pb_x141), Thunk(_pb_y142), Thunk(_pb_b143), Thunk(_pb_s144))
        return out, gaussian_kernel_sum_pullback

    return {
        "sum": sum,
        "sum_frule": sum_frule,
        "sum_rrule": sum_rrule,
        "mean": mean,
        "mean_frule": mean_frule,
        "mean_rrule": mean_rrule,
        "logsumexp": logsumexp,
        "logsumexp_frule": logsumexp_frule,
        "logsumexp_rrule": logsumexp_rrule,
        "softmax": softmax,
        "softmax_frule": softmax_frule,
        "softmax_rrule": softmax_rrule,
        "log_softmax": log_softmax,
        "log_softmax_frule": log_softmax_frule,
        "log_softmax_rrule": log_softmax_rrule,
        "dense": dense,
        "dense_frule": dense_frule,
        "dense_rrule": dense_rrule,
        "linear": linear,
        "linear_frule": linear_frule,
        "linear_rrule": linear_rrule,
        "mse": mse,
        "mse_frule": mse_frule,
        "mse_rrule": mse_rrule,
        "cross_entropy": cross_entropy,
        "cross_entropy_frule": cross_entropy_frule,
        "cross_entropy_rrule": cross_entropy_rrule,
        "gaussian_kernel_sum": gaussian_kernel_sum,
        "gaussian_kernel_sum_frule": gaussian_kernel_sum_frule,
        "gaussian_kernel_sum_rrule": gaussian_kernel_sum_rrule,
    }


OPS = {'sum': {'signature': 'sum(x[i]) -> s[]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 's', 'indices': []}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'source': 'rules/nn.rules:5'},
 'mean': {'signature': 'mean(x[i]) -> m[]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'm', 'indices': []}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'source': 'rules/nn.rules:6'},
 'logsumexp': {'signature': 'logsumexp(x[i]) -> y[]',
               'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
               'outputs': [{'name': 'y', 'indices': []}],
               'equal_extents': [],
               'domains': {'x': 'positive'},
               'source': 'rules/nn.rules:7'},
 'softmax': {'signature': 'softmax(x[i]) -> y[i]',
             'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
             'outputs': [{'name': 'y', 'indices': ['i']}],
             'equal_extents': [],
             'domains': {'x': 'positive'},
             'source': 'rules/nn.rules:9'},
 'log_softmax': {'signature': 'log_softmax(x[i]) -> y[i]',
                 'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
                 'outputs': [{'name': 'y', 'indices': ['i']}],
                 'equal_extents': [],
                 'domains': {'x': 'positive'},
                 'source': 'rules/nn.rules:10'},
 'dense': {'signature': 'dense(W[o,i], x[b,i], c[o]) -> y[b,o]',
           'inputs': [{'name': 'W', 'kind': 'tensor', 'indices': ['o', 'i']},
                      {'name': 'x', 'kind': 'tensor', 'indices': ['b', 'i']},
                      {'name': 'c', 'kind': 'tensor', 'indices': ['o']}],
           'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
           'equal_extents': [],
           'domains': {'W': 'real', 'x': 'real', 'c': 'real'},
           'source': 'rules/nn.rules:13'},
 'linear': {'signature': 'linear(W[o,i], x[b,i], c[o]) -> y[b,o]',
            'inputs': [{'name': 'W', 'kind': 'tensor', 'indices': ['o', 'i']},
                       {'name': 'x', 'kind': 'tensor', 'indices': ['b', 'i']},
                       {'name': 'c', 'kind': 'tensor', 'indices': ['o']}],
            'outputs': [{'name': 'y', 'indices': ['b', 'o']}],
            'equal_extents': [],
            'domains': {'W': 'real', 'x': 'real', 'c': 'real'},
            'source': 'rules/nn.rules:14'},
 'mse': {'signature': 'mse(p[b,o], t[b,o]) -> L[]',
         'inputs': [{'name': 'p', 'kind': 'tensor', 'indices': ['b', 'o']},
                    {'name': 't', 'kind': 'tensor', 'indices': ['b', 'o']}],
         'outputs': [{'name': 'L', 'indices': []}],
         'equal_extents': [],
         'domains': {'p': 'real', 't': 'real'},
         'source': 'rules/nn.rules:17'},
 'cross_entropy': {'signature': 'cross_entropy(z[b,c], t[b,c]) -> L[]',
                   'inputs': [{'name': 'z', 'kind': 'tensor', 'indices': ['b', 'c']},
                              {'name': 't', 'kind': 'tensor', 'indices': ['b', 'c']}],
                   'outputs': [{'name': 'L', 'indices': []}],
                   'equal_extents': [],
                   'domains': {'z': 'positive', 't': 'real'},
                   'source': 'rules/nn.rules:19'},
 'gaussian_kernel_sum': {'signature': 'gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]',
                         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i', 'd']},
                                    {'name': 'y', 'kind': 'tensor', 'indices': ['j', 'd']},
                                    {'name': 'b', 'kind': 'tensor', 'indices': ['j']},
                                    {'name': 's', 'kind': 'scalar'}],
                         'outputs': [{'name': 'out', 'indices': ['i']}],
                         'equal_extents': [],
                         'domains': {'x': 'real', 'y': 'real', 'b': 'real', 's': 'real'},
                         'source': 'rules/nn.rules:25'}}

globals().update(export_ops(__name__, OPS, _define))
