# @generated from tests/runtime/fake.rules by hand (a stand-in for `derive-rules` output) -- do not edit
"""A hand-written module in the exact format the codegen emits, so runtime tests do not depend on it."""
import numpy as _numpy

from runtime.registry import export_ops
from runtime.tangents import NoTangent, Thunk, ZeroTangent, is_zero


def _define(np):
    def matmul(A, B):
        C = np.einsum("ik,kj->ij", A, B)
        return C

    def matmul_frule(tangents, A, B):
        _, dA, dB = tangents
        C = np.einsum("ik,kj->ij", A, B)
        dC = ZeroTangent()
        if not is_zero(dA):
            dC = dC + np.einsum("ik,kj->ij", dA, B)
        if not is_zero(dB):
            dC = dC + np.einsum("ik,kj->ij", A, dB)
        return C, dC

    def matmul_rrule(A, B):
        C = np.einsum("ik,kj->ij", A, B)

        def matmul_pullback(dC):
            if is_zero(dC):
                return (NoTangent(), ZeroTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: np.einsum("ij,kj->ik", dC, B)),
                    Thunk(lambda: np.einsum("ik,ij->kj", A, dC)))
        return C, matmul_pullback

    def tanh(x):
        y = np.tanh(x)
        return y

    def tanh_frule(tangents, x):
        _, dx = tangents
        y = np.tanh(x)
        if is_zero(dx):
            return y, ZeroTangent()
        dy = dx * (1 - y ** 2)
        return y, dy

    def tanh_rrule(x):
        y = np.tanh(x)

        def tanh_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: dy * (1 - y ** 2)))
        return y, tanh_pullback

    def inv(A):
        B = np.linalg.inv(A)
        return B

    def inv_frule(tangents, A):
        _, dA = tangents
        B = np.linalg.inv(A)
        if is_zero(dA):
            return B, ZeroTangent()
        dB = -np.einsum("ik,kl,lj->ij", B, dA, B)
        return B, dB

    def inv_rrule(A):
        B = np.linalg.inv(A)

        def inv_pullback(dB):
            if is_zero(dB):
                return (NoTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: -np.einsum("ki,kl,jl->ij", B, dB, B)))
        return B, inv_pullback

    def sincos(x):
        s = np.sin(x)
        c = np.cos(x)
        return s, c

    def sincos_frule(tangents, x):
        _, dx = tangents
        s = np.sin(x)
        c = np.cos(x)
        if is_zero(dx):
            return (s, c), (ZeroTangent(), ZeroTangent())
        return (s, c), (c * dx, -s * dx)

    def sincos_rrule(x):
        s = np.sin(x)
        c = np.cos(x)

        def sincos_pullback(dout):
            ds, dc = dout
            if is_zero(ds) and is_zero(dc):
                return (NoTangent(), ZeroTangent())
            dx = ZeroTangent()
            if not is_zero(ds):
                dx = dx + c * ds
            if not is_zero(dc):
                dx = dx - s * dc
            return (NoTangent(), dx)
        return (s, c), sincos_pullback

    def powi(x, n):
        y = x ** n
        return y

    def powi_frule(tangents, x, n):
        _, dx, _dn = tangents
        y = x ** n
        if is_zero(dx):
            return y, ZeroTangent()
        return y, n * x ** (n - 1) * dx

    def powi_rrule(x, n):
        y = x ** n

        def powi_pullback(dy):
            if is_zero(dy):
                return (NoTangent(), ZeroTangent(), NoTangent())
            return (NoTangent(), Thunk(lambda: n * x ** (n - 1) * dy), NoTangent())
        return y, powi_pullback

    def axpy(a, x, y):
        z = a * x + y
        return z

    def axpy_frule(tangents, a, x, y):
        _, da, dx, dy = tangents
        z = a * x + y
        dz = ZeroTangent()
        if not is_zero(da):
            dz = dz + da * x
        if not is_zero(dx):
            dz = dz + a * dx
        if not is_zero(dy):
            dz = dz + dy
        return z, dz

    def axpy_rrule(a, x, y):
        z = a * x + y

        def axpy_pullback(dz):
            if is_zero(dz):
                return (NoTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: np.sum(dz * x)), Thunk(lambda: a * dz), dz)
        return z, axpy_pullback

    def rowsum(X):
        s = np.einsum("ij->i", X)
        return s

    def rowsum_frule(tangents, X):
        _, dX = tangents
        s = np.einsum("ij->i", X)
        if is_zero(dX):
            return s, ZeroTangent()
        return s, np.einsum("ij->i", dX)

    def rowsum_rrule(X):
        s = np.einsum("ij->i", X)
        n = X.shape[1]

        def rowsum_pullback(ds):
            if is_zero(ds):
                return (NoTangent(), ZeroTangent())
            return (NoTangent(), Thunk(lambda: np.broadcast_to(ds[:, None], (ds.shape[0], n))))
        return s, rowsum_pullback

    return {
        "matmul": matmul, "matmul_frule": matmul_frule, "matmul_rrule": matmul_rrule,
        "tanh": tanh, "tanh_frule": tanh_frule, "tanh_rrule": tanh_rrule,
        "inv": inv, "inv_frule": inv_frule, "inv_rrule": inv_rrule,
        "sincos": sincos, "sincos_frule": sincos_frule, "sincos_rrule": sincos_rrule,
        "powi": powi, "powi_frule": powi_frule, "powi_rrule": powi_rrule,
        "axpy": axpy, "axpy_frule": axpy_frule, "axpy_rrule": axpy_rrule,
        "rowsum": rowsum, "rowsum_frule": rowsum_frule, "rowsum_rrule": rowsum_rrule,
    }


OPS = {
    "matmul": {
        "signature": "matmul(A[i,k], B[k,j]) -> C[i,j]",
        "inputs": [{"name": "A", "kind": "tensor", "indices": ["i", "k"]},
                   {"name": "B", "kind": "tensor", "indices": ["k", "j"]}],
        "outputs": [{"name": "C", "indices": ["i", "j"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:1",
    },
    "tanh": {
        "signature": "tanh(x[i]) -> y[i]",
        "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]}],
        "outputs": [{"name": "y", "indices": ["i"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:4",
    },
    "inv": {
        "signature": "inv(A[i,j]) -> B[i,j]",
        "inputs": [{"name": "A", "kind": "tensor", "indices": ["i", "j"]}],
        "outputs": [{"name": "B", "indices": ["i", "j"]}],
        "equal_extents": [["i", "j"]],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:7",
    },
    "sincos": {
        "signature": "sincos(x[i]) -> s[i], c[i]",
        "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]}],
        "outputs": [{"name": "s", "indices": ["i"]}, {"name": "c", "indices": ["i"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:10",
    },
    "powi": {
        "signature": "powi(x[i], n: int) -> y[i]",
        "inputs": [{"name": "x", "kind": "tensor", "indices": ["i"]},
                   {"name": "n", "kind": "int", "indices": []}],
        "outputs": [{"name": "y", "indices": ["i"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:14",
    },
    "axpy": {
        "signature": "axpy(a, x[i], y[i]) -> z[i]",
        "inputs": [{"name": "a", "kind": "scalar", "indices": []},
                   {"name": "x", "kind": "tensor", "indices": ["i"]},
                   {"name": "y", "kind": "tensor", "indices": ["i"]}],
        "outputs": [{"name": "z", "indices": ["i"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:17",
    },
    "rowsum": {
        "signature": "rowsum(X[i,j]) -> s[i]",
        "inputs": [{"name": "X", "kind": "tensor", "indices": ["i", "j"]}],
        "outputs": [{"name": "s", "indices": ["i"]}],
        "equal_extents": [],
        "batch_indices": [],
        "source": "tests/runtime/fake.rules:20",
    },
}

globals().update(export_ops(__name__, OPS, _define))
