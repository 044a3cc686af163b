"""solve_triangular(L, B): R = L⁻¹·B for a lower triangular L; solve_triangular_upper(U, B): R = U⁻¹·B for an
upper triangular U. B is a vector or a matrix of columns; only the triangle named is read (the other is never).

Both arguments are differentiable, each with its own map (JAX's defjvp per argument), for L lower:
dR = L⁻¹·dB (B's) + -L⁻¹·tril(dL)·R (L's); transposed, B̄ = L⁻ᵀ·R̄ and L̄ = -tril(B̄·Rᵀ). Each map is one more
triangular solve (O(n²·r)), written with the primitives themselves, so it differentiates again."""
import numpy as np

from primitives.matrix import Cuda, MatrixPrimitive


def _is_vector(X, B):
    return np.ndim(B) in (1, np.ndim(X) - 1)      # a vector, or a batch of vectors


def _solve(X, B, lower):
    import scipy.linalg  # a dependency of the package; imported where a triangular solve is first asked for

    X, B = np.asarray(X), np.asarray(B)
    vec = _is_vector(X, B)
    Bm = B[..., None] if vec else B
    batch = np.broadcast_shapes(X.shape[:-2], Bm.shape[:-2])
    X, Bm = np.broadcast_to(X, batch + X.shape[-2:]), np.broadcast_to(Bm, batch + Bm.shape[-2:])
    out = np.empty(Bm.shape, dtype=np.result_type(X, Bm, np.float32))
    for b in np.ndindex(*batch):
        out[b] = scipy.linalg.solve_triangular(X[b], Bm[b], lower=lower, check_finite=False)
    return out[..., 0] if vec else out


def _maps(name, lower):
    """(jvps, vjps) of the solve with the triangle `lower` names, over the namespace xp (its np.prim calls)."""
    part = "tril" if lower else "triu"
    other = "solve_triangular_upper" if lower else "solve_triangular"    # solves with the transpose

    def cols(xp, X, V):
        return xp.expand_dims(V, -1) if _is_vector(X, V) else V

    def back(X, like, V):
        return V[..., 0] if _is_vector(X, like) else V

    def solve(xp, X, V):
        return getattr(xp.prim, name).forward(X, V)

    def solve_t(xp, X, V):
        return getattr(xp.prim, other).forward(xp.swapaxes(X, -1, -2), V)

    def jvp_x(xp, X, R, dX):
        return -solve(xp, X, back(X, R, xp.matmul(getattr(xp, part)(dX), cols(xp, X, R))))

    def jvp_b(xp, X, R, dB):
        return solve(xp, X, dB)

    def vjp_x(xp, X, R, Rbar):
        Bbar = solve_t(xp, X, Rbar)
        return -getattr(xp, part)(xp.matmul(cols(xp, X, Bbar), xp.swapaxes(cols(xp, X, R), -1, -2)))

    def vjp_b(xp, X, R, Rbar):
        return solve_t(xp, X, Rbar)
    return (jvp_x, jvp_b), (vjp_x, vjp_b)


def _declare(name, lower):
    jvps, vjps = _maps(name, lower)
    tri, T = ("L", "tril") if lower else ("U", "triu")
    return MatrixPrimitive(
        name=name,
        doc=f"the solution R of {tri}·R = B for a{' lower' if lower else 'n upper'} triangular {tri}",
        forward=lambda X, B: _solve(X, B, lower),
        args=("X", "B"),
        arg_kinds=("square", "rhs"),
        result="rhs",
        domain="wellcond",
        jvp=jvps,
        vjp=vjps,
        saves=("X", "R"),
        show=f"{name}({{X}}, {{B}})",
        show_latex=r"{X}^{{-1}} {B}",
        # the code reads X's triangle only: the maps hold for every X written with it
        show_jvp=(f"d{{R}} = -{T}({{X}})⁻¹·{T}(d{{X}})·{{R}}", f"d{{R}} = {T}({{X}})⁻¹·d{{B}}"),
        show_vjp=(f"d{{X}} = -{T}({T}({{X}})⁻ᵀ·d{{R}}·{{R}}ᵀ)", f"d{{B}} = {T}({{X}})⁻ᵀ·d{{R}}"),
        torch=lambda torch, X, B: _torch_solve(torch, X, B, lower),
        jax=lambda jax, X, B: _jax_solve(jax, X, B, lower),
        cuda=Cuda(forward=f"tr_{name}", jvp=(f"tr_{name}_jvp_x", f"tr_{name}_jvp_b"),
                  jvp_ws=((0, 0, 0, 0), (0, 0, 0, 0)), vjp=(f"tr_{name}_vjp_x", f"tr_{name}_vjp_b"),
                  vjp_ws=((0, 1, 0, 0), (0, 0, 0, 0))),
    )


def _torch_solve(torch, X, B, lower):
    vec = B.dim() in (1, X.dim() - 1)
    R = torch.linalg.solve_triangular(X, B.unsqueeze(-1) if vec else B, upper=not lower)
    return R.squeeze(-1) if vec else R


def _jax_solve(jax, X, B, lower):
    jnp = jax.numpy
    vec = jnp.ndim(B) in (1, jnp.ndim(X) - 1)
    Bm = B[..., None] if vec else B
    batch = jnp.broadcast_shapes(X.shape[:-2], Bm.shape[:-2])
    X, Bm = jnp.broadcast_to(X, batch + X.shape[-2:]), jnp.broadcast_to(Bm, batch + Bm.shape[-2:])
    R = jax.lax.linalg.triangular_solve(X, Bm, left_side=True, lower=lower)
    return R[..., 0] if vec else R


PRIMITIVES = (_declare("solve_triangular", True), _declare("solve_triangular_upper", False))
