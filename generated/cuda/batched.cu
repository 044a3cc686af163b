// @generated from rules/batched.rules by `derive-rules` -- do not edit by hand.
// Kernels for batched_matmul, bmm, batched_transpose, batched_inv, batched_logdet, batched_solve, batched_cayley: each has a float32 (_f32) and a float64 (_f64) extern "C"
// entry point. The launch plan (buffers, steps, parameters) is the .json file beside this one; runtime/cuda.py
// runs it. Arrays are C-contiguous with axes in the order of the tensor's indices.

// ---- helpers shared by every generated kernel (templates/cuda_helpers.cuh.j2) -----------------------------
#define TR_BLOCK 256
#define TR_BM 128
#define TR_BN 128
#define TR_BK 8
#define TR_LDS (TR_BM + 4)

template <typename T> __device__ __forceinline__ T tr_sq(T x) { return x * x; }
// σ(x) accurate in both tails: e = exp(-|x|) <= 1, then 1/(1 + e) or e/(1 + e) (through tanh, σ(x) is 0 below -20
// in float32 and -40 in float64)
template <typename T> __device__ __forceinline__ T tr_sigmoid(T x) {
    const T e = exp(-fabs(x));
    return (x >= T(0) ? T(1) : e) / (T(1) + e);
}
template <typename T> __device__ __forceinline__ T tr_softplus(T x) { return (x > T(0) ? x : T(0)) + log1p(exp(-fabs(x))); }
template <typename T> __device__ __forceinline__ T tr_relu(T x) { return x > T(0) ? x : T(0); }
template <typename T> __device__ __forceinline__ T tr_step(T x) { return x > T(0) ? T(1) : T(0); }
template <typename T> __device__ __forceinline__ T tr_sign(T x) { return T((x > T(0)) - (x < T(0))); }
__device__ __forceinline__ long long tr_min(long long a, long long b) { return a < b ? a : b; }

// a tangent or cotangent that is zero is passed as a null pointer: it reads as zero and is never written
template <typename T> __device__ __forceinline__ T tr_ld(const T* p, long long i) { return p ? p[i] : T(0); }

// mode 0: store, 1: accumulate, 2: accumulate atomically (the reduction is split across blocks)
template <typename T> __device__ __forceinline__ void tr_store(T* p, long long i, T v, int mode) {
    if (!p) return;
    if (mode == 0) p[i] = v;
    else if (mode == 1) p[i] += v;
    else atomicAdd(p + i, v);
}

template <typename T> __device__ __forceinline__ T tr_warp_sum(T v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// ---- maxima: the shift of a log-sum-exp ---------------------------------------------------------------------
// A buffer of maxima holds order-preserving unsigned keys of the values' bits: the zero key lies below every
// value's, so the zero-filled buffer of a split reduction (mode 2) is the identity of the atomic maximum that
// merges the partial ones. It is read only through tr_shift: the maximum, or 0 where that is infinite (or
// NaN), which is what exp(x - shift) needs (all -inf then gives -inf, not NaN).
template <typename T> struct tr_key_of;
template <> struct tr_key_of<float> { typedef unsigned int type; };
template <> struct tr_key_of<double> { typedef unsigned long long type; };

template <typename T> __device__ __forceinline__ typename tr_key_of<T>::type tr_key(T x) {
    typedef typename tr_key_of<T>::type U;
    const U top = U(1) << (8 * sizeof(U) - 1);
    U b;
    memcpy(&b, &x, sizeof b);
    return (b & top) ? ~b : (b | top);
}

template <typename T> __device__ __forceinline__ T tr_shift(T stored) {
    typedef typename tr_key_of<T>::type U;
    const U top = U(1) << (8 * sizeof(U) - 1);
    U k;
    memcpy(&k, &stored, sizeof k);
    // (k & top) ? (k & ~top) : ~k, then 0 where not finite: with masks, no branch (a loop reading a shift stays
    // vectorizable where the target has no masked instructions)
    const U neg = U(0) - (k >> (8 * sizeof(U) - 1));
    k = (k & ~top & neg) | (~k & ~neg);
    T x;
    memcpy(&x, &k, sizeof x);
    k &= U(0) - U(isfinite(x));
    memcpy(&x, &k, sizeof x);
    return x;
}

// the modes of tr_store, for a maximum: store, combine, combine atomically
template <typename T> __device__ __forceinline__ void tr_store_max(T* p, long long i, T v, int mode) {
    if (!p) return;
    typedef typename tr_key_of<T>::type U;
    U* const q = reinterpret_cast<U*>(p) + i;
    const U k = tr_key(v);
    if (mode == 0) *q = k;
    else if (mode == 1) { if (k > *q) *q = k; }
    else atomicMax(q, k);
}

template <typename T> __device__ __forceinline__ T tr_warp_max(T v) {
    for (int off = 16; off > 0; off >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, off));
    return v;
}

// ---- max, min and product reductions (derive/cuda_reductions.py) ----------------------------------------------
// OP 0: maximum, 1: minimum (a NaN wins, as in np.max and np.min), 2: product. The output buffer holds plain
// values, filled with the identity (-inf, +inf, 1) before the reduction combines into it.
template <int OP, typename T> __device__ __forceinline__ T tr_combine(T a, T b) {
    if (OP == 0) return (b > a || b != b) ? b : a;
    if (OP == 1) return (b < a || b != b) ? b : a;
    return a * b;
}

// the modes of tr_store: store, combine, combine atomically (compare-and-swap of the bits: CUDA has no atomic
// maximum, minimum or product of floating-point values)
template <int OP, typename T> __device__ __forceinline__ void tr_store_op(T* p, long long i, T v, int mode) {
    if (!p) return;
    if (mode == 0) p[i] = v;
    else if (mode == 1) p[i] = tr_combine<OP>(p[i], v);
    else {
        typedef typename tr_key_of<T>::type U;
        U* const q = reinterpret_cast<U*>(p) + i;
        U old = *q, seen;
        do {
            seen = old;
            T cur;
            memcpy(&cur, &seen, sizeof cur);
            const T nv = tr_combine<OP>(cur, v);
            U bits;
            memcpy(&bits, &nv, sizeof bits);
            if (bits == seen) break;
            old = atomicCAS(q, seen, bits);
        } while (old != seen);
    }
}

template <int OP, typename T> __device__ __forceinline__ T tr_warp_op(T v) {
    for (int off = 16; off > 0; off >>= 1) v = tr_combine<OP>(v, __shfl_down_sync(0xffffffffu, v, off));
    return v;
}

// ---- batched small-matrix primitives: one block per matrix, the work matrix W (n x ld) in shared memory ----
// (or in a global workspace when it does not fit); all threads of the block take part in every step

template <typename T> __device__ __forceinline__ int tr_pivot(const T* W, int n, int ld, int c) {
    int p = c;
    T best = fabs(W[(long long)c * ld + c]);
    for (int r = c + 1; r < n; ++r) {
        const T v = fabs(W[(long long)r * ld + c]);
        if (v > best) { best = v; p = r; }
    }
    return p;
}

template <typename T> __device__ void tr_swap_rows(T* W, int ld, int a, int b, int from) {
    if (a == b) return;
    for (int j = from + threadIdx.x; j < ld; j += blockDim.x) {
        const T t = W[(long long)a * ld + j];
        W[(long long)a * ld + j] = W[(long long)b * ld + j];
        W[(long long)b * ld + j] = t;
    }
}

// Gauss-Jordan with partial pivoting on [A | R]: leaves A^-1 R in the columns n..ld-1
template <typename T> __device__ void tr_gauss_jordan(T* W, T* f, int n, int ld) {
    for (int c = 0; c < n; ++c) {
        __syncthreads();
        const int p = tr_pivot(W, n, ld, c);
        __syncthreads();  // every thread has read column c before any row moves
        tr_swap_rows(W, ld, p, c, 0);
        __syncthreads();
        const T piv = W[(long long)c * ld + c];
        for (int r = threadIdx.x; r < n; r += blockDim.x) f[r] = W[(long long)r * ld + c];
        __syncthreads();
        for (int j = threadIdx.x; j < ld; j += blockDim.x) W[(long long)c * ld + j] /= piv;
        __syncthreads();
        for (long long q = threadIdx.x; q < (long long)n * ld; q += blockDim.x) {
            const int r = (int)(q / ld);
            if (r != c) W[q] -= f[r] * W[(long long)c * ld + q % ld];
        }
    }
    __syncthreads();
}

// LU with partial pivoting in place: det and log|det| (the same value in every thread)
template <typename T> __device__ void tr_lu_det(T* W, T* f, int n, T* det, T* logabs) {
    T s = T(1), l = T(0), d = T(1);
    for (int c = 0; c < n; ++c) {
        __syncthreads();
        const int p = tr_pivot(W, n, n, c);
        __syncthreads();
        tr_swap_rows(W, n, p, c, c);
        if (p != c) s = -s;
        __syncthreads();
        const T piv = W[(long long)c * n + c];
        for (int r = c + 1 + threadIdx.x; r < n; r += blockDim.x) f[r] = W[(long long)r * n + c] / piv;
        __syncthreads();
        const int m = n - c - 1;
        for (long long q = threadIdx.x; q < (long long)m * m; q += blockDim.x) {
            const int r = c + 1 + (int)(q / m), j = c + 1 + (int)(q % m);
            W[(long long)r * n + j] -= f[r] * W[(long long)c * n + j];
        }
        d *= piv;
        l += log(fabs(piv));
    }
    __syncthreads();
    *det = s * d;
    *logabs = l;
}

// The adjugate adj(A) (det's derivative, defined at singular A too) into out[(r*n + c)*NB + b], O(n^3) and
// division-free past the pivoting: PA = LU, adj(A) = det(P)·adj(U)·L^-1·P, and for triangular U
// adj(U)_ij = Y_ij·Π_{k<i} d_k·Π_{k>j} d_k with Y_jj = 1, Y_ij = -Σ_{k=i+1..j} U_ik·Y_kj·Π_{m=i+1..k-1} d_m
// (d = U's diagonal; Y is U^-1 scaled by Π_{k=i..j} d_k). W is n x 2n: A on the left, the result on the
// right; f holds the permutation.
template <typename T> __device__ void tr_adjugate(T* W, T* f, int n, T* out, long long NB, long long b, int mode) {
    const int ld = 2 * n;
    T s = T(1);
    for (int r = threadIdx.x; r < n; r += blockDim.x) f[r] = T(r);
    for (int c = 0; c < n; ++c) {
        __syncthreads();
        const int p = tr_pivot(W, n, ld, c);
        __syncthreads();
        tr_swap_rows(W, ld, p, c, 0);
        if (p != c) {
            s = -s;
            if (threadIdx.x == 0) { const T t = f[p]; f[p] = f[c]; f[c] = t; }
        }
        __syncthreads();
        const T piv = W[(long long)c * ld + c];
        // an all-zero column (piv = 0) leaves zero multipliers: nothing to eliminate
        for (int r = c + 1 + threadIdx.x; r < n; r += blockDim.x)
            W[(long long)r * ld + c] = piv != T(0) ? W[(long long)r * ld + c] / piv : T(0);
        __syncthreads();
        const int m = n - c - 1;
        for (long long q = threadIdx.x; q < (long long)m * m; q += blockDim.x) {
            const int r = c + 1 + (int)(q / m), j = c + 1 + (int)(q % m);
            W[(long long)r * ld + j] -= W[(long long)r * ld + c] * W[(long long)c * ld + j];
        }
    }
    __syncthreads();
    // adj(U), one column j per thread, into the right half
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        T after = T(1);
        for (int k = j + 1; k < n; ++k) after *= W[(long long)k * ld + k];
        for (int i = n - 1; i > j; --i) W[(long long)i * ld + n + j] = T(0);
        W[(long long)j * ld + n + j] = T(1);
        for (int i = j - 1; i >= 0; --i) {
            T acc = T(0), pr = T(1);
            for (int k = i + 1; k <= j; ++k) {
                acc += W[(long long)i * ld + k] * W[(long long)k * ld + n + j] * pr;
                pr *= W[(long long)k * ld + k];
            }
            W[(long long)i * ld + n + j] = -acc;
        }
        T before = T(1);
        for (int i = 0; i <= j; ++i) {
            W[(long long)i * ld + n + j] *= before * after;
            before *= W[(long long)i * ld + i];
        }
    }
    __syncthreads();
    // M = adj(U)·L^-1 (L unit lower, in W's left half below the diagonal), one row per thread, in place
    for (int r = threadIdx.x; r < n; r += blockDim.x) {
        T* const row = W + (long long)r * ld + n;
        for (int c = n - 2; c >= 0; --c) {
            T acc = row[c];
            for (int k = c + 1; k < n; ++k) acc -= row[k] * W[(long long)k * ld + c];
            row[c] = acc;
        }
    }
    __syncthreads();
    // adj(A) = det(P)·M·P: column k of M is column perm[k] of the result
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const int r = (int)(q / n), k = (int)(q % n);
        tr_store(out, ((long long)r * n + (long long)f[k]) * NB + b, s * W[(long long)r * ld + n + k], mode);
    }
}

// ---- the generic tiled contraction -------------------------------------------------------------------------
// C[m,n,z] (mode)= alpha * Σ_k A[m,k,z] B[k,n,z] over a flat (M rows, N columns, K reduced, NB batch) view of
// strided tensors: each of the four index groups has up to three axes (extents e*, per-operand strides), so no
// operand is ever copied or transposed. 128x128 tiles, 8x8 outputs per thread, 256 threads.

// offset of flat index f over axes (e0, e1, e2) with strides (s0, s1, s2); e0 is implied
__device__ __forceinline__ long long tr_off3(long long f, long long e1, long long e2, long long s0, long long s1,
                                             long long s2) {
    if (e1 == 1 && e2 == 1) return f * s0;
    const long long d2 = f % e2;
    f /= e2;
    const long long d1 = f % e1;
    f /= e1;
    return f * s0 + d1 * s1 + d2 * s2;
}

template <typename T>
__device__ __forceinline__ void tr_gemm_body(
        const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, const int mode,
        const T* __restrict__ alpha_p, const T alpha_c, const long long M, const long long N, const long long K,
        const long long NB, const int kfast_a, const int kfast_b,
        const long long em1, const long long em2, const long long am0, const long long am1, const long long am2,
        const long long cm0, const long long cm1, const long long cm2,
        const long long en1, const long long en2, const long long bn0, const long long bn1, const long long bn2,
        const long long cn0, const long long cn1, const long long cn2,
        const long long ek1, const long long ek2, const long long ak0, const long long ak1, const long long ak2,
        const long long bk0, const long long bk1, const long long bk2,
        const long long ez1, const long long ez2, const long long az0, const long long az1, const long long az2,
        const long long bz0, const long long bz1, const long long bz2, const long long cz0, const long long cz1,
        const long long cz2) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const As = reinterpret_cast<T*>(tr_smem);   // [TR_BK][TR_LDS], m fastest
    T* const Bs = As + TR_BK * TR_LDS;              // [TR_BK][TR_LDS], n fastest
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const long long m0 = blockIdx.y * (long long)TR_BM, n0 = blockIdx.x * (long long)TR_BN;
    const T alpha = alpha_p ? alpha_c * alpha_p[0] : alpha_c;
    // this thread's four elements of each tile load: consecutive threads walk the operand's fastest axis
    int a_ml[4], a_kl[4], b_nl[4], b_kl[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int z = tid + TR_BLOCK * q;
        if (kfast_a) { a_kl[q] = z % TR_BK; a_ml[q] = z / TR_BK; } else { a_ml[q] = z % TR_BM; a_kl[q] = z / TR_BM; }
        if (kfast_b) { b_kl[q] = z % TR_BK; b_nl[q] = z / TR_BK; } else { b_nl[q] = z % TR_BN; b_kl[q] = z / TR_BN; }
    }
    for (long long bz = blockIdx.z; bz < NB; bz += gridDim.z) {
        long long a_off[4], b_off[4];
        bool a_ok[4], b_ok[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const long long m = m0 + a_ml[q], n = n0 + b_nl[q];
            a_ok[q] = m < M;
            b_ok[q] = n < N;
            a_off[q] = a_ok[q] ? tr_off3(m, em1, em2, am0, am1, am2) + tr_off3(bz, ez1, ez2, az0, az1, az2) : 0;
            b_off[q] = b_ok[q] ? tr_off3(n, en1, en2, bn0, bn1, bn2) + tr_off3(bz, ez1, ez2, bz0, bz1, bz2) : 0;
        }
        T acc[8][8];
#pragma unroll
        for (int r = 0; r < 8; ++r)
#pragma unroll
            for (int c = 0; c < 8; ++c) acc[r][c] = T(0);
        for (long long k0 = 0; k0 < K; k0 += TR_BK) {
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                long long kk = k0 + a_kl[q];
                As[a_kl[q] * TR_LDS + a_ml[q]] =
                    a_ok[q] && kk < K ? A[a_off[q] + tr_off3(kk, ek1, ek2, ak0, ak1, ak2)] : T(0);
                kk = k0 + b_kl[q];
                Bs[b_kl[q] * TR_LDS + b_nl[q]] =
                    b_ok[q] && kk < K ? B[b_off[q] + tr_off3(kk, ek1, ek2, bk0, bk1, bk2)] : T(0);
            }
            __syncthreads();
#pragma unroll
            for (int kq = 0; kq < TR_BK; ++kq) {
                T ar[8], br[8];
#pragma unroll
                for (int r = 0; r < 8; ++r) ar[r] = As[kq * TR_LDS + ty + 16 * r];
#pragma unroll
                for (int c = 0; c < 8; ++c) br[c] = Bs[kq * TR_LDS + tx + 16 * c];
#pragma unroll
                for (int r = 0; r < 8; ++r)
#pragma unroll
                    for (int c = 0; c < 8; ++c) acc[r][c] += ar[r] * br[c];
            }
            __syncthreads();
        }
        const long long c_z = tr_off3(bz, ez1, ez2, cz0, cz1, cz2);
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            const long long m = m0 + ty + 16 * r;
            if (m >= M) continue;
            const long long c_m = tr_off3(m, em1, em2, cm0, cm1, cm2) + c_z;
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                const long long n = n0 + tx + 16 * c;
                if (n < N) tr_store(C, c_m + tr_off3(n, en1, en2, cn0, cn1, cn2), alpha * acc[r][c], mode);
            }
        }
    }
}

#define TR_GEMM_PARAMS(T) const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, const int mode, \
    const T* __restrict__ alpha_p, const T alpha_c, const long long M, const long long N, const long long K, \
    const long long NB, const int kfast_a, const int kfast_b, const long long em1, const long long em2, \
    const long long am0, const long long am1, const long long am2, const long long cm0, const long long cm1, \
    const long long cm2, const long long en1, const long long en2, const long long bn0, const long long bn1, \
    const long long bn2, const long long cn0, const long long cn1, const long long cn2, const long long ek1, \
    const long long ek2, const long long ak0, const long long ak1, const long long ak2, const long long bk0, \
    const long long bk1, const long long bk2, const long long ez1, const long long ez2, const long long az0, \
    const long long az1, const long long az2, const long long bz0, const long long bz1, const long long bz2, \
    const long long cz0, const long long cz1, const long long cz2
#define TR_GEMM_ARGS A, B, C, mode, alpha_p, alpha_c, M, N, K, NB, kfast_a, kfast_b, em1, em2, am0, am1, am2, \
    cm0, cm1, cm2, en1, en2, bn0, bn1, bn2, cn0, cn1, cn2, ek1, ek2, ak0, ak1, ak2, bk0, bk1, bk2, ez1, ez2, az0, \
    az1, az2, bz0, bz1, bz2, cz0, cz1, cz2

extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_gemm_f32(TR_GEMM_PARAMS(float)) {
    tr_gemm_body<float>(TR_GEMM_ARGS);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_gemm_f64(TR_GEMM_PARAMS(double)) {
    tr_gemm_body<double>(TR_GEMM_ARGS);
}

// ---- batched small dense linear algebra for the matrix primitives (templates/cuda_linalg.cuh.j2) ----------
// Needs cuda_helpers.cuh.j2 first (tr_gauss_jordan). Conventions of every public tr_* function here:
// - called by ALL threads of one block, one block per matrix; any blockDim.x (1..256) and small n (1..64);
// - matrices are row-major n x n (element (r,c) at r*n + c), in global or shared memory; inputs are const
//   and never written; outputs never alias inputs; every scratch array lives in `ws`, whose size in elements
//   of T is given above each function as a formula in n;
// - the function begins and ends with a barrier, so inputs written by any thread of the block just before the
//   call are seen, and outputs are complete in every thread when it returns.
// Internal phases (tr_la_*) end with a barrier; work inside a phase is split over threads by strided loops.

template <typename T> __device__ __forceinline__ T tr_la_eps() {
    return sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(2.220446049250313e-16);
}

// C (row stride ldc) = alpha * op(X) * op(Y), op(M) = M, or M^T where t != 0; C aliases neither X nor Y
template <typename T>
__device__ void tr_la_mm(T* C, int ldc, const T* X, int tx, const T* Y, int ty, T alpha, int n) {
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        T acc = T(0);
        for (int k = 0; k < n; ++k) acc += (tx ? X[k * n + i] : X[i * n + k]) * (ty ? Y[j * n + k] : Y[k * n + j]);
        C[i * ldc + j] = alpha * acc;
    }
    __syncthreads();
}

// S = (X + X^T) / 2
template <typename T> __device__ void tr_la_sym(T* S, const T* X, int n) {
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        S[q] = T(0.5) * (X[q] + X[j * n + i]);
    }
    __syncthreads();
}

// B <- L^-1 B (trans == 0) or L^-T B (trans != 0), L lower triangular: one column of B per thread
template <typename T> __device__ void tr_la_trsm_left(const T* L, T* B, int trans, int n) {
    for (int c = threadIdx.x; c < n; c += blockDim.x) {
        if (!trans) {
            for (int i = 0; i < n; ++i) {
                T acc = B[i * n + c];
                for (int k = 0; k < i; ++k) acc -= L[i * n + k] * B[k * n + c];
                B[i * n + c] = acc / L[i * n + i];
            }
        } else {
            for (int i = n - 1; i >= 0; --i) {
                T acc = B[i * n + c];
                for (int k = i + 1; k < n; ++k) acc -= L[k * n + i] * B[k * n + c];
                B[i * n + c] = acc / L[i * n + i];
            }
        }
    }
    __syncthreads();
}

// B <- B L^-T (trans != 0) or B L^-1 (trans == 0), L lower triangular: one row of B per thread
template <typename T> __device__ void tr_la_trsm_right(const T* L, T* B, int trans, int n) {
    for (int r = threadIdx.x; r < n; r += blockDim.x) {
        T* const row = B + r * n;
        if (trans) {  // X L^T = B: forward over columns
            for (int i = 0; i < n; ++i) {
                T acc = row[i];
                for (int k = 0; k < i; ++k) acc -= row[k] * L[i * n + k];
                row[i] = acc / L[i * n + i];
            }
        } else {  // X L = B: backward over columns
            for (int i = n - 1; i >= 0; --i) {
                T acc = row[i];
                for (int k = i + 1; k < n; ++k) acc -= row[k] * L[k * n + i];
                row[i] = acc / L[i * n + i];
            }
        }
    }
    __syncthreads();
}

// X <- Φ(X): the strictly lower part plus half the diagonal, the upper part zeroed
template <typename T> __device__ void tr_la_phi(T* X, int n) {
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        if (j > i) X[q] = T(0);
        else if (j == i) X[q] *= T(0.5);
    }
    __syncthreads();
}

// ---- Cholesky ------------------------------------------------------------------------------------------------
// L = the lower factor of the symmetric matrix whose lower triangle is A's (numpy.linalg.cholesky); the upper
// part of L is zero. Not positive definite (a pivot <= 0, or NaN): every element of L is NaN.
// ws: 0 (unused)
template <typename T> __device__ void tr_cholesky(const T* A, T* L, T* ws, int n) {
    __syncthreads();
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) L[q] = (q % n) <= (q / n) ? A[q] : T(0);
    bool bad = false;  // the same in every thread: each reads the same pivots
    for (int j = 0; j < n; ++j) {
        __syncthreads();
        const T d = L[j * n + j];
        if (!(d > T(0)) || !isfinite(d)) bad = true;
        __syncthreads();  // every thread has read the pivot before it is overwritten
        const T piv = sqrt(d);
        if (threadIdx.x == 0) L[j * n + j] = piv;
        for (int i = j + 1 + threadIdx.x; i < n; i += blockDim.x) L[i * n + j] /= piv;
        __syncthreads();
        const int m = n - j - 1;  // the trailing lower triangle
        for (int q = threadIdx.x; q < m * m; q += blockDim.x) {
            const int i = j + 1 + q / m, k = j + 1 + q % m;
            if (k <= i) L[i * n + k] -= L[i * n + j] * L[k * n + j];
        }
    }
    __syncthreads();
    if (bad)
        for (int q = threadIdx.x; q < n * n; q += blockDim.x) L[q] = T(NAN);
    __syncthreads();
}

// dL = L·Φ(L^-1·S·L^-T), S = (dA + dA^T)/2: Cholesky's pushforward (the tangent is symmetrised)
// ws: n*n
template <typename T> __device__ void tr_cholesky_jvp(const T* L, const T* dA, T* dL, T* ws, int n) {
    __syncthreads();
    tr_la_sym(ws, dA, n);
    tr_la_trsm_left(L, ws, 0, n);   // L^-1 S
    tr_la_trsm_right(L, ws, 1, n);  // L^-1 S L^-T
    tr_la_phi(ws, n);
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {  // L·Φ: lower times lower
        const int i = q / n, j = q % n;
        T acc = T(0);
        for (int k = j; k <= i; ++k) acc += L[i * n + k] * ws[k * n + j];
        dL[q] = acc;
    }
    __syncthreads();
}

// Abar = sym(L^-T·Φ(L^T·Lbar)·L^-1), the exact transpose of tr_cholesky_jvp (the upper part of Lbar is never
// read: Φ keeps only the lower part of L^T·Lbar, which depends on Lbar's lower part alone)
// ws: n*n
template <typename T> __device__ void tr_cholesky_vjp(const T* L, const T* Lbar, T* Abar, T* ws, int n) {
    __syncthreads();
    T* const P = ws;
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {  // Φ(L^T·Lbar)
        const int i = q / n, j = q % n;
        T acc = T(0);
        if (j <= i)
            for (int k = i; k < n; ++k) acc += L[k * n + i] * Lbar[k * n + j];
        P[q] = j < i ? acc : (j == i ? T(0.5) * acc : T(0));
    }
    __syncthreads();
    tr_la_trsm_left(L, P, 1, n);   // L^-T Φ
    tr_la_trsm_right(L, P, 0, n);  // L^-T Φ L^-1
    tr_la_sym(Abar, P, n);
}

// ---- symmetric eigendecomposition ------------------------------------------------------------------------------
// Parallel cyclic Jacobi: each round applies n/2 disjoint rotations at once (round-robin pairing; an odd n
// pairs one index with a dummy each round), n-1 rounds (n even) make a sweep over all pairs. A rotation is
// skipped when |a_pq| <= eps·sqrt(|a_pp|·|a_qq|) (or a_pq = 0); the sweeps stop after one without a rotation,
// at most 40. Then eigenvalues ascending (NaN last, ties by index), eigenvectors as columns, each column's
// component of largest magnitude positive (the first such on a tie).
// ws: 2*n*n + 2*n + 3
template <typename T> __device__ void tr_eigh(const T* A, T* w, T* V, T* ws, int n) {
    __syncthreads();
    const int nn = n * n, m = n + (n & 1), np = m / 2;
    T* const W = ws;             // the rotated matrix, kept full and symmetric
    T* const Q = ws + nn;        // the accumulated rotations
    T* const rot = ws + 2 * nn;  // per pair: c, s, new a_pp, new a_qq
    T* const flag = rot + 4 * np;
    const T eps = tr_la_eps<T>();
    for (int q = threadIdx.x; q < nn; q += blockDim.x) {
        const int i = q / n, j = q % n;
        W[q] = i >= j ? A[q] : A[j * n + i];
        Q[q] = i == j ? T(1) : T(0);
    }
    for (int sweep = 0; sweep < 40; ++sweep) {
        __syncthreads();
        if (threadIdx.x == 0) flag[0] = T(0);
        __syncthreads();
        for (int round = 0; round < m - 1; ++round) {
            // the pair k of this round: (round, m-1) for k = 0, else (round+k, round-k) mod m-1
            for (int k = threadIdx.x; k < np; k += blockDim.x) {
                int p = k == 0 ? round : (round + k) % (m - 1);
                int r = k == 0 ? m - 1 : (round - k + (m - 1)) % (m - 1);
                if (p > r) { const int t = p; p = r; r = t; }
                T c = T(1), s = T(0), npp = T(0), nqq = T(0);
                if (r < n) {
                    const T app = W[p * n + p], aqq = W[r * n + r], apq = W[p * n + r];
                    if (fabs(apq) > eps * sqrt(fabs(app)) * sqrt(fabs(aqq)) && apq != T(0)) {
                        const T theta = (aqq - app) / (T(2) * apq);
                        T t = T(1) / (fabs(theta) + hypot(theta, T(1)));
                        if (theta < T(0)) t = -t;
                        c = T(1) / sqrt(t * t + T(1));
                        s = t * c;
                        npp = app - t * apq;
                        nqq = aqq + t * apq;
                        flag[0] = T(1);
                    }
                }
                rot[4 * k] = c;
                rot[4 * k + 1] = s;
                rot[4 * k + 2] = npp;
                rot[4 * k + 3] = nqq;
            }
            __syncthreads();
            // rows: W <- P^T W (rows p, r of every rotated pair)
            for (int q = threadIdx.x; q < np * n; q += blockDim.x) {
                const int k = q / n, j = q % n;
                const T s = rot[4 * k + 1];
                if (s == T(0)) continue;
                int p = k == 0 ? round : (round + k) % (m - 1);
                int r = k == 0 ? m - 1 : (round - k + (m - 1)) % (m - 1);
                if (p > r) { const int t = p; p = r; r = t; }
                const T c = rot[4 * k], x = W[p * n + j], y = W[r * n + j];
                W[p * n + j] = c * x - s * y;
                W[r * n + j] = s * x + c * y;
            }
            __syncthreads();
            // columns: W <- W P and Q <- Q P; the pair's own 2x2 block takes its exact values
            for (int q = threadIdx.x; q < np * n; q += blockDim.x) {
                const int k = q / n, i = q % n;
                const T s = rot[4 * k + 1];
                if (s == T(0)) continue;
                int p = k == 0 ? round : (round + k) % (m - 1);
                int r = k == 0 ? m - 1 : (round - k + (m - 1)) % (m - 1);
                if (p > r) { const int t = p; p = r; r = t; }
                const T c = rot[4 * k];
                if (i == p) {
                    W[p * n + p] = rot[4 * k + 2];
                    W[p * n + r] = T(0);
                } else if (i == r) {
                    W[r * n + r] = rot[4 * k + 3];
                    W[r * n + p] = T(0);
                } else {
                    const T x = W[i * n + p], y = W[i * n + r];
                    W[i * n + p] = c * x - s * y;
                    W[i * n + r] = s * x + c * y;
                }
                const T x = Q[i * n + p], y = Q[i * n + r];
                Q[i * n + p] = c * x - s * y;
                Q[i * n + r] = s * x + c * y;
            }
            __syncthreads();
        }
        const bool rotated = flag[0] != T(0);
        if (!rotated) break;  // the same in every thread: flag is read between two barriers
    }
    __syncthreads();
    // ascending order: the rank of i among the diagonal, NaN largest, ties by index (a permutation)
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const T di = W[i * n + i];
        int rank = 0;
        for (int j = 0; j < n; ++j) {
            const T dj = W[j * n + j];
            const bool less = isnan(di) ? (!isnan(dj) || j < i) : (!isnan(dj) && (dj < di || (dj == di && j < i)));
            rank += less;
        }
        w[rank] = di;
        for (int r = 0; r < n; ++r) V[r * n + rank] = Q[r * n + i];
    }
    __syncthreads();
    // sign: the largest-magnitude component of each column positive
    for (int c = threadIdx.x; c < n; c += blockDim.x) {
        int best = 0;
        for (int r = 1; r < n; ++r)
            if (fabs(V[r * n + c]) > fabs(V[best * n + c])) best = r;
        if (V[best * n + c] < T(0))
            for (int r = 0; r < n; ++r) V[r * n + c] = -V[r * n + c];
    }
    __syncthreads();
}

// F[i,j] = 1/(w[j] - w[i]) off the diagonal, 0 on it (infinite at a repeated eigenvalue: no silent value)
template <typename T> __device__ __forceinline__ T tr_la_eigh_f(const T* w, int i, int j) {
    return i == j ? T(0) : T(1) / (w[j] - w[i]);
}

// With M = V^T·sym(dA)·V: dw[i] = M[i,i], dV = V·(F∘M). dw or dV may be null (not computed).
// ws: 2*n*n
template <typename T>
__device__ void tr_eigh_jvp(const T* w, const T* V, const T* dA, T* dw, T* dV, T* ws, int n) {
    __syncthreads();
    T* const S = ws;
    T* const X = ws + n * n;
    tr_la_sym(S, dA, n);
    tr_la_mm(X, n, S, 0, V, 0, T(1), n);  // S V
    tr_la_mm(S, n, V, 1, X, 0, T(1), n);  // M = V^T S V
    if (dw)
        for (int i = threadIdx.x; i < n; i += blockDim.x) dw[i] = S[i * n + i];
    __syncthreads();  // M's diagonal is read before F∘M zeroes it
    if (dV) {
        for (int q = threadIdx.x; q < n * n; q += blockDim.x) S[q] *= tr_la_eigh_f(w, q / n, q % n);
        __syncthreads();
        tr_la_mm(dV, n, V, 0, S, 0, T(1), n);
    }
    __syncthreads();
}

// Abar = sym(V·(diag(wbar) + F∘(V^T·Vbar))·V^T); wbar or Vbar may be null (zero)
// ws: 2*n*n
template <typename T>
__device__ void tr_eigh_vjp(const T* w, const T* V, const T* wbar, const T* Vbar, T* Abar, T* ws, int n) {
    __syncthreads();
    T* const X = ws;
    T* const Y = ws + n * n;
    if (Vbar) {
        tr_la_mm(X, n, V, 1, Vbar, 0, T(1), n);
    } else {
        for (int q = threadIdx.x; q < n * n; q += blockDim.x) X[q] = T(0);
        __syncthreads();
    }
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        X[q] = Vbar ? X[q] * tr_la_eigh_f(w, i, j) : T(0);
        if (i == j && wbar) X[q] += wbar[i];
    }
    __syncthreads();
    tr_la_mm(Y, n, V, 0, X, 0, T(1), n);  // V (...)
    tr_la_mm(X, n, Y, 0, V, 1, T(1), n);  // V (...) V^T
    tr_la_sym(Abar, X, n);
}

// ---- matrix exponential --------------------------------------------------------------------------------------
// Scaling and squaring with a diagonal Padé approximant r_m (Higham 2005): from the 1-norm, the smallest degree m
// whose bound θ_m covers A (double: m in 3,5,7,9,13; float: 3,5,7, with θ_m for a unit roundoff of 2^-24),
// else m = 13 (7) and A/2^s with the smallest s that brings it under θ_m; r_m = (V-U)^-1 (V+U) by Gauss-Jordan
// with partial pivoting, then squared s times. A non-finite A gives NaN throughout.
// ws: 7*n*n + n
template <typename T> __device__ void tr_expm(const T* A, T* E, T* ws, int n) {
    __syncthreads();
    const int nn = n * n;
    T* const A2 = ws;
    T* const A4 = ws + nn;
    T* const A6 = ws + 2 * nn;
    T* const X = ws + 3 * nn;
    T* const Y = ws + 4 * nn;
    T* const G = ws + 5 * nn;  // n x 2n: [V - U | V + U], then r_m on the right
    T* const f = ws + 7 * nn;
    T nrm = T(0);  // the 1-norm, computed by every thread alike
    for (int j = 0; j < n; ++j) {
        T s = T(0);
        for (int i = 0; i < n; ++i) s += fabs(A[i * n + j]);
        if (!(s <= nrm)) nrm = s;  // NaN propagates
    }
    if (!isfinite(nrm)) {
        for (int q = threadIdx.x; q < nn; q += blockDim.x) E[q] = T(NAN);
        __syncthreads();
        return;
    }
    const bool single = sizeof(T) == 4;
    const double theta_d[5] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                               2.097847961257068e+0, 5.371920351148152e+0};
    const double theta_f[3] = {4.258730016922831e-1, 1.880152677804762e+0, 3.925724783138660e+0};
    const int degs[5] = {3, 5, 7, 9, 13};
    const int nd = single ? 3 : 5;
    int m = 0, s = 0;
    for (int k = 0; k < nd && m == 0; ++k)
        if ((double)nrm <= (single ? theta_f[k] : theta_d[k])) m = degs[k];
    if (m == 0) {
        m = degs[nd - 1];
        const double th = single ? theta_f[nd - 1] : theta_d[nd - 1];
        while (ldexp((double)nrm, -s) > th) ++s;
    }
    // Padé coefficients b_0..b_m
    const double b3[4] = {120., 60., 12., 1.};
    const double b5[6] = {30240., 15120., 3360., 420., 30., 1.};
    const double b7[8] = {17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.};
    const double b9[10] = {17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
                           3960., 90., 1.};
    const double b13[14] = {64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
                            129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
                            40840800., 960960., 16380., 182., 1.};
    const double* b = m == 3 ? b3 : m == 5 ? b5 : m == 7 ? b7 : m == 9 ? b9 : b13;
    // E holds A/2^s until U is formed
    for (int q = threadIdx.x; q < nn; q += blockDim.x) E[q] = ldexp(A[q], -s);
    __syncthreads();
    tr_la_mm(A2, n, E, 0, E, 0, T(1), n);
    if (m >= 5) tr_la_mm(A4, n, A2, 0, A2, 0, T(1), n);
    if (m >= 7) tr_la_mm(A6, n, A4, 0, A2, 0, T(1), n);
    if (m == 9) tr_la_mm(X, n, A4, 0, A4, 0, T(1), n);  // A8
    if (m <= 9) {
        for (int q = threadIdx.x; q < nn; q += blockDim.x) {
            const T id = (q / n == q % n) ? T(1) : T(0);
            T u = T(b[1]) * id + T(b[3]) * A2[q];
            if (m >= 5) u += T(b[5]) * A4[q];
            if (m >= 7) u += T(b[7]) * A6[q];
            if (m >= 9) u += T(b[9]) * X[q];
            Y[q] = u;
        }
        __syncthreads();
        tr_la_mm(G + n, 2 * n, E, 0, Y, 0, T(1), n);  // U
        for (int q = threadIdx.x; q < nn; q += blockDim.x) {
            const int i = q / n, j = q % n;
            T v = T(b[0]) * (i == j ? T(1) : T(0)) + T(b[2]) * A2[q];
            if (m >= 5) v += T(b[4]) * A4[q];
            if (m >= 7) v += T(b[6]) * A6[q];
            if (m >= 9) v += T(b[8]) * X[q];
            const T u = G[i * 2 * n + n + j];
            G[i * 2 * n + j] = v - u;
            G[i * 2 * n + n + j] = v + u;
        }
        __syncthreads();
    } else {
        for (int q = threadIdx.x; q < nn; q += blockDim.x)
            X[q] = T(b[13]) * A6[q] + T(b[11]) * A4[q] + T(b[9]) * A2[q];
        __syncthreads();
        tr_la_mm(Y, n, A6, 0, X, 0, T(1), n);
        for (int q = threadIdx.x; q < nn; q += blockDim.x)
            Y[q] += T(b[7]) * A6[q] + T(b[5]) * A4[q] + T(b[3]) * A2[q] + (q / n == q % n ? T(b[1]) : T(0));
        __syncthreads();
        tr_la_mm(G + n, 2 * n, E, 0, Y, 0, T(1), n);  // U
        for (int q = threadIdx.x; q < nn; q += blockDim.x)
            X[q] = T(b[12]) * A6[q] + T(b[10]) * A4[q] + T(b[8]) * A2[q];
        __syncthreads();
        tr_la_mm(Y, n, A6, 0, X, 0, T(1), n);
        for (int q = threadIdx.x; q < nn; q += blockDim.x) {
            const int i = q / n, j = q % n;
            const T v = Y[q] + T(b[6]) * A6[q] + T(b[4]) * A4[q] + T(b[2]) * A2[q] + (i == j ? T(b[0]) : T(0));
            const T u = G[i * 2 * n + n + j];
            G[i * 2 * n + j] = v - u;
            G[i * 2 * n + n + j] = v + u;
        }
        __syncthreads();
    }
    tr_gauss_jordan(G, f, n, 2 * n);
    // square s times: X, Y alternate, the last square lands in E
    T* cur = s == 0 ? E : X;
    for (int q = threadIdx.x; q < nn; q += blockDim.x) cur[q] = G[(q / n) * 2 * n + n + q % n];
    __syncthreads();
    for (int k = 0; k < s; ++k) {
        T* const dst = k == s - 1 ? E : (cur == X ? Y : X);
        tr_la_mm(dst, n, cur, 0, cur, 0, T(1), n);
        cur = dst;
    }
    __syncthreads();
}

// dE = L(A, dA), the Fréchet derivative of expm (L(A^T, dA) when transpose != 0): the top-right block of
// expm([[A, γ·dA], [0, A]]) / γ, with γ a power of two that brings ||γ·dA||_1 near max(||A||_1, 1), so that a
// large or tiny tangent does not change the scaling (L is linear in dA).
// ws: 36*n*n + 2*n
template <typename T>
__device__ void tr_expm_frechet(const T* A, const T* dA, T* dE, int transpose, T* ws, int n) {
    __syncthreads();
    const int m = 2 * n;
    T* const B = ws;
    T* const EB = ws + m * m;
    T nA = T(0), nE = T(0);
    for (int j = 0; j < n; ++j) {
        T sa = T(0), se = T(0);
        for (int i = 0; i < n; ++i) {
            sa += fabs(A[i * n + j]);
            se += fabs(dA[i * n + j]);
        }
        if (!(sa <= nA)) nA = sa;
        if (!(se <= nE)) nE = se;
    }
    int k = 0;
    if (isfinite(nA) && isfinite(nE) && nE > T(0)) k = ilogb(nA > T(1) ? nA : T(1)) - ilogb(nE);
    for (int q = threadIdx.x; q < m * m; q += blockDim.x) {
        const int i = q / m, j = q % m;
        T v = T(0);
        if ((i < n) == (j < n)) {
            const int a = i % n, c = j % n;
            v = transpose ? A[c * n + a] : A[a * n + c];
        } else if (i < n) {
            v = ldexp(dA[i * n + (j - n)], k);
        }
        B[q] = v;
    }
    tr_expm(B, EB, ws + 2 * m * m, m);
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) dE[q] = ldexp(EB[(q / n) * m + n + q % n], -k);
    __syncthreads();
}

// ---- functions of a symmetric matrix through its eigendecomposition -------------------------------------------
// F = V·diag(fw)·V^T (exactly symmetric: each term is fw[k]·(V[i,k]·V[j,k]))
// ws: 0 (unused)
template <typename T> __device__ void tr_eig_fn(const T* V, const T* fw, T* F, T* ws, int n) {
    __syncthreads();
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        T acc = T(0);
        for (int k = 0; k < n; ++k) acc += fw[k] * (V[i * n + k] * V[j * n + k]);
        F[q] = acc;
    }
    __syncthreads();
}

// Daleckii-Krein: dF = V·(G∘(V^T·sym(dS)·V))·V^T, G[i,j] = (fw[i]-fw[j])/(w[i]-w[j]), or (dfw[i]+dfw[j])/2 where
// |w[i]-w[j]| <= eps^(1/3)·max(|w[i]|,|w[j]|) (6.1e-6 in double, 4.9e-3 in float): there the divided difference
// would lose ~eps/δ to cancellation while the mean of the derivatives errs by O(δ²) (trapezoid rule), so the
// cube root balances the two at ~eps^(2/3). Self-adjoint: both the pushforward and the pullback of f(S).
// ws: 2*n*n
template <typename T>
__device__ void tr_daleckii_krein(const T* w, const T* V, const T* fw, const T* dfw, const T* dS, T* dF, T* ws,
                                  int n) {
    __syncthreads();
    T* const S = ws;
    T* const X = ws + n * n;
    const T tol = sizeof(T) == 4 ? T(4.921566601151848e-03) : T(6.055454452393343e-06);
    tr_la_sym(S, dS, n);
    tr_la_mm(X, n, S, 0, V, 0, T(1), n);  // S V
    tr_la_mm(S, n, V, 1, X, 0, T(1), n);  // V^T S V
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int i = q / n, j = q % n;
        const T d = w[i] - w[j], big = fmax(fabs(w[i]), fabs(w[j]));
        const T g = fabs(d) <= tol * big ? T(0.5) * (dfw[i] + dfw[j]) : (fw[i] - fw[j]) / d;
        S[q] *= g;
    }
    __syncthreads();
    tr_la_mm(X, n, V, 0, S, 0, T(1), n);  // V (G∘M)
    tr_la_mm(S, n, X, 0, V, 1, T(1), n);  // V (G∘M) V^T
    tr_la_sym(dF, S, n);
}

// ---- the primitives' device functions (runtime/primitives/<name>.py, Cuda fields) -------------------------------
// One per primitive and direction, called by the generic kernel (templates/cuda_kernels.cu.j2, `prim`) as
// f(inputs..., output, ws, n[, r]) on contiguous row-major operands; ws sizes as declared there.

// R = A^-1 by Gauss-Jordan on [A | I]. ws: 2*n*n + n
template <typename T> __device__ void tr_inv(const T* A, T* R, T* ws, int n) {
    __syncthreads();
    const int ld = 2 * n;
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) {
        const int r = q / n, c = q % n;
        ws[r * ld + c] = A[q];
        ws[r * ld + n + c] = r == c ? T(1) : T(0);
    }
    tr_gauss_jordan(ws, ws + n * ld, n, ld);
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) R[q] = ws[(q / n) * ld + n + q % n];
    __syncthreads();
}

// X = A^-1 B, B n x r. ws: n*n + n*r + n
template <typename T> __device__ void tr_solve(const T* A, const T* B, T* X, T* ws, int n, int r) {
    __syncthreads();
    const int ld = n + r;
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) ws[(q / n) * ld + q % n] = A[q];
    for (int q = threadIdx.x; q < n * r; q += blockDim.x) ws[(q / r) * ld + n + q % r] = B[q];
    tr_gauss_jordan(ws, ws + n * ld, n, ld);
    for (int q = threadIdx.x; q < n * r; q += blockDim.x) X[q] = ws[(q / r) * ld + n + q % r];
    __syncthreads();
}

// *d = det(A), by LU with partial pivoting. ws: n*n + n
template <typename T> __device__ void tr_det(const T* A, T* d, T* ws, int n) {
    __syncthreads();
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) ws[q] = A[q];
    T det, logabs;
    tr_lu_det(ws, ws + n * n, n, &det, &logabs);
    if (threadIdx.x == 0) *d = det;
    __syncthreads();
}

// *l = log|det(A)|. ws: n*n + n
template <typename T> __device__ void tr_logdet(const T* A, T* l, T* ws, int n) {
    __syncthreads();
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) ws[q] = A[q];
    T det, logabs;
    tr_lu_det(ws, ws + n * n, n, &det, &logabs);
    if (threadIdx.x == 0) *l = logabs;
    __syncthreads();
}

// R = adj(A) (tr_adjugate). ws: 2*n*n + n
template <typename T> __device__ void tr_adj(const T* A, T* R, T* ws, int n) {
    __syncthreads();
    const int ld = 2 * n;
    for (int q = threadIdx.x; q < n * n; q += blockDim.x) ws[(q / n) * ld + q % n] = A[q];
    tr_adjugate(ws, ws + n * ld, n, R, 1LL, 0LL, 0);
    __syncthreads();
}

// w = eigvalsh(A). ws: 3*n*n + 2*n + 3
template <typename T> __device__ void tr_eigvalsh(const T* A, T* w, T* ws, int n) {
    tr_eigh(A, w, ws, ws + n * n, n);
}

// dw = diag(V^T·sym(dA)·V) (V = eigvecsh(A)). ws: 2*n*n
template <typename T> __device__ void tr_eigvalsh_jvp(const T* V, const T* dA, T* dw, T* ws, int n) {
    tr_eigh_jvp(static_cast<const T*>(nullptr), V, dA, dw, static_cast<T*>(nullptr), ws, n);
}

// Abar = V·diag(wbar)·V^T. ws: 2*n*n
template <typename T> __device__ void tr_eigvalsh_vjp(const T* V, const T* wbar, T* Abar, T* ws, int n) {
    tr_eigh_vjp(static_cast<const T*>(nullptr), V, wbar, static_cast<const T*>(nullptr), Abar, ws, n);
}

// V = eigvecsh(A). ws: 2*n*n + 3*n + 3
template <typename T> __device__ void tr_eigvecsh(const T* A, T* V, T* ws, int n) {
    tr_eigh(A, ws, V, ws + n, n);
}

// dV = V·(F∘(V^T·sym(dA)·V)) (w = eigvalsh(A)). ws: 2*n*n
template <typename T> __device__ void tr_eigvecsh_jvp(const T* w, const T* V, const T* dA, T* dV, T* ws, int n) {
    tr_eigh_jvp(w, V, dA, static_cast<T*>(nullptr), dV, ws, n);
}

// Abar = sym(V·(F∘(V^T·Vbar))·V^T). ws: 2*n*n
template <typename T> __device__ void tr_eigvecsh_vjp(const T* w, const T* V, const T* Vbar, T* Abar, T* ws, int n) {
    tr_eigh_vjp(w, V, static_cast<const T*>(nullptr), Vbar, Abar, ws, n);
}

// dE = L(A, dA); its transpose Abar = L(A^T, Ebar). ws: 36*n*n + 2*n
template <typename T> __device__ void tr_expm_jvp(const T* A, const T* dA, T* dE, T* ws, int n) {
    tr_expm_frechet(A, dA, dE, 0, ws, n);
}
template <typename T> __device__ void tr_expm_vjp(const T* A, const T* Ebar, T* Abar, T* ws, int n) {
    tr_expm_frechet(A, Ebar, Abar, 1, ws, n);
}

// f(S) = V·diag(f(w))·V^T for S symmetric (its lower triangle), f = log or sqrt (which = 0, 1). ws: 3*n*n + 4*n + 3
template <typename T> __device__ void tr_la_spectral(const T* A, T* F, T* ws, int n, int which) {
    T* const w = ws;
    T* const fw = ws + n;
    T* const V = ws + 2 * n;
    tr_eigh(A, w, V, V + n * n, n);
    for (int i = threadIdx.x; i < n; i += blockDim.x) fw[i] = which == 0 ? log(w[i]) : sqrt(w[i]);
    tr_eig_fn(V, fw, F, ws, n);
}

// Daleckii-Krein with f = log or sqrt at the eigenvalues w, eigenvectors V. ws: 2*n*n + 2*n
template <typename T> __device__ void tr_la_spectral_dk(const T* w, const T* V, const T* dS, T* dF, T* ws, int n,
                                                       int which) {
    __syncthreads();
    T* const fw = ws;
    T* const dfw = ws + n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const T s = sqrt(w[i]);
        fw[i] = which == 0 ? log(w[i]) : s;
        dfw[i] = which == 0 ? T(1) / w[i] : T(0.5) / s;
    }
    tr_daleckii_krein(w, V, fw, dfw, dS, dF, ws + 2 * n, n);
}

// logm(S), S symmetric positive definite. ws: 3*n*n + 4*n + 3
template <typename T> __device__ void tr_logm(const T* A, T* L, T* ws, int n) { tr_la_spectral(A, L, ws, n, 0); }
// dL (self-adjoint: also the pullback). ws: 2*n*n + 2*n
template <typename T> __device__ void tr_logm_jvp(const T* w, const T* V, const T* dS, T* dL, T* ws, int n) {
    tr_la_spectral_dk(w, V, dS, dL, ws, n, 0);
}
template <typename T> __device__ void tr_logm_vjp(const T* w, const T* V, const T* Lbar, T* Sbar, T* ws, int n) {
    tr_la_spectral_dk(w, V, Lbar, Sbar, ws, n, 0);
}

// sqrtm(S), S symmetric positive semidefinite. ws: 3*n*n + 4*n + 3
template <typename T> __device__ void tr_sqrtm(const T* A, T* Q, T* ws, int n) { tr_la_spectral(A, Q, ws, n, 1); }
template <typename T> __device__ void tr_sqrtm_jvp(const T* w, const T* V, const T* dS, T* dQ, T* ws, int n) {
    tr_la_spectral_dk(w, V, dS, dQ, ws, n, 1);
}
template <typename T> __device__ void tr_sqrtm_vjp(const T* w, const T* V, const T* Qbar, T* Sbar, T* ws, int n) {
    tr_la_spectral_dk(w, V, Qbar, Sbar, ws, n, 1);
}

// tr_batched_batched_matmul_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_matmul_fwd0_rows_body(T* __restrict__ x_C, const int mode_x_C, const T* __restrict__ x_A, const T* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_B = s_x_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_A[z] = x_A[(w0 * n_i + w1) * n_k + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_B[z] = x_B[z0 * n_j + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[(t * n_b + i0) * n_i + i1] : x_A[(i0 * n_i + i1) * n_k + q0])*((stage & 2) ? s_x_B[t * n_j + i2] : x_B[q0 * n_j + i2]);
        }
    }
    if (active) {
        tr_store(x_C, row, acc0, mode_x_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_fwd0_rows_f32(float* __restrict__ x_C, const int mode_x_C, const float* __restrict__ x_A, const float* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_fwd0_rows_body<float>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_fwd0_rows_f64(double* __restrict__ x_C, const int mode_x_C, const double* __restrict__ x_A, const double* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_fwd0_rows_body<double>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_matmul_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_matmul_jvp1_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_A, const T* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_B = s_x_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_A[z] = x_A[(w0 * n_i + w1) * n_k + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_d_B[z] = tr_ld(d_B, z0 * n_j + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[(t * n_b + i0) * n_i + i1] : x_A[(i0 * n_i + i1) * n_k + q0])*((stage & 2) ? s_d_B[t * n_j + i2] : tr_ld(d_B, q0 * n_j + i2));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_jvp1_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_A, const float* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_jvp1_rows_body<float>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_jvp1_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_A, const double* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_jvp1_rows_body<double>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_matmul_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_matmul_jvp2_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_B, const T* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_d_A = s_x_B + ((stage & 1) ? (long long)tile * (n_j) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_B[z] = x_B[z0 * n_j + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, (w0 * n_i + w1) * n_k + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[t * n_j + i2] : x_B[q0 * n_j + i2])*((stage & 2) ? s_d_A[(t * n_b + i0) * n_i + i1] : tr_ld(d_A, (i0 * n_i + i1) * n_k + q0));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_jvp2_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_B, const float* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_jvp2_rows_body<float>(d_C, mode_d_C, x_B, d_A, n_j, n_i, n_k, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_jvp2_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_B, const double* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_jvp2_rows_body<double>(d_C, mode_d_C, x_B, d_A, n_j, n_i, n_k, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_matmul_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_matmul_pb0_warp_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_B, const T* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_j, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i2 = rem1 % n_k; rem1 /= n_k;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_B[i2 * n_j + q0]*tr_ld(b_C, (i0 * n_i + i1) * n_j + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_A, row, acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_pb0_warp_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_B, const float* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_j, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_matmul_pb0_warp_body<float>(b_A, mode_b_A, x_B, b_C, n_k, n_i, n_j, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_pb0_warp_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_B, const double* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_j, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_matmul_pb0_warp_body<double>(b_A, mode_b_A, x_B, b_C, n_k, n_i, n_j, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_matmul_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_matmul_pb1_rows_body(T* __restrict__ b_B, const int mode_b_B, const T* __restrict__ x_A, const T* __restrict__ b_C, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_b_C = s_x_A + ((stage & 1) ? (long long)tile * (n_k) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_j; rem1 /= n_j;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_k;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_i; rem3 /= n_i;
                const long long z0 = rem3;
                const long long w2 = p;
                s_x_A[z] = x_A[(z0 * n_i + z1) * n_k + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem4 = kk;
                const long long z1 = rem4 % n_i; rem4 /= n_i;
                const long long z0 = rem4;
                const long long w2 = p;
                s_b_C[z] = tr_ld(b_C, (z0 * n_i + z1) * n_j + w2);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem2 = kk;
            const long long q1 = rem2 % n_i; rem2 /= n_i;
            const long long q0 = rem2;
            acc0 += ((stage & 1) ? s_x_A[t * n_k + i0] : x_A[(q0 * n_i + q1) * n_k + i0])*((stage & 2) ? s_b_C[t * n_j + i1] : tr_ld(b_C, (q0 * n_i + q1) * n_j + i1));
        }
    }
    if (active) {
        tr_store(b_B, row, acc0, mode_b_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_pb1_rows_f32(float* __restrict__ b_B, const int mode_b_B, const float* __restrict__ x_A, const float* __restrict__ b_C, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_pb1_rows_body<float>(b_B, mode_b_B, x_A, b_C, n_j, n_i, n_k, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_matmul_pb1_rows_f64(double* __restrict__ b_B, const int mode_b_B, const double* __restrict__ x_A, const double* __restrict__ b_C, const long long n_j, const long long n_i, const long long n_k, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_matmul_pb1_rows_body<double>(b_B, mode_b_B, x_A, b_C, n_j, n_i, n_k, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_bmm_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_bmm_fwd0_rows_body(T* __restrict__ x_C, const int mode_x_C, const T* __restrict__ x_A, const T* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_B = s_x_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_A[z] = x_A[(w0 * n_i + w1) * n_k + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_j; p /= n_j;
                const long long w0 = p;
                s_x_B[z] = x_B[(w0 * n_k + z0) * n_j + w2];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[(t * n_b + i0) * n_i + i1] : x_A[(i0 * n_i + i1) * n_k + q0])*((stage & 2) ? s_x_B[(t * n_b + i0) * n_j + i2] : x_B[(i0 * n_k + q0) * n_j + i2]);
        }
    }
    if (active) {
        tr_store(x_C, row, acc0, mode_x_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_fwd0_rows_f32(float* __restrict__ x_C, const int mode_x_C, const float* __restrict__ x_A, const float* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_fwd0_rows_body<float>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_fwd0_rows_f64(double* __restrict__ x_C, const int mode_x_C, const double* __restrict__ x_A, const double* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_fwd0_rows_body<double>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_batched_bmm_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_bmm_jvp1_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_A, const T* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_B = s_x_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_A[z] = x_A[(w0 * n_i + w1) * n_k + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_j; p /= n_j;
                const long long w0 = p;
                s_d_B[z] = tr_ld(d_B, (w0 * n_k + z0) * n_j + w2);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[(t * n_b + i0) * n_i + i1] : x_A[(i0 * n_i + i1) * n_k + q0])*((stage & 2) ? s_d_B[(t * n_b + i0) * n_j + i2] : tr_ld(d_B, (i0 * n_k + q0) * n_j + i2));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_jvp1_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_A, const float* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_jvp1_rows_body<float>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_jvp1_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_A, const double* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_jvp1_rows_body<double>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_batched_bmm_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_bmm_jvp2_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_B, const T* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_d_A = s_x_B + ((stage & 1) ? (long long)tile * (n_b * n_j) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_j; p /= n_j;
                const long long w0 = p;
                s_x_B[z] = x_B[(w0 * n_k + z0) * n_j + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, (w0 * n_i + w1) * n_k + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[(t * n_b + i0) * n_j + i2] : x_B[(i0 * n_k + q0) * n_j + i2])*((stage & 2) ? s_d_A[(t * n_b + i0) * n_i + i1] : tr_ld(d_A, (i0 * n_i + i1) * n_k + q0));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_jvp2_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_B, const float* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_jvp2_rows_body<float>(d_C, mode_d_C, x_B, d_A, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_jvp2_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_B, const double* __restrict__ d_A, const long long n_j, const long long n_i, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_jvp2_rows_body<double>(d_C, mode_d_C, x_B, d_A, n_j, n_i, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_batched_bmm_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_bmm_pb0_warp_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_B, const T* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_b, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i2 = rem1 % n_k; rem1 /= n_k;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_B[(i0 * n_k + i2) * n_j + q0]*tr_ld(b_C, (i0 * n_i + i1) * n_j + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_A, row, acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_pb0_warp_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_B, const float* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_b, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_bmm_pb0_warp_body<float>(b_A, mode_b_A, x_B, b_C, n_k, n_i, n_b, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_pb0_warp_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_B, const double* __restrict__ b_C, const long long n_k, const long long n_i, const long long n_b, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_bmm_pb0_warp_body<double>(b_A, mode_b_A, x_B, b_C, n_k, n_i, n_b, n_j, nrows, nk, chunk, wpr);
}

// tr_batched_bmm_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_bmm_pb1_rows_body(T* __restrict__ b_B, const int mode_b_B, const T* __restrict__ x_A, const T* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_b, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_b_C = s_x_A + ((stage & 1) ? (long long)tile * (n_b * n_k) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_j; rem1 /= n_j;
    const long long i1 = rem1 % n_k; rem1 /= n_k;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_k;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_k; p /= n_k;
                const long long w0 = p;
                s_x_A[z] = x_A[(w0 * n_i + z0) * n_k + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_j; p /= n_j;
                const long long w0 = p;
                s_b_C[z] = tr_ld(b_C, (w0 * n_i + z0) * n_j + w2);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[(t * n_b + i0) * n_k + i1] : x_A[(i0 * n_i + q0) * n_k + i1])*((stage & 2) ? s_b_C[(t * n_b + i0) * n_j + i2] : tr_ld(b_C, (i0 * n_i + q0) * n_j + i2));
        }
    }
    if (active) {
        tr_store(b_B, row, acc0, mode_b_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_pb1_rows_f32(float* __restrict__ b_B, const int mode_b_B, const float* __restrict__ x_A, const float* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_b, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_pb1_rows_body<float>(b_B, mode_b_B, x_A, b_C, n_j, n_k, n_b, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_bmm_pb1_rows_f64(double* __restrict__ b_B, const int mode_b_B, const double* __restrict__ x_A, const double* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_b, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_bmm_pb1_rows_body<double>(b_B, mode_b_B, x_A, b_C, n_j, n_k, n_b, n_i, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_transpose_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_transpose_fwd0_body(T* __restrict__ x_B, const int mode_x_B, const T* __restrict__ x_A, const long long n_i, const long long n_j, const long long n_b) {
    const long long total = n_b * n_j * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = x_A[(e0 * n_i + e2) * n_j + e1];
        tr_store(x_B, e, r2, mode_x_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_fwd0_f32(float* __restrict__ x_B, const int mode_x_B, const float* __restrict__ x_A, const long long n_i, const long long n_j, const long long n_b) {
    tr_batched_batched_transpose_fwd0_body<float>(x_B, mode_x_B, x_A, n_i, n_j, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_fwd0_f64(double* __restrict__ x_B, const int mode_x_B, const double* __restrict__ x_A, const long long n_i, const long long n_j, const long long n_b) {
    tr_batched_batched_transpose_fwd0_body<double>(x_B, mode_x_B, x_A, n_i, n_j, n_b);
}

// tr_batched_batched_transpose_jvp0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_transpose_jvp0_body(T* __restrict__ x_B, const int mode_x_B, T* __restrict__ d_B, const int mode_d_B, const T* __restrict__ x_A, const T* __restrict__ d_A, const long long n_i, const long long n_j, const long long n_b) {
    const long long total = n_b * n_j * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = x_A[(e0 * n_i + e2) * n_j + e1];
        tr_store(x_B, e, r2, mode_x_B);
        const T r3 = tr_ld(d_A, (e0 * n_i + e2) * n_j + e1);
        tr_store(d_B, e, r3, mode_d_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_jvp0_f32(float* __restrict__ x_B, const int mode_x_B, float* __restrict__ d_B, const int mode_d_B, const float* __restrict__ x_A, const float* __restrict__ d_A, const long long n_i, const long long n_j, const long long n_b) {
    tr_batched_batched_transpose_jvp0_body<float>(x_B, mode_x_B, d_B, mode_d_B, x_A, d_A, n_i, n_j, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_jvp0_f64(double* __restrict__ x_B, const int mode_x_B, double* __restrict__ d_B, const int mode_d_B, const double* __restrict__ x_A, const double* __restrict__ d_A, const long long n_i, const long long n_j, const long long n_b) {
    tr_batched_batched_transpose_jvp0_body<double>(x_B, mode_x_B, d_B, mode_d_B, x_A, d_A, n_i, n_j, n_b);
}

// tr_batched_batched_transpose_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_transpose_pb0_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_B, const long long n_j, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_j; rem1 /= n_j;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_B, (e0 * n_j + e2) * n_i + e1);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_pb0_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_B, const long long n_j, const long long n_i, const long long n_b) {
    tr_batched_batched_transpose_pb0_body<float>(b_A, mode_b_A, b_B, n_j, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_transpose_pb0_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_B, const long long n_j, const long long n_i, const long long n_b) {
    tr_batched_batched_transpose_pb0_body<double>(b_A, mode_b_A, b_B, n_j, n_i, n_b);
}

// tr_batched_batched_inv_fwd0: tr_inv over a batch, one block per matrix: the operands of batch element b (batch axes first,
// matrix axes last: element q of it at b*size + q) are loaded into contiguous workspace, then the device function
// runs on them (templates/cuda_linalg.cuh.j2) and the output is stored
template <typename T>
__device__ __forceinline__ void tr_batched_batched_inv_fwd0_body(T* __restrict__ x_B, const int mode_x_B, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const int R = (int)(1LL);
    const long long b = blockIdx.x;
    const long long s0 = (long long)n_i * (long long)n_i;
    const long long so = (long long)n_i * (long long)n_i;
    const long long per = s0 + so + (2LL * n * n + 0LL * n * R + 1LL * n + 0LL);
    T* const W = ws ? ws + b * per : reinterpret_cast<T*>(tr_smem);
    T* const p0 = W;
    T* const po = p0 + s0;
    T* const scratch = po + so;
    for (long long q = threadIdx.x; q < s0; q += blockDim.x) p0[q] = x_A[b * s0 + q];
    tr_inv(p0, po, scratch, n);
    for (long long q = threadIdx.x; q < so; q += blockDim.x) tr_store(x_B, b * so + q, po[q], mode_x_B);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_fwd0_f32(float* __restrict__ x_B, const int mode_x_B, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_batched_batched_inv_fwd0_body<float>(x_B, mode_x_B, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_fwd0_f64(double* __restrict__ x_B, const int mode_x_B, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_batched_batched_inv_fwd0_body<double>(x_B, mode_x_B, x_A, n_i, ws);
}

// tr_batched_batched_inv_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_inv_jvp1_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_B, const T* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_d_A = s_x_B + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_B[z] = x_B[(w0 * n_i + w1) * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, (w0 * n_i + z0) * n_i + w2);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[(t * n_b + i0) * n_i + i1] : x_B[(i0 * n_i + i1) * n_i + q0])*((stage & 2) ? s_d_A[(t * n_b + i0) * n_i + i2] : tr_ld(d_A, (i0 * n_i + q0) * n_i + i2));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_jvp1_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_B, const float* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_jvp1_rows_body<float>(u_c0, mode_u_c0, x_B, d_A, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_jvp1_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_B, const double* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_jvp1_rows_body<double>(u_c0, mode_u_c0, x_B, d_A, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_inv_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_inv_jvp2_rows_body(T* __restrict__ d_B, const int mode_d_B, const T* __restrict__ x_B, const T* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_u_c0 = s_x_B + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_B[z] = x_B[(w0 * n_i + z0) * n_i + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, (w0 * n_i + w1) * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[(t * n_b + i0) * n_i + i2] : x_B[(i0 * n_i + q0) * n_i + i2])*((stage & 2) ? s_u_c0[(t * n_b + i0) * n_i + i1] : tr_ld(u_c0, (i0 * n_i + i1) * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_B, row, -acc0, mode_d_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_jvp2_rows_f32(float* __restrict__ d_B, const int mode_d_B, const float* __restrict__ x_B, const float* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_jvp2_rows_body<float>(d_B, mode_d_B, x_B, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_jvp2_rows_f64(double* __restrict__ d_B, const int mode_d_B, const double* __restrict__ x_B, const double* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_jvp2_rows_body<double>(d_B, mode_d_B, x_B, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_inv_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_inv_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_B, const T* __restrict__ b_B, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_B[(i0 * n_i + i1) * n_i + q0]*tr_ld(b_B, (i0 * n_i + i2) * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_B, const float* __restrict__ b_B, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_inv_pb0_warp_body<float>(u_c0, mode_u_c0, x_B, b_B, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_B, const double* __restrict__ b_B, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_inv_pb0_warp_body<double>(u_c0, mode_u_c0, x_B, b_B, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_inv_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_inv_pb1_rows_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_B, const T* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_u_c0 = s_x_B + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_B[z] = x_B[(w0 * n_i + z0) * n_i + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, (w0 * n_i + w1) * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[(t * n_b + i0) * n_i + i1] : x_B[(i0 * n_i + q0) * n_i + i1])*((stage & 2) ? s_u_c0[(t * n_b + i0) * n_i + i2] : tr_ld(u_c0, (i0 * n_i + i2) * n_i + q0));
        }
    }
    if (active) {
        tr_store(b_A, row, -acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_pb1_rows_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_B, const float* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_pb1_rows_body<float>(b_A, mode_b_A, x_B, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_inv_pb1_rows_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_B, const double* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_inv_pb1_rows_body<double>(b_A, mode_b_A, x_B, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_logdet_fwd0: tr_logdet over a batch, one block per matrix: the operands of batch element b (batch axes first,
// matrix axes last: element q of it at b*size + q) are loaded into contiguous workspace, then the device function
// runs on them (templates/cuda_linalg.cuh.j2) and the output is stored
template <typename T>
__device__ __forceinline__ void tr_batched_batched_logdet_fwd0_body(T* __restrict__ x_d, const int mode_x_d, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const int R = (int)(1LL);
    const long long b = blockIdx.x;
    const long long s0 = (long long)n_i * (long long)n_i;
    const long long so = 1LL;
    const long long per = s0 + so + (1LL * n * n + 0LL * n * R + 1LL * n + 0LL);
    T* const W = ws ? ws + b * per : reinterpret_cast<T*>(tr_smem);
    T* const p0 = W;
    T* const po = p0 + s0;
    T* const scratch = po + so;
    for (long long q = threadIdx.x; q < s0; q += blockDim.x) p0[q] = x_A[b * s0 + q];
    tr_logdet(p0, po, scratch, n);
    for (long long q = threadIdx.x; q < so; q += blockDim.x) tr_store(x_d, b * so + q, po[q], mode_x_d);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_fwd0_f32(float* __restrict__ x_d, const int mode_x_d, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_batched_batched_logdet_fwd0_body<float>(x_d, mode_x_d, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_fwd0_f64(double* __restrict__ x_d, const int mode_x_d, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_batched_batched_logdet_fwd0_body<double>(x_d, mode_x_d, x_A, n_i, ws);
}

// tr_batched_batched_logdet_jvp1: tr_inv over a batch, one block per matrix: the operands of batch element b (batch axes first,
// matrix axes last: element q of it at b*size + q) are loaded into contiguous workspace, then the device function
// runs on them (templates/cuda_linalg.cuh.j2) and the output is stored
template <typename T>
__device__ __forceinline__ void tr_batched_batched_logdet_jvp1_body(T* __restrict__ u_inv_A, const int mode_u_inv_A, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const int R = (int)(1LL);
    const long long b = blockIdx.x;
    const long long s0 = (long long)n_i * (long long)n_i;
    const long long so = (long long)n_i * (long long)n_i;
    const long long per = s0 + so + (2LL * n * n + 0LL * n * R + 1LL * n + 0LL);
    T* const W = ws ? ws + b * per : reinterpret_cast<T*>(tr_smem);
    T* const p0 = W;
    T* const po = p0 + s0;
    T* const scratch = po + so;
    for (long long q = threadIdx.x; q < s0; q += blockDim.x) p0[q] = x_A[b * s0 + q];
    tr_inv(p0, po, scratch, n);
    for (long long q = threadIdx.x; q < so; q += blockDim.x) tr_store(u_inv_A, b * so + q, po[q], mode_u_inv_A);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp1_f32(float* __restrict__ u_inv_A, const int mode_u_inv_A, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_batched_batched_logdet_jvp1_body<float>(u_inv_A, mode_u_inv_A, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp1_f64(double* __restrict__ u_inv_A, const int mode_u_inv_A, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_batched_batched_logdet_jvp1_body<double>(u_inv_A, mode_u_inv_A, x_A, n_i, ws);
}

// tr_batched_batched_logdet_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_logdet_jvp2_rows_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_inv_A, const T* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_d_A = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_b) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                const long long w0 = p;
                s_u_inv_A[z] = u_inv_A[(w0 * n_i + z0) * n_i + z1];
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_i; rem3 /= n_i;
                const long long z0 = rem3;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, (w0 * n_i + z1) * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += ((stage & 1) ? s_u_inv_A[t * n_b + i0] : u_inv_A[(i0 * n_i + q0) * n_i + q1])*((stage & 2) ? s_d_A[t * n_b + i0] : tr_ld(d_A, (i0 * n_i + q1) * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp2_rows_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_inv_A, const float* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_logdet_jvp2_rows_body<float>(d_d, mode_d_d, u_inv_A, d_A, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp2_rows_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_inv_A, const double* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_logdet_jvp2_rows_body<double>(d_d, mode_d_d, u_inv_A, d_A, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_logdet_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_logdet_jvp2_warp_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_inv_A, const T* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += u_inv_A[(i0 * n_i + q0) * n_i + q1]*tr_ld(d_A, (i0 * n_i + q1) * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp2_warp_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_inv_A, const float* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_logdet_jvp2_warp_body<float>(d_d, mode_d_d, u_inv_A, d_A, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_jvp2_warp_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_inv_A, const double* __restrict__ d_A, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_logdet_jvp2_warp_body<double>(d_d, mode_d_d, u_inv_A, d_A, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_logdet_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_logdet_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ u_inv_A, const T* __restrict__ b_d, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = u_inv_A[(e0 * n_i + e2) * n_i + e1]*tr_ld(b_d, e0);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ u_inv_A, const float* __restrict__ b_d, const long long n_i, const long long n_b) {
    tr_batched_batched_logdet_pb1_body<float>(b_A, mode_b_A, u_inv_A, b_d, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_logdet_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ u_inv_A, const double* __restrict__ b_d, const long long n_i, const long long n_b) {
    tr_batched_batched_logdet_pb1_body<double>(b_A, mode_b_A, u_inv_A, b_d, n_i, n_b);
}

// tr_batched_batched_solve_fwd0: tr_solve over a batch, one block per matrix: the operands of batch element b (batch axes first,
// matrix axes last: element q of it at b*size + q) are loaded into contiguous workspace, then the device function
// runs on them (templates/cuda_linalg.cuh.j2) and the output is stored
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_fwd0_body(T* __restrict__ x_x, const int mode_x_x, const T* __restrict__ x_A, const T* __restrict__ x_y, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const int R = (int)(1LL);
    const long long b = blockIdx.x;
    const long long s0 = (long long)n_i * (long long)n_i;
    const long long s1 = (long long)n_i;
    const long long so = (long long)n_i;
    const long long per = s0 + s1 + so + (1LL * n * n + 1LL * n * R + 1LL * n + 0LL);
    T* const W = ws ? ws + b * per : reinterpret_cast<T*>(tr_smem);
    T* const p0 = W;
    T* const p1 = p0 + s0;
    T* const po = p1 + s1;
    T* const scratch = po + so;
    for (long long q = threadIdx.x; q < s0; q += blockDim.x) p0[q] = x_A[b * s0 + q];
    for (long long q = threadIdx.x; q < s1; q += blockDim.x) p1[q] = x_y[b * s1 + q];
    tr_solve(p0, p1, po, scratch, n, R);
    for (long long q = threadIdx.x; q < so; q += blockDim.x) tr_store(x_x, b * so + q, po[q], mode_x_x);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_fwd0_f32(float* __restrict__ x_x, const int mode_x_x, const float* __restrict__ x_A, const float* __restrict__ x_y, const long long n_i, float* __restrict__ ws) {
    tr_batched_batched_solve_fwd0_body<float>(x_x, mode_x_x, x_A, x_y, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_fwd0_f64(double* __restrict__ x_x, const int mode_x_x, const double* __restrict__ x_A, const double* __restrict__ x_y, const long long n_i, double* __restrict__ ws) {
    tr_batched_batched_solve_fwd0_body<double>(x_x, mode_x_x, x_A, x_y, n_i, ws);
}

// tr_batched_batched_solve_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_jvp2_body(T* __restrict__ du_z1, const int mode_du_z1, const T* __restrict__ d_y, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(d_y, e);
        tr_store(du_z1, e, r2, mode_du_z1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp2_f32(float* __restrict__ du_z1, const int mode_du_z1, const float* __restrict__ d_y, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_jvp2_body<float>(du_z1, mode_du_z1, d_y, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp2_f64(double* __restrict__ du_z1, const int mode_du_z1, const double* __restrict__ d_y, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_jvp2_body<double>(du_z1, mode_du_z1, d_y, n_i, n_b);
}

// tr_batched_batched_solve_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_jvp3_rows_body(T* __restrict__ du_z1, const int mode_du_z1, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_A = sh;
    T* const s_x_x = s_d_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, (w0 * n_i + w1) * n_i + z0);
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_x[z] = x_x[w0 * n_i + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_A[(t * n_b + i0) * n_i + i1] : tr_ld(d_A, (i0 * n_i + i1) * n_i + q0))*((stage & 2) ? s_x_x[t * n_b + i0] : x_x[i0 * n_i + q0]);
        }
    }
    if (active) {
        tr_store(du_z1, row, -acc0, mode_du_z1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp3_rows_f32(float* __restrict__ du_z1, const int mode_du_z1, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_jvp3_rows_body<float>(du_z1, mode_du_z1, d_A, x_x, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp3_rows_f64(double* __restrict__ du_z1, const int mode_du_z1, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_jvp3_rows_body<double>(du_z1, mode_du_z1, d_A, x_x, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_solve_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_jvp3_warp_body(T* __restrict__ du_z1, const int mode_du_z1, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_A, (i0 * n_i + i1) * n_i + q0)*x_x[i0 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(du_z1, row, -acc0, mode_du_z1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp3_warp_f32(float* __restrict__ du_z1, const int mode_du_z1, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_jvp3_warp_body<float>(du_z1, mode_du_z1, d_A, x_x, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp3_warp_f64(double* __restrict__ du_z1, const int mode_du_z1, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_jvp3_warp_body<double>(du_z1, mode_du_z1, d_A, x_x, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_solve_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_jvp4_rows_body(T* __restrict__ d_x, const int mode_d_x, const T* __restrict__ u_inv_A, const T* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_du_z1 = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_inv_A[z] = u_inv_A[(w0 * n_i + w1) * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_du_z1[z] = tr_ld(du_z1, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[(t * n_b + i0) * n_i + i1] : u_inv_A[(i0 * n_i + i1) * n_i + q0])*((stage & 2) ? s_du_z1[t * n_b + i0] : tr_ld(du_z1, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_x, row, acc0, mode_d_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp4_rows_f32(float* __restrict__ d_x, const int mode_d_x, const float* __restrict__ u_inv_A, const float* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_jvp4_rows_body<float>(d_x, mode_d_x, u_inv_A, du_z1, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp4_rows_f64(double* __restrict__ d_x, const int mode_d_x, const double* __restrict__ u_inv_A, const double* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_jvp4_rows_body<double>(d_x, mode_d_x, u_inv_A, du_z1, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_solve_jvp4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_jvp4_warp_body(T* __restrict__ d_x, const int mode_d_x, const T* __restrict__ u_inv_A, const T* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_A[(i0 * n_i + i1) * n_i + q0]*tr_ld(du_z1, i0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_x, row, acc0, mode_d_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp4_warp_f32(float* __restrict__ d_x, const int mode_d_x, const float* __restrict__ u_inv_A, const float* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_jvp4_warp_body<float>(d_x, mode_d_x, u_inv_A, du_z1, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_jvp4_warp_f64(double* __restrict__ d_x, const int mode_d_x, const double* __restrict__ u_inv_A, const double* __restrict__ du_z1, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_jvp4_warp_body<double>(d_x, mode_d_x, u_inv_A, du_z1, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_solve_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_pb1_rows_body(T* __restrict__ bu_z1, const int mode_bu_z1, const T* __restrict__ u_inv_A, const T* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_b_x = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_inv_A[z] = u_inv_A[(w0 * n_i + z0) * n_i + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_b_x[z] = tr_ld(b_x, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[(t * n_b + i0) * n_i + i1] : u_inv_A[(i0 * n_i + q0) * n_i + i1])*((stage & 2) ? s_b_x[t * n_b + i0] : tr_ld(b_x, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(bu_z1, row, acc0, mode_bu_z1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb1_rows_f32(float* __restrict__ bu_z1, const int mode_bu_z1, const float* __restrict__ u_inv_A, const float* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_pb1_rows_body<float>(bu_z1, mode_bu_z1, u_inv_A, b_x, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb1_rows_f64(double* __restrict__ bu_z1, const int mode_bu_z1, const double* __restrict__ u_inv_A, const double* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_solve_pb1_rows_body<double>(bu_z1, mode_bu_z1, u_inv_A, b_x, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_solve_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_pb1_warp_body(T* __restrict__ bu_z1, const int mode_bu_z1, const T* __restrict__ u_inv_A, const T* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_A[(i0 * n_i + q0) * n_i + i1]*tr_ld(b_x, i0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(bu_z1, row, acc0, mode_bu_z1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb1_warp_f32(float* __restrict__ bu_z1, const int mode_bu_z1, const float* __restrict__ u_inv_A, const float* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_pb1_warp_body<float>(bu_z1, mode_bu_z1, u_inv_A, b_x, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb1_warp_f64(double* __restrict__ bu_z1, const int mode_bu_z1, const double* __restrict__ u_inv_A, const double* __restrict__ b_x, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_solve_pb1_warp_body<double>(bu_z1, mode_bu_z1, u_inv_A, b_x, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_solve_pb2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_pb2_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ bu_z1, const T* __restrict__ x_x, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -tr_ld(bu_z1, e0 * n_i + e1)*x_x[e0 * n_i + e2];
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb2_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ bu_z1, const float* __restrict__ x_x, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_pb2_body<float>(b_A, mode_b_A, bu_z1, x_x, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb2_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ bu_z1, const double* __restrict__ x_x, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_pb2_body<double>(b_A, mode_b_A, bu_z1, x_x, n_i, n_b);
}

// tr_batched_batched_solve_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_solve_pb3_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ bu_z1, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(bu_z1, e);
        tr_store(b_y, e, r2, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb3_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ bu_z1, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_pb3_body<float>(b_y, mode_b_y, bu_z1, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_solve_pb3_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ bu_z1, const long long n_i, const long long n_b) {
    tr_batched_batched_solve_pb3_body<double>(b_y, mode_b_y, bu_z1, n_i, n_b);
}

// tr_batched_batched_cayley_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_fwd0_body(T* __restrict__ u_t0, const int mode_u_t0, const T* __restrict__ x_A, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -x_A[e] + (e1 == e2 ? T(1) : T(0));
        tr_store(u_t0, e, r2, mode_u_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd0_f32(float* __restrict__ u_t0, const int mode_u_t0, const float* __restrict__ x_A, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_fwd0_body<float>(u_t0, mode_u_t0, x_A, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd0_f64(double* __restrict__ u_t0, const int mode_u_t0, const double* __restrict__ x_A, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_fwd0_body<double>(u_t0, mode_u_t0, x_A, n_i, n_b);
}

// tr_batched_batched_cayley_fwd1: tr_inv over a batch, one block per matrix: the operands of batch element b (batch axes first,
// matrix axes last: element q of it at b*size + q) are loaded into contiguous workspace, then the device function
// runs on them (templates/cuda_linalg.cuh.j2) and the output is stored
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_fwd1_body(T* __restrict__ x_M, const int mode_x_M, const T* __restrict__ u_t0, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const int R = (int)(1LL);
    const long long b = blockIdx.x;
    const long long s0 = (long long)n_i * (long long)n_i;
    const long long so = (long long)n_i * (long long)n_i;
    const long long per = s0 + so + (2LL * n * n + 0LL * n * R + 1LL * n + 0LL);
    T* const W = ws ? ws + b * per : reinterpret_cast<T*>(tr_smem);
    T* const p0 = W;
    T* const po = p0 + s0;
    T* const scratch = po + so;
    for (long long q = threadIdx.x; q < s0; q += blockDim.x) p0[q] = u_t0[b * s0 + q];
    tr_inv(p0, po, scratch, n);
    for (long long q = threadIdx.x; q < so; q += blockDim.x) tr_store(x_M, b * so + q, po[q], mode_x_M);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd1_f32(float* __restrict__ x_M, const int mode_x_M, const float* __restrict__ u_t0, const long long n_i, float* __restrict__ ws) {
    tr_batched_batched_cayley_fwd1_body<float>(x_M, mode_x_M, u_t0, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd1_f64(double* __restrict__ x_M, const int mode_x_M, const double* __restrict__ u_t0, const long long n_i, double* __restrict__ ws) {
    tr_batched_batched_cayley_fwd1_body<double>(x_M, mode_x_M, u_t0, n_i, ws);
}

// tr_batched_batched_cayley_fwd2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_fwd2_body(T* __restrict__ x_Q, const int mode_x_Q, const T* __restrict__ x_M, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -(e1 == e2 ? T(1) : T(0)) + T(2)*x_M[e];
        tr_store(x_Q, e, r2, mode_x_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd2_f32(float* __restrict__ x_Q, const int mode_x_Q, const float* __restrict__ x_M, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_fwd2_body<float>(x_Q, mode_x_Q, x_M, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_fwd2_f64(double* __restrict__ x_Q, const int mode_x_Q, const double* __restrict__ x_M, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_fwd2_body<double>(x_Q, mode_x_Q, x_M, n_i, n_b);
}

// tr_batched_batched_cayley_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_jvp2_body(T* __restrict__ x_Q, const int mode_x_Q, T* __restrict__ du_t0, const int mode_du_t0, const T* __restrict__ x_M, const T* __restrict__ d_A, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -(e1 == e2 ? T(1) : T(0)) + T(2)*x_M[e];
        tr_store(x_Q, e, r2, mode_x_Q);
        const T r3 = -tr_ld(d_A, e);
        tr_store(du_t0, e, r3, mode_du_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp2_f32(float* __restrict__ x_Q, const int mode_x_Q, float* __restrict__ du_t0, const int mode_du_t0, const float* __restrict__ x_M, const float* __restrict__ d_A, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_jvp2_body<float>(x_Q, mode_x_Q, du_t0, mode_du_t0, x_M, d_A, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp2_f64(double* __restrict__ x_Q, const int mode_x_Q, double* __restrict__ du_t0, const int mode_du_t0, const double* __restrict__ x_M, const double* __restrict__ d_A, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_jvp2_body<double>(x_Q, mode_x_Q, du_t0, mode_du_t0, x_M, d_A, n_i, n_b);
}

// tr_batched_batched_cayley_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_jvp3_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_M, const T* __restrict__ du_t0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_du_t0 = s_x_M + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_M[z] = x_M[(w0 * n_i + w1) * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_du_t0[z] = tr_ld(du_t0, (w0 * n_i + z0) * n_i + w2);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[(t * n_b + i0) * n_i + i1] : x_M[(i0 * n_i + i1) * n_i + q0])*((stage & 2) ? s_du_t0[(t * n_b + i0) * n_i + i2] : tr_ld(du_t0, (i0 * n_i + q0) * n_i + i2));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp3_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_M, const float* __restrict__ du_t0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_jvp3_rows_body<float>(u_c0, mode_u_c0, x_M, du_t0, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp3_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_M, const double* __restrict__ du_t0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_jvp3_rows_body<double>(u_c0, mode_u_c0, x_M, du_t0, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_cayley_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_jvp4_rows_body(T* __restrict__ d_M, const int mode_d_M, const T* __restrict__ x_M, const T* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_u_c0 = s_x_M + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_M[z] = x_M[(w0 * n_i + z0) * n_i + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, (w0 * n_i + w1) * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[(t * n_b + i0) * n_i + i2] : x_M[(i0 * n_i + q0) * n_i + i2])*((stage & 2) ? s_u_c0[(t * n_b + i0) * n_i + i1] : tr_ld(u_c0, (i0 * n_i + i1) * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_M, row, -acc0, mode_d_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp4_rows_f32(float* __restrict__ d_M, const int mode_d_M, const float* __restrict__ x_M, const float* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_jvp4_rows_body<float>(d_M, mode_d_M, x_M, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp4_rows_f64(double* __restrict__ d_M, const int mode_d_M, const double* __restrict__ x_M, const double* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_jvp4_rows_body<double>(d_M, mode_d_M, x_M, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_cayley_jvp5: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_jvp5_body(T* __restrict__ d_Q, const int mode_d_Q, const T* __restrict__ d_M, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = T(2)*tr_ld(d_M, e);
        tr_store(d_Q, e, r2, mode_d_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp5_f32(float* __restrict__ d_Q, const int mode_d_Q, const float* __restrict__ d_M, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_jvp5_body<float>(d_Q, mode_d_Q, d_M, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_jvp5_f64(double* __restrict__ d_Q, const int mode_d_Q, const double* __restrict__ d_M, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_jvp5_body<double>(d_Q, mode_d_Q, d_M, n_i, n_b);
}

// tr_batched_batched_cayley_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_pb0_body(T* __restrict__ b_M, const int mode_b_M, const T* __restrict__ b_Q, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = T(2)*tr_ld(b_Q, e);
        tr_store(b_M, e, r2, mode_b_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb0_f32(float* __restrict__ b_M, const int mode_b_M, const float* __restrict__ b_Q, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_pb0_body<float>(b_M, mode_b_M, b_Q, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb0_f64(double* __restrict__ b_M, const int mode_b_M, const double* __restrict__ b_Q, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_pb0_body<double>(b_M, mode_b_M, b_Q, n_i, n_b);
}

// tr_batched_batched_cayley_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_pb1_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_M, const T* __restrict__ b_M, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_M[(i0 * n_i + i1) * n_i + q0]*tr_ld(b_M, (i0 * n_i + i2) * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb1_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_M, const float* __restrict__ b_M, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_cayley_pb1_warp_body<float>(u_c0, mode_u_c0, x_M, b_M, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb1_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_M, const double* __restrict__ b_M, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_batched_batched_cayley_pb1_warp_body<double>(u_c0, mode_u_c0, x_M, b_M, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_batched_batched_cayley_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_pb2_rows_body(T* __restrict__ bu_t0, const int mode_bu_t0, const T* __restrict__ x_M, const T* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_u_c0 = s_x_M + ((stage & 1) ? (long long)tile * (n_b * n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i2 = rem1 % n_i; rem1 /= n_i;
    const long long i1 = rem1 % n_i; rem1 /= n_i;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w2 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_x_M[z] = x_M[(w0 * n_i + z0) * n_i + w2];
            }
        }
        if (stage & 2) {
            const long long per = n_b * n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p % n_i; p /= n_i;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, (w0 * n_i + w1) * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[(t * n_b + i0) * n_i + i1] : x_M[(i0 * n_i + q0) * n_i + i1])*((stage & 2) ? s_u_c0[(t * n_b + i0) * n_i + i2] : tr_ld(u_c0, (i0 * n_i + i2) * n_i + q0));
        }
    }
    if (active) {
        tr_store(bu_t0, row, -acc0, mode_bu_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb2_rows_f32(float* __restrict__ bu_t0, const int mode_bu_t0, const float* __restrict__ x_M, const float* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_pb2_rows_body<float>(bu_t0, mode_bu_t0, x_M, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb2_rows_f64(double* __restrict__ bu_t0, const int mode_bu_t0, const double* __restrict__ x_M, const double* __restrict__ u_c0, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_batched_batched_cayley_pb2_rows_body<double>(bu_t0, mode_bu_t0, x_M, u_c0, n_i, n_b, nrows, nk, chunk, tile, stage);
}

// tr_batched_batched_cayley_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_batched_batched_cayley_pb3_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ bu_t0, const long long n_i, const long long n_b) {
    const long long total = n_b * n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e2 = rem1 % n_i; rem1 /= n_i;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -tr_ld(bu_t0, e);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb3_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ bu_t0, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_pb3_body<float>(b_A, mode_b_A, bu_t0, n_i, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_batched_batched_cayley_pb3_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ bu_t0, const long long n_i, const long long n_b) {
    tr_batched_batched_cayley_pb3_body<double>(b_A, mode_b_A, bu_t0, n_i, n_b);
}
