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
            dy_ = _add(dy_, (0.5 * (1 / np.sqrt(x)) * dx))
        return y, dy_

    def sqrt_rrule(x):
        y = np.sqrt(x)
        def sqrt_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (0.5 * (1 / np.sqrt(x)) * dy_)
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
    # GELU, exact form.
    def gelu(x):
        y = (0.5 * (1.0 + np.erf((0.7071067811865476 * x))) * x)
        return y

    def gelu_frule(tangents, x):
        _, dx = tangents
        _e5 = np.erf((0.7071067811865476 * x))
        y = (0.5 * (1.0 + _e5) * x)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, ((0.5 + (0.5 * _e5) + (0.3989422804014327 * np.exp((-0.5 * (x * x))) * x)) * dx))
        return y, dy_

    def gelu_rrule(x):
        _e16 = np.erf((0.7071067811865476 * x))
        y = (0.5 * (1.0 + _e16) * x)
        def gelu_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = ((0.5 + (0.5 * _e16) + (0.3989422804014327 * np.exp((-0.5 * (x * x))) * x)) * dy_)
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
          'doc': 'GELU, exact form.'},
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

globals().update(export_ops(__name__, OPS, _define))
