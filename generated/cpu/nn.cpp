// @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
// Native CPU kernels for logsumexp, softmax, log_softmax, cross_entropy, gaussian_kernel_sum: each has a float32 (_f32) and a float64 (_f64) extern "C"
// entry point. The plan (buffers, steps, parameters) is the .json file beside this one; runtime/native.py
// compiles this file with the system C++ compiler (OpenMP) and runs the plan on NumPy arrays.

#define TR_TILE 256
#define TR_CHUNK 4096
// ---- helpers shared by every native CPU kernel (templates/cpu_helpers.h.j2) ---------------------------------
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace std;  // float overloads of the math functions

// ---- vectorizable exp and erf (DEV STUB, replaced by the erf branch's version) --------
static inline double tr_exp(double x) {
    const double L2E = 1.4426950408889634, LN2HI = 6.93147180369123816490e-01, LN2LO = 1.90821492927058770002e-10;
    const double SH = 6755399441055744.0;
    double xc = x < -745.2 ? -745.2 : x;
    xc = xc > 709.8 ? 709.8 : xc;
    double t = xc * L2E + SH;
    double n = t - SH;
    double r = xc - n * LN2HI - n * LN2LO;
    double p = 1.0/39916800;
    p = p*r + 1.0/3628800; p = p*r + 1.0/362880; p = p*r + 1.0/40320; p = p*r + 1.0/5040; p = p*r + 1.0/720;
    p = p*r + 1.0/120; p = p*r + 1.0/24; p = p*r + 1.0/6; p = p*r + 0.5; p = p*r + 1.0; p = p*r + 1.0;
    int64_t k = __builtin_bit_cast(int64_t, t) - __builtin_bit_cast(int64_t, SH);
    int64_t k1 = k >> 1;
    double s1 = __builtin_bit_cast(double, (k1 + 1023) << 52), s2 = __builtin_bit_cast(double, (k - k1 + 1023) << 52);
    double y = p * s1 * s2;
    y = x > 709.8 ? HUGE_VAL : y;
    y = x < -745.2 ? 0.0 : y;
    return x != x ? x : y;
}
static inline float tr_exp(float x) { return (float)tr_exp((double)x); }
static inline double tr_erf(double x) { return std::erf(x); }
static inline float tr_erf(float x) { return std::erf(x); }

template <typename T> static inline T tr_sq(T x) { return x * x; }
template <typename T> static inline T rsqrt(T x) { return T(1) / sqrt(x); }
static inline long long tr_min(long long a, long long b) { return a < b ? a : b; }
// σ(x) accurate in both tails: e = exp(-|x|) <= 1, then 1/(1 + e) or e/(1 + e)
template <typename T> static inline T tr_sigmoid(T x) {
    const T e = tr_exp(-fabs(x));
    return (x >= T(0) ? T(1) : e) / (T(1) + e);
}
template <typename T> static inline T tr_softplus(T x) { return (x > T(0) ? x : T(0)) + log1p(tr_exp(-fabs(x))); }
template <typename T> static inline T tr_relu(T x) { return x > T(0) ? x : T(0); }
template <typename T> static inline T tr_step(T x) { return x > T(0) ? T(1) : T(0); }
template <typename T> static inline T tr_sign(T x) { return T((x > T(0)) - (x < T(0))); }

// a tangent or cotangent that is zero is passed as a null pointer: it reads as zero and is never written
template <typename T> static inline T tr_ld(const T* p, long long i) { return p ? p[i] : T(0); }

// mode 0: store, 1: accumulate (each element has one writer: no atomics on the CPU)
template <typename T> static inline void tr_store(T* p, long long i, T v, int mode) {
    if (!p) return;
    p[i] = mode ? p[i] + v : v;
}

// ---- maxima: the shift of a log-sum-exp, stored as order-preserving keys of the values' bits (as on the GPU:
// readers go through tr_shift, which gives 0 for an infinite or NaN maximum)
template <typename T> struct tr_key_of;
template <> struct tr_key_of<float> { typedef uint32_t type; };
template <> struct tr_key_of<double> { typedef uint64_t type; };

template <typename T> static inline typename tr_key_of<T>::type tr_key(T x) {
    typedef typename tr_key_of<T>::type U;
    const U top = U(1) << (8 * sizeof(U) - 1);
    U b;
    memcpy(&b, &x, sizeof b);
    return (b & top) ? ~b : (b | top);
}

template <typename T> static inline T tr_shift(T stored) {
    typedef typename tr_key_of<T>::type U;
    const U top = U(1) << (8 * sizeof(U) - 1);
    U k;
    memcpy(&k, &stored, sizeof k);
    k = (k & top) ? (k & ~top) : ~k;
    T x;
    memcpy(&x, &k, sizeof x);
    return isfinite(x) ? x : T(0);
}

template <typename T> static inline void tr_store_max(T* p, long long i, T v, int mode) {
    if (!p) return;
    typedef typename tr_key_of<T>::type U;
    U* const q = reinterpret_cast<U*>(p) + i;
    const U k = tr_key(v);
    if (mode == 0 || k > *q) *q = k;
}

// tr_nn_logsumexp_fwd0: maximum, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_logsumexp_fwd0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = -T(INFINITY);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, x_x[q0]);
        }
    }
    tr_store_max(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_nn_logsumexp_fwd0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_fwd0_body<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, row);
}
extern "C" void tr_nn_logsumexp_fwd0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_fwd0_body<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nk, row);
}

// tr_nn_logsumexp_fwd1: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_logsumexp_fwd1_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_exp(x_x[q0] - tr_shift(u_c0[0]));
        }
    }
    tr_store(u_c1, row, acc0, mode_u_c1);
}
extern "C" void tr_nn_logsumexp_fwd1_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_fwd1_body<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, row);
}
extern "C" void tr_nn_logsumexp_fwd1_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_fwd1_body<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nk, row);
}

// tr_nn_logsumexp_fwd2: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_logsumexp_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ u_c0, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const T r1 = log(u_c1[0]) + tr_shift(u_c0[0]);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_logsumexp_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ u_c0) {
    const long long total = 1LL;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_logsumexp_fwd2_body<float>(x_y, mode_x_y, u_c1, u_c0, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_logsumexp_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ u_c0) {
    const long long total = 1LL;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_logsumexp_fwd2_body<double>(x_y, mode_x_y, u_c1, u_c0, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_logsumexp_jvp3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_logsumexp_jvp3_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*tr_exp(x_x[q0] - x_y[0]);
        }
    }
    tr_store(d_y, row, acc0, mode_d_y);
}
extern "C" void tr_nn_logsumexp_jvp3_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_jvp3_body<float>(d_y, mode_d_y, d_x, x_x, x_y, n_i, nrows, nk, row);
}
extern "C" void tr_nn_logsumexp_jvp3_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_logsumexp_jvp3_body<double>(d_y, mode_d_y, d_x, x_x, x_y, n_i, nrows, nk, row);
}

// tr_nn_logsumexp_pb0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_logsumexp_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ x_x, const T* __restrict__ x_y, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_ld(b_y, 0)*tr_exp(x_x[e] - x_y[0]);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_logsumexp_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ x_x, const float* __restrict__ x_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_logsumexp_pb0_body<float>(b_x, mode_b_x, b_y, x_x, x_y, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_logsumexp_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ x_x, const double* __restrict__ x_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_logsumexp_pb0_body<double>(b_x, mode_b_x, b_y, x_x, x_y, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_softmax_fwd2: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_exp(x_x[e] - tr_shift(u_c0[0]))/u_c1[0];
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_fwd2_body<float>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_fwd2_body<double>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_softmax_jvp3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_softmax_jvp3_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*x_y[q0];
        }
    }
    tr_store(u_c2, row, acc0, mode_u_c2);
}
extern "C" void tr_nn_softmax_jvp3_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_softmax_jvp3_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, row);
}
extern "C" void tr_nn_softmax_jvp3_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_softmax_jvp3_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, row);
}

// tr_nn_softmax_jvp4: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(d_x, e) - v1*tr_ld(u_c2, 0);
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" void tr_nn_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_jvp4_body<float>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_jvp4_body<double>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_softmax_pb0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_softmax_pb0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(b_y, q0)*x_y[q0];
        }
    }
    tr_store(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_nn_softmax_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_softmax_pb0_body<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, row);
}
extern "C" void tr_nn_softmax_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_softmax_pb0_body<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nk, row);
}

// tr_nn_softmax_pb1: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_y, const T* __restrict__ b_y, const T* __restrict__ u_c0, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(b_y, e) - v1*tr_ld(u_c0, 0);
        tr_store(b_x, e, r2, mode_b_x);
    }
}
extern "C" void tr_nn_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_y, const float* __restrict__ b_y, const float* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_pb1_body<float>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_y, const double* __restrict__ b_y, const double* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_softmax_pb1_body<double>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_log_softmax_fwd2: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_log_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = -log(u_c1[0]) + (x_x[e] - tr_shift(u_c0[0]));
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_log_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_fwd2_body<float>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_log_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_fwd2_body<double>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_log_softmax_jvp3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_log_softmax_jvp3_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_x, q0)*tr_exp(x_y[q0]);
        }
    }
    tr_store(u_c2, row, acc0, mode_u_c2);
}
extern "C" void tr_nn_log_softmax_jvp3_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_log_softmax_jvp3_body<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, row);
}
extern "C" void tr_nn_log_softmax_jvp3_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_log_softmax_jvp3_body<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nk, row);
}

// tr_nn_log_softmax_jvp4: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_log_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_ld(d_x, e) - tr_ld(u_c2, 0);
        tr_store(d_y, e, r1, mode_d_y);
    }
}
extern "C" void tr_nn_log_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_jvp4_body<float>(d_y, mode_d_y, d_x, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_log_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_jvp4_body<double>(d_y, mode_d_y, d_x, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_log_softmax_pb0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_log_softmax_pb0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(b_y, q0);
        }
    }
    tr_store(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_nn_log_softmax_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_log_softmax_pb0_body<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, row);
}
extern "C" void tr_nn_log_softmax_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_log_softmax_pb0_body<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nk, row);
}

// tr_nn_log_softmax_pb1: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_log_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ u_c0, const T* __restrict__ x_y, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_ld(b_y, e) - tr_ld(u_c0, 0)*tr_exp(x_y[e]);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_log_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ u_c0, const float* __restrict__ x_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_pb1_body<float>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_log_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ u_c0, const double* __restrict__ x_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_log_softmax_pb1_body<double>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_cross_entropy_fwd0: maximum, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_fwd0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = -T(INFINITY);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, x_z[i0 * n_c + q0]);
        }
    }
    tr_store_max(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_nn_cross_entropy_fwd0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd0_body<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_fwd0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd0_body<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_fwd1: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_fwd1_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
        }
    }
    tr_store(u_c1, row, acc0, mode_u_c1);
}
extern "C" void tr_nn_cross_entropy_fwd1_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd1_body<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_fwd1_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd1_body<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_fwd2: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_cross_entropy_fwd2_body(T* __restrict__ x_lse, const int mode_x_lse, const T* __restrict__ u_c1, const T* __restrict__ u_c0, const long long n_b, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = log(u_c1[e]) + tr_shift(u_c0[e]);
        tr_store(x_lse, e, r1, mode_x_lse);
    }
}
extern "C" void tr_nn_cross_entropy_fwd2_f32(float* __restrict__ x_lse, const int mode_x_lse, const float* __restrict__ u_c1, const float* __restrict__ u_c0, const long long n_b) {
    const long long total = n_b;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_cross_entropy_fwd2_body<float>(x_lse, mode_x_lse, u_c1, u_c0, n_b, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_cross_entropy_fwd2_f64(double* __restrict__ x_lse, const int mode_x_lse, const double* __restrict__ u_c1, const double* __restrict__ u_c0, const long long n_b) {
    const long long total = n_b;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_cross_entropy_fwd2_body<double>(x_lse, mode_x_lse, u_c1, u_c0, n_b, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_cross_entropy_fwd3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_fwd3_body(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ x_lse, const T* __restrict__ x_z, const T* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem1 = kk;
            const long long q1 = rem1 % n_b; rem1 /= n_b;
            const long long q0 = rem1;
            acc0 += (-x_lse[q1] + x_z[q1 * n_c + q0])*x_t[q1 * n_c + q0];
        }
    }
    tr_store(x_L, row, -T(1)/T(n_b) * acc0, mode_x_L);
}
extern "C" void tr_nn_cross_entropy_fwd3_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ x_lse, const float* __restrict__ x_z, const float* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd3_body<float>(x_L, mode_x_L, x_lse, x_z, x_t, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_fwd3_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ x_lse, const double* __restrict__ x_z, const double* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_fwd3_body<double>(x_L, mode_x_L, x_lse, x_z, x_t, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_jvp4: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_jvp4_body(T* __restrict__ d_lse, const int mode_d_lse, const T* __restrict__ d_z, const T* __restrict__ x_lse, const T* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_z, i0 * n_c + q0)*tr_exp(-x_lse[i0] + x_z[i0 * n_c + q0]);
        }
    }
    tr_store(d_lse, row, acc0, mode_d_lse);
}
extern "C" void tr_nn_cross_entropy_jvp4_f32(float* __restrict__ d_lse, const int mode_d_lse, const float* __restrict__ d_z, const float* __restrict__ x_lse, const float* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_jvp4_body<float>(d_lse, mode_d_lse, d_z, x_lse, x_z, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_jvp4_f64(double* __restrict__ d_lse, const int mode_d_lse, const double* __restrict__ d_z, const double* __restrict__ x_lse, const double* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_jvp4_body<double>(d_lse, mode_d_lse, d_z, x_lse, x_z, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_jvp5: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_jvp5_body(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ x_t, const T* __restrict__ d_lse, const T* __restrict__ d_z, const T* __restrict__ x_lse, const T* __restrict__ x_z, const T* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    T acc0 = T(0);
    T acc1 = T(0);
    T acc2 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0, acc1, acc2)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem3 = kk;
            const long long q1 = rem3 % n_b; rem3 /= n_b;
            const long long q0 = rem3;
            const T v1 = x_t[q1 * n_c + q0];
            acc0 += v1*tr_ld(d_lse, q1);
            acc1 += v1*tr_ld(d_z, q1 * n_c + q0);
            acc2 += (x_lse[q1] - x_z[q1 * n_c + q0])*tr_ld(d_t, q1 * n_c + q0);
        }
    }
    const T v2 = (T(1) / (T(n_b)));
    tr_store(d_L, row, v2 * acc0 - v2 * acc1 + v2 * acc2, mode_d_L);
}
extern "C" void tr_nn_cross_entropy_jvp5_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ x_t, const float* __restrict__ d_lse, const float* __restrict__ d_z, const float* __restrict__ x_lse, const float* __restrict__ x_z, const float* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_jvp5_body<float>(d_L, mode_d_L, x_t, d_lse, d_z, x_lse, x_z, d_t, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_jvp5_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ x_t, const double* __restrict__ d_lse, const double* __restrict__ d_z, const double* __restrict__ x_lse, const double* __restrict__ x_z, const double* __restrict__ d_t, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_jvp5_body<double>(d_L, mode_d_L, x_t, d_lse, d_z, x_lse, x_z, d_t, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_pb0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_cross_entropy_pb0_body(T* __restrict__ b_lse, const int mode_b_lse, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += x_t[i0 * n_c + q0];
        }
    }
    tr_store(b_lse, row, tr_ld(b_L, 0)/T(n_b) * acc0, mode_b_lse);
}
extern "C" void tr_nn_cross_entropy_pb0_f32(float* __restrict__ b_lse, const int mode_b_lse, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_pb0_body<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, row);
}
extern "C" void tr_nn_cross_entropy_pb0_f64(double* __restrict__ b_lse, const int mode_b_lse, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_cross_entropy_pb0_body<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nk, row);
}

// tr_nn_cross_entropy_pb1: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_nn_cross_entropy_pb1_body(T* __restrict__ b_z, const int mode_b_z, T* __restrict__ b_t, const int mode_b_t, const T* __restrict__ b_L, const T* __restrict__ x_t, const T* __restrict__ b_lse, const T* __restrict__ x_lse, const T* __restrict__ x_z, const long long n_c, const long long n_b, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_c; rem1 /= n_c;
        const long long e0 = rem1;
        const T r2 = -tr_ld(b_L, 0)*x_t[e]/T(n_b) + tr_ld(b_lse, e0)*tr_exp(-x_lse[e0] + x_z[e]);
        tr_store(b_z, e, r2, mode_b_z);
        const T r3 = (x_lse[e0] - x_z[e])*tr_ld(b_L, 0)/T(n_b);
        tr_store(b_t, e, r3, mode_b_t);
    }
}
extern "C" void tr_nn_cross_entropy_pb1_f32(float* __restrict__ b_z, const int mode_b_z, float* __restrict__ b_t, const int mode_b_t, const float* __restrict__ b_L, const float* __restrict__ x_t, const float* __restrict__ b_lse, const float* __restrict__ x_lse, const float* __restrict__ x_z, const long long n_c, const long long n_b) {
    const long long total = n_b * n_c;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_cross_entropy_pb1_body<float>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_lse, x_z, n_c, n_b, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_nn_cross_entropy_pb1_f64(double* __restrict__ b_z, const int mode_b_z, double* __restrict__ b_t, const int mode_b_t, const double* __restrict__ b_L, const double* __restrict__ x_t, const double* __restrict__ b_lse, const double* __restrict__ x_lse, const double* __restrict__ x_z, const long long n_c, const long long n_b) {
    const long long total = n_b * n_c;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_nn_cross_entropy_pb1_body<double>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_lse, x_z, n_c, n_b, c, tr_min(total, c + TR_CHUNK));
}

// tr_nn_gaussian_kernel_sum_fwd0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_fwd0_body(T* __restrict__ x_out, const int mode_x_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                const long long q0 = kk;
                s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += x_b[q0]*tr_exp(-s1_t[t]/x_s[0]);
        }
    }
    tr_store(x_out, row, acc0, mode_x_out);
}
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f32(float* __restrict__ x_out, const int mode_x_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_fwd0_body<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f64(double* __restrict__ x_out, const int mode_x_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_fwd0_body<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_jvp1: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp1_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_s, const T* __restrict__ d_b, const T* __restrict__ x_b, const T* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                const long long q0 = kk;
                s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0, acc1)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            const T v3 = tr_exp(-s1_t[t]/x_s[0]);
            acc0 += v3*tr_ld(d_b, q0);
            acc1 += s1_t[t]*v3*x_b[q0];
        }
    }
    tr_store(d_out, row, acc0 + tr_ld(d_s, 0)/tr_sq(x_s[0]) * acc1, mode_d_out);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_s, const float* __restrict__ d_b, const float* __restrict__ x_b, const float* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp1_body<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_s, const double* __restrict__ d_b, const double* __restrict__ x_b, const double* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp1_body<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_jvp2: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp2_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_y, const T* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                long long rem3 = kk;
                const long long q1 = rem3 % n_j; rem3 /= n_j;
                const long long q0 = rem3;
                s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q1 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0, acc1)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem6 = kk;
            const long long q1 = rem6 % n_j; rem6 /= n_j;
            const long long q0 = rem6;
            const T v4 = x_b[q1]*tr_ld(d_y, q1 * n_d + q0)*tr_exp(-s1_t[t]/x_s[0]);
            acc0 += v4*x_x[i0 * n_d + q0];
            acc1 += v4*x_y[q1 * n_d + q0];
        }
    }
    const T v5 = T(2)/x_s[0];
    tr_store(d_out, row, v5 * acc0 - v5 * acc1, mode_d_out);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_y, const float* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp2_body<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_j, n_i, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_y, const double* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp2_body<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_j, n_i, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_jvp3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp3_body(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_x, const T* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                long long rem3 = kk;
                const long long q1 = rem3 % n_j; rem3 /= n_j;
                const long long q0 = rem3;
                s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q1 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0, acc1)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem6 = kk;
            const long long q1 = rem6 % n_j; rem6 /= n_j;
            const long long q0 = rem6;
            const T v4 = x_b[q1]*tr_ld(d_x, i0 * n_d + q0)*tr_exp(-s1_t[t]/x_s[0]);
            acc0 += v4*x_y[q1 * n_d + q0];
            acc1 += v4*x_x[i0 * n_d + q0];
        }
    }
    const T v5 = T(2)/x_s[0];
    tr_store(d_out, row, v5 * acc0 - v5 * acc1, mode_d_out);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_x, const float* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp3_body<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_j, n_i, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_x, const double* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_jvp3_body<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_j, n_i, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_pb0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const T* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    long long rem5 = row;
    const long long i1 = rem5 % n_d; rem5 /= n_d;
    const long long i0 = rem5;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                const long long q0 = kk;
                s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0, acc1)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            const T v3 = x_b[q0]*tr_exp(-s1_t[t]/x_s[0]);
            acc0 += v3*x_y[q0 * n_d + i1];
            acc1 += v3;
        }
    }
    const T v4 = T(2)*tr_ld(b_out, i0)/x_s[0];
    tr_store(b_x, row, v4 * acc0 - v4*x_x[i0 * n_d + i1] * acc1, mode_b_x);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const float* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb0_body<float>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const double* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb0_body<double>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_pb1: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb1_body(T* __restrict__ b_y, const int mode_b_y, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ b_out, const T* __restrict__ x_s, const T* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    long long rem5 = row;
    const long long i1 = rem5 % n_d; rem5 /= n_d;
    const long long i0 = rem5;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    T acc1 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                const long long q0 = kk;
                s1_t[t] += tr_sq(x_x[q0 * n_d + k2] - x_y[i0 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0, acc1)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            const T v3 = tr_ld(b_out, q0)*tr_exp(-s1_t[t]/x_s[0]);
            acc0 += v3*x_x[q0 * n_d + i1];
            acc1 += v3;
        }
    }
    const T v4 = T(2)*x_b[i0]/x_s[0];
    tr_store(b_y, row, v4 * acc0 - v4*x_y[i0 * n_d + i1] * acc1, mode_b_y);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f32(float* __restrict__ b_y, const int mode_b_y, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ b_out, const float* __restrict__ x_s, const float* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb1_body<float>(b_y, mode_b_y, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f64(double* __restrict__ b_y, const int mode_b_y, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ b_out, const double* __restrict__ x_s, const double* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb1_body<double>(b_y, mode_b_y, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_pb2: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb2_body(T* __restrict__ b_b, const int mode_b_b, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T s1_t[TR_TILE];
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                const long long q0 = kk;
                s1_t[t] += tr_sq(x_x[q0 * n_d + k2] - x_y[i0 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(b_out, q0)*tr_exp(-s1_t[t]/x_s[0]);
        }
    }
    tr_store(b_b, row, acc0, mode_b_b);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f32(float* __restrict__ b_b, const int mode_b_b, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb2_body<float>(b_b, mode_b_b, x_x, x_y, b_out, x_s, n_d, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f64(double* __restrict__ b_b, const int mode_b_b, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb2_body<double>(b_b, mode_b_b, x_x, x_y, b_out, x_s, n_d, n_i, n_j, nrows, nk, row);
}

// tr_nn_gaussian_kernel_sum_pb3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb3_body(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk, const long long row) {
    T s1_t[TR_TILE];
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
        for (long long k2 = 0; k2 < n_d; ++k2) {
            #pragma omp simd
            for (long long t = 0; t < tn; ++t) {
                const long long kk = k0 + t;
                long long rem3 = kk;
                const long long q1 = rem3 % n_j; rem3 /= n_j;
                const long long q0 = rem3;
                s1_t[t] += tr_sq(x_x[q0 * n_d + k2] - x_y[q1 * n_d + k2]);
            }
        }
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            long long rem4 = kk;
            const long long q1 = rem4 % n_j; rem4 /= n_j;
            const long long q0 = rem4;
            acc0 += s1_t[t]*x_b[q1]*tr_ld(b_out, q0)*tr_exp(-s1_t[t]/x_s[0]);
        }
    }
    tr_store(b_s, row, (T(1) / tr_sq(x_s[0])) * acc0, mode_b_s);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb3_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb3_body<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_j, n_i, nrows, nk, row);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb3_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_d, const long long n_j, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_nn_gaussian_kernel_sum_pb3_body<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_j, n_i, nrows, nk, row);
}
