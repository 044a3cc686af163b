# @generated from rules/reductions.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: reductions by max, min and product.

`max(k, e)`, `min(k, e)` and `prod(k, e)` reduce e over index k (or over several: `max(i, j, e)`), as
`sum(k, e)` does. The pullback of max and min splits the cotangent evenly among the entries that attain the
extremum (ties); prod's gradient is the product of the other factors, exact where factors are zero."""
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

    # ---- row_max(S[n,m]) -> y[n]    (rules/reductions.rules:8)
    # The largest entry of each row.
    def row_max(S):
        y = np.max(S, axis=1)
        return y

    def row_max_frule(tangents, S):
        _, dS = tangents
        y = np.max(S, axis=1)
        dy_ = _ZERO
        if not is_zero(dS):
            dy_ = _add(dy_, np.sum((dS * np.where((S == y[:, None]), (1 / np.sum(np.asarray(np.where((S == y[:, None]), 1.0, 0.0), dtype=np.result_type(S)), axis=1))[:, None], 0.0)), axis=1))
        return y, dy_

    def row_max_rrule(S):
        y = np.max(S, axis=1)
        def row_max_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dS = ((dy_[:, None]) * np.where((S == y[:, None]), (1 / np.sum(np.asarray(np.where((S == y[:, None]), 1.0, 0.0), dtype=np.result_type(S)), axis=1))[:, None], 0.0))
            return (_NO, dS)
        return y, row_max_pullback

    # ---- matrix_min(A[i,j]) -> y[]    (rules/reductions.rules:10)
    # The smallest entry of a matrix.
    def matrix_min(A):
        y = np.min(A, axis=(0, 1))
        return y

    def matrix_min_frule(tangents, A):
        _, dA = tangents
        y = np.min(A, axis=(0, 1))
        dy_ = _ZERO
        if not is_zero(dA):
            dy_ = _add(dy_, np.sum((dA * np.asarray(np.where((A == y), (_div(1, np.sum(np.asarray(np.where((A == y), 1.0, 0.0), dtype=np.result_type(A)), axis=(0, 1)))), 0.0), dtype=np.result_type(A))), axis=(0, 1)))
        return y, dy_

    def matrix_min_rrule(A):
        y = np.min(A, axis=(0, 1))
        def matrix_min_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dA = (dy_ * np.asarray(np.where((A == y), (_div(1, np.sum(np.asarray(np.where((A == y), 1.0, 0.0), dtype=np.result_type(A)), axis=(0, 1)))), 0.0), dtype=np.result_type(A)))
            return (_NO, dA)
        return y, matrix_min_pullback

    # ---- product(x[i]) -> y[]    (rules/reductions.rules:12)
    # The product of a vector's entries.
    def product(x):
        y = np.prod(x, axis=0)
        return y

    def product_frule(tangents, x):
        _, dx = tangents
        y = np.prod(x, axis=0)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.sum((np.others_product(x, axis=0) * dx), axis=0))
        return y, dy_

    def product_rrule(x):
        y = np.prod(x, axis=0)
        def product_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.others_product(x, axis=0) * dy_)
            return (_NO, dx)
        return y, product_pullback

    # ---- row_logsumexp(z[b,k]) -> y[b]    (rules/reductions.rules:14)
    # Log-sum-exp of each row, shifted by the row's maximum (the shift cancels in value and derivative).
    def row_logsumexp(z):
        m = np.max(z, axis=1)
        _e1 = (z - (m[:, None]))
        _m2 = np.lse_shift(_e1, axis=1)
        y = ((m + np.sum(_m2, axis=1)) + np.log(np.sum(np.exp(_e1 - _m2), axis=1)))
        return y

    def row_logsumexp_frule(tangents, z):
        _, dz = tangents
        m = np.max(z, axis=1)
        _e7 = (z - (m[:, None]))
        _m8 = np.lse_shift(_e7, axis=1)
        _ls9 = np.log(np.sum(np.exp(_e7 - _m8), axis=1))
        _m10 = np.sum(_m8, axis=1)
        y = ((m + _m10) + _ls9)
        dy_ = _ZERO
        if not is_zero(dz):
            dy_ = _add(dy_, np.sum((dz * np.exp(((_e7 - _m10[:, None]) - _ls9[:, None]))), axis=1))
        return y, dy_

    def row_logsumexp_rrule(z):
        m = np.max(z, axis=1)
        _e17 = (z - (m[:, None]))
        _m18 = np.lse_shift(_e17, axis=1)
        _ls19 = np.log(np.sum(np.exp(_e17 - _m18), axis=1))
        _m20 = np.sum(_m18, axis=1)
        y = ((m + _m20) + _ls19)
        def row_logsumexp_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dz = ((dy_[:, None]) * np.exp(((_e17 - _m20[:, None]) - _ls19[:, None])))
            return (_NO, dz)
        return y, row_logsumexp_pullback

    # ---- __batched_row_max(S[_batch,n,m]) -> y[_batch,n]    (rules/reductions.rules:8)
    # The largest entry of each row.
    def _op___batched_row_max(S):
        y = np.max(S, axis=2)
        return y

    def _op___batched_row_max_frule(tangents, S):
        _, dS = tangents
        y = np.max(S, axis=2)
        dy_ = _ZERO
        if not is_zero(dS):
            dy_ = _add(dy_, np.sum((dS * np.where((S == y[:, :, None]), (1 / np.sum(np.asarray(np.where((S == y[:, :, None]), 1.0, 0.0), dtype=np.result_type(S)), axis=2))[:, :, None], 0.0)), axis=2))
        return y, dy_

    def _op___batched_row_max_rrule(S):
        y = np.max(S, axis=2)
        def _op___batched_row_max_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dS = ((dy_[:, :, None]) * np.where((S == y[:, :, None]), (1 / np.sum(np.asarray(np.where((S == y[:, :, None]), 1.0, 0.0), dtype=np.result_type(S)), axis=2))[:, :, None], 0.0))
            return (_NO, dS)
        return y, _op___batched_row_max_pullback

    # ---- __batched_matrix_min(A[_batch,i,j]) -> y[_batch]    (rules/reductions.rules:10)
    # The smallest entry of a matrix.
    def _op___batched_matrix_min(A):
        y = np.min(A, axis=(1, 2))
        return y

    def _op___batched_matrix_min_frule(tangents, A):
        _, dA = tangents
        y = np.min(A, axis=(1, 2))
        dy_ = _ZERO
        if not is_zero(dA):
            dy_ = _add(dy_, np.sum((dA * np.where((A == y[:, None, None]), (1 / np.sum(np.asarray(np.where((A == y[:, None, None]), 1.0, 0.0), dtype=np.result_type(A)), axis=(1, 2)))[:, None, None], 0.0)), axis=(1, 2)))
        return y, dy_

    def _op___batched_matrix_min_rrule(A):
        y = np.min(A, axis=(1, 2))
        def _op___batched_matrix_min_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dA = ((dy_[:, None, None]) * np.where((A == y[:, None, None]), (1 / np.sum(np.asarray(np.where((A == y[:, None, None]), 1.0, 0.0), dtype=np.result_type(A)), axis=(1, 2)))[:, None, None], 0.0))
            return (_NO, dA)
        return y, _op___batched_matrix_min_pullback

    # ---- __batched_product(x[_batch,i]) -> y[_batch]    (rules/reductions.rules:12)
    # The product of a vector's entries.
    def _op___batched_product(x):
        y = np.prod(x, axis=1)
        return y

    def _op___batched_product_frule(tangents, x):
        _, dx = tangents
        y = np.prod(x, axis=1)
        dy_ = _ZERO
        if not is_zero(dx):
            dy_ = _add(dy_, np.sum((np.others_product(x, axis=1) * dx), axis=1))
        return y, dy_

    def _op___batched_product_rrule(x):
        y = np.prod(x, axis=1)
        def _op___batched_product_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dx = (np.others_product(x, axis=1) * (dy_[:, None]))
            return (_NO, dx)
        return y, _op___batched_product_pullback

    # ---- __batched_row_logsumexp(z[_batch,b,k]) -> y[_batch,b]    (rules/reductions.rules:14)
    # Log-sum-exp of each row, shifted by the row's maximum (the shift cancels in value and derivative).
    def _op___batched_row_logsumexp(z):
        m = np.max(z, axis=2)
        _e1 = (z - (m[:, :, None]))
        _m2 = np.lse_shift(_e1, axis=2)
        y = ((m + np.sum(_m2, axis=2)) + np.log(np.sum(np.exp(_e1 - _m2), axis=2)))
        return y

    def _op___batched_row_logsumexp_frule(tangents, z):
        _, dz = tangents
        m = np.max(z, axis=2)
        _e7 = (z - (m[:, :, None]))
        _m8 = np.lse_shift(_e7, axis=2)
        _ls9 = np.log(np.sum(np.exp(_e7 - _m8), axis=2))
        _m10 = np.sum(_m8, axis=2)
        y = ((m + _m10) + _ls9)
        dy_ = _ZERO
        if not is_zero(dz):
            dy_ = _add(dy_, np.sum((dz * np.exp(((_e7 - _m10[:, :, None]) - _ls9[:, :, None]))), axis=2))
        return y, dy_

    def _op___batched_row_logsumexp_rrule(z):
        m = np.max(z, axis=2)
        _e17 = (z - (m[:, :, None]))
        _m18 = np.lse_shift(_e17, axis=2)
        _ls19 = np.log(np.sum(np.exp(_e17 - _m18), axis=2))
        _m20 = np.sum(_m18, axis=2)
        y = ((m + _m20) + _ls19)
        def _op___batched_row_logsumexp_pullback(dy_):
            if is_zero(dy_):
                return (_NO, _ZERO)
            dz = ((dy_[:, :, None]) * np.exp(((_e17 - _m20[:, :, None]) - _ls19[:, :, None])))
            return (_NO, dz)
        return y, _op___batched_row_logsumexp_pullback

    return {
        'row_max': row_max,
        'row_max_frule': row_max_frule,
        'row_max_rrule': row_max_rrule,
        'matrix_min': matrix_min,
        'matrix_min_frule': matrix_min_frule,
        'matrix_min_rrule': matrix_min_rrule,
        'product': product,
        'product_frule': product_frule,
        'product_rrule': product_rrule,
        'row_logsumexp': row_logsumexp,
        'row_logsumexp_frule': row_logsumexp_frule,
        'row_logsumexp_rrule': row_logsumexp_rrule,
        '__batched_row_max': _op___batched_row_max,
        '__batched_row_max_frule': _op___batched_row_max_frule,
        '__batched_row_max_rrule': _op___batched_row_max_rrule,
        '__batched_matrix_min': _op___batched_matrix_min,
        '__batched_matrix_min_frule': _op___batched_matrix_min_frule,
        '__batched_matrix_min_rrule': _op___batched_matrix_min_rrule,
        '__batched_product': _op___batched_product,
        '__batched_product_frule': _op___batched_product_frule,
        '__batched_product_rrule': _op___batched_product_rrule,
        '__batched_row_logsumexp': _op___batched_row_logsumexp,
        '__batched_row_logsumexp_frule': _op___batched_row_logsumexp_frule,
        '__batched_row_logsumexp_rrule': _op___batched_row_logsumexp_rrule,
    }


OPS = {'row_max': {'signature': 'row_max(S[n,m]) -> y[n]',
             'inputs': [{'name': 'S', 'kind': 'tensor', 'indices': ['n', 'm']}],
             'outputs': [{'name': 'y', 'indices': ['n']}],
             'equal_extents': [],
             'domains': {'S': 'real'},
             'source': 'rules/reductions.rules:8',
             'doc': 'The largest entry of each row.',
             'batched': '__batched_row_max'},
 'matrix_min': {'signature': 'matrix_min(A[i,j]) -> y[]',
                'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j']}],
                'outputs': [{'name': 'y', 'indices': []}],
                'equal_extents': [],
                'domains': {'A': 'real'},
                'source': 'rules/reductions.rules:10',
                'doc': 'The smallest entry of a matrix.',
                'batched': '__batched_matrix_min'},
 'product': {'signature': 'product(x[i]) -> y[]',
             'inputs': [{'name': 'x', 'kind': 'tensor', 'indices': ['i']}],
             'outputs': [{'name': 'y', 'indices': []}],
             'equal_extents': [],
             'domains': {'x': 'real'},
             'source': 'rules/reductions.rules:12',
             'doc': "The product of a vector's entries.",
             'batched': '__batched_product'},
 'row_logsumexp': {'signature': 'row_logsumexp(z[b,k]) -> y[b]',
                   'inputs': [{'name': 'z', 'kind': 'tensor', 'indices': ['b', 'k']}],
                   'outputs': [{'name': 'y', 'indices': ['b']}],
                   'equal_extents': [],
                   'domains': {'z': 'real'},
                   'source': 'rules/reductions.rules:14',
                   'doc': "Log-sum-exp of each row, shifted by the row's maximum (the shift cancels in value "
                          'and derivative).',
                   'batched': '__batched_row_logsumexp'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'row_max': {'name': 'row_max',
             'signature': 'row_max(S[n,m]) -> y[n]',
             'file': 'rules/reductions.rules',
             'line': 8,
             'text': 'row_max(S[n,m]) -> y[n] = max(m, S[n,m])',
             'doc': 'The largest entry of each row.',
             'inputs': [{'name': 'S',
                         'kind': 'tensor',
                         'indices': ['n', 'm'],
                         'domain': 'real',
                         'declared': False}],
             'outputs': [{'name': 'y', 'indices': ['n']}],
             'extents': {},
             'equal_extents': [],
             'pushforward': [{'target': 'dy',
                              'text': 'dy[n] = Σ_k dS[n,k]·where(S[n,k] == y[n], 1/Σ_m′(where(S[n,m′] == '
                                      'y[n], 1, 0)), 0)',
                              'latex': '\\mathrm{d}y_{n} = \\sum_{k} \\mathrm{d}S_{nk} '
                                       "\\operatorname{where}{\\left(S_{nk} = y_{n},\\frac{1}{\\sum_{m'} "
                                       "\\operatorname{where}{\\left(S_{n,m'} = y_{n},1,0 \\right)}},0 "
                                       '\\right)}',
                              'matrix': None,
                              'index': 'dy[n] = Σ_k dS[n,k]·where(S[n,k] == y[n], 1/Σ_m′(where(S[n,m′] == '
                                       'y[n], 1, 0)), 0)',
                              'index_latex': '\\mathrm{d}y_{n} = \\sum_{k} \\mathrm{d}S_{nk} '
                                             '\\operatorname{where}{\\left(S_{nk} = '
                                             "y_{n},\\frac{1}{\\sum_{m'} "
                                             "\\operatorname{where}{\\left(S_{n,m'} = y_{n},1,0 \\right)}},0 "
                                             '\\right)}'}],
             'pullback': [{'target': 'dS',
                           'text': 'dS[n,m] = dy[n]·where(S[n,m] == y[n], 1/Σ_m′(where(S[n,m′] == y[n], 1, '
                                   '0)), 0)',
                           'latex': '\\mathrm{d}S_{nm} = \\mathrm{d}y_{n} '
                                    "\\operatorname{where}{\\left(S_{nm} = y_{n},\\frac{1}{\\sum_{m'} "
                                    "\\operatorname{where}{\\left(S_{n,m'} = y_{n},1,0 \\right)}},0 "
                                    '\\right)}',
                           'matrix': None,
                           'index': 'dS[n,m] = dy[n]·where(S[n,m] == y[n], 1/Σ_m′(where(S[n,m′] == y[n], 1, '
                                    '0)), 0)',
                           'index_latex': '\\mathrm{d}S_{nm} = \\mathrm{d}y_{n} '
                                          "\\operatorname{where}{\\left(S_{nm} = y_{n},\\frac{1}{\\sum_{m'} "
                                          "\\operatorname{where}{\\left(S_{n,m'} = y_{n},1,0 \\right)}},0 "
                                          '\\right)}'}],
             'holds_for': 'every real input',
             'saves': {'inputs': ['S'], 'outputs': ['y'], 'intermediates': []},
             'verified': True,
             'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                              'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                              'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                              'points': 4,
                              'skipped': 0,
                              'extents': [{'n': 3, 'm': 4}, {'n': 4, 'm': 3}]}},
 'matrix_min': {'name': 'matrix_min',
                'signature': 'matrix_min(A[i,j]) -> y[]',
                'file': 'rules/reductions.rules',
                'line': 10,
                'text': 'matrix_min(A[i,j]) -> y[] = min(i, j, A[i,j])',
                'doc': 'The smallest entry of a matrix.',
                'inputs': [{'name': 'A',
                            'kind': 'tensor',
                            'indices': ['i', 'j'],
                            'domain': 'real',
                            'declared': False}],
                'outputs': [{'name': 'y', 'indices': []}],
                'extents': {},
                'equal_extents': [],
                'pushforward': [{'target': 'dy',
                                 'text': 'dy = 𝟙ᵀ·(where(A == y, 1/(𝟙ᵀ·[A == y]·𝟙), 0) ⊙ dA)·𝟙',
                                 'latex': '\\mathrm{d}y = \\mathbf{1}^{\\top} '
                                          '(\\operatorname{where}{\\left(A = '
                                          'y,\\frac{1}{\\left(\\mathbf{1}^{\\top} \\left[A = y\\right] '
                                          '\\mathbf{1}\\right)},0 \\right)} \\odot \\mathrm{d}A) \\mathbf{1}',
                                 'matrix': 'dy = 𝟙ᵀ·(where(A == y, 1/(𝟙ᵀ·[A == y]·𝟙), 0) ⊙ dA)·𝟙',
                                 'index': 'dy = Σ_kl dA[k,l]·where(A[k,l] == y, 1/Σ_i′j′(where(A[i′,j′] == '
                                          'y, 1, 0)), 0)',
                                 'index_latex': '\\mathrm{d}y = \\sum_{kl} \\mathrm{d}A_{kl} '
                                                '\\operatorname{where}{\\left(A_{kl} = '
                                                "y,\\frac{1}{\\sum_{i',j'} "
                                                "\\operatorname{where}{\\left(A_{i',j'} = y,1,0 \\right)}},0 "
                                                '\\right)}'}],
                'pullback': [{'target': 'dA',
                              'text': 'dA = dy·where(A == y, 1/(𝟙ᵀ·[A == y]·𝟙), 0)',
                              'latex': '\\mathrm{d}A = \\mathrm{d}y \\operatorname{where}{\\left(A = '
                                       'y,\\frac{1}{\\left(\\mathbf{1}^{\\top} \\left[A = y\\right] '
                                       '\\mathbf{1}\\right)},0 \\right)}',
                              'matrix': 'dA = dy·where(A == y, 1/(𝟙ᵀ·[A == y]·𝟙), 0)',
                              'index': 'dA[i,j] = dy·where(A[i,j] == y, 1/Σ_i′j′(where(A[i′,j′] == y, 1, '
                                       '0)), 0)',
                              'index_latex': '\\mathrm{d}A_{ij} = \\mathrm{d}y '
                                             '\\operatorname{where}{\\left(A_{ij} = '
                                             "y,\\frac{1}{\\sum_{i',j'} "
                                             "\\operatorname{where}{\\left(A_{i',j'} = y,1,0 \\right)}},0 "
                                             '\\right)}'}],
                'holds_for': 'every real input',
                'saves': {'inputs': ['A'], 'outputs': ['y'], 'intermediates': []},
                'verified': True,
                'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                 'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                 'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                 'points': 4,
                                 'skipped': 0,
                                 'extents': [{'i': 3, 'j': 4}, {'i': 4, 'j': 3}]}},
 'product': {'name': 'product',
             'signature': 'product(x[i]) -> y[]',
             'file': 'rules/reductions.rules',
             'line': 12,
             'text': 'product(x[i]) -> y[] = prod(i, x[i])',
             'doc': "The product of a vector's entries.",
             'inputs': [{'name': 'x',
                         'kind': 'tensor',
                         'indices': ['i'],
                         'domain': 'real',
                         'declared': False}],
             'outputs': [{'name': 'y', 'indices': []}],
             'extents': {},
             'equal_extents': [],
             'pushforward': [{'target': 'dy',
                              'text': 'dy = Σ_k Π_k′≠k(x[k′])·dx[k]',
                              'latex': "\\mathrm{d}y = \\sum_{k} \\prod_{k' \\neq k} x_{k'} \\mathrm{d}x_{k}",
                              'matrix': None,
                              'index': 'dy = Σ_k Π_k′≠k(x[k′])·dx[k]',
                              'index_latex': "\\mathrm{d}y = \\sum_{k} \\prod_{k' \\neq k} x_{k'} "
                                             '\\mathrm{d}x_{k}'}],
             'pullback': [{'target': 'dx',
                           'text': 'dx[i] = Π_i′≠i(x[i′])·dy',
                           'latex': "\\mathrm{d}x_{i} = \\prod_{i' \\neq i} x_{i'} \\mathrm{d}y",
                           'matrix': None,
                           'index': 'dx[i] = Π_i′≠i(x[i′])·dy',
                           'index_latex': "\\mathrm{d}x_{i} = \\prod_{i' \\neq i} x_{i'} \\mathrm{d}y"}],
             'holds_for': 'every real input',
             'saves': {'inputs': ['x'], 'outputs': [], 'intermediates': []},
             'verified': True,
             'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                              'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                              'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                              'points': 2,
                              'skipped': 0,
                              'extents': [{'i': 3}]}},
 'row_logsumexp': {'name': 'row_logsumexp',
                   'signature': 'row_logsumexp(z[b,k]) -> y[b]',
                   'file': 'rules/reductions.rules',
                   'line': 14,
                   'text': 'row_logsumexp(z[b,k]) -> y[b]:\n'
                           '    m[b] = max(k, z[b,k])\n'
                           '    y[b] = log(sum(k, exp(z[b,k] - m[b]))) + m[b]',
                   'doc': "Log-sum-exp of each row, shifted by the row's maximum (the shift cancels in value "
                          'and derivative).',
                   'inputs': [{'name': 'z',
                               'kind': 'tensor',
                               'indices': ['b', 'k'],
                               'domain': 'real',
                               'declared': False}],
                   'outputs': [{'name': 'y', 'indices': ['b']}],
                   'extents': {},
                   'equal_extents': [],
                   'pushforward': [{'target': 'dy',
                                    'text': 'dy = (softmax(z) ⊙ dz)·𝟙',
                                    'latex': '\\mathrm{d}y = (\\operatorname{softmax}\\left(z\\right) \\odot '
                                             '\\mathrm{d}z) \\mathbf{1}',
                                    'matrix': 'dy = (softmax(z) ⊙ dz)·𝟙',
                                    'index': 'dy[b] = Σ_k dz[b,k]·exp(-m[b] + z[b,k])/Σ_k′(exp(-m[b] + '
                                             'z[b,k′]))',
                                    'index_latex': '\\mathrm{d}y_{b} = \\sum_{k} \\frac{\\mathrm{d}z_{bk} '
                                                   "e^{- m_{b} + z_{bk}}}{\\sum_{k'} e^{- m_{b} + "
                                                   "z_{b,k'}}}"},
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
                                 'text': 'dz = softmax(z) ⊙ (dy·𝟙ᵀ)',
                                 'latex': '\\mathrm{d}z = \\left(\\operatorname{softmax}\\left(z\\right) '
                                          '\\odot \\left(\\mathrm{d}y \\mathbf{1}^{\\top}\\right)\\right)',
                                 'matrix': 'dz = softmax(z) ⊙ (dy·𝟙ᵀ)',
                                 'index': 'dz[b,k] = dy[b]·exp(-m[b] + z[b,k])/Σ_k′(exp(-m[b] + z[b,k′]))',
                                 'index_latex': '\\mathrm{d}z_{bk} = \\frac{\\mathrm{d}y_{b} e^{- m_{b} + '
                                                "z_{bk}}}{\\sum_{k'} e^{- m_{b} + z_{b,k'}}}"},
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
                   'saves': {'inputs': ['z'], 'outputs': [], 'intermediates': ['m']},
                   'verified': True,
                   'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                    'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                    'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                    'points': 4,
                                    'skipped': 0,
                                    'extents': [{'b': 3, 'k': 4}, {'b': 4, 'k': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
