// ---- erfinv for the native CPU kernels (tr_erfinv, templates/cpu_helpers.h.j2) and for the CPU emulation of
// CUDA's erfinv (tests/codegen/cuda_emu.h): the one implementation of primitives/elementwise.py's erfinv in C++.
// Giles' single-precision approximation ("Approximating the erfinv function", GPU Computing Gems Jade, 2011), then
// Halley steps on f(x) = erf(x) - |y|, written as (1 - |y|) - erfc(x) past |y| = 0.5, where 1 - |y| is exact and
// erf(x) - |y| would cancel. Where the approximation holds (1 - |y| >= 6e-8, float's range) one step triples its
// ~24 correct bits, so doubles come out to rounding (as far as libm's erf/erfc are). Closer to 1 (doubles only) it
// is extrapolated; Newton steps on log erfc(x) = log(1 - |y|), nearly quadratic in x, converge from there (a step
// on erfc itself overshoots: erfc falls faster than exponentially). erfinv(±1) = ±inf; |y| > 1 and NaN give NaN.
template <typename T> static inline T tr_erfinv(T y) {
    const T a = fabs(y);
    if (!(a < T(1))) return a == T(1) ? copysign(T(INFINITY), y) : T(NAN);
    T w = -log((T(1) - a) * (T(1) + a)), p;
    const bool far = w >= T(16.5);
    if (w < T(5)) {
        w = w - T(2.5);
        p = T(2.81022636e-08);
        p = T(3.43273939e-07) + p * w;
        p = T(-3.5233877e-06) + p * w;
        p = T(-4.39150654e-06) + p * w;
        p = T(0.00021858087) + p * w;
        p = T(-0.00125372503) + p * w;
        p = T(-0.00417768164) + p * w;
        p = T(0.246640727) + p * w;
        p = T(1.50140941) + p * w;
    } else {
        w = sqrt(w) - T(3);
        p = T(-0.000200214257);
        p = T(0.000100950558) + p * w;
        p = T(0.00134934322) + p * w;
        p = T(-0.00367342844) + p * w;
        p = T(0.00573950773) + p * w;
        p = T(-0.0076224613) + p * w;
        p = T(0.00943887047) + p * w;
        p = T(1.00167406) + p * w;
        p = T(2.83297682) + p * w;
    }
    T x = p * a;
    if (far) {
        const T lq = log(T(1) - a);
        for (int k = 0; k < 6; ++k) {
            const T c = erfc(x);
            x = x + (log(c) - lq) * c / (T(1.1283791670955126) * exp(-x * x));
        }
    }
    // Halley: x -= r / (1 + x·r), r = f / f', f' = (2/√π)·exp(-x²) (f''/f' = -2x)
    const T f = a <= T(0.5) ? erf(x) - a : (T(1) - a) - erfc(x);
    const T r = f * T(0.88622692545275801) * exp(x * x);
    x = x - r / (T(1) + x * r);
    return copysign(x, y);
}
