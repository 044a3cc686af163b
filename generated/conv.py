# @generated from rules/conv.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: convolutions and stencils, through shifted and strided subscripts.

`x[i+k]` reads x at position i+k; `x[2*i+k]` at 2i+k (a stride). An index read only at shifted positions
takes its \"valid\" extent: the largest for which every read stays inside its tensor (extent(i) = t - k + 1
for x[i+k], with t and k the extents of x and of k). Nothing is padded: pad the input yourself (np.pad) for a
\"same\" convolution. As in deep learning, \"convolution\" here is cross-correlation (the kernel is not flipped).
The pullback of a shifted read is a scatter (a transposed convolution), generated as one vectorised slice
per kernel tap."""
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

    # ---- conv1d(x[t], w[k]) -> y[i]    (rules/conv.rules:11)
    # 1-D convolution: np.correlate(x, w, "valid").
    def conv1d(x, w):
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 1), (1, 1)), 0),), (n_i, n_k, ))))
        return y

    def conv1d_frule(tangents, x, w):
        _, dx, dw = tangents
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 1), (1, 1)), 0),), (n_i, n_k, ))))
        dy_ = _ZERO
        if not is_zero(dw):
            dy_ = _add(dy_, (dw @ np.transpose(np.shift_window(x, ((((0, 1), (1, 1)), 0),), (n_i, n_k, )))))
        if not is_zero(dx):
            dy_ = _add(dy_, (np.shift_window(dx, ((((0, 1), (1, 1)), 0),), (n_i, n_k, )) @ w))
        return y, dy_

    def conv1d_rrule(x, w):
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 1), (1, 1)), 0),), (n_i, n_k, ))))
        def conv1d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                dx = (np.shift_window(np.shift_scatter(dy_, ((((0, 1),), max(0, (n_k - 1))),), (n_t + abs((n_k - 1)), )), ((((0, 1), (1, -1),), (n_k - 1)),), (n_t, n_k, )) @ w)
                return dx
            def _pb_w_14():
                dw = (dy_ @ np.transpose(np.shift_window(x, ((((0, 1), (1, 1)), 0),), (n_k, n_i, ))))
                return dw
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_w_14))
        return y, conv1d_pullback

    # ---- conv1d_stride2(x[t], w[k]) -> y[i]    (rules/conv.rules:13)
    # Strided: every second output of conv1d, computed directly.
    def conv1d_stride2(x, w):
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 2), (1, 1)), 0),), (n_i, n_k, ))))
        return y

    def conv1d_stride2_frule(tangents, x, w):
        _, dx, dw = tangents
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 2), (1, 1)), 0),), (n_i, n_k, ))))
        dy_ = _ZERO
        if not is_zero(dw):
            dy_ = _add(dy_, (dw @ np.transpose(np.shift_window(x, ((((0, 2), (1, 1)), 0),), (n_i, n_k, )))))
        if not is_zero(dx):
            dy_ = _add(dy_, (np.shift_window(dx, ((((0, 2), (1, 1)), 0),), (n_i, n_k, )) @ w))
        return y, dy_

    def conv1d_stride2_rrule(x, w):
        n_k = w.shape[0]
        n_t = x.shape[0]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        y = (w @ np.transpose(np.shift_window(x, ((((0, 2), (1, 1)), 0),), (n_i, n_k, ))))
        def conv1d_stride2_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                dx = np.shift_scatter(((dy_[:, None]) * w), ((((0, 2), (1, 1)), 0),), (n_t, ))
                return dx
            def _pb_w_13():
                dw = (dy_ @ np.shift_window(x, ((((0, 2), (1, 1)), 0),), (n_i, n_k, )))
                return dw
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_w_13))
        return y, conv1d_stride2_pullback

    # ---- conv2d(x[c,s,t], K[o,c,p,q]) -> y[o,h,w]    (rules/conv.rules:15)
    # 2-D convolution with channels: input channels c, output channels o, a kernel of any size.
    def conv2d(x, K):
        n_p = K.shape[2]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        y = np.einsum("abcd,becdf->aef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def conv2d_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[2]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        y = np.einsum("abcd,becdf->aef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abcd,becdf->aef", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        if not is_zero(dK):
            dy_ = _add(dy_, np.einsum("abcd,becdf->aef", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        return y, dy_

    def conv2d_rrule(x, K):
        n_p = K.shape[2]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        n_o = K.shape[0]
        y = np.einsum("abcd,becdf->aef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def conv2d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), max(0, (n_p - 1))), (((2, 1),), max(0, (n_q - 1))),), (n_o, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                dx = np.einsum("abcd,aecfd->bef", K, np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1), (2, -1),), (n_p - 1)), (((3, 1), (4, -1),), (n_q - 1)),), (n_o, n_s, n_p, n_t, n_q, )), optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abc,dbecf->adef", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, conv2d_pullback

    # ---- conv2d_batch(x[n,c,s,t], K[o,c,p,q]) -> y[n,o,h,w]    (rules/conv.rules:17)
    # The same over a batch n, with a 3×3 kernel (as torch.nn.functional.conv2d without padding).
    def conv2d_batch(x, K):
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_n = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcd,ebfcdg->eafg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def conv2d_batch_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_n = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcd,ebfcdg->eafg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abcd,ebfcdg->eafg", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        if not is_zero(dK):
            dy_ = _add(dy_, np.einsum("abcd,ebfcdg->eafg", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        return y, dy_

    def conv2d_batch_rrule(x, K):
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_n = x.shape[0]
        n_c = x.shape[1]
        n_o = K.shape[0]
        y = np.einsum("abcd,ebfcdg->eafg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def conv2d_batch_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), max(0, (n_p - 1))), (((3, 1),), max(0, (n_q - 1))),), (n_n, n_o, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                dx = np.einsum("abcd,eafcgd->ebfg", K, np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, -1),), (n_p - 1)), (((4, 1), (5, -1),), (n_q - 1)),), (n_n, n_o, n_s, n_p, n_t, n_q, )), optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abcd,aecfdg->befg", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n_n, n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, conv2d_batch_pullback

    # ---- depthwise_conv2d(x[c,s,t], K[c,p,q]) -> y[c,h,w]    (rules/conv.rules:19)
    # Depthwise: each channel c convolved with its own kernel.
    def depthwise_conv2d(x, K):
        n_p = K.shape[1]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[2]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        y = np.einsum("abc,adbce->ade", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def depthwise_conv2d_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[1]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[2]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        y = np.einsum("abc,adbce->ade", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,adbce->ade", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        if not is_zero(dK):
            dy_ = _add(dy_, np.einsum("abc,adbce->ade", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        return y, dy_

    def depthwise_conv2d_rrule(x, K):
        n_p = K.shape[1]
        n_s = x.shape[1]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[2]
        n_t = x.shape[2]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n_c = x.shape[0]
        y = np.einsum("abc,adbce->ade", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def depthwise_conv2d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), max(0, (n_p - 1))), (((2, 1),), max(0, (n_q - 1))),), (n_c, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                dx = np.einsum("abc,adbec->ade", K, np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1), (2, -1),), (n_p - 1)), (((3, 1), (4, -1),), (n_q - 1)),), (n_c, n_s, n_p, n_t, n_q, )), optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abc,abdce->ade", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0), (((3, 1), (4, 1)), 0)), (n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, depthwise_conv2d_pullback

    # ---- laplacian(u[s,t]) -> L[i,j]    (rules/conv.rules:21)
    # The 5-point Laplacian at the interior points of a grid (L[i,j] sits at u[i+1,j+1]).
    def laplacian(u):
        n_s = u.shape[0]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[1]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        _v0 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 2)), (n_i, n_j, ))
        _v1 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 0)), (n_i, n_j, ))
        L = (_v0 + _v1 + np.shift_window(u, ((((0, 1),), 2), (((1, 1),), 1)), (n_i, n_j, )) + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1)), (n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 1)), (n_i, n_j, ))))
        return L

    def laplacian_frule(tangents, u):
        _, du = tangents
        n_s = u.shape[0]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[1]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        _v7 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 2)), (n_i, n_j, ))
        _v8 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 0)), (n_i, n_j, ))
        L = (_v7 + _v8 + np.shift_window(u, ((((0, 1),), 2), (((1, 1),), 1)), (n_i, n_j, )) + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1)), (n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 1)), (n_i, n_j, ))))
        dL = _ZERO
        if not is_zero(du):
            _e15 = (-4.0 * np.shift_window(du, ((((0, 1),), 1), (((1, 1),), 1)), (n_i, n_j, )))
            _v16 = np.shift_window(du, ((((0, 1),), 1), (((1, 1),), 2)), (n_i, n_j, ))
            _v17 = np.shift_window(du, ((((0, 1),), 1), (((1, 1),), 0)), (n_i, n_j, ))
            dL = _add(dL, _e15 + _v16 + _v17 + np.shift_window(du, ((((0, 1),), 2), (((1, 1),), 1)), (n_i, n_j, )) + np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 1)), (n_i, n_j, )))
        return L, dL

    def laplacian_rrule(u):
        n_s = u.shape[0]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[1]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        _v20 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 2)), (n_i, n_j, ))
        _v21 = np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 0)), (n_i, n_j, ))
        L = (_v20 + _v21 + np.shift_window(u, ((((0, 1),), 2), (((1, 1),), 1)), (n_i, n_j, )) + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1)), (n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 1), (((1, 1),), 1)), (n_i, n_j, ))))
        def laplacian_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO)
            _sc28 = np.shift_scatter((-4.0 * dL), ((((0, 1),), 1), (((1, 1),), 1)), (n_s, n_t, ))
            _sc29 = np.shift_scatter(dL, ((((0, 1),), 1), (((1, 1),), 2)), (n_s, n_t, ))
            _sc30 = np.shift_scatter(dL, ((((0, 1),), 1), (((1, 1),), 0)), (n_s, n_t, ))
            du = _sc28 + _sc29 + _sc30 + np.shift_scatter(dL, ((((0, 1),), 2), (((1, 1),), 1)), (n_s, n_t, )) + np.shift_scatter(dL, ((((0, 1),), 0), (((1, 1),), 1)), (n_s, n_t, ))
            return (_NO, du)
        return L, laplacian_pullback

    # ---- __batched_conv1d(x[_batch,t], w[_batch,k]) -> y[_batch,i]    (rules/conv.rules:11)
    # 1-D convolution: np.correlate(x, w, "valid").
    def _op___batched_conv1d(x, w):
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("_batched_conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        return y

    def _op___batched_conv1d_frule(tangents, x, w):
        _, dx, dw = tangents
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("_batched_conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dw):
            dy_ = _add(dy_, np.einsum("ab,acb->ac", dw, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True))
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,ac->ab", np.shift_window(dx, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_i, n_k, )), w, optimize=True))
        return y, dy_

    def _op___batched_conv1d_rrule(x, w):
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = n_t - (n_k - 1) - 1 + 1
        if n_i < 1: raise ValueError("_batched_conv1d: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..i+k..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        def _op___batched_conv1d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _gw12 = np.shift_window(np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), max(0, (n_k - 1))),), (n__batch, n_t + abs((n_k - 1)), )), ((((0, 1),), 0), (((1, 1), (2, -1),), (n_k - 1)),), (n__batch, n_t, n_k, ))
                dx = np.einsum("abc,ac->ab", _gw12, w, optimize=True)
                return dx
            def _pb_w_14():
                dw = np.einsum("ab,acb->ac", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1), (2, 1)), 0)), (n__batch, n_k, n_i, )), optimize=True)
                return dw
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_w_14))
        return y, _op___batched_conv1d_pullback

    # ---- __batched_conv1d_stride2(x[_batch,t], w[_batch,k]) -> y[_batch,i]    (rules/conv.rules:13)
    # Strided: every second output of conv1d, computed directly.
    def _op___batched_conv1d_stride2(x, w):
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("_batched_conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        return y

    def _op___batched_conv1d_stride2_frule(tangents, x, w):
        _, dx, dw = tangents
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("_batched_conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dw):
            dy_ = _add(dy_, np.einsum("ab,acb->ac", dw, np.shift_window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True))
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abc,ac->ab", np.shift_window(dx, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), w, optimize=True))
        return y, dy_

    def _op___batched_conv1d_stride2_rrule(x, w):
        n_k = w.shape[1]
        n_t = x.shape[1]
        n_i = (n_t - (n_k - 1) - 1) // 2 + 1
        if n_i < 1: raise ValueError("_batched_conv1d_stride2: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..2*i+k..]' needs extent %d along that axis, has %d" % (2 * (1 - 1) + (n_k - 1) + 1, n_t,))
        n__batch = x.shape[0]
        y = np.einsum("ab,acb->ac", w, np.shift_window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
        def _op___batched_conv1d_stride2_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                dx = np.shift_scatter(((dy_[:, :, None]) * (w[:, None])), ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_t, ))
                return dx
            def _pb_w_13():
                dw = np.einsum("ab,abc->ac", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 2), (2, 1)), 0)), (n__batch, n_i, n_k, )), optimize=True)
                return dw
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_w_13))
        return y, _op___batched_conv1d_stride2_pullback

    # ---- __batched_conv2d(x[_batch,c,s,t], K[_batch,o,c,p,q]) -> y[_batch,o,h,w]    (rules/conv.rules:15)
    # 2-D convolution with channels: input channels c, output channels o, a kernel of any size.
    def _op___batched_conv2d(x, K):
        n_p = K.shape[3]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcde,acfdeg->abfg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def _op___batched_conv2d_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[3]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcde,acfdeg->abfg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abcde,acfdeg->abfg", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        if not is_zero(dK):
            dy_ = _add(dy_, np.einsum("abcde,acfdeg->abfg", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        return y, dy_

    def _op___batched_conv2d_rrule(x, K):
        n_p = K.shape[3]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        n_o = K.shape[1]
        y = np.einsum("abcde,acfdeg->abfg", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def _op___batched_conv2d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), max(0, (n_p - 1))), (((3, 1),), max(0, (n_q - 1))),), (n__batch, n_o, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                dx = np.einsum("abcde,abfdge->acfg", K, np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, -1),), (n_p - 1)), (((4, 1), (5, -1),), (n_q - 1)),), (n__batch, n_o, n_s, n_p, n_t, n_q, )), optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abcd,aecfdg->abefg", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, _op___batched_conv2d_pullback

    # ---- __batched_conv2d_batch(x[_batch,n,c,s,t], K[_batch,o,c,p,q]) -> y[_batch,n,o,h,w]    (rules/conv.rules:17)
    # The same over a batch n, with a 3×3 kernel (as torch.nn.functional.conv2d without padding).
    def _op___batched_conv2d_batch(x, K):
        n_p = K.shape[3]
        n_s = x.shape[3]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[4]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_n = x.shape[1]
        n_c = x.shape[2]
        y = np.einsum("abcde,afcgdeh->afbgh", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def _op___batched_conv2d_batch_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[3]
        n_s = x.shape[3]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[4]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_n = x.shape[1]
        n_c = x.shape[2]
        y = np.einsum("abcde,afcgdeh->afbgh", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            _c5 = np.einsum("abcde,afcgdeh->afbgh", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
            dy_ = _add(dy_, _c5)
        if not is_zero(dK):
            _c7 = np.einsum("abcde,afcgdeh->afbgh", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
            dy_ = _add(dy_, _c7)
        return y, dy_

    def _op___batched_conv2d_batch_rrule(x, K):
        n_p = K.shape[3]
        n_s = x.shape[3]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_conv2d_batch: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[4]
        n_t = x.shape[4]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_conv2d_batch: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_n = x.shape[1]
        n_c = x.shape[2]
        n_o = K.shape[1]
        y = np.einsum("abcde,afcgdeh->afbgh", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def _op___batched_conv2d_batch_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1),), max(0, (n_p - 1))), (((4, 1),), max(0, (n_q - 1))),), (n__batch, n_n, n_o, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                _gw12 = np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, -1),), (n_p - 1)), (((5, 1), (6, -1),), (n_q - 1)),), (n__batch, n_n, n_o, n_s, n_p, n_t, n_q, ))
                dx = np.einsum("abcde,afbgdhe->afcgh", K, _gw12, optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abcde,abfdgeh->acfgh", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 0), (((3, 1), (4, 1)), 0), (((5, 1), (6, 1)), 0)), (n__batch, n_n, n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, _op___batched_conv2d_batch_pullback

    # ---- __batched_depthwise_conv2d(x[_batch,c,s,t], K[_batch,c,p,q]) -> y[_batch,c,h,w]    (rules/conv.rules:19)
    # Depthwise: each channel c convolved with its own kernel.
    def _op___batched_depthwise_conv2d(x, K):
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcd,abecdf->abef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        return y

    def _op___batched_depthwise_conv2d_frule(tangents, x, K):
        _, dx, dK = tangents
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcd,abecdf->abef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.einsum("abcd,abecdf->abef", K, np.shift_window(dx, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        if not is_zero(dK):
            dy_ = _add(dy_, np.einsum("abcd,abecdf->abef", dK, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True))
        return y, dy_

    def _op___batched_depthwise_conv2d_rrule(x, K):
        n_p = K.shape[2]
        n_s = x.shape[2]
        n_h = n_s - (n_p - 1) - 1 + 1
        if n_h < 1: raise ValueError("_batched_depthwise_conv2d: index 'h' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..h+p..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_p - 1) + 1, n_s,))
        n_q = K.shape[3]
        n_t = x.shape[3]
        n_w = n_t - (n_q - 1) - 1 + 1
        if n_w < 1: raise ValueError("_batched_depthwise_conv2d: index 'w' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'x[..w+q..]' needs extent %d along that axis, has %d" % ((1 - 1) + (n_q - 1) + 1, n_t,))
        n__batch = x.shape[0]
        n_c = x.shape[1]
        y = np.einsum("abcd,abecdf->abef", K, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_q, n_w, )), optimize=True)
        def _op___batched_depthwise_conv2d_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_10():
                _pad11 = np.shift_scatter(dy_, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), max(0, (n_p - 1))), (((3, 1),), max(0, (n_q - 1))),), (n__batch, n_c, n_s + abs((n_p - 1)), n_t + abs((n_q - 1)), ))
                dx = np.einsum("abcd,abecfd->abef", K, np.shift_window(_pad11, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, -1),), (n_p - 1)), (((4, 1), (5, -1),), (n_q - 1)),), (n__batch, n_c, n_s, n_p, n_t, n_q, )), optimize=True)
                return dx
            def _pb_K_14():
                dK = np.einsum("abcd,abcedf->abef", dy_, np.shift_window(x, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1), (3, 1)), 0), (((4, 1), (5, 1)), 0)), (n__batch, n_c, n_h, n_p, n_w, n_q, )), optimize=True)
                return dK
            return (_NO, Thunk(_pb_x_10), Thunk(_pb_K_14))
        return y, _op___batched_depthwise_conv2d_pullback

    # ---- __batched_laplacian(u[_batch,s,t]) -> L[_batch,i,j]    (rules/conv.rules:21)
    # The 5-point Laplacian at the interior points of a grid (L[i,j] sits at u[i+1,j+1]).
    def _op___batched_laplacian(u):
        n_s = u.shape[1]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("_batched_laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[2]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("_batched_laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        n__batch = u.shape[0]
        _v0 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 2)), (n__batch, n_i, n_j, ))
        _v1 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 0)), (n__batch, n_i, n_j, ))
        _v2 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 2), (((2, 1),), 1)), (n__batch, n_i, n_j, ))
        L = (_v0 + _v1 + _v2 + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 1)), (n__batch, n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 1)), (n__batch, n_i, n_j, ))))
        return L

    def _op___batched_laplacian_frule(tangents, u):
        _, du = tangents
        n_s = u.shape[1]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("_batched_laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[2]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("_batched_laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        n__batch = u.shape[0]
        _v7 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 2)), (n__batch, n_i, n_j, ))
        _v8 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 0)), (n__batch, n_i, n_j, ))
        _v9 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 2), (((2, 1),), 1)), (n__batch, n_i, n_j, ))
        L = (_v7 + _v8 + _v9 + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 1)), (n__batch, n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 1)), (n__batch, n_i, n_j, ))))
        dL = _ZERO
        if not is_zero(du):
            _e15 = (-4.0 * np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 1)), (n__batch, n_i, n_j, )))
            _v16 = np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 2)), (n__batch, n_i, n_j, ))
            _v17 = np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 0)), (n__batch, n_i, n_j, ))
            dL = _add(dL, _e15 + _v16 + _v17 + np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 2), (((2, 1),), 1)), (n__batch, n_i, n_j, )) + np.shift_window(du, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 1)), (n__batch, n_i, n_j, )))
        return L, dL

    def _op___batched_laplacian_rrule(u):
        n_s = u.shape[1]
        n_i = min(n_s - 1 + 1, n_s - 2 - 1 + 1, n_s - 1 - 1 + 1)
        if n_i < 1: raise ValueError("_batched_laplacian: index 'i' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..i..]' needs extent %d along that axis, has %d; 'u[..i+2..]' needs extent %d along that axis, has %d; 'u[..i+1..]' needs extent %d along that axis, has %d" % ((1 - 1) + 1, n_s, (1 - 1) + 3, n_s, (1 - 1) + 2, n_s,))
        n_t = u.shape[2]
        n_j = min(n_t - 1 - 1 + 1, n_t - 1 + 1, n_t - 2 - 1 + 1)
        if n_j < 1: raise ValueError("_batched_laplacian: index 'j' has no valid position (shifted subscripts read inside their tensors only; pad the input, e.g. with np.pad): 'u[..j+1..]' needs extent %d along that axis, has %d; 'u[..j..]' needs extent %d along that axis, has %d; 'u[..j+2..]' needs extent %d along that axis, has %d" % ((1 - 1) + 2, n_t, (1 - 1) + 1, n_t, (1 - 1) + 3, n_t,))
        n__batch = u.shape[0]
        _v20 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 2)), (n__batch, n_i, n_j, ))
        _v21 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 0)), (n__batch, n_i, n_j, ))
        _v22 = np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 2), (((2, 1),), 1)), (n__batch, n_i, n_j, ))
        L = (_v20 + _v21 + _v22 + np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 1)), (n__batch, n_i, n_j, )) - (4.0 * np.shift_window(u, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 1)), (n__batch, n_i, n_j, ))))
        def _op___batched_laplacian_pullback(dL):
            if is_zero(dL):
                return (_NO, _ZERO)
            _sc28 = np.shift_scatter((-4.0 * dL), ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 1)), (n__batch, n_s, n_t, ))
            _sc29 = np.shift_scatter(dL, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 2)), (n__batch, n_s, n_t, ))
            _sc30 = np.shift_scatter(dL, ((((0, 1),), 0), (((1, 1),), 1), (((2, 1),), 0)), (n__batch, n_s, n_t, ))
            du = _sc28 + _sc29 + _sc30 + np.shift_scatter(dL, ((((0, 1),), 0), (((1, 1),), 2), (((2, 1),), 1)), (n__batch, n_s, n_t, )) + np.shift_scatter(dL, ((((0, 1),), 0), (((1, 1),), 0), (((2, 1),), 1)), (n__batch, n_s, n_t, ))
            return (_NO, du)
        return L, _op___batched_laplacian_pullback

    return {
        'conv1d': conv1d,
        'conv1d_frule': conv1d_frule,
        'conv1d_rrule': conv1d_rrule,
        'conv1d_stride2': conv1d_stride2,
        'conv1d_stride2_frule': conv1d_stride2_frule,
        'conv1d_stride2_rrule': conv1d_stride2_rrule,
        'conv2d': conv2d,
        'conv2d_frule': conv2d_frule,
        'conv2d_rrule': conv2d_rrule,
        'conv2d_batch': conv2d_batch,
        'conv2d_batch_frule': conv2d_batch_frule,
        'conv2d_batch_rrule': conv2d_batch_rrule,
        'depthwise_conv2d': depthwise_conv2d,
        'depthwise_conv2d_frule': depthwise_conv2d_frule,
        'depthwise_conv2d_rrule': depthwise_conv2d_rrule,
        'laplacian': laplacian,
        'laplacian_frule': laplacian_frule,
        'laplacian_rrule': laplacian_rrule,
        '__batched_conv1d': _op___batched_conv1d,
        '__batched_conv1d_frule': _op___batched_conv1d_frule,
        '__batched_conv1d_rrule': _op___batched_conv1d_rrule,
        '__batched_conv1d_stride2': _op___batched_conv1d_stride2,
        '__batched_conv1d_stride2_frule': _op___batched_conv1d_stride2_frule,
        '__batched_conv1d_stride2_rrule': _op___batched_conv1d_stride2_rrule,
        '__batched_conv2d': _op___batched_conv2d,
        '__batched_conv2d_frule': _op___batched_conv2d_frule,
        '__batched_conv2d_rrule': _op___batched_conv2d_rrule,
        '__batched_conv2d_batch': _op___batched_conv2d_batch,
        '__batched_conv2d_batch_frule': _op___batched_conv2d_batch_frule,
        '__batched_conv2d_batch_rrule': _op___batched_conv2d_batch_rrule,
        '__batched_depthwise_conv2d': _op___batched_depthwise_conv2d,
        '__batched_depthwise_conv2d_frule': _op___batched_depthwise_conv2d_frule,
        '__batched_depthwise_conv2d_rrule': _op___batched_depthwise_conv2d_rrule,
        '__batched_laplacian': _op___batched_laplacian,
        '__batched_laplacian_frule': _op___batched_laplacian_frule,
        '__batched_laplacian_rrule': _op___batched_laplacian_rrule,
    }


OPS = {'conv1d': {'signature': 'conv1d(x[t], w[k]) -> y[i]',
            'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['t']},
                       {'name': 'w', 'kind': 'tensor', 'indices': ['k']}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'equal_extents': [],
            'domains': {'x': 'real', 'w': 'real'},
            'shifted': [['t', [[1, 'i'], [1, 'k']], 0]],
            'source': 'rules/conv.rules:11',
            'doc': '1-D convolution: np.correlate(x, w, "valid").',
            'batched': '__batched_conv1d'},
 'conv1d_stride2': {'signature': 'conv1d_stride2(x[t], w[k]) -> y[i]',
                    'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['t']},
                               {'name': 'w', 'kind': 'tensor', 'indices': ['k']}],
                    'outputs': [{'name': 'y', 'indices': ['i']}],
                    'equal_extents': [],
                    'domains': {'x': 'real', 'w': 'real'},
                    'shifted': [['t', [[2, 'i'], [1, 'k']], 0]],
                    'source': 'rules/conv.rules:13',
                    'doc': 'Strided: every second output of conv1d, computed directly.',
                    'batched': '__batched_conv1d_stride2'},
 'conv2d': {'signature': 'conv2d(x[c,s,t], K[o,c,p,q]) -> y[o,h,w]',
            'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['c', 's', 't']},
                       {'name': 'K', 'kind': 'tensor', 'indices': ['o', 'c', 'p', 'q']}],
            'outputs': [{'name': 'y', 'indices': ['o', 'h', 'w']}],
            'equal_extents': [],
            'domains': {'x': 'real', 'K': 'real'},
            'shifted': [['s', [[1, 'h'], [1, 'p']], 0], ['t', [[1, 'w'], [1, 'q']], 0]],
            'source': 'rules/conv.rules:15',
            'doc': '2-D convolution with channels: input channels c, output channels o, a kernel of any '
                   'size.',
            'batched': '__batched_conv2d'},
 'conv2d_batch': {'signature': 'conv2d_batch(x[n,c,s,t], K[o,c,p,q]) -> y[n,o,h,w]',
                  'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['n', 'c', 's', 't']},
                             {'name': 'K', 'kind': 'tensor', 'indices': ['o', 'c', 'p', 'q']}],
                  'outputs': [{'name': 'y', 'indices': ['n', 'o', 'h', 'w']}],
                  'equal_extents': [],
                  'domains': {'x': 'real', 'K': 'real'},
                  'extents': {'p': 3, 'q': 3},
                  'shifted': [['s', [[1, 'h'], [1, 'p']], 0], ['t', [[1, 'w'], [1, 'q']], 0]],
                  'source': 'rules/conv.rules:17',
                  'doc': 'The same over a batch n, with a 3×3 kernel (as torch.nn.functional.conv2d without '
                         'padding).',
                  'batched': '__batched_conv2d_batch'},
 'depthwise_conv2d': {'signature': 'depthwise_conv2d(x[c,s,t], K[c,p,q]) -> y[c,h,w]',
                      'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['c', 's', 't']},
                                 {'name': 'K', 'kind': 'tensor', 'indices': ['c', 'p', 'q']}],
                      'outputs': [{'name': 'y', 'indices': ['c', 'h', 'w']}],
                      'equal_extents': [],
                      'domains': {'x': 'real', 'K': 'real'},
                      'shifted': [['s', [[1, 'h'], [1, 'p']], 0], ['t', [[1, 'w'], [1, 'q']], 0]],
                      'source': 'rules/conv.rules:19',
                      'doc': 'Depthwise: each channel c convolved with its own kernel.',
                      'batched': '__batched_depthwise_conv2d'},
 'laplacian': {'signature': 'laplacian(u[s,t]) -> L[i,j]',
               'inputs': [{'name': 'u', 'kind': 'tensor', 'indices': ['s', 't']}],
               'outputs': [{'name': 'L', 'indices': ['i', 'j']}],
               'equal_extents': [],
               'domains': {'u': 'real'},
               'shifted': [['s', [[1, 'i']], 0],
                           ['s', [[1, 'i']], 2],
                           ['s', [[1, 'i']], 1],
                           ['t', [[1, 'j']], 1],
                           ['t', [[1, 'j']], 0],
                           ['t', [[1, 'j']], 2]],
               'source': 'rules/conv.rules:21',
               'doc': 'The 5-point Laplacian at the interior points of a grid (L[i,j] sits at u[i+1,j+1]).',
               'batched': '__batched_laplacian'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'conv1d': {'name': 'conv1d',
            'signature': 'conv1d(x[t], w[k]) -> y[i]',
            'file': 'rules/conv.rules',
            'line': 11,
            'text': 'conv1d(x[t], w[k]) -> y[i] = sum(k, x[i+k] * w[k])',
            'doc': '1-D convolution: np.correlate(x, w, "valid").',
            'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['t'], 'domain': 'real', 'declared': False},
                       {'name': 'w',
                        'kind': 'tensor',
                        'indices': ['k'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'y', 'indices': ['i']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dy',
                             'text': 'dy[i] = Σ_k dw[k]·x[i+k] + Σ_k dx[i+k]·w[k]',
                             'latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}w_{k} x_{i+k} + \\sum_{k} '
                                      '\\mathrm{d}x_{i+k} w_{k}',
                             'matrix': None,
                             'index': 'dy[i] = Σ_k dw[k]·x[i+k] + Σ_k dx[i+k]·w[k]',
                             'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}w_{k} x_{i+k} + '
                                            '\\sum_{k} \\mathrm{d}x_{i+k} w_{k}'}],
            'pullback': [{'target': 'dx',
                          'text': 'dx[t] = Σ_l dy[t-l]·w[l]',
                          'latex': '\\mathrm{d}x_{t} = \\sum_{l} \\mathrm{d}y_{t-l} w_{l}',
                          'matrix': None,
                          'index': 'dx[t] = Σ_l dy[t-l]·w[l]',
                          'index_latex': '\\mathrm{d}x_{t} = \\sum_{l} \\mathrm{d}y_{t-l} w_{l}'},
                         {'target': 'dw',
                          'text': 'dw[k] = Σ_l dy[l]·x[k+l]',
                          'latex': '\\mathrm{d}w_{k} = \\sum_{l} \\mathrm{d}y_{l} x_{k+l}',
                          'matrix': None,
                          'index': 'dw[k] = Σ_l dy[l]·x[k+l]',
                          'index_latex': '\\mathrm{d}w_{k} = \\sum_{l} \\mathrm{d}y_{l} x_{k+l}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': ['x', 'w'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 4,
                             'skipped': 0,
                             'extents': [{'t': 6, 'k': 3}, {'t': 6, 'k': 4}]}},
 'conv1d_stride2': {'name': 'conv1d_stride2',
                    'signature': 'conv1d_stride2(x[t], w[k]) -> y[i]',
                    'file': 'rules/conv.rules',
                    'line': 13,
                    'text': 'conv1d_stride2(x[t], w[k]) -> y[i] = sum(k, x[2*i+k] * w[k])',
                    'doc': 'Strided: every second output of conv1d, computed directly.',
                    'inputs': [{'name': 'x',
                                'kind': 'tensor',
                                'indices': ['t'],
                                'domain': 'real',
                                'declared': False},
                               {'name': 'w',
                                'kind': 'tensor',
                                'indices': ['k'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'y', 'indices': ['i']}],
                    'extents': {},
                    'equal_extents': [],
                    'pushforward': [{'target': 'dy',
                                     'text': 'dy[i] = Σ_k dw[k]·x[2i+k] + Σ_k dx[2i+k]·w[k]',
                                     'latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}w_{k} x_{2i+k} + '
                                              '\\sum_{k} \\mathrm{d}x_{2i+k} w_{k}',
                                     'matrix': None,
                                     'index': 'dy[i] = Σ_k dw[k]·x[2i+k] + Σ_k dx[2i+k]·w[k]',
                                     'index_latex': '\\mathrm{d}y_{i} = \\sum_{k} \\mathrm{d}w_{k} x_{2i+k} '
                                                    '+ \\sum_{k} \\mathrm{d}x_{2i+k} w_{k}'}],
                    'pullback': [{'target': 'dx',
                                  'text': 'dx[t] = Σ_k dy[k]·w[t-2k]',
                                  'latex': '\\mathrm{d}x_{t} = \\sum_{k} \\mathrm{d}y_{k} w_{t-2k}',
                                  'matrix': None,
                                  'index': 'dx[t] = Σ_k dy[k]·w[t-2k]',
                                  'index_latex': '\\mathrm{d}x_{t} = \\sum_{k} \\mathrm{d}y_{k} w_{t-2k}'},
                                 {'target': 'dw',
                                  'text': 'dw[k] = Σ_l dy[l]·x[k+2l]',
                                  'latex': '\\mathrm{d}w_{k} = \\sum_{l} \\mathrm{d}y_{l} x_{k+2l}',
                                  'matrix': None,
                                  'index': 'dw[k] = Σ_l dy[l]·x[k+2l]',
                                  'index_latex': '\\mathrm{d}w_{k} = \\sum_{l} \\mathrm{d}y_{l} x_{k+2l}'}],
                    'holds_for': 'every real input',
                    'saves': {'inputs': ['x', 'w'], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'t': 10, 'k': 3}, {'t': 9, 'k': 4}]}},
 'conv2d': {'name': 'conv2d',
            'signature': 'conv2d(x[c,s,t], K[o,c,p,q]) -> y[o,h,w]',
            'file': 'rules/conv.rules',
            'line': 15,
            'text': 'conv2d(x[c,s,t], K[o,c,p,q]) -> y[o,h,w] = sum(c, p, q, x[c,h+p,w+q] * K[o,c,p,q])',
            'doc': '2-D convolution with channels: input channels c, output channels o, a kernel of any '
                   'size.',
            'inputs': [{'name': 'x',
                        'kind': 'tensor',
                        'indices': ['c', 's', 't'],
                        'domain': 'real',
                        'declared': False},
                       {'name': 'K',
                        'kind': 'tensor',
                        'indices': ['o', 'c', 'p', 'q'],
                        'domain': 'real',
                        'declared': False}],
            'outputs': [{'name': 'y', 'indices': ['o', 'h', 'w']}],
            'extents': {},
            'equal_extents': [],
            'pushforward': [{'target': 'dy',
                             'text': 'dy[o,h,w] = Σ_klm K[o,k,l,m]·dx[k,h+l,m+w] + Σ_klm '
                                     'dK[o,k,l,m]·x[k,h+l,m+w]',
                             'latex': '\\mathrm{d}y_{ohw} = \\sum_{klm} K_{oklm} \\mathrm{d}x_{k,h+l,m+w} + '
                                      '\\sum_{klm} \\mathrm{d}K_{oklm} x_{k,h+l,m+w}',
                             'matrix': None,
                             'index': 'dy[o,h,w] = Σ_klm K[o,k,l,m]·dx[k,h+l,m+w] + Σ_klm '
                                      'dK[o,k,l,m]·x[k,h+l,m+w]',
                             'index_latex': '\\mathrm{d}y_{ohw} = \\sum_{klm} K_{oklm} '
                                            '\\mathrm{d}x_{k,h+l,m+w} + \\sum_{klm} \\mathrm{d}K_{oklm} '
                                            'x_{k,h+l,m+w}'}],
            'pullback': [{'target': 'dx',
                          'text': 'dx[c,s,t] = Σ_knr K[k,c,n,r]·dy[k,s-n,t-r]',
                          'latex': '\\mathrm{d}x_{cst} = \\sum_{knr} K_{kcnr} \\mathrm{d}y_{k,s-n,t-r}',
                          'matrix': None,
                          'index': 'dx[c,s,t] = Σ_knr K[k,c,n,r]·dy[k,s-n,t-r]',
                          'index_latex': '\\mathrm{d}x_{cst} = \\sum_{knr} K_{kcnr} '
                                         '\\mathrm{d}y_{k,s-n,t-r}'},
                         {'target': 'dK',
                          'text': 'dK[o,c,p,q] = Σ_kl dy[o,k,l]·x[c,k+p,l+q]',
                          'latex': '\\mathrm{d}K_{ocpq} = \\sum_{kl} \\mathrm{d}y_{okl} x_{c,k+p,l+q}',
                          'matrix': None,
                          'index': 'dK[o,c,p,q] = Σ_kl dy[o,k,l]·x[c,k+p,l+q]',
                          'index_latex': '\\mathrm{d}K_{ocpq} = \\sum_{kl} \\mathrm{d}y_{okl} '
                                         'x_{c,k+p,l+q}'}],
            'holds_for': 'every real input',
            'saves': {'inputs': ['x', 'K'], 'outputs': [], 'intermediates': []},
            'verified': True,
            'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                             'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                             'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                             'points': 4,
                             'skipped': 0,
                             'extents': [{'c': 3, 's': 11, 't': 13, 'o': 4, 'p': 5, 'q': 6},
                                         {'c': 8, 's': 9, 't': 7, 'o': 7, 'p': 6, 'q': 5}]}},
 'conv2d_batch': {'name': 'conv2d_batch',
                  'signature': 'conv2d_batch(x[n,c,s,t], K[o,c,p,q]) -> y[n,o,h,w]',
                  'file': 'rules/conv.rules',
                  'line': 17,
                  'text': 'conv2d_batch(x[n,c,s,t], K[o,c,p:3,q:3]) -> y[n,o,h,w] = sum(c, p, q, '
                          'x[n,c,h+p,w+q] * K[o,c,p,q])',
                  'doc': 'The same over a batch n, with a 3×3 kernel (as torch.nn.functional.conv2d without '
                         'padding).',
                  'inputs': [{'name': 'x',
                              'kind': 'tensor',
                              'indices': ['n', 'c', 's', 't'],
                              'domain': 'real',
                              'declared': False},
                             {'name': 'K',
                              'kind': 'tensor',
                              'indices': ['o', 'c', 'p', 'q'],
                              'domain': 'real',
                              'declared': False}],
                  'outputs': [{'name': 'y', 'indices': ['n', 'o', 'h', 'w']}],
                  'extents': {'p': 3, 'q': 3},
                  'equal_extents': [],
                  'pushforward': [{'target': 'dy',
                                   'text': 'dy[n,o,h,w] = Σ_klm K[o,k,l,m]·dx[n,k,h+l,m+w] + Σ_klm '
                                           'dK[o,k,l,m]·x[n,k,h+l,m+w]',
                                   'latex': '\\mathrm{d}y_{nohw} = \\sum_{klm} K_{oklm} '
                                            '\\mathrm{d}x_{n,k,h+l,m+w} + \\sum_{klm} \\mathrm{d}K_{oklm} '
                                            'x_{n,k,h+l,m+w}',
                                   'matrix': None,
                                   'index': 'dy[n,o,h,w] = Σ_klm K[o,k,l,m]·dx[n,k,h+l,m+w] + Σ_klm '
                                            'dK[o,k,l,m]·x[n,k,h+l,m+w]',
                                   'index_latex': '\\mathrm{d}y_{nohw} = \\sum_{klm} K_{oklm} '
                                                  '\\mathrm{d}x_{n,k,h+l,m+w} + \\sum_{klm} '
                                                  '\\mathrm{d}K_{oklm} x_{n,k,h+l,m+w}'}],
                  'pullback': [{'target': 'dx',
                                'text': 'dx[n,c,s,t] = Σ_klmru K[k,c,r,u]·dy[n,k,l,m]·δ[s,l+r]·δ[t,m+u]',
                                'latex': '\\mathrm{d}x_{ncst} = \\sum_{klmru} K_{kcru} \\mathrm{d}y_{nklm} '
                                         '\\delta_{s,l+r} \\delta_{t,m+u}',
                                'matrix': None,
                                'index': 'dx[n,c,s,t] = Σ_klmru K[k,c,r,u]·dy[n,k,l,m]·δ[s,l+r]·δ[t,m+u]',
                                'index_latex': '\\mathrm{d}x_{ncst} = \\sum_{klmru} K_{kcru} '
                                               '\\mathrm{d}y_{nklm} \\delta_{s,l+r} \\delta_{t,m+u}'},
                               {'target': 'dK',
                                'text': 'dK[o,c,p,q] = Σ_klm dy[k,o,l,m]·x[k,c,l+p,m+q]',
                                'latex': '\\mathrm{d}K_{ocpq} = \\sum_{klm} \\mathrm{d}y_{kolm} '
                                         'x_{k,c,l+p,m+q}',
                                'matrix': None,
                                'index': 'dK[o,c,p,q] = Σ_klm dy[k,o,l,m]·x[k,c,l+p,m+q]',
                                'index_latex': '\\mathrm{d}K_{ocpq} = \\sum_{klm} \\mathrm{d}y_{kolm} '
                                               'x_{k,c,l+p,m+q}'}],
                  'holds_for': 'every real input',
                  'saves': {'inputs': ['x', 'K'], 'outputs': [], 'intermediates': []},
                  'verified': True,
                  'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                   'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                   'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                   'points': 4,
                                   'skipped': 0,
                                   'extents': [{'n': 3, 'c': 4, 's': 8, 't': 9, 'o': 5, 'p': 3, 'q': 3},
                                               {'n': 7, 'c': 6, 's': 6, 't': 5, 'o': 5, 'p': 3, 'q': 3}]}},
 'depthwise_conv2d': {'name': 'depthwise_conv2d',
                      'signature': 'depthwise_conv2d(x[c,s,t], K[c,p,q]) -> y[c,h,w]',
                      'file': 'rules/conv.rules',
                      'line': 19,
                      'text': 'depthwise_conv2d(x[c,s,t], K[c,p,q]) -> y[c,h,w] = sum(p, q, x[c,h+p,w+q] * '
                              'K[c,p,q])',
                      'doc': 'Depthwise: each channel c convolved with its own kernel.',
                      'inputs': [{'name': 'x',
                                  'kind': 'tensor',
                                  'indices': ['c', 's', 't'],
                                  'domain': 'real',
                                  'declared': False},
                                 {'name': 'K',
                                  'kind': 'tensor',
                                  'indices': ['c', 'p', 'q'],
                                  'domain': 'real',
                                  'declared': False}],
                      'outputs': [{'name': 'y', 'indices': ['c', 'h', 'w']}],
                      'extents': {},
                      'equal_extents': [],
                      'pushforward': [{'target': 'dy',
                                       'text': 'dy[c,h,w] = Σ_kl K[c,k,l]·dx[c,h+k,l+w] + Σ_kl '
                                               'dK[c,k,l]·x[c,h+k,l+w]',
                                       'latex': '\\mathrm{d}y_{chw} = \\sum_{kl} K_{ckl} '
                                                '\\mathrm{d}x_{c,h+k,l+w} + \\sum_{kl} \\mathrm{d}K_{ckl} '
                                                'x_{c,h+k,l+w}',
                                       'matrix': None,
                                       'index': 'dy[c,h,w] = Σ_kl K[c,k,l]·dx[c,h+k,l+w] + Σ_kl '
                                                'dK[c,k,l]·x[c,h+k,l+w]',
                                       'index_latex': '\\mathrm{d}y_{chw} = \\sum_{kl} K_{ckl} '
                                                      '\\mathrm{d}x_{c,h+k,l+w} + \\sum_{kl} '
                                                      '\\mathrm{d}K_{ckl} x_{c,h+k,l+w}'}],
                      'pullback': [{'target': 'dx',
                                    'text': 'dx[c,s,t] = Σ_mn K[c,m,n]·dy[c,s-m,t-n]',
                                    'latex': '\\mathrm{d}x_{cst} = \\sum_{mn} K_{cmn} '
                                             '\\mathrm{d}y_{c,s-m,t-n}',
                                    'matrix': None,
                                    'index': 'dx[c,s,t] = Σ_mn K[c,m,n]·dy[c,s-m,t-n]',
                                    'index_latex': '\\mathrm{d}x_{cst} = \\sum_{mn} K_{cmn} '
                                                   '\\mathrm{d}y_{c,s-m,t-n}'},
                                   {'target': 'dK',
                                    'text': 'dK[c,p,q] = Σ_kl dy[c,k,l]·x[c,k+p,l+q]',
                                    'latex': '\\mathrm{d}K_{cpq} = \\sum_{kl} \\mathrm{d}y_{ckl} '
                                             'x_{c,k+p,l+q}',
                                    'matrix': None,
                                    'index': 'dK[c,p,q] = Σ_kl dy[c,k,l]·x[c,k+p,l+q]',
                                    'index_latex': '\\mathrm{d}K_{cpq} = \\sum_{kl} \\mathrm{d}y_{ckl} '
                                                   'x_{c,k+p,l+q}'}],
                      'holds_for': 'every real input',
                      'saves': {'inputs': ['x', 'K'], 'outputs': [], 'intermediates': []},
                      'verified': True,
                      'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                       'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                       'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                       'points': 4,
                                       'skipped': 0,
                                       'extents': [{'c': 3, 's': 9, 't': 11, 'p': 4, 'q': 5},
                                                   {'c': 7, 's': 9, 't': 7, 'p': 6, 'q': 5}]}},
 'laplacian': {'name': 'laplacian',
               'signature': 'laplacian(u[s,t]) -> L[i,j]',
               'file': 'rules/conv.rules',
               'line': 21,
               'text': 'laplacian(u[s,t]) -> L[i,j] = u[i,j+1] + u[i+2,j+1] + u[i+1,j] + u[i+1,j+2] - '
                       '4*u[i+1,j+1]',
               'doc': 'The 5-point Laplacian at the interior points of a grid (L[i,j] sits at u[i+1,j+1]).',
               'inputs': [{'name': 'u',
                           'kind': 'tensor',
                           'indices': ['s', 't'],
                           'domain': 'real',
                           'declared': False}],
               'outputs': [{'name': 'L', 'indices': ['i', 'j']}],
               'extents': {},
               'equal_extents': [],
               'pushforward': [{'target': 'dL',
                                'text': 'dL[i,j] = -4·du[i+1,j+1] + du[i+1,j+2] + du[i+1,j] + du[i+2,j+1] + '
                                        'du[i,j+1]',
                                'latex': '\\mathrm{d}L_{ij} = - 4 \\mathrm{d}u_{i+1,j+1} + '
                                         '\\mathrm{d}u_{i+1,j+2} + \\mathrm{d}u_{i+1,j} + '
                                         '\\mathrm{d}u_{i+2,j+1} + \\mathrm{d}u_{i,j+1}',
                                'matrix': None,
                                'index': 'dL[i,j] = -4·du[i+1,j+1] + du[i+1,j+2] + du[i+1,j] + du[i+2,j+1] + '
                                         'du[i,j+1]',
                                'index_latex': '\\mathrm{d}L_{ij} = - 4 \\mathrm{d}u_{i+1,j+1} + '
                                               '\\mathrm{d}u_{i+1,j+2} + \\mathrm{d}u_{i+1,j} + '
                                               '\\mathrm{d}u_{i+2,j+1} + \\mathrm{d}u_{i,j+1}'}],
               'pullback': [{'target': 'du',
                             'text': 'du[s,t] = dL[s-1,t-2] + dL[s-1,t] + dL[s-2,t-1] + dL[s,t-1] - '
                                     '4·dL[s-1,t-1]',
                             'latex': '\\mathrm{d}u_{st} = \\mathrm{d}L_{s-1,t-2} + \\mathrm{d}L_{s-1,t} + '
                                      '\\mathrm{d}L_{s-2,t-1} + \\mathrm{d}L_{s,t-1} -  4 '
                                      '\\mathrm{d}L_{s-1,t-1}',
                             'matrix': None,
                             'index': 'du[s,t] = dL[s-1,t-2] + dL[s-1,t] + dL[s-2,t-1] + dL[s,t-1] - '
                                      '4·dL[s-1,t-1]',
                             'index_latex': '\\mathrm{d}u_{st} = \\mathrm{d}L_{s-1,t-2} + '
                                            '\\mathrm{d}L_{s-1,t} + \\mathrm{d}L_{s-2,t-1} + '
                                            '\\mathrm{d}L_{s,t-1} -  4 \\mathrm{d}L_{s-1,t-1}'}],
               'holds_for': 'every real input',
               'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
               'verified': True,
               'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                'reference': {'below': 1e-09, 'tolerance': 1e-06, 'points': 6},
                                'points': 4,
                                'skipped': 0,
                                'extents': [{'s': 5, 't': 6}, {'s': 6, 't': 5}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
