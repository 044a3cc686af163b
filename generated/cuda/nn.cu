// @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
// Kernels for sum, mean, logsumexp, softmax, log_softmax, dense, linear, mse, cross_entropy, gaussian_kernel_sum: each has a float32 (_f32) and a float64 (_f64) extern "C"
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

// tr_nn_sum_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_sum_fwd0_rows_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
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
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_fwd0_rows_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_sum_fwd0_rows_body<float>(x_s, mode_x_s, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_fwd0_rows_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_sum_fwd0_rows_body<double>(x_s, mode_x_s, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_sum_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_sum_fwd0_warp_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_fwd0_warp_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_sum_fwd0_warp_body<float>(x_s, mode_x_s, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_fwd0_warp_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_sum_fwd0_warp_body<double>(x_s, mode_x_s, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_sum_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_sum_jvp1_rows_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
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
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0));
        }
    }
    if (active) {
        tr_store(d_s, row, acc0, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_jvp1_rows_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_sum_jvp1_rows_body<float>(d_s, mode_d_s, d_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_jvp1_rows_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_sum_jvp1_rows_body<double>(d_s, mode_d_s, d_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_sum_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_sum_jvp1_warp_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_s, row, acc0, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_jvp1_warp_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_sum_jvp1_warp_body<float>(d_s, mode_d_s, d_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_jvp1_warp_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_sum_jvp1_warp_body<double>(d_s, mode_d_s, d_x, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_sum_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_sum_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_s, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(b_s, 0);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_s, const long long n_i) {
    tr_nn_sum_pb0_body<float>(b_x, mode_b_x, b_s, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_sum_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_s, const long long n_i) {
    tr_nn_sum_pb0_body<double>(b_x, mode_b_x, b_s, n_i);
}

// tr_nn_mean_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_mean_fwd0_rows_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
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
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(x_m, row, (T(1) / (T(n_i))) * acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_fwd0_rows_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mean_fwd0_rows_body<float>(x_m, mode_x_m, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_fwd0_rows_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mean_fwd0_rows_body<double>(x_m, mode_x_m, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_mean_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_mean_fwd0_warp_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_m, row, (T(1) / (T(n_i))) * acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_fwd0_warp_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mean_fwd0_warp_body<float>(x_m, mode_x_m, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_fwd0_warp_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mean_fwd0_warp_body<double>(x_m, mode_x_m, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_mean_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_mean_jvp1_rows_body(T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
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
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0));
        }
    }
    if (active) {
        tr_store(d_m, row, (T(1) / (T(n_i))) * acc0, mode_d_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_jvp1_rows_f32(float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mean_jvp1_rows_body<float>(d_m, mode_d_m, d_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_jvp1_rows_f64(double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mean_jvp1_rows_body<double>(d_m, mode_d_m, d_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_mean_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_mean_jvp1_warp_body(T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_m, row, (T(1) / (T(n_i))) * acc0, mode_d_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_jvp1_warp_f32(float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mean_jvp1_warp_body<float>(d_m, mode_d_m, d_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_jvp1_warp_f64(double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mean_jvp1_warp_body<double>(d_m, mode_d_m, d_x, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_mean_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_mean_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_m, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(b_m, 0)/T(n_i);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_m, const long long n_i) {
    tr_nn_mean_pb0_body<float>(b_x, mode_b_x, b_m, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mean_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_m, const long long n_i) {
    tr_nn_mean_pb0_body<double>(b_x, mode_b_x, b_m, n_i);
}

// tr_nn_logsumexp_fwd0_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_fwd0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
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
            acc0 = fmax(acc0, ((stage & 1) ? s_x_x[t] : x_x[q0]));
        }
    }
    if (active) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_fwd0_rows_body<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_fwd0_rows_body<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_logsumexp_fwd0_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_fwd0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = fmax(acc0, x_x[q0]);
    }
    acc0 = tr_warp_max(acc0);
    if (lane == 0) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_fwd0_warp_body<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_fwd0_warp_body<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_logsumexp_fwd1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_fwd1_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
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
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += exp(((stage & 1) ? s_x_x[t] : x_x[q0]) - tr_shift(u_c0[0]));
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd1_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_fwd1_rows_body<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd1_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_fwd1_rows_body<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_logsumexp_fwd1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_fwd1_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += exp(x_x[q0] - tr_shift(u_c0[0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd1_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_fwd1_warp_body<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd1_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_fwd1_warp_body<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_logsumexp_fwd2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ u_c0) {
    const long long total = 1LL;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const T r1 = log(u_c1[0]) + tr_shift(u_c0[0]);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ u_c0) {
    tr_nn_logsumexp_fwd2_body<float>(x_y, mode_x_y, u_c1, u_c0);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ u_c0) {
    tr_nn_logsumexp_fwd2_body<double>(x_y, mode_x_y, u_c1, u_c0);
}

// tr_nn_logsumexp_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_jvp3_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
    T* const s_x_x = s_d_x + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage & 2) {
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
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0))*exp(((stage & 2) ? s_x_x[t] : x_x[q0]) - tr_shift(u_c0[0]));
        }
    }
    if (active) {
        tr_store(d_y, row, (T(1) / (u_c1[0])) * acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_jvp3_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_jvp3_rows_body<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_jvp3_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_logsumexp_jvp3_rows_body<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_logsumexp_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_jvp3_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*exp(x_x[q0] - tr_shift(u_c0[0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, (T(1) / (u_c1[0])) * acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_jvp3_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_jvp3_warp_body<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_jvp3_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_logsumexp_jvp3_warp_body<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_logsumexp_pb2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_logsumexp_pb2_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(b_y, 0)*exp(x_x[e] - tr_shift(u_c0[0]))/u_c1[0];
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_pb2_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i) {
    tr_nn_logsumexp_pb2_body<float>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_logsumexp_pb2_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i) {
    tr_nn_logsumexp_pb2_body<double>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i);
}

// tr_nn_softmax_fwd2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = exp(x_x[e] - tr_shift(u_c0[0]))/u_c1[0];
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i) {
    tr_nn_softmax_fwd2_body<float>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i) {
    tr_nn_softmax_fwd2_body<double>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i);
}

// tr_nn_softmax_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_jvp3_rows_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
    T* const s_x_y = s_d_x + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_y[z] = x_y[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0))*((stage & 2) ? s_x_y[t] : x_y[q0]);
        }
    }
    if (active) {
        tr_store(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp3_rows_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_softmax_jvp3_rows_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp3_rows_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_softmax_jvp3_rows_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_softmax_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_jvp3_warp_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*x_y[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp3_warp_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_softmax_jvp3_warp_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp3_warp_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_softmax_jvp3_warp_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_softmax_jvp4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(d_x, e) - v1*tr_ld(u_c2, 0);
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    tr_nn_softmax_jvp4_body<float>(d_y, mode_d_y, x_y, d_x, u_c2, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    tr_nn_softmax_jvp4_body<double>(d_y, mode_d_y, x_y, d_x, u_c2, n_i);
}

// tr_nn_softmax_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_pb0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_y = sh;
    T* const s_x_y = s_b_y + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                s_b_y[z] = tr_ld(b_y, z0);
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_y[z] = x_y[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_b_y[t] : tr_ld(b_y, q0))*((stage & 2) ? s_x_y[t] : x_y[q0]);
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_softmax_pb0_rows_body<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_softmax_pb0_rows_body<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_softmax_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(b_y, q0)*x_y[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_softmax_pb0_warp_body<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_softmax_pb0_warp_body<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_softmax_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_y, const T* __restrict__ b_y, const T* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(b_y, e) - v1*tr_ld(u_c0, 0);
        tr_store(b_x, e, r2, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_y, const float* __restrict__ b_y, const float* __restrict__ u_c0, const long long n_i) {
    tr_nn_softmax_pb1_body<float>(b_x, mode_b_x, x_y, b_y, u_c0, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_y, const double* __restrict__ b_y, const double* __restrict__ u_c0, const long long n_i) {
    tr_nn_softmax_pb1_body<double>(b_x, mode_b_x, x_y, b_y, u_c0, n_i);
}

// tr_nn_log_softmax_fwd2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = -log(u_c1[0]) + (x_x[e] - tr_shift(u_c0[0]));
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i) {
    tr_nn_log_softmax_fwd2_body<float>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i) {
    tr_nn_log_softmax_fwd2_body<double>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i);
}

// tr_nn_log_softmax_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_jvp3_rows_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
    T* const s_x_y = s_d_x + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_y[z] = x_y[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0))*exp(((stage & 2) ? s_x_y[t] : x_y[q0]));
        }
    }
    if (active) {
        tr_store(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp3_rows_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_log_softmax_jvp3_rows_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp3_rows_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_log_softmax_jvp3_rows_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_log_softmax_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_jvp3_warp_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*exp(x_y[q0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp3_warp_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_log_softmax_jvp3_warp_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp3_warp_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_log_softmax_jvp3_warp_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_log_softmax_jvp4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(d_x, e) - tr_ld(u_c2, 0);
        tr_store(d_y, e, r1, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    tr_nn_log_softmax_jvp4_body<float>(d_y, mode_d_y, d_x, u_c2, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    tr_nn_log_softmax_jvp4_body<double>(d_y, mode_d_y, d_x, u_c2, n_i);
}

// tr_nn_log_softmax_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_pb0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_y = sh;
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
                s_b_y[z] = tr_ld(b_y, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_b_y[t] : tr_ld(b_y, q0));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_log_softmax_pb0_rows_body<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_log_softmax_pb0_rows_body<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_log_softmax_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(b_y, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_log_softmax_pb0_warp_body<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_log_softmax_pb0_warp_body<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_log_softmax_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_log_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ u_c0, const T* __restrict__ x_y, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(b_y, e) - tr_ld(u_c0, 0)*exp(x_y[e]);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ u_c0, const float* __restrict__ x_y, const long long n_i) {
    tr_nn_log_softmax_pb1_body<float>(b_x, mode_b_x, b_y, u_c0, x_y, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_log_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ u_c0, const double* __restrict__ x_y, const long long n_i) {
    tr_nn_log_softmax_pb1_body<double>(b_x, mode_b_x, b_y, u_c0, x_y, n_i);
}

// tr_nn_dense_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_dense_fwd0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_W, const T* __restrict__ x_x, const long long n_b, const long long n_o, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_b; rem1 /= n_b;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_W[i0 * n_i + q0]*x_x[i1 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_fwd0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_W, const float* __restrict__ x_x, const long long n_b, const long long n_o, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_fwd0_warp_body<float>(u_c0, mode_u_c0, x_W, x_x, n_b, n_o, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_fwd0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_W, const double* __restrict__ x_x, const long long n_b, const long long n_o, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_fwd0_warp_body<double>(u_c0, mode_u_c0, x_W, x_x, n_b, n_o, n_i, nrows, nk, chunk, wpr);
}

// tr_nn_dense_fwd1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_dense_fwd1_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c0, const T* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T r2 = tanh(u_c0[e1 * n_b + e0] + x_c[e1]);
        tr_store(x_y, e, r2, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_fwd1_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c0, const float* __restrict__ x_c, const long long n_o, const long long n_b) {
    tr_nn_dense_fwd1_body<float>(x_y, mode_x_y, u_c0, x_c, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_fwd1_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c0, const double* __restrict__ x_c, const long long n_o, const long long n_b) {
    tr_nn_dense_fwd1_body<double>(x_y, mode_x_y, u_c0, x_c, n_o, n_b);
}

// tr_nn_dense_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_dense_jvp2_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_W, const T* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_o; rem1 /= n_o;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_W[i1 * n_i + q0]*tr_ld(d_x, i0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp2_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_W, const float* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_jvp2_warp_body<float>(u_c1, mode_u_c1, x_W, d_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp2_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_W, const double* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_jvp2_warp_body<double>(u_c1, mode_u_c1, x_W, d_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_dense_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_dense_jvp3_warp_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_W, const T* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_o; rem1 /= n_o;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_W, i1 * n_i + q0)*x_x[i0 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp3_warp_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_W, const float* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_jvp3_warp_body<float>(u_c2, mode_u_c2, d_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp3_warp_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_W, const double* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_jvp3_warp_body<double>(u_c2, mode_u_c2, d_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_dense_jvp4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_dense_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_c, const T* __restrict__ u_c1, const T* __restrict__ u_c2, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T v2 = T(1) - tr_sq(x_y[e]);
        const T r3 = v2*tr_ld(d_c, e1) + v2*tr_ld(u_c1, e) + v2*tr_ld(u_c2, e);
        tr_store(d_y, e, r3, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_c, const float* __restrict__ u_c1, const float* __restrict__ u_c2, const long long n_o, const long long n_b) {
    tr_nn_dense_jvp4_body<float>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_c, const double* __restrict__ u_c1, const double* __restrict__ u_c2, const long long n_o, const long long n_b) {
    tr_nn_dense_jvp4_body<double>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b);
}

// tr_nn_dense_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_dense_pb0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_y, const T* __restrict__ b_y, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T r2 = (T(1) - tr_sq(x_y[e]))*tr_ld(b_y, e);
        tr_store(u_c0, e, r2, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_y, const float* __restrict__ b_y, const long long n_o, const long long n_b) {
    tr_nn_dense_pb0_body<float>(u_c0, mode_u_c0, x_y, b_y, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_y, const double* __restrict__ b_y, const long long n_o, const long long n_b) {
    tr_nn_dense_pb0_body<double>(u_c0, mode_u_c0, x_y, b_y, n_o, n_b);
}

// tr_nn_dense_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_dense_pb1_rows_body(T* __restrict__ b_W, const int mode_b_W, const T* __restrict__ u_c0, const T* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_c0 = sh;
    T* const s_x_x = s_u_c0 + ((stage & 1) ? (long long)tile * (n_o) : 0LL);
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
            const long long per = n_o;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_u_c0[z] = tr_ld(u_c0, z0 * n_o + w1);
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_x[z] = x_x[z0 * n_i + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_c0[t * n_o + i0] : tr_ld(u_c0, q0 * n_o + i0))*((stage & 2) ? s_x_x[t * n_i + i1] : x_x[q0 * n_i + i1]);
        }
    }
    if (active) {
        tr_store(b_W, row, acc0, mode_b_W);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb1_rows_f32(float* __restrict__ b_W, const int mode_b_W, const float* __restrict__ u_c0, const float* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb1_rows_body<float>(b_W, mode_b_W, u_c0, x_x, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb1_rows_f64(double* __restrict__ b_W, const int mode_b_W, const double* __restrict__ u_c0, const double* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb1_rows_body<double>(b_W, mode_b_W, u_c0, x_x, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_dense_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_dense_pb2_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_W, const T* __restrict__ u_c0, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_W = sh;
    T* const s_u_c0 = s_x_W + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_W[z] = x_W[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, w0 * n_o + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_W[t * n_i + i1] : x_W[q0 * n_i + i1])*((stage & 2) ? s_u_c0[t * n_b + i0] : tr_ld(u_c0, i0 * n_o + q0));
        }
    }
    if (active) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb2_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_W, const float* __restrict__ u_c0, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb2_rows_body<float>(b_x, mode_b_x, x_W, u_c0, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb2_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_W, const double* __restrict__ u_c0, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb2_rows_body<double>(b_x, mode_b_x, x_W, u_c0, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_dense_pb3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_dense_pb3_rows_body(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_y = sh;
    T* const s_x_y = s_b_y + ((stage & 1) ? (long long)tile * (n_o) : 0LL);
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
            const long long per = n_o;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_y[z] = tr_ld(b_y, z0 * n_o + w1);
            }
        }
        if (stage & 2) {
            const long long per = n_o;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_y[z] = x_y[z0 * n_o + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += (T(1) - tr_sq(((stage & 2) ? s_x_y[t * n_o + i0] : x_y[q0 * n_o + i0])))*((stage & 1) ? s_b_y[t * n_o + i0] : tr_ld(b_y, q0 * n_o + i0));
        }
    }
    if (active) {
        tr_store(b_c, row, acc0, mode_b_c);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb3_rows_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb3_rows_body<float>(b_c, mode_b_c, b_y, x_y, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb3_rows_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_dense_pb3_rows_body<double>(b_c, mode_b_c, b_y, x_y, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_dense_pb3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_dense_pb3_warp_body(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ x_y, const T* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += (T(1) - tr_sq(x_y[q0 * n_o + i0]))*tr_ld(b_y, q0 * n_o + i0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_c, row, acc0, mode_b_c);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb3_warp_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ x_y, const float* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_pb3_warp_body<float>(b_c, mode_b_c, x_y, b_y, n_b, n_o, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_dense_pb3_warp_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ x_y, const double* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_dense_pb3_warp_body<double>(b_c, mode_b_c, x_y, b_y, n_b, n_o, nrows, nk, chunk, wpr);
}

// tr_nn_linear_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_linear_fwd0_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T r2 = x_c[e1];
        tr_store(x_y, e, r2, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_fwd0_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_c, const long long n_o, const long long n_b) {
    tr_nn_linear_fwd0_body<float>(x_y, mode_x_y, x_c, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_fwd0_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_c, const long long n_o, const long long n_b) {
    tr_nn_linear_fwd0_body<double>(x_y, mode_x_y, x_c, n_o, n_b);
}

// tr_nn_linear_fwd1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_linear_fwd1_warp_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_W, const T* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_o; rem1 /= n_o;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_W[i1 * n_i + q0]*x_x[i0 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_fwd1_warp_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_W, const float* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_fwd1_warp_body<float>(x_y, mode_x_y, x_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_fwd1_warp_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_W, const double* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_fwd1_warp_body<double>(x_y, mode_x_y, x_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_linear_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_linear_jvp2_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T r2 = tr_ld(d_c, e1);
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp2_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_c, const long long n_o, const long long n_b) {
    tr_nn_linear_jvp2_body<float>(d_y, mode_d_y, d_c, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp2_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_c, const long long n_o, const long long n_b) {
    tr_nn_linear_jvp2_body<double>(d_y, mode_d_y, d_c, n_o, n_b);
}

// tr_nn_linear_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_linear_jvp3_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_W, const T* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_o; rem1 /= n_o;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_W[i1 * n_i + q0]*tr_ld(d_x, i0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp3_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_W, const float* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_jvp3_warp_body<float>(d_y, mode_d_y, x_W, d_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp3_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_W, const double* __restrict__ d_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_jvp3_warp_body<double>(d_y, mode_d_y, x_W, d_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_linear_jvp4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_linear_jvp4_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_W, const T* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_o; rem1 /= n_o;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_W, i1 * n_i + q0)*x_x[i0 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_y, row, acc0, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp4_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_W, const float* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_jvp4_warp_body<float>(d_y, mode_d_y, d_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_jvp4_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_W, const double* __restrict__ x_x, const long long n_o, const long long n_i, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_jvp4_warp_body<double>(d_y, mode_d_y, d_W, x_x, n_o, n_i, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_linear_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_linear_pb0_rows_body(T* __restrict__ b_W, const int mode_b_W, const T* __restrict__ b_y, const T* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_y = sh;
    T* const s_x_x = s_b_y + ((stage & 1) ? (long long)tile * (n_o) : 0LL);
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
            const long long per = n_o;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_y[z] = tr_ld(b_y, z0 * n_o + w1);
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_x[z] = x_x[z0 * n_i + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_b_y[t * n_o + i0] : tr_ld(b_y, q0 * n_o + i0))*((stage & 2) ? s_x_x[t * n_i + i1] : x_x[q0 * n_i + i1]);
        }
    }
    if (active) {
        tr_store(b_W, row, acc0, mode_b_W);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb0_rows_f32(float* __restrict__ b_W, const int mode_b_W, const float* __restrict__ b_y, const float* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb0_rows_body<float>(b_W, mode_b_W, b_y, x_x, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb0_rows_f64(double* __restrict__ b_W, const int mode_b_W, const double* __restrict__ b_y, const double* __restrict__ x_x, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb0_rows_body<double>(b_W, mode_b_W, b_y, x_x, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_linear_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_linear_pb1_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_W, const T* __restrict__ b_y, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_W = sh;
    T* const s_b_y = s_x_W + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_W[z] = x_W[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_b_y[z] = tr_ld(b_y, w0 * n_o + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_W[t * n_i + i1] : x_W[q0 * n_i + i1])*((stage & 2) ? s_b_y[t * n_b + i0] : tr_ld(b_y, i0 * n_o + q0));
        }
    }
    if (active) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb1_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_W, const float* __restrict__ b_y, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb1_rows_body<float>(b_x, mode_b_x, x_W, b_y, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb1_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_W, const double* __restrict__ b_y, const long long n_i, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb1_rows_body<double>(b_x, mode_b_x, x_W, b_y, n_i, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_linear_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_linear_pb2_rows_body(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_y = sh;
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
            const long long per = n_o;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_y[z] = tr_ld(b_y, z0 * n_o + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_b_y[t * n_o + i0] : tr_ld(b_y, q0 * n_o + i0));
        }
    }
    if (active) {
        tr_store(b_c, row, acc0, mode_b_c);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb2_rows_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb2_rows_body<float>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb2_rows_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_linear_pb2_rows_body<double>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_linear_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_linear_pb2_warp_body(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(b_y, q0 * n_o + i0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_c, row, acc0, mode_b_c);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb2_warp_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_pb2_warp_body<float>(b_c, mode_b_c, b_y, n_b, n_o, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_linear_pb2_warp_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ b_y, const long long n_b, const long long n_o, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_linear_pb2_warp_body<double>(b_c, mode_b_c, b_y, n_b, n_o, nrows, nk, chunk, wpr);
}

// tr_nn_mse_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_mse_fwd0_rows_body(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ x_p, const T* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_p = sh;
    T* const s_x_t = s_x_p + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                const long long z1 = rem2 % n_o; rem2 /= n_o;
                const long long z0 = rem2;
                s_x_p[z] = x_p[z0 * n_o + z1];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_o; rem3 /= n_o;
                const long long z0 = rem3;
                s_x_t[z] = x_t[z0 * n_o + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_o; rem1 /= n_o;
            const long long q0 = rem1;
            acc0 += tr_sq(((stage & 1) ? s_x_p[t] : x_p[q0 * n_o + q1]) - ((stage & 2) ? s_x_t[t] : x_t[q0 * n_o + q1]));
        }
    }
    if (active) {
        tr_store(x_L, row, T(1)/(T(n_b)*T(n_o)) * acc0, mode_x_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_fwd0_rows_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ x_p, const float* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mse_fwd0_rows_body<float>(x_L, mode_x_L, x_p, x_t, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_fwd0_rows_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ x_p, const double* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mse_fwd0_rows_body<double>(x_L, mode_x_L, x_p, x_t, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_mse_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_mse_fwd0_warp_body(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ x_p, const T* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_o; rem1 /= n_o;
            const long long q0 = rem1;
            acc0 += tr_sq(x_p[q0 * n_o + q1] - x_t[q0 * n_o + q1]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_L, row, T(1)/(T(n_b)*T(n_o)) * acc0, mode_x_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_fwd0_warp_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ x_p, const float* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mse_fwd0_warp_body<float>(x_L, mode_x_L, x_p, x_t, n_o, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_fwd0_warp_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ x_p, const double* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mse_fwd0_warp_body<double>(x_L, mode_x_L, x_p, x_t, n_o, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_mse_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_mse_jvp1_rows_body(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ d_p, const T* __restrict__ d_t, const T* __restrict__ x_p, const T* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_p = sh;
    T* const s_d_t = s_d_p + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_p = s_d_t + ((stage & 2) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_t = s_x_p + ((stage & 4) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_o; rem2 /= n_o;
                const long long z0 = rem2;
                s_d_p[z] = tr_ld(d_p, z0 * n_o + z1);
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_o; rem3 /= n_o;
                const long long z0 = rem3;
                s_d_t[z] = tr_ld(d_t, z0 * n_o + z1);
            }
        }
        if (stage & 4) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem4 = kk;
                const long long z1 = rem4 % n_o; rem4 /= n_o;
                const long long z0 = rem4;
                s_x_p[z] = x_p[z0 * n_o + z1];
            }
        }
        if (stage & 8) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem5 = kk;
                const long long z1 = rem5 % n_o; rem5 /= n_o;
                const long long z0 = rem5;
                s_x_t[z] = x_t[z0 * n_o + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_o; rem1 /= n_o;
            const long long q0 = rem1;
            const T v6 = ((stage & 4) ? s_x_p[t] : x_p[q0 * n_o + q1]) - ((stage & 8) ? s_x_t[t] : x_t[q0 * n_o + q1]);
            acc0 += -v6*((stage & 2) ? s_d_t[t] : tr_ld(d_t, q0 * n_o + q1));
            acc1 += v6*((stage & 1) ? s_d_p[t] : tr_ld(d_p, q0 * n_o + q1));
        }
    }
    if (active) {
        const T v7 = T(2)/(T(n_b)*T(n_o));
        tr_store(d_L, row, v7 * acc0 + v7 * acc1, mode_d_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_jvp1_rows_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ d_p, const float* __restrict__ d_t, const float* __restrict__ x_p, const float* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mse_jvp1_rows_body<float>(d_L, mode_d_L, d_p, d_t, x_p, x_t, n_o, n_b, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_jvp1_rows_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ d_p, const double* __restrict__ d_t, const double* __restrict__ x_p, const double* __restrict__ x_t, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_mse_jvp1_rows_body<double>(d_L, mode_d_L, d_p, d_t, x_p, x_t, n_o, n_b, nrows, nk, chunk, tile, stage);
}

// tr_nn_mse_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_mse_jvp1_warp_body(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ x_p, const T* __restrict__ x_t, const T* __restrict__ d_t, const T* __restrict__ d_p, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_o; rem1 /= n_o;
            const long long q0 = rem1;
            const T v2 = x_p[q0 * n_o + q1] - x_t[q0 * n_o + q1];
            acc0 += -v2*tr_ld(d_t, q0 * n_o + q1);
            acc1 += v2*tr_ld(d_p, q0 * n_o + q1);
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        const T v3 = T(2)/(T(n_b)*T(n_o));
        tr_store(d_L, row, v3 * acc0 + v3 * acc1, mode_d_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_jvp1_warp_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ x_p, const float* __restrict__ x_t, const float* __restrict__ d_t, const float* __restrict__ d_p, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mse_jvp1_warp_body<float>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_o, n_b, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_jvp1_warp_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ x_p, const double* __restrict__ x_t, const double* __restrict__ d_t, const double* __restrict__ d_p, const long long n_o, const long long n_b, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_mse_jvp1_warp_body<double>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_o, n_b, nrows, nk, chunk, wpr);
}

// tr_nn_mse_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_mse_pb0_body(T* __restrict__ b_p, const int mode_b_p, T* __restrict__ b_t, const int mode_b_t, const T* __restrict__ x_p, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_o; rem1 /= n_o;
        const long long e0 = rem1;
        const T r2 = T(2)*(x_p[e] - x_t[e])*tr_ld(b_L, 0)/(T(n_b)*T(n_o));
        tr_store(b_p, e, r2, mode_b_p);
        const T r3 = T(2)*(-x_p[e] + x_t[e])*tr_ld(b_L, 0)/(T(n_b)*T(n_o));
        tr_store(b_t, e, r3, mode_b_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_pb0_f32(float* __restrict__ b_p, const int mode_b_p, float* __restrict__ b_t, const int mode_b_t, const float* __restrict__ x_p, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_o, const long long n_b) {
    tr_nn_mse_pb0_body<float>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_o, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_mse_pb0_f64(double* __restrict__ b_p, const int mode_b_p, double* __restrict__ b_t, const int mode_b_t, const double* __restrict__ x_p, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_o, const long long n_b) {
    tr_nn_mse_pb0_body<double>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_o, n_b);
}

// tr_nn_cross_entropy_fwd0_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd0_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, ((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]));
        }
    }
    if (active) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd0_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd0_rows_body<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd0_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd0_rows_body<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_fwd0_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = fmax(acc0, x_z[i0 * n_c + q0]);
    }
    acc0 = tr_warp_max(acc0);
    if (lane == 0) {
        tr_store_max(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd0_warp_body<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd0_warp_body<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_fwd1_rows: maximum, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd1_rows_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, ((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store_max(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd1_rows_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd1_rows_body<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd1_rows_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd1_rows_body<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_fwd1_warp: maximum, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd1_warp_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = -T(INFINITY);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 = fmax(acc0, x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_max(acc0);
    if (lane == 0) {
        tr_store_max(u_c2, row, acc0, mode_u_c2);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd1_warp_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd1_warp_body<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd1_warp_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd1_warp_body<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_fwd2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd2_rows_body(T* __restrict__ u_c3, const int mode_u_c3, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += exp(((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]) - tr_shift(u_c0[i0]) - tr_shift(u_c2[i0]));
        }
    }
    if (active) {
        tr_store(u_c3, row, acc0, mode_u_c3);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd2_rows_f32(float* __restrict__ u_c3, const int mode_u_c3, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd2_rows_body<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd2_rows_f64(double* __restrict__ u_c3, const int mode_u_c3, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd2_rows_body<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_fwd2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd2_warp_body(T* __restrict__ u_c3, const int mode_u_c3, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]) - tr_shift(u_c2[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c3, row, acc0, mode_u_c3);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd2_warp_f32(float* __restrict__ u_c3, const int mode_u_c3, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd2_warp_body<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd2_warp_f64(double* __restrict__ u_c3, const int mode_u_c3, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd2_warp_body<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_fwd3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd3_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ u_c3, const T* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = -log(u_c3[e]) - tr_shift(u_c2[e]);
        tr_store(u_c1, e, r1, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd3_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ u_c3, const float* __restrict__ u_c2, const long long n_b) {
    tr_nn_cross_entropy_fwd3_body<float>(u_c1, mode_u_c1, u_c3, u_c2, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd3_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ u_c3, const double* __restrict__ u_c2, const long long n_b) {
    tr_nn_cross_entropy_fwd3_body<double>(u_c1, mode_u_c1, u_c3, u_c2, n_b);
}

// tr_nn_cross_entropy_fwd4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd4_rows_body(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ x_t, const T* __restrict__ x_z, const T* __restrict__ u_c1, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_t = sh;
    T* const s_x_z = s_x_t + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                const long long z1 = rem2 % n_b; rem2 /= n_b;
                const long long z0 = rem2;
                s_x_t[z] = x_t[z1 * n_c + z0];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_b; rem3 /= n_b;
                const long long z0 = rem3;
                s_x_z[z] = x_z[z1 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_b; rem1 /= n_b;
            const long long q0 = rem1;
            acc0 += (u_c1[q1] + (((stage & 2) ? s_x_z[t] : x_z[q1 * n_c + q0]) - tr_shift(u_c0[q1])))*((stage & 1) ? s_x_t[t] : x_t[q1 * n_c + q0]);
        }
    }
    if (active) {
        tr_store(x_L, row, -T(1)/T(n_b) * acc0, mode_x_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd4_rows_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ x_t, const float* __restrict__ x_z, const float* __restrict__ u_c1, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd4_rows_body<float>(x_L, mode_x_L, x_t, x_z, u_c1, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd4_rows_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ x_t, const double* __restrict__ x_z, const double* __restrict__ u_c1, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_fwd4_rows_body<double>(x_L, mode_x_L, x_t, x_z, u_c1, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_fwd4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_fwd4_warp_body(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_b; rem1 /= n_b;
            const long long q0 = rem1;
            acc0 += (u_c1[q1] + (x_z[q1 * n_c + q0] - tr_shift(u_c0[q1])))*x_t[q1 * n_c + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_L, row, -T(1)/T(n_b) * acc0, mode_x_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd4_warp_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd4_warp_body<float>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_fwd4_warp_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_fwd4_warp_body<double>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_jvp5_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp5_rows_body(T* __restrict__ u_c4, const int mode_u_c4, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += exp(((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store(u_c4, row, acc0, mode_u_c4);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp5_rows_f32(float* __restrict__ u_c4, const int mode_u_c4, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp5_rows_body<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp5_rows_f64(double* __restrict__ u_c4, const int mode_u_c4, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp5_rows_body<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_jvp5_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp5_warp_body(T* __restrict__ u_c4, const int mode_u_c4, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c4, row, acc0, mode_u_c4);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp5_warp_f32(float* __restrict__ u_c4, const int mode_u_c4, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp5_warp_body<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp5_warp_f64(double* __restrict__ u_c4, const int mode_u_c4, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp5_warp_body<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_jvp6_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp6_rows_body(T* __restrict__ d_lse, const int mode_d_lse, const T* __restrict__ d_z, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_d_z[z] = tr_ld(d_z, w0 * n_c + z0);
            }
        }
        if (stage & 2) {
            const long long per = n_b;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_d_z[t * n_b + i0] : tr_ld(d_z, i0 * n_c + q0))*exp(((stage & 2) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store(d_lse, row, (T(1) / (u_c4[i0])) * acc0, mode_d_lse);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp6_rows_f32(float* __restrict__ d_lse, const int mode_d_lse, const float* __restrict__ d_z, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp6_rows_body<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp6_rows_f64(double* __restrict__ d_lse, const int mode_d_lse, const double* __restrict__ d_z, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp6_rows_body<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_jvp6_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp6_warp_body(T* __restrict__ d_lse, const int mode_d_lse, const T* __restrict__ d_z, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_z, i0 * n_c + q0)*exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_lse, row, (T(1) / (u_c4[i0])) * acc0, mode_d_lse);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp6_warp_f32(float* __restrict__ d_lse, const int mode_d_lse, const float* __restrict__ d_z, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp6_warp_body<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp6_warp_f64(double* __restrict__ d_lse, const int mode_d_lse, const double* __restrict__ d_z, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp6_warp_body<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_jvp7: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp7_body(T* __restrict__ u_c5, const int mode_u_c5, const T* __restrict__ u_c3, const T* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = log(u_c3[e]) + tr_shift(u_c2[e]);
        tr_store(u_c5, e, r1, mode_u_c5);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp7_f32(float* __restrict__ u_c5, const int mode_u_c5, const float* __restrict__ u_c3, const float* __restrict__ u_c2, const long long n_b) {
    tr_nn_cross_entropy_jvp7_body<float>(u_c5, mode_u_c5, u_c3, u_c2, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp7_f64(double* __restrict__ u_c5, const int mode_u_c5, const double* __restrict__ u_c3, const double* __restrict__ u_c2, const long long n_b) {
    tr_nn_cross_entropy_jvp7_body<double>(u_c5, mode_u_c5, u_c3, u_c2, n_b);
}

// tr_nn_cross_entropy_jvp8_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp8_rows_body(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ d_t, const T* __restrict__ d_z, const T* __restrict__ x_t, const T* __restrict__ x_z, const T* __restrict__ d_lse, const T* __restrict__ u_c5, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_t = sh;
    T* const s_d_z = s_d_t + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_t = s_d_z + ((stage & 2) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_z = s_x_t + ((stage & 4) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    T acc2 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_b; rem2 /= n_b;
                const long long z0 = rem2;
                s_d_t[z] = tr_ld(d_t, z1 * n_c + z0);
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_b; rem3 /= n_b;
                const long long z0 = rem3;
                s_d_z[z] = tr_ld(d_z, z1 * n_c + z0);
            }
        }
        if (stage & 4) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem4 = kk;
                const long long z1 = rem4 % n_b; rem4 /= n_b;
                const long long z0 = rem4;
                s_x_t[z] = x_t[z1 * n_c + z0];
            }
        }
        if (stage & 8) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem5 = kk;
                const long long z1 = rem5 % n_b; rem5 /= n_b;
                const long long z0 = rem5;
                s_x_z[z] = x_z[z1 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_b; rem1 /= n_b;
            const long long q0 = rem1;
            const T v6 = ((stage & 4) ? s_x_t[t] : x_t[q1 * n_c + q0]);
            acc0 += v6*tr_ld(d_lse, q1);
            acc1 += v6*((stage & 2) ? s_d_z[t] : tr_ld(d_z, q1 * n_c + q0));
            acc2 += (u_c5[q1] + (-((stage & 8) ? s_x_z[t] : x_z[q1 * n_c + q0]) + tr_shift(u_c0[q1])))*((stage & 1) ? s_d_t[t] : tr_ld(d_t, q1 * n_c + q0));
        }
    }
    if (active) {
        const T v7 = (T(1) / (T(n_b)));
        tr_store(d_L, row, v7 * acc0 - v7 * acc1 + v7 * acc2, mode_d_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp8_rows_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ d_t, const float* __restrict__ d_z, const float* __restrict__ x_t, const float* __restrict__ x_z, const float* __restrict__ d_lse, const float* __restrict__ u_c5, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp8_rows_body<float>(d_L, mode_d_L, d_t, d_z, x_t, x_z, d_lse, u_c5, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp8_rows_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ d_t, const double* __restrict__ d_z, const double* __restrict__ x_t, const double* __restrict__ x_z, const double* __restrict__ d_lse, const double* __restrict__ u_c5, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_jvp8_rows_body<double>(d_L, mode_d_L, d_t, d_z, x_t, x_z, d_lse, u_c5, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_jvp8_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_jvp8_warp_body(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ x_t, const T* __restrict__ d_lse, const T* __restrict__ d_z, const T* __restrict__ u_c5, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    T acc2 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_b; rem1 /= n_b;
            const long long q0 = rem1;
            const T v2 = x_t[q1 * n_c + q0];
            acc0 += v2*tr_ld(d_lse, q1);
            acc1 += v2*tr_ld(d_z, q1 * n_c + q0);
            acc2 += (u_c5[q1] + (-x_z[q1 * n_c + q0] + tr_shift(u_c0[q1])))*tr_ld(d_t, q1 * n_c + q0);
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    acc2 = tr_warp_sum(acc2);
    if (lane == 0) {
        const T v3 = (T(1) / (T(n_b)));
        tr_store(d_L, row, v3 * acc0 - v3 * acc1 + v3 * acc2, mode_d_L);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp8_warp_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ x_t, const float* __restrict__ d_lse, const float* __restrict__ d_z, const float* __restrict__ u_c5, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp8_warp_body<float>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_jvp8_warp_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ x_t, const double* __restrict__ d_lse, const double* __restrict__ d_z, const double* __restrict__ u_c5, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_jvp8_warp_body<double>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_pb0_rows_body(T* __restrict__ b_lse, const int mode_b_lse, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_t = sh;
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
                s_x_t[z] = x_t[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_t[t * n_b + i0] : x_t[i0 * n_c + q0]);
        }
    }
    if (active) {
        tr_store(b_lse, row, tr_ld(b_L, 0)/T(n_b) * acc0, mode_b_lse);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb0_rows_f32(float* __restrict__ b_lse, const int mode_b_lse, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_pb0_rows_body<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb0_rows_f64(double* __restrict__ b_lse, const int mode_b_lse, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_pb0_rows_body<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_pb0_warp_body(T* __restrict__ b_lse, const int mode_b_lse, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_t[i0 * n_c + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_lse, row, tr_ld(b_L, 0)/T(n_b) * acc0, mode_b_lse);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb0_warp_f32(float* __restrict__ b_lse, const int mode_b_lse, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_pb0_warp_body<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb0_warp_f64(double* __restrict__ b_lse, const int mode_b_lse, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_pb0_warp_body<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_pb2_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                s_x_z[z] = x_z[w0 * n_c + z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += exp(((stage & 1) ? s_x_z[t * n_b + i0] : x_z[i0 * n_c + q0]) - tr_shift(u_c0[i0]));
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb2_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_pb2_rows_body<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb2_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_cross_entropy_pb2_rows_body<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, chunk, tile, stage);
}

// tr_nn_cross_entropy_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_pb2_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb2_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_pb2_warp_body<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb2_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_cross_entropy_pb2_warp_body<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, chunk, wpr);
}

// tr_nn_cross_entropy_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_nn_cross_entropy_pb3_body(T* __restrict__ b_z, const int mode_b_z, T* __restrict__ b_t, const int mode_b_t, const T* __restrict__ b_L, const T* __restrict__ x_t, const T* __restrict__ b_lse, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_c, const long long n_b) {
    const long long total = n_b * n_c;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_c; rem1 /= n_c;
        const long long e0 = rem1;
        const T r2 = -tr_ld(b_L, 0)*x_t[e]/T(n_b) + tr_ld(b_lse, e0)*exp(x_z[e] - tr_shift(u_c0[e0]))/u_c1[e0];
        tr_store(b_z, e, r2, mode_b_z);
        const T r3 = (log(u_c1[e0]) + (-x_z[e] + tr_shift(u_c0[e0])))*tr_ld(b_L, 0)/T(n_b);
        tr_store(b_t, e, r3, mode_b_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb3_f32(float* __restrict__ b_z, const int mode_b_z, float* __restrict__ b_t, const int mode_b_t, const float* __restrict__ b_L, const float* __restrict__ x_t, const float* __restrict__ b_lse, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_c, const long long n_b) {
    tr_nn_cross_entropy_pb3_body<float>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_c, n_b);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_cross_entropy_pb3_f64(double* __restrict__ b_z, const int mode_b_z, double* __restrict__ b_t, const int mode_b_t, const double* __restrict__ b_L, const double* __restrict__ x_t, const double* __restrict__ b_lse, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_c, const long long n_b) {
    tr_nn_cross_entropy_pb3_body<double>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_c, n_b);
}

// tr_nn_gaussian_kernel_sum_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_fwd0_rows_body(T* __restrict__ x_out, const int mode_x_out, const T* __restrict__ x_b, const T* __restrict__ x_y, const T* __restrict__ x_x, const T* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_b = sh;
    T* const s_x_y = s_x_b + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_b[z] = x_b[z0];
            }
        }
        if (stage & 2) {
            const long long per = n_d;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_y[z] = x_y[z0 * n_d + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                s1 += tr_sq(x_x[i0 * n_d + k2] - ((stage & 2) ? s_x_y[t * n_d + k2] : x_y[q0 * n_d + k2]));
            }
            acc0 += ((stage & 1) ? s_x_b[t] : x_b[q0])*exp(-s1/x_s[0]);
        }
    }
    if (active) {
        tr_store(x_out, row, acc0, mode_x_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_fwd0_rows_f32(float* __restrict__ x_out, const int mode_x_out, const float* __restrict__ x_b, const float* __restrict__ x_y, const float* __restrict__ x_x, const float* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_fwd0_rows_body<float>(x_out, mode_x_out, x_b, x_y, x_x, x_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_fwd0_rows_f64(double* __restrict__ x_out, const int mode_x_out, const double* __restrict__ x_b, const double* __restrict__ x_y, const double* __restrict__ x_x, const double* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_fwd0_rows_body<double>(x_out, mode_x_out, x_b, x_y, x_x, x_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_fwd0_warp_body(T* __restrict__ x_out, const int mode_x_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                s1 += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
            }
            acc0 += x_b[q0]*exp(-s1/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_out, row, acc0, mode_x_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_fwd0_warp_f32(float* __restrict__ x_out, const int mode_x_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_fwd0_warp_body<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_fwd0_warp_f64(double* __restrict__ x_out, const int mode_x_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_fwd0_warp_body<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp1_rows_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_b, const T* __restrict__ d_b, const T* __restrict__ x_y, const T* __restrict__ x_x, const T* __restrict__ x_s, const T* __restrict__ d_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_b = sh;
    T* const s_d_b = s_x_b + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_y = s_d_b + ((stage & 2) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage & 1) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_b[z] = x_b[z0];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_d_b[z] = tr_ld(d_b, z0);
            }
        }
        if (stage & 4) {
            const long long per = n_d;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_y[z] = x_y[z0 * n_d + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s1 += tr_sq(x_x[i0 * n_d + k3] - ((stage & 4) ? s_x_y[t * n_d + k3] : x_y[q0 * n_d + k3]));
            }
            const T v2 = exp(-s1/x_s[0]);
            acc0 += v2*((stage & 2) ? s_d_b[t] : tr_ld(d_b, q0));
            acc1 += s1*v2*((stage & 1) ? s_x_b[t] : x_b[q0]);
        }
    }
    if (active) {
        tr_store(d_out, row, acc0 + tr_ld(d_s, 0) * (acc1 / x_s[0] / x_s[0]), mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp1_rows_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_b, const float* __restrict__ d_b, const float* __restrict__ x_y, const float* __restrict__ x_x, const float* __restrict__ x_s, const float* __restrict__ d_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp1_rows_body<float>(d_out, mode_d_out, x_b, d_b, x_y, x_x, x_s, d_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp1_rows_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_b, const double* __restrict__ d_b, const double* __restrict__ x_y, const double* __restrict__ x_x, const double* __restrict__ x_s, const double* __restrict__ d_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp1_rows_body<double>(d_out, mode_d_out, x_b, d_b, x_y, x_x, x_s, d_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp1_warp_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_s, const T* __restrict__ d_b, const T* __restrict__ x_b, const T* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s1 += tr_sq(x_x[i0 * n_d + k3] - x_y[q0 * n_d + k3]);
            }
            const T v2 = exp(-s1/x_s[0]);
            acc0 += v2*tr_ld(d_b, q0);
            acc1 += s1*v2*x_b[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_out, row, acc0 + tr_ld(d_s, 0) * (acc1 / x_s[0] / x_s[0]), mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp1_warp_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_s, const float* __restrict__ d_b, const float* __restrict__ x_b, const float* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp1_warp_body<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp1_warp_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_s, const double* __restrict__ d_b, const double* __restrict__ x_b, const double* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp1_warp_body<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp2_rows_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ d_y, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_y = sh;
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
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem2 = kk;
                const long long z1 = rem2 % n_d; rem2 /= n_d;
                const long long z0 = rem2;
                s_d_y[z] = tr_ld(d_y, z0 * n_d + z1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_d; rem1 /= n_d;
            const long long q0 = rem1;
            T s3 = T(0);
            for (long long k4 = 0; k4 < n_d; ++k4) {
                s3 += tr_sq(x_x[i0 * n_d + k4] - x_y[q0 * n_d + k4]);
            }
            acc0 += (-x_x[i0 * n_d + q1] + x_y[q0 * n_d + q1])*x_b[q0]*((stage & 1) ? s_d_y[t] : tr_ld(d_y, q0 * n_d + q1))*exp(-s3/x_s[0]);
        }
    }
    if (active) {
        tr_store(d_out, row, -T(2)/x_s[0] * acc0, mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp2_rows_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ d_y, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp2_rows_body<float>(d_out, mode_d_out, d_y, x_x, x_y, x_b, x_s, n_d, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp2_rows_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ d_y, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp2_rows_body<double>(d_out, mode_d_out, d_y, x_x, x_y, x_b, x_s, n_d, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp2_warp_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_y, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_d; rem1 /= n_d;
            const long long q0 = rem1;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[i0 * n_d + k3] - x_y[q0 * n_d + k3]);
            }
            acc0 += (-x_x[i0 * n_d + q1] + x_y[q0 * n_d + q1])*x_b[q0]*tr_ld(d_y, q0 * n_d + q1)*exp(-s2/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_out, row, -T(2)/x_s[0] * acc0, mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp2_warp_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_y, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp2_warp_body<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp2_warp_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_y, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp2_warp_body<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp3_rows_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_x, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
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
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_d; rem1 /= n_d;
            const long long q0 = rem1;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[i0 * n_d + k3] - x_y[q0 * n_d + k3]);
            }
            acc0 += (x_x[i0 * n_d + q1] - x_y[q0 * n_d + q1])*x_b[q0]*tr_ld(d_x, i0 * n_d + q1)*exp(-s2/x_s[0]);
        }
    }
    if (active) {
        tr_store(d_out, row, -T(2)/x_s[0] * acc0, mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp3_rows_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_x, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp3_rows_body<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp3_rows_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_x, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_jvp3_rows_body<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_jvp3_warp_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_x, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_d; rem1 /= n_d;
            const long long q0 = rem1;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[i0 * n_d + k3] - x_y[q0 * n_d + k3]);
            }
            acc0 += (x_x[i0 * n_d + q1] - x_y[q0 * n_d + q1])*x_b[q0]*tr_ld(d_x, i0 * n_d + q1)*exp(-s2/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_out, row, -T(2)/x_s[0] * acc0, mode_d_out);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp3_warp_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_x, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp3_warp_body<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_jvp3_warp_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_x, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_jvp3_warp_body<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb0_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_b, const T* __restrict__ x_y, const T* __restrict__ x_x, const T* __restrict__ x_s, const T* __restrict__ b_out, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_b = sh;
    T* const s_x_y = s_x_b + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_d; rem1 /= n_d;
    const long long i0 = rem1;
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
                s_x_b[z] = x_b[z0];
            }
        }
        if (stage & 2) {
            const long long per = n_d;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_y[z] = x_y[z0 * n_d + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[i0 * n_d + k3] - ((stage & 2) ? s_x_y[t * n_d + k3] : x_y[q0 * n_d + k3]));
            }
            acc0 += (x_x[i0 * n_d + i1] - ((stage & 2) ? s_x_y[t * n_d + i1] : x_y[q0 * n_d + i1]))*((stage & 1) ? s_x_b[t] : x_b[q0])*exp(-s2/x_s[0]);
        }
    }
    if (active) {
        tr_store(b_x, row, -T(2)*tr_ld(b_out, i0)/x_s[0] * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb0_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_b, const float* __restrict__ x_y, const float* __restrict__ x_x, const float* __restrict__ x_s, const float* __restrict__ b_out, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb0_rows_body<float>(b_x, mode_b_x, x_b, x_y, x_x, x_s, b_out, n_d, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb0_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_b, const double* __restrict__ x_y, const double* __restrict__ x_x, const double* __restrict__ x_s, const double* __restrict__ b_out, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb0_rows_body<double>(b_x, mode_b_x, x_b, x_y, x_x, x_s, b_out, n_d, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb0_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const T* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_d; rem1 /= n_d;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[i0 * n_d + k3] - x_y[q0 * n_d + k3]);
            }
            acc0 += (x_x[i0 * n_d + i1] - x_y[q0 * n_d + i1])*x_b[q0]*exp(-s2/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, -T(2)*tr_ld(b_out, i0)/x_s[0] * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb0_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const float* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb0_warp_body<float>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb0_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const double* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb0_warp_body<double>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb1_rows_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ b_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_s, const T* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_out = sh;
    T* const s_x_x = s_b_out + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_d; rem1 /= n_d;
    const long long i0 = rem1;
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
                s_b_out[z] = tr_ld(b_out, z0);
            }
        }
        if (stage & 2) {
            const long long per = n_d;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_x[z] = x_x[z0 * n_d + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(((stage & 2) ? s_x_x[t * n_d + k3] : x_x[q0 * n_d + k3]) - x_y[i0 * n_d + k3]);
            }
            acc0 += (-((stage & 2) ? s_x_x[t * n_d + i1] : x_x[q0 * n_d + i1]) + x_y[i0 * n_d + i1])*((stage & 1) ? s_b_out[t] : tr_ld(b_out, q0))*exp(-s2/x_s[0]);
        }
    }
    if (active) {
        tr_store(b_y, row, -T(2)*x_b[i0]/x_s[0] * acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb1_rows_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ b_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_s, const float* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb1_rows_body<float>(b_y, mode_b_y, b_out, x_x, x_y, x_s, x_b, n_d, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb1_rows_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ b_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_s, const double* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb1_rows_body<double>(b_y, mode_b_y, b_out, x_x, x_y, x_s, x_b, n_d, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb1_warp_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ b_out, const T* __restrict__ x_s, const T* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_d; rem1 /= n_d;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[q0 * n_d + k3] - x_y[i0 * n_d + k3]);
            }
            acc0 += (-x_x[q0 * n_d + i1] + x_y[i0 * n_d + i1])*tr_ld(b_out, q0)*exp(-s2/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_y, row, -T(2)*x_b[i0]/x_s[0] * acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb1_warp_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ b_out, const float* __restrict__ x_s, const float* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb1_warp_body<float>(b_y, mode_b_y, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb1_warp_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ b_out, const double* __restrict__ x_s, const double* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb1_warp_body<double>(b_y, mode_b_y, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb2_rows_body(T* __restrict__ b_b, const int mode_b_b, const T* __restrict__ b_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_s, const long long n_i, const long long n_d, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_out = sh;
    T* const s_x_x = s_b_out + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_b_out[z] = tr_ld(b_out, z0);
            }
        }
        if (stage & 2) {
            const long long per = n_d;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_x[z] = x_x[z0 * n_d + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                s1 += tr_sq(((stage & 2) ? s_x_x[t * n_d + k2] : x_x[q0 * n_d + k2]) - x_y[i0 * n_d + k2]);
            }
            acc0 += ((stage & 1) ? s_b_out[t] : tr_ld(b_out, q0))*exp(-s1/x_s[0]);
        }
    }
    if (active) {
        tr_store(b_b, row, acc0, mode_b_b);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb2_rows_f32(float* __restrict__ b_b, const int mode_b_b, const float* __restrict__ b_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_s, const long long n_i, const long long n_d, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb2_rows_body<float>(b_b, mode_b_b, b_out, x_x, x_y, x_s, n_i, n_d, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb2_rows_f64(double* __restrict__ b_b, const int mode_b_b, const double* __restrict__ b_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_s, const long long n_i, const long long n_d, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb2_rows_body<double>(b_b, mode_b_b, b_out, x_x, x_y, x_s, n_i, n_d, n_j, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb2_warp_body(T* __restrict__ b_b, const int mode_b_b, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            T s1 = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                s1 += tr_sq(x_x[q0 * n_d + k2] - x_y[i0 * n_d + k2]);
            }
            acc0 += tr_ld(b_out, q0)*exp(-s1/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_b, row, acc0, mode_b_b);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb2_warp_f32(float* __restrict__ b_b, const int mode_b_b, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb2_warp_body<float>(b_b, mode_b_b, x_x, x_y, b_out, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb2_warp_f64(double* __restrict__ b_b, const int mode_b_b, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb2_warp_body<double>(b_b, mode_b_b, x_x, x_y, b_out, x_s, n_d, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_nn_gaussian_kernel_sum_pb3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb3_rows_body(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long k0 = kbeg; k0 < kend; k0 += tile) {
        const int tn = (int)tr_min((long long)tile, kend - k0);
        if (stage) __syncthreads();
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            T s2 = T(0);
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[q0 * n_d + k3] - x_y[q1 * n_d + k3]);
            }
            acc0 += s2*x_b[q1]*tr_ld(b_out, q0)*exp(-s2/x_s[0]);
        }
    }
    if (active) {
        tr_store(b_s, row, (acc0 / x_s[0] / x_s[0]), mode_b_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb3_rows_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb3_rows_body<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb3_rows_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_nn_gaussian_kernel_sum_pb3_rows_body<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_j, n_d, n_i, nrows, nk, chunk, tile, stage);
}

// tr_nn_gaussian_kernel_sum_pb3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_nn_gaussian_kernel_sum_pb3_warp_body(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            for (long long k3 = 0; k3 < n_d; ++k3) {
                s2 += tr_sq(x_x[q0 * n_d + k3] - x_y[q1 * n_d + k3]);
            }
            acc0 += s2*x_b[q1]*tr_ld(b_out, q0)*exp(-s2/x_s[0]);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_s, row, (acc0 / x_s[0] / x_s[0]), mode_b_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb3_warp_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb3_warp_body<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_j, n_d, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_nn_gaussian_kernel_sum_pb3_warp_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_j, const long long n_d, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_nn_gaussian_kernel_sum_pb3_warp_body<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_j, n_d, n_i, nrows, nk, chunk, wpr);
}
