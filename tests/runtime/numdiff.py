"""Central finite differences used as the reference in runtime tests (float64)."""
import numpy as np


def fd_grad(f, x, eps=1e-6):
    """Gradient of a scalar function of one array (or float) by central differences."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (float(f(x + e)) - float(f(x - e))) / (2 * eps)
    return g


def fd_jvp(f, args, tangents, eps=1e-6):
    """Directional derivative of f(*args) along tangents; f may return an array or a tuple of arrays."""
    # an argument with a literal 0 tangent (an int parameter, say) is passed through unchanged
    plus = f(*[a if type(t) is int and t == 0 else a + eps * t for a, t in zip(args, tangents)])
    minus = f(*[a if type(t) is int and t == 0 else a - eps * t for a, t in zip(args, tangents)])
    if isinstance(plus, tuple):
        return tuple((np.asarray(p) - np.asarray(m)) / (2 * eps) for p, m in zip(plus, minus))
    return (np.asarray(plus) - np.asarray(minus)) / (2 * eps)


def assert_close(a, b, rtol=1e-6, atol=1e-7):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), rtol=rtol, atol=atol)
