// @generated from rules/elementwise.rules by `derive-rules` -- do not edit by hand.
// Native CPU kernels for erf, gelu: each has a float32 (_f32) and a float64 (_f64) extern "C"
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

// tr_elementwise_erf_fwd0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_erf_fwd0_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_erf(x_x[e]);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_elementwise_erf_fwd0_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_fwd0_body<float>(x_y, mode_x_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_erf_fwd0_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_fwd0_body<double>(x_y, mode_x_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_elementwise_erf_jvp0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_erf_jvp0_body(T* __restrict__ x_y, const int mode_x_y, T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_x, const T* __restrict__ d_x, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = tr_erf(x_x[e]);
        tr_store(x_y, e, r1, mode_x_y);
        const T r2 = T(2)*tr_ld(d_x, e)*tr_exp(-tr_sq(x_x[e]))/sqrt(T(3.141592653589793));
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" void tr_elementwise_erf_jvp0_f32(float* __restrict__ x_y, const int mode_x_y, float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_x, const float* __restrict__ d_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_jvp0_body<float>(x_y, mode_x_y, d_y, mode_d_y, x_x, d_x, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_erf_jvp0_f64(double* __restrict__ x_y, const int mode_x_y, double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_x, const double* __restrict__ d_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_jvp0_body<double>(x_y, mode_x_y, d_y, mode_d_y, x_x, d_x, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_elementwise_erf_pb0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_erf_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ x_x, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T r1 = T(2)*tr_ld(b_y, e)*tr_exp(-tr_sq(x_x[e]))/sqrt(T(3.141592653589793));
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_elementwise_erf_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_pb0_body<float>(b_x, mode_b_x, b_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_erf_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_erf_pb0_body<double>(b_x, mode_b_x, b_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_elementwise_gelu_fwd0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_gelu_fwd0_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T v1 = T(0.5)*x_x[e];
        const T r2 = v1*(tr_erf(sqrt(T(2))*v1) + T(1));
        tr_store(x_y, e, r2, mode_x_y);
    }
}
extern "C" void tr_elementwise_gelu_fwd0_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_fwd0_body<float>(x_y, mode_x_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_gelu_fwd0_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_fwd0_body<double>(x_y, mode_x_y, x_x, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_elementwise_gelu_jvp0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_gelu_jvp0_body(T* __restrict__ x_y, const int mode_x_y, T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_x, const T* __restrict__ d_x, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T v1 = T(0.5)*x_x[e];
        const T r2 = v1*(tr_erf(sqrt(T(2))*v1) + T(1));
        tr_store(x_y, e, r2, mode_x_y);
        const T v3 = x_x[e];
        const T v4 = T(0.5)*sqrt(T(2))*v3;
        const T r5 = (v4*tr_exp(-T(0.5)*tr_sq(v3))/sqrt(T(3.141592653589793)) + T(0.5)*tr_erf(v4) + T(0.5))*tr_ld(d_x, e);
        tr_store(d_y, e, r5, mode_d_y);
    }
}
extern "C" void tr_elementwise_gelu_jvp0_f32(float* __restrict__ x_y, const int mode_x_y, float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_x, const float* __restrict__ d_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_jvp0_body<float>(x_y, mode_x_y, d_y, mode_d_y, x_x, d_x, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_gelu_jvp0_f64(double* __restrict__ x_y, const int mode_x_y, double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_x, const double* __restrict__ d_x, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_jvp0_body<double>(x_y, mode_x_y, d_y, mode_d_y, x_x, d_x, n_i, c, tr_min(total, c + TR_CHUNK));
}

// tr_elementwise_gelu_pb0: elementwise over the flat index e; chunks of TR_CHUNK elements per thread, each a simd loop
template <typename T>
static void tr_elementwise_gelu_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ b_y, const long long n_i, const long long lo, const long long hi) {
#pragma omp simd
    for (long long e = lo; e < hi; ++e) {
        const long long e0 = e;
        const T v1 = x_x[e];
        const T v2 = T(0.5)*sqrt(T(2))*v1;
        const T r3 = (v2*tr_exp(-T(0.5)*tr_sq(v1))/sqrt(T(3.141592653589793)) + T(0.5)*tr_erf(v2) + T(0.5))*tr_ld(b_y, e);
        tr_store(b_x, e, r3, mode_b_x);
    }
}
extern "C" void tr_elementwise_gelu_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ b_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_pb0_body<float>(b_x, mode_b_x, x_x, b_y, n_i, c, tr_min(total, c + TR_CHUNK));
}
extern "C" void tr_elementwise_gelu_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ b_y, const long long n_i) {
    const long long total = n_i;
#pragma omp parallel for schedule(static) if (total > 2 * TR_CHUNK)
    for (long long c = 0; c < total; c += TR_CHUNK)
        tr_elementwise_gelu_pb0_body<double>(b_x, mode_b_x, x_x, b_y, n_i, c, tr_min(total, c + TR_CHUNK));
}
