// Native helpers for runtime/contract.py and runtime/shifts.py.
//
// Pairwise contractions without the im2col copy (runtime/contract.py): one operand is read where it lies, through
// tables of element offsets, so a strided window (x[c,h+p,w+q]) is multiplied without being copied into a matrix.
//
// Two register-tiled shapes, chosen by which axis of the large operand B has unit stride:
//   free:    out[b,m,n,v] = sum_k S[b,k,m] * B[bb[b] + bn[n] + bk[k] + v]           (v: a kept axis, vectorised)
//   reduced: out[b,m,n]   = sum_k sum_u A[b,m,k,u] * B[bb[b] + bn[n] + bk[k] + u]    (u: a summed axis, vectorised)
// S and A are the small operand, packed by the caller (contiguous, in the order shown). Reads of B never go past
// `hi` (one past its last element): a vector that would is gathered into a zero-filled buffer instead. Lanes past
// the end of v are computed and dropped; lanes past the end of u are zeroed before they are multiplied (they may
// hold NaN). Floating point: one fused multiply-add per product, as BLAS does.
#pragma GCC optimize("fp-contract=fast")
#include <cstring>
#include <cstdint>

typedef long long i64;

#if defined(__AVX512F__)
#define TR_VBYTES 64
#define TR_MB 8
#else
#define TR_VBYTES 32
#define TR_MB 4
#endif

template <typename T> struct Vec;
template <> struct Vec<float> {
    typedef float t __attribute__((vector_size(TR_VBYTES)));
    typedef int32_t i __attribute__((vector_size(TR_VBYTES)));
    static const int L = TR_VBYTES / 4;
};
template <> struct Vec<double> {
    typedef double t __attribute__((vector_size(TR_VBYTES)));
    typedef int64_t i __attribute__((vector_size(TR_VBYTES)));
    static const int L = TR_VBYTES / 8;
};

// L consecutive elements from p as a vector, never reading at or past hi (the rest zero)
template <typename T>
__attribute__((noinline)) static typename Vec<T>::t load_edge(const T *p, const T *hi) {
    typename Vec<T>::t v{};
    T buf[Vec<T>::L] = {};
    i64 n = hi - p;
    if (n > Vec<T>::L) n = Vec<T>::L;
    if (n > 0) memcpy(buf, p, sizeof(T) * n);
    memcpy(&v, buf, sizeof v);
    return v;
}

// a vector at p: a plain load where the caller knows every lane is inside the array (Safe), else load_edge
template <typename T, bool Safe>
static inline typename Vec<T>::t load(const T *p, const T *hi) {
    typename Vec<T>::t v;
    if (Safe) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    return load_edge<T>(p, hi);
}

// ---------------------------------------------------------------------------------------------------- free
template <typename T, int MB, int NV, bool Safe>
static void free_chunk(const T *sp, i64 M, i64 m0, const T *Bp, const i64 *bk, i64 K, i64 V, i64 v0, const T *hi,
                       T *o, i64 ostride) {
    typedef typename Vec<T>::t VT;
    const int L = Vec<T>::L;
    {
        VT acc[MB][NV];
        for (int r = 0; r < MB; ++r)
            for (int j = 0; j < NV; ++j) acc[r][j] = VT{};
        for (i64 k = 0; k < K; ++k) {
            VT u[NV];
            for (int j = 0; j < NV; ++j) u[j] = load<T, Safe>(Bp + bk[k] + v0 + j * L, hi);
            const T *c = sp + k * M + m0;
            for (int r = 0; r < MB; ++r)
                for (int j = 0; j < NV; ++j) acc[r][j] += c[r] * u[j];
        }
        i64 n = V - v0 < NV * L ? V - v0 : NV * L;
        for (int r = 0; r < MB; ++r) {
            T buf[NV * L];
            for (int j = 0; j < NV; ++j) {
                VT a = acc[r][j];                 // a copy: taking acc's address would keep it in memory
                memcpy(buf + j * L, &a, sizeof a);
            }
            memcpy(o + (m0 + r) * ostride + v0, buf, sizeof(T) * n);
        }
    }
}

// every v chunk of MB rows; a chunk whose furthest read (the largest k offset) stays inside the array runs without
// edge checks (a call in the loop would make the compiler keep the accumulators in memory)
template <typename T, int MB, int NV>
static void free_tile(const T *sp, i64 M, i64 m0, const T *Bp, const i64 *bk, i64 bkmax, i64 K, i64 V, const T *hi,
                      T *o, i64 ostride) {
    for (i64 v0 = 0; v0 < V; v0 += NV * Vec<T>::L) {
        if (Bp + bkmax + v0 + NV * Vec<T>::L <= hi)
            free_chunk<T, MB, NV, true>(sp, M, m0, Bp, bk, K, V, v0, hi, o, ostride);
        else
            free_chunk<T, MB, NV, false>(sp, M, m0, Bp, bk, K, V, v0, hi, o, ostride);
    }
}

template <typename T, int NV>
static void free_rows(const T *sp, i64 M, const T *Bp, const i64 *bk, i64 bkmax, i64 K, i64 V, const T *hi, T *o,
                      i64 ostride) {
    i64 m0 = 0;
    for (; m0 + TR_MB <= M; m0 += TR_MB) free_tile<T, TR_MB, NV>(sp, M, m0, Bp, bk, bkmax, K, V, hi, o, ostride);
    switch (M - m0) {
#define TR_CASE(r) case r: free_tile<T, r, NV>(sp, M, m0, Bp, bk, bkmax, K, V, hi, o, ostride); break;
        TR_CASE(1) TR_CASE(2) TR_CASE(3)
#if TR_MB > 4
        TR_CASE(4) TR_CASE(5) TR_CASE(6) TR_CASE(7)
#endif
#undef TR_CASE
        default: break;
    }
}

template <typename T>
static void contract_free(const T *S, const T *B, const T *hi, const i64 *bb, const i64 *bn, const i64 *bk, i64 nb,
                          i64 M, i64 N, i64 K, i64 V, T *out) {
    const int L = Vec<T>::L;
    i64 bkmax = bk[0];
    for (i64 k = 1; k < K; ++k) bkmax = bk[k] > bkmax ? bk[k] : bkmax;
#pragma omp parallel for schedule(static)
    for (i64 t = 0; t < nb * N; ++t) {
        i64 b = t / N, n = t % N;
        const T *sp = S + b * K * M;
        const T *Bp = B + bb[b] + bn[n];
        T *o = out + (b * M * N + n) * V;          // out[b, m, n, v]: rows m are N*V apart
        if (V <= L) free_rows<T, 1>(sp, M, Bp, bk, bkmax, K, V, hi, o, N * V);
        else free_rows<T, 2>(sp, M, Bp, bk, bkmax, K, V, hi, o, N * V);
    }
}

// ------------------------------------------------------------------------------------------------- reduced
template <typename T, int MB, int NB, bool Safe>
static void reduced_tile(const T *A, i64 K, i64 U, const T *ahi, const T *Bb, const i64 *bn, const i64 *bk,
                         const T *bhi, i64 m0, i64 n0, i64 N, T *o) {
    typedef typename Vec<T>::t VT;
    typedef typename Vec<T>::i VI;
    const int L = Vec<T>::L;
    VI lane, lim;
    for (int j = 0; j < L; ++j) lane[j] = j;
    for (int j = 0; j < L; ++j) lim[j] = U % L;
    const VI keep = lane < lim;                // the lanes of the last u chunk inside u
    VT acc[MB][NB];
    for (int r = 0; r < MB; ++r)
        for (int s = 0; s < NB; ++s) acc[r][s] = VT{};
    for (i64 k = 0; k < K; ++k) {
        for (i64 u0 = 0; u0 < U; u0 += L) {
            VT a[MB], b[NB];
            for (int r = 0; r < MB; ++r) a[r] = load<T, Safe>(A + ((m0 + r) * K + k) * U + u0, ahi);
            for (int s = 0; s < NB; ++s) b[s] = load<T, Safe>(Bb + bn[n0 + s] + bk[k] + u0, bhi);
            if (U - u0 < L) {                      // lanes past u: zero both factors (garbage may be NaN)
                for (int r = 0; r < MB; ++r) a[r] = (VT)((VI)a[r] & keep);
                for (int s = 0; s < NB; ++s) b[s] = (VT)((VI)b[s] & keep);
            }
            for (int r = 0; r < MB; ++r)
                for (int s = 0; s < NB; ++s) acc[r][s] += a[r] * b[s];
        }
    }
    for (int r = 0; r < MB; ++r)
        for (int s = 0; s < NB; ++s) {
            VT a = acc[r][s];
            T sum = 0;
            for (int j = 0; j < L; ++j) sum += a[j];
            o[(m0 + r) * N + n0 + s] = sum;
        }
}

template <typename T, int MB, int NB>
static void reduced_pick(const T *A, i64 K, i64 U, const T *ahi, const T *Bb, const i64 *bn, const i64 *bk,
                         i64 bkmax, const T *bhi, i64 m0, i64 n0, i64 N, T *o) {
    const i64 Uc = (U + Vec<T>::L - 1) / Vec<T>::L * Vec<T>::L;
    bool safe = A + ((m0 + MB - 1) * K + K - 1) * U + Uc <= ahi;
    for (int s = 0; s < NB; ++s) safe = safe && Bb + bn[n0 + s] + bkmax + Uc <= bhi;
    if (safe) reduced_tile<T, MB, NB, true>(A, K, U, ahi, Bb, bn, bk, bhi, m0, n0, N, o);
    else reduced_tile<T, MB, NB, false>(A, K, U, ahi, Bb, bn, bk, bhi, m0, n0, N, o);
}

template <typename T, int MB>
static void reduced_ntiles(const T *A, i64 K, i64 U, const T *ahi, const T *Bb, const i64 *bn, const i64 *bk,
                           i64 bkmax, const T *bhi, i64 m0, i64 n0, i64 nn, i64 N, T *o) {
    switch (nn) {
        case 4: reduced_pick<T, MB, 4>(A, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, N, o); break;
        case 3: reduced_pick<T, MB, 3>(A, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, N, o); break;
        case 2: reduced_pick<T, MB, 2>(A, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, N, o); break;
        default: reduced_pick<T, MB, 1>(A, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, N, o); break;
    }
}

template <typename T>
static void contract_reduced(const T *A, const T *ahi, const T *B, const T *bhi, const i64 *bb, const i64 *bn,
                             const i64 *bk, i64 nb, i64 M, i64 N, i64 K, i64 U, T *out) {
    i64 mt = (M + 3) / 4, nt = (N + 3) / 4;
    i64 bkmax = bk[0];
    for (i64 k = 1; k < K; ++k) bkmax = bk[k] > bkmax ? bk[k] : bkmax;
#pragma omp parallel for schedule(static)
    for (i64 t = 0; t < nb * mt * nt; ++t) {
        i64 b = t / (mt * nt), m0 = (t / nt) % mt * 4, n0 = t % nt * 4;
        i64 mm = M - m0 < 4 ? M - m0 : 4, nn = N - n0 < 4 ? N - n0 : 4;
        const T *Ab = A + b * M * K * U;
        const T *Bb = B + bb[b];
        T *o = out + b * M * N;
        switch (mm) {
            case 4: reduced_ntiles<T, 4>(Ab, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, nn, N, o); break;
            case 3: reduced_ntiles<T, 3>(Ab, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, nn, N, o); break;
            case 2: reduced_ntiles<T, 2>(Ab, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, nn, N, o); break;
            default: reduced_ntiles<T, 1>(Ab, K, U, ahi, Bb, bn, bk, bkmax, bhi, m0, n0, nn, N, o); break;
        }
    }
}


// ----------------------------------------------------------------------------------------- strided accumulate
// out += g over two strided views of one shape (element strides; the last axis is the inner loop), for the
// per-tap adds of a shifted scatter (runtime/shifts.py): NumPy's add spends most of its time per inner row there.
template <typename T>
static void add_views(T *out, const T *g, int nd, const i64 *shape, const i64 *so, const i64 *sg) {
    i64 rows = 1;
    for (int d = 0; d < nd - 1; ++d) rows *= shape[d];
    const i64 n = shape[nd - 1], io = so[nd - 1], ig = sg[nd - 1];
    i64 idx[32] = {0};
    i64 oo = 0, og = 0;
    for (i64 r = 0; r < rows; ++r) {
        T *o = out + oo;
        const T *a = g + og;
        if (io == 1 && ig == 1) {
#pragma omp simd
            for (i64 i = 0; i < n; ++i) o[i] += a[i];
        } else {
            for (i64 i = 0; i < n; ++i) o[i * io] += a[i * ig];
        }
        for (int d = nd - 2; d >= 0; --d) {          // the next row: an odometer over the outer axes
            oo += so[d];
            og += sg[d];
            if (++idx[d] < shape[d]) break;
            oo -= so[d] * shape[d];
            og -= sg[d] * shape[d];
            idx[d] = 0;
        }
    }
}

#define TR_EXPORT(T, s)                                                                                           \
    extern "C" void tr_contract_free_##s(const T *S, const T *B, const T *hi, const i64 *bb, const i64 *bn,       \
                                         const i64 *bk, i64 nb, i64 M, i64 N, i64 K, i64 V, T *out) {             \
        contract_free<T>(S, B, hi, bb, bn, bk, nb, M, N, K, V, out);                                              \
    }                                                                                                             \
    extern "C" void tr_contract_reduced_##s(const T *A, const T *ahi, const T *B, const T *bhi, const i64 *bb,    \
                                            const i64 *bn, const i64 *bk, i64 nb, i64 M, i64 N, i64 K, i64 U,     \
                                            T *out) {                                                             \
        contract_reduced<T>(A, ahi, B, bhi, bb, bn, bk, nb, M, N, K, U, out);                                     \
    }                                                                                                             \
    extern "C" void tr_add_views_##s(T *out, const T *g, int nd, const i64 *shape, const i64 *so, const i64 *sg) { \
        add_views<T>(out, g, nd, shape, so, sg);                                                                  \
    }
TR_EXPORT(float, f32)
TR_EXPORT(double, f64)
