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
