// @generated from rules/masks.rules by `derive-rules` -- do not edit by hand.
// Native CPU kernels for causal_softmax, causal_attention: each has a float32 (_f32) and a float64 (_f64) extern "C"
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

// tr_masks_causal_softmax_fwd0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_softmax_fwd0_body(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_s, const long long n_j, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = ((e1 <= e0) ? (x_s[e]) : ((-T(INFINITY))));
        tr_store(x_m, e, r2, mode_x_m);
    }
}
extern "C" void tr_masks_causal_softmax_fwd0_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_s, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_fwd0_body<float>(x_m, mode_x_m, x_s, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_softmax_fwd0_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_s, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_fwd0_body<double>(x_m, mode_x_m, x_s, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_softmax_fwd1: maximum, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_softmax_fwd1_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_m, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = -T(INFINITY);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, x_m[i0 * n_j + q0]);
        }
    }
    tr_store_max(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_masks_causal_softmax_fwd1_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_m, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_fwd1_body<float>(u_c0, mode_u_c0, x_m, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_masks_causal_softmax_fwd1_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_m, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_fwd1_body<double>(u_c0, mode_u_c0, x_m, n_i, n_j, nrows, nk, row);
}

// tr_masks_causal_softmax_fwd2: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_softmax_fwd2_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_m, const T* __restrict__ u_c0, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_exp(x_m[i0 * n_j + q0] - tr_shift(u_c0[i0]));
        }
    }
    tr_store(u_c1, row, acc0, mode_u_c1);
}
extern "C" void tr_masks_causal_softmax_fwd2_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_m, const float* __restrict__ u_c0, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_fwd2_body<float>(u_c1, mode_u_c1, x_m, u_c0, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_masks_causal_softmax_fwd2_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_m, const double* __restrict__ u_c0, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_fwd2_body<double>(u_c1, mode_u_c1, x_m, u_c0, n_i, n_j, nrows, nk, row);
}

// tr_masks_causal_softmax_fwd3: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_softmax_fwd3_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_m, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_j, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_exp(x_m[e] - tr_shift(u_c0[e0]))/u_c1[e0];
        tr_store(x_y, e, r2, mode_x_y);
    }
}
extern "C" void tr_masks_causal_softmax_fwd3_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_m, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_fwd3_body<float>(x_y, mode_x_y, x_m, u_c0, u_c1, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_softmax_fwd3_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_m, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_fwd3_body<double>(x_y, mode_x_y, x_m, u_c0, u_c1, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_softmax_jvp3: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_softmax_jvp3_body(T* __restrict__ x_y, const int mode_x_y, T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ x_m, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const T* __restrict__ d_s, const long long n_j, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T r2 = tr_exp(x_m[e] - tr_shift(u_c0[e0]))/u_c1[e0];
        tr_store(x_y, e, r2, mode_x_y);
        const T r3 = tr_ld(d_s, e)*((e1 <= e0) ? T(1) : T(0));
        tr_store(d_m, e, r3, mode_d_m);
    }
}
extern "C" void tr_masks_causal_softmax_jvp3_f32(float* __restrict__ x_y, const int mode_x_y, float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ x_m, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const float* __restrict__ d_s, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_jvp3_body<float>(x_y, mode_x_y, d_m, mode_d_m, x_m, u_c0, u_c1, d_s, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_softmax_jvp3_f64(double* __restrict__ x_y, const int mode_x_y, double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ x_m, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const double* __restrict__ d_s, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_jvp3_body<double>(x_y, mode_x_y, d_m, mode_d_m, x_m, u_c0, u_c1, d_s, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_softmax_jvp4: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_softmax_jvp4_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_m, const T* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_m, i0 * n_j + q0)*x_y[i0 * n_j + q0];
        }
    }
    tr_store(u_c2, row, acc0, mode_u_c2);
}
extern "C" void tr_masks_causal_softmax_jvp4_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_m, const float* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_jvp4_body<float>(u_c2, mode_u_c2, d_m, x_y, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_masks_causal_softmax_jvp4_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_m, const double* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_jvp4_body<double>(u_c2, mode_u_c2, d_m, x_y, n_i, n_j, nrows, nk, row);
}

// tr_masks_causal_softmax_jvp5: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_softmax_jvp5_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_m, const T* __restrict__ u_c2, const long long n_j, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T v2 = x_y[e];
        const T r3 = v2*tr_ld(d_m, e) - v2*tr_ld(u_c2, e0);
        tr_store(d_y, e, r3, mode_d_y);
    }
}
extern "C" void tr_masks_causal_softmax_jvp5_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_m, const float* __restrict__ u_c2, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_jvp5_body<float>(d_y, mode_d_y, x_y, d_m, u_c2, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_softmax_jvp5_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_m, const double* __restrict__ u_c2, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_jvp5_body<double>(d_y, mode_d_y, x_y, d_m, u_c2, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_softmax_pb0: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_softmax_pb0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(b_y, i0 * n_j + q0)*x_y[i0 * n_j + q0];
        }
    }
    tr_store(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_masks_causal_softmax_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_pb0_body<float>(u_c0, mode_u_c0, b_y, x_y, n_i, n_j, nrows, nk, row);
}
extern "C" void tr_masks_causal_softmax_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_i, const long long n_j, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_softmax_pb0_body<double>(u_c0, mode_u_c0, b_y, x_y, n_i, n_j, nrows, nk, row);
}

// tr_masks_causal_softmax_pb1: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_softmax_pb1_body(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_y, const T* __restrict__ b_y, const T* __restrict__ u_c0, const long long n_j, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_j; rem1 /= n_j;
        const long long e0 = rem1;
        const T v2 = x_y[e];
        const T r3 = v2*tr_ld(b_y, e) - v2*tr_ld(u_c0, e0);
        const T r4 = r3*((e1 <= e0) ? T(1) : T(0));
        tr_store(b_s, e, r4, mode_b_s);
    }
}
extern "C" void tr_masks_causal_softmax_pb1_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_y, const float* __restrict__ b_y, const float* __restrict__ u_c0, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_pb1_body<float>(b_s, mode_b_s, x_y, b_y, u_c0, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_softmax_pb1_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_y, const double* __restrict__ b_y, const double* __restrict__ u_c0, const long long n_j, const long long n_i) {
    const long long total = n_i * n_j;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_softmax_pb1_body<double>(b_s, mode_b_s, x_y, b_y, u_c0, n_j, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_fwd1: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_fwd1_body(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ u_c0, const long long n_i, const long long n_d, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = ((e1 <= e0) ? (u_c0[e1 * n_i + e0]/sqrt(T(n_d))) : ((-T(INFINITY))));
        tr_store(x_s, e, r2, mode_x_s);
    }
}
extern "C" void tr_masks_causal_attention_fwd1_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ u_c0, const long long n_i, const long long n_d) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_fwd1_body<float>(x_s, mode_x_s, u_c0, n_i, n_d, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_fwd1_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ u_c0, const long long n_i, const long long n_d) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_fwd1_body<double>(x_s, mode_x_s, u_c0, n_i, n_d, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_fwd2: maximum, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_attention_fwd2_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_s, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = -T(INFINITY);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 = fmax(acc0, x_s[i0 * n_i + q0]);
        }
    }
    tr_store_max(u_c1, row, acc0, mode_u_c1);
}
extern "C" void tr_masks_causal_attention_fwd2_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_s, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_fwd2_body<float>(u_c1, mode_u_c1, x_s, n_i, nrows, nk, row);
}
extern "C" void tr_masks_causal_attention_fwd2_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_s, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_fwd2_body<double>(u_c1, mode_u_c1, x_s, n_i, nrows, nk, row);
}

// tr_masks_causal_attention_fwd3: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_attention_fwd3_body(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ x_s, const T* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_exp(x_s[i0 * n_i + q0] - tr_shift(u_c1[i0]));
        }
    }
    tr_store(u_c2, row, acc0, mode_u_c2);
}
extern "C" void tr_masks_causal_attention_fwd3_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ x_s, const float* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_fwd3_body<float>(u_c2, mode_u_c2, x_s, u_c1, n_i, nrows, nk, row);
}
extern "C" void tr_masks_causal_attention_fwd3_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ x_s, const double* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_fwd3_body<double>(u_c2, mode_u_c2, x_s, u_c1, n_i, nrows, nk, row);
}

// tr_masks_causal_attention_fwd4: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_fwd4_body(T* __restrict__ x_p, const int mode_x_p, const T* __restrict__ x_s, const T* __restrict__ u_c1, const T* __restrict__ u_c2, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_exp(x_s[e] - tr_shift(u_c1[e0]))/u_c2[e0];
        tr_store(x_p, e, r2, mode_x_p);
    }
}
extern "C" void tr_masks_causal_attention_fwd4_f32(float* __restrict__ x_p, const int mode_x_p, const float* __restrict__ x_s, const float* __restrict__ u_c1, const float* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_fwd4_body<float>(x_p, mode_x_p, x_s, u_c1, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_fwd4_f64(double* __restrict__ x_p, const int mode_x_p, const double* __restrict__ x_s, const double* __restrict__ u_c1, const double* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_fwd4_body<double>(x_p, mode_x_p, x_s, u_c1, u_c2, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_jvp8: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_jvp8_body(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ u_c3, const T* __restrict__ u_c4, const long long n_i, const long long n_d, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T v2 = ((e1 <= e0) ? T(1) : T(0))/sqrt(T(n_d));
        const T r3 = v2*tr_ld(u_c3, e) + v2*tr_ld(u_c4, e);
        tr_store(d_s, e, r3, mode_d_s);
    }
}
extern "C" void tr_masks_causal_attention_jvp8_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ u_c3, const float* __restrict__ u_c4, const long long n_i, const long long n_d) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_jvp8_body<float>(d_s, mode_d_s, u_c3, u_c4, n_i, n_d, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_jvp8_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ u_c3, const double* __restrict__ u_c4, const long long n_i, const long long n_d) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_jvp8_body<double>(d_s, mode_d_s, u_c3, u_c4, n_i, n_d, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_jvp9: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_attention_jvp9_body(T* __restrict__ u_c5, const int mode_u_c5, const T* __restrict__ d_s, const T* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(d_s, i0 * n_i + q0)*x_p[i0 * n_i + q0];
        }
    }
    tr_store(u_c5, row, acc0, mode_u_c5);
}
extern "C" void tr_masks_causal_attention_jvp9_f32(float* __restrict__ u_c5, const int mode_u_c5, const float* __restrict__ d_s, const float* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_jvp9_body<float>(u_c5, mode_u_c5, d_s, x_p, n_i, nrows, nk, row);
}
extern "C" void tr_masks_causal_attention_jvp9_f64(double* __restrict__ u_c5, const int mode_u_c5, const double* __restrict__ d_s, const double* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_jvp9_body<double>(u_c5, mode_u_c5, d_s, x_p, n_i, nrows, nk, row);
}

// tr_masks_causal_attention_jvp10: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_jvp10_body(T* __restrict__ d_p, const int mode_d_p, const T* __restrict__ x_p, const T* __restrict__ d_s, const T* __restrict__ u_c5, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T v2 = x_p[e];
        const T r3 = v2*tr_ld(d_s, e) - v2*tr_ld(u_c5, e0);
        tr_store(d_p, e, r3, mode_d_p);
    }
}
extern "C" void tr_masks_causal_attention_jvp10_f32(float* __restrict__ d_p, const int mode_d_p, const float* __restrict__ x_p, const float* __restrict__ d_s, const float* __restrict__ u_c5, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_jvp10_body<float>(d_p, mode_d_p, x_p, d_s, u_c5, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_jvp10_f64(double* __restrict__ d_p, const int mode_d_p, const double* __restrict__ x_p, const double* __restrict__ d_s, const double* __restrict__ u_c5, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_jvp10_body<double>(d_p, mode_d_p, x_p, d_s, u_c5, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_pb1: reduction, one row per iteration; the reduced index in the inner (simd) loop, a tile at a time
template <typename T>
static void tr_masks_causal_attention_pb1_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_p, const T* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk, const long long row) {
    const long long i0 = row;
    T acc0 = T(0);
    for (long long k0 = 0; k0 < nk; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nk - k0);
#pragma omp simd reduction(+:acc0)
        for (long long t = 0; t < tn; ++t) {
            const long long kk = k0 + t;
            const long long q0 = kk;
            acc0 += tr_ld(b_p, i0 * n_i + q0)*x_p[i0 * n_i + q0];
        }
    }
    tr_store(u_c0, row, acc0, mode_u_c0);
}
extern "C" void tr_masks_causal_attention_pb1_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_p, const float* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_pb1_body<float>(u_c0, mode_u_c0, b_p, x_p, n_i, nrows, nk, row);
}
extern "C" void tr_masks_causal_attention_pb1_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_p, const double* __restrict__ x_p, const long long n_i, const long long nrows, const long long nk) {
#pragma omp parallel for schedule(dynamic, 8) if (nrows > 1 && nrows * (nk + 1) > 16384)
    for (long long row = 0; row < nrows; ++row)
        tr_masks_causal_attention_pb1_body<double>(u_c0, mode_u_c0, b_p, x_p, n_i, nrows, nk, row);
}

// tr_masks_causal_attention_pb2: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_pb2_body(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_p, const T* __restrict__ b_p, const T* __restrict__ u_c0, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T v2 = x_p[e];
        const T r3 = v2*tr_ld(b_p, e) - v2*tr_ld(u_c0, e0);
        tr_store(b_s, e, r3, mode_b_s);
    }
}
extern "C" void tr_masks_causal_attention_pb2_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_p, const float* __restrict__ b_p, const float* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb2_body<float>(b_s, mode_b_s, x_p, b_p, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_pb2_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_p, const double* __restrict__ b_p, const double* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb2_body<double>(b_s, mode_b_s, x_p, b_p, u_c0, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_pb3: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_pb3_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ b_s, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        long long rem1 = e;
        const long long e1 = rem1 % n_i; rem1 /= n_i;
        const long long e0 = rem1;
        const T r2 = tr_ld(b_s, e1 * n_i + e0)*((e0 <= e1) ? T(1) : T(0));
        tr_store(u_c1, e, r2, mode_u_c1);
    }
}
extern "C" void tr_masks_causal_attention_pb3_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ b_s, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb3_body<float>(u_c1, mode_u_c1, b_s, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_pb3_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ b_s, const long long n_i) {
    const long long total = n_i * n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb3_body<double>(u_c1, mode_u_c1, b_s, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_masks_causal_attention_pb4: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_masks_causal_attention_pb4_body(T* __restrict__ u_c2, const int mode_u_c2, const long long n_d, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const T r1 = rsqrt(T(n_d));
        tr_store(u_c2, e, r1, mode_u_c2);
    }
}
extern "C" void tr_masks_causal_attention_pb4_f32(float* __restrict__ u_c2, const int mode_u_c2, const long long n_d) {
    const long long total = 1LL;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb4_body<float>(u_c2, mode_u_c2, n_d, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_masks_causal_attention_pb4_f64(double* __restrict__ u_c2, const int mode_u_c2, const long long n_d) {
    const long long total = 1LL;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_masks_causal_attention_pb4_body<double>(u_c2, mode_u_c2, n_d, c, tr_min(total, c + TR_CHUNK));
}
