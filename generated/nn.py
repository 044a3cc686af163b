# @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: reductions, normalizations, layers and losses.

`size(b)` is the extent of index b as a number (for means)."""
from runtime.tangents import NoTangent, ZeroTangent, Thunk, is_zero
from runtime.registry import export_ops

def _define(np):
    """The ops' forward functions, frules and rrules over the array namespace `np`."""

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
        ds = ZeroTangent()
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
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(ds):
                dx = _add(dx, np.broadcast_to(ds, (n_i, )))
            return (NoTangent(), dx)
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
        dm = ZeroTangent()
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
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(dm):
                _e8 = (1 / n_i * dm)
                dx = _add(dx, np.broadcast_to(_e8, (n_i, )))
            return (NoTangent(), dx)
        return m, mean_pullback

    # ---- logsumexp(x[i]) -> y[]    (rules/nn.rules:7)
    def logsumexp(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.max(x)
        y = _e1
        return y

    def logsumexp_frule(tangents, x):
        _, dx = tangents
        _m2 = np.max(x, axis=0, keepdims=True)
        _e3 = np.log(np.sum(np.exp(x - _m2))) + np.max(x)
        y = _e3
        dy = ZeroTangent()
        if not is_zero(dx):
            _e4 = (x - y)
            _e5 = np.exp(_e4)
            _e6 = (dx * _e5)
            _c7 = np.sum(_e6, axis=0)
            dy = _add(dy, _c7)
        return y, dy

    def logsumexp_rrule(x):
        _m8 = np.max(x, axis=0, keepdims=True)
        _e9 = np.log(np.sum(np.exp(x - _m8))) + np.max(x)
        y = _e9
        def logsumexp_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(dy):
                _e10 = (x - y)
                _e11 = np.exp(_e10)
                _e12 = (dy * _e11)
                dx = _add(dx, _e12)
            return (NoTangent(), dx)
        return y, logsumexp_pullback

    # ---- softmax(x[i]) -> y[i]    (rules/nn.rules:9)
    def softmax(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.max(x)
        _e2 = (x - _e1)
        _e3 = np.exp(_e2)
        _e4 = (_e3)
        y = _e4
        return y

    def softmax_frule(tangents, x):
        _, dx = tangents
        _m5 = np.max(x, axis=0, keepdims=True)
        _e6 = np.log(np.sum(np.exp(x - _m5))) + np.max(x)
        _e7 = (x - _e6)
        _e8 = np.exp(_e7)
        _e9 = (_e8)
        y = _e9
        dy = ZeroTangent()
        if not is_zero(dx):
            _e10 = (dx * y)
            _c11 = -np.einsum("a,b->b", _e10, y)
            dy = _add(dy, _e10 + _c11)
        return y, dy

    def softmax_rrule(x):
        _m12 = np.max(x, axis=0, keepdims=True)
        _e13 = np.log(np.sum(np.exp(x - _m12))) + np.max(x)
        _e14 = (x - _e13)
        _e15 = np.exp(_e14)
        _e16 = (_e15)
        y = _e16
        def softmax_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(dy):
                _e17 = (dy * y)
                _c18 = -np.einsum("a,b->b", _e17, y)
                dx = _add(dx, _e17 + _c18)
            return (NoTangent(), dx)
        return y, softmax_pullback

    # ---- log_softmax(x[i]) -> y[i]    (rules/nn.rules:10)
    def log_softmax(x):
        _m0 = np.max(x, axis=0, keepdims=True)
        _e1 = np.log(np.sum(np.exp(x - _m0))) + np.max(x)
        _e2 = (x - _e1)
        y = _e2
        return y

    def log_softmax_frule(tangents, x):
        _, dx = tangents
        n_i = x.shape[0]
        _m3 = np.max(x, axis=0, keepdims=True)
        _e4 = np.log(np.sum(np.exp(x - _m3))) + np.max(x)
        _e5 = (x - _e4)
        y = _e5
        dy = ZeroTangent()
        if not is_zero(dx):
            _e6 = np.exp(y)
            _e7 = (dx * _e6)
            _c8 = -np.sum(_e7, axis=0)
            dy = _add(dy, np.broadcast_to(_c8, (n_i, )) + dx)
        return y, dy

    def log_softmax_rrule(x):
        _m9 = np.max(x, axis=0, keepdims=True)
        _e10 = np.log(np.sum(np.exp(x - _m9))) + np.max(x)
        _e11 = (x - _e10)
        y = _e11
        def log_softmax_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(dy):
                _e12 = np.exp(y)
                _c13 = -np.einsum("a,b->b", dy, _e12)
                dx = _add(dx, _c13 + dy)
            return (NoTangent(), dx)
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
        dy = ZeroTangent()
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
            _e9 = (1 - _e8)
            dy = dy * _e9
        return y, dy

    def dense_rrule(W, x, c):
        _c10 = x @ np.transpose(W)
        _e11 = (_c10 + c)
        _e12 = np.tanh(_e11)
        y = _e12
        def dense_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent())
            _e13 = (y * y)
            _e14 = (1 - _e13)
            _e15 = (_e14 * dy)
            def _pb_W16():
                dW = ZeroTangent()
                if not is_zero(dy):
                    _c17 = np.transpose(_e15) @ x
                    dW = _add(dW, _c17)
                return dW
            def _pb_x18():
                dx = ZeroTangent()
                if not is_zero(dy):
                    _c19 = _e15 @ W
                    dx = _add(dx, _c19)
                return dx
            def _pb_c20():
                dc = ZeroTangent()
                if not is_zero(dy):
                    _c21 = np.sum(_e15, axis=0)
                    dc = _add(dc, _c21)
                return dc
            return (NoTangent(), Thunk(_pb_W16), Thunk(_pb_x18), Thunk(_pb_c20))
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
        dy = ZeroTangent()
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
                return (NoTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent())
            def _pb_W8():
                dW = ZeroTangent()
                if not is_zero(dy):
                    _c9 = np.transpose(dy) @ x
                    dW = _add(dW, _c9)
                return dW
            def _pb_x10():
                dx = ZeroTangent()
                if not is_zero(dy):
                    _c11 = dy @ W
                    dx = _add(dx, _c11)
                return dx
            def _pb_c12():
                dc = ZeroTangent()
                if not is_zero(dy):
                    _c13 = np.sum(dy, axis=0)
                    dc = _add(dc, _c13)
                return dc
            return (NoTangent(), Thunk(_pb_W8), Thunk(_pb_x10), Thunk(_pb_c12))
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
        dL = ZeroTangent()
        if not is_zero(dt):
            _e8 = (2 * t)
            _e9 = (2 * p)
            _e10 = (_e8 - _e9)
            _e11 = (_e10 * dt)
            _c12 = np.sum(_e11, axis=(0, 1))
            dL = _add(dL, _c12)
        if not is_zero(dp):
            _e13 = (2 * p)
            _e14 = (2 * t)
            _e15 = (_e13 - _e14)
            _e16 = (_e15 * dp)
            _c17 = np.sum(_e16, axis=(0, 1))
            dL = _add(dL, _c17)
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
                return (NoTangent(), ZeroTangent(), ZeroTangent())
            def _pb_p23():
                dp = ZeroTangent()
                if not is_zero(dL):
                    _e24 = (p - t)
                    _e25 = (2 * 1 / n_b / n_o * _e24 * dL)
                    dp = _add(dp, _e25)
                return dp
            def _pb_t26():
                dt = ZeroTangent()
                if not is_zero(dL):
                    _e27 = (t - p)
                    _e28 = (2 * 1 / n_b / n_o * _e27 * dL)
                    dt = _add(dt, _e28)
                return dt
            return (NoTangent(), Thunk(_pb_p23), Thunk(_pb_t26))
        return L, mse_pullback

    # ---- cross_entropy(z[b,c], t[b,c]) -> L[]    (rules/nn.rules:19)
    def cross_entropy(z, t):
        n_b = z.shape[0]
        _m0 = np.max(z, axis=1, keepdims=True)
        _e1 = np.log(np.sum(np.exp(z - _m0), axis=1)) + np.sum(_m0, axis=1)
        _lse = _e1
        _e2 = (z - (_lse[:, None]))
        _e3 = (_e2 * t)
        _c4 = np.sum(_e3, axis=(0, 1))
        _e5 = (-(1 / n_b * _c4))
        L = _e5
        return L

    def cross_entropy_frule(tangents, z, t):
        _, dz, dt = tangents
        n_b = z.shape[0]
        _m6 = np.max(z, axis=1, keepdims=True)
        _e7 = np.log(np.sum(np.exp(z - _m6), axis=1)) + np.sum(_m6, axis=1)
        _lse = _e7
        _e8 = (z - (_lse[:, None]))
        _e9 = (_e8 * t)
        _c10 = np.sum(_e9, axis=(0, 1))
        _e11 = (-(1 / n_b * _c10))
        L = _e11
        _dlse = ZeroTangent()
        if not is_zero(dz):
            _e12 = np.exp(_e8)
            _e13 = (dz * _e12)
            _c14 = np.sum(_e13, axis=1)
            _dlse = _add(_dlse, _c14)
        dL = ZeroTangent()
        if not is_zero(_dlse):
            _c15 = np.einsum("a,ab->", _dlse, t, optimize=True)
            dL = _add(dL, _c15)
        if not is_zero(dz):
            _e16 = (dz * t)
            _c17 = -np.sum(_e16, axis=(0, 1))
            dL = _add(dL, _c17)
        if not is_zero(dt):
            _e18 = (_lse[:, None] - z)
            _e19 = (_e18 * dt)
            _c20 = np.sum(_e19, axis=(0, 1))
            dL = _add(dL, _c20)
        if not is_zero(dL):
            _e21 = (1 / n_b)
            dL = dL * _e21
        return L, dL

    def cross_entropy_rrule(z, t):
        n_b = z.shape[0]
        _m22 = np.max(z, axis=1, keepdims=True)
        _e23 = np.log(np.sum(np.exp(z - _m22), axis=1)) + np.sum(_m22, axis=1)
        _lse = _e23
        _e24 = (z - (_lse[:, None]))
        _e25 = (_e24 * t)
        _c26 = np.sum(_e25, axis=(0, 1))
        _e27 = (-(1 / n_b * _c26))
        L = _e27
        def cross_entropy_pullback(dL):
            if is_zero(dL):
                return (NoTangent(), ZeroTangent(), ZeroTangent())
            _dlse = ZeroTangent()
            if not is_zero(dL):
                _e28 = (1 / n_b * dL)
                _c29 = _e28 * np.sum(t, axis=1)
                _dlse = _add(_dlse, _c29)
            def _pb_z30():
                dz = ZeroTangent()
                if not is_zero(dL):
                    _e31 = (-(1 / n_b * dL * t))
                    dz = _add(dz, _e31)
                if not is_zero(_dlse):
                    _e32 = (z - (_lse[:, None]))
                    _e33 = np.exp(_e32)
                    _e34 = ((_dlse[:, None]) * _e33)
                    dz = _add(dz, _e34)
                return dz
            def _pb_t35():
                dt = ZeroTangent()
                if not is_zero(dL):
                    _e36 = (_lse[:, None] - z)
                    _e37 = (1 / n_b * _e36 * dL)
                    dt = _add(dt, _e37)
                return dt
            return (NoTangent(), Thunk(_pb_z30), Thunk(_pb_t35))
        return L, cross_entropy_pullback

    # ---- gaussian_kernel_sum(x[i,d], y[j,d], b[j], s) -> out[i]    (rules/nn.rules:25)
    def gaussian_kernel_sum(x, y, b, s):
        n_i = x.shape[0]
        n_d = x.shape[1]
        n_j = y.shape[0]
        def _chunk0(_m, _s0_x):
            _e1 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
            _e2 = (_e1 * _e1)
            _c3 = np.sum(_e2, axis=1)
            _e4 = (-(1 / s * _c3))
            _e5 = np.exp(_e4)
            _c6 = b @ np.transpose(_e5)
            return _c6
        _step7 = max(1, 4194304 // max(1, n_j * n_d))
        if _step7 >= n_i:
            out = _chunk0(n_i, x)
        else:
            out = np.concatenate([_chunk0(min(_step7, n_i - _s8), x[_s8:_s8 + _step7]) for _s8 in range(0, n_i, _step7)], axis=0)
        return out

    def gaussian_kernel_sum_frule(tangents, x, y, b, s):
        _, dx, dy, db, ds = tangents
        n_i = x.shape[0]
        n_d = x.shape[1]
        n_j = y.shape[0]
        def _chunk9(_m, _s0_x):
            _e10 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
            _e11 = (_e10 * _e10)
            _c12 = np.sum(_e11, axis=1)
            _e13 = (-(1 / s * _c12))
            _e14 = np.exp(_e13)
            _c15 = b @ np.transpose(_e14)
            return _c15
        _step16 = max(1, 4194304 // max(1, n_j * n_d))
        if _step16 >= n_i:
            out = _chunk9(n_i, x)
        else:
            out = np.concatenate([_chunk9(min(_step16, n_i - _s17), x[_s17:_s17 + _step16]) for _s17 in range(0, n_i, _step16)], axis=0)
        dout = ZeroTangent()
        if not is_zero(db):
            def _chunk19(_m, _s0_x):
                _e20 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
                _e21 = (_e20 * _e20)
                _c22 = np.sum(_e21, axis=1)
                _e23 = (-(1 / s * _c22))
                _e24 = np.exp(_e23)
                _c25 = db @ np.transpose(_e24)
                return _c25
            _step26 = max(1, 4194304 // max(1, n_j * n_d))
            if _step26 >= n_i:
                _p18 = _chunk19(n_i, x)
            else:
                _p18 = np.concatenate([_chunk19(min(_step26, n_i - _s27), x[_s27:_s27 + _step26]) for _s27 in range(0, n_i, _step26)], axis=0)
            dout = _add(dout, _p18)
        if not is_zero(dy):
            def _chunk29(_m, _s0_x):
                _e30 = (1 / s)
                _e31 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
                _e32 = (_e31 * _e31)
                _c33 = np.sum(_e32, axis=1)
                _e34 = (-(1 / s * _c33))
                _e35 = np.exp(_e34)
                _c36 = _s0_x @ np.transpose(dy)
                _c37 = np.einsum("ab,ab->ab", _e35, _c36)
                _c38 = 2 * (_e30 * (b @ np.transpose(_c37)))
                return _c38
            _step39 = max(1, 4194304 // max(1, n_j * n_d))
            if _step39 >= n_i:
                _p28 = _chunk29(n_i, x)
            else:
                _p28 = np.concatenate([_chunk29(min(_step39, n_i - _s40), x[_s40:_s40 + _step39]) for _s40 in range(0, n_i, _step39)], axis=0)
            def _chunk42(_m, _s0_x):
                _e43 = (1 / s)
                _e44 = (dy * y)
                _e45 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
                _e46 = (_e45 * _e45)
                _c47 = np.sum(_e46, axis=1)
                _e48 = (-(1 / s * _c47))
                _e49 = np.exp(_e48)
                _c50 = np.einsum("a,ab->a", b, _e44)
                _c51 = -2 * (_e43 * (_e49 @ _c50))
                return _c51
            _step52 = max(1, 4194304 // max(1, n_j * n_d))
            if _step52 >= n_i:
                _p41 = _chunk42(n_i, x)
            else:
                _p41 = np.concatenate([_chunk42(min(_step52, n_i - _s53), x[_s53:_s53 + _step52]) for _s53 in range(0, n_i, _step52)], axis=0)
            dout = _add(dout, _p28 + _p41)
        if not is_zero(dx):
            def _chunk55(_m, _s0_d_x, _s1_x):
                _e56 = (1 / s)
                _e57 = (_s1_x[:, :, None] - np.transpose(y, (1, 0)))
                _e58 = (_e57 * _e57)
                _c59 = np.sum(_e58, axis=1)
                _e60 = (-(1 / s * _c59))
                _e61 = np.exp(_e60)
                _c62 = _s0_d_x @ np.transpose(y)
                _c63 = np.einsum("ab,ab->ab", _e61, _c62)
                _c64 = 2 * (_e56 * (b @ np.transpose(_c63)))
                return _c64
            _step65 = max(1, 4194304 // max(1, n_j * n_d))
            if _step65 >= n_i:
                _p54 = _chunk55(n_i, dx, x)
            else:
                _p54 = np.concatenate([_chunk55(min(_step65, n_i - _s66), dx[_s66:_s66 + _step65], x[_s66:_s66 + _step65]) for _s66 in range(0, n_i, _step65)], axis=0)
            def _chunk68(_m, _s0_d_x, _s1_x):
                _e69 = (1 / s)
                _e70 = (_s0_d_x * _s1_x)
                _e71 = (_s1_x[:, :, None] - np.transpose(y, (1, 0)))
                _e72 = (_e71 * _e71)
                _c73 = np.sum(_e72, axis=1)
                _e74 = (-(1 / s * _c73))
                _e75 = np.exp(_e74)
                _c76 = b @ np.transpose(_e75)
                _c77 = -2 * (_e69 * np.einsum("ab,a->a", _e70, _c76))
                return _c77
            _step78 = max(1, 4194304 // max(1, n_j * n_d))
            if _step78 >= n_i:
                _p67 = _chunk68(n_i, dx, x)
            else:
                _p67 = np.concatenate([_chunk68(min(_step78, n_i - _s79), dx[_s79:_s79 + _step78], x[_s79:_s79 + _step78]) for _s79 in range(0, n_i, _step78)], axis=0)
            dout = _add(dout, _p54 + _p67)
        if not is_zero(ds):
            def _chunk81(_m, _s0_x):
                _e82 = s ** -2
                _e83 = (_e82 * ds)
                _e84 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
                _e85 = (_e84 * _e84)
                _c86 = np.sum(_e85, axis=1)
                _e87 = (-(1 / s * _c86))
                _e88 = np.exp(_e87)
                _e89 = (_c86 * _e88)
                _c90 = _e83 * (_e89 @ b)
                return _c90
            _step91 = max(1, 4194304 // max(1, n_j * n_d))
            if _step91 >= n_i:
                _p80 = _chunk81(n_i, x)
            else:
                _p80 = np.concatenate([_chunk81(min(_step91, n_i - _s92), x[_s92:_s92 + _step91]) for _s92 in range(0, n_i, _step91)], axis=0)
            dout = _add(dout, _p80)
        return out, dout

    def gaussian_kernel_sum_rrule(x, y, b, s):
        n_i = x.shape[0]
        n_d = x.shape[1]
        n_j = y.shape[0]
        def _chunk93(_m, _s0_x):
            _e94 = (_s0_x[:, :, None] - np.transpose(y, (1, 0)))
            _e95 = (_e94 * _e94)
            _c96 = np.sum(_e95, axis=1)
            _e97 = (-(1 / s * _c96))
            _e98 = np.exp(_e97)
            _c99 = b @ np.transpose(_e98)
            return _c99
        _step100 = max(1, 4194304 // max(1, n_j * n_d))
        if _step100 >= n_i:
            out = _chunk93(n_i, x)
        else:
            out = np.concatenate([_chunk93(min(_step100, n_i - _s101), x[_s101:_s101 + _step100]) for _s101 in range(0, n_i, _step100)], axis=0)
        def gaussian_kernel_sum_pullback(dout):
            if is_zero(dout):
                return (NoTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent())
            def _pb_x102():
                dx = ZeroTangent()
                if not is_zero(dout):
                    def _chunk104(_m, _s0_b_out, _s1_x):
                        _e105 = (1 / s)
                        _e106 = (_s1_x[:, :, None] - np.transpose(y, (1, 0)))
                        _e107 = (_e106 * _e106)
                        _c108 = np.sum(_e107, axis=1)
                        _e109 = (-(1 / s * _c108))
                        _e110 = np.exp(_e109)
                        _c111 = np.einsum("a,ba->ab", b, _e110)
                        _c112 = np.transpose(y) @ _c111
                        _c113 = 2 * (_e105 * np.einsum("a,ba->ab", _s0_b_out, _c112))
                        return _c113
                    _step114 = max(1, 4194304 // max(1, n_j * n_d))
                    if _step114 >= n_i:
                        _p103 = _chunk104(n_i, dout, x)
                    else:
                        _p103 = np.concatenate([_chunk104(min(_step114, n_i - _s115), dout[_s115:_s115 + _step114], x[_s115:_s115 + _step114]) for _s115 in range(0, n_i, _step114)], axis=0)
                    def _chunk117(_m, _s0_b_out, _s1_x):
                        _e118 = (1 / s)
                        _e119 = (_s1_x[:, :, None] - np.transpose(y, (1, 0)))
                        _e120 = (_e119 * _e119)
                        _c121 = np.sum(_e120, axis=1)
                        _e122 = (-(1 / s * _c121))
                        _e123 = np.exp(_e122)
                        _c124 = b @ np.transpose(_e123)
                        _c125 = np.einsum("a,a->a", _s0_b_out, _c124)
                        _c126 = -2 * (_e118 * np.einsum("ab,a->ab", _s1_x, _c125))
                        return _c126
                    _step127 = max(1, 4194304 // max(1, n_j * n_d))
                    if _step127 >= n_i:
                        _p116 = _chunk117(n_i, dout, x)
                    else:
                        _p116 = np.concatenate([_chunk117(min(_step127, n_i - _s128), dout[_s128:_s128 + _step127], x[_s128:_s128 + _step127]) for _s128 in range(0, n_i, _step127)], axis=0)
                    dx = _add(dx, _p103 + _p116)
                return dx
            def _pb_y129():
                dy = ZeroTangent()
                if not is_zero(dout):
                    def _chunk131(_m, _s0_b, _s1_y):
                        _e132 = (1 / s)
                        _e133 = (x[:, :, None] - np.transpose(_s1_y, (1, 0)))
                        _e134 = (_e133 * _e133)
                        _c135 = np.sum(_e134, axis=1)
                        _e136 = (-(1 / s * _c135))
                        _e137 = np.exp(_e136)
                        _c138 = np.einsum("a,ab->ab", dout, _e137)
                        _c139 = np.transpose(x) @ _c138
                        _c140 = 2 * (_e132 * np.einsum("a,ba->ab", _s0_b, _c139))
                        return _c140
                    _step141 = max(1, 4194304 // max(1, n_d * n_i))
                    if _step141 >= n_j:
                        _p130 = _chunk131(n_j, b, y)
                    else:
                        _p130 = np.concatenate([_chunk131(min(_step141, n_j - _s142), b[_s142:_s142 + _step141], y[_s142:_s142 + _step141]) for _s142 in range(0, n_j, _step141)], axis=0)
                    def _chunk144(_m, _s0_b, _s1_y):
                        _e145 = (1 / s)
                        _e146 = (x[:, :, None] - np.transpose(_s1_y, (1, 0)))
                        _e147 = (_e146 * _e146)
                        _c148 = np.sum(_e147, axis=1)
                        _e149 = (-(1 / s * _c148))
                        _e150 = np.exp(_e149)
                        _c151 = dout @ _e150
                        _c152 = np.einsum("a,a->a", _s0_b, _c151)
                        _c153 = -2 * (_e145 * np.einsum("ab,a->ab", _s1_y, _c152))
                        return _c153
                    _step154 = max(1, 4194304 // max(1, n_d * n_i))
                    if _step154 >= n_j:
                        _p143 = _chunk144(n_j, b, y)
                    else:
                        _p143 = np.concatenate([_chunk144(min(_step154, n_j - _s155), b[_s155:_s155 + _step154], y[_s155:_s155 + _step154]) for _s155 in range(0, n_j, _step154)], axis=0)
                    dy = _add(dy, _p130 + _p143)
                return dy
            def _pb_b156():
                db = ZeroTangent()
                if not is_zero(dout):
                    def _chunk158(_m, _s0_y):
                        _e159 = (x[:, :, None] - np.transpose(_s0_y, (1, 0)))
                        _e160 = (_e159 * _e159)
                        _c161 = np.sum(_e160, axis=1)
                        _e162 = (-(1 / s * _c161))
                        _e163 = np.exp(_e162)
                        _c164 = dout @ _e163
                        return _c164
                    _step165 = max(1, 4194304 // max(1, n_d * n_i))
                    if _step165 >= n_j:
                        _p157 = _chunk158(n_j, y)
                    else:
                        _p157 = np.concatenate([_chunk158(min(_step165, n_j - _s166), y[_s166:_s166 + _step165]) for _s166 in range(0, n_j, _step165)], axis=0)
                    db = _add(db, _p157)
                return db
            def _pb_s167():
                ds = ZeroTangent()
                if not is_zero(dout):
                    _e168 = s ** -2
                    _e169 = (x[:, :, None] - np.transpose(y, (1, 0)))
                    _e170 = (_e169 * _e169)
                    _c171 = np.sum(_e170, axis=1)
                    _e172 = (-(1 / s * _c171))
                    _e173 = np.exp(_e172)
                    _e174 = (_c171 * _e173)
                    _c175 = _e174 @ b
                    _c176 = _e168 * (dout @ _c175)
                    ds = _add(ds, _c176)
                return ds
            return (NoTangent(), Thunk(_pb_x102), Thunk(_pb_y129), Thunk(_pb_b156), Thunk(_pb_s167))
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
