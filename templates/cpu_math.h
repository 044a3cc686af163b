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
