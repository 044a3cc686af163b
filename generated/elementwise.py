# @generated from rules/elementwise.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: elementwise functions.

Vocabulary (every .rules file): a rule is `name(inputs) -> outputs = expression`, or `:` and an
indented block of statements. `x[i]` is a tensor with one index; an index repeated in a product and
absent from the left side is summed (Einstein); `sum(k, e)` sums explicitly. A bare name in the
header (`s`) is a differentiable scalar; `n: int` is a non-differentiable integer (its cotangent is
NoTangent). See docs/language.md for the whole language.

Every rule in this file maps each element independently, so the generated functions accept arrays of
any shape (the index i stands for all of them)."""
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

    # ---- sin(x[i]) -> y[i]    (rules/elementwise.rules:13)
    # The ChainRules documentation example, in pieces and whole: foo(x) = asin(0.2 + sin(x)).
    def sin(x):
        y = np.sin(x)
        return y

    def sin_frule(tangents, x):
        _, dx = tangents
        y = np.sin(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (np.cos(x) * dx))
        return y, dy_

    def sin_rrule(x):
        y = np.sin(x)
        def sin_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.cos(x))
            return (_NO, dx)
        return y, sin_pullback

    # ---- asin(x[i]) -> y[i]    (rules/elementwise.rules:14)
    def asin(x):
        y = np.arcsin(x)
        return y

    def asin_frule(tangents, x):
        _, dx = tangents
        y = np.arcsin(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, ((1 / np.sqrt((1.0 - (x * x)))) * dx))
        return y, dy_

    def asin_rrule(x):
        y = np.arcsin(x)
        def asin_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = ((1 / np.sqrt((1.0 - (x * x)))) * dy_)
            return (_NO, dx)
        return y, asin_pullback

    # ---- foo(x[i]) -> y[i]    (rules/elementwise.rules:15)
    def foo(x):
        y = np.arcsin((0.2 + np.sin(x)))
        return y

    def foo_frule(tangents, x):
        _, dx = tangents
        _e3 = np.sin(x)
        y = np.arcsin((0.2 + _e3))
        dy_ = _ZERO
        if not is_zero(dx):
            _e7 = (1.0 + (5.0 * _e3))
            dy_ = _add(dy_, ((1 / np.sqrt((1.0 - (0.04 * (_e7 * _e7))))) * np.cos(x) * dx))
        return y, dy_

    def foo_rrule(x):
        _e14 = np.sin(x)
        y = np.arcsin((0.2 + _e14))
        def foo_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            _e18 = (1.0 + (5.0 * _e14))
            dx = ((1 / np.sqrt((1.0 - (0.04 * (_e18 * _e18))))) * dy_ * np.cos(x))
            return (_NO, dx)
        return y, foo_pullback

    # ---- cos(x[i]) -> y[i]    (rules/elementwise.rules:17)
    def cos(x):
        y = np.cos(x)
        return y

    def cos_frule(tangents, x):
        _, dx = tangents
        y = np.cos(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (-(dx * np.sin(x))))
        return y, dy_

    def cos_rrule(x):
        y = np.cos(x)
        def cos_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (-(dy_ * np.sin(x)))
            return (_NO, dx)
        return y, cos_pullback

    # ---- exp(x[i]) -> y[i]    (rules/elementwise.rules:18)
    def exp(x):
        y = np.exp(x)
        return y

    def exp_frule(tangents, x):
        _, dx = tangents
        y = np.exp(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * y))
        return y, dy_

    def exp_rrule(x):
        y = np.exp(x)
        def exp_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * y)
            return (_NO, dx)
        return y, exp_pullback

    # ---- log(x[i]) -> y[i]    (rules/elementwise.rules:19)
    def log(x):
        y = np.log(x)
        return y

    def log_frule(tangents, x):
        _, dx = tangents
        y = np.log(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (1 / x * dx))
        return y, dy_

    def log_rrule(x):
        y = np.log(x)
        def log_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (1 / x * dy_)
            return (_NO, dx)
        return y, log_pullback

    # ---- log1p(x[i]) -> y[i]    (rules/elementwise.rules:20)
    def log1p(x):
        y = np.log1p(x)
        return y

    def log1p_frule(tangents, x):
        _, dx = tangents
        y = np.log1p(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (1 / (1.0 + x) * dx))
        return y, dy_

    def log1p_rrule(x):
        y = np.log1p(x)
        def log1p_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (1 / (1.0 + x) * dy_)
            return (_NO, dx)
        return y, log1p_pullback

    # ---- expm1(x[i]) -> y[i]    (rules/elementwise.rules:21)
    def expm1(x):
        y = np.expm1(x)
        return y

    def expm1_frule(tangents, x):
        _, dx = tangents
        y = np.expm1(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * np.exp(x)))
        return y, dy_

    def expm1_rrule(x):
        y = np.expm1(x)
        def expm1_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.exp(x))
            return (_NO, dx)
        return y, expm1_pullback

    # ---- sqrt(x[i]) -> y[i]    (rules/elementwise.rules:22)
    def sqrt(x):
        y = np.sqrt(x)
        return y

    def sqrt_frule(tangents, x):
        _, dx = tangents
        y = np.sqrt(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (0.5 * 1 / y * dx))
        return y, dy_

    def sqrt_rrule(x):
        y = np.sqrt(x)
        def sqrt_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (0.5 * 1 / y * dy_)
            return (_NO, dx)
        return y, sqrt_pullback

    # ---- tanh(x[i]) -> y[i]    (rules/elementwise.rules:23)
    def tanh(x):
        y = np.tanh(x)
        return y

    def tanh_frule(tangents, x):
        _, dx = tangents
        y = np.tanh(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, ((1.0 - (y * y)) * dx))
        return y, dy_

    def tanh_rrule(x):
        y = np.tanh(x)
        def tanh_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = ((1.0 - (y * y)) * dy_)
            return (_NO, dx)
        return y, tanh_pullback

    # ---- sigmoid(x[i]) -> y[i]    (rules/elementwise.rules:24)
    def sigmoid(x):
        y = np.sigmoid(x)
        return y

    def sigmoid_frule(tangents, x):
        _, dx = tangents
        y = np.sigmoid(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * np.sigmoid((-x)) * y))
        return y, dy_

    def sigmoid_rrule(x):
        y = np.sigmoid(x)
        def sigmoid_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.sigmoid((-x)) * y)
            return (_NO, dx)
        return y, sigmoid_pullback

    # ---- softplus(x[i]) -> y[i]    (rules/elementwise.rules:25)
    def softplus(x):
        y = np.softplus(x)
        return y

    def softplus_frule(tangents, x):
        _, dx = tangents
        y = np.softplus(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * np.sigmoid(x)))
        return y, dy_

    def softplus_rrule(x):
        y = np.softplus(x)
        def softplus_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.sigmoid(x))
            return (_NO, dx)
        return y, softplus_pullback

    # ---- relu(x[i]) -> y[i]    (rules/elementwise.rules:26)
    def relu(x):
        y = np.relu(x)
        return y

    def relu_frule(tangents, x):
        _, dx = tangents
        y = np.relu(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * np.step(x)))
        return y, dy_

    def relu_rrule(x):
        y = np.relu(x)
        def relu_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.step(x))
            return (_NO, dx)
        return y, relu_pullback

    # ---- erf(x[i]) -> y[i]    (rules/elementwise.rules:27)
    def erf(x):
        y = np.erf(x)
        return y

    def erf_frule(tangents, x):
        _, dx = tangents
        y = np.erf(x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (1.1283791670955126 * dx * np.exp((-(x * x)))))
        return y, dy_

    def erf_rrule(x):
        y = np.erf(x)
        def erf_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (1.1283791670955126 * dy_ * np.exp((-(x * x))))
            return (_NO, dx)
        return y, erf_pullback

    # ---- leaky_relu(x[i]) -> y[i]    (rules/elementwise.rules:30)
    # Leaky ReLU with a fixed slope: where() picks a branch, each branch differentiated on its own.
    def leaky_relu(x):
        y = np.where((x > 0.0), x, (0.01 * x))
        return y

    def leaky_relu_frule(tangents, x):
        _, dx = tangents
        y = np.where((x > 0.0), x, (0.01 * x))
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * np.asarray(np.where((x > 0.0), 1.0, 0.01), dtype=np.result_type(x))))
        return y, dy_

    def leaky_relu_rrule(x):
        y = np.where((x > 0.0), x, (0.01 * x))
        def leaky_relu_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (dy_ * np.asarray(np.where((x > 0.0), 1.0, 0.01), dtype=np.result_type(x)))
            return (_NO, dx)
        return y, leaky_relu_pullback

    # ---- gelu(x[i]) -> y[i]    (rules/elementwise.rules:33)
    # GELU, exact form: x·Φ(x) with Φ(x) = erfc(-x/√2)/2 (1 + erf(x/√2) would cancel to 0 for x ≪ 0).
    def gelu(x):
        y = (0.5 * np.erfc((-0.7071067811865476 * x)) * x)
        return y

    def gelu_frule(tangents, x):
        _, dx = tangents
        _e4 = np.erfc((-0.7071067811865476 * x))
        y = (0.5 * _e4 * x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, (((0.5 * _e4) + (0.3989422804014327 * np.exp((-0.5 * (x * x))) * x)) * dx))
        return y, dy_

    def gelu_rrule(x):
        _e14 = np.erfc((-0.7071067811865476 * x))
        y = (0.5 * _e14 * x)
        def gelu_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (((0.5 * _e14) + (0.3989422804014327 * np.exp((-0.5 * (x * x))) * x)) * dy_)
            return (_NO, dx)
        return y, gelu_pullback

    # ---- scale(x[i], s) -> y[i]    (rules/elementwise.rules:36)
    # A scalar parameter (differentiable) and an integer one (not: its cotangent is NoTangent).
    def scale(x, s):
        y = (s * x)
        return y

    def scale_frule(tangents, x, s):
        _, dx, ds = tangents
        y = (s * x)
        dy_ = _ZERO
        if not is_zero(ds):
            dy_ = _add(dy_, (ds * x))
        if not is_zero(dx):
            dy_ = _add(dy_, (dx * s))
        return y, dy_

    def scale_rrule(x, s):
        y = (s * x)
        def scale_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _ZERO)
            def _pb_x_5():
                dx = (dy_ * s)
                return dx
            def _pb_s_7():
                ds = np.sum((dy_ * x), axis=0)
                return ds
            return (_NO, Thunk(_pb_x_5), Thunk(_pb_s_7))
        return y, scale_pullback

    # ---- power(x[i], n: int) -> y[i]    (rules/elementwise.rules:37)
    def power(x, n):
        y = (x ** n)
        return y

    def power_frule(tangents, x, n):
        _, dx, dn = tangents
        y = (x ** n)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, ((x ** np.asarray(np.where((n != 0.0), (n - 1.0), 0.0), dtype=np.result_type(x))) * dx * n))
        return y, dy_

    def power_rrule(x, n):
        y = (x ** n)
        def power_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO, _NO)
            dx = ((x ** np.asarray(np.where((n != 0.0), (n - 1.0), 0.0), dtype=np.result_type(x))) * dy_ * n)
            return (_NO, dx, _NO)
        return y, power_pullback

    return {
        'sin': sin,
        'sin_frule': sin_frule,
        'sin_rrule': sin_rrule,
        'asin': asin,
        'asin_frule': asin_frule,
        'asin_rrule': asin_rrule,
        'foo': foo,
        'foo_frule': foo_frule,
        'foo_rrule': foo_rrule,
        'cos': cos,
        'cos_frule': cos_frule,
        'cos_rrule': cos_rrule,
        'exp': exp,
        'exp_frule': exp_frule,
        'exp_rrule': exp_rrule,
        'log': log,
        'log_frule': log_frule,
        'log_rrule': log_rrule,
        'log1p': log1p,
        'log1p_frule': log1p_frule,
        'log1p_rrule': log1p_rrule,
        'expm1': expm1,
        'expm1_frule': expm1_frule,
        'expm1_rrule': expm1_rrule,
        'sqrt': sqrt,
        'sqrt_frule': sqrt_frule,
        'sqrt_rrule': sqrt_rrule,
        'tanh': tanh,
        'tanh_frule': tanh_frule,
        'tanh_rrule': tanh_rrule,
        'sigmoid': sigmoid,
        'sigmoid_frule': sigmoid_frule,
        'sigmoid_rrule': sigmoid_rrule,
        'softplus': softplus,
        'softplus_frule': softplus_frule,
        'softplus_rrule': softplus_rrule,
        'relu': relu,
        'relu_frule': relu_frule,
        'relu_rrule': relu_rrule,
        'erf': erf,
        'erf_frule': erf_frule,
        'erf_rrule': erf_rrule,
        'leaky_relu': leaky_relu,
        'leaky_relu_frule': leaky_relu_frule,
        'leaky_relu_rrule': leaky_relu_rrule,
        'gelu': gelu,
        'gelu_frule': gelu_frule,
        'gelu_rrule': gelu_rrule,
        'scale': scale,
        'scale_frule': scale_frule,
        'scale_rrule': scale_rrule,
        'power': power,
        'power_frule': power_frule,
        'power_rrule': power_rrule,
    }


OPS = {'sin': {'signature': 'sin(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:13',
         'doc': 'The ChainRules documentation example, in pieces and whole: foo(x) = asin(0.2 + sin(x)).'},
 'asin': {'signature': 'asin(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:14'},
 'foo': {'signature': 'foo(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:15'},
 'cos': {'signature': 'cos(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:17'},
 'exp': {'signature': 'exp(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:18'},
 'log': {'signature': 'log(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'positive'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:19'},
 'log1p': {'signature': 'log1p(x[i]) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:20'},
 'expm1': {'signature': 'expm1(x[i]) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:21'},
 'sqrt': {'signature': 'sqrt(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'positive'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:22'},
 'tanh': {'signature': 'tanh(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:23'},
 'sigmoid': {'signature': 'sigmoid(x[i]) -> y[i]',
             'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
             'outputs': [{'name': 'y', 'indices': ['i']}],
             'equal_extents': [],
             'domains': {'x': 'real'},
             'elementwise': True,
             'source': 'rules/elementwise.rules:24'},
 'softplus': {'signature': 'softplus(x[i]) -> y[i]',
              'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
              'outputs': [{'name': 'y', 'indices': ['i']}],
              'equal_extents': [],
              'domains': {'x': 'real'},
              'elementwise': True,
              'source': 'rules/elementwise.rules:25'},
 'relu': {'signature': 'relu(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:26'},
 'erf': {'signature': 'erf(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:27'},
 'leaky_relu': {'signature': 'leaky_relu(x[i]) -> y[i]',
                'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
                'outputs': [{'name': 'y', 'indices': ['i']}],
                'equal_extents': [],
                'domains': {'x': 'real'},
                'elementwise': True,
                'source': 'rules/elementwise.rules:30',
                'doc': 'Leaky ReLU with a fixed slope: where() picks a branch, each branch differentiated on '
                       'its own.'},
 'gelu': {'signature': 'gelu(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:33',
          'doc': 'GELU, exact form: x·Φ(x) with Φ(x) = erfc(-x/√2)/2 (1 + erf(x/√2) would cancel to 0 for x '
                 '≪ 0).'},
 'scale': {'signature': 'scale(x[i], s) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}, {'name': 's', 'kind': 'scalar'}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real', 's': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:36',
           'doc': 'A scalar parameter (differentiable) and an integer one (not: its cotangent is '
                  'NoTangent).'},
 'power': {'signature': 'power(x[i], n: int) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}, {'name': 'n', 'kind': 'int'}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:37'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'sin': {'name': 'sin',
         'signature': 'sin(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 13,
         'text': 'sin(x[i]) -> y[i] = sin(x[i])',
         'doc': 'The ChainRules documentation example, in pieces and whole: foo(x) = asin(0.2 + sin(x)).',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = cos(x) ⊙ dx',
                          'latex': '\\mathrm{d}y = \\cos{\\left(x \\right)} \\odot \\mathrm{d}x',
                          'matrix': 'dy = cos(x) ⊙ dx',
                          'index': 'dy[i] = dx[i]·cos(x[i])',
                          'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} \\cos{\\left(x_{i} \\right)}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = cos(x) ⊙ dy',
                       'latex': '\\mathrm{d}x = \\cos{\\left(x \\right)} \\odot \\mathrm{d}y',
                       'matrix': 'dx = cos(x) ⊙ dy',
                       'index': 'dx[i] = dy[i]·cos(x[i])',
                       'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} \\cos{\\left(x_{i} \\right)}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'asin': {'name': 'asin',
          'signature': 'asin(x[i]) -> y[i]',
          'file': 'rules/elementwise.rules',
          'line': 14,
          'text': 'asin(x[i]) -> y[i] = asin(x[i])',
          'doc': '',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dy',
                           'text': 'dy = dx/sqrt(1 - x²)',
                           'latex': '\\mathrm{d}y = \\frac{1}{\\sqrt{1 - x^{2}}} \\odot \\mathrm{d}x',
                           'matrix': 'dy = dx/sqrt(1 - x²)',
                           'index': 'dy[i] = dx[i]/sqrt(1 - x[i]²)',
                           'index_latex': '\\mathrm{d}y_{i} = \\frac{\\mathrm{d}x_{i}}{\\sqrt{1 - '
                                          'x_{i}^{2}}}'}],
          'pullback': [{'target': 'dx',
                        'text': 'dx = dy/sqrt(1 - x²)',
                        'latex': '\\mathrm{d}x = \\frac{1}{\\sqrt{1 - x^{2}}} \\odot \\mathrm{d}y',
                        'matrix': 'dx = dy/sqrt(1 - x²)',
                        'index': 'dx[i] = dy[i]/sqrt(1 - x[i]²)',
                        'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y_{i}}{\\sqrt{1 - x_{i}^{2}}}'}],
          'holds_for': 'every real input',
          'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 1},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'foo': {'name': 'foo',
         'signature': 'foo(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 15,
         'text': 'foo(x[i]) -> y[i] = asin(0.2 + sin(x[i]))',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = (cos(x) ⊙ dx)/sqrt(1 - (5·sin(x) + 1)²/25)',
                          'latex': '\\mathrm{d}y = \\frac{1}{\\sqrt{1 - \\frac{\\left(5 \\sin{\\left(x '
                                   '\\right)} + 1\\right)^{2}}{25}}} \\odot \\cos{\\left(x \\right)} \\odot '
                                   '\\mathrm{d}x',
                          'matrix': 'dy = (cos(x) ⊙ dx)/sqrt(1 - (5·sin(x) + 1)²/25)',
                          'index': 'dy[i] = dx[i]·cos(x[i])/sqrt(1 - (5·sin(x[i]) + 1)²/25)',
                          'index_latex': '\\mathrm{d}y_{i} = \\frac{\\mathrm{d}x_{i} \\cos{\\left(x_{i} '
                                         '\\right)}}{\\sqrt{1 - \\frac{\\left(5 \\sin{\\left(x_{i} \\right)} '
                                         '+ 1\\right)^{2}}{25}}}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = (cos(x) ⊙ dy)/sqrt(1 - (5·sin(x) + 1)²/25)',
                       'latex': '\\mathrm{d}x = \\frac{1}{\\sqrt{1 - \\frac{\\left(5 \\sin{\\left(x '
                                '\\right)} + 1\\right)^{2}}{25}}} \\odot \\cos{\\left(x \\right)} \\odot '
                                '\\mathrm{d}y',
                       'matrix': 'dx = (cos(x) ⊙ dy)/sqrt(1 - (5·sin(x) + 1)²/25)',
                       'index': 'dx[i] = dy[i]·cos(x[i])/sqrt(1 - (5·sin(x[i]) + 1)²/25)',
                       'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y_{i} \\cos{\\left(x_{i} '
                                      '\\right)}}{\\sqrt{1 - \\frac{\\left(5 \\sin{\\left(x_{i} \\right)} + '
                                      '1\\right)^{2}}{25}}}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 4},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'cos': {'name': 'cos',
         'signature': 'cos(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 17,
         'text': 'cos(x[i]) -> y[i] = cos(x[i])',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = -sin(x) ⊙ dx',
                          'latex': '\\mathrm{d}y = -\\sin{\\left(x \\right)} \\odot \\mathrm{d}x',
                          'matrix': 'dy = -sin(x) ⊙ dx',
                          'index': 'dy[i] = -dx[i]·sin(x[i])',
                          'index_latex': '\\mathrm{d}y_{i} = - \\mathrm{d}x_{i} \\sin{\\left(x_{i} '
                                         '\\right)}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = -sin(x) ⊙ dy',
                       'latex': '\\mathrm{d}x = -\\sin{\\left(x \\right)} \\odot \\mathrm{d}y',
                       'matrix': 'dx = -sin(x) ⊙ dy',
                       'index': 'dx[i] = -dy[i]·sin(x[i])',
                       'index_latex': '\\mathrm{d}x_{i} = - \\mathrm{d}y_{i} \\sin{\\left(x_{i} \\right)}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'exp': {'name': 'exp',
         'signature': 'exp(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 18,
         'text': 'exp(x[i]) -> y[i] = exp(x[i])',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = y ⊙ dx',
                          'latex': '\\mathrm{d}y = y \\odot \\mathrm{d}x',
                          'matrix': 'dy = y ⊙ dx',
                          'index': 'dy[i] = dx[i]·y[i]',
                          'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} y_{i}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = y ⊙ dy',
                       'latex': '\\mathrm{d}x = y \\odot \\mathrm{d}y',
                       'matrix': 'dx = y ⊙ dy',
                       'index': 'dx[i] = dy[i]·y[i]',
                       'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} y_{i}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'log': {'name': 'log',
         'signature': 'log(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 19,
         'text': 'log(x[i]) -> y[i] = log(x[i])',
         'doc': '',
         'inputs': [{'name': 'x',
                     'kind': 'tensor',
                     'indices': ['i'],
                     'domain': 'positive',
                     'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = dx/x',
                          'latex': '\\mathrm{d}y = \\frac{1}{x} \\odot \\mathrm{d}x',
                          'matrix': 'dy = dx/x',
                          'index': 'dy[i] = dx[i]/x[i]',
                          'index_latex': '\\mathrm{d}y_{i} = \\frac{\\mathrm{d}x_{i}}{x_{i}}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = dy/x',
                       'latex': '\\mathrm{d}x = \\frac{1}{x} \\odot \\mathrm{d}y',
                       'matrix': 'dx = dy/x',
                       'index': 'dx[i] = dy[i]/x[i]',
                       'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y_{i}}{x_{i}}'}],
         'holds_for': 'x > 0',
         'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 5},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'log1p': {'name': 'log1p',
           'signature': 'log1p(x[i]) -> y[i]',
           'file': 'rules/elementwise.rules',
           'line': 20,
           'text': 'log1p(x[i]) -> y[i] = log1p(x[i])',
           'doc': '',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dy',
                            'text': 'dy = dx/(x + 1)',
                            'latex': '\\mathrm{d}y = \\frac{1}{x + 1} \\odot \\mathrm{d}x',
                            'matrix': 'dy = dx/(x + 1)',
                            'index': 'dy[i] = dx[i]/(x[i] + 1)',
                            'index_latex': '\\mathrm{d}y_{i} = \\frac{\\mathrm{d}x_{i}}{x_{i} + 1}'}],
           'pullback': [{'target': 'dx',
                         'text': 'dx = dy/(x + 1)',
                         'latex': '\\mathrm{d}x = \\frac{1}{x + 1} \\odot \\mathrm{d}y',
                         'matrix': 'dx = dy/(x + 1)',
                         'index': 'dx[i] = dy[i]/(x[i] + 1)',
                         'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y_{i}}{x_{i} + 1}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 4},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3}]}},
 'expm1': {'name': 'expm1',
           'signature': 'expm1(x[i]) -> y[i]',
           'file': 'rules/elementwise.rules',
           'line': 21,
           'text': 'expm1(x[i]) -> y[i] = expm1(x[i])',
           'doc': '',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dy',
                            'text': 'dy = exp(x) ⊙ dx',
                            'latex': '\\mathrm{d}y = e^{x} \\odot \\mathrm{d}x',
                            'matrix': 'dy = exp(x) ⊙ dx',
                            'index': 'dy[i] = dx[i]·exp(x[i])',
                            'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} e^{x_{i}}'}],
           'pullback': [{'target': 'dx',
                         'text': 'dx = exp(x) ⊙ dy',
                         'latex': '\\mathrm{d}x = e^{x} \\odot \\mathrm{d}y',
                         'matrix': 'dx = exp(x) ⊙ dy',
                         'index': 'dx[i] = dy[i]·exp(x[i])',
                         'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} e^{x_{i}}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 3},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3}]}},
 'sqrt': {'name': 'sqrt',
          'signature': 'sqrt(x[i]) -> y[i]',
          'file': 'rules/elementwise.rules',
          'line': 22,
          'text': 'sqrt(x[i]) -> y[i] = sqrt(x[i])',
          'doc': '',
          'inputs': [{'name': 'x',
                      'kind': 'tensor',
                      'indices': ['i'],
                      'domain': 'positive',
                      'declared': False}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dy',
                           'text': 'dy = dx/(2·y)',
                           'latex': '\\mathrm{d}y = \\frac{1}{2 y} \\odot \\mathrm{d}x',
                           'matrix': 'dy = dx/(2·y)',
                           'index': 'dy[i] = dx[i]/(2·y[i])',
                           'index_latex': '\\mathrm{d}y_{i} = \\frac{\\mathrm{d}x_{i}}{2 y_{i}}'}],
          'pullback': [{'target': 'dx',
                        'text': 'dx = dy/(2·y)',
                        'latex': '\\mathrm{d}x = \\frac{1}{2 y} \\odot \\mathrm{d}y',
                        'matrix': 'dx = dy/(2·y)',
                        'index': 'dx[i] = dy[i]/(2·y[i])',
                        'index_latex': '\\mathrm{d}x_{i} = \\frac{\\mathrm{d}y_{i}}{2 y_{i}}'}],
          'holds_for': 'x > 0',
          'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 5},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'tanh': {'name': 'tanh',
          'signature': 'tanh(x[i]) -> y[i]',
          'file': 'rules/elementwise.rules',
          'line': 23,
          'text': 'tanh(x[i]) -> y[i] = tanh(x[i])',
          'doc': '',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dy',
                           'text': 'dy = (1 - y²) ⊙ dx',
                           'latex': '\\mathrm{d}y = (1 - y^{2}) \\odot \\mathrm{d}x',
                           'matrix': 'dy = (1 - y²) ⊙ dx',
                           'index': 'dy[i] = (1 - y[i]²)·dx[i]',
                           'index_latex': '\\mathrm{d}y_{i} = \\left(1 - y_{i}^{2}\\right) '
                                          '\\mathrm{d}x_{i}'}],
          'pullback': [{'target': 'dx',
                        'text': 'dx = (1 - y²) ⊙ dy',
                        'latex': '\\mathrm{d}x = (1 - y^{2}) \\odot \\mathrm{d}y',
                        'matrix': 'dx = (1 - y²) ⊙ dy',
                        'index': 'dx[i] = (1 - y[i]²)·dy[i]',
                        'index_latex': '\\mathrm{d}x_{i} = \\left(1 - y_{i}^{2}\\right) \\mathrm{d}y_{i}'}],
          'holds_for': 'every real input',
          'saves': {'inputs': [], 'outputs': ['y'], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'sigmoid': {'name': 'sigmoid',
             'signature': 'sigmoid(x[i]) -> y[i]',
             'file': 'rules/elementwise.rules',
             'line': 24,
             'text': 'sigmoid(x[i]) -> y[i] = sigmoid(x[i])',
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
                              'text': 'dy = sigmoid(-x) ⊙ y ⊙ dx',
                              'latex': '\\mathrm{d}y = \\operatorname{sigmoid}{\\left(- x \\right)} \\odot y '
                                       '\\odot \\mathrm{d}x',
                              'matrix': 'dy = sigmoid(-x) ⊙ y ⊙ dx',
                              'index': 'dy[i] = dx[i]·sigmoid(-x[i])·y[i]',
                              'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} '
                                             '\\operatorname{sigmoid}{\\left(- x_{i} \\right)} y_{i}'}],
             'pullback': [{'target': 'dx',
                           'text': 'dx = sigmoid(-x) ⊙ y ⊙ dy',
                           'latex': '\\mathrm{d}x = \\operatorname{sigmoid}{\\left(- x \\right)} \\odot y '
                                    '\\odot \\mathrm{d}y',
                           'matrix': 'dx = sigmoid(-x) ⊙ y ⊙ dy',
                           'index': 'dx[i] = dy[i]·sigmoid(-x[i])·y[i]',
                           'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} '
                                          '\\operatorname{sigmoid}{\\left(- x_{i} \\right)} y_{i}'}],
             'holds_for': 'every real input',
             'saves': {'inputs': ['x'], 'outputs': ['y'], 'intermediates': []},
             'verified': True,
             'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                              'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                              'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                              'points': 2,
                              'skipped': 0,
                              'extents': [{'i': 3}]}},
 'softplus': {'name': 'softplus',
              'signature': 'softplus(x[i]) -> y[i]',
              'file': 'rules/elementwise.rules',
              'line': 25,
              'text': 'softplus(x[i]) -> y[i] = softplus(x[i])',
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
                               'text': 'dy = sigmoid(x) ⊙ dx',
                               'latex': '\\mathrm{d}y = \\operatorname{sigmoid}{\\left(x \\right)} \\odot '
                                        '\\mathrm{d}x',
                               'matrix': 'dy = sigmoid(x) ⊙ dx',
                               'index': 'dy[i] = dx[i]·sigmoid(x[i])',
                               'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} '
                                              '\\operatorname{sigmoid}{\\left(x_{i} \\right)}'}],
              'pullback': [{'target': 'dx',
                            'text': 'dx = sigmoid(x) ⊙ dy',
                            'latex': '\\mathrm{d}x = \\operatorname{sigmoid}{\\left(x \\right)} \\odot '
                                     '\\mathrm{d}y',
                            'matrix': 'dx = sigmoid(x) ⊙ dy',
                            'index': 'dx[i] = dy[i]·sigmoid(x[i])',
                            'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} '
                                           '\\operatorname{sigmoid}{\\left(x_{i} \\right)}'}],
              'holds_for': 'every real input',
              'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
              'verified': True,
              'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                               'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                               'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                               'points': 2,
                               'skipped': 0,
                               'extents': [{'i': 3}]}},
 'relu': {'name': 'relu',
          'signature': 'relu(x[i]) -> y[i]',
          'file': 'rules/elementwise.rules',
          'line': 26,
          'text': 'relu(x[i]) -> y[i] = max(x[i], 0)',
          'doc': '',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dy',
                           'text': 'dy = step(x) ⊙ dx',
                           'latex': '\\mathrm{d}y = \\operatorname{step}{\\left(x \\right)} \\odot '
                                    '\\mathrm{d}x',
                           'matrix': 'dy = step(x) ⊙ dx',
                           'index': 'dy[i] = dx[i]·step(x[i])',
                           'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} '
                                          '\\operatorname{step}{\\left(x_{i} \\right)}'},
                          {'target': 'step',
                           'text': 'step(u) = 1 where u > 0, else 0 (elementwise)',
                           'latex': '\\operatorname{step}(u) = 1 \\text{ where } u > 0 \\text{, else } 0 '
                                    '\\text{ (elementwise)}',
                           'matrix': None,
                           'index': 'step(u) = 1 where u > 0, else 0 (elementwise)',
                           'index_latex': '\\operatorname{step}(u) = 1 \\text{ where } u > 0 \\text{, else } '
                                          '0 \\text{ (elementwise)}',
                           'where': True}],
          'pullback': [{'target': 'dx',
                        'text': 'dx = step(x) ⊙ dy',
                        'latex': '\\mathrm{d}x = \\operatorname{step}{\\left(x \\right)} \\odot \\mathrm{d}y',
                        'matrix': 'dx = step(x) ⊙ dy',
                        'index': 'dx[i] = dy[i]·step(x[i])',
                        'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} '
                                       '\\operatorname{step}{\\left(x_{i} \\right)}'},
                       {'target': 'step',
                        'text': 'step(u) = 1 where u > 0, else 0 (elementwise)',
                        'latex': '\\operatorname{step}(u) = 1 \\text{ where } u > 0 \\text{, else } 0 '
                                 '\\text{ (elementwise)}',
                        'matrix': None,
                        'index': 'step(u) = 1 where u > 0, else 0 (elementwise)',
                        'index_latex': '\\operatorname{step}(u) = 1 \\text{ where } u > 0 \\text{, else } 0 '
                                       '\\text{ (elementwise)}',
                        'where': True}],
          'holds_for': 'every real input',
          'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'erf': {'name': 'erf',
         'signature': 'erf(x[i]) -> y[i]',
         'file': 'rules/elementwise.rules',
         'line': 27,
         'text': 'erf(x[i]) -> y[i] = erf(x[i])',
         'doc': '',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dy',
                          'text': 'dy = 2·exp(-x²) ⊙ dx/sqrt(pi)',
                          'latex': '\\mathrm{d}y = 2 \\frac{e^{- x^{2}} \\odot \\mathrm{d}x}{\\sqrt{\\pi}}',
                          'matrix': 'dy = 2·exp(-x²) ⊙ dx/sqrt(pi)',
                          'index': 'dy[i] = 2·dx[i]·exp(-x[i]²)/sqrt(pi)',
                          'index_latex': '\\mathrm{d}y_{i} = \\frac{2 \\mathrm{d}x_{i} e^{- '
                                         'x_{i}^{2}}}{\\sqrt{\\pi}}'}],
         'pullback': [{'target': 'dx',
                       'text': 'dx = 2·exp(-x²) ⊙ dy/sqrt(pi)',
                       'latex': '\\mathrm{d}x = 2 \\frac{e^{- x^{2}} \\odot \\mathrm{d}y}{\\sqrt{\\pi}}',
                       'matrix': 'dx = 2·exp(-x²) ⊙ dy/sqrt(pi)',
                       'index': 'dx[i] = 2·dy[i]·exp(-x[i]²)/sqrt(pi)',
                       'index_latex': '\\mathrm{d}x_{i} = \\frac{2 \\mathrm{d}y_{i} e^{- '
                                      'x_{i}^{2}}}{\\sqrt{\\pi}}'}],
         'holds_for': 'every real input',
         'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 2,
                          'skipped': 0,
                          'extents': [{'i': 3}]}},
 'leaky_relu': {'name': 'leaky_relu',
                'signature': 'leaky_relu(x[i]) -> y[i]',
                'file': 'rules/elementwise.rules',
                'line': 30,
                'text': 'leaky_relu(x[i]) -> y[i] = where(x[i] > 0, x[i], 0.01 * x[i])',
                'doc': 'Leaky ReLU with a fixed slope: where() picks a branch, each branch differentiated on '
                       'its own.',
                'inputs': [{'name': 'x',
                            'kind': 'tensor',
                            'indices': ['i'],
                            'domain': 'real',
                            'declared': False}],
                'outputs': [{'name': 'y', 'indices': ['i']}],
                'extents': {},
                'equal_extents': [],
                'pushforward': [{'target': 'dy',
                                 'text': 'dy = where(x > 0, 1, 1/100) ⊙ dx',
                                 'latex': '\\mathrm{d}y = \\operatorname{where}{\\left(x > '
                                          '0,1,\\frac{1}{100} \\right)} \\odot \\mathrm{d}x',
                                 'matrix': 'dy = where(x > 0, 1, 1/100) ⊙ dx',
                                 'index': 'dy[i] = dx[i]·where(x[i] > 0, 1, 1/100)',
                                 'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} '
                                                '\\operatorname{where}{\\left(x_{i} > 0,1,\\frac{1}{100} '
                                                '\\right)}'}],
                'pullback': [{'target': 'dx',
                              'text': 'dx = where(x > 0, 1, 1/100) ⊙ dy',
                              'latex': '\\mathrm{d}x = \\operatorname{where}{\\left(x > 0,1,\\frac{1}{100} '
                                       '\\right)} \\odot \\mathrm{d}y',
                              'matrix': 'dx = where(x > 0, 1, 1/100) ⊙ dy',
                              'index': 'dx[i] = dy[i]·where(x[i] > 0, 1, 1/100)',
                              'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} '
                                             '\\operatorname{where}{\\left(x_{i} > 0,1,\\frac{1}{100} '
                                             '\\right)}'}],
                'holds_for': 'every real input',
                'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
                'verified': True,
                'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                 'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                 'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                 'points': 2,
                                 'skipped': 0,
                                 'extents': [{'i': 3}]}},
 'gelu': {'name': 'gelu',
          'signature': 'gelu(x[i]) -> y[i]',
          'file': 'rules/elementwise.rules',
          'line': 33,
          'text': 'gelu(x[i]) -> y[i] = 0.5 * x[i] * erfc(-x[i] / sqrt(2))',
          'doc': 'GELU, exact form: x·Φ(x) with Φ(x) = erfc(-x/√2)/2 (1 + erf(x/√2) would cancel to 0 for x '
                 '≪ 0).',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'extents': {},
          'equal_extents': [],
          'pushforward': [{'target': 'dy',
                           'text': 'dy[i] = (erfc(-sqrt(2)·x[i]/2)/2 + '
                                   'sqrt(2)·x[i]·exp(-x[i]²/2)/(2·sqrt(pi)))·dx[i]',
                           'latex': '\\mathrm{d}y_{i} = \\left(\\frac{\\operatorname{erfc}{\\left(- '
                                    '\\frac{\\sqrt{2} x_{i}}{2} \\right)}}{2} + \\frac{\\sqrt{2} x_{i} e^{- '
                                    '\\frac{x_{i}^{2}}{2}}}{2 \\sqrt{\\pi}}\\right) \\mathrm{d}x_{i}',
                           'matrix': None,
                           'index': 'dy[i] = (erfc(-sqrt(2)·x[i]/2)/2 + '
                                    'sqrt(2)·x[i]·exp(-x[i]²/2)/(2·sqrt(pi)))·dx[i]',
                           'index_latex': '\\mathrm{d}y_{i} = \\left(\\frac{\\operatorname{erfc}{\\left(- '
                                          '\\frac{\\sqrt{2} x_{i}}{2} \\right)}}{2} + \\frac{\\sqrt{2} x_{i} '
                                          'e^{- \\frac{x_{i}^{2}}{2}}}{2 \\sqrt{\\pi}}\\right) '
                                          '\\mathrm{d}x_{i}'}],
          'pullback': [{'target': 'dx',
                        'text': 'dx[i] = (erfc(-sqrt(2)·x[i]/2)/2 + '
                                'sqrt(2)·x[i]·exp(-x[i]²/2)/(2·sqrt(pi)))·dy[i]',
                        'latex': '\\mathrm{d}x_{i} = \\left(\\frac{\\operatorname{erfc}{\\left(- '
                                 '\\frac{\\sqrt{2} x_{i}}{2} \\right)}}{2} + \\frac{\\sqrt{2} x_{i} e^{- '
                                 '\\frac{x_{i}^{2}}{2}}}{2 \\sqrt{\\pi}}\\right) \\mathrm{d}y_{i}',
                        'matrix': None,
                        'index': 'dx[i] = (erfc(-sqrt(2)·x[i]/2)/2 + '
                                 'sqrt(2)·x[i]·exp(-x[i]²/2)/(2·sqrt(pi)))·dy[i]',
                        'index_latex': '\\mathrm{d}x_{i} = \\left(\\frac{\\operatorname{erfc}{\\left(- '
                                       '\\frac{\\sqrt{2} x_{i}}{2} \\right)}}{2} + \\frac{\\sqrt{2} x_{i} '
                                       'e^{- \\frac{x_{i}^{2}}{2}}}{2 \\sqrt{\\pi}}\\right) '
                                       '\\mathrm{d}y_{i}'}],
          'holds_for': 'every real input',
          'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
          'verified': True,
          'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                           'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                           'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                           'points': 2,
                           'skipped': 0,
                           'extents': [{'i': 3}]}},
 'scale': {'name': 'scale',
           'signature': 'scale(x[i], s) -> y[i]',
           'file': 'rules/elementwise.rules',
           'line': 36,
           'text': 'scale(x[i], s) -> y[i] = s * x[i]',
           'doc': 'A scalar parameter (differentiable) and an integer one (not: its cotangent is NoTangent).',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False},
                      {'name': 's', 'kind': 'scalar', 'indices': [], 'domain': 'real', 'declared': False}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dy',
                            'text': 'dy = ds·x + s·dx',
                            'latex': '\\mathrm{d}y = \\mathrm{d}s x + s \\mathrm{d}x',
                            'matrix': 'dy = ds·x + s·dx',
                            'index': 'dy[i] = ds·x[i] + dx[i]·s',
                            'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}s x_{i} + \\mathrm{d}x_{i} s'}],
           'pullback': [{'target': 'dx',
                         'text': 'dx = s·dy',
                         'latex': '\\mathrm{d}x = s \\mathrm{d}y',
                         'matrix': 'dx = s·dy',
                         'index': 'dx[i] = dy[i]·s',
                         'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} s'},
                        {'target': 'ds',
                         'text': 'ds = xᵀ·dy',
                         'latex': '\\mathrm{d}s = x^{\\top} \\mathrm{d}y',
                         'matrix': 'ds = xᵀ·dy',
                         'index': 'ds = Σ_k dy[k]·x[k]',
                         'index_latex': '\\mathrm{d}s = \\sum_{k} \\mathrm{d}y_{k} x_{k}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['x', 's'], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3}]}},
 'power': {'name': 'power',
           'signature': 'power(x[i], n: int) -> y[i]',
           'file': 'rules/elementwise.rules',
           'line': 37,
           'text': 'power(x[i], n: int) -> y[i] = x[i] ** n',
           'doc': '',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i'], 'domain': 'real', 'declared': False},
                      {'name': 'n', 'kind': 'int', 'indices': []}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'extents': {},
           'equal_extents': [],
           'pushforward': [{'target': 'dy',
                            'text': 'dy = n·(x^(n - 1) ⊙ dx)',
                            'latex': '\\mathrm{d}y = n (x^{n - 1} \\odot \\mathrm{d}x)',
                            'matrix': 'dy = n·(x^(n - 1) ⊙ dx)',
                            'index': 'dy[i] = dx[i]·n·x[i]^(n - 1)',
                            'index_latex': '\\mathrm{d}y_{i} = \\mathrm{d}x_{i} n x_{i}^{n - 1}'}],
           'pullback': [{'target': 'dx',
                         'text': 'dx = n·(x^(n - 1) ⊙ dy)',
                         'latex': '\\mathrm{d}x = n (x^{n - 1} \\odot \\mathrm{d}y)',
                         'matrix': 'dx = n·(x^(n - 1) ⊙ dy)',
                         'index': 'dx[i] = dy[i]·n·x[i]^(n - 1)',
                         'index_latex': '\\mathrm{d}x_{i} = \\mathrm{d}y_{i} n x_{i}^{n - 1}'}],
           'holds_for': 'every real input',
           'saves': {'inputs': ['x', 'n'], 'outputs': [], 'intermediates': []},
           'verified': True,
           'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                            'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                            'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                            'points': 2,
                            'skipped': 0,
                            'extents': [{'i': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
