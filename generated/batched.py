# @generated from rules/batched.rules by `derive-rules` -- do not edit by hand.
"""tensor-rules: batched tensor products and batched matrix functions.

A trailing index that every tensor carries (b below) is a batch index: matrix functions act on each
A[:,:,b]; products broadcast over it or contract with an unbatched operand."""
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

    # ---- batched_matmul(A[i,k,b], B[k,j]) -> C[i,j,b]    (rules/batched.rules:7)
    # One operand batched, the other shared across the batch (its pullback sums over b).
    def batched_matmul(A, B):
        C = np.einsum("abc,bd->adc", A, B, optimize=True)
        return C

    def batched_matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abc,bd->adc", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abc,bd->adc", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("ab,cad->cbd", B, dA, optimize=True))
        return C, dC

    def batched_matmul_rrule(A, B):
        C = np.einsum("abc,bd->adc", A, B, optimize=True)
        def batched_matmul_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("ab,cbd->cad", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abc,adc->bd", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, batched_matmul_pullback

    # ---- bmm(A[i,k,b], B[k,j,b]) -> C[i,j,b]    (rules/batched.rules:9)
    # Both operands batched.
    def bmm(A, B):
        C = np.einsum("abc,bdc->adc", A, B, optimize=True)
        return C

    def bmm_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("abc,bdc->adc", A, B, optimize=True)
        dC = _ZERO
        if not is_zero(dB):
            dC = _add(dC, np.einsum("abc,bdc->adc", A, dB, optimize=True))
        if not is_zero(dA):
            dC = _add(dC, np.einsum("abc,dac->dbc", B, dA, optimize=True))
        return C, dC

    def bmm_rrule(A, B):
        C = np.einsum("abc,bdc->adc", A, B, optimize=True)
        def bmm_pullback(dC):
            if is_zero(dC):
                return (_NO, _ZERO, _ZERO)
            def _pb_A_5():
                dA = np.einsum("abc,dbc->dac", B, dC, optimize=True)
                return dA
            def _pb_B_7():
                dB = np.einsum("abc,adc->bdc", A, dC, optimize=True)
                return dB
            return (_NO, Thunk(_pb_A_5), Thunk(_pb_B_7))
        return C, bmm_pullback

    # ---- batched_transpose(A[i,j,b]) -> B[j,i,b]    (rules/batched.rules:10)
    def batched_transpose(A):
        B = np.transpose(A, (1, 0, 2))
        return B

    def batched_transpose_frule(tangents, A):
        _, dA = tangents
        B = np.transpose(A, (1, 0, 2))
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, np.transpose(dA, (1, 0, 2)))
        return B, dB

    def batched_transpose_rrule(A):
        B = np.transpose(A, (1, 0, 2))
        def batched_transpose_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = np.transpose(dB, (1, 0, 2))
            return (_NO, dA)
        return B, batched_transpose_pullback

    # ---- batched_inv(A[i,j,b]) -> B[i,j,b]    (rules/batched.rules:11)
    def batched_inv(A):
        B = np.prim.inv.forward(A, nb=1)
        return B

    def batched_inv_frule(tangents, A):
        _, dA = tangents
        B = np.prim.inv.forward(A, nb=1)
        dB = _ZERO
        if not is_zero(dA):
            dB = _add(dB, (-np.einsum("abc,dca->dbc", B, np.einsum("abc,bdc->acd", B, dA, optimize=True), optimize=True)))
        return B, dB

    def batched_inv_rrule(A):
        B = np.prim.inv.forward(A, nb=1)
        def batched_inv_pullback(dB):
            if is_zero(dB):
                return (_NO, _ZERO)
            dA = (-np.einsum("abc,dca->bdc", B, np.einsum("abc,dbc->acd", B, dB, optimize=True), optimize=True))
            return (_NO, dA)
        return B, batched_inv_pullback

    # ---- batched_logdet(A[i,j,b]) -> d[b]    (rules/batched.rules:12)
    def batched_logdet(A):
        d = np.prim.logdet.forward(A, nb=1)
        return d

    def batched_logdet_frule(tangents, A):
        _, dA = tangents
        d = np.prim.logdet.forward(A, nb=1)
        _inv_A = np.prim.inv.forward(A, nb=1)
        dd = _ZERO
        if not is_zero(dA):
            dd = _add(dd, np.sum((_inv_A * np.transpose(dA, (1, 0, 2))), axis=(0, 1)))
        return d, dd

    def batched_logdet_rrule(A):
        d = np.prim.logdet.forward(A, nb=1)
        def batched_logdet_pullback(dd):
            if is_zero(dd):
                return (_NO, _ZERO)
            dA = (np.transpose(np.prim.inv.forward(A, nb=1), (1, 0, 2)) * dd)
            return (_NO, dA)
        return d, batched_logdet_pullback

    # ---- batched_solve(A[i,j,b], y[j,b]) -> x[i,b]    (rules/batched.rules:13)
    def batched_solve(A, y):
        x = np.prim.solve.forward(A, y, nb=1)
        return x

    def batched_solve_frule(tangents, A, y):
        _, dA, dy_ = tangents
        x = np.prim.solve.forward(A, y, nb=1)
        _inv_A = np.prim.inv.forward(A, nb=1)
        _dz1 = _ZERO
        if not is_zero(dA):
            _dz1 = _add(_dz1, (-np.einsum("abc,bc->ac", dA, x, optimize=True)))
        if not is_zero(dy_):
            _dz1 = _add(_dz1, dy_)
        dx = _ZERO
        if not is_zero(_dz1):
            dx = _add(dx, np.einsum("abc,bc->ac", _inv_A, _dz1, optimize=True))
        return x, dx

    def batched_solve_rrule(A, y):
        x = np.prim.solve.forward(A, y, nb=1)
        def batched_solve_pullback(dx):
            if is_zero(dx):
                return (_NO, _ZERO, _ZERO)
            _dz1 = np.einsum("abc,ac->bc", np.prim.inv.forward(A, nb=1), dx, optimize=True)
            def _pb_A_3():
                dA = (-((_dz1[:, None]) * x))
                return dA
            def _pb_y_5():
                dy_ = _dz1
                return dy_
            return (_NO, Thunk(_pb_A_3), Thunk(_pb_y_5))
        return x, batched_solve_pullback

    # ---- batched_cayley(A[i,j,b]) -> Q[i,j,b]    (rules/batched.rules:16)
    # Volume-preserving attention's building block: a Cayley transform per batch element.
    def batched_cayley(A):
        n_i = A.shape[0]
        _d0 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d0[:, :, None] - A), nb=1)
        Q = np.einsum("abc,dac->dbc", (A + np.transpose(_d0, (1, 0))[:, :, None]), M, optimize=True)
        return Q

    def batched_cayley_frule(tangents, A):
        _, dA = tangents
        n_i = A.shape[0]
        _d4 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d4[:, :, None] - A), nb=1)
        Q = np.einsum("abc,dac->dbc", (A + np.transpose(_d4, (1, 0))[:, :, None]), M, optimize=True)
        _dt0 = _ZERO
        if not is_zero(dA):
            _dt0 = _add(_dt0, (-dA))
        dM = _ZERO
        if not is_zero(_dt0):
            dM = _add(dM, (-np.einsum("abc,dca->dbc", M, np.einsum("abc,bdc->acd", M, _dt0, optimize=True), optimize=True)))
        dQ = _ZERO
        if not is_zero(dM):
            dQ = _add(dQ, np.einsum("abc,dac->dbc", A, dM, optimize=True) + dM)
        if not is_zero(dA):
            dQ = _add(dQ, np.einsum("abc,bdc->adc", M, dA, optimize=True))
        return Q, dQ

    def batched_cayley_rrule(A):
        n_i = A.shape[0]
        _d13 = np.eye(n_i, dtype=np.result_type(A))
        M = np.prim.inv.forward((_d13[:, :, None] - A), nb=1)
        Q = np.einsum("abc,dac->dbc", (A + np.transpose(_d13, (1, 0))[:, :, None]), M, optimize=True)
        def batched_cayley_pullback(dQ):
            if is_zero(dQ):
                return (_NO, _ZERO)
            dM = np.einsum("abc,dbc->dac", A, dQ, optimize=True) + dQ
            _dt0 = (-np.einsum("abc,dca->bdc", M, np.einsum("abc,dbc->acd", M, dM, optimize=True), optimize=True))
            dA = np.einsum("abc,adc->bdc", M, dQ, optimize=True)
            dA = _add(dA, (-_dt0))
            return (_NO, dA)
        return Q, batched_cayley_pullback

    return {
        'batched_matmul': batched_matmul,
        'batched_matmul_frule': batched_matmul_frule,
        'batched_matmul_rrule': batched_matmul_rrule,
        'bmm': bmm,
        'bmm_frule': bmm_frule,
        'bmm_rrule': bmm_rrule,
        'batched_transpose': batched_transpose,
        'batched_transpose_frule': batched_transpose_frule,
        'batched_transpose_rrule': batched_transpose_rrule,
        'batched_inv': batched_inv,
        'batched_inv_frule': batched_inv_frule,
        'batched_inv_rrule': batched_inv_rrule,
        'batched_logdet': batched_logdet,
        'batched_logdet_frule': batched_logdet_frule,
        'batched_logdet_rrule': batched_logdet_rrule,
        'batched_solve': batched_solve,
        'batched_solve_frule': batched_solve_frule,
        'batched_solve_rrule': batched_solve_rrule,
        'batched_cayley': batched_cayley,
        'batched_cayley_frule': batched_cayley_frule,
        'batched_cayley_rrule': batched_cayley_rrule,
    }


OPS = {'batched_matmul': {'signature': 'batched_matmul(A[i,k,b], B[k,j]) -> C[i,j,b]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'k', 'b']},
                               {'name': 'B', 'kind': 'tensor', 'indices': ['k', 'j']}],
                    'outputs': [{'name': 'C', 'indices': ['i', 'j', 'b']}],
                    'equal_extents': [],
                    'domains': {'A': 'real', 'B': 'real'},
                    'source': 'rules/batched.rules:7',
                    'doc': 'One operand batched, the other shared across the batch (its pullback sums over '
                           'b).'},
 'bmm': {'signature': 'bmm(A[i,k,b], B[k,j,b]) -> C[i,j,b]',
         'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'k', 'b']},
                    {'name': 'B', 'kind': 'tensor', 'indices': ['k', 'j', 'b']}],
         'outputs': [{'name': 'C', 'indices': ['i', 'j', 'b']}],
         'equal_extents': [],
         'domains': {'A': 'real', 'B': 'real'},
         'source': 'rules/batched.rules:9',
         'doc': 'Both operands batched.'},
 'batched_transpose': {'signature': 'batched_transpose(A[i,j,b]) -> B[j,i,b]',
                       'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j', 'b']}],
                       'outputs': [{'name': 'B', 'indices': ['j', 'i', 'b']}],
                       'equal_extents': [],
                       'domains': {'A': 'real'},
                       'source': 'rules/batched.rules:10'},
 'batched_inv': {'signature': 'batched_inv(A[i,j,b]) -> B[i,j,b]',
                 'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j', 'b']}],
                 'outputs': [{'name': 'B', 'indices': ['i', 'j', 'b']}],
                 'equal_extents': [['i', 'j']],
                 'domains': {'A': 'wellcond'},
                 'source': 'rules/batched.rules:11'},
 'batched_logdet': {'signature': 'batched_logdet(A[i,j,b]) -> d[b]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j', 'b']}],
                    'outputs': [{'name': 'd', 'indices': ['b']}],
                    'equal_extents': [['i', 'j']],
                    'domains': {'A': 'spd'},
                    'source': 'rules/batched.rules:12'},
 'batched_solve': {'signature': 'batched_solve(A[i,j,b], y[j,b]) -> x[i,b]',
                   'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j', 'b']},
                              {'name': 'y', 'kind': 'tensor', 'indices': ['j', 'b']}],
                   'outputs': [{'name': 'x', 'indices': ['i', 'b']}],
                   'equal_extents': [['i', 'j']],
                   'domains': {'A': 'wellcond', 'y': 'real'},
                   'source': 'rules/batched.rules:13'},
 'batched_cayley': {'signature': 'batched_cayley(A[i,j,b]) -> Q[i,j,b]',
                    'inputs': [{'name': 'A', 'kind': 'tensor', 'indices': ['i', 'j', 'b']}],
                    'outputs': [{'name': 'Q', 'indices': ['i', 'j', 'b']}],
                    'equal_extents': [['i', 'j']],
                    'domains': {'A': 'real'},
                    'source': 'rules/batched.rules:16',
                    'doc': "Volume-preserving attention's building block: a Cayley transform per batch "
                           'element.'}}

# Each op's derivation and its proof (op.rule, help(op)): written by derive.record at generation time.
RULES = {'batched_matmul': {'name': 'batched_matmul',
                    'signature': 'batched_matmul(A[i,k,b], B[k,j]) -> C[i,j,b]',
                    'file': 'rules/batched.rules',
                    'line': 7,
                    'text': 'batched_matmul(A[i,k,b], B[k,j]) -> C[i,j,b] = A[i,k,b] * B[k,j]',
                    'doc': 'One operand batched, the other shared across the batch (its pullback sums over '
                           'b).',
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['i', 'k', 'b'],
                                'domain': 'real',
                                'declared': False},
                               {'name': 'B',
                                'kind': 'tensor',
                                'indices': ['k', 'j'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'C', 'indices': ['i', 'j', 'b']}],
                    'extents': {},
                    'equal_extents': [],
                    'pushforward': [{'target': 'dC',
                                     'text': 'dC[i,j,b] = Σ_k A[i,k,b]·dB[k,j] + Σ_k B[k,j]·dA[i,k,b]',
                                     'latex': '\\mathrm{d}C_{ijb} = \\sum_{k} A_{ikb} \\mathrm{d}B_{kj} + '
                                              '\\sum_{k} B_{kj} \\mathrm{d}A_{ikb}',
                                     'matrix': None,
                                     'index': 'dC[i,j,b] = Σ_k A[i,k,b]·dB[k,j] + Σ_k B[k,j]·dA[i,k,b]',
                                     'index_latex': '\\mathrm{d}C_{ijb} = \\sum_{k} A_{ikb} '
                                                    '\\mathrm{d}B_{kj} + \\sum_{k} B_{kj} '
                                                    '\\mathrm{d}A_{ikb}'}],
                    'pullback': [{'target': 'dA',
                                  'text': 'dA[i,k,b] = Σ_l B[k,l]·dC[i,l,b]',
                                  'latex': '\\mathrm{d}A_{ikb} = \\sum_{l} B_{kl} \\mathrm{d}C_{ilb}',
                                  'matrix': None,
                                  'index': 'dA[i,k,b] = Σ_l B[k,l]·dC[i,l,b]',
                                  'index_latex': '\\mathrm{d}A_{ikb} = \\sum_{l} B_{kl} \\mathrm{d}C_{ilb}'},
                                 {'target': 'dB',
                                  'text': 'dB[k,j] = Σ_lm A[l,k,m]·dC[l,j,m]',
                                  'latex': '\\mathrm{d}B_{kj} = \\sum_{lm} A_{lkm} \\mathrm{d}C_{ljm}',
                                  'matrix': None,
                                  'index': 'dB[k,j] = Σ_lm A[l,k,m]·dC[l,j,m]',
                                  'index_latex': '\\mathrm{d}B_{kj} = \\sum_{lm} A_{lkm} '
                                                 '\\mathrm{d}C_{ljm}'}],
                    'saves': {'inputs': ['A', 'B'], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'i': 3, 'k': 4, 'b': 5, 'j': 6},
                                                 {'i': 6, 'k': 5, 'b': 4, 'j': 3}]}},
 'bmm': {'name': 'bmm',
         'signature': 'bmm(A[i,k,b], B[k,j,b]) -> C[i,j,b]',
         'file': 'rules/batched.rules',
         'line': 9,
         'text': 'bmm(A[i,k,b], B[k,j,b]) -> C[i,j,b] = A[i,k,b] * B[k,j,b]',
         'doc': 'Both operands batched.',
         'inputs': [{'name': 'A',
                     'kind': 'tensor',
                     'indices': ['i', 'k', 'b'],
                     'domain': 'real',
                     'declared': False},
                    {'name': 'B',
                     'kind': 'tensor',
                     'indices': ['k', 'j', 'b'],
                     'domain': 'real',
                     'declared': False}],
         'outputs': [{'name': 'C', 'indices': ['i', 'j', 'b']}],
         'extents': {},
         'equal_extents': [],
         'pushforward': [{'target': 'dC',
                          'text': 'dC[i,j,b] = Σ_k A[i,k,b]·dB[k,j,b] + Σ_k B[k,j,b]·dA[i,k,b]',
                          'latex': '\\mathrm{d}C_{ijb} = \\sum_{k} A_{ikb} \\mathrm{d}B_{kjb} + \\sum_{k} '
                                   'B_{kjb} \\mathrm{d}A_{ikb}',
                          'matrix': None,
                          'index': 'dC[i,j,b] = Σ_k A[i,k,b]·dB[k,j,b] + Σ_k B[k,j,b]·dA[i,k,b]',
                          'index_latex': '\\mathrm{d}C_{ijb} = \\sum_{k} A_{ikb} \\mathrm{d}B_{kjb} + '
                                         '\\sum_{k} B_{kjb} \\mathrm{d}A_{ikb}'}],
         'pullback': [{'target': 'dA',
                       'text': 'dA[i,k,b] = Σ_l B[k,l,b]·dC[i,l,b]',
                       'latex': '\\mathrm{d}A_{ikb} = \\sum_{l} B_{klb} \\mathrm{d}C_{ilb}',
                       'matrix': None,
                       'index': 'dA[i,k,b] = Σ_l B[k,l,b]·dC[i,l,b]',
                       'index_latex': '\\mathrm{d}A_{ikb} = \\sum_{l} B_{klb} \\mathrm{d}C_{ilb}'},
                      {'target': 'dB',
                       'text': 'dB[k,j,b] = Σ_l A[l,k,b]·dC[l,j,b]',
                       'latex': '\\mathrm{d}B_{kjb} = \\sum_{l} A_{lkb} \\mathrm{d}C_{ljb}',
                       'matrix': None,
                       'index': 'dB[k,j,b] = Σ_l A[l,k,b]·dC[l,j,b]',
                       'index_latex': '\\mathrm{d}B_{kjb} = \\sum_{l} A_{lkb} \\mathrm{d}C_{ljb}'}],
         'saves': {'inputs': ['A', 'B'], 'outputs': [], 'intermediates': []},
         'verified': True,
         'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                          'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                          'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                          'points': 4,
                          'skipped': 0,
                          'extents': [{'i': 3, 'k': 4, 'b': 5, 'j': 6}, {'i': 6, 'k': 5, 'b': 4, 'j': 3}]}},
 'batched_transpose': {'name': 'batched_transpose',
                       'signature': 'batched_transpose(A[i,j,b]) -> B[j,i,b]',
                       'file': 'rules/batched.rules',
                       'line': 10,
                       'text': 'batched_transpose(A[i,j,b]) -> B[j,i,b] = A[i,j,b]',
                       'doc': '',
                       'inputs': [{'name': 'A',
                                   'kind': 'tensor',
                                   'indices': ['i', 'j', 'b'],
                                   'domain': 'real',
                                   'declared': False}],
                       'outputs': [{'name': 'B', 'indices': ['j', 'i', 'b']}],
                       'extents': {},
                       'equal_extents': [],
                       'pushforward': [{'target': 'dB',
                                        'text': 'dB[j,i,b] = dA[i,j,b]',
                                        'latex': '\\mathrm{d}B_{jib} = \\mathrm{d}A_{ijb}',
                                        'matrix': None,
                                        'index': 'dB[j,i,b] = dA[i,j,b]',
                                        'index_latex': '\\mathrm{d}B_{jib} = \\mathrm{d}A_{ijb}'}],
                       'pullback': [{'target': 'dA',
                                     'text': 'dA[i,j,b] = dB[j,i,b]',
                                     'latex': '\\mathrm{d}A_{ijb} = \\mathrm{d}B_{jib}',
                                     'matrix': None,
                                     'index': 'dA[i,j,b] = dB[j,i,b]',
                                     'index_latex': '\\mathrm{d}A_{ijb} = \\mathrm{d}B_{jib}'}],
                       'saves': {'inputs': [], 'outputs': [], 'intermediates': []},
                       'verified': True,
                       'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                        'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                        'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                        'points': 4,
                                        'skipped': 0,
                                        'extents': [{'i': 3, 'j': 4, 'b': 5}, {'i': 5, 'j': 4, 'b': 3}]}},
 'batched_inv': {'name': 'batched_inv',
                 'signature': 'batched_inv(A[i,j,b]) -> B[i,j,b]',
                 'file': 'rules/batched.rules',
                 'line': 11,
                 'text': 'batched_inv(A[i,j,b]) -> B[i,j,b] = inv(A[i,j,b])',
                 'doc': '',
                 'inputs': [{'name': 'A',
                             'kind': 'tensor',
                             'indices': ['i', 'j', 'b'],
                             'domain': 'wellcond',
                             'declared': False}],
                 'outputs': [{'name': 'B', 'indices': ['i', 'j', 'b']}],
                 'extents': {},
                 'equal_extents': [['i', 'j']],
                 'pushforward': [{'target': 'dB',
                                  'text': 'dB[i,j,b] = Σ_kl -B[i,k,b]·B[l,j,b]·dA[k,l,b]',
                                  'latex': '\\mathrm{d}B_{ijb} = \\sum_{kl} - B_{ikb} B_{ljb} '
                                           '\\mathrm{d}A_{klb}',
                                  'matrix': None,
                                  'index': 'dB[i,j,b] = Σ_kl -B[i,k,b]·B[l,j,b]·dA[k,l,b]',
                                  'index_latex': '\\mathrm{d}B_{ijb} = \\sum_{kl} - B_{ikb} B_{ljb} '
                                                 '\\mathrm{d}A_{klb}'}],
                 'pullback': [{'target': 'dA',
                               'text': 'dA[i,j,b] = Σ_kl -B[j,l,b]·B[k,i,b]·dB[k,l,b]',
                               'latex': '\\mathrm{d}A_{ijb} = \\sum_{kl} - B_{jlb} B_{kib} '
                                        '\\mathrm{d}B_{klb}',
                               'matrix': None,
                               'index': 'dA[i,j,b] = Σ_kl -B[j,l,b]·B[k,i,b]·dB[k,l,b]',
                               'index_latex': '\\mathrm{d}A_{ijb} = \\sum_{kl} - B_{jlb} B_{kib} '
                                              '\\mathrm{d}B_{klb}'}],
                 'saves': {'inputs': [], 'outputs': ['B'], 'intermediates': []},
                 'verified': True,
                 'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                  'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                  'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                  'points': 4,
                                  'skipped': 0,
                                  'extents': [{'i': 3, 'j': 3, 'b': 4}, {'i': 4, 'j': 4, 'b': 3}]}},
 'batched_logdet': {'name': 'batched_logdet',
                    'signature': 'batched_logdet(A[i,j,b]) -> d[b]',
                    'file': 'rules/batched.rules',
                    'line': 12,
                    'text': 'batched_logdet(A[i,j,b]) -> d[b] = logdet(A[i,j,b])',
                    'doc': '',
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['i', 'j', 'b'],
                                'domain': 'spd',
                                'declared': False}],
                    'outputs': [{'name': 'd', 'indices': ['b']}],
                    'extents': {},
                    'equal_extents': [['i', 'j']],
                    'pushforward': [{'target': 'dd',
                                     'text': 'dd[b] = Σ_kl A⁻¹[l,k,b]·dA[k,l,b]',
                                     'latex': '\\mathrm{d}d_{b} = \\sum_{kl} {A^{-1}}_{lkb} '
                                              '\\mathrm{d}A_{klb}',
                                     'matrix': None,
                                     'index': 'dd[b] = Σ_kl A⁻¹[l,k,b]·dA[k,l,b]',
                                     'index_latex': '\\mathrm{d}d_{b} = \\sum_{kl} {A^{-1}}_{lkb} '
                                                    '\\mathrm{d}A_{klb}'}],
                    'pullback': [{'target': 'dA',
                                  'text': 'dA[i,j,b] = A⁻¹[j,i,b]·dd[b]',
                                  'latex': '\\mathrm{d}A_{ijb} = {A^{-1}}_{jib} \\mathrm{d}d_{b}',
                                  'matrix': None,
                                  'index': 'dA[i,j,b] = A⁻¹[j,i,b]·dd[b]',
                                  'index_latex': '\\mathrm{d}A_{ijb} = {A^{-1}}_{jib} \\mathrm{d}d_{b}'}],
                    'saves': {'inputs': ['A'], 'outputs': [], 'intermediates': []},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'i': 3, 'j': 3, 'b': 4}, {'i': 4, 'j': 4, 'b': 3}]}},
 'batched_solve': {'name': 'batched_solve',
                   'signature': 'batched_solve(A[i,j,b], y[j,b]) -> x[i,b]',
                   'file': 'rules/batched.rules',
                   'line': 13,
                   'text': 'batched_solve(A[i,j,b], y[j,b]) -> x[i,b] = solve(A[i,j,b], y[j,b])',
                   'doc': '',
                   'inputs': [{'name': 'A',
                               'kind': 'tensor',
                               'indices': ['i', 'j', 'b'],
                               'domain': 'wellcond',
                               'declared': False},
                              {'name': 'y',
                               'kind': 'tensor',
                               'indices': ['j', 'b'],
                               'domain': 'real',
                               'declared': False}],
                   'outputs': [{'name': 'x', 'indices': ['i', 'b']}],
                   'extents': {},
                   'equal_extents': [['i', 'j']],
                   'pushforward': [{'target': 'dz',
                                    'text': 'dz[i,j] = Σ_k -dA[i,k,j]·x[k,j] + dy[i,j]',
                                    'latex': '\\mathrm{d}z_{ij} = \\sum_{k} - \\mathrm{d}A_{ikj} x_{kj} + '
                                             '\\mathrm{d}y_{ij}',
                                    'matrix': None,
                                    'index': 'dz[i,j] = Σ_k -dA[i,k,j]·x[k,j] + dy[i,j]',
                                    'index_latex': '\\mathrm{d}z_{ij} = \\sum_{k} - \\mathrm{d}A_{ikj} '
                                                   'x_{kj} + \\mathrm{d}y_{ij}'},
                                   {'target': 'dx',
                                    'text': 'dx[i,b] = Σ_k A⁻¹[i,k,b]·dz[k,b]',
                                    'latex': '\\mathrm{d}x_{ib} = \\sum_{k} {A^{-1}}_{ikb} \\mathrm{d}z_{kb}',
                                    'matrix': None,
                                    'index': 'dx[i,b] = Σ_k A⁻¹[i,k,b]·dz[k,b]',
                                    'index_latex': '\\mathrm{d}x_{ib} = \\sum_{k} {A^{-1}}_{ikb} '
                                                   '\\mathrm{d}z_{kb}'}],
                   'pullback': [{'target': 'dz',
                                 'text': 'dz[i,j] = Σ_k A⁻¹[k,i,j]·dx[k,j]',
                                 'latex': '\\mathrm{d}z_{ij} = \\sum_{k} {A^{-1}}_{kij} \\mathrm{d}x_{kj}',
                                 'matrix': None,
                                 'index': 'dz[i,j] = Σ_k A⁻¹[k,i,j]·dx[k,j]',
                                 'index_latex': '\\mathrm{d}z_{ij} = \\sum_{k} {A^{-1}}_{kij} '
                                                '\\mathrm{d}x_{kj}'},
                                {'target': 'dA',
                                 'text': 'dA[i,j,b] = -dz[i,b]·x[j,b]',
                                 'latex': '\\mathrm{d}A_{ijb} = - \\mathrm{d}z_{ib} x_{jb}',
                                 'matrix': None,
                                 'index': 'dA[i,j,b] = -dz[i,b]·x[j,b]',
                                 'index_latex': '\\mathrm{d}A_{ijb} = - \\mathrm{d}z_{ib} x_{jb}'},
                                {'target': 'dy',
                                 'text': 'dy = dz',
                                 'latex': '\\mathrm{d}y = \\mathrm{d}z',
                                 'matrix': 'dy = dz',
                                 'index': 'dy[j,b] = dz[j,b]',
                                 'index_latex': '\\mathrm{d}y_{jb} = \\mathrm{d}z_{jb}'}],
                   'saves': {'inputs': ['A'], 'outputs': ['x'], 'intermediates': []},
                   'verified': True,
                   'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                    'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                    'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 6},
                                    'points': 4,
                                    'skipped': 0,
                                    'extents': [{'i': 3, 'j': 3, 'b': 4}, {'i': 4, 'j': 4, 'b': 3}]}},
 'batched_cayley': {'name': 'batched_cayley',
                    'signature': 'batched_cayley(A[i,j,b]) -> Q[i,j,b]',
                    'file': 'rules/batched.rules',
                    'line': 16,
                    'text': 'batched_cayley(A[i,j,b]) -> Q[i,j,b]:\n'
                            '    M[i,j,b] = inv(delta(i,j) - A[i,j,b])\n'
                            '    Q[i,j,b] = M[i,k,b] * (delta(k,j) + A[k,j,b])',
                    'doc': "Volume-preserving attention's building block: a Cayley transform per batch "
                           'element.',
                    'inputs': [{'name': 'A',
                                'kind': 'tensor',
                                'indices': ['i', 'j', 'b'],
                                'domain': 'real',
                                'declared': False}],
                    'outputs': [{'name': 'Q', 'indices': ['i', 'j', 'b']}],
                    'extents': {},
                    'equal_extents': [['i', 'j']],
                    'pushforward': [{'target': 'dt0',
                                     'text': 'dt0[i,j,k] = -dA[i,j,k]',
                                     'latex': '\\mathrm{d}\\mathit{t0}_{ijk} = - \\mathrm{d}A_{ijk}',
                                     'matrix': None,
                                     'index': 'dt0[i,j,k] = -dA[i,j,k]',
                                     'index_latex': '\\mathrm{d}\\mathit{t0}_{ijk} = - \\mathrm{d}A_{ijk}'},
                                    {'target': 'dM',
                                     'text': 'dM[i,j,b] = Σ_kl -M[i,k,b]·M[l,j,b]·dt0[k,l,b]',
                                     'latex': '\\mathrm{d}M_{ijb} = \\sum_{kl} - M_{ikb} M_{ljb} '
                                              '{\\mathrm{d}\\mathit{t0}}_{klb}',
                                     'matrix': None,
                                     'index': 'dM[i,j,b] = Σ_kl -M[i,k,b]·M[l,j,b]·dt0[k,l,b]',
                                     'index_latex': '\\mathrm{d}M_{ijb} = \\sum_{kl} - M_{ikb} M_{ljb} '
                                                    '{\\mathrm{d}\\mathit{t0}}_{klb}'},
                                    {'target': 'dQ',
                                     'text': 'dQ[i,j,b] = Σ_k A[k,j,b]·dM[i,k,b] + dM[i,j,b] + Σ_k '
                                             'M[i,k,b]·dA[k,j,b]',
                                     'latex': '\\mathrm{d}Q_{ijb} = \\sum_{k} A_{kjb} \\mathrm{d}M_{ikb} + '
                                              '\\mathrm{d}M_{ijb} + \\sum_{k} M_{ikb} \\mathrm{d}A_{kjb}',
                                     'matrix': None,
                                     'index': 'dQ[i,j,b] = Σ_k A[k,j,b]·dM[i,k,b] + dM[i,j,b] + Σ_k '
                                              'M[i,k,b]·dA[k,j,b]',
                                     'index_latex': '\\mathrm{d}Q_{ijb} = \\sum_{k} A_{kjb} '
                                                    '\\mathrm{d}M_{ikb} + \\mathrm{d}M_{ijb} + \\sum_{k} '
                                                    'M_{ikb} \\mathrm{d}A_{kjb}'}],
                    'pullback': [{'target': 'dM',
                                  'text': 'dM[i,j,b] = Σ_k A[j,k,b]·dQ[i,k,b] + dQ[i,j,b]',
                                  'latex': '\\mathrm{d}M_{ijb} = \\sum_{k} A_{jkb} \\mathrm{d}Q_{ikb} + '
                                           '\\mathrm{d}Q_{ijb}',
                                  'matrix': None,
                                  'index': 'dM[i,j,b] = Σ_k A[j,k,b]·dQ[i,k,b] + dQ[i,j,b]',
                                  'index_latex': '\\mathrm{d}M_{ijb} = \\sum_{k} A_{jkb} \\mathrm{d}Q_{ikb} '
                                                 '+ \\mathrm{d}Q_{ijb}'},
                                 {'target': 'dt0',
                                  'text': 'dt0[i,j,k] = Σ_lm -M[j,m,k]·M[l,i,k]·dM[l,m,k]',
                                  'latex': '\\mathrm{d}\\mathit{t0}_{ijk} = \\sum_{lm} - M_{jmk} M_{lik} '
                                           '\\mathrm{d}M_{lmk}',
                                  'matrix': None,
                                  'index': 'dt0[i,j,k] = Σ_lm -M[j,m,k]·M[l,i,k]·dM[l,m,k]',
                                  'index_latex': '\\mathrm{d}\\mathit{t0}_{ijk} = \\sum_{lm} - M_{jmk} '
                                                 'M_{lik} \\mathrm{d}M_{lmk}'},
                                 {'target': 'dA',
                                  'text': 'dA[i,j,b] = Σ_k M[k,i,b]·dQ[k,j,b] - dt0[i,j,b]',
                                  'latex': '\\mathrm{d}A_{ijb} = \\sum_{k} M_{kib} \\mathrm{d}Q_{kjb} -  '
                                           '{\\mathrm{d}\\mathit{t0}}_{ijb}',
                                  'matrix': None,
                                  'index': 'dA[i,j,b] = Σ_k M[k,i,b]·dQ[k,j,b] - dt0[i,j,b]',
                                  'index_latex': '\\mathrm{d}A_{ijb} = \\sum_{k} M_{kib} \\mathrm{d}Q_{kjb} '
                                                 '-  {\\mathrm{d}\\mathit{t0}}_{ijb}'}],
                    'saves': {'inputs': ['A'], 'outputs': [], 'intermediates': ['M']},
                    'verified': True,
                    'verification': {'finite_differences': {'below': 1e-08, 'tolerance': 1e-06},
                                     'adjoint': {'below': 1e-12, 'tolerance': 1e-10},
                                     'reference': {'below': 1e-11, 'tolerance': 1e-06, 'points': 5},
                                     'points': 4,
                                     'skipped': 0,
                                     'extents': [{'i': 3, 'j': 3, 'b': 4}, {'i': 4, 'j': 4, 'b': 3}]}}}

globals().update(export_ops(__name__, OPS, _define, RULES))
