// @generated from rules/linalg.rules by `derive-rules` -- do not edit by hand.
// Kernels for matmul, matvec, dot, outer, transpose, trace, bilinear, quadratic, inv, det, logdet, solve, solve_matrix, mahalanobis, cayley: each has a float32 (_f32) and a float64 (_f64) extern "C"
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
    k = (k & top) ? (k & ~top) : ~k;
    T x;
    memcpy(&x, &k, sizeof x);
    return isfinite(x) ? x : T(0);
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

// tr_linalg_matmul_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matmul_fwd0_rows_body(T* __restrict__ x_C, const int mode_x_C, const T* __restrict__ x_A, const T* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_B = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_A[z] = x_A[w0 * n_k + z0];
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
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i0] : x_A[i0 * n_k + q0])*((stage & 2) ? s_x_B[t * n_j + i1] : x_B[q0 * n_j + i1]);
        }
    }
    if (active) {
        tr_store(x_C, row, acc0, mode_x_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_fwd0_rows_f32(float* __restrict__ x_C, const int mode_x_C, const float* __restrict__ x_A, const float* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_fwd0_rows_body<float>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_fwd0_rows_f64(double* __restrict__ x_C, const int mode_x_C, const double* __restrict__ x_A, const double* __restrict__ x_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_fwd0_rows_body<double>(x_C, mode_x_C, x_A, x_B, n_j, n_i, n_k, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matmul_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matmul_jvp1_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_A, const T* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_B = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_A[z] = x_A[w0 * n_k + z0];
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
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i0] : x_A[i0 * n_k + q0])*((stage & 2) ? s_d_B[t * n_j + i1] : tr_ld(d_B, q0 * n_j + i1));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_jvp1_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_A, const float* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_jvp1_rows_body<float>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_k, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_jvp1_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_A, const double* __restrict__ d_B, const long long n_j, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_jvp1_rows_body<double>(d_C, mode_d_C, x_A, d_B, n_j, n_i, n_k, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matmul_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matmul_jvp2_rows_body(T* __restrict__ d_C, const int mode_d_C, const T* __restrict__ x_B, const T* __restrict__ d_A, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_d_A = s_x_B + ((stage & 1) ? (long long)tile * (n_j) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, w0 * n_k + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[t * n_j + i1] : x_B[q0 * n_j + i1])*((stage & 2) ? s_d_A[t * n_i + i0] : tr_ld(d_A, i0 * n_k + q0));
        }
    }
    if (active) {
        tr_store(d_C, row, acc0, mode_d_C);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_jvp2_rows_f32(float* __restrict__ d_C, const int mode_d_C, const float* __restrict__ x_B, const float* __restrict__ d_A, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_jvp2_rows_body<float>(d_C, mode_d_C, x_B, d_A, n_j, n_k, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_jvp2_rows_f64(double* __restrict__ d_C, const int mode_d_C, const double* __restrict__ x_B, const double* __restrict__ d_A, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_jvp2_rows_body<double>(d_C, mode_d_C, x_B, d_A, n_j, n_k, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matmul_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_matmul_pb0_warp_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_B, const T* __restrict__ b_C, const long long n_k, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    long long rem1 = row;
    const long long i1 = rem1 % n_k; rem1 /= n_k;
    const long long i0 = rem1;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_B[i1 * n_j + q0]*tr_ld(b_C, i0 * n_j + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_A, row, acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_pb0_warp_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_B, const float* __restrict__ b_C, const long long n_k, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matmul_pb0_warp_body<float>(b_A, mode_b_A, x_B, b_C, n_k, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_pb0_warp_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_B, const double* __restrict__ b_C, const long long n_k, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matmul_pb0_warp_body<double>(b_A, mode_b_A, x_B, b_C, n_k, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_matmul_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matmul_pb1_rows_body(T* __restrict__ b_B, const int mode_b_B, const T* __restrict__ x_A, const T* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                const long long z0 = kk;
                const long long w1 = p;
                s_x_A[z] = x_A[z0 * n_k + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_C[z] = tr_ld(b_C, z0 * n_j + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[t * n_k + i0] : x_A[q0 * n_k + i0])*((stage & 2) ? s_b_C[t * n_j + i1] : tr_ld(b_C, q0 * n_j + i1));
        }
    }
    if (active) {
        tr_store(b_B, row, acc0, mode_b_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_pb1_rows_f32(float* __restrict__ b_B, const int mode_b_B, const float* __restrict__ x_A, const float* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_pb1_rows_body<float>(b_B, mode_b_B, x_A, b_C, n_j, n_k, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matmul_pb1_rows_f64(double* __restrict__ b_B, const int mode_b_B, const double* __restrict__ x_A, const double* __restrict__ b_C, const long long n_j, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matmul_pb1_rows_body<double>(b_B, mode_b_B, x_A, b_C, n_j, n_k, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matvec_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_fwd0_rows_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_A, const T* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_x = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_A[z] = x_A[w0 * n_j + z0];
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
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i0] : x_A[i0 * n_j + q0])*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_fwd0_rows_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_A, const float* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_fwd0_rows_body<float>(x_y, mode_x_y, x_A, x_x, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_fwd0_rows_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_A, const double* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_fwd0_rows_body<double>(x_y, mode_x_y, x_A, x_x, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matvec_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_fwd0_warp_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_A, const T* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_A[i0 * n_j + q0]*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_y, row, acc0, mode_x_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_fwd0_warp_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_A, const float* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_fwd0_warp_body<float>(x_y, mode_x_y, x_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_fwd0_warp_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_A, const double* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_fwd0_warp_body<double>(x_y, mode_x_y, x_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_matvec_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_jvp1_rows_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_A, const T* __restrict__ d_A, const T* __restrict__ d_x, const T* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_A = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
    T* const s_d_x = s_d_A + ((stage & 2) ? (long long)tile * (n_i) : 0LL);
    T* const s_x_x = s_d_x + ((stage & 4) ? (long long)tile * (1LL) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_A[z] = x_A[w0 * n_j + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, w0 * n_j + z0);
            }
        }
        if (stage & 4) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_d_x[z] = tr_ld(d_x, z0);
            }
        }
        if (stage & 8) {
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
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i0] : x_A[i0 * n_j + q0])*((stage & 4) ? s_d_x[t] : tr_ld(d_x, q0));
            acc1 += ((stage & 2) ? s_d_A[t * n_i + i0] : tr_ld(d_A, i0 * n_j + q0))*((stage & 8) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(d_y, row, acc0 + acc1, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_jvp1_rows_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_A, const float* __restrict__ d_A, const float* __restrict__ d_x, const float* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_jvp1_rows_body<float>(d_y, mode_d_y, x_A, d_A, d_x, x_x, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_jvp1_rows_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_A, const double* __restrict__ d_A, const double* __restrict__ d_x, const double* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_jvp1_rows_body<double>(d_y, mode_d_y, x_A, d_A, d_x, x_x, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matvec_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_jvp1_warp_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_A, const T* __restrict__ d_x, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_A[i0 * n_j + q0]*tr_ld(d_x, q0);
            acc1 += tr_ld(d_A, i0 * n_j + q0)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_y, row, acc0 + acc1, mode_d_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_jvp1_warp_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_A, const float* __restrict__ d_x, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_jvp1_warp_body<float>(d_y, mode_d_y, x_A, d_x, d_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_jvp1_warp_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_A, const double* __restrict__ d_x, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_jvp1_warp_body<double>(d_y, mode_d_y, x_A, d_x, d_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_matvec_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_pb0_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_y, const T* __restrict__ x_x, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_y, e0)*x_x[e1];
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb0_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_y, const float* __restrict__ x_x, const long long n_j, const long long n_i) {
    tr_linalg_matvec_pb0_body<float>(b_A, mode_b_A, b_y, x_x, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb0_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_y, const double* __restrict__ x_x, const long long n_j, const long long n_i) {
    tr_linalg_matvec_pb0_body<double>(b_A, mode_b_A, b_y, x_x, n_j, n_i);
}

// tr_linalg_matvec_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_pb1_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_A, const T* __restrict__ b_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_b_y = s_x_A + ((stage & 1) ? (long long)tile * (n_j) : 0LL);
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
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_A[z] = x_A[z0 * n_j + w1];
            }
        }
        if (stage & 2) {
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
            acc0 += ((stage & 1) ? s_x_A[t * n_j + i0] : x_A[q0 * n_j + i0])*((stage & 2) ? s_b_y[t] : tr_ld(b_y, q0));
        }
    }
    if (active) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb1_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_A, const float* __restrict__ b_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_pb1_rows_body<float>(b_x, mode_b_x, x_A, b_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb1_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_A, const double* __restrict__ b_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_matvec_pb1_rows_body<double>(b_x, mode_b_x, x_A, b_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_matvec_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_matvec_pb1_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_A, const T* __restrict__ b_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_A[q0 * n_j + i0]*tr_ld(b_y, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb1_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_A, const float* __restrict__ b_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_pb1_warp_body<float>(b_x, mode_b_x, x_A, b_y, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_matvec_pb1_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_A, const double* __restrict__ b_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_matvec_pb1_warp_body<double>(b_x, mode_b_x, x_A, b_y, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_dot_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_dot_fwd0_rows_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
    T* const s_x_y = s_x_x + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
            acc0 += ((stage & 1) ? s_x_x[t] : x_x[q0])*((stage & 2) ? s_x_y[t] : x_y[q0]);
        }
    }
    if (active) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_fwd0_rows_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_dot_fwd0_rows_body<float>(x_s, mode_x_s, x_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_fwd0_rows_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_dot_fwd0_rows_body<double>(x_s, mode_x_s, x_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_dot_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_dot_fwd0_warp_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_x[q0]*x_y[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_fwd0_warp_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_dot_fwd0_warp_body<float>(x_s, mode_x_s, x_x, x_y, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_fwd0_warp_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_dot_fwd0_warp_body<double>(x_s, mode_x_s, x_x, x_y, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_dot_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_dot_jvp1_rows_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_x, const T* __restrict__ d_y, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_x = sh;
    T* const s_d_y = s_d_x + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_x = s_d_y + ((stage & 2) ? (long long)tile * (1LL) : 0LL);
    T* const s_x_y = s_x_x + ((stage & 4) ? (long long)tile * (1LL) : 0LL);
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
                s_d_y[z] = tr_ld(d_y, z0);
            }
        }
        if (stage & 4) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage & 8) {
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
            acc0 += ((stage & 1) ? s_d_x[t] : tr_ld(d_x, q0))*((stage & 8) ? s_x_y[t] : x_y[q0]);
            acc1 += ((stage & 2) ? s_d_y[t] : tr_ld(d_y, q0))*((stage & 4) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_jvp1_rows_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_x, const float* __restrict__ d_y, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_dot_jvp1_rows_body<float>(d_s, mode_d_s, d_x, d_y, x_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_jvp1_rows_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_x, const double* __restrict__ d_y, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_dot_jvp1_rows_body<double>(d_s, mode_d_s, d_x, d_y, x_x, x_y, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_dot_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_dot_jvp1_warp_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_x, const T* __restrict__ x_y, const T* __restrict__ d_y, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*x_y[q0];
            acc1 += tr_ld(d_y, q0)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_jvp1_warp_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_x, const float* __restrict__ x_y, const float* __restrict__ d_y, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_dot_jvp1_warp_body<float>(d_s, mode_d_s, d_x, x_y, d_y, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_jvp1_warp_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_x, const double* __restrict__ x_y, const double* __restrict__ d_y, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_dot_jvp1_warp_body<double>(d_s, mode_d_s, d_x, x_y, d_y, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_dot_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_dot_pb0_body(T* __restrict__ b_x, const int mode_b_x, T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ b_s, const T* __restrict__ x_y, const T* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(b_s, 0)*x_y[e];
        tr_store(b_x, e, r1, mode_b_x);
        const T r2 = tr_ld(b_s, 0)*x_x[e];
        tr_store(b_y, e, r2, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_pb0_f32(float* __restrict__ b_x, const int mode_b_x, float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ b_s, const float* __restrict__ x_y, const float* __restrict__ x_x, const long long n_i) {
    tr_linalg_dot_pb0_body<float>(b_x, mode_b_x, b_y, mode_b_y, b_s, x_y, x_x, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_dot_pb0_f64(double* __restrict__ b_x, const int mode_b_x, double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ b_s, const double* __restrict__ x_y, const double* __restrict__ x_x, const long long n_i) {
    tr_linalg_dot_pb0_body<double>(b_x, mode_b_x, b_y, mode_b_y, b_s, x_y, x_x, n_i);
}

// tr_linalg_outer_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_fwd0_body(T* __restrict__ x_A, const int mode_x_A, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = x_x[e0]*x_y[e1];
        tr_store(x_A, e, r2, mode_x_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_fwd0_f32(float* __restrict__ x_A, const int mode_x_A, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_j, const long long n_i) {
    tr_linalg_outer_fwd0_body<float>(x_A, mode_x_A, x_x, x_y, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_fwd0_f64(double* __restrict__ x_A, const int mode_x_A, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_j, const long long n_i) {
    tr_linalg_outer_fwd0_body<double>(x_A, mode_x_A, x_x, x_y, n_j, n_i);
}

// tr_linalg_outer_jvp0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_jvp0_body(T* __restrict__ x_A, const int mode_x_A, T* __restrict__ d_A, const int mode_d_A, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ d_x, const T* __restrict__ d_y, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = x_x[e0]*x_y[e1];
        tr_store(x_A, e, r2, mode_x_A);
        const T r3 = tr_ld(d_x, e0)*x_y[e1] + tr_ld(d_y, e1)*x_x[e0];
        tr_store(d_A, e, r3, mode_d_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_jvp0_f32(float* __restrict__ x_A, const int mode_x_A, float* __restrict__ d_A, const int mode_d_A, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ d_x, const float* __restrict__ d_y, const long long n_j, const long long n_i) {
    tr_linalg_outer_jvp0_body<float>(x_A, mode_x_A, d_A, mode_d_A, x_x, x_y, d_x, d_y, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_jvp0_f64(double* __restrict__ x_A, const int mode_x_A, double* __restrict__ d_A, const int mode_d_A, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ d_x, const double* __restrict__ d_y, const long long n_j, const long long n_i) {
    tr_linalg_outer_jvp0_body<double>(x_A, mode_x_A, d_A, mode_d_A, x_x, x_y, d_x, d_y, n_j, n_i);
}

// tr_linalg_outer_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_pb0_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_A, const T* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_A = sh;
    T* const s_x_y = s_b_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_b_A[z] = tr_ld(b_A, w0 * n_j + z0);
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
            acc0 += ((stage & 1) ? s_b_A[t * n_i + i0] : tr_ld(b_A, i0 * n_j + q0))*((stage & 2) ? s_x_y[t] : x_y[q0]);
        }
    }
    if (active) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb0_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_A, const float* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_outer_pb0_rows_body<float>(b_x, mode_b_x, b_A, x_y, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb0_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_A, const double* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_outer_pb0_rows_body<double>(b_x, mode_b_x, b_A, x_y, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_linalg_outer_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_pb0_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_A, const T* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(b_A, i0 * n_j + q0)*x_y[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb0_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_A, const float* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_outer_pb0_warp_body<float>(b_x, mode_b_x, b_A, x_y, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb0_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_A, const double* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_outer_pb0_warp_body<double>(b_x, mode_b_x, b_A, x_y, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_outer_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_pb1_rows_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ b_A, const T* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_b_A = sh;
    T* const s_x_x = s_b_A + ((stage & 1) ? (long long)tile * (n_j) : 0LL);
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
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_A[z] = tr_ld(b_A, z0 * n_j + w1);
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
            acc0 += ((stage & 1) ? s_b_A[t * n_j + i0] : tr_ld(b_A, q0 * n_j + i0))*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(b_y, row, acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb1_rows_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ b_A, const float* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_outer_pb1_rows_body<float>(b_y, mode_b_y, b_A, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb1_rows_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ b_A, const double* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_outer_pb1_rows_body<double>(b_y, mode_b_y, b_A, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_outer_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_outer_pb1_warp_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ b_A, const T* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(b_A, q0 * n_j + i0)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_y, row, acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb1_warp_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ b_A, const float* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_outer_pb1_warp_body<float>(b_y, mode_b_y, b_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_outer_pb1_warp_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ b_A, const double* __restrict__ x_x, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_outer_pb1_warp_body<double>(b_y, mode_b_y, b_A, x_x, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_transpose_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_transpose_fwd0_body(T* __restrict__ x_B, const int mode_x_B, const T* __restrict__ x_A, const long long n_i, const long long n_j) {
    const long long total = n_j * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = x_A[e1 * n_j + e0];
        tr_store(x_B, e, r2, mode_x_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_fwd0_f32(float* __restrict__ x_B, const int mode_x_B, const float* __restrict__ x_A, const long long n_i, const long long n_j) {
    tr_linalg_transpose_fwd0_body<float>(x_B, mode_x_B, x_A, n_i, n_j);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_fwd0_f64(double* __restrict__ x_B, const int mode_x_B, const double* __restrict__ x_A, const long long n_i, const long long n_j) {
    tr_linalg_transpose_fwd0_body<double>(x_B, mode_x_B, x_A, n_i, n_j);
}

// tr_linalg_transpose_jvp0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_transpose_jvp0_body(T* __restrict__ x_B, const int mode_x_B, T* __restrict__ d_B, const int mode_d_B, const T* __restrict__ x_A, const T* __restrict__ d_A, const long long n_i, const long long n_j) {
    const long long total = n_j * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = x_A[e1 * n_j + e0];
        tr_store(x_B, e, r2, mode_x_B);
        const T r3 = tr_ld(d_A, e1 * n_j + e0);
        tr_store(d_B, e, r3, mode_d_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_jvp0_f32(float* __restrict__ x_B, const int mode_x_B, float* __restrict__ d_B, const int mode_d_B, const float* __restrict__ x_A, const float* __restrict__ d_A, const long long n_i, const long long n_j) {
    tr_linalg_transpose_jvp0_body<float>(x_B, mode_x_B, d_B, mode_d_B, x_A, d_A, n_i, n_j);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_jvp0_f64(double* __restrict__ x_B, const int mode_x_B, double* __restrict__ d_B, const int mode_d_B, const double* __restrict__ x_A, const double* __restrict__ d_A, const long long n_i, const long long n_j) {
    tr_linalg_transpose_jvp0_body<double>(x_B, mode_x_B, d_B, mode_d_B, x_A, d_A, n_i, n_j);
}

// tr_linalg_transpose_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_transpose_pb0_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_B, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_B, e1 * n_i + e0);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_pb0_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_B, const long long n_j, const long long n_i) {
    tr_linalg_transpose_pb0_body<float>(b_A, mode_b_A, b_B, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_transpose_pb0_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_B, const long long n_j, const long long n_i) {
    tr_linalg_transpose_pb0_body<double>(b_A, mode_b_A, b_B, n_j, n_i);
}

// tr_linalg_trace_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_trace_fwd0_rows_body(T* __restrict__ x_t, const int mode_x_t, const T* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
            const long long q0 = kk;
            acc0 += x_A[q0 * n_i + q0];
        }
    }
    if (active) {
        tr_store(x_t, row, acc0, mode_x_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_fwd0_rows_f32(float* __restrict__ x_t, const int mode_x_t, const float* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_trace_fwd0_rows_body<float>(x_t, mode_x_t, x_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_fwd0_rows_f64(double* __restrict__ x_t, const int mode_x_t, const double* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_trace_fwd0_rows_body<double>(x_t, mode_x_t, x_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_trace_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_trace_fwd0_warp_body(T* __restrict__ x_t, const int mode_x_t, const T* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_A[q0 * n_i + q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_t, row, acc0, mode_x_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_fwd0_warp_f32(float* __restrict__ x_t, const int mode_x_t, const float* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_trace_fwd0_warp_body<float>(x_t, mode_x_t, x_A, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_fwd0_warp_f64(double* __restrict__ x_t, const int mode_x_t, const double* __restrict__ x_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_trace_fwd0_warp_body<double>(x_t, mode_x_t, x_A, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_trace_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_trace_jvp1_rows_body(T* __restrict__ d_t, const int mode_d_t, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
            const long long q0 = kk;
            acc0 += tr_ld(d_A, q0 * n_i + q0);
        }
    }
    if (active) {
        tr_store(d_t, row, acc0, mode_d_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_jvp1_rows_f32(float* __restrict__ d_t, const int mode_d_t, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_trace_jvp1_rows_body<float>(d_t, mode_d_t, d_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_jvp1_rows_f64(double* __restrict__ d_t, const int mode_d_t, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_trace_jvp1_rows_body<double>(d_t, mode_d_t, d_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_trace_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_trace_jvp1_warp_body(T* __restrict__ d_t, const int mode_d_t, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_A, q0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_t, row, acc0, mode_d_t);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_jvp1_warp_f32(float* __restrict__ d_t, const int mode_d_t, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_trace_jvp1_warp_body<float>(d_t, mode_d_t, d_A, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_jvp1_warp_f64(double* __restrict__ d_t, const int mode_d_t, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_trace_jvp1_warp_body<double>(d_t, mode_d_t, d_A, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_trace_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_trace_pb0_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_t, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_t, 0)*(e0 == e1 ? T(1) : T(0));
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_pb0_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_t, const long long n_i) {
    tr_linalg_trace_pb0_body<float>(b_A, mode_b_A, b_t, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_trace_pb0_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_t, const long long n_i) {
    tr_linalg_trace_pb0_body<double>(b_A, mode_b_A, b_t, n_i);
}

// tr_linalg_bilinear_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_fwd0_rows_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_A, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
            acc0 += ((stage & 1) ? s_x_A[t] : x_A[q0 * n_j + q1])*x_x[q0]*x_y[q1];
        }
    }
    if (active) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_fwd0_rows_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_A, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_fwd0_rows_body<float>(x_s, mode_x_s, x_A, x_x, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_fwd0_rows_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_A, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_fwd0_rows_body<double>(x_s, mode_x_s, x_A, x_x, x_y, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_bilinear_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_fwd0_warp_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_A, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_A[q0 * n_j + q1]*x_x[q0]*x_y[q1];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_fwd0_warp_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_A, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_fwd0_warp_body<float>(x_s, mode_x_s, x_A, x_x, x_y, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_fwd0_warp_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_A, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_fwd0_warp_body<double>(x_s, mode_x_s, x_A, x_x, x_y, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_bilinear_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_jvp1_rows_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ x_A, const T* __restrict__ d_A, const T* __restrict__ x_y, const T* __restrict__ d_x, const T* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_A = s_x_A + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                const long long z1 = rem2 % n_j; rem2 /= n_j;
                const long long z0 = rem2;
                s_x_A[z] = x_A[z0 * n_j + z1];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_j; rem3 /= n_j;
                const long long z0 = rem3;
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
            const T v4 = x_y[q1];
            acc0 += v4*((stage & 1) ? s_x_A[t] : x_A[q0 * n_j + q1])*tr_ld(d_x, q0);
            acc1 += v4*((stage & 2) ? s_d_A[t] : tr_ld(d_A, q0 * n_j + q1))*x_x[q0];
        }
    }
    if (active) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp1_rows_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ x_A, const float* __restrict__ d_A, const float* __restrict__ x_y, const float* __restrict__ d_x, const float* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_jvp1_rows_body<float>(d_s, mode_d_s, x_A, d_A, x_y, d_x, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp1_rows_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ x_A, const double* __restrict__ d_A, const double* __restrict__ x_y, const double* __restrict__ d_x, const double* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_jvp1_rows_body<double>(d_s, mode_d_s, x_A, d_A, x_y, d_x, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_bilinear_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_jvp1_warp_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ x_y, const T* __restrict__ x_A, const T* __restrict__ d_x, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_j; rem1 /= n_j;
            const long long q0 = rem1;
            const T v2 = x_y[q1];
            acc0 += v2*x_A[q0 * n_j + q1]*tr_ld(d_x, q0);
            acc1 += v2*tr_ld(d_A, q0 * n_j + q1)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp1_warp_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ x_y, const float* __restrict__ x_A, const float* __restrict__ d_x, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_jvp1_warp_body<float>(d_s, mode_d_s, x_y, x_A, d_x, d_A, x_x, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp1_warp_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ x_y, const double* __restrict__ x_A, const double* __restrict__ d_x, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_jvp1_warp_body<double>(d_s, mode_d_s, x_y, x_A, d_x, d_A, x_x, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_bilinear_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_jvp2_rows_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ x_A, const T* __restrict__ d_y, const T* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
            acc0 += ((stage & 1) ? s_x_A[t] : x_A[q0 * n_j + q1])*tr_ld(d_y, q1)*x_x[q0];
        }
    }
    if (active) {
        tr_store(d_s, row, acc0, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp2_rows_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ x_A, const float* __restrict__ d_y, const float* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_jvp2_rows_body<float>(d_s, mode_d_s, x_A, d_y, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp2_rows_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ x_A, const double* __restrict__ d_y, const double* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_jvp2_rows_body<double>(d_s, mode_d_s, x_A, d_y, x_x, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_bilinear_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_jvp2_warp_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ x_A, const T* __restrict__ d_y, const T* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_A[q0 * n_j + q1]*tr_ld(d_y, q1)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_s, row, acc0, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp2_warp_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ x_A, const float* __restrict__ d_y, const float* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_jvp2_warp_body<float>(d_s, mode_d_s, x_A, d_y, x_x, n_j, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_jvp2_warp_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ x_A, const double* __restrict__ d_y, const double* __restrict__ x_x, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_jvp2_warp_body<double>(d_s, mode_d_s, x_A, d_y, x_x, n_j, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_bilinear_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_pb0_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_A, const T* __restrict__ x_y, const T* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_y = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_x_A[z] = x_A[w0 * n_j + z0];
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
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i0] : x_A[i0 * n_j + q0])*((stage & 2) ? s_x_y[t] : x_y[q0]);
        }
    }
    if (active) {
        tr_store(b_x, row, tr_ld(b_s, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb0_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_A, const float* __restrict__ x_y, const float* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_pb0_rows_body<float>(b_x, mode_b_x, x_A, x_y, b_s, n_i, n_j, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb0_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_A, const double* __restrict__ x_y, const double* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_pb0_rows_body<double>(b_x, mode_b_x, x_A, x_y, b_s, n_i, n_j, nrows, nk, chunk, tile, stage);
}

// tr_linalg_bilinear_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_pb0_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_A, const T* __restrict__ x_y, const T* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_A[i0 * n_j + q0]*x_y[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, tr_ld(b_s, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb0_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_A, const float* __restrict__ x_y, const float* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_pb0_warp_body<float>(b_x, mode_b_x, x_A, x_y, b_s, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb0_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_A, const double* __restrict__ x_y, const double* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_pb0_warp_body<double>(b_x, mode_b_x, x_A, x_y, b_s, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_bilinear_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_s, 0)*x_x[e0]*x_y[e1];
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_j, const long long n_i) {
    tr_linalg_bilinear_pb1_body<float>(b_A, mode_b_A, b_s, x_x, x_y, n_j, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_j, const long long n_i) {
    tr_linalg_bilinear_pb1_body<double>(b_A, mode_b_A, b_s, x_x, x_y, n_j, n_i);
}

// tr_linalg_bilinear_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_pb2_rows_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ x_A, const T* __restrict__ x_x, const T* __restrict__ b_s, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_x_x = s_x_A + ((stage & 1) ? (long long)tile * (n_j) : 0LL);
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
            const long long per = n_j;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_x_A[z] = x_A[z0 * n_j + w1];
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
            acc0 += ((stage & 1) ? s_x_A[t * n_j + i0] : x_A[q0 * n_j + i0])*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(b_y, row, tr_ld(b_s, 0) * acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb2_rows_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ x_A, const float* __restrict__ x_x, const float* __restrict__ b_s, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_pb2_rows_body<float>(b_y, mode_b_y, x_A, x_x, b_s, n_j, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb2_rows_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ x_A, const double* __restrict__ x_x, const double* __restrict__ b_s, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_bilinear_pb2_rows_body<double>(b_y, mode_b_y, x_A, x_x, b_s, n_j, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_bilinear_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_bilinear_pb2_warp_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ x_A, const T* __restrict__ x_x, const T* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += x_A[q0 * n_j + i0]*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_y, row, tr_ld(b_s, 0) * acc0, mode_b_y);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb2_warp_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ x_A, const float* __restrict__ x_x, const float* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_pb2_warp_body<float>(b_y, mode_b_y, x_A, x_x, b_s, n_i, n_j, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_bilinear_pb2_warp_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ x_A, const double* __restrict__ x_x, const double* __restrict__ b_s, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_bilinear_pb2_warp_body<double>(b_y, mode_b_y, x_A, x_x, b_s, n_i, n_j, nrows, nk, chunk, wpr);
}

// tr_linalg_quadratic_fwd0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_fwd0_rows_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_A, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_x_A[z] = x_A[z0 * n_i + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += ((stage & 1) ? s_x_A[t] : x_A[q0 * n_i + q1])*x_x[q0]*x_x[q1];
        }
    }
    if (active) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_fwd0_rows_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_A, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_fwd0_rows_body<float>(x_s, mode_x_s, x_A, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_fwd0_rows_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_A, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_fwd0_rows_body<double>(x_s, mode_x_s, x_A, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_quadratic_fwd0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_fwd0_warp_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_A, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += x_A[q0 * n_i + q1]*x_x[q0]*x_x[q1];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_s, row, acc0, mode_x_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_fwd0_warp_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_A, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_fwd0_warp_body<float>(x_s, mode_x_s, x_A, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_fwd0_warp_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_A, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_fwd0_warp_body<double>(x_s, mode_x_s, x_A, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_quadratic_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_jvp1_rows_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_A, const T* __restrict__ x_x, const T* __restrict__ x_A, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_A = sh;
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_d_A[z] = tr_ld(d_A, z0 * n_i + z1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            const T v3 = x_x[q1];
            acc0 += v3*(x_A[q0 * n_i + q1] + x_A[q1 * n_i + q0])*tr_ld(d_x, q0);
            acc1 += v3*((stage & 1) ? s_d_A[t] : tr_ld(d_A, q0 * n_i + q1))*x_x[q0];
        }
    }
    if (active) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_jvp1_rows_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_A, const float* __restrict__ x_x, const float* __restrict__ x_A, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_jvp1_rows_body<float>(d_s, mode_d_s, d_A, x_x, x_A, d_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_jvp1_rows_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_A, const double* __restrict__ x_x, const double* __restrict__ x_A, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_jvp1_rows_body<double>(d_s, mode_d_s, d_A, x_x, x_A, d_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_quadratic_jvp1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_jvp1_warp_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ x_x, const T* __restrict__ x_A, const T* __restrict__ d_x, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            const T v2 = x_x[q1];
            acc0 += v2*(x_A[q0 * n_i + q1] + x_A[q1 * n_i + q0])*tr_ld(d_x, q0);
            acc1 += v2*tr_ld(d_A, q0 * n_i + q1)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_s, row, acc0 + acc1, mode_d_s);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_jvp1_warp_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ x_x, const float* __restrict__ x_A, const float* __restrict__ d_x, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_jvp1_warp_body<float>(d_s, mode_d_s, x_x, x_A, d_x, d_A, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_jvp1_warp_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ x_x, const double* __restrict__ x_A, const double* __restrict__ d_x, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_jvp1_warp_body<double>(d_s, mode_d_s, x_x, x_A, d_x, d_A, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_quadratic_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_pb0_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ x_A, const T* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
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
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += (x_A[i0 * n_i + q0] + x_A[q0 * n_i + i0])*((stage & 1) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(b_x, row, tr_ld(b_s, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb0_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ x_A, const float* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_pb0_rows_body<float>(b_x, mode_b_x, x_x, x_A, b_s, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb0_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ x_A, const double* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_quadratic_pb0_rows_body<double>(b_x, mode_b_x, x_x, x_A, b_s, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_quadratic_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_pb0_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_A, const T* __restrict__ x_x, const T* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += (x_A[i0 * n_i + q0] + x_A[q0 * n_i + i0])*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, tr_ld(b_s, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb0_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_A, const float* __restrict__ x_x, const float* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_pb0_warp_body<float>(b_x, mode_b_x, x_A, x_x, b_s, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb0_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_A, const double* __restrict__ x_x, const double* __restrict__ b_s, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_quadratic_pb0_warp_body<double>(b_x, mode_b_x, x_A, x_x, b_s, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_quadratic_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_quadratic_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ b_s, const T* __restrict__ x_x, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_s, 0)*x_x[e0]*x_x[e1];
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ b_s, const float* __restrict__ x_x, const long long n_i) {
    tr_linalg_quadratic_pb1_body<float>(b_A, mode_b_A, b_s, x_x, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_quadratic_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ b_s, const double* __restrict__ x_x, const long long n_i) {
    tr_linalg_quadratic_pb1_body<double>(b_A, mode_b_A, b_s, x_x, n_i);
}

// tr_linalg_inv_fwd0: batched inv, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_inv_fwd0_body(T* __restrict__ x_B, const int mode_x_B, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = 2 * n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
        W[r * ld + n + c] = r == c ? T(1) : T(0);
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(x_B, (r * w + c) * NB + b, W[r * ld + n + c], mode_x_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_fwd0_f32(float* __restrict__ x_B, const int mode_x_B, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_linalg_inv_fwd0_body<float>(x_B, mode_x_B, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_fwd0_f64(double* __restrict__ x_B, const int mode_x_B, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_linalg_inv_fwd0_body<double>(x_B, mode_x_B, x_A, n_i, ws);
}

// tr_linalg_inv_jvp1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_inv_jvp1_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_B, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_d_A = s_x_B + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_x_B[z] = x_B[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_d_A[z] = tr_ld(d_A, z0 * n_i + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[t * n_i + i0] : x_B[i0 * n_i + q0])*((stage & 2) ? s_d_A[t * n_i + i1] : tr_ld(d_A, q0 * n_i + i1));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_jvp1_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_B, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_jvp1_rows_body<float>(u_c0, mode_u_c0, x_B, d_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_jvp1_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_B, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_jvp1_rows_body<double>(u_c0, mode_u_c0, x_B, d_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_inv_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_inv_jvp2_rows_body(T* __restrict__ d_B, const int mode_d_B, const T* __restrict__ x_B, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_u_c0 = s_x_B + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_B[z] = x_B[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[t * n_i + i1] : x_B[q0 * n_i + i1])*((stage & 2) ? s_u_c0[t * n_i + i0] : tr_ld(u_c0, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_B, row, -acc0, mode_d_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_jvp2_rows_f32(float* __restrict__ d_B, const int mode_d_B, const float* __restrict__ x_B, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_jvp2_rows_body<float>(d_B, mode_d_B, x_B, u_c0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_jvp2_rows_f64(double* __restrict__ d_B, const int mode_d_B, const double* __restrict__ x_B, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_jvp2_rows_body<double>(d_B, mode_d_B, x_B, u_c0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_inv_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_inv_pb0_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_B, const T* __restrict__ b_B, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_B[i0 * n_i + q0]*tr_ld(b_B, i1 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_pb0_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_B, const float* __restrict__ b_B, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_inv_pb0_warp_body<float>(u_c0, mode_u_c0, x_B, b_B, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_pb0_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_B, const double* __restrict__ b_B, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_inv_pb0_warp_body<double>(u_c0, mode_u_c0, x_B, b_B, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_inv_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_inv_pb1_rows_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_B, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_B = sh;
    T* const s_u_c0 = s_x_B + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_B[z] = x_B[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_B[t * n_i + i0] : x_B[q0 * n_i + i0])*((stage & 2) ? s_u_c0[t * n_i + i1] : tr_ld(u_c0, i1 * n_i + q0));
        }
    }
    if (active) {
        tr_store(b_A, row, -acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_pb1_rows_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_B, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_pb1_rows_body<float>(b_A, mode_b_A, x_B, u_c0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_inv_pb1_rows_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_B, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_inv_pb1_rows_body<double>(b_A, mode_b_A, x_B, u_c0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_det_fwd0: batched det, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_det_fwd0_body(T* __restrict__ x_d, const int mode_x_d, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
    }
    T det, logabs;
    tr_lu_det(W, f, n, &det, &logabs);
    if (threadIdx.x == 0) tr_store(x_d, b, det, mode_x_d);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_fwd0_f32(float* __restrict__ x_d, const int mode_x_d, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_linalg_det_fwd0_body<float>(x_d, mode_x_d, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_fwd0_f64(double* __restrict__ x_d, const int mode_x_d, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_linalg_det_fwd0_body<double>(x_d, mode_x_d, x_A, n_i, ws);
}

// tr_linalg_det_jvp1: batched adj, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_det_jvp1_body(T* __restrict__ u_adj_A, const int mode_u_adj_A, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = 2 * n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
    }
    tr_adjugate(W, f, n, u_adj_A, NB, b, mode_u_adj_A);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp1_f32(float* __restrict__ u_adj_A, const int mode_u_adj_A, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_linalg_det_jvp1_body<float>(u_adj_A, mode_u_adj_A, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp1_f64(double* __restrict__ u_adj_A, const int mode_u_adj_A, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_linalg_det_jvp1_body<double>(u_adj_A, mode_u_adj_A, x_A, n_i, ws);
}

// tr_linalg_det_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_det_jvp2_rows_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_adj_A, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_adj_A = sh;
    T* const s_d_A = s_u_adj_A + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_u_adj_A[z] = u_adj_A[z0 * n_i + z1];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_i; rem3 /= n_i;
                const long long z0 = rem3;
                s_d_A[z] = tr_ld(d_A, z1 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += ((stage & 1) ? s_u_adj_A[t] : u_adj_A[q0 * n_i + q1])*((stage & 2) ? s_d_A[t] : tr_ld(d_A, q1 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp2_rows_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_adj_A, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_det_jvp2_rows_body<float>(d_d, mode_d_d, u_adj_A, d_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp2_rows_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_adj_A, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_det_jvp2_rows_body<double>(d_d, mode_d_d, u_adj_A, d_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_det_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_det_jvp2_warp_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_adj_A, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += u_adj_A[q0 * n_i + q1]*tr_ld(d_A, q1 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp2_warp_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_adj_A, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_det_jvp2_warp_body<float>(d_d, mode_d_d, u_adj_A, d_A, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_jvp2_warp_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_adj_A, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_det_jvp2_warp_body<double>(d_d, mode_d_d, u_adj_A, d_A, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_det_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_det_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ u_adj_A, const T* __restrict__ b_d, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = u_adj_A[e1 * n_i + e0]*tr_ld(b_d, 0);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ u_adj_A, const float* __restrict__ b_d, const long long n_i) {
    tr_linalg_det_pb1_body<float>(b_A, mode_b_A, u_adj_A, b_d, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_det_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ u_adj_A, const double* __restrict__ b_d, const long long n_i) {
    tr_linalg_det_pb1_body<double>(b_A, mode_b_A, u_adj_A, b_d, n_i);
}

// tr_linalg_logdet_fwd0: batched logdet, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_logdet_fwd0_body(T* __restrict__ x_d, const int mode_x_d, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
    }
    T det, logabs;
    tr_lu_det(W, f, n, &det, &logabs);
    if (threadIdx.x == 0) tr_store(x_d, b, logabs, mode_x_d);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_fwd0_f32(float* __restrict__ x_d, const int mode_x_d, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_linalg_logdet_fwd0_body<float>(x_d, mode_x_d, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_fwd0_f64(double* __restrict__ x_d, const int mode_x_d, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_linalg_logdet_fwd0_body<double>(x_d, mode_x_d, x_A, n_i, ws);
}

// tr_linalg_logdet_jvp1: batched inv, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_logdet_jvp1_body(T* __restrict__ u_inv_A, const int mode_u_inv_A, const T* __restrict__ x_A, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = 2 * n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
        W[r * ld + n + c] = r == c ? T(1) : T(0);
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(u_inv_A, (r * w + c) * NB + b, W[r * ld + n + c], mode_u_inv_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp1_f32(float* __restrict__ u_inv_A, const int mode_u_inv_A, const float* __restrict__ x_A, const long long n_i, float* __restrict__ ws) {
    tr_linalg_logdet_jvp1_body<float>(u_inv_A, mode_u_inv_A, x_A, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp1_f64(double* __restrict__ u_inv_A, const int mode_u_inv_A, const double* __restrict__ x_A, const long long n_i, double* __restrict__ ws) {
    tr_linalg_logdet_jvp1_body<double>(u_inv_A, mode_u_inv_A, x_A, n_i, ws);
}

// tr_linalg_logdet_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_logdet_jvp2_rows_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_inv_A, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_d_A = s_u_inv_A + ((stage & 1) ? (long long)tile * (1LL) : 0LL);
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_u_inv_A[z] = u_inv_A[z0 * n_i + z1];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                long long rem3 = kk;
                const long long z1 = rem3 % n_i; rem3 /= n_i;
                const long long z0 = rem3;
                s_d_A[z] = tr_ld(d_A, z1 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += ((stage & 1) ? s_u_inv_A[t] : u_inv_A[q0 * n_i + q1])*((stage & 2) ? s_d_A[t] : tr_ld(d_A, q1 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp2_rows_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_inv_A, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_logdet_jvp2_rows_body<float>(d_d, mode_d_d, u_inv_A, d_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp2_rows_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_inv_A, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_logdet_jvp2_rows_body<double>(d_d, mode_d_d, u_inv_A, d_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_logdet_jvp2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_logdet_jvp2_warp_body(T* __restrict__ d_d, const int mode_d_d, const T* __restrict__ u_inv_A, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += u_inv_A[q0 * n_i + q1]*tr_ld(d_A, q1 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_d, row, acc0, mode_d_d);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp2_warp_f32(float* __restrict__ d_d, const int mode_d_d, const float* __restrict__ u_inv_A, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_logdet_jvp2_warp_body<float>(d_d, mode_d_d, u_inv_A, d_A, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_jvp2_warp_f64(double* __restrict__ d_d, const int mode_d_d, const double* __restrict__ u_inv_A, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_logdet_jvp2_warp_body<double>(d_d, mode_d_d, u_inv_A, d_A, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_logdet_pb1: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_logdet_pb1_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ u_inv_A, const T* __restrict__ b_d, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = u_inv_A[e1 * n_i + e0]*tr_ld(b_d, 0);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_pb1_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ u_inv_A, const float* __restrict__ b_d, const long long n_i) {
    tr_linalg_logdet_pb1_body<float>(b_A, mode_b_A, u_inv_A, b_d, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_logdet_pb1_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ u_inv_A, const double* __restrict__ b_d, const long long n_i) {
    tr_linalg_logdet_pb1_body<double>(b_A, mode_b_A, u_inv_A, b_d, n_i);
}

// tr_linalg_solve_fwd0: batched solve, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_fwd0_body(T* __restrict__ x_x, const int mode_x_x, const T* __restrict__ x_A, const T* __restrict__ x_b, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = n + R;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
    }
    for (long long q = threadIdx.x; q < (long long)n * R; q += blockDim.x) {
        const long long r = q / R, c = q % R;
        W[r * ld + n + c] = x_b[(r * R + c) * NB + b];
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(x_x, (r * w + c) * NB + b, W[r * ld + n + c], mode_x_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_fwd0_f32(float* __restrict__ x_x, const int mode_x_x, const float* __restrict__ x_A, const float* __restrict__ x_b, const long long n_i, float* __restrict__ ws) {
    tr_linalg_solve_fwd0_body<float>(x_x, mode_x_x, x_A, x_b, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_fwd0_f64(double* __restrict__ x_x, const int mode_x_x, const double* __restrict__ x_A, const double* __restrict__ x_b, const long long n_i, double* __restrict__ ws) {
    tr_linalg_solve_fwd0_body<double>(x_x, mode_x_x, x_A, x_b, n_i, ws);
}

// tr_linalg_solve_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_jvp2_body(T* __restrict__ du_z0, const int mode_du_z0, const T* __restrict__ d_b, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(d_b, e);
        tr_store(du_z0, e, r1, mode_du_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp2_f32(float* __restrict__ du_z0, const int mode_du_z0, const float* __restrict__ d_b, const long long n_i) {
    tr_linalg_solve_jvp2_body<float>(du_z0, mode_du_z0, d_b, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp2_f64(double* __restrict__ du_z0, const int mode_du_z0, const double* __restrict__ d_b, const long long n_i) {
    tr_linalg_solve_jvp2_body<double>(du_z0, mode_du_z0, d_b, n_i);
}

// tr_linalg_solve_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_jvp3_rows_body(T* __restrict__ du_z0, const int mode_du_z0, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_d_A = sh;
    T* const s_x_x = s_d_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, w0 * n_i + z0);
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
            acc0 += ((stage & 1) ? s_d_A[t * n_i + i0] : tr_ld(d_A, i0 * n_i + q0))*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(du_z0, row, -acc0, mode_du_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp3_rows_f32(float* __restrict__ du_z0, const int mode_du_z0, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_jvp3_rows_body<float>(du_z0, mode_du_z0, d_A, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp3_rows_f64(double* __restrict__ du_z0, const int mode_du_z0, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_jvp3_rows_body<double>(du_z0, mode_du_z0, d_A, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_jvp3_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_jvp3_warp_body(T* __restrict__ du_z0, const int mode_du_z0, const T* __restrict__ d_A, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += tr_ld(d_A, i0 * n_i + q0)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(du_z0, row, -acc0, mode_du_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp3_warp_f32(float* __restrict__ du_z0, const int mode_du_z0, const float* __restrict__ d_A, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_jvp3_warp_body<float>(du_z0, mode_du_z0, d_A, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp3_warp_f64(double* __restrict__ du_z0, const int mode_du_z0, const double* __restrict__ d_A, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_jvp3_warp_body<double>(du_z0, mode_du_z0, d_A, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_solve_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_jvp4_rows_body(T* __restrict__ d_x, const int mode_d_x, const T* __restrict__ u_inv_A, const T* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_du_z0 = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_inv_A[z] = u_inv_A[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_du_z0[z] = tr_ld(du_z0, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[t * n_i + i0] : u_inv_A[i0 * n_i + q0])*((stage & 2) ? s_du_z0[t] : tr_ld(du_z0, q0));
        }
    }
    if (active) {
        tr_store(d_x, row, acc0, mode_d_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp4_rows_f32(float* __restrict__ d_x, const int mode_d_x, const float* __restrict__ u_inv_A, const float* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_jvp4_rows_body<float>(d_x, mode_d_x, u_inv_A, du_z0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp4_rows_f64(double* __restrict__ d_x, const int mode_d_x, const double* __restrict__ u_inv_A, const double* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_jvp4_rows_body<double>(d_x, mode_d_x, u_inv_A, du_z0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_jvp4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_jvp4_warp_body(T* __restrict__ d_x, const int mode_d_x, const T* __restrict__ u_inv_A, const T* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_A[i0 * n_i + q0]*tr_ld(du_z0, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(d_x, row, acc0, mode_d_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp4_warp_f32(float* __restrict__ d_x, const int mode_d_x, const float* __restrict__ u_inv_A, const float* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_jvp4_warp_body<float>(d_x, mode_d_x, u_inv_A, du_z0, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_jvp4_warp_f64(double* __restrict__ d_x, const int mode_d_x, const double* __restrict__ u_inv_A, const double* __restrict__ du_z0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_jvp4_warp_body<double>(d_x, mode_d_x, u_inv_A, du_z0, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_solve_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_pb1_rows_body(T* __restrict__ bu_z0, const int mode_bu_z0, const T* __restrict__ u_inv_A, const T* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_b_x = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_u_inv_A[z] = u_inv_A[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = 1LL;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                s_b_x[z] = tr_ld(b_x, z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[t * n_i + i0] : u_inv_A[q0 * n_i + i0])*((stage & 2) ? s_b_x[t] : tr_ld(b_x, q0));
        }
    }
    if (active) {
        tr_store(bu_z0, row, acc0, mode_bu_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb1_rows_f32(float* __restrict__ bu_z0, const int mode_bu_z0, const float* __restrict__ u_inv_A, const float* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_pb1_rows_body<float>(bu_z0, mode_bu_z0, u_inv_A, b_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb1_rows_f64(double* __restrict__ bu_z0, const int mode_bu_z0, const double* __restrict__ u_inv_A, const double* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_pb1_rows_body<double>(bu_z0, mode_bu_z0, u_inv_A, b_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_pb1_warp_body(T* __restrict__ bu_z0, const int mode_bu_z0, const T* __restrict__ u_inv_A, const T* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_A[q0 * n_i + i0]*tr_ld(b_x, q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(bu_z0, row, acc0, mode_bu_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb1_warp_f32(float* __restrict__ bu_z0, const int mode_bu_z0, const float* __restrict__ u_inv_A, const float* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_pb1_warp_body<float>(bu_z0, mode_bu_z0, u_inv_A, b_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb1_warp_f64(double* __restrict__ bu_z0, const int mode_bu_z0, const double* __restrict__ u_inv_A, const double* __restrict__ b_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_pb1_warp_body<double>(bu_z0, mode_bu_z0, u_inv_A, b_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_solve_pb2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_pb2_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ bu_z0, const T* __restrict__ x_x, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -tr_ld(bu_z0, e0)*x_x[e1];
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb2_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ bu_z0, const float* __restrict__ x_x, const long long n_i) {
    tr_linalg_solve_pb2_body<float>(b_A, mode_b_A, bu_z0, x_x, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb2_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ bu_z0, const double* __restrict__ x_x, const long long n_i) {
    tr_linalg_solve_pb2_body<double>(b_A, mode_b_A, bu_z0, x_x, n_i);
}

// tr_linalg_solve_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_pb3_body(T* __restrict__ b_b, const int mode_b_b, const T* __restrict__ bu_z0, const long long n_i) {
    const long long total = n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long e0 = e;
        const T r1 = tr_ld(bu_z0, e);
        tr_store(b_b, e, r1, mode_b_b);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb3_f32(float* __restrict__ b_b, const int mode_b_b, const float* __restrict__ bu_z0, const long long n_i) {
    tr_linalg_solve_pb3_body<float>(b_b, mode_b_b, bu_z0, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_pb3_f64(double* __restrict__ b_b, const int mode_b_b, const double* __restrict__ bu_z0, const long long n_i) {
    tr_linalg_solve_pb3_body<double>(b_b, mode_b_b, bu_z0, n_i);
}

// tr_linalg_solve_matrix_fwd0: batched solve, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_fwd0_body(T* __restrict__ x_X, const int mode_x_X, const T* __restrict__ x_A, const T* __restrict__ x_B, const long long n_i, const long long n_k, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(n_k);
    const int ld = n + R;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_A[(r * n + c) * NB + b];
    }
    for (long long q = threadIdx.x; q < (long long)n * R; q += blockDim.x) {
        const long long r = q / R, c = q % R;
        W[r * ld + n + c] = x_B[(r * R + c) * NB + b];
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(x_X, (r * w + c) * NB + b, W[r * ld + n + c], mode_x_X);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_fwd0_f32(float* __restrict__ x_X, const int mode_x_X, const float* __restrict__ x_A, const float* __restrict__ x_B, const long long n_i, const long long n_k, float* __restrict__ ws) {
    tr_linalg_solve_matrix_fwd0_body<float>(x_X, mode_x_X, x_A, x_B, n_i, n_k, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_fwd0_f64(double* __restrict__ x_X, const int mode_x_X, const double* __restrict__ x_A, const double* __restrict__ x_B, const long long n_i, const long long n_k, double* __restrict__ ws) {
    tr_linalg_solve_matrix_fwd0_body<double>(x_X, mode_x_X, x_A, x_B, n_i, n_k, ws);
}

// tr_linalg_solve_matrix_jvp2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_jvp2_body(T* __restrict__ du_z0, const int mode_du_z0, const T* __restrict__ d_B, const long long n_k, const long long n_i) {
    const long long total = n_i * n_k;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_k; rem1 /= n_k;
        const long long e0 = rem1;
        const T r2 = tr_ld(d_B, e);
        tr_store(du_z0, e, r2, mode_du_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp2_f32(float* __restrict__ du_z0, const int mode_du_z0, const float* __restrict__ d_B, const long long n_k, const long long n_i) {
    tr_linalg_solve_matrix_jvp2_body<float>(du_z0, mode_du_z0, d_B, n_k, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp2_f64(double* __restrict__ du_z0, const int mode_du_z0, const double* __restrict__ d_B, const long long n_k, const long long n_i) {
    tr_linalg_solve_matrix_jvp2_body<double>(du_z0, mode_du_z0, d_B, n_k, n_i);
}

// tr_linalg_solve_matrix_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_jvp3_rows_body(T* __restrict__ du_z0, const int mode_du_z0, const T* __restrict__ x_X, const T* __restrict__ d_A, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_X = sh;
    T* const s_d_A = s_x_X + ((stage & 1) ? (long long)tile * (n_k) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_k; rem1 /= n_k;
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
                const long long z0 = kk;
                const long long w1 = p;
                s_x_X[z] = x_X[z0 * n_k + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_A[z] = tr_ld(d_A, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_X[t * n_k + i1] : x_X[q0 * n_k + i1])*((stage & 2) ? s_d_A[t * n_i + i0] : tr_ld(d_A, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(du_z0, row, -acc0, mode_du_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp3_rows_f32(float* __restrict__ du_z0, const int mode_du_z0, const float* __restrict__ x_X, const float* __restrict__ d_A, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_jvp3_rows_body<float>(du_z0, mode_du_z0, x_X, d_A, n_k, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp3_rows_f64(double* __restrict__ du_z0, const int mode_du_z0, const double* __restrict__ x_X, const double* __restrict__ d_A, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_jvp3_rows_body<double>(du_z0, mode_du_z0, x_X, d_A, n_k, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_matrix_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_jvp4_rows_body(T* __restrict__ d_X, const int mode_d_X, const T* __restrict__ u_inv_A, const T* __restrict__ du_z0, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_du_z0 = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_k; rem1 /= n_k;
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
                const long long w0 = p;
                s_u_inv_A[z] = u_inv_A[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_k;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_du_z0[z] = tr_ld(du_z0, z0 * n_k + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[t * n_i + i0] : u_inv_A[i0 * n_i + q0])*((stage & 2) ? s_du_z0[t * n_k + i1] : tr_ld(du_z0, q0 * n_k + i1));
        }
    }
    if (active) {
        tr_store(d_X, row, acc0, mode_d_X);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp4_rows_f32(float* __restrict__ d_X, const int mode_d_X, const float* __restrict__ u_inv_A, const float* __restrict__ du_z0, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_jvp4_rows_body<float>(d_X, mode_d_X, u_inv_A, du_z0, n_k, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_jvp4_rows_f64(double* __restrict__ d_X, const int mode_d_X, const double* __restrict__ u_inv_A, const double* __restrict__ du_z0, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_jvp4_rows_body<double>(d_X, mode_d_X, u_inv_A, du_z0, n_k, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_matrix_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_pb1_rows_body(T* __restrict__ bu_z0, const int mode_bu_z0, const T* __restrict__ u_inv_A, const T* __restrict__ b_X, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_A = sh;
    T* const s_b_X = s_u_inv_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
    const long long row_ = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const bool active = row_ < nrows;
    const long long row = active ? row_ : 0;
    long long rem1 = row;
    const long long i1 = rem1 % n_k; rem1 /= n_k;
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
                s_u_inv_A[z] = u_inv_A[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_k;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_X[z] = tr_ld(b_X, z0 * n_k + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_A[t * n_i + i0] : u_inv_A[q0 * n_i + i0])*((stage & 2) ? s_b_X[t * n_k + i1] : tr_ld(b_X, q0 * n_k + i1));
        }
    }
    if (active) {
        tr_store(bu_z0, row, acc0, mode_bu_z0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb1_rows_f32(float* __restrict__ bu_z0, const int mode_bu_z0, const float* __restrict__ u_inv_A, const float* __restrict__ b_X, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_pb1_rows_body<float>(bu_z0, mode_bu_z0, u_inv_A, b_X, n_k, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb1_rows_f64(double* __restrict__ bu_z0, const int mode_bu_z0, const double* __restrict__ u_inv_A, const double* __restrict__ b_X, const long long n_k, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_solve_matrix_pb1_rows_body<double>(bu_z0, mode_bu_z0, u_inv_A, b_X, n_k, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_solve_matrix_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_pb2_warp_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_X, const T* __restrict__ bu_z0, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_X[i1 * n_k + q0]*tr_ld(bu_z0, i0 * n_k + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_A, row, -acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb2_warp_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_X, const float* __restrict__ bu_z0, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_matrix_pb2_warp_body<float>(b_A, mode_b_A, x_X, bu_z0, n_i, n_k, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb2_warp_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_X, const double* __restrict__ bu_z0, const long long n_i, const long long n_k, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_solve_matrix_pb2_warp_body<double>(b_A, mode_b_A, x_X, bu_z0, n_i, n_k, nrows, nk, chunk, wpr);
}

// tr_linalg_solve_matrix_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_solve_matrix_pb3_body(T* __restrict__ b_B, const int mode_b_B, const T* __restrict__ bu_z0, const long long n_k, const long long n_i) {
    const long long total = n_i * n_k;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_k; rem1 /= n_k;
        const long long e0 = rem1;
        const T r2 = tr_ld(bu_z0, e);
        tr_store(b_B, e, r2, mode_b_B);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb3_f32(float* __restrict__ b_B, const int mode_b_B, const float* __restrict__ bu_z0, const long long n_k, const long long n_i) {
    tr_linalg_solve_matrix_pb3_body<float>(b_B, mode_b_B, bu_z0, n_k, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_solve_matrix_pb3_f64(double* __restrict__ b_B, const int mode_b_B, const double* __restrict__ bu_z0, const long long n_k, const long long n_i) {
    tr_linalg_solve_matrix_pb3_body<double>(b_B, mode_b_B, bu_z0, n_k, n_i);
}

// tr_linalg_mahalanobis_fwd0: batched inv, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_fwd0_body(T* __restrict__ u_inv_S, const int mode_u_inv_S, const T* __restrict__ x_S, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = 2 * n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = x_S[(r * n + c) * NB + b];
        W[r * ld + n + c] = r == c ? T(1) : T(0);
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(u_inv_S, (r * w + c) * NB + b, W[r * ld + n + c], mode_u_inv_S);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd0_f32(float* __restrict__ u_inv_S, const int mode_u_inv_S, const float* __restrict__ x_S, const long long n_i, float* __restrict__ ws) {
    tr_linalg_mahalanobis_fwd0_body<float>(u_inv_S, mode_u_inv_S, x_S, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd0_f64(double* __restrict__ u_inv_S, const int mode_u_inv_S, const double* __restrict__ x_S, const long long n_i, double* __restrict__ ws) {
    tr_linalg_mahalanobis_fwd0_body<double>(u_inv_S, mode_u_inv_S, x_S, n_i, ws);
}

// tr_linalg_mahalanobis_fwd1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_fwd1_rows_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_S = sh;
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_u_inv_S[z] = u_inv_S[z0 * n_i + z1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += ((stage & 1) ? s_u_inv_S[t] : u_inv_S[q0 * n_i + q1])*x_x[q0]*x_x[q1];
        }
    }
    if (active) {
        tr_store(x_m, row, acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd1_rows_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_fwd1_rows_body<float>(x_m, mode_x_m, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd1_rows_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_fwd1_rows_body<double>(x_m, mode_x_m, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_fwd1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_fwd1_warp_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            acc0 += u_inv_S[q0 * n_i + q1]*x_x[q0]*x_x[q1];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(x_m, row, acc0, mode_x_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd1_warp_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_fwd1_warp_body<float>(x_m, mode_x_m, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_fwd1_warp_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_fwd1_warp_body<double>(x_m, mode_x_m, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_mahalanobis_jvp2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_jvp2_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ u_inv_S, const T* __restrict__ d_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_S = sh;
    T* const s_d_S = s_u_inv_S + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_u_inv_S[z] = u_inv_S[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_d_S[z] = tr_ld(d_S, z0 * n_i + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_inv_S[t * n_i + i0] : u_inv_S[i0 * n_i + q0])*((stage & 2) ? s_d_S[t * n_i + i1] : tr_ld(d_S, q0 * n_i + i1));
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp2_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ u_inv_S, const float* __restrict__ d_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp2_rows_body<float>(u_c0, mode_u_c0, u_inv_S, d_S, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp2_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ u_inv_S, const double* __restrict__ d_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp2_rows_body<double>(u_c0, mode_u_c0, u_inv_S, d_S, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_jvp3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_jvp3_rows_body(T* __restrict__ du_inv_S, const int mode_du_inv_S, const T* __restrict__ u_c0, const T* __restrict__ u_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_c0 = sh;
    T* const s_u_inv_S = s_u_c0 + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, w0 * n_i + z0);
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_u_inv_S[z] = u_inv_S[z0 * n_i + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_u_c0[t * n_i + i0] : tr_ld(u_c0, i0 * n_i + q0))*((stage & 2) ? s_u_inv_S[t * n_i + i1] : u_inv_S[q0 * n_i + i1]);
        }
    }
    if (active) {
        tr_store(du_inv_S, row, -acc0, mode_du_inv_S);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp3_rows_f32(float* __restrict__ du_inv_S, const int mode_du_inv_S, const float* __restrict__ u_c0, const float* __restrict__ u_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp3_rows_body<float>(du_inv_S, mode_du_inv_S, u_c0, u_inv_S, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp3_rows_f64(double* __restrict__ du_inv_S, const int mode_du_inv_S, const double* __restrict__ u_c0, const double* __restrict__ u_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp3_rows_body<double>(du_inv_S, mode_du_inv_S, u_c0, u_inv_S, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_jvp4_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_jvp4_rows_body(T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ du_inv_S, const T* __restrict__ x_x, const T* __restrict__ u_inv_S, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_du_inv_S = sh;
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
                const long long z1 = rem2 % n_i; rem2 /= n_i;
                const long long z0 = rem2;
                s_du_inv_S[z] = tr_ld(du_inv_S, z0 * n_i + z1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            const T v3 = x_x[q1];
            acc0 += v3*(u_inv_S[q0 * n_i + q1] + u_inv_S[q1 * n_i + q0])*tr_ld(d_x, q0);
            acc1 += v3*((stage & 1) ? s_du_inv_S[t] : tr_ld(du_inv_S, q0 * n_i + q1))*x_x[q0];
        }
    }
    if (active) {
        tr_store(d_m, row, acc0 + acc1, mode_d_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp4_rows_f32(float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ du_inv_S, const float* __restrict__ x_x, const float* __restrict__ u_inv_S, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp4_rows_body<float>(d_m, mode_d_m, du_inv_S, x_x, u_inv_S, d_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp4_rows_f64(double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ du_inv_S, const double* __restrict__ x_x, const double* __restrict__ u_inv_S, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_jvp4_rows_body<double>(d_m, mode_d_m, du_inv_S, x_x, u_inv_S, d_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_jvp4_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_jvp4_warp_body(T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ x_x, const T* __restrict__ u_inv_S, const T* __restrict__ d_x, const T* __restrict__ du_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            long long rem1 = kk;
            const long long q1 = rem1 % n_i; rem1 /= n_i;
            const long long q0 = rem1;
            const T v2 = x_x[q1];
            acc0 += v2*(u_inv_S[q0 * n_i + q1] + u_inv_S[q1 * n_i + q0])*tr_ld(d_x, q0);
            acc1 += v2*tr_ld(du_inv_S, q0 * n_i + q1)*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    acc1 = tr_warp_sum(acc1);
    if (lane == 0) {
        tr_store(d_m, row, acc0 + acc1, mode_d_m);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp4_warp_f32(float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ x_x, const float* __restrict__ u_inv_S, const float* __restrict__ d_x, const float* __restrict__ du_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_jvp4_warp_body<float>(d_m, mode_d_m, x_x, u_inv_S, d_x, du_inv_S, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_jvp4_warp_f64(double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ x_x, const double* __restrict__ u_inv_S, const double* __restrict__ d_x, const double* __restrict__ du_inv_S, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_jvp4_warp_body<double>(d_m, mode_d_m, x_x, u_inv_S, d_x, du_inv_S, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_mahalanobis_pb0_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb0_rows_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ u_inv_S, const T* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_x = sh;
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
                s_x_x[z] = x_x[z0];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += (u_inv_S[i0 * n_i + q0] + u_inv_S[q0 * n_i + i0])*((stage & 1) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(b_x, row, tr_ld(b_m, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb0_rows_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ u_inv_S, const float* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb0_rows_body<float>(b_x, mode_b_x, x_x, u_inv_S, b_m, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb0_rows_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ u_inv_S, const double* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb0_rows_body<double>(b_x, mode_b_x, x_x, u_inv_S, b_m, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_pb0_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb0_warp_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const T* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += (u_inv_S[i0 * n_i + q0] + u_inv_S[q0 * n_i + i0])*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_x, row, tr_ld(b_m, 0) * acc0, mode_b_x);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb0_warp_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const float* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb0_warp_body<float>(b_x, mode_b_x, u_inv_S, x_x, b_m, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb0_warp_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const double* __restrict__ b_m, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb0_warp_body<double>(b_x, mode_b_x, u_inv_S, x_x, b_m, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_mahalanobis_pb1_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb1_rows_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_S = sh;
    T* const s_x_x = s_u_inv_S + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_u_inv_S[z] = u_inv_S[z0 * n_i + w1];
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
            acc0 += ((stage & 1) ? s_u_inv_S[t * n_i + i0] : u_inv_S[q0 * n_i + i0])*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb1_rows_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb1_rows_body<float>(u_c0, mode_u_c0, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb1_rows_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb1_rows_body<double>(u_c0, mode_u_c0, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb1_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_S[q0 * n_i + i0]*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb1_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb1_warp_body<float>(u_c0, mode_u_c0, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb1_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb1_warp_body<double>(u_c0, mode_u_c0, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_mahalanobis_pb2_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb2_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_u_inv_S = sh;
    T* const s_x_x = s_u_inv_S + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_inv_S[z] = u_inv_S[w0 * n_i + z0];
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
            acc0 += ((stage & 1) ? s_u_inv_S[t * n_i + i0] : u_inv_S[i0 * n_i + q0])*((stage & 2) ? s_x_x[t] : x_x[q0]);
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb2_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb2_rows_body<float>(u_c1, mode_u_c1, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb2_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_mahalanobis_pb2_rows_body<double>(u_c1, mode_u_c1, u_inv_S, x_x, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_mahalanobis_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb2_warp_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ u_inv_S, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long row = blockIdx.x * (long long)((blockDim.x >> 5) / wpr) + warp / wpr;
    if (row >= nrows) return;  // whole warps leave together
    const long long i0 = row;
    const long long kbeg = blockIdx.y * chunk;
    const long long kend = tr_min(nk, kbeg + chunk);
    T acc0 = T(0);
    for (long long kk = kbeg + 32 * (warp % wpr) + lane; kk < kend; kk += 32 * wpr) {
            const long long q0 = kk;
            acc0 += u_inv_S[i0 * n_i + q0]*x_x[q0];
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb2_warp_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ u_inv_S, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb2_warp_body<float>(u_c1, mode_u_c1, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb2_warp_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ u_inv_S, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_mahalanobis_pb2_warp_body<double>(u_c1, mode_u_c1, u_inv_S, x_x, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_mahalanobis_pb3: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_mahalanobis_pb3_body(T* __restrict__ b_S, const int mode_b_S, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const T* __restrict__ b_m, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -u_c0[e0]*u_c1[e1]*tr_ld(b_m, 0);
        tr_store(b_S, e, r2, mode_b_S);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb3_f32(float* __restrict__ b_S, const int mode_b_S, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const float* __restrict__ b_m, const long long n_i) {
    tr_linalg_mahalanobis_pb3_body<float>(b_S, mode_b_S, u_c0, u_c1, b_m, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_mahalanobis_pb3_f64(double* __restrict__ b_S, const int mode_b_S, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const double* __restrict__ b_m, const long long n_i) {
    tr_linalg_mahalanobis_pb3_body<double>(b_S, mode_b_S, u_c0, u_c1, b_m, n_i);
}

// tr_linalg_cayley_fwd0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_fwd0_body(T* __restrict__ u_t0, const int mode_u_t0, const T* __restrict__ x_A, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -x_A[e] + (e0 == e1 ? T(1) : T(0));
        tr_store(u_t0, e, r2, mode_u_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd0_f32(float* __restrict__ u_t0, const int mode_u_t0, const float* __restrict__ x_A, const long long n_i) {
    tr_linalg_cayley_fwd0_body<float>(u_t0, mode_u_t0, x_A, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd0_f64(double* __restrict__ u_t0, const int mode_u_t0, const double* __restrict__ x_A, const long long n_i) {
    tr_linalg_cayley_fwd0_body<double>(u_t0, mode_u_t0, x_A, n_i);
}

// tr_linalg_cayley_fwd1: batched inv, one block per matrix; the matrix axes come first, batch axes last
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_fwd1_body(T* __restrict__ x_M, const int mode_x_M, const T* __restrict__ u_t0, const long long n_i, T* __restrict__ ws) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    const int n = (int)n_i;
    const long long NB = 1LL;
    const int R = (int)(1LL);
    const int ld = 2 * n;
    const long long b = blockIdx.x;
    T* const W = ws ? ws + b * ((long long)n * ld + n) : reinterpret_cast<T*>(tr_smem);
    T* const f = W + (long long)n * ld;
    for (long long q = threadIdx.x; q < (long long)n * n; q += blockDim.x) {
        const long long r = q / n, c = q % n;
        W[r * ld + c] = u_t0[(r * n + c) * NB + b];
        W[r * ld + n + c] = r == c ? T(1) : T(0);
    }
    tr_gauss_jordan(W, f, n, ld);
    const int w = ld - n;
    for (long long q = threadIdx.x; q < (long long)n * w; q += blockDim.x) {
        const long long r = q / w, c = q % w;
        tr_store(x_M, (r * w + c) * NB + b, W[r * ld + n + c], mode_x_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd1_f32(float* __restrict__ x_M, const int mode_x_M, const float* __restrict__ u_t0, const long long n_i, float* __restrict__ ws) {
    tr_linalg_cayley_fwd1_body<float>(x_M, mode_x_M, u_t0, n_i, ws);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd1_f64(double* __restrict__ x_M, const int mode_x_M, const double* __restrict__ u_t0, const long long n_i, double* __restrict__ ws) {
    tr_linalg_cayley_fwd1_body<double>(x_M, mode_x_M, u_t0, n_i, ws);
}

// tr_linalg_cayley_fwd2: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_fwd2_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_A, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = x_A[e] + (e1 == e0 ? T(1) : T(0));
        tr_store(u_c0, e, r2, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd2_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_A, const long long n_i) {
    tr_linalg_cayley_fwd2_body<float>(u_c0, mode_u_c0, x_A, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd2_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_A, const long long n_i) {
    tr_linalg_cayley_fwd2_body<double>(u_c0, mode_u_c0, x_A, n_i);
}

// tr_linalg_cayley_fwd3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_fwd3_rows_body(T* __restrict__ x_Q, const int mode_x_Q, const T* __restrict__ x_M, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_u_c0 = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_x_M[z] = x_M[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_u_c0[z] = u_c0[z0 * n_i + w1];
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i0] : x_M[i0 * n_i + q0])*((stage & 2) ? s_u_c0[t * n_i + i1] : u_c0[q0 * n_i + i1]);
        }
    }
    if (active) {
        tr_store(x_Q, row, acc0, mode_x_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd3_rows_f32(float* __restrict__ x_Q, const int mode_x_Q, const float* __restrict__ x_M, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_fwd3_rows_body<float>(x_Q, mode_x_Q, x_M, u_c0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_fwd3_rows_f64(double* __restrict__ x_Q, const int mode_x_Q, const double* __restrict__ x_M, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_fwd3_rows_body<double>(x_Q, mode_x_Q, x_M, u_c0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_jvp4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp4_body(T* __restrict__ du_t0, const int mode_du_t0, const T* __restrict__ d_A, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -tr_ld(d_A, e);
        tr_store(du_t0, e, r2, mode_du_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp4_f32(float* __restrict__ du_t0, const int mode_du_t0, const float* __restrict__ d_A, const long long n_i) {
    tr_linalg_cayley_jvp4_body<float>(du_t0, mode_du_t0, d_A, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp4_f64(double* __restrict__ du_t0, const int mode_du_t0, const double* __restrict__ d_A, const long long n_i) {
    tr_linalg_cayley_jvp4_body<double>(du_t0, mode_du_t0, d_A, n_i);
}

// tr_linalg_cayley_jvp5_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp5_rows_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_M, const T* __restrict__ du_t0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_du_t0 = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_x_M[z] = x_M[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_du_t0[z] = tr_ld(du_t0, z0 * n_i + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i0] : x_M[i0 * n_i + q0])*((stage & 2) ? s_du_t0[t * n_i + i1] : tr_ld(du_t0, q0 * n_i + i1));
        }
    }
    if (active) {
        tr_store(u_c1, row, acc0, mode_u_c1);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp5_rows_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_M, const float* __restrict__ du_t0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp5_rows_body<float>(u_c1, mode_u_c1, x_M, du_t0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp5_rows_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_M, const double* __restrict__ du_t0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp5_rows_body<double>(u_c1, mode_u_c1, x_M, du_t0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_jvp6_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp6_rows_body(T* __restrict__ d_M, const int mode_d_M, const T* __restrict__ x_M, const T* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_u_c1 = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_M[z] = x_M[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_c1[z] = tr_ld(u_c1, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i1] : x_M[q0 * n_i + i1])*((stage & 2) ? s_u_c1[t * n_i + i0] : tr_ld(u_c1, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_M, row, -acc0, mode_d_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp6_rows_f32(float* __restrict__ d_M, const int mode_d_M, const float* __restrict__ x_M, const float* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp6_rows_body<float>(d_M, mode_d_M, x_M, u_c1, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp6_rows_f64(double* __restrict__ d_M, const int mode_d_M, const double* __restrict__ x_M, const double* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp6_rows_body<double>(d_M, mode_d_M, x_M, u_c1, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_jvp7: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp7_body(T* __restrict__ d_Q, const int mode_d_Q, const T* __restrict__ d_M, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(d_M, e);
        tr_store(d_Q, e, r2, mode_d_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp7_f32(float* __restrict__ d_Q, const int mode_d_Q, const float* __restrict__ d_M, const long long n_i) {
    tr_linalg_cayley_jvp7_body<float>(d_Q, mode_d_Q, d_M, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp7_f64(double* __restrict__ d_Q, const int mode_d_Q, const double* __restrict__ d_M, const long long n_i) {
    tr_linalg_cayley_jvp7_body<double>(d_Q, mode_d_Q, d_M, n_i);
}

// tr_linalg_cayley_jvp8_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp8_rows_body(T* __restrict__ d_Q, const int mode_d_Q, const T* __restrict__ x_A, const T* __restrict__ d_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_A = sh;
    T* const s_d_M = s_x_A + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_A[z] = x_A[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_d_M[z] = tr_ld(d_M, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_A[t * n_i + i1] : x_A[q0 * n_i + i1])*((stage & 2) ? s_d_M[t * n_i + i0] : tr_ld(d_M, i0 * n_i + q0));
        }
    }
    if (active) {
        tr_store(d_Q, row, acc0, mode_d_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp8_rows_f32(float* __restrict__ d_Q, const int mode_d_Q, const float* __restrict__ x_A, const float* __restrict__ d_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp8_rows_body<float>(d_Q, mode_d_Q, x_A, d_M, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp8_rows_f64(double* __restrict__ d_Q, const int mode_d_Q, const double* __restrict__ x_A, const double* __restrict__ d_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp8_rows_body<double>(d_Q, mode_d_Q, x_A, d_M, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_jvp9_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_jvp9_rows_body(T* __restrict__ d_Q, const int mode_d_Q, const T* __restrict__ x_M, const T* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_d_A = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                const long long w0 = p;
                s_x_M[z] = x_M[w0 * n_i + z0];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_d_A[z] = tr_ld(d_A, z0 * n_i + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i0] : x_M[i0 * n_i + q0])*((stage & 2) ? s_d_A[t * n_i + i1] : tr_ld(d_A, q0 * n_i + i1));
        }
    }
    if (active) {
        tr_store(d_Q, row, acc0, mode_d_Q);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp9_rows_f32(float* __restrict__ d_Q, const int mode_d_Q, const float* __restrict__ x_M, const float* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp9_rows_body<float>(d_Q, mode_d_Q, x_M, d_A, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_jvp9_rows_f64(double* __restrict__ d_Q, const int mode_d_Q, const double* __restrict__ x_M, const double* __restrict__ d_A, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_jvp9_rows_body<double>(d_Q, mode_d_Q, x_M, d_A, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_pb0: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb0_body(T* __restrict__ b_M, const int mode_b_M, const T* __restrict__ b_Q, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_Q, e);
        tr_store(b_M, e, r2, mode_b_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb0_f32(float* __restrict__ b_M, const int mode_b_M, const float* __restrict__ b_Q, const long long n_i) {
    tr_linalg_cayley_pb0_body<float>(b_M, mode_b_M, b_Q, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb0_f64(double* __restrict__ b_M, const int mode_b_M, const double* __restrict__ b_Q, const long long n_i) {
    tr_linalg_cayley_pb0_body<double>(b_M, mode_b_M, b_Q, n_i);
}

// tr_linalg_cayley_pb1_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb1_warp_body(T* __restrict__ b_M, const int mode_b_M, const T* __restrict__ x_A, const T* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_A[i1 * n_i + q0]*tr_ld(b_Q, i0 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(b_M, row, acc0, mode_b_M);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb1_warp_f32(float* __restrict__ b_M, const int mode_b_M, const float* __restrict__ x_A, const float* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_cayley_pb1_warp_body<float>(b_M, mode_b_M, x_A, b_Q, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb1_warp_f64(double* __restrict__ b_M, const int mode_b_M, const double* __restrict__ x_A, const double* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_cayley_pb1_warp_body<double>(b_M, mode_b_M, x_A, b_Q, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_cayley_pb2_warp: reduction, wpr warps per output element (1 when there are many); lanes stride over the
// reduced indices
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb2_warp_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_M, const T* __restrict__ b_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
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
            acc0 += x_M[i0 * n_i + q0]*tr_ld(b_M, i1 * n_i + q0);
    }
    acc0 = tr_warp_sum(acc0);
    if (lane == 0) {
        tr_store(u_c0, row, acc0, mode_u_c0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb2_warp_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_M, const float* __restrict__ b_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_cayley_pb2_warp_body<float>(u_c0, mode_u_c0, x_M, b_M, n_i, nrows, nk, chunk, wpr);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb2_warp_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_M, const double* __restrict__ b_M, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int wpr) {
    tr_linalg_cayley_pb2_warp_body<double>(u_c0, mode_u_c0, x_M, b_M, n_i, nrows, nk, chunk, wpr);
}

// tr_linalg_cayley_pb3_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb3_rows_body(T* __restrict__ bu_t0, const int mode_bu_t0, const T* __restrict__ x_M, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_u_c0 = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_M[z] = x_M[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w0 = p;
                s_u_c0[z] = tr_ld(u_c0, w0 * n_i + z0);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i0] : x_M[q0 * n_i + i0])*((stage & 2) ? s_u_c0[t * n_i + i1] : tr_ld(u_c0, i1 * n_i + q0));
        }
    }
    if (active) {
        tr_store(bu_t0, row, -acc0, mode_bu_t0);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb3_rows_f32(float* __restrict__ bu_t0, const int mode_bu_t0, const float* __restrict__ x_M, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_pb3_rows_body<float>(bu_t0, mode_bu_t0, x_M, u_c0, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb3_rows_f64(double* __restrict__ bu_t0, const int mode_bu_t0, const double* __restrict__ x_M, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_pb3_rows_body<double>(bu_t0, mode_bu_t0, x_M, u_c0, n_i, nrows, nk, chunk, tile, stage);
}

// tr_linalg_cayley_pb4: elementwise, grid-stride over the flat index e
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb4_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ bu_t0, const long long n_i) {
    const long long total = n_i * n_i;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = -tr_ld(bu_t0, e);
        tr_store(b_A, e, r2, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb4_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ bu_t0, const long long n_i) {
    tr_linalg_cayley_pb4_body<float>(b_A, mode_b_A, bu_t0, n_i);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb4_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ bu_t0, const long long n_i) {
    tr_linalg_cayley_pb4_body<double>(b_A, mode_b_A, bu_t0, n_i);
}

// tr_linalg_cayley_pb5_rows: reduction, one thread per output element; reduced-index tiles staged in shared memory
template <typename T>
__device__ __forceinline__ void tr_linalg_cayley_pb5_rows_body(T* __restrict__ b_A, const int mode_b_A, const T* __restrict__ x_M, const T* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    T* const sh = reinterpret_cast<T*>(tr_smem);
    T* const s_x_M = sh;
    T* const s_b_Q = s_x_M + ((stage & 1) ? (long long)tile * (n_i) : 0LL);
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
                s_x_M[z] = x_M[z0 * n_i + w1];
            }
        }
        if (stage & 2) {
            const long long per = n_i;
            for (long long z = threadIdx.x; z < (long long)tn * per; z += blockDim.x) {
                const long long kk = k0 + z / per;
                long long p = z % per;
                const long long z0 = kk;
                const long long w1 = p;
                s_b_Q[z] = tr_ld(b_Q, z0 * n_i + w1);
            }
        }
        if (stage) __syncthreads();
        if (!active) continue;
        for (int t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += ((stage & 1) ? s_x_M[t * n_i + i0] : x_M[q0 * n_i + i0])*((stage & 2) ? s_b_Q[t * n_i + i1] : tr_ld(b_Q, q0 * n_i + i1));
        }
    }
    if (active) {
        tr_store(b_A, row, acc0, mode_b_A);
    }
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb5_rows_f32(float* __restrict__ b_A, const int mode_b_A, const float* __restrict__ x_M, const float* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_pb5_rows_body<float>(b_A, mode_b_A, x_M, b_Q, n_i, nrows, nk, chunk, tile, stage);
}
extern "C" __global__ void __launch_bounds__(TR_BLOCK) tr_linalg_cayley_pb5_rows_f64(double* __restrict__ b_A, const int mode_b_A, const double* __restrict__ x_M, const double* __restrict__ b_Q, const long long n_i, const long long nrows, const long long nk, const long long chunk, const int tile, const int stage) {
    tr_linalg_cayley_pb5_rows_body<double>(b_A, mode_b_A, x_M, b_Q, n_i, nrows, nk, chunk, tile, stage);
}
