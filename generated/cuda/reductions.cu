// @generated from rules/reductions.rules by `derive-rules` -- do not edit by hand.
// Kernels for row_max, matrix_min, product, row_logsumexp: each has a float32 (_f32) and a float64 (_f64) extern "C"
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

// tr_reductions_row_max_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_fwd0_body(T* __restrict__ x_y, const int mode_x_y, const long long n_n) {
    const long long total = n_n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = (-T(INFINITY));
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd0_f32(float* __restrict__ x_y, const int mode_x_y, const long long n_n) {
    tr_reductions_row_max_fwd0_body<float>(x_y, mode_x_y, n_n);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd0_f64(double* __restrict__ x_y, const int mode_x_y, const long long n_n) {
    tr_reductions_row_max_fwd0_body<double>(x_y, mode_x_y, n_n);
}

// tr_reductions_row_max_fwd1_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_fwd1_rows_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_S = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = (-T(INFINITY));
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_n;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_S[z] = x_S[w0 * n_m + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = tr_combine<0>(acc0, ((stage & 1) ? s_x_S[t * n_n + i0] : x_S[i0 * n_m + q0]));
        }
    }
    if (active) {
        tr_store_op<0>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd1_rows_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_fwd1_rows_body<float>(x_y, mode_x_y, x_S, n_n, n_m, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd1_rows_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_fwd1_rows_body<double>(x_y, mode_x_y, x_S, n_n, n_m, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_max_fwd1_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_fwd1_warp_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = (-T(INFINITY));
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = tr_combine<0>(acc0, x_S[i0 * n_m + q0]);
    }
    acc0 = tr_warp_op<0>(acc0);
    if (lane == 0) {
        tr_store_op<0>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd1_warp_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_fwd1_warp_body<float>(x_y, mode_x_y, x_S, n_n, n_m, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_fwd1_warp_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_S, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_fwd1_warp_body<double>(x_y, mode_x_y, x_S, n_n, n_m, nrows, nk, chunk, wpr);
}

// tr_reductions_row_max_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_jvp2_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_S, const T* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_S = sh;
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
            const long long per = n_n;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_S[z] = x_S[w0 * n_m + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((((stage & 1) ? s_x_S[t * n_n + i0] : x_S[i0 * n_m + q0]) == x_y[i0]) ? (T(1)) : (T(0)));
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp2_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_S, const float* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_jvp2_rows_body<float>(u_c1, mode_u_c1, x_S, x_y, n_n, n_m, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp2_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_S, const double* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_jvp2_rows_body<double>(u_c1, mode_u_c1, x_S, x_y, n_n, n_m, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_max_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_jvp2_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_S, const T* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += ((x_S[i0 * n_m + q0] == x_y[i0]) ? (T(1)) : (T(0)));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp2_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_S, const float* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_jvp2_warp_body<float>(u_c1, mode_u_c1, x_S, x_y, n_n, n_m, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp2_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_S, const double* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_jvp2_warp_body<double>(u_c1, mode_u_c1, x_S, x_y, n_n, n_m, nrows, nk, chunk, wpr);
}

// tr_reductions_row_max_jvp3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_jvp3_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ u_c1, const long long n_n) {
    const long long total = n_n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = (T(1) / (u_c1[e]));
        tr_store(u_c0, e, r1, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp3_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ u_c1, const long long n_n) {
    tr_reductions_row_max_jvp3_body<float>(u_c0, mode_u_c0, u_c1, n_n);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp3_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ u_c1, const long long n_n) {
    tr_reductions_row_max_jvp3_body<double>(u_c0, mode_u_c0, u_c1, n_n);
}

// tr_reductions_row_max_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_jvp4_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_S, const T* __restrict__ d_S, const T* __restrict__ x_y, const T* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_S = sh;
    T* const s_d_S = s_x_S + ((stage & 1) ? (long long)tile * (n_n) : 0LL);
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
            const long long per = n_n;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_S[z] = x_S[w0 * n_m + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_n;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_S[z] = tr_ld(d_S, w0 * n_m + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 2) ? s_d_S[t * n_n + i0] : tr_ld(d_S, i0 * n_m + q0))*((((stage & 1) ? s_x_S[t * n_n + i0] : x_S[i0 * n_m + q0]) == x_y[i0]) ? (u_c0[i0]) : (T(0)));
        }
    }
    if (active) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp4_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_S, const float* __restrict__ d_S, const float* __restrict__ x_y, const float* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_jvp4_rows_body<float>(d_y, mode_d_y, x_S, d_S, x_y, u_c0, n_n, n_m, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp4_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_S, const double* __restrict__ d_S, const double* __restrict__ x_y, const double* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_jvp4_rows_body<double>(d_y, mode_d_y, x_S, d_S, x_y, u_c0, n_n, n_m, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_max_jvp4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_jvp4_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_S, const T* __restrict__ x_S, const T* __restrict__ x_y, const T* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_S, i0 * n_m + q0)*((x_S[i0 * n_m + q0] == x_y[i0]) ? (u_c0[i0]) : (T(0)));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp4_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_S, const float* __restrict__ x_S, const float* __restrict__ x_y, const float* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_jvp4_warp_body<float>(d_y, mode_d_y, d_S, x_S, x_y, u_c0, n_n, n_m, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_jvp4_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_S, const double* __restrict__ x_S, const double* __restrict__ x_y, const double* __restrict__ u_c0, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_jvp4_warp_body<double>(d_y, mode_d_y, d_S, x_S, x_y, u_c0, n_n, n_m, nrows, nk, chunk, wpr);
}

// tr_reductions_row_max_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_pb0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_S, const T* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_S = sh;
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
            const long long per = n_n;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_S[z] = x_S[w0 * n_m + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((((stage & 1) ? s_x_S[t * n_n + i0] : x_S[i0 * n_m + q0]) == x_y[i0]) ? (T(1)) : (T(0)));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_S, const float* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_pb0_rows_body<float>(u_c0, mode_u_c0, x_S, x_y, n_n, n_m, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_S, const double* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_max_pb0_rows_body<double>(u_c0, mode_u_c0, x_S, x_y, n_n, n_m, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_max_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_S, const T* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += ((x_S[i0 * n_m + q0] == x_y[i0]) ? (T(1)) : (T(0)));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_S, const float* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_pb0_warp_body<float>(u_c0, mode_u_c0, x_S, x_y, n_n, n_m, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_S, const double* __restrict__ x_y, const long long n_n, const long long n_m, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_max_pb0_warp_body<double>(u_c0, mode_u_c0, x_S, x_y, n_n, n_m, nrows, nk, chunk, wpr);
}

// tr_reductions_row_max_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_max_pb1_body(T* __restrict__ b_S, const int mode_b_S, const T* __restrict__ b_y, const T* __restrict__ x_S, const T* __restrict__ x_y, const T* __restrict__ u_c0, const long long n_m, const long long n_n) {
    const long long total = n_n * n_m;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_m; rem1 /= n_m;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_y, e0)*((x_S[e] == x_y[e0]) ? ((T(1) / (u_c0[e0]))) : (T(0)));
        tr_store(b_S, e, r2, mode_b_S);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb1_f32(float* __restrict__ b_S, const int mode_b_S, const float* __restrict__ b_y, const float* __restrict__ x_S, const float* __restrict__ x_y, const float* __restrict__ u_c0, const long long n_m, const long long n_n) {
    tr_reductions_row_max_pb1_body<float>(b_S, mode_b_S, b_y, x_S, x_y, u_c0, n_m, n_n);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_max_pb1_f64(double* __restrict__ b_S, const int mode_b_S, const double* __restrict__ b_y, const double* __restrict__ x_S, const double* __restrict__ x_y, const double* __restrict__ u_c0, const long long n_m, const long long n_n) {
    tr_reductions_row_max_pb1_body<double>(b_S, mode_b_S, b_y, x_S, x_y, u_c0, n_m, n_n);
}

// tr_reductions_matrix_min_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_fwd0_body(T* __restrict__ x_y, const int mode_x_y) {
    const long long total = 1LL;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const T r1 = T(INFINITY);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd0_f32(float* __restrict__ x_y, const int mode_x_y) {
    tr_reductions_matrix_min_fwd0_body<float>(x_y, mode_x_y);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd0_f64(double* __restrict__ x_y, const int mode_x_y) {
    tr_reductions_matrix_min_fwd0_body<double>(x_y, mode_x_y);
}

// tr_reductions_matrix_min_fwd1_rows: minimum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_fwd1_rows_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(INFINITY);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_j; rem2 /= n_j;
                const long long z0 = rem2;
                s_x_A[z] = x_A[z0 * n_j + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            acc0 = tr_combine<1>(acc0, ((stage & 1) ? s_x_A[t] : x_A[q0 * n_j + q1]));
        }
    }
    if (active) {
        tr_store_op<1>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd1_rows_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_fwd1_rows_body<float>(x_y, mode_x_y, x_A, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd1_rows_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_fwd1_rows_body<double>(x_y, mode_x_y, x_A, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_reductions_matrix_min_fwd1_warp: minimum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_fwd1_warp_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(INFINITY);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            acc0 = tr_combine<1>(acc0, x_A[q0 * n_j + q1]);
    }
    acc0 = tr_warp_op<1>(acc0);
    if (lane == 0) {
        tr_store_op<1>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd1_warp_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_fwd1_warp_body<float>(x_y, mode_x_y, x_A, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_fwd1_warp_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_fwd1_warp_body<double>(x_y, mode_x_y, x_A, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_reductions_matrix_min_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_jvp2_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_A, const T* __restrict__ x_A, const T* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_A = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_j; rem2 /= n_j;
                const long long z0 = rem2;
                s_d_A[z] = tr_ld(d_A, z0 * n_j + z1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            T s3 = T(0);
            for (long long k4 = 0; k4 < n_i; ++k4) {
                for (long long k5 = 0; k5 < n_j; ++k5) {
                    s3 += ((x_A[k4 * n_j + k5] == x_y[0]) ? (T(1)) : (T(0)));
                }
            }
            acc0 += ((stage & 1) ? s_d_A[t] : tr_ld(d_A, q0 * n_j + q1))*((x_A[q0 * n_j + q1] == x_y[0]) ? ((T(1) / (s3))) : (T(0)));
        }
    }
    if (active) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_jvp2_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_A, const float* __restrict__ x_A, const float* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_jvp2_rows_body<float>(d_y, mode_d_y, d_A, x_A, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_jvp2_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_A, const double* __restrict__ x_A, const double* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_jvp2_rows_body<double>(d_y, mode_d_y, d_A, x_A, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_reductions_matrix_min_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_jvp2_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_A, const T* __restrict__ x_y, const T* __restrict__ d_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_i; ++k3) {
                for (long long k4 = 0; k4 < n_j; ++k4) {
                    s2 += ((x_A[k3 * n_j + k4] == x_y[0]) ? (T(1)) : (T(0)));
                }
            }
            acc0 += tr_ld(d_A, q0 * n_j + q1)*((x_A[q0 * n_j + q1] == x_y[0]) ? ((T(1) / (s2))) : (T(0)));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_jvp2_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_A, const float* __restrict__ x_y, const float* __restrict__ d_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_jvp2_warp_body<float>(d_y, mode_d_y, x_A, x_y, d_A, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_jvp2_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_A, const double* __restrict__ x_y, const double* __restrict__ d_A, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_jvp2_warp_body<double>(d_y, mode_d_y, x_A, x_y, d_A, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_reductions_matrix_min_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_pb0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_A, const T* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_j; rem2 /= n_j;
                const long long z0 = rem2;
                s_x_A[z] = x_A[z0 * n_j + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            acc0 += ((((stage & 1) ? s_x_A[t] : x_A[q0 * n_j + q1]) == x_y[0]) ? (T(1)) : (T(0)));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_A, const float* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_pb0_rows_body<float>(u_c0, mode_u_c0, x_A, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_A, const double* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_matrix_min_pb0_rows_body<double>(u_c0, mode_u_c0, x_A, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_reductions_matrix_min_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_A, const T* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            acc0 += ((x_A[q0 * n_j + q1] == x_y[0]) ? (T(1)) : (T(0)));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_A, const float* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_pb0_warp_body<float>(u_c0, mode_u_c0, x_A, x_y, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_A, const double* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_matrix_min_pb0_warp_body<double>(u_c0, mode_u_c0, x_A, x_y, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_reductions_matrix_min_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_matrix_min_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_y, const T* __restrict__ x_A, const T* __restrict__ x_y, const T* __restrict__ u_c0, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_y, 0)*((x_A[e] == x_y[0]) ? ((T(1) / (u_c0[0]))) : (T(0)));
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_y, const float* __restrict__ x_A, const float* __restrict__ x_y, const float* __restrict__ u_c0, const long long n_j, const long long n_i) {
    tr_reductions_matrix_min_pb1_body<float>(b_A, mode_b_A, b_y, x_A, x_y, u_c0, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_matrix_min_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_y, const double* __restrict__ x_A, const double* __restrict__ x_y, const double* __restrict__ u_c0, const long long n_j, const long long n_i) {
    tr_reductions_matrix_min_pb1_body<double>(b_A, mode_b_A, b_y, x_A, x_y, u_c0, n_j, n_i);
}

// tr_reductions_product_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_product_fwd0_body(T* __restrict__ x_y, const int mode_x_y) {
    const long long total = 1LL;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const T r1 = T(1);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd0_f32(float* __restrict__ x_y, const int mode_x_y) {
    tr_reductions_product_fwd0_body<float>(x_y, mode_x_y);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd0_f64(double* __restrict__ x_y, const int mode_x_y) {
    tr_reductions_product_fwd0_body<double>(x_y, mode_x_y);
}

// tr_reductions_product_fwd1_rows: product, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_product_fwd1_rows_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(1);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = tr_combine<2>(acc0, ((stage & 1) ? s_x_x[t] : x_x[q0]));
        }
    }
    if (active) {
        tr_store_op<2>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd1_rows_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_product_fwd1_rows_body<float>(x_y, mode_x_y, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd1_rows_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_product_fwd1_rows_body<double>(x_y, mode_x_y, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_reductions_product_fwd1_warp: product, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_product_fwd1_warp_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(1);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = tr_combine<2>(acc0, x_x[q0]);
    }
    acc0 = tr_warp_op<2>(acc0);
    if (lane == 0) {
        tr_store_op<2>(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd1_warp_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_product_fwd1_warp_body<float>(x_y, mode_x_y, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_fwd1_warp_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_product_fwd1_warp_body<double>(x_y, mode_x_y, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_reductions_product_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_product_jvp2_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_x, const long long n_i) {
    const long long total = 1LL;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        // the product of the other factors along the reduced axis: suffix products, then times the prefix ones
        T suf = T(1);
        for (long long q = n_i - 1; q >= 0; --q) {
            const long long o = q;
            u_c0[o] = suf;
            suf *= x_x[o];
        }
        T pre = T(1);
        for (long long q = 0; q < n_i; ++q) {
            const long long o = q;
            const T v = x_x[o];
            u_c0[o] *= pre;
            pre *= v;
        }
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp2_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_x, const long long n_i) {
    tr_reductions_product_jvp2_body<float>(u_c0, mode_u_c0, x_x, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp2_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_x, const long long n_i) {
    tr_reductions_product_jvp2_body<double>(u_c0, mode_u_c0, x_x, n_i);
}

// tr_reductions_product_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_product_jvp3_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ u_c0, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_c0 = sh;
    T* const s_d_x = s_u_c0 + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_u_c0[z] = u_c0[z0];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_c0[t] : u_c0[q0])*((stage & 2) ? s_d_x[t] : tr_ld(d_x, q0));
        }
    }
    if (active) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp3_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ u_c0, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_product_jvp3_rows_body<float>(d_y, mode_d_y, u_c0, d_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp3_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ u_c0, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_product_jvp3_rows_body<double>(d_y, mode_d_y, u_c0, d_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_reductions_product_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_product_jvp3_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ u_c0, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_c0[q0]*tr_ld(d_x, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp3_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ u_c0, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_product_jvp3_warp_body<float>(d_y, mode_d_y, u_c0, d_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_jvp3_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ u_c0, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_product_jvp3_warp_body<double>(d_y, mode_d_y, u_c0, d_x, n_i, nrows, nk, chunk, wpr);
}

// tr_reductions_product_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_product_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ u_c0, const T* __restrict__ b_y, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = u_c0[e]*tr_ld(b_y, 0);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ u_c0, const float* __restrict__ b_y, const long long n_i) {
    tr_reductions_product_pb1_body<float>(b_x, mode_b_x, u_c0, b_y, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_product_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ u_c0, const double* __restrict__ b_y, const long long n_i) {
    tr_reductions_product_pb1_body<double>(b_x, mode_b_x, u_c0, b_y, n_i);
}

// tr_reductions_row_logsumexp_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd0_body(T* __restrict__ x_m, const int mode_x_m, const long long n_b) {
    const long long total = n_b;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = (-T(INFINITY));
        tr_store(x_m, e, r1, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd0_f32(float* __restrict__ x_m, const int mode_x_m, const long long n_b) {
    tr_reductions_row_logsumexp_fwd0_body<float>(x_m, mode_x_m, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd0_f64(double* __restrict__ x_m, const int mode_x_m, const long long n_b) {
    tr_reductions_row_logsumexp_fwd0_body<double>(x_m, mode_x_m, n_b);
}

// tr_reductions_row_logsumexp_fwd1_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd1_rows_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_z = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = (-T(INFINITY));
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_z[z] = x_z[w0 * n_k + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = tr_combine<0>(acc0, ((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_k + q0]));
        }
    }
    if (active) {
        tr_store_op<0>(x_m, row, acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd1_rows_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd1_rows_body<float>(x_m, mode_x_m, x_z, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd1_rows_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd1_rows_body<double>(x_m, mode_x_m, x_z, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_logsumexp_fwd1_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd1_warp_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = (-T(INFINITY));
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = tr_combine<0>(acc0, x_z[i0 * n_k + q0]);
    }
    acc0 = tr_warp_op<0>(acc0);
    if (lane == 0) {
        tr_store_op<0>(x_m, row, acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd1_warp_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd1_warp_body<float>(x_m, mode_x_m, x_z, n_b, n_k, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd1_warp_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd1_warp_body<double>(x_m, mode_x_m, x_z, n_b, n_k, nrows, nk, chunk, wpr);
}

// tr_reductions_row_logsumexp_fwd2_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd2_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_z, const T* __restrict__ x_m, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_z = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_z[z] = x_z[w0 * n_k + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, -x_m[i0] + ((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_k + q0]));
        }
    }
    if (active) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd2_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_z, const float* __restrict__ x_m, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd2_rows_body<float>(u_c0, mode_u_c0, x_z, x_m, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd2_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_z, const double* __restrict__ x_m, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd2_rows_body<double>(u_c0, mode_u_c0, x_z, x_m, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_logsumexp_fwd2_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd2_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_m, const T* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = fmax(acc0, -x_m[i0] + x_z[i0 * n_k + q0]);
    }
    acc0 = tr_warp_max(acc0);
    if (lane == 0) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd2_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_m, const float* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd2_warp_body<float>(u_c0, mode_u_c0, x_m, x_z, n_b, n_k, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd2_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_m, const double* __restrict__ x_z, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd2_warp_body<double>(u_c0, mode_u_c0, x_m, x_z, n_b, n_k, nrows, nk, chunk, wpr);
}

// tr_reductions_row_logsumexp_fwd3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd3_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_z, const T* __restrict__ x_m, const T* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_z = sh;
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
                const long long z0 = kk;
                const long long w0 = p;
                s_x_z[z] = x_z[w0 * n_k + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += exp(-x_m[i0] + ((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_k + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd3_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_z, const float* __restrict__ x_m, const float* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd3_rows_body<float>(u_c1, mode_u_c1, x_z, x_m, u_c0, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd3_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_z, const double* __restrict__ x_m, const double* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_fwd3_rows_body<double>(u_c1, mode_u_c1, x_z, x_m, u_c0, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_logsumexp_fwd3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd3_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_m, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += exp(-x_m[i0] + x_z[i0 * n_k + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd3_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_m, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd3_warp_body<float>(u_c1, mode_u_c1, x_m, x_z, u_c0, n_b, n_k, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd3_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_m, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_fwd3_warp_body<double>(u_c1, mode_u_c1, x_m, x_z, u_c0, n_b, n_k, nrows, nk, chunk, wpr);
}

// tr_reductions_row_logsumexp_fwd4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_fwd4_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ x_m, const T* __restrict__ u_c0, const long long n_b) {
    const long long total = n_b;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = log(u_c1[e]) + (x_m[e] + tr_shift(u_c0[e]));
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd4_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ x_m, const float* __restrict__ u_c0, const long long n_b) {
    tr_reductions_row_logsumexp_fwd4_body<float>(x_y, mode_x_y, u_c1, x_m, u_c0, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_fwd4_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ x_m, const double* __restrict__ u_c0, const long long n_b) {
    tr_reductions_row_logsumexp_fwd4_body<double>(x_y, mode_x_y, u_c1, x_m, u_c0, n_b);
}

// tr_reductions_row_logsumexp_jvp5_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_jvp5_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_z, const T* __restrict__ x_z, const T* __restrict__ x_m, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_z = sh;
    T* const s_x_z = s_d_z + ((stage & 1) ? (long long)tile * (n_b) : 0LL);
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
                const long long z0 = kk;
                const long long w0 = p;
                s_d_z[z] = tr_ld(d_z, w0 * n_k + z0);
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_z[z] = x_z[w0 * n_k + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_z[t * n_b + i0] : tr_ld(d_z, i0 * n_k + q0))*exp(-x_m[i0] + ((stage & 2) ? s_x_z[t * n_b + i0] : x_z[i0 * n_k + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store(d_y, row, (T(1) / (u_c1[i0])) * acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_jvp5_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_z, const float* __restrict__ x_z, const float* __restrict__ x_m, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_jvp5_rows_body<float>(d_y, mode_d_y, d_z, x_z, x_m, u_c0, u_c1, n_b, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_jvp5_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_z, const double* __restrict__ x_z, const double* __restrict__ x_m, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_reductions_row_logsumexp_jvp5_rows_body<double>(d_y, mode_d_y, d_z, x_z, x_m, u_c0, u_c1, n_b, n_k, nrows, nk, chunk, tile, stage);
}

// tr_reductions_row_logsumexp_jvp5_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_jvp5_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_z, const T* __restrict__ x_m, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_z, i0 * n_k + q0)*exp(-x_m[i0] + x_z[i0 * n_k + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, (T(1) / (u_c1[i0])) * acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_jvp5_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_z, const float* __restrict__ x_m, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_jvp5_warp_body<float>(d_y, mode_d_y, d_z, x_m, x_z, u_c0, u_c1, n_b, n_k, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_jvp5_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_z, const double* __restrict__ x_m, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_b, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_reductions_row_logsumexp_jvp5_warp_body<double>(d_y, mode_d_y, d_z, x_m, x_z, u_c0, u_c1, n_b, n_k, nrows, nk, chunk, wpr);
}

// tr_reductions_row_logsumexp_pb2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_reductions_row_logsumexp_pb2_body(T* __restrict__ b_z, const int mode_b_z, const T* __restrict__ b_y, const T* __restrict__ x_m, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_k, const long long n_b) {
    const long long total = n_b * n_k;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_k; rem1 /= n_k;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_y, e0)*exp(-x_m[e0] + x_z[e] - tr_shift(u_c0[e0]))/u_c1[e0];
        tr_store(b_z, e, r2, mode_b_z);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_pb2_f32(float* __restrict__ b_z, const int mode_b_z, const float* __restrict__ b_y, const float* __restrict__ x_m, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_k, const long long n_b) {
    tr_reductions_row_logsumexp_pb2_body<float>(b_z, mode_b_z, b_y, x_m, x_z, u_c0, u_c1, n_k, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_reductions_row_logsumexp_pb2_f64(double* __restrict__ b_z, const int mode_b_z, const double* __restrict__ b_y, const double* __restrict__ x_m, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_k, const long long n_b) {
    tr_reductions_row_logsumexp_pb2_body<double>(b_z, mode_b_z, b_y, x_m, x_z, u_c0, u_c1, n_k, n_b);
}
