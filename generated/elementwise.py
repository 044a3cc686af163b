# @generated from rules/elementwise.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: elementwise functions.

Vocabulary (every .rules file): a rule is `name(inputs) -> outputs = expression`, or `:` and an
indented block of statements. `x[i]` is a tensor with one index; an index repeated in a product and
absent from the left side is summed (Einstein); `sum(k, e)` sums explicitly. A bare name in the
header (`s`) is a differentiable scalar; `n: int` is a non-differentiable integer (its cotangent is
NoTangent). See docs/language.md for the whole language.

Every rule in this file maps each element independently, so the generated functions accept arrays of
any shape (the index i stands for all of them)."""
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

    # ---- sin(x[i]) -> y[i]    (rules/elementwise.rules:13)
    def sin(x):
        _e0 = np.sin(x)
        y = _e0
        return y

    def sin_frule(tangents, x):
        _, dx = tangents
        _e1 = np.sin(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = np.cos(x)
            _e3 = (_e2 * dx)
            dy = _add(dy, _e3)
        return y, dy

    def sin_rrule(x):
        _e4 = np.sin(x)
        y = _e4
        def sin_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = np.cos(x)
            _e6 = (dy * _e5)
            dx = _e6
            return (_NO, dx)
        return y, sin_pullback

    # ---- asin(x[i]) -> y[i]    (rules/elementwise.rules:14)
    def asin(x):
        _e0 = np.arcsin(x)
        y = _e0
        return y

    def asin_frule(tangents, x):
        _, dx = tangents
        _e1 = np.arcsin(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (x * x)
            _e3 = (1.0 - _e2)
            _e4 = (1 / np.sqrt(_e3))
            _e5 = (_e4 * dx)
            dy = _add(dy, _e5)
        return y, dy

    def asin_rrule(x):
        _e6 = np.arcsin(x)
        y = _e6
        def asin_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e7 = (x * x)
            _e8 = (1.0 - _e7)
            _e9 = (1 / np.sqrt(_e8))
            _e10 = (_e9 * dy)
            dx = _e10
            return (_NO, dx)
        return y, asin_pullback

    # ---- foo(x[i]) -> y[i]    (rules/elementwise.rules:15)
    def foo(x):
        _e0 = np.sin(x)
        _e1 = (0.2 + _e0)
        _e2 = np.arcsin(_e1)
        y = _e2
        return y

    def foo_frule(tangents, x):
        _, dx = tangents
        _e3 = np.sin(x)
        _e4 = (0.2 + _e3)
        _e5 = np.arcsin(_e4)
        y = _e5
        dy = _ZERO
        if not is_zero(dx):
            _e6 = (5.0 * _e3)
            _e7 = (1.0 + _e6)
            _e8 = (_e7 * _e7)
            _e9 = (0.04 * _e8)
            _e10 = (1.0 - _e9)
            _e11 = (1 / np.sqrt(_e10))
            _e12 = np.cos(x)
            _e13 = (_e11 * _e12 * dx)
            dy = _add(dy, _e13)
        return y, dy

    def foo_rrule(x):
        _e14 = np.sin(x)
        _e15 = (0.2 + _e14)
        _e16 = np.arcsin(_e15)
        y = _e16
        def foo_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e17 = (5.0 * _e14)
            _e18 = (1.0 + _e17)
            _e19 = (_e18 * _e18)
            _e20 = (0.04 * _e19)
            _e21 = (1.0 - _e20)
            _e22 = (1 / np.sqrt(_e21))
            _e23 = np.cos(x)
            _e24 = (_e22 * dy * _e23)
            dx = _e24
            return (_NO, dx)
        return y, foo_pullback

    # ---- cos(x[i]) -> y[i]    (rules/elementwise.rules:17)
    def cos(x):
        _e0 = np.cos(x)
        y = _e0
        return y

    def cos_frule(tangents, x):
        _, dx = tangents
        _e1 = np.cos(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = np.sin(x)
            _e3 = (-(dx * _e2))
            dy = _add(dy, _e3)
        return y, dy

    def cos_rrule(x):
        _e4 = np.cos(x)
        y = _e4
        def cos_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = np.sin(x)
            _e6 = (-(dy * _e5))
            dx = _e6
            return (_NO, dx)
        return y, cos_pullback

    # ---- exp(x[i]) -> y[i]    (rules/elementwise.rules:18)
    def exp(x):
        _e0 = np.exp(x)
        y = _e0
        return y

    def exp_frule(tangents, x):
        _, dx = tangents
        _e1 = np.exp(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (dx * y)
            dy = _add(dy, _e2)
        return y, dy

    def exp_rrule(x):
        _e3 = np.exp(x)
        y = _e3
        def exp_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e4 = (dy * y)
            dx = _e4
            return (_NO, dx)
        return y, exp_pullback

    # ---- log(x[i]) -> y[i]    (rules/elementwise.rules:19)
    def log(x):
        _e0 = np.log(x)
        y = _e0
        return y

    def log_frule(tangents, x):
        _, dx = tangents
        _e1 = np.log(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (1 / x * dx)
            dy = _add(dy, _e2)
        return y, dy

    def log_rrule(x):
        _e3 = np.log(x)
        y = _e3
        def log_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e4 = (1 / x * dy)
            dx = _e4
            return (_NO, dx)
        return y, log_pullback

    # ---- log1p(x[i]) -> y[i]    (rules/elementwise.rules:20)
    def log1p(x):
        _e0 = np.log1p(x)
        y = _e0
        return y

    def log1p_frule(tangents, x):
        _, dx = tangents
        _e1 = np.log1p(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (1.0 + x)
            _e3 = (1 / _e2 * dx)
            dy = _add(dy, _e3)
        return y, dy

    def log1p_rrule(x):
        _e4 = np.log1p(x)
        y = _e4
        def log1p_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = (1.0 + x)
            _e6 = (1 / _e5 * dy)
            dx = _e6
            return (_NO, dx)
        return y, log1p_pullback

    # ---- expm1(x[i]) -> y[i]    (rules/elementwise.rules:21)
    def expm1(x):
        _e0 = np.expm1(x)
        y = _e0
        return y

    def expm1_frule(tangents, x):
        _, dx = tangents
        _e1 = np.expm1(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = np.exp(x)
            _e3 = (dx * _e2)
            dy = _add(dy, _e3)
        return y, dy

    def expm1_rrule(x):
        _e4 = np.expm1(x)
        y = _e4
        def expm1_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = np.exp(x)
            _e6 = (dy * _e5)
            dx = _e6
            return (_NO, dx)
        return y, expm1_pullback

    # ---- sqrt(x[i]) -> y[i]    (rules/elementwise.rules:22)
    def sqrt(x):
        _e0 = np.sqrt(x)
        y = _e0
        return y

    def sqrt_frule(tangents, x):
        _, dx = tangents
        _e1 = np.sqrt(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (1 / np.sqrt(x))
            _e3 = (0.5 * _e2 * dx)
            dy = _add(dy, _e3)
        return y, dy

    def sqrt_rrule(x):
        _e4 = np.sqrt(x)
        y = _e4
        def sqrt_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = (1 / np.sqrt(x))
            _e6 = (0.5 * _e5 * dy)
            dx = _e6
            return (_NO, dx)
        return y, sqrt_pullback

    # ---- tanh(x[i]) -> y[i]    (rules/elementwise.rules:23)
    def tanh(x):
        _e0 = np.tanh(x)
        y = _e0
        return y

    def tanh_frule(tangents, x):
        _, dx = tangents
        _e1 = np.tanh(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (y * y)
            _e3 = (1.0 - _e2)
            _e4 = (_e3 * dx)
            dy = _add(dy, _e4)
        return y, dy

    def tanh_rrule(x):
        _e5 = np.tanh(x)
        y = _e5
        def tanh_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e6 = (y * y)
            _e7 = (1.0 - _e6)
            _e8 = (_e7 * dy)
            dx = _e8
            return (_NO, dx)
        return y, tanh_pullback

    # ---- sigmoid(x[i]) -> y[i]    (rules/elementwise.rules:24)
    def sigmoid(x):
        _e0 = (0.5 * np.tanh(0.5 * x) + 0.5)
        y = _e0
        return y

    def sigmoid_frule(tangents, x):
        _, dx = tangents
        _e1 = (0.5 * np.tanh(0.5 * x) + 0.5)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (1.0 - y)
            _e3 = (_e2 * dx * y)
            dy = _add(dy, _e3)
        return y, dy

    def sigmoid_rrule(x):
        _e4 = (0.5 * np.tanh(0.5 * x) + 0.5)
        y = _e4
        def sigmoid_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = (1.0 - y)
            _e6 = (_e5 * dy * y)
            dx = _e6
            return (_NO, dx)
        return y, sigmoid_pullback

    # ---- softplus(x[i]) -> y[i]    (rules/elementwise.rules:25)
    def softplus(x):
        _e0 = np.logaddexp(0.0, x)
        y = _e0
        return y

    def softplus_frule(tangents, x):
        _, dx = tangents
        _e1 = np.logaddexp(0.0, x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (0.5 * np.tanh(0.5 * x) + 0.5)
            _e3 = (dx * _e2)
            dy = _add(dy, _e3)
        return y, dy

    def softplus_rrule(x):
        _e4 = np.logaddexp(0.0, x)
        y = _e4
        def softplus_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = (0.5 * np.tanh(0.5 * x) + 0.5)
            _e6 = (dy * _e5)
            dx = _e6
            return (_NO, dx)
        return y, softplus_pullback

    # ---- relu(x[i]) -> y[i]    (rules/elementwise.rules:26)
    def relu(x):
        _e0 = np.maximum(x, 0.0)
        y = _e0
        return y

    def relu_frule(tangents, x):
        _, dx = tangents
        _e1 = np.maximum(x, 0.0)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = np.heaviside(x, 0.0)
            _e3 = (dx * _e2)
            dy = _add(dy, _e3)
        return y, dy

    def relu_rrule(x):
        _e4 = np.maximum(x, 0.0)
        y = _e4
        def relu_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e5 = np.heaviside(x, 0.0)
            _e6 = (dy * _e5)
            dx = _e6
            return (_NO, dx)
        return y, relu_pullback

    # ---- erf(x[i]) -> y[i]    (rules/elementwise.rules:27)
    def erf(x):
        _e0 = np.erf(x)
        y = _e0
        return y

    def erf_frule(tangents, x):
        _, dx = tangents
        _e1 = np.erf(x)
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (x * x)
            _e3 = (-_e2)
            _e4 = np.exp(_e3)
            _e5 = (1.1283791670955126 * dx * _e4)
            dy = _add(dy, _e5)
        return y, dy

    def erf_rrule(x):
        _e6 = np.erf(x)
        y = _e6
        def erf_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e7 = (x * x)
            _e8 = (-_e7)
            _e9 = np.exp(_e8)
            _e10 = (1.1283791670955126 * dy * _e9)
            dx = _e10
            return (_NO, dx)
        return y, erf_pullback

    # ---- leaky_relu(x[i]) -> y[i]    (rules/elementwise.rules:30)
    def leaky_relu(x):
        _e0 = (0.01 * x)
        _e1 = np.where((x > 0.0), x, _e0)
        y = _e1
        return y

    def leaky_relu_frule(tangents, x):
        _, dx = tangents
        _e2 = (0.01 * x)
        _e3 = np.where((x > 0.0), x, _e2)
        y = _e3
        dy = _ZERO
        if not is_zero(dx):
            _e4 = np.asarray(np.where((x > 0.0), 1.0, 0.01), dtype=np.result_type(x))
            _e5 = (dx * _e4)
            dy = _add(dy, _e5)
        return y, dy

    def leaky_relu_rrule(x):
        _e6 = (0.01 * x)
        _e7 = np.where((x > 0.0), x, _e6)
        y = _e7
        def leaky_relu_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e8 = np.asarray(np.where((x > 0.0), 1.0, 0.01), dtype=np.result_type(x))
            _e9 = (dy * _e8)
            dx = _e9
            return (_NO, dx)
        return y, leaky_relu_pullback

    # ---- gelu(x[i]) -> y[i]    (rules/elementwise.rules:33)
    def gelu(x):
        _e0 = (0.7071067811865476 * x)
        _e1 = np.erf(_e0)
        _e2 = (1.0 + _e1)
        _e3 = (0.5 * _e2 * x)
        y = _e3
        return y

    def gelu_frule(tangents, x):
        _, dx = tangents
        _e4 = (0.7071067811865476 * x)
        _e5 = np.erf(_e4)
        _e6 = (1.0 + _e5)
        _e7 = (0.5 * _e6 * x)
        y = _e7
        dy = _ZERO
        if not is_zero(dx):
            _e8 = (0.5 * _e5)
            _e9 = (x * x)
            _e10 = (-0.5 * _e9)
            _e11 = np.exp(_e10)
            _e12 = (0.3989422804014327 * _e11 * x)
            _e13 = (0.5 + _e8 + _e12)
            _e14 = (_e13 * dx)
            dy = _add(dy, _e14)
        return y, dy

    def gelu_rrule(x):
        _e15 = (0.7071067811865476 * x)
        _e16 = np.erf(_e15)
        _e17 = (1.0 + _e16)
        _e18 = (0.5 * _e17 * x)
        y = _e18
        def gelu_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO)
            _e19 = (0.5 * _e16)
            _e20 = (x * x)
            _e21 = (-0.5 * _e20)
            _e22 = np.exp(_e21)
            _e23 = (0.3989422804014327 * _e22 * x)
            _e24 = (0.5 + _e19 + _e23)
            _e25 = (_e24 * dy)
            dx = _e25
            return (_NO, dx)
        return y, gelu_pullback

    # ---- scale(x[i], s) -> y[i]    (rules/elementwise.rules:36)
    def scale(x, s):
        _e0 = (s * x)
        y = _e0
        return y

    def scale_frule(tangents, x, s):
        _, dx, ds = tangents
        _e1 = (s * x)
        y = _e1
        dy = _ZERO
        if not is_zero(ds):
            _e2 = (ds * x)
            dy = _add(dy, _e2)
        if not is_zero(dx):
            _e3 = (dx * s)
            dy = _add(dy, _e3)
        return y, dy

    def scale_rrule(x, s):
        _e4 = (s * x)
        y = _e4
        def scale_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO, _ZERO)
            def _pb_x5():
                _e6 = (dy * s)
                dx = _e6
                return dx
            def _pb_s7():
                _e8 = (dy * x)
                _c9 = np.sum(_e8, axis=0)
                ds = _c9
                return ds
            return (_NO, Thunk(_pb_x5), Thunk(_pb_s7))
        return y, scale_pullback

    # ---- power(x[i], n: int) -> y[i]    (rules/elementwise.rules:37)
    def power(x, n):
        _e0 = x ** n
        y = _e0
        return y

    def power_frule(tangents, x, n):
        _, dx, dn = tangents
        _e1 = x ** n
        y = _e1
        dy = _ZERO
        if not is_zero(dx):
            _e2 = (n - 1.0)
            _e3 = x ** _e2
            _e4 = (_e3 * dx * n)
            dy = _add(dy, _e4)
        return y, dy

    def power_rrule(x, n):
        _e5 = x ** n
        y = _e5
        def power_pullback(dy):
            if is_zero(dy):
                return (_NO, _ZERO, _NO)
            _e6 = (n - 1.0)
            _e7 = x ** _e6
            _e8 = (_e7 * dy * n)
            dx = _e8
            return (_NO, dx, _NO)
        return y, power_pullback

    return {
        "sin": sin,
        "sin_frule": sin_frule,
        "sin_rrule": sin_rrule,
        "asin": asin,
        "asin_frule": asin_frule,
        "asin_rrule": asin_rrule,
        "foo": foo,
        "foo_frule": foo_frule,
        "foo_rrule": foo_rrule,
        "cos": cos,
        "cos_frule": cos_frule,
        "cos_rrule": cos_rrule,
        "exp": exp,
        "exp_frule": exp_frule,
        "exp_rrule": exp_rrule,
        "log": log,
        "log_frule": log_frule,
        "log_rrule": log_rrule,
        "log1p": log1p,
        "log1p_frule": log1p_frule,
        "log1p_rrule": log1p_rrule,
        "expm1": expm1,
        "expm1_frule": expm1_frule,
        "expm1_rrule": expm1_rrule,
        "sqrt": sqrt,
        "sqrt_frule": sqrt_frule,
        "sqrt_rrule": sqrt_rrule,
        "tanh": tanh,
        "tanh_frule": tanh_frule,
        "tanh_rrule": tanh_rrule,
        "sigmoid": sigmoid,
        "sigmoid_frule": sigmoid_frule,
        "sigmoid_rrule": sigmoid_rrule,
        "softplus": softplus,
        "softplus_frule": softplus_frule,
        "softplus_rrule": softplus_rrule,
        "relu": relu,
        "relu_frule": relu_frule,
        "relu_rrule": relu_rrule,
        "erf": erf,
        "erf_frule": erf_frule,
        "erf_rrule": erf_rrule,
        "leaky_relu": leaky_relu,
        "leaky_relu_frule": leaky_relu_frule,
        "leaky_relu_rrule": leaky_relu_rrule,
        "gelu": gelu,
        "gelu_frule": gelu_frule,
        "gelu_rrule": gelu_rrule,
        "scale": scale,
        "scale_frule": scale_frule,
        "scale_rrule": scale_rrule,
        "power": power,
        "power_frule": power_frule,
        "power_rrule": power_rrule,
    }


OPS = {'sin': {'signature': 'sin(x[i]) -> y[i]',
         'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
         'outputs': [{'name': 'y', 'indices': ['i']}],
         'equal_extents': [],
         'domains': {'x': 'real'},
         'elementwise': True,
         'source': 'rules/elementwise.rules:13'},
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
                'source': 'rules/elementwise.rules:30'},
 'gelu': {'signature': 'gelu(x[i]) -> y[i]',
          'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
          'outputs': [{'name': 'y', 'indices': ['i']}],
          'equal_extents': [],
          'domains': {'x': 'real'},
          'elementwise': True,
          'source': 'rules/elementwise.rules:33'},
 'scale': {'signature': 'scale(x[i], s) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}, {'name': 's', 'kind': 'scalar'}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real', 's': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:36'},
 'power': {'signature': 'power(x[i], n: int) -> y[i]',
           'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}, {'name': 'n', 'kind': 'int'}],
           'outputs': [{'name': 'y', 'indices': ['i']}],
           'equal_extents': [],
           'domains': {'x': 'real'},
           'elementwise': True,
           'source': 'rules/elementwise.rules:37'}}

globals().update(export_ops(__name__, OPS, _define))
