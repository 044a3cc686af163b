// @generated from rules/nn.rules by `derive-rules` -- do not edit by hand.
// Native CPU kernels for sum, mean, logsumexp, softmax, log_softmax, dense, linear, mse, cross_entropy, gaussian_kernel_sum: each has a float32 (_f32) and a float64 (_f64) extern "C"
// entry point. The plan (buffers, steps, parameters) is the .json file beside this one; runtime/native.py
// compiles this file with the system C++ compiler (OpenMP) and runs the plan on NumPy arrays.

#define TR_TILE 256
#define TR_CHUNK 4096
#define TR_LANES 8
#define TR_RB 16
// ---- helpers shared by every native CPU kernel (templates/cpu_helpers.h.j2) ---------------------------------
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include <omp.h>

using namespace std;  // float overloads of the math functions

// cpu_math.h: exp, erf, erfc and tanh for the native CPU backend's kernels, in double and float, written so that
// g++ -O3 -fopenmp-simd (or -fopenmp) vectorizes the loops that call them, for AVX-512, AVX2 or SSE4: no
// data-dependent branches and no calls into libm, only arithmetic, selects (mask blends, never ?:) and bit moves.
// Plain C++17, header-only. Compile WITHOUT -ffast-math (or -fassociative-math, -ffinite-math-only): the
// rounding trick in exp and the NaN/inf handling need IEEE arithmetic. With FMA hardware (__FMA__) every
// multiply-add is an explicit fma, so vectorized and scalar code give bit-identical results.
//
//   tr_exp(x)   Cody-Waite reduction x = n·ln2 + r (ln2 in two parts), |r| <= ln2/2; e^r by its Taylor
//               polynomial (degree 13 by Estrin's scheme in double, 7 by Horner in float); 2^n from the
//               exponent bits in two factors, so overflow gives +inf and underflow is gradual (subnormal
//               results, not flushed) down to 0. NaN propagates. Measured <= 1 ulp in double over
//               [-745, 709.78] and in float (tests/codegen/test_cpu_math.py).
//   tr_erf(x)   W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp. 23
//   tr_erfc(x)  (1969) 631-637, with the coefficients of his CALERF (netlib specfun): erf = x·P(x²)/Q(x²)
//               for |x| <= 0.46875; erfc = exp(-x²)·P(|x|)/Q(|x|) up to 4; beyond that
//               erfc = exp(-x²)/|x|·(1/√π - z·P(z)/Q(z)), z = 1/x². All three rationals are evaluated and
//               one is selected per lane, so there is one division; the tail's is multiplied through by x¹²
//               to need no 1/x². exp(-x²) takes x² as an exact hi + lo pair (fma or Dekker), which keeps
//               erfc's relative precision out to 26.5 (Cody splits x at 1/16 for the same reason). The float
//               versions compute in double and round once.
//   tr_tanh(x)  the odd rational of the Cephes library's tanh below |x| = 0.625, 1 - 2/(e^(2|x|) + 1) with x's
//               sign above (tests/codegen/test_cpu_math.py: within 2 ulp of mpmath in double, 1 in float).
#ifndef TR_CPU_MATH_H
#define TR_CPU_MATH_H

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__)
#define TR_INLINE inline __attribute__((always_inline))   // inlined into the loop, or it is not vectorized
#else
#define TR_INLINE inline
#endif

namespace tr_math_detail {

inline double fmadd(double a, double b, double c) {
#ifdef __FMA__
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

inline float fmadd(float a, float b, float c) {
#ifdef __FMA__
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

// y·y - w exactly, for w = y·y rounded (|y| <= 28): by fma, or by Dekker's split of y into 26-bit halves
inline double square_error(double y, double w) {
#ifdef __FMA__
    return std::fma(y, y, -w);
#else
    const double c = 134217729.0 * y, hi = c - (c - y), lo = y - hi;
    return ((hi * hi - w) + 2.0 * hi * lo) + lo * lo;
#endif
}

inline std::uint64_t bits(double x) { std::uint64_t u; std::memcpy(&u, &x, sizeof u); return u; }
inline double from_bits(std::uint64_t u) { double x; std::memcpy(&x, &u, sizeof x); return x; }
inline std::uint32_t bits(float x) { std::uint32_t u; std::memcpy(&u, &x, sizeof u); return u; }
inline float from_bits(std::uint32_t u) { float x; std::memcpy(&x, &u, sizeof x); return x; }

// c ? a : b as a blend of bits under a mask of c. Written with ?: g++ makes a select of a constant a branch and
// moves the arithmetic that follows into its arms (constant-folded on one side), and without AVX-512's masked
// instructions it cannot undo that, so the loop stays scalar ("control flow in loop"); a mask it vectorizes as
// a compare and and/andnot/or on any SSE2 or AVX2 machine.
inline double select(bool c, double a, double b) {
    const std::uint64_t m = -static_cast<std::uint64_t>(c);
    return from_bits((bits(a) & m) | (bits(b) & ~m));
}
inline float select(bool c, float a, float b) {
    const std::uint32_t m = -static_cast<std::uint32_t>(c);
    return from_bits((bits(a) & m) | (bits(b) & ~m));
}

// 2^k for an integer-valued k in [-1022, 1023]: k + 1023 + 2^52 holds k + 1023 in its low mantissa bits, and
// shifting them into the exponent field drops 2^52's own exponent off the top.
inline double pow2(double k) { return from_bits(bits(k + (1023.0 + 0x1p52)) << 52); }
inline float pow2(float k) { return from_bits(static_cast<std::uint32_t>(bits(k + (127.0f + 0x1p23f)) << 23)); }

// e^(hi + lo) for |lo| <= ulp(hi): lo joins the reduced argument, so e^(-y²) needs no rounded y².
TR_INLINE double exp_hilo(double hi, double lo) {
    double x = select(hi < -746.0, -746.0, hi);        // e^-746 rounds to 0, e^710 to inf; NaN passes both
    x = select(x > 710.0, 710.0, x);
    const double shifter = 0x1.8p52;             // adding it rounds to an integer (round to nearest)
    double n = fmadd(x, 1.4426950408889634, shifter) - shifter;
    double r = fmadd(-n, 6.93147180369123816490e-01, x);   // ln2's high part has 21 trailing zero bits:
    r = fmadd(-n, 1.9082149292705877e-10, r);               // n·ln2_hi is exact for |n| < 2^21
    r += lo;
    // e^r = 1 + (r + r²·q(r)), q the Taylor terms 1/2! ... 1/13! (error < 4e-18 for |r| <= 0.35), by
    // Estrin's scheme: 5 dependent steps instead of Horner's 12, which left the loop waiting on latency
    const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const double a0 = fmadd(1.6666666666666666e-01, r, 0.5);
    const double a1 = fmadd(8.333333333333333e-03, r, 4.1666666666666664e-02);
    const double a2 = fmadd(1.984126984126984e-04, r, 1.388888888888889e-03);
    const double a3 = fmadd(2.7557319223985893e-06, r, 2.48015873015873e-05);
    const double a4 = fmadd(2.505210838544172e-08, r, 2.755731922398589e-07);
    const double a5 = fmadd(1.6059043836821613e-10, r, 2.08767569878681e-09);
    const double b0 = fmadd(a1, r2, a0), b1 = fmadd(a3, r2, a2), b2 = fmadd(a5, r2, a4);
    const double q = fmadd(fmadd(b2, r4, b1), r4, b0);
    const double p = 1.0 + fmadd(r2, q, r);
    // n in [-1076, 1024]: 2^n = 2^h·2^(n - h), h = n/2 rounded, both factors normal, so p·2^h is exact and
    // the one rounding is the last multiply (overflow to inf, or a correctly rounded subnormal). No select:
    // g++ moves arithmetic under a select into branches, which it cannot if-convert without AVX-512 masks.
    const double h = fmadd(n, 0.5, shifter) - shifter;
    return p * pow2(h) * pow2(n - h);
}

TR_INLINE float exp_f(float x0) {
    float x = select(x0 < -104.0f, -104.0f, x0);       // e^-104 rounds to 0 in float, e^89 to inf
    x = select(x > 89.0f, 89.0f, x);
    const float shifter = 0x1.8p23f;
    float n = fmadd(x, 1.44269504f, shifter) - shifter;
    float r = fmadd(-n, 0.693145751953125f, x);  // ln2's high part in 16 bits: n·ln2_hi exact for |n| < 2^8
    r = fmadd(-n, 1.4286068e-06f, r);
    float p = 2.4801588e-05f;                    // 1/8!, ..., 1/0!
    p = fmadd(p, r, 1.9841270e-04f);
    p = fmadd(p, r, 1.3888889e-03f);
    p = fmadd(p, r, 8.3333338e-03f);
    p = fmadd(p, r, 4.1666668e-02f);
    p = fmadd(p, r, 1.6666667e-01f);
    p = fmadd(p, r, 0.5f);
    p = fmadd(p, r, 1.0f);
    p = fmadd(p, r, 1.0f);
    const float h = fmadd(n, 0.5f, shifter) - shifter;   // n in [-150, 128]: as in exp_hilo
    return p * pow2(h) * pow2(n - h);
}

// erf(x) (complement = false) or erfc(x) (true) by Cody's three rationals, one division.
template <bool complement>
TR_INLINE double cody(double x) {
    const double y = std::fabs(x);
    const bool small = !(y > 0.46875);           // NaN lands here: x·P/Q propagates it
    const bool mid = y <= 4.0;
    // |x| <= 0.46875: erf = x·P(t)/Q(t), t = x²
    const double t = x * x;
    double ps = 1.85777706184603153e-1;
    ps = fmadd(ps, t, 3.16112374387056560e00);
    ps = fmadd(ps, t, 1.13864154151050156e02);
    ps = fmadd(ps, t, 3.77485237685302021e02);
    ps = fmadd(ps, t, 3.20937758913846947e03);
    double qs = t + 2.36012909523441209e01;
    qs = fmadd(qs, t, 2.44024637934444173e02);
    qs = fmadd(qs, t, 1.28261652607737228e03);
    qs = fmadd(qs, t, 2.84423683343917062e03);
    // 0.46875 < |x| <= 4: erfc = e^(-x²)·P(y)/Q(y)
    // (Estrin's scheme: every term is positive, so any order is as accurate, and this one is shallower)
    const double y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
    const double pm = fmadd(2.15311535474403846e-8, y8,
                            fmadd(fmadd(fmadd(5.64188496988670089e-1, y, 8.88314979438837594e00), y2,
                                        fmadd(6.61191906371416295e01, y, 2.98635138197400131e02)), y4,
                                  fmadd(fmadd(8.81952221241769090e02, y, 1.71204761263407058e03), y2,
                                        fmadd(2.05107837782607147e03, y, 1.23033935479799725e03))));
    const double qm = fmadd(fmadd(fmadd(y + 1.57449261107098347e01, y2,
                                        fmadd(1.17693950891312499e02, y, 5.37181101862009858e02)), y4,
                                  fmadd(fmadd(1.62138957456669019e03, y, 3.29079923573345963e03), y2,
                                        fmadd(4.36261909014324716e03, y, 3.43936767414372164e03))),
                            y, 1.23033935480374942e03);
    // |x| > 4: erfc = e^(-x²)/y·(1/√π - z·P(z)/Q(z)), z = 1/w, w = y², P of degree 5 with leading p6 and
    // Q monic of degree 5. Times w⁶/w⁶: = e^(-x²)·(w·Q'(w)/√π - P'(w))/(y·w·Q'(w)) with the reversed
    // polynomials Q'(w) = 1 + q1·w + ... + q5·w⁵ and P'(w) = p6 + p1·w + ... + p5·w⁵ (positive terms only).
    const double yc = select(y > 28.0, 28.0, y);       // erfc(28) = 0 = erfc(inf) in double; keeps w finite
    const double w = yc * yc;
    double pt = 6.58749161529837803e-4;
    pt = fmadd(pt, w, 1.60837851487422766e-2);
    pt = fmadd(pt, w, 1.25781726111229246e-1);
    pt = fmadd(pt, w, 3.60344899949804439e-1);
    pt = fmadd(pt, w, 3.05326634961232344e-1);
    pt = fmadd(pt, w, 1.63153871373020978e-2);
    double qt = 2.33520497626869185e-3;
    qt = fmadd(qt, w, 6.05183413124413191e-2);
    qt = fmadd(qt, w, 5.27905102951428412e-1);
    qt = fmadd(qt, w, 1.87295284992346047e00);
    qt = fmadd(qt, w, 2.56852019228982242e00);
    qt = fmadd(qt, w, 1.0);
    qt *= w;
    pt = fmadd(qt, 5.6418958354775628695e-1, -pt);
    qt *= yc;
    const double num = select(small, ps, select(mid, pm, pt));
    const double den = select(small, qs, select(mid, qm, qt));
    const double q = num / den;
    const double e = exp_hilo(-w, -square_error(yc, w)) * q;     // erfc(|x|) where not small
    const double erf_small = x * q;
    if constexpr (complement) {
        const double big = select(x < 0.0, 2.0 - e, e);
        return select(small, 1.0 - erf_small, big);
    }
    const double big = std::copysign((0.5 - e) + 0.5, x);
    return select(small, erf_small, big);
}

// tanh: for |x| < 0.625 the odd rational x + x·z·P(z)/Q(z), z = x², of the Cephes library's tanh (S. L. Moshier);
// beyond, 1 - 2/(e^(2|x|) + 1) with the sign of x (e^(2|x|) = inf past 354 gives exactly ±1). Both evaluated and
// one selected per lane; NaN propagates through either.
TR_INLINE double tanh_d(double x) {
    const double a = std::fabs(x), z = x * x;
    const double p = fmadd(fmadd(-9.64399179425052238628e-1, z, -9.92877231001918586564e1), z,
                           -1.61468768441708447952e3);
    const double q = fmadd(fmadd(z + 1.12811678491632931402e2, z, 2.23548839060100448583e3), z,
                           4.84406305325125486048e3);
    const double small = fmadd(a * z, p / q, a);
    const double big = 1.0 - 2.0 / (exp_hilo(2.0 * a, 0.0) + 1.0);
    return std::copysign(select(a < 0.625, small, big), x);     // (tanh(-0) = -0)
}

}  // namespace tr_math_detail

#pragma omp declare simd notinbranch
TR_INLINE double tr_tanh(double x) { return tr_math_detail::tanh_d(x); }
#pragma omp declare simd notinbranch
TR_INLINE float tr_tanh(float x) { return static_cast<float>(tr_math_detail::tanh_d(static_cast<double>(x))); }

#pragma omp declare simd notinbranch
TR_INLINE double tr_exp(double x) { return tr_math_detail::exp_hilo(x, 0.0); }
#pragma omp declare simd notinbranch
TR_INLINE float tr_exp(float x) { return tr_math_detail::exp_f(x); }

#pragma omp declare simd notinbranch
TR_INLINE double tr_erf(double x) { return tr_math_detail::cody<false>(x); }
#pragma omp declare simd notinbranch
TR_INLINE double tr_erfc(double x) { return tr_math_detail::cody<true>(x); }
#pragma omp declare simd notinbranch
TR_INLINE float tr_erf(float x) { return static_cast<float>(tr_math_detail::cody<false>(static_cast<double>(x))); }
#pragma omp declare simd notinbranch
TR_INLINE float tr_erfc(float x) { return static_cast<float>(tr_math_detail::cody<true>(static_cast<double>(x))); }

#endif  // TR_CPU_MATH_H

template <typename T> static inline T tr_sq(T x) { return x * x; }
template <typename T> static inline T rsqrt(T x) { return T(1) / sqrt(x); }
static inline long long tr_min(long long a, long long b) { return a < b ? a : b; }
static inline long long tr_ceil(long long a, long long b) { return (a + b - 1) / b; }
// c ? a : b for the values in a simd loop: a blend under a comparison mask, so that the loop vectorizes without
// AVX-512 too (templates/cpu_math.h says why ?: does not)
template <typename T> static inline T tr_select(bool c, T a, T b) { return tr_math_detail::select(c, a, b); }
// σ(x) accurate in both tails: e = exp(-|x|) <= 1, then 1/(1 + e) or e/(1 + e)
template <typename T> static inline T tr_sigmoid(T x) {
    const T e = tr_exp(-fabs(x));
    return tr_select(x >= T(0), T(1), e) / (T(1) + e);
}
// fmax without its libm call (which keeps a max-reduction loop scalar): the larger, the number where one is NaN
template <typename T> static inline T tr_fmax(T a, T b) { return tr_select(b > a || a != a, b, a); }
template <typename T> static inline T tr_relu(T x) { return tr_select(x > T(0), x, T(0)); }
template <typename T> static inline T tr_softplus(T x) { return tr_relu(x) + log1p(tr_exp(-fabs(x))); }
template <typename T> static inline T tr_step(T x) { return tr_select(x > T(0), T(1), T(0)); }
template <typename T> static inline T tr_sign(T x) {
    return tr_select(x > T(0), T(1), T(0)) - tr_select(x < T(0), T(1), T(0));
}

// a tangent or cotangent that is zero is passed as a buffer of zeros (runtime/native.py), never a null pointer: a
// conditional load would keep the loop reading it from vectorizing
template <typename T> static inline T tr_ld(const T* p, long long i) { return p[i]; }

// mode 0: store, 1: accumulate (each element has one writer: no atomics on the CPU). p[i] is read either way
// (an output is allocated before it is written), so the mode is a select, not a conditional load.
template <typename T> static inline void tr_store(T* p, long long i, T v, int mode) {
    // never null: runtime/native.py passes scratch memory for an output nobody reads, so no test stops a loop
    // storing through it from vectorizing
    p[i] = tr_select(mode != 0, p[i] + v, v);
}

// ---- maxima: the shift of a log-sum-exp ---------------------------------------------------------------------
// A buffer of maxima holds order-preserving unsigned keys of the values' bits: the zero key lies below every
// value's, so the zero-filled buffer of a split reduction (mode 2) is the identity of the atomic maximum that
// merges the partial ones. It is read only through tr_shift: the maximum, or 0 where that is infinite (or
// NaN), which is what exp(x - shift) needs (all -inf then gives -inf, not NaN).
template <typename T> struct tr_key_of;
template <> struct tr_key_of<float> { typedef unsigned int type; };
template <> struct tr_key_of<double> { typedef unsigned long long type; };

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

template <typename T> static inline void tr_store_max(T* p, long long i, T v, int mode) {
    if (!p) return;
    typedef typename tr_key_of<T>::type U;
    U* const q = reinterpret_cast<U*>(p) + i;
    const U k = tr_key(v);
    if (mode == 0 || k > *q) *q = k;
}

// tr_nn_sum_fwd0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_sum_fwd0_block(T* __restrict__ x_s, const int mode_x_s, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += x_x[q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_sum_fwd0_f32(float* __restrict__ x_s, const int mode_x_s, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_sum_fwd0_block<float>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_s, r, res[r - r0], mode_x_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_sum_fwd0_block<float>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_s, r, res[r - r0], mode_x_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_sum_fwd0_block<float>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_sum_fwd0_block<float>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_s, row, v, mode_x_s);
    }
}
extern "C" void tr_nn_sum_fwd0_f64(double* __restrict__ x_s, const int mode_x_s, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_sum_fwd0_block<double>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_s, r, res[r - r0], mode_x_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_sum_fwd0_block<double>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_s, r, res[r - r0], mode_x_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_sum_fwd0_block<double>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_sum_fwd0_block<double>(x_s, mode_x_s, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_s, row, v, mode_x_s);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_sum_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_sum_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_sum_jvp1: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_sum_jvp1_block(T* __restrict__ d_s, const int mode_d_s, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_x, q0);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_sum_jvp1_f32(float* __restrict__ d_s, const int mode_d_s, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_sum_jvp1_block<float>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_s, r, res[r - r0], mode_d_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_sum_jvp1_block<float>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_s, r, res[r - r0], mode_d_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_sum_jvp1_block<float>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_sum_jvp1_block<float>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_s, row, v, mode_d_s);
    }
}
extern "C" void tr_nn_sum_jvp1_f64(double* __restrict__ d_s, const int mode_d_s, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_sum_jvp1_block<double>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_s, r, res[r - r0], mode_d_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_sum_jvp1_block<double>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_s, r, res[r - r0], mode_d_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_sum_jvp1_block<double>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_sum_jvp1_block<double>(d_s, mode_d_s, d_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_s, row, v, mode_d_s);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_sum_jvp1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_jvp1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_sum_jvp1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_jvp1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_sum_pb0: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_sum_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_s, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_ld(b_s, 0);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_sum_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_s, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_sum_pb0_body<float>(b_x, mode_b_x, b_s, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_sum_pb0_body<float>(b_x, mode_b_x, b_s, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_sum_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_s, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_sum_pb0_body<double>(b_x, mode_b_x, b_s, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_sum_pb0_body<double>(b_x, mode_b_x, b_s, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_sum_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1]);
}
extern "C" void tr_nn_sum_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_sum_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1]);
}

// tr_nn_mean_fwd0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_mean_fwd0_block(T* __restrict__ x_m, const int mode_x_m, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += x_x[q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = (T(1) / (T(n_i))) * acc0[row - r0];
    }
}
extern "C" void tr_nn_mean_fwd0_f32(float* __restrict__ x_m, const int mode_x_m, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mean_fwd0_block<float>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_m, r, res[r - r0], mode_x_m);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mean_fwd0_block<float>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_m, r, res[r - r0], mode_x_m);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mean_fwd0_block<float>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mean_fwd0_block<float>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_m, row, v, mode_x_m);
    }
}
extern "C" void tr_nn_mean_fwd0_f64(double* __restrict__ x_m, const int mode_x_m, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mean_fwd0_block<double>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_m, r, res[r - r0], mode_x_m);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mean_fwd0_block<double>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_m, r, res[r - r0], mode_x_m);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mean_fwd0_block<double>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mean_fwd0_block<double>(x_m, mode_x_m, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_m, row, v, mode_x_m);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mean_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_mean_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_mean_jvp1: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_mean_jvp1_block(T* __restrict__ d_m, const int mode_d_m, const T* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_x, q0);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = (T(1) / (T(n_i))) * acc0[row - r0];
    }
}
extern "C" void tr_nn_mean_jvp1_f32(float* __restrict__ d_m, const int mode_d_m, const float* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mean_jvp1_block<float>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_m, r, res[r - r0], mode_d_m);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mean_jvp1_block<float>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_m, r, res[r - r0], mode_d_m);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mean_jvp1_block<float>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mean_jvp1_block<float>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_m, row, v, mode_d_m);
    }
}
extern "C" void tr_nn_mean_jvp1_f64(double* __restrict__ d_m, const int mode_d_m, const double* __restrict__ d_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mean_jvp1_block<double>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_m, r, res[r - r0], mode_d_m);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mean_jvp1_block<double>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_m, r, res[r - r0], mode_d_m);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mean_jvp1_block<double>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mean_jvp1_block<double>(d_m, mode_d_m, d_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_m, row, v, mode_d_m);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mean_jvp1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_jvp1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_mean_jvp1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_jvp1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_mean_pb0: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_mean_pb0_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_m, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_ld(b_m, 0)/T(n_i);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_mean_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_m, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mean_pb0_body<float>(b_x, mode_b_x, b_m, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mean_pb0_body<float>(b_x, mode_b_x, b_m, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_mean_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_m, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mean_pb0_body<double>(b_x, mode_b_x, b_m, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mean_pb0_body<double>(b_x, mode_b_x, b_m, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mean_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1]);
}
extern "C" void tr_nn_mean_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mean_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1]);
}

// tr_nn_logsumexp_fwd0: maximum of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_logsumexp_fwd0_block(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = -T(INFINITY);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = -T(INFINITY);
#pragma omp simd reduction(max:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                { const T c_ = x_x[q0]; a0 = c_ > a0 ? c_ : a0; }
            }
            acc0[row - r0] = tr_fmax(acc0[row - r0], a0);
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_logsumexp_fwd0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_fwd0_block<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_fwd0_block<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_fwd0_block<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_fwd0_block<float>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c0, row, v, mode_u_c0);
    }
}
extern "C" void tr_nn_logsumexp_fwd0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_x, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_fwd0_block<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_fwd0_block<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_fwd0_block<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_fwd0_block<double>(u_c0, mode_u_c0, x_x, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c0, row, v, mode_u_c0);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_logsumexp_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_logsumexp_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_logsumexp_fwd1: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_logsumexp_fwd1_block(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_exp(x_x[q0] - tr_shift(u_c0[0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_logsumexp_fwd1_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_fwd1_block<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_fwd1_block<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_fwd1_block<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_fwd1_block<float>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c1, row, v, mode_u_c1);
    }
}
extern "C" void tr_nn_logsumexp_fwd1_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_fwd1_block<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_fwd1_block<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_fwd1_block<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_fwd1_block<double>(u_c1, mode_u_c1, x_x, u_c0, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c1, row, v, mode_u_c1);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_logsumexp_fwd1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_logsumexp_fwd1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_logsumexp_fwd2: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_logsumexp_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ u_c0, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const T r1 = log(u_c1[0]) + tr_shift(u_c0[0]);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_logsumexp_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ u_c0) {
    const long long total = 1LL, nl = 1LL;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_fwd2_body<float>(x_y, mode_x_y, u_c1, u_c0, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_fwd2_body<float>(x_y, mode_x_y, u_c1, u_c0, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_logsumexp_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ u_c0) {
    const long long total = 1LL, nl = 1LL;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_fwd2_body<double>(x_y, mode_x_y, u_c1, u_c0, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_fwd2_body<double>(x_y, mode_x_y, u_c1, u_c0, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_logsumexp_fwd2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2]);
}
extern "C" void tr_nn_logsumexp_fwd2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_fwd2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2]);
}

// tr_nn_logsumexp_jvp3: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_logsumexp_jvp3_block(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_x, q0)*tr_exp(x_x[q0] - tr_shift(u_c0[0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = (T(1) / (u_c1[0])) * acc0[row - r0];
    }
}
extern "C" void tr_nn_logsumexp_jvp3_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_jvp3_block<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_y, r, res[r - r0], mode_d_y);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_logsumexp_jvp3_block<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_y, r, res[r - r0], mode_d_y);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_jvp3_block<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_jvp3_block<float>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_y, row, v, mode_d_y);
    }
}
extern "C" void tr_nn_logsumexp_jvp3_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_jvp3_block<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_y, r, res[r - r0], mode_d_y);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_logsumexp_jvp3_block<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_y, r, res[r - r0], mode_d_y);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_logsumexp_jvp3_block<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_logsumexp_jvp3_block<double>(d_y, mode_d_y, d_x, x_x, u_c0, u_c1, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_y, row, v, mode_d_y);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_logsumexp_jvp3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_jvp3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_logsumexp_jvp3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_jvp3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_logsumexp_pb2: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_logsumexp_pb2_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_ld(b_y, 0)*tr_exp(x_x[e] - tr_shift(u_c0[0]))/u_c1[0];
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_logsumexp_pb2_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_pb2_body<float>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_pb2_body<float>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_logsumexp_pb2_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_pb2_body<double>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_logsumexp_pb2_body<double>(b_x, mode_b_x, b_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_logsumexp_pb2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_pb2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1]);
}
extern "C" void tr_nn_logsumexp_pb2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_logsumexp_pb2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1]);
}

// tr_nn_softmax_fwd2: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_x, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_exp(x_x[e] - tr_shift(u_c0[0]))/u_c1[0];
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_x, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_fwd2_body<float>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_fwd2_body<float>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_x, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_fwd2_body<double>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_fwd2_body<double>(x_y, mode_x_y, x_x, u_c0, u_c1, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_softmax_fwd2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_fwd2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1]);
}
extern "C" void tr_nn_softmax_fwd2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_fwd2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1]);
}

// tr_nn_softmax_jvp3: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_softmax_jvp3_block(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_x, q0)*x_y[q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_softmax_jvp3_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c2, row, v, mode_u_c2);
    }
}
extern "C" void tr_nn_softmax_jvp3_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c2, row, v, mode_u_c2);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_softmax_jvp3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_jvp3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_softmax_jvp3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_jvp3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_softmax_jvp4: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(d_x, e) - v1*tr_ld(u_c2, 0);
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" void tr_nn_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_jvp4_body<float>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_jvp4_body<float>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_jvp4_body<double>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_jvp4_body<double>(d_y, mode_d_y, x_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_softmax_jvp4_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_jvp4_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1]);
}
extern "C" void tr_nn_softmax_jvp4_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_jvp4_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1]);
}

// tr_nn_softmax_pb0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_softmax_pb0_block(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(b_y, q0)*x_y[q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_softmax_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c0, row, v, mode_u_c0);
    }
}
extern "C" void tr_nn_softmax_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c0, row, v, mode_u_c0);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_softmax_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_softmax_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_softmax_pb1: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_y, const T* __restrict__ b_y, const T* __restrict__ u_c0, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T v1 = x_y[e];
        const T r2 = v1*tr_ld(b_y, e) - v1*tr_ld(u_c0, 0);
        tr_store(b_x, e, r2, mode_b_x);
    }
}
extern "C" void tr_nn_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_y, const float* __restrict__ b_y, const float* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_pb1_body<float>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_pb1_body<float>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_y, const double* __restrict__ b_y, const double* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_pb1_body<double>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_softmax_pb1_body<double>(b_x, mode_b_x, x_y, b_y, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_softmax_pb1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_pb1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1]);
}
extern "C" void tr_nn_softmax_pb1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_softmax_pb1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1]);
}

// tr_nn_log_softmax_fwd2: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_log_softmax_fwd2_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c1, const T* __restrict__ x_x, const T* __restrict__ u_c0, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = -log(u_c1[0]) + (x_x[e] - tr_shift(u_c0[0]));
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_log_softmax_fwd2_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c1, const float* __restrict__ x_x, const float* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_fwd2_body<float>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_fwd2_body<float>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_log_softmax_fwd2_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c1, const double* __restrict__ x_x, const double* __restrict__ u_c0, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_fwd2_body<double>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_fwd2_body<double>(x_y, mode_x_y, u_c1, x_x, u_c0, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_log_softmax_fwd2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_fwd2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1]);
}
extern "C" void tr_nn_log_softmax_fwd2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_fwd2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1]);
}

// tr_nn_log_softmax_jvp3: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_log_softmax_jvp3_block(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ d_x, const T* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_x, q0)*tr_exp(x_y[q0]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_log_softmax_jvp3_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ d_x, const float* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_log_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_log_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_log_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_log_softmax_jvp3_block<float>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c2, row, v, mode_u_c2);
    }
}
extern "C" void tr_nn_log_softmax_jvp3_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ d_x, const double* __restrict__ x_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_log_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_log_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_log_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_log_softmax_jvp3_block<double>(u_c2, mode_u_c2, d_x, x_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c2, row, v, mode_u_c2);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_log_softmax_jvp3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_jvp3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_log_softmax_jvp3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_jvp3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_log_softmax_jvp4: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_log_softmax_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_x, const T* __restrict__ u_c2, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_ld(d_x, e) - tr_ld(u_c2, 0);
        tr_store(d_y, e, r1, mode_d_y);
    }
}
extern "C" void tr_nn_log_softmax_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_x, const float* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_jvp4_body<float>(d_y, mode_d_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_jvp4_body<float>(d_y, mode_d_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_log_softmax_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_x, const double* __restrict__ u_c2, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_jvp4_body<double>(d_y, mode_d_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_jvp4_body<double>(d_y, mode_d_y, d_x, u_c2, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_log_softmax_jvp4_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_jvp4_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1]);
}
extern "C" void tr_nn_log_softmax_jvp4_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_jvp4_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1]);
}

// tr_nn_log_softmax_pb0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_log_softmax_pb0_block(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ b_y, const long long n_i, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(b_y, q0);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_log_softmax_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ b_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_log_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_log_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_log_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_log_softmax_pb0_block<float>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c0, row, v, mode_u_c0);
    }
}
extern "C" void tr_nn_log_softmax_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ b_y, const long long n_i, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_log_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_log_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_log_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_log_softmax_pb0_block<double>(u_c0, mode_u_c0, b_y, n_i, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c0, row, v, mode_u_c0);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_log_softmax_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}
extern "C" void tr_nn_log_softmax_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4]);
}

// tr_nn_log_softmax_pb1: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_log_softmax_pb1_body(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ b_y, const T* __restrict__ u_c0, const T* __restrict__ x_y, const long long n_i, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = tr_ld(b_y, e) - tr_ld(u_c0, 0)*tr_exp(x_y[e]);
        tr_store(b_x, e, r1, mode_b_x);
    }
}
extern "C" void tr_nn_log_softmax_pb1_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ b_y, const float* __restrict__ u_c0, const float* __restrict__ x_y, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_pb1_body<float>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_pb1_body<float>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_log_softmax_pb1_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ b_y, const double* __restrict__ u_c0, const double* __restrict__ x_y, const long long n_i) {
    const long long total = n_i, nl = n_i;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_pb1_body<double>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_log_softmax_pb1_body<double>(b_x, mode_b_x, b_y, u_c0, x_y, n_i, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_log_softmax_pb1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_pb1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1]);
}
extern "C" void tr_nn_log_softmax_pb1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_log_softmax_pb1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1]);
}

// tr_nn_dense_fwd1: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_dense_fwd1_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ u_c0, const T* __restrict__ x_c, const long long n_o, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = tr_tanh(u_c0[e1 * n_b + e0] + x_c[e1]);
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_dense_fwd1_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ u_c0, const float* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_fwd1_body<float>(x_y, mode_x_y, u_c0, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_fwd1_body<float>(x_y, mode_x_y, u_c0, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_dense_fwd1_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ u_c0, const double* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_fwd1_body<double>(x_y, mode_x_y, u_c0, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_fwd1_body<double>(x_y, mode_x_y, u_c0, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_dense_fwd1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_fwd1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2]);
}
extern "C" void tr_nn_dense_fwd1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_fwd1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2]);
}

// tr_nn_dense_jvp4: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_dense_jvp4_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ x_y, const T* __restrict__ d_c, const T* __restrict__ u_c1, const T* __restrict__ u_c2, const long long n_o, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T v1 = T(1) - tr_sq(x_y[e]);
        const T r2 = v1*tr_ld(d_c, e1) + v1*tr_ld(u_c1, e) + v1*tr_ld(u_c2, e);
        tr_store(d_y, e, r2, mode_d_y);
    }
}
extern "C" void tr_nn_dense_jvp4_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ x_y, const float* __restrict__ d_c, const float* __restrict__ u_c1, const float* __restrict__ u_c2, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_jvp4_body<float>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_jvp4_body<float>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_dense_jvp4_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ x_y, const double* __restrict__ d_c, const double* __restrict__ u_c1, const double* __restrict__ u_c2, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_jvp4_body<double>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_jvp4_body<double>(d_y, mode_d_y, x_y, d_c, u_c1, u_c2, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_dense_jvp4_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_jvp4_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2]);
}
extern "C" void tr_nn_dense_jvp4_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_jvp4_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2]);
}

// tr_nn_dense_pb0: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_dense_pb0_body(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_y, const T* __restrict__ b_y, const long long n_b, const long long n_o, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = (T(1) - tr_sq(x_y[e]))*tr_ld(b_y, e);
        tr_store(u_c0, e, r1, mode_u_c0);
    }
}
extern "C" void tr_nn_dense_pb0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_y, const float* __restrict__ b_y, const long long n_b, const long long n_o) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_pb0_body<float>(u_c0, mode_u_c0, x_y, b_y, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_pb0_body<float>(u_c0, mode_u_c0, x_y, b_y, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_dense_pb0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_y, const double* __restrict__ b_y, const long long n_b, const long long n_o) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_pb0_body<double>(u_c0, mode_u_c0, x_y, b_y, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_dense_pb0_body<double>(u_c0, mode_u_c0, x_y, b_y, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_dense_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2]);
}
extern "C" void tr_nn_dense_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2]);
}

// tr_nn_dense_pb3: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_dense_pb3_block(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ x_y, const T* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += (T(1) - tr_sq(x_y[i0 * n_b + q0]))*tr_ld(b_y, i0 * n_b + q0);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_dense_pb3_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ x_y, const float* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_dense_pb3_block<float>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_dense_pb3_block<float>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_dense_pb3_block<float>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_dense_pb3_block<float>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_c, row, v, mode_b_c);
    }
}
extern "C" void tr_nn_dense_pb3_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ x_y, const double* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_dense_pb3_block<double>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_dense_pb3_block<double>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_dense_pb3_block<double>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_dense_pb3_block<double>(b_c, mode_b_c, x_y, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_c, row, v, mode_b_c);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_dense_pb3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_pb3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_dense_pb3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_dense_pb3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_linear_fwd0: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_linear_fwd0_body(T* __restrict__ x_y, const int mode_x_y, const T* __restrict__ x_c, const long long n_o, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = x_c[e1];
        tr_store(x_y, e, r1, mode_x_y);
    }
}
extern "C" void tr_nn_linear_fwd0_f32(float* __restrict__ x_y, const int mode_x_y, const float* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_fwd0_body<float>(x_y, mode_x_y, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_fwd0_body<float>(x_y, mode_x_y, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_linear_fwd0_f64(double* __restrict__ x_y, const int mode_x_y, const double* __restrict__ x_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_fwd0_body<double>(x_y, mode_x_y, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_fwd0_body<double>(x_y, mode_x_y, x_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_linear_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2]);
}
extern "C" void tr_nn_linear_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2]);
}

// tr_nn_linear_jvp2: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_linear_jvp2_body(T* __restrict__ d_y, const int mode_d_y, const T* __restrict__ d_c, const long long n_o, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = tr_ld(d_c, e1);
        tr_store(d_y, e, r1, mode_d_y);
    }
}
extern "C" void tr_nn_linear_jvp2_f32(float* __restrict__ d_y, const int mode_d_y, const float* __restrict__ d_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_jvp2_body<float>(d_y, mode_d_y, d_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_jvp2_body<float>(d_y, mode_d_y, d_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_linear_jvp2_f64(double* __restrict__ d_y, const int mode_d_y, const double* __restrict__ d_c, const long long n_o, const long long n_b) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_jvp2_body<double>(d_y, mode_d_y, d_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_linear_jvp2_body<double>(d_y, mode_d_y, d_c, n_o, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_linear_jvp2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_jvp2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2]);
}
extern "C" void tr_nn_linear_jvp2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_jvp2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2]);
}

// tr_nn_linear_pb2: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_linear_pb2_block(T* __restrict__ b_c, const int mode_b_c, const T* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(b_y, i0 * n_b + q0);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_linear_pb2_f32(float* __restrict__ b_c, const int mode_b_c, const float* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_linear_pb2_block<float>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_linear_pb2_block<float>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_linear_pb2_block<float>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_linear_pb2_block<float>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_c, row, v, mode_b_c);
    }
}
extern "C" void tr_nn_linear_pb2_f64(double* __restrict__ b_c, const int mode_b_c, const double* __restrict__ b_y, const long long n_o, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_linear_pb2_block<double>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_linear_pb2_block<double>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_c, r, res[r - r0], mode_b_c);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_linear_pb2_block<double>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_linear_pb2_block<double>(b_c, mode_b_c, b_y, n_o, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_c, row, v, mode_b_c);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_linear_pb2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_pb2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_linear_pb2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_linear_pb2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_mse_fwd0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_mse_fwd0_block(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ x_p, const T* __restrict__ x_t, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                a0 += tr_sq(x_p[q0 * n_o + q1] - x_t[q0 * n_o + q1]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = T(1)/(T(n_b)*T(n_o)) * acc0[row - r0];
    }
}
extern "C" void tr_nn_mse_fwd0_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ x_p, const float* __restrict__ x_t, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mse_fwd0_block<float>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mse_fwd0_block<float>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mse_fwd0_block<float>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mse_fwd0_block<float>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_L, row, v, mode_x_L);
    }
}
extern "C" void tr_nn_mse_fwd0_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ x_p, const double* __restrict__ x_t, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mse_fwd0_block<double>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mse_fwd0_block<double>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mse_fwd0_block<double>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mse_fwd0_block<double>(x_L, mode_x_L, x_p, x_t, n_b, n_o, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_L, row, v, mode_x_L);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mse_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_mse_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_mse_jvp1: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_mse_jvp1_block(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ x_p, const T* __restrict__ x_t, const T* __restrict__ d_t, const T* __restrict__ d_p, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    T acc1[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc1[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
            T a1 = T(0);
#pragma omp simd reduction(+:a0, a1)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                const T v1 = x_p[q0 * n_o + q1] - x_t[q0 * n_o + q1];
                a0 += -v1*tr_ld(d_t, q0 * n_o + q1);
                a1 += v1*tr_ld(d_p, q0 * n_o + q1);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
            acc1[row - r0] = acc1[row - r0] + a1;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const T v2 = T(2)/(T(n_b)*T(n_o));
        res[row - r0] = v2 * acc0[row - r0] + v2 * acc1[row - r0];
    }
}
extern "C" void tr_nn_mse_jvp1_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ x_p, const float* __restrict__ x_t, const float* __restrict__ d_t, const float* __restrict__ d_p, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mse_jvp1_block<float>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_mse_jvp1_block<float>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mse_jvp1_block<float>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mse_jvp1_block<float>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_L, row, v, mode_d_L);
    }
}
extern "C" void tr_nn_mse_jvp1_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ x_p, const double* __restrict__ x_t, const double* __restrict__ d_t, const double* __restrict__ d_p, const long long n_b, const long long n_o, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mse_jvp1_block<double>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_mse_jvp1_block<double>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_mse_jvp1_block<double>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_mse_jvp1_block<double>(d_L, mode_d_L, x_p, x_t, d_t, d_p, n_b, n_o, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_L, row, v, mode_d_L);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mse_jvp1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_jvp1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_mse_jvp1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_jvp1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_mse_pb0: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_mse_pb0_body(T* __restrict__ b_p, const int mode_b_p, T* __restrict__ b_t, const int mode_b_t, const T* __restrict__ x_p, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_b, const long long n_o, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = T(2)*(x_p[e] - x_t[e])*tr_ld(b_L, 0)/(T(n_b)*T(n_o));
        tr_store(b_p, e, r1, mode_b_p);
        const T r2 = T(2)*(-x_p[e] + x_t[e])*tr_ld(b_L, 0)/(T(n_b)*T(n_o));
        tr_store(b_t, e, r2, mode_b_t);
    }
}
extern "C" void tr_nn_mse_pb0_f32(float* __restrict__ b_p, const int mode_b_p, float* __restrict__ b_t, const int mode_b_t, const float* __restrict__ x_p, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_b, const long long n_o) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mse_pb0_body<float>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mse_pb0_body<float>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_mse_pb0_f64(double* __restrict__ b_p, const int mode_b_p, double* __restrict__ b_t, const int mode_b_t, const double* __restrict__ x_p, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_b, const long long n_o) {
    const long long total = n_b * n_o, nl = n_o;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mse_pb0_body<double>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_mse_pb0_body<double>(b_p, mode_b_p, b_t, mode_b_t, x_p, x_t, b_L, n_b, n_o, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_mse_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_pb0_f32((float*)tr_p[0], (int)tr_n[0], (float*)tr_p[1], (int)tr_n[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[2], (long long)tr_n[3]);
}
extern "C" void tr_nn_mse_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_mse_pb0_f64((double*)tr_p[0], (int)tr_n[0], (double*)tr_p[1], (int)tr_n[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[2], (long long)tr_n[3]);
}

// tr_nn_cross_entropy_fwd0: maximum of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_fwd0_block(T* __restrict__ u_c0, const int mode_u_c0, const T* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = -T(INFINITY);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = -T(INFINITY);
#pragma omp simd reduction(max:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                { const T c_ = x_z[i0 * n_c + q0]; a0 = c_ > a0 ? c_ : a0; }
            }
            acc0[row - r0] = tr_fmax(acc0[row - r0], a0);
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_fwd0_f32(float* __restrict__ u_c0, const int mode_u_c0, const float* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd0_block<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd0_block<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd0_block<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd0_block<float>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c0, row, v, mode_u_c0);
    }
}
extern "C" void tr_nn_cross_entropy_fwd0_f64(double* __restrict__ u_c0, const int mode_u_c0, const double* __restrict__ x_z, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd0_block<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd0_block<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c0, r, res[r - r0], mode_u_c0);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd0_block<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd0_block<double>(u_c0, mode_u_c0, x_z, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c0, row, v, mode_u_c0);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_fwd1: maximum of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_fwd1_block(T* __restrict__ u_c2, const int mode_u_c2, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = -T(INFINITY);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = -T(INFINITY);
#pragma omp simd reduction(max:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                { const T c_ = x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]); a0 = c_ > a0 ? c_ : a0; }
            }
            acc0[row - r0] = tr_fmax(acc0[row - r0], a0);
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_fwd1_f32(float* __restrict__ u_c2, const int mode_u_c2, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd1_block<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd1_block<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd1_block<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd1_block<float>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c2, row, v, mode_u_c2);
    }
}
extern "C" void tr_nn_cross_entropy_fwd1_f64(double* __restrict__ u_c2, const int mode_u_c2, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd1_block<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c2, r, res[r - r0], mode_u_c2);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd1_block<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store_max(u_c2, r, res[r - r0], mode_u_c2);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd1_block<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd1_block<double>(u_c2, mode_u_c2, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = tr_fmax(v, part[c]);
        tr_store_max(u_c2, row, v, mode_u_c2);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_fwd1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_fwd1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_fwd2: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_fwd2_block(T* __restrict__ u_c3, const int mode_u_c3, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]) - tr_shift(u_c2[i0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_fwd2_f32(float* __restrict__ u_c3, const int mode_u_c3, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd2_block<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c3, r, res[r - r0], mode_u_c3);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd2_block<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c3, r, res[r - r0], mode_u_c3);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd2_block<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd2_block<float>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c3, row, v, mode_u_c3);
    }
}
extern "C" void tr_nn_cross_entropy_fwd2_f64(double* __restrict__ u_c3, const int mode_u_c3, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c2, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd2_block<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c3, r, res[r - r0], mode_u_c3);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd2_block<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c3, r, res[r - r0], mode_u_c3);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd2_block<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd2_block<double>(u_c3, mode_u_c3, x_z, u_c0, u_c2, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c3, row, v, mode_u_c3);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_fwd2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_fwd2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_fwd3: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_cross_entropy_fwd3_body(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ u_c3, const T* __restrict__ u_c2, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = -log(u_c3[e]) - tr_shift(u_c2[e]);
        tr_store(u_c1, e, r1, mode_u_c1);
    }
}
extern "C" void tr_nn_cross_entropy_fwd3_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ u_c3, const float* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b, nl = n_b;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_fwd3_body<float>(u_c1, mode_u_c1, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_fwd3_body<float>(u_c1, mode_u_c1, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_cross_entropy_fwd3_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ u_c3, const double* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b, nl = n_b;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_fwd3_body<double>(u_c1, mode_u_c1, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_fwd3_body<double>(u_c1, mode_u_c1, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_fwd3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1]);
}
extern "C" void tr_nn_cross_entropy_fwd3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1]);
}

// tr_nn_cross_entropy_fwd4: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_fwd4_block(T* __restrict__ x_L, const int mode_x_L, const T* __restrict__ u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                a0 += (u_c1[q1] + (x_z[q0 * n_b + q1] - tr_shift(u_c0[q1])))*x_t[q0 * n_b + q1];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = -T(1)/T(n_b) * acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_fwd4_f32(float* __restrict__ x_L, const int mode_x_L, const float* __restrict__ u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd4_block<float>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_fwd4_block<float>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd4_block<float>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd4_block<float>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_L, row, v, mode_x_L);
    }
}
extern "C" void tr_nn_cross_entropy_fwd4_f64(double* __restrict__ x_L, const int mode_x_L, const double* __restrict__ u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ x_t, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd4_block<double>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_fwd4_block<double>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_L, r, res[r - r0], mode_x_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_fwd4_block<double>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_fwd4_block<double>(x_L, mode_x_L, u_c1, x_z, u_c0, x_t, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_L, row, v, mode_x_L);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_fwd4_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd4_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_fwd4_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_fwd4_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_jvp5: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_jvp5_block(T* __restrict__ u_c4, const int mode_u_c4, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_jvp5_f32(float* __restrict__ u_c4, const int mode_u_c4, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp5_block<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c4, r, res[r - r0], mode_u_c4);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp5_block<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c4, r, res[r - r0], mode_u_c4);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp5_block<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp5_block<float>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c4, row, v, mode_u_c4);
    }
}
extern "C" void tr_nn_cross_entropy_jvp5_f64(double* __restrict__ u_c4, const int mode_u_c4, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp5_block<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c4, r, res[r - r0], mode_u_c4);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp5_block<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c4, r, res[r - r0], mode_u_c4);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp5_block<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp5_block<double>(u_c4, mode_u_c4, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c4, row, v, mode_u_c4);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_jvp5_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp5_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_jvp5_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp5_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_jvp6: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_jvp6_block(T* __restrict__ d_lse, const int mode_d_lse, const T* __restrict__ d_z, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_ld(d_z, i0 * n_c + q0)*tr_exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = (T(1) / (u_c4[i0])) * acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_jvp6_f32(float* __restrict__ d_lse, const int mode_d_lse, const float* __restrict__ d_z, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp6_block<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_lse, r, res[r - r0], mode_d_lse);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp6_block<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_lse, r, res[r - r0], mode_d_lse);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp6_block<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp6_block<float>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_lse, row, v, mode_d_lse);
    }
}
extern "C" void tr_nn_cross_entropy_jvp6_f64(double* __restrict__ d_lse, const int mode_d_lse, const double* __restrict__ d_z, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c4, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp6_block<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_lse, r, res[r - r0], mode_d_lse);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp6_block<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_lse, r, res[r - r0], mode_d_lse);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp6_block<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp6_block<double>(d_lse, mode_d_lse, d_z, x_z, u_c0, u_c4, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_lse, row, v, mode_d_lse);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_jvp6_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp6_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_jvp6_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp6_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_jvp7: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_cross_entropy_jvp7_body(T* __restrict__ u_c5, const int mode_u_c5, const T* __restrict__ u_c3, const T* __restrict__ u_c2, const long long n_b, const long long o, const long long nl, const long long lo, const long long hi) {
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e0 = el;
        const T r1 = log(u_c3[e]) + tr_shift(u_c2[e]);
        tr_store(u_c5, e, r1, mode_u_c5);
    }
}
extern "C" void tr_nn_cross_entropy_jvp7_f32(float* __restrict__ u_c5, const int mode_u_c5, const float* __restrict__ u_c3, const float* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b, nl = n_b;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_jvp7_body<float>(u_c5, mode_u_c5, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_jvp7_body<float>(u_c5, mode_u_c5, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_cross_entropy_jvp7_f64(double* __restrict__ u_c5, const int mode_u_c5, const double* __restrict__ u_c3, const double* __restrict__ u_c2, const long long n_b) {
    const long long total = n_b, nl = n_b;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_jvp7_body<double>(u_c5, mode_u_c5, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_jvp7_body<double>(u_c5, mode_u_c5, u_c3, u_c2, n_b, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_jvp7_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp7_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1]);
}
extern "C" void tr_nn_cross_entropy_jvp7_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp7_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1]);
}

// tr_nn_cross_entropy_jvp8: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_jvp8_block(T* __restrict__ d_L, const int mode_d_L, const T* __restrict__ x_t, const T* __restrict__ d_lse, const T* __restrict__ d_z, const T* __restrict__ u_c5, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ d_t, const long long n_c, const long long n_b, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    T acc1[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc1[r] = T(0);
    T acc2[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc2[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            T a0 = T(0);
            T a1 = T(0);
            T a2 = T(0);
#pragma omp simd reduction(+:a0, a1, a2)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                const T v1 = x_t[q0 * n_b + q1];
                a0 += v1*tr_ld(d_lse, q1);
                a1 += v1*tr_ld(d_z, q0 * n_b + q1);
                a2 += (u_c5[q1] + (-x_z[q0 * n_b + q1] + tr_shift(u_c0[q1])))*tr_ld(d_t, q0 * n_b + q1);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
            acc1[row - r0] = acc1[row - r0] + a1;
            acc2[row - r0] = acc2[row - r0] + a2;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const T v2 = (T(1) / (T(n_b)));
        res[row - r0] = v2 * acc0[row - r0] - v2 * acc1[row - r0] + v2 * acc2[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_jvp8_f32(float* __restrict__ d_L, const int mode_d_L, const float* __restrict__ x_t, const float* __restrict__ d_lse, const float* __restrict__ d_z, const float* __restrict__ u_c5, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ d_t, const long long n_c, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp8_block<float>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_jvp8_block<float>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp8_block<float>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp8_block<float>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_L, row, v, mode_d_L);
    }
}
extern "C" void tr_nn_cross_entropy_jvp8_f64(double* __restrict__ d_L, const int mode_d_L, const double* __restrict__ x_t, const double* __restrict__ d_lse, const double* __restrict__ d_z, const double* __restrict__ u_c5, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ d_t, const long long n_c, const long long n_b, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp8_block<double>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_jvp8_block<double>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_L, r, res[r - r0], mode_d_L);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_jvp8_block<double>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_jvp8_block<double>(d_L, mode_d_L, x_t, d_lse, d_z, u_c5, x_z, u_c0, d_t, n_c, n_b, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_L, row, v, mode_d_L);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_jvp8_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp8_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (const float*)tr_p[6], (const float*)tr_p[7], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_jvp8_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_jvp8_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (const double*)tr_p[6], (const double*)tr_p[7], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_pb0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_pb0_block(T* __restrict__ b_lse, const int mode_b_lse, const T* __restrict__ x_t, const T* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += x_t[i0 * n_c + q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = tr_ld(b_L, 0)/T(n_b) * acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_pb0_f32(float* __restrict__ b_lse, const int mode_b_lse, const float* __restrict__ x_t, const float* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_pb0_block<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_lse, r, res[r - r0], mode_b_lse);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_pb0_block<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_lse, r, res[r - r0], mode_b_lse);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_pb0_block<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_pb0_block<float>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_lse, row, v, mode_b_lse);
    }
}
extern "C" void tr_nn_cross_entropy_pb0_f64(double* __restrict__ b_lse, const int mode_b_lse, const double* __restrict__ x_t, const double* __restrict__ b_L, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_pb0_block<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_lse, r, res[r - r0], mode_b_lse);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_pb0_block<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_lse, r, res[r - r0], mode_b_lse);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_pb0_block<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_pb0_block<double>(b_lse, mode_b_lse, x_t, b_L, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_lse, row, v, mode_b_lse);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_pb2: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_cross_entropy_pb2_block(T* __restrict__ u_c1, const int mode_u_c1, const T* __restrict__ x_z, const T* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += tr_exp(x_z[i0 * n_c + q0] - tr_shift(u_c0[i0]));
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_cross_entropy_pb2_f32(float* __restrict__ u_c1, const int mode_u_c1, const float* __restrict__ x_z, const float* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_pb2_block<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_cross_entropy_pb2_block<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_pb2_block<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_pb2_block<float>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c1, row, v, mode_u_c1);
    }
}
extern "C" void tr_nn_cross_entropy_pb2_f64(double* __restrict__ u_c1, const int mode_u_c1, const double* __restrict__ x_z, const double* __restrict__ u_c0, const long long n_b, const long long n_c, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_pb2_block<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_cross_entropy_pb2_block<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(u_c1, r, res[r - r0], mode_u_c1);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_cross_entropy_pb2_block<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_cross_entropy_pb2_block<double>(u_c1, mode_u_c1, x_z, u_c0, n_b, n_c, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(u_c1, row, v, mode_u_c1);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_pb2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}
extern "C" void tr_nn_cross_entropy_pb2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5]);
}

// tr_nn_cross_entropy_pb3: elementwise; every index but the last from the outer position o, the last in a simd loop over
// [lo, hi) (a chunk of at most TR_CHUNK), so no element divides its flat index
template <typename T>
static void tr_nn_cross_entropy_pb3_body(T* __restrict__ b_z, const int mode_b_z, T* __restrict__ b_t, const int mode_b_t, const T* __restrict__ b_L, const T* __restrict__ x_t, const T* __restrict__ b_lse, const T* __restrict__ x_z, const T* __restrict__ u_c0, const T* __restrict__ u_c1, const long long n_b, const long long n_c, const long long o, const long long nl, const long long lo, const long long hi) {
    const long long e0 = o;
#pragma omp simd
    for (long long el = lo; el < hi; ++el) {
        const long long e = o * nl + el;
        const long long e1 = el;
        const T r1 = -tr_ld(b_L, 0)*x_t[e]/T(n_b) + tr_ld(b_lse, e0)*tr_exp(x_z[e] - tr_shift(u_c0[e0]))/u_c1[e0];
        tr_store(b_z, e, r1, mode_b_z);
        const T r2 = (log(u_c1[e0]) + (-x_z[e] + tr_shift(u_c0[e0])))*tr_ld(b_L, 0)/T(n_b);
        tr_store(b_t, e, r2, mode_b_t);
    }
}
extern "C" void tr_nn_cross_entropy_pb3_f32(float* __restrict__ b_z, const int mode_b_z, float* __restrict__ b_t, const int mode_b_t, const float* __restrict__ b_L, const float* __restrict__ x_t, const float* __restrict__ b_lse, const float* __restrict__ x_z, const float* __restrict__ u_c0, const float* __restrict__ u_c1, const long long n_b, const long long n_c) {
    const long long total = n_b * n_c, nl = n_c;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_pb3_body<float>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_b, n_c, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_pb3_body<float>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_b, n_c, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
extern "C" void tr_nn_cross_entropy_pb3_f64(double* __restrict__ b_z, const int mode_b_z, double* __restrict__ b_t, const int mode_b_t, const double* __restrict__ b_L, const double* __restrict__ x_t, const double* __restrict__ b_lse, const double* __restrict__ x_z, const double* __restrict__ u_c0, const double* __restrict__ u_c1, const long long n_b, const long long n_c) {
    const long long total = n_b * n_c, nl = n_c;
    if (total <= 0) return;
    const long long nch = tr_ceil(nl, TR_CHUNK), nw = (total / nl) * nch;
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (total > 2 * TR_CHUNK) {
#pragma omp parallel for schedule(static)
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_pb3_body<double>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_b, n_c, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    } else {
        for (long long w = 0; w < nw; ++w) {
        const long long o = w / nch, lo = (w % nch) * TR_CHUNK;
        tr_nn_cross_entropy_pb3_body<double>(b_z, mode_b_z, b_t, mode_b_t, b_L, x_t, b_lse, x_z, u_c0, u_c1, n_b, n_c, o, nl, lo, tr_min(nl, lo + TR_CHUNK));
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_cross_entropy_pb3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb3_f32((float*)tr_p[0], (int)tr_n[0], (float*)tr_p[1], (int)tr_n[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (const float*)tr_p[6], (const float*)tr_p[7], (long long)tr_n[2], (long long)tr_n[3]);
}
extern "C" void tr_nn_cross_entropy_pb3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_cross_entropy_pb3_f64((double*)tr_p[0], (int)tr_n[0], (double*)tr_p[1], (int)tr_n[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (const double*)tr_p[6], (const double*)tr_p[7], (long long)tr_n[2], (long long)tr_n[3]);
}

// tr_nn_gaussian_kernel_sum_fwd0: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_gaussian_kernel_sum_fwd0_block(T* __restrict__ x_out, const int mode_x_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T s1_t[TR_TILE];
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[k2 * n_j + q0]);
                }
            }
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                a0 += x_b[q0]*tr_exp(-s1_t[t]/x_s[0]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0];
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f32(float* __restrict__ x_out, const int mode_x_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_fwd0_block<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_out, r, res[r - r0], mode_x_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_fwd0_block<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_out, r, res[r - r0], mode_x_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_fwd0_block<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_fwd0_block<float>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_out, row, v, mode_x_out);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f64(double* __restrict__ x_out, const int mode_x_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_fwd0_block<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_out, r, res[r - r0], mode_x_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_fwd0_block<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(x_out, r, res[r - r0], mode_x_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_fwd0_block<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_fwd0_block<double>(x_out, mode_x_out, x_x, x_y, x_b, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(x_out, row, v, mode_x_out);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_fwd0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
extern "C" void tr_nn_gaussian_kernel_sum_fwd0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_fwd0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}

// tr_nn_gaussian_kernel_sum_jvp1: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp1_block(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_s, const T* __restrict__ d_b, const T* __restrict__ x_b, const T* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T s1_t[TR_TILE];
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    T acc1[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc1[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[k2 * n_j + q0]);
                }
            }
            T a0 = T(0);
            T a1 = T(0);
#pragma omp simd reduction(+:a0, a1)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                const T v3 = tr_exp(-s1_t[t]/x_s[0]);
                a0 += v3*tr_ld(d_b, q0);
                a1 += s1_t[t]*v3*x_b[q0];
            }
            acc0[row - r0] = acc0[row - r0] + a0;
            acc1[row - r0] = acc1[row - r0] + a1;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = acc0[row - r0] + tr_ld(d_s, 0) * (acc1[row - r0] / x_s[0] / x_s[0]);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_s, const float* __restrict__ d_b, const float* __restrict__ x_b, const float* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp1_block<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp1_block<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp1_block<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp1_block<float>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_s, const double* __restrict__ d_b, const double* __restrict__ x_b, const double* __restrict__ d_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp1_block<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp1_block<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp1_block<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp1_block<double>(d_out, mode_d_out, x_x, x_y, x_s, d_b, x_b, d_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp1_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (const float*)tr_p[6], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp1_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (const double*)tr_p[6], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}

// tr_nn_gaussian_kernel_sum_jvp2: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp2_block(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_y, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T s1_t[TR_TILE];
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q1 = k0 + t;
                    s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
                }
            }
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                a0 += (-x_x[i0 * n_d + q1] + x_y[q0 * n_d + q1])*x_b[q0]*tr_ld(d_y, q0 * n_d + q1)*tr_exp(-s1_t[t]/x_s[0]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = -T(2)/x_s[0] * acc0[row - r0];
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_y, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp2_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp2_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp2_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp2_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_y, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp2_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp2_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp2_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp2_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_y, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}

// tr_nn_gaussian_kernel_sum_jvp3: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_gaussian_kernel_sum_jvp3_block(T* __restrict__ d_out, const int mode_d_out, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ d_x, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T s1_t[TR_TILE];
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            const long long i0 = row;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q1 = k0 + t;
                    s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[q0 * n_d + k2]);
                }
            }
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                a0 += (x_x[i0 * n_d + q1] - x_y[q0 * n_d + q1])*x_b[q0]*tr_ld(d_x, i0 * n_d + q1)*tr_exp(-s1_t[t]/x_s[0]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        const long long i0 = row;
        res[row - r0] = -T(2)/x_s[0] * acc0[row - r0];
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f32(float* __restrict__ d_out, const int mode_d_out, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ d_x, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp3_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp3_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp3_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp3_block<float>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f64(double* __restrict__ d_out, const int mode_d_out, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ d_x, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp3_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_jvp3_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(d_out, r, res[r - r0], mode_d_out);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_jvp3_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_jvp3_block<double>(d_out, mode_d_out, x_x, x_y, x_b, d_x, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(d_out, row, v, mode_d_out);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp3_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
extern "C" void tr_nn_gaussian_kernel_sum_jvp3_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_jvp3_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}

// tr_nn_gaussian_kernel_sum_pb0: reduction over row groups: the rows of a group differ only in the last row index (the lane) and share
// the tiles' sums and the summand's lane-free parts; groups [g0, g1) (at most TR_RB) share each tile of the reduced
// tensors; lanes [l0, l1) at a time, at most TR_LANES
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb0_block(T* __restrict__ b_x, const int mode_b_x, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ x_s, const T* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane, const long long g0, const long long g1, const long long l0, const long long l1, T* __restrict__ res, T* __restrict__ res2) {
    T s1_t[TR_TILE];
    T acc0[TR_RB][TR_LANES] = {};
    for (long long ko = 0; ko < nko; ++ko) {
    for (long long k0 = 0; k0 < nki; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nki - k0);
        for (long long grp = g0; grp < g1; ++grp) {
            const long long i0 = grp;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    s1_t[t] += tr_sq(x_x[i0 * n_d + k2] - x_y[k2 * n_j + q0]);
                }
            }
            for (long long ln = l0; ln < l1; ++ln) {
                const long long i1 = ln;
                T a0 = T(0);
#pragma omp simd reduction(+:a0)
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    a0 += (x_x[i0 * n_d + i1] - x_y[i1 * n_j + q0])*x_b[q0]*tr_exp(-s1_t[t]/x_s[0]);
                }
                acc0[grp - g0][ln - l0] += a0;
            }
        }
    }
    }
    for (long long g = g0; g < g1; ++g) {
        const long long grp = g;
        const long long i0 = grp;
        for (long long ln = l0; ln < l1; ++ln) {
            const long long i1 = ln;
            res[(g - g0) * TR_LANES + (ln - l0)] = -T(2)*tr_ld(b_out, i0)/x_s[0] * acc0[g - g0][ln - l0];
        }
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f32(float* __restrict__ b_x, const int mode_b_x, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ x_s, const float* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane) {
    // nrows / nlane groups of nlane rows; with no lanes (nlane 0) nrows is the group count: each group still
    // computes its companion reduction (runtime/native.py)
    if (nrows <= 0) return;
    const long long ngrp = nlane > 0 ? nrows / nlane : nrows;
    const long long nlb = nlane > 0 ? tr_ceil(nlane, TR_LANES) : 1, ngb = tr_ceil(ngrp, TR_RB);
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (ngb * nlb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        float res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb0_block<float>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_x, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_x);
        }
    } else {
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        float res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb0_block<float>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_x, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_x);
        }
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f64(double* __restrict__ b_x, const int mode_b_x, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ x_s, const double* __restrict__ b_out, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane) {
    // nrows / nlane groups of nlane rows; with no lanes (nlane 0) nrows is the group count: each group still
    // computes its companion reduction (runtime/native.py)
    if (nrows <= 0) return;
    const long long ngrp = nlane > 0 ? nrows / nlane : nrows;
    const long long nlb = nlane > 0 ? tr_ceil(nlane, TR_LANES) : 1, ngb = tr_ceil(ngrp, TR_RB);
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (ngb * nlb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        double res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb0_block<double>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_x, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_x);
        }
    } else {
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        double res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb0_block<double>(b_x, mode_b_x, x_x, x_y, x_b, x_s, b_out, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_x, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_x);
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb0_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6], (long long)tr_n[7]);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb0_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb0_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6], (long long)tr_n[7]);
}

// tr_nn_gaussian_kernel_sum_pb1: reduction over row groups: the rows of a group differ only in the last row index (the lane) and share
// the tiles' sums and the summand's lane-free parts; groups [g0, g1) (at most TR_RB) share each tile of the reduced
// tensors; lanes [l0, l1) at a time, at most TR_LANES
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb1_block(T* __restrict__ b_y, const int mode_b_y, T* __restrict__ b_b, const int mode_b_b, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ b_out, const T* __restrict__ x_s, const T* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane, const long long g0, const long long g1, const long long l0, const long long l1, T* __restrict__ res, T* __restrict__ res2) {
    T s1_t[TR_TILE];
    T c3_t[TR_TILE];
    T acc0[TR_RB][TR_LANES] = {};
    T facc0[TR_RB] = {};
    for (long long ko = 0; ko < nko; ++ko) {
    for (long long k0 = 0; k0 < nki; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, nki - k0);
        for (long long grp = g0; grp < g1; ++grp) {
            const long long i0 = grp;
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    s1_t[t] += tr_sq(x_x[k2 * n_i + q0] - x_y[i0 * n_d + k2]);
                }
            }
            T f0 = T(0);
#pragma omp simd reduction(+:f0)
            for (long long t = 0; t < tn; ++t) {
                const long long q0 = k0 + t;
                c3_t[t] = tr_ld(b_out, q0)*tr_exp(-s1_t[t]/x_s[0]);
                f0 += c3_t[t];
            }
            facc0[grp - g0] += f0;
            for (long long ln = l0; ln < l1; ++ln) {
                const long long i1 = ln;
                T a0 = T(0);
#pragma omp simd reduction(+:a0)
                for (long long t = 0; t < tn; ++t) {
                    const long long q0 = k0 + t;
                    a0 += c3_t[t]*(-x_x[i1 * n_i + q0] + x_y[i0 * n_d + i1]);
                }
                acc0[grp - g0][ln - l0] += a0;
            }
        }
    }
    }
    for (long long g = g0; g < g1; ++g) {
        const long long grp = g;
        const long long i0 = grp;
        for (long long ln = l0; ln < l1; ++ln) {
            const long long i1 = ln;
            res[(g - g0) * TR_LANES + (ln - l0)] = -T(2)*x_b[i0]/x_s[0] * acc0[g - g0][ln - l0];
        }
        if (l0 == 0) {
            res2[g - g0] = facc0[g - g0];
        }
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f32(float* __restrict__ b_y, const int mode_b_y, float* __restrict__ b_b, const int mode_b_b, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ b_out, const float* __restrict__ x_s, const float* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane) {
    // nrows / nlane groups of nlane rows; with no lanes (nlane 0) nrows is the group count: each group still
    // computes its companion reduction (runtime/native.py)
    if (nrows <= 0) return;
    const long long ngrp = nlane > 0 ? nrows / nlane : nrows;
    const long long nlb = nlane > 0 ? tr_ceil(nlane, TR_LANES) : 1, ngb = tr_ceil(ngrp, TR_RB);
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (ngb * nlb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        float res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb1_block<float>(b_y, mode_b_y, b_b, mode_b_b, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_y, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_y);
        if (l0 == 0)        // the companion reduction (one value per group), from the first block of lanes
            for (long long g = g0; g < g1; ++g) tr_store(b_b, g, res2[g - g0], mode_b_b);
        }
    } else {
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        float res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb1_block<float>(b_y, mode_b_y, b_b, mode_b_b, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_y, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_y);
        if (l0 == 0)        // the companion reduction (one value per group), from the first block of lanes
            for (long long g = g0; g < g1; ++g) tr_store(b_b, g, res2[g - g0], mode_b_b);
        }
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f64(double* __restrict__ b_y, const int mode_b_y, double* __restrict__ b_b, const int mode_b_b, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ b_out, const double* __restrict__ x_s, const double* __restrict__ x_b, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long nlane) {
    // nrows / nlane groups of nlane rows; with no lanes (nlane 0) nrows is the group count: each group still
    // computes its companion reduction (runtime/native.py)
    if (nrows <= 0) return;
    const long long ngrp = nlane > 0 ? nrows / nlane : nrows;
    const long long nlb = nlane > 0 ? tr_ceil(nlane, TR_LANES) : 1, ngb = tr_ceil(ngrp, TR_RB);
    // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
    if (ngb * nlb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        double res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb1_block<double>(b_y, mode_b_y, b_b, mode_b_b, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_y, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_y);
        if (l0 == 0)        // the companion reduction (one value per group), from the first block of lanes
            for (long long g = g0; g < g1; ++g) tr_store(b_b, g, res2[g - g0], mode_b_b);
        }
    } else {
        for (long long w = 0; w < ngb * nlb; ++w) {
        const long long g0 = (w / nlb) * TR_RB, g1 = tr_min(ngrp, g0 + TR_RB);
        const long long l0 = (w % nlb) * TR_LANES, l1 = tr_min(nlane, l0 + TR_LANES);
        double res[TR_RB * TR_LANES], res2[TR_RB];
        tr_nn_gaussian_kernel_sum_pb1_block<double>(b_y, mode_b_y, b_b, mode_b_b, x_x, x_y, b_out, x_s, x_b, n_d, n_i, n_j, nrows, nko, nki, nlane, g0, g1, l0, l1, res, res2);
        for (long long g = g0; g < g1; ++g)
            for (long long ln = l0; ln < l1; ++ln)
                tr_store(b_y, g * nlane + ln, res[(g - g0) * TR_LANES + (ln - l0)], mode_b_y);
        if (l0 == 0)        // the companion reduction (one value per group), from the first block of lanes
            for (long long g = g0; g < g1; ++g) tr_store(b_b, g, res2[g - g0], mode_b_b);
        }
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb1_f32((float*)tr_p[0], (int)tr_n[0], (float*)tr_p[1], (int)tr_n[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (const float*)tr_p[6], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6], (long long)tr_n[7], (long long)tr_n[8]);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb1_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb1_f64((double*)tr_p[0], (int)tr_n[0], (double*)tr_p[1], (int)tr_n[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (const double*)tr_p[6], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6], (long long)tr_n[7], (long long)tr_n[8]);
}

// tr_nn_gaussian_kernel_sum_pb2: reduction of rows [r0, r1) (at most TR_RB, so a tile of the reduced tensors is read from
// cache by every row of the block); the last reduced index in the inner simd loop, a tile at a time, the others in
// the outer range [ob, oe)
template <typename T>
static void tr_nn_gaussian_kernel_sum_pb2_block(T* __restrict__ b_s, const int mode_b_s, const T* __restrict__ x_x, const T* __restrict__ x_y, const T* __restrict__ x_b, const T* __restrict__ b_out, const T* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki, const long long r0, const long long r1, const long long ob, const long long oe, const long long ib, const long long ie, T* __restrict__ res) {
    T s1_t[TR_TILE];
    T acc0[TR_RB];
    for (long long r = 0; r < TR_RB; ++r) acc0[r] = T(0);
    for (long long ko = ob; ko < oe; ++ko) {
        const long long q0 = ko;
    for (long long k0 = ib; k0 < ie; k0 += TR_TILE) {
        const long long tn = tr_min((long long)TR_TILE, ie - k0);
        for (long long row = r0; row < r1; ++row) {
            for (long long t = 0; t < tn; ++t) s1_t[t] = T(0);
            for (long long k2 = 0; k2 < n_d; ++k2) {
                #pragma omp simd
                for (long long t = 0; t < tn; ++t) {
                    const long long q1 = k0 + t;
                    s1_t[t] += tr_sq(x_x[q0 * n_d + k2] - x_y[k2 * n_j + q1]);
                }
            }
            T a0 = T(0);
#pragma omp simd reduction(+:a0)
            for (long long t = 0; t < tn; ++t) {
                const long long q1 = k0 + t;
                a0 += s1_t[t]*x_b[q1]*tr_ld(b_out, q0)*tr_exp(-s1_t[t]/x_s[0]);
            }
            acc0[row - r0] = acc0[row - r0] + a0;
        }
    }
    }
    for (long long row = r0; row < r1; ++row) {
        res[row - r0] = (acc0[row - r0] / x_s[0] / x_s[0]);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f32(float* __restrict__ b_s, const int mode_b_s, const float* __restrict__ x_x, const float* __restrict__ x_y, const float* __restrict__ x_b, const float* __restrict__ b_out, const float* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_pb2_block<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_s, r, res[r - r0], mode_b_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            float res[TR_RB];
            tr_nn_gaussian_kernel_sum_pb2_block<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_s, r, res[r - r0], mode_b_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<float> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_pb2_block<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_pb2_block<float>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        float v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_s, row, v, mode_b_s);
    }
}
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f64(double* __restrict__ b_s, const int mode_b_s, const double* __restrict__ x_x, const double* __restrict__ x_y, const double* __restrict__ x_b, const double* __restrict__ b_out, const double* __restrict__ x_s, const long long n_d, const long long n_i, const long long n_j, const long long nrows, const long long nko, const long long nki) {
    if (nrows >= 4 * omp_get_max_threads() || nko * nki < (1LL << 16)) {
        const long long nb = tr_ceil(nrows, TR_RB);
        // a small call runs no OpenMP region (starting one, even with a false `if` clause, costs more than its loop)
        if (nb > 1 && nrows * (nko * nki + 1) > 16384) {
#pragma omp parallel for schedule(dynamic, 1)
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_pb2_block<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_s, r, res[r - r0], mode_b_s);
            }
        } else {
            for (long long b = 0; b < nb; ++b) {
            const long long r0 = b * TR_RB, r1 = tr_min(nrows, r0 + TR_RB);
            double res[TR_RB];
            tr_nn_gaussian_kernel_sum_pb2_block<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, r0, r1, 0, nko, 0, nki, res);
            for (long long r = r0; r < r1; ++r) tr_store(b_s, r, res[r - r0], mode_b_s);
            }
        }
        return;
    }
    // few rows and a long reduction: each row's reduction split into chunks run in parallel, then combined
    const bool outer = nko >= 8 * omp_get_max_threads();
    const long long span = outer ? nko : nki;
    const long long per = outer ? tr_ceil(span, 8LL * omp_get_max_threads()) : TR_TILE * tr_ceil(tr_ceil(span, TR_TILE), 8LL * omp_get_max_threads());
    const long long nch = tr_ceil(span, per);
    std::vector<double> part(nch);
    for (long long row = 0; row < nrows; ++row) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long c = 0; c < nch; ++c) {
            const long long lo = c * per, hi = tr_min(span, lo + per);
            if (outer) tr_nn_gaussian_kernel_sum_pb2_block<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, lo, hi, 0, nki, &part[c]);
            else tr_nn_gaussian_kernel_sum_pb2_block<double>(b_s, mode_b_s, x_x, x_y, x_b, b_out, x_s, n_d, n_i, n_j, nrows, nko, nki, row, row + 1, 0, nko, lo, hi, &part[c]);
        }
        double v = part[0];
        for (long long c = 1; c < nch; ++c) v = v + part[c];
        tr_store(b_s, row, v, mode_b_s);
    }
}
// the same entry points with a uniform signature, for a caller that builds its argument lists at run time
// (runtime/torch_native.cpp): the pointers in order from tr_p, the integers (modes, extents, row counts) from tr_n
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f32_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb2_f32((float*)tr_p[0], (int)tr_n[0], (const float*)tr_p[1], (const float*)tr_p[2], (const float*)tr_p[3], (const float*)tr_p[4], (const float*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
extern "C" void tr_nn_gaussian_kernel_sum_pb2_f64_u(void* const* tr_p, const long long* tr_n) {
    tr_nn_gaussian_kernel_sum_pb2_f64((double*)tr_p[0], (int)tr_n[0], (const double*)tr_p[1], (const double*)tr_p[2], (const double*)tr_p[3], (const double*)tr_p[4], (const double*)tr_p[5], (long long)tr_n[1], (long long)tr_n[2], (long long)tr_n[3], (long long)tr_n[4], (long long)tr_n[5], (long long)tr_n[6]);
}
