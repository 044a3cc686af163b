// The derived ops' native CPU plans run on torch tensors from C++ (runtime/torch_native.py builds this file as a
// Python extension and registers each op's plan with it).
//
// A plan (generated/cpu/<module>.json) is the CUDA launch plan with CPU steps: map and reduce steps call the
// generated kernels (generated/cpu/<module>.cpp, compiled by runtime/native.py; called here through their uniform
// `_u` entry points), a contraction is one BLAS call (the BLAS torch links; ATen's bmm where an operand's axes are
// not a matrix). This file is that plan's runner (runtime/cuda.py Runner + runtime/native.py CpuRunner, the same
// semantics step for step) with an autograd node of its own, as ATen's ops record theirs: forward runs the rrule
// program and saves what it says, backward runs the pullback program for the inputs that need a gradient. The
// point is the cost per call: a small op is one Python call into C++, a few loops and one node, where the op's
// Python code would call torch once per step.
//
// `call(op, *args)` answers None whenever the call is not one it runs exactly as the op's Python code would (not
// every argument a dense CPU float32/float64 tensor of one dtype with exactly its rule's axes and extents, a
// torch.func transform or a dispatch or torch-function mode active, forward-mode dual tensors, the JIT tracing);
// runtime.torch then runs the Python code, which also gives every error its message.
#include <torch/extension.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/jit/frontend/tracer.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/SavedTensorHooks.h>
#include <ATen/TensorSubclassLikeUtils.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;
using torch::autograd::variable_list;

namespace {

using Kernel = void (*)(void* const*, const long long*);
// what the runner passes and binds, read by runtime/torch_native.py (an op past them is not registered): a kernel's
// pointers and numbers (a reduction adds 4 extents to the numbers), the index classes of an op
constexpr int MAX_POINTERS = 64, MAX_NUMBERS = 60, MAX_CLASSES = 64;
enum { MAP = 0, REDUCE = 1, GEMM = 2 };
enum { P_BUF = 0, P_MODE = 1, P_EXT = 2 };
enum { K_TENSOR = 0, K_SCALAR = 1 };

struct Out {
    int buf;
    bool always;              // no atoms: computed whatever is zero
    std::vector<int> atoms;   // computed when one of these buffers is present (nonzero)
};

struct GemmDim {
    int cls, pa, pb, pc;      // positions in a, b, c; -1 where absent
};

struct Step {
    int cls = MAP;
    Kernel k32 = nullptr, k64 = nullptr;
    std::vector<std::pair<int, int>> params;          // (P_BUF, buffer) / (P_MODE, buffer) / (P_EXT, class)
    std::vector<Out> outputs;
    std::vector<int> space, rows, red, reads;
    int lane = -1;
    std::vector<int> moved;                            // per buffer: axis read moved last, or -1
    std::vector<char> written;                         // per buffer: a parameter the kernel writes
    std::vector<std::vector<int>> read_classes, write_classes;   // per buffer (empty where not named)
    // contraction: C[c] (+)= alpha * A[a] B[b]
    int a = -1, b = -1, alpha_buf = -1;
    double alpha = 1.0;
    std::vector<int> a_classes, b_classes, c_classes;
    std::vector<GemmDim> groups[4];                    // m, n, k, z
};

struct Program {
    std::vector<int> args, results, saves;
    std::vector<std::vector<int>> classes;             // per buffer the program creates (else empty)
    std::vector<char> scratch;                         // per buffer: created, neither returned nor saved
    std::vector<Step> steps;
};

struct Reach {
    int axis;                                          // the input axis's class
    std::vector<std::pair<long long, int>> terms;     // (coefficient, class)
    long long constant;
};

struct Op {
    std::string name;
    int n_bufs = 0, n_classes = 0;
    bool elementwise = false;
    int flat_class = -1;                               // an elementwise op's: the class of its tensors' elements
    std::vector<int> in_kind, in_buf;
    std::vector<std::vector<int>> in_classes;
    std::vector<std::pair<int, long long>> fixed;      // (class, extent) declared in the rule's header
    std::vector<std::pair<int, std::vector<Reach>>> derived;   // classes read only at shifted positions
    std::vector<Reach> checks;
    std::vector<int> out_buf, dout_buf, din_buf;        // y, b:y (pullback arguments), b:x (-1: never written)
    Program forward, rrule, pullback;
    py::object pull;                                   // Python: the pullback over torch ops (create_graph)
};

// never destroyed: an Op holds a Python object, which must not be released after the interpreter has finalized
std::vector<std::unique_ptr<Op>>& g_ops = *new std::vector<std::unique_ptr<Op>>();
PyObject* g_parameter = nullptr;                       // torch.nn.Parameter
std::atomic<long long> g_counts[3];                    // kernel calls (maps, reductions) and contractions run

// ------------------------------------------------------------------------------------------ the plan's runner
// BLAS (Fortran interface) as torch links it, when it does (runtime/torch_native.py finds the symbols); else a
// contraction runs through ATen
using Sgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*);
using Dgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*);
Sgemm g_sgemm = nullptr;
Dgemm g_dgemm = nullptr;

// Scratch for the buffers a program neither returns nor saves (a log-sum-exp's max, a moved copy, zeros standing for
// an absent tangent): a per-thread stack, each run popping what it pushed, so a small op allocates no tensor for
// them. A buffer that does not fit is an ordinary tensor.
struct Arena {
    static constexpr size_t CAP = 1 << 20;
    std::unique_ptr<char[]> mem;
    size_t top = 0;
    void* take(size_t bytes) {
        if (!mem) mem.reset(new char[CAP]);
        size_t at = (top + 63) & ~size_t(63);
        if (at + bytes > CAP) return nullptr;
        top = at + bytes;
        return mem.get() + at;
    }
};
thread_local Arena t_arena;

struct Buf {
    at::Tensor t;            // defined where the buffer is a tensor (inputs, results, saved, large scratch)
    void* p = nullptr;       // its data; null: absent (a zero (co)tangent)
};

// a tensor's data as a buffer's pointer: a tensor with no elements has none (data_ptr() is null), yet it is
// present (an input, a cotangent, a result of extent 0), so it points at a byte no kernel reads
alignas(64) char g_no_elements[64];
void* data_of(const at::Tensor& t) {
    void* p = t.data_ptr();
    return p ? p : g_no_elements;
}

struct Run {
    const Op& op;
    const Program& prog;
    const long long* sizes;
    at::ScalarType dtype;
    size_t item;
    std::vector<Buf>& bufs;
    std::vector<char> init;  // holds a value to accumulate into
    size_t arena_top;
    std::vector<at::Tensor> keep;   // tensors passed by pointer that nothing else holds
    at::IntArrayRef flat_shape;     // an elementwise op's: the shape its tensors of op.flat_class take

    Run(const Op& o, const Program& p, const long long* s, at::ScalarType dt, std::vector<Buf>& b)
        : op(o), prog(p), sizes(s), dtype(dt), item(dt == at::kFloat ? 4 : 8), bufs(b), init(b.size(), 0),
          arena_top(t_arena.top) {
        for (size_t i = 0; i < b.size(); ++i) init[i] = b[i].p != nullptr;
    }
    ~Run() { t_arena.top = arena_top; }

    long long size(const std::vector<int>& classes) const {
        long long n = 1;
        for (int c : classes) n *= sizes[c];
        return n;
    }
    std::vector<int64_t> shape(const std::vector<int>& classes) const {
        std::vector<int64_t> s;
        s.reserve(classes.size());
        for (int c : classes) s.push_back(sizes[c]);
        return s;
    }
    // n elements of scratch, from the arena when they fit
    void* scratch(long long n) {
        void* p = t_arena.take(std::max(1LL, n) * item);
        if (p) return p;
        keep.push_back(at::empty({std::max(1LL, n)}, at::TensorOptions().dtype(dtype)));
        return keep.back().data_ptr();
    }
    // a buffer's tensor (a view of scratch memory where it has none; valid during the run)
    at::Tensor tensor(int id, const std::vector<int>& classes) {
        if (bufs[id].t.defined()) return bufs[id].t;
        return at::from_blob(bufs[id].p, shape(classes), at::TensorOptions().dtype(dtype));
    }

    // {buffer: mode} for the outputs this step computes; a zero one (none of its atoms present) is skipped
    void outputs(const Step& st, std::vector<std::pair<int, int>>& live) {
        live.clear();
        for (const Out& o : st.outputs) {
            if (!o.always) {
                bool any = false;
                for (int a : o.atoms) any = any || bufs[a].p != nullptr;
                if (!any) continue;
            }
            Buf& b = bufs[o.buf];
            if (!b.p) {
                const auto& cls = prog.classes[o.buf];
                if (prog.scratch[o.buf]) {
                    b.p = scratch(size(cls));
                } else if (op.elementwise && cls.size() == 1 && cls[0] == op.flat_class) {
                    // its own tensor of the arguments' shape: a view of a flat one would be a view of a base
                    // autograd does not know (an in-place op on the result then fails)
                    b.t = at::empty(flat_shape, at::TensorOptions().dtype(dtype));
                    b.p = data_of(b.t);
                } else {
                    b.t = at::empty(shape(cls), at::TensorOptions().dtype(dtype));
                    b.p = data_of(b.t);
                }
            }
            live.emplace_back(o.buf, init[o.buf] ? 1 : 0);
        }
    }

    static int mode_of(const std::vector<std::pair<int, int>>& live, int buf) {
        for (auto& [b, m] : live)
            if (b == buf) return m;
        return -1;
    }

    // a copy of buffer id (read as `classes`) with axis `axis` moved last
    void* moved_copy(int id, const std::vector<int>& classes, int axis) {
        long long n = size(classes);
        void* out = scratch(n);
        if (n == 0) return out;
        long long inner = 1, mid = sizes[classes[axis]], outer = 1;
        for (size_t a = axis + 1; a < classes.size(); ++a) inner *= sizes[classes[a]];
        for (int a = 0; a < axis; ++a) outer *= sizes[classes[a]];
        auto move = [&](auto* dst, const auto* src) {
            // src[o, m, i] -> dst[o, i, m], a 32 x 32 tile at a time (one whole row at a time strides the writes by
            // mid elements, which for a power of two thrashes a few cache sets: 1 ms for 256 x 512 floats)
            constexpr long long B = 32;
            for (long long o = 0; o < outer; ++o)
                for (long long m0 = 0; m0 < mid; m0 += B)
                    for (long long i0 = 0; i0 < inner; i0 += B) {
                        const long long m1 = std::min(mid, m0 + B), i1 = std::min(inner, i0 + B);
                        for (long long i = i0; i < i1; ++i)
                            for (long long m = m0; m < m1; ++m)
                                dst[(o * inner + i) * mid + m] = src[(o * mid + m) * inner + i];
                    }
        };
        if (dtype == at::kFloat) move((float*)out, (const float*)bufs[id].p);
        else move((double*)out, (const double*)bufs[id].p);
        return out;
    }

    void call(const Step& st, const std::vector<std::pair<int, int>>& live, const long long* extra, int n_extra) {
        void* ptrs[MAX_POINTERS];
        long long ns[MAX_NUMBERS + 4];
        int np = 0, nn = 0;
        for (auto [kind, id] : st.params) {
            if (np >= MAX_POINTERS || nn >= MAX_NUMBERS)      // (register refuses such ops: never reached)
                throw std::runtime_error("tensor-rules: a kernel with more parameters than the runner passes");
            if (kind == P_MODE) {
                ns[nn++] = std::max(0, mode_of(live, id));
            } else if (kind == P_EXT) {
                ns[nn++] = sizes[id];
            } else if (st.written[id]) {
                // an output nobody reads: scratch (the kernels test no pointer)
                ptrs[np++] = mode_of(live, id) >= 0 ? bufs[id].p : scratch(size(st.write_classes[id]));
            } else if (!bufs[id].p) {       // a zero (co)tangent read: zeros
                long long n = std::max(1LL, size(st.read_classes[id]));
                void* z = scratch(n);
                std::memset(z, 0, n * item);
                ptrs[np++] = z;
            } else if (st.moved[id] >= 0) { // read along an axis that is not its last: that axis moved last
                ptrs[np++] = moved_copy(id, st.read_classes[id], st.moved[id]);
            } else {
                ptrs[np++] = bufs[id].p;
            }
        }
        for (int i = 0; i < n_extra; ++i) ns[nn++] = extra[i];
        (dtype == at::kFloat ? st.k32 : st.k64)(ptrs, ns);
        g_counts[st.cls].fetch_add(1, std::memory_order_relaxed);
    }

    void map(const Step& st, std::vector<std::pair<int, int>>& live) {
        outputs(st, live);
        if (live.empty()) return;
        if (size(st.space)) call(st, live, nullptr, 0);
        for (auto& [b, m] : live) init[b] = 1;
    }

    void reduce(const Step& st, std::vector<std::pair<int, int>>& live) {
        outputs(st, live);
        if (live.empty()) return;
        long long nrows = size(st.rows), nk = size(st.red);
        if (st.lane >= 0 && !sizes[st.lane] && st.outputs.size() > 1) {
            // a lane kernel with no lanes still computes its companion reduction, one value per group
            std::vector<int> groups(st.rows.begin(), st.rows.end() - 1);
            nrows = size(groups);
        }
        if (nrows) {
            long long nki = st.red.empty() ? 1 : sizes[st.red.back()];
            long long nko = nki ? nk / nki : 0;
            long long extra[4] = {nrows, nko, nki, st.lane >= 0 ? sizes[st.lane] : 0};
            call(st, live, extra, st.lane >= 0 ? 4 : 3);
        }
        for (auto& [b, m] : live) init[b] = 1;
    }

    // how an operand's axes hold the matrix (rows group r, columns group c) after `lead` batch axes: 0 row-major
    // (r's axes, then c's, each in order), 1 transposed (c's, then r's), -1 neither
    static int layout(const std::vector<GemmDim>& r, const std::vector<GemmDim>& c, int role, int lead) {
        auto pos = [&](const GemmDim& d) { return role == 0 ? d.pa : role == 1 ? d.pb : d.pc; };
        auto in_order = [&](const std::vector<GemmDim>& first, const std::vector<GemmDim>& second) {
            int want = lead;
            for (const auto* g : {&first, &second})
                for (const GemmDim& d : *g)
                    if (pos(d) != want++) return false;
            return true;
        };
        return in_order(r, c) ? 0 : in_order(c, r) ? 1 : -1;
    }

    bool gemm_blas(const Step& st, int buf, bool acc, double alpha) {
        if (!(dtype == at::kFloat ? (void*)g_sgemm : (void*)g_dgemm)) return false;
        const auto &gm = st.groups[0], &gn = st.groups[1], &gk = st.groups[2], &gz = st.groups[3];
        int lead = gz.size();
        for (int i = 0; i < lead; ++i)      // batch axes first, in order, in all three
            if (gz[i].pa != i || gz[i].pb != i || gz[i].pc != i) return false;
        int la = layout(gm, gk, 0, lead), lb = layout(gk, gn, 1, lead), lc = layout(gm, gn, 2, lead);
        if (la < 0 || lb < 0 || lc < 0) return false;
        long long M = size_of(gm), N = size_of(gn), K = size_of(gk), Z = size_of(gz);
        const long long lim = 1LL << 30;
        if (M >= lim || N >= lim || K >= lim) return false;
        if (Z == 0 || M == 0 || N == 0) return true;
        int m = M, n = N, k = K;
        // column-major BLAS over row-major memory: C row-major is Cᵀ = Bᵀ Aᵀ; C transposed is C = A B
        char ta, tb;
        int lda = std::max(1, la == 0 ? k : m), ldb = std::max(1, lb == 0 ? n : k);
        bool swap = lc == 0;
        if (swap) {
            ta = la == 0 ? 'N' : 'T';
            tb = lb == 0 ? 'N' : 'T';
        } else {
            ta = la == 0 ? 'T' : 'N';
            tb = lb == 0 ? 'T' : 'N';
        }
        int ldc = std::max(1, swap ? n : m);
        char* A = (char*)bufs[st.a].p;
        char* B = (char*)bufs[st.b].p;
        char* C = (char*)bufs[buf].p;
        for (long long z = 0; z < Z; ++z) {
            const char* Az = A + z * M * K * item;
            const char* Bz = B + z * K * N * item;
            char* Cz = C + z * M * N * item;
            if (dtype == at::kFloat) {
                float al = alpha, be = acc ? 1.f : 0.f;
                if (swap) g_sgemm(&tb, &ta, &n, &m, &k, &al, (const float*)Bz, &ldb, (const float*)Az, &lda, &be, (float*)Cz, &ldc);
                else g_sgemm(&ta, &tb, &m, &n, &k, &al, (const float*)Az, &lda, (const float*)Bz, &ldb, &be, (float*)Cz, &ldc);
            } else {
                double al = alpha, be = acc ? 1.0 : 0.0;
                if (swap) g_dgemm(&tb, &ta, &n, &m, &k, &al, (const double*)Bz, &ldb, (const double*)Az, &lda, &be, (double*)Cz, &ldc);
                else g_dgemm(&ta, &tb, &m, &n, &k, &al, (const double*)Az, &lda, (const double*)Bz, &ldb, &be, (double*)Cz, &ldc);
            }
        }
        return true;
    }

    long long size_of(const std::vector<GemmDim>& g) const {
        long long n = 1;
        for (const GemmDim& d : g) n *= sizes[d.cls];
        return n;
    }

    void gemm(const Step& st, std::vector<std::pair<int, int>>& live) {
        outputs(st, live);
        if (live.empty()) return;
        int buf = live[0].first;
        bool acc = live[0].second != 0;
        double alpha = st.alpha;
        if (st.alpha_buf >= 0)
            alpha *= dtype == at::kFloat ? *(const float*)bufs[st.alpha_buf].p : *(const double*)bufs[st.alpha_buf].p;
        init[buf] = 1;
        g_counts[GEMM].fetch_add(1, std::memory_order_relaxed);
        if (gemm_blas(st, buf, acc, alpha)) return;
        // through ATen: A as (Z, M, K), B as (Z, K, N), their axes permuted into group order, then merged
        auto arrange = [&](int id, const std::vector<int>& classes, int role, std::initializer_list<int> order) {
            std::vector<int64_t> perm, merged;
            for (int g : order) {
                long long n = 1;
                for (const GemmDim& d : st.groups[g]) {
                    perm.push_back(role == 0 ? d.pa : d.pb);
                    n *= sizes[d.cls];
                }
                merged.push_back(n);
            }
            return tensor(id, classes).permute(perm).reshape(merged);
        };
        at::Tensor A = arrange(st.a, st.a_classes, 0, {3, 0, 2});
        at::Tensor B = arrange(st.b, st.b_classes, 1, {3, 2, 1});
        std::vector<int64_t> cpos, rshape;
        for (int g : {3, 0, 1})
            for (const GemmDim& d : st.groups[g]) {
                cpos.push_back(d.pc);
                rshape.push_back(sizes[d.cls]);
            }
        at::Tensor R = at::bmm(A, B).view(rshape);
        std::vector<int64_t> inv(cpos.size());
        for (size_t i = 0; i < cpos.size(); ++i) inv[cpos[i]] = i;
        R = R.permute(inv);
        if (alpha != 1.0) R = R * alpha;
        at::Tensor Cv = tensor(buf, st.c_classes);
        if (acc) Cv.add_(R);
        else Cv.copy_(R);
    }

    void run(const std::vector<char>* keep_step = nullptr) {
        at::NoGradGuard no_grad;       // ATen's part (a contraction's fallback) records nothing
        std::vector<std::pair<int, int>> live;
        live.reserve(4);
        for (size_t i = 0; i < prog.steps.size(); ++i) {
            if (keep_step && !(*keep_step)[i]) continue;
            const Step& st = prog.steps[i];
            if (st.cls == MAP) map(st, live);
            else if (st.cls == REDUCE) reduce(st, live);
            else gemm(st, live);
        }
    }
};

// ---------------------------------------------------------------------------------------------- the arguments
// Why a call is not this runner's (None to Python), or the tensors and extents it runs with.
bool plain_tensor(PyObject* o) {
    PyTypeObject* t = Py_TYPE(o);
    return t == (PyTypeObject*)THPVariableClass || (g_parameter && t == (PyTypeObject*)g_parameter);
}

bool environment_ok() {
    // a torch.func transform includes its dynamic-layer key while it runs
    return !c10::impl::tls_is_dispatch_key_included(c10::DispatchKey::FuncTorchDynamicLayerFrontMode) &&
           c10::impl::TorchDispatchModeTLS::stack_len() == 0 && !at::impl::torch_function_mode_enabled() &&
           !torch::jit::tracer::isTracing();
}

// the extent of every class from a call's tensors (rank, shape and dtype checked), or false
bool bind(const Op& op, PyObject* const* args, Py_ssize_t n, long long* sizes, at::ScalarType& dtype) {
    if ((size_t)n != op.in_kind.size() || op.n_classes > MAX_CLASSES) return false;
    for (int c = 0; c < op.n_classes; ++c) sizes[c] = -1;
    const at::Tensor* shape0 = nullptr;
    for (Py_ssize_t k = 0; k < n; ++k) {
        if (!plain_tensor(args[k])) return false;
        const at::Tensor& t = THPVariable_Unpack(args[k]);
        if (k == 0) {
            dtype = t.scalar_type();
            if (dtype != at::kFloat && dtype != at::kDouble) return false;
        } else if (t.scalar_type() != dtype) {
            return false;
        }
        if (!t.device().is_cpu() || t.layout() != at::kStrided || t.is_neg() || t.is_conj() ||
            t._fw_grad(0).defined())
            return false;
        const auto& cls = op.in_classes[k];
        if (op.elementwise && op.in_kind[k] == K_TENSOR) {
            // every tensor one shape (no broadcasting), run flat
            if (!shape0) shape0 = &t;
            else if (!t.sizes().equals(shape0->sizes())) return false;
            long long numel = t.numel();
            if (sizes[cls[0]] >= 0 && sizes[cls[0]] != numel) return false;
            sizes[cls[0]] = numel;
        } else {
            if (t.dim() != (int64_t)cls.size()) return false;
            for (size_t ax = 0; ax < cls.size(); ++ax) {
                long long e = t.size(ax);
                if (sizes[cls[ax]] >= 0 && sizes[cls[ax]] != e) return false;
                sizes[cls[ax]] = e;
            }
        }
    }
    for (auto [c, e] : op.fixed)
        if (sizes[c] != e) return false;
    for (const auto& [c, reaches] : op.derived) {      // shifted reads: the largest extent keeping them inside
        long long best = -1;
        for (const Reach& r : reaches) {
            long long coef = 0, need = r.constant + 1;
            for (auto [k, cl] : r.terms) {
                if (cl == c) coef = k;
                else need += k * (sizes[cl] - 1);
            }
            if (coef <= 0 || sizes[r.axis] < need) return false;
            long long v = (sizes[r.axis] - need) / coef + 1;
            best = best < 0 ? v : std::min(best, v);
        }
        if (best < 1) return false;
        sizes[c] = best;
    }
    for (const Reach& r : op.checks) {
        long long need = r.constant + 1;
        for (auto [k, cl] : r.terms) need += k * (sizes[cl] - 1);
        if (need > sizes[r.axis]) return false;
    }
    for (int c = 0; c < op.n_classes; ++c)
        if (sizes[c] < 0) return false;
    return true;
}

// an elementwise op runs flat: the shape of its (first) tensor argument, which its results take
at::IntArrayRef elem_shape(const Op& op, const variable_list& ins) {
    for (size_t k = 0; k < ins.size(); ++k)
        if (op.in_kind[k] == K_TENSOR) return ins[k].sizes();
    return ins[0].sizes();
}

// the tensors as the kernels read them: contiguous (an elementwise op's read flat, kept in their shape)
void as_buffers(const Op& op, const variable_list& ins, std::vector<Buf>& bufs) {
    for (size_t k = 0; k < ins.size(); ++k) {
        at::Tensor t = ins[k].is_contiguous() ? ins[k] : ins[k].contiguous();
        Buf& b = bufs[op.in_buf[k]];
        b.p = data_of(t);
        b.t = std::move(t);
    }
}

// the outputs, each its own tensor: one that is an input (a program whose result is an argument) is a copy
variable_list results(const Op& op, const Program& prog, std::vector<Buf>& bufs, const variable_list& ins) {
    variable_list ys;
    ys.reserve(prog.results.size());
    for (int r : prog.results) {
        at::Tensor y = bufs[r].t;
        for (const auto& t : ins)
            if (y.is_same(t) || (y.numel() && y.data_ptr() == t.data_ptr())) {
                y = y.clone();
                break;
            }
        ys.push_back(y);        // (an elementwise op's already in its arguments' shape)
    }
    return ys;
}

// ------------------------------------------------------------------------------------------ the autograd node
// The cotangents a Python pullback gives (runtime.torch's pull(closure or None, inputs, grads, needs): from the
// closure, or from the rrule recomputed with grad as it is), for the inputs the node's task asks for. With the GIL.
variable_list python_cotangents(const torch::autograd::Node& node, const py::object& pull, py::object closure,
                                const variable_list& ins, const variable_list& grads) {
    variable_list out(ins.size());
    py::list needs;
    for (size_t k = 0; k < ins.size(); ++k) needs.append(node.task_should_compute_output(k));
    py::tuple res = pull(closure, ins, grads, needs);
    for (size_t k = 0; k < ins.size(); ++k) {
        py::object v = res[k];
        if (!v.is_none()) out[k] = THPVariable_Unpack(v.ptr());
    }
    return out;
}

// One node per call, as ATen's own ops record theirs: its edges to the inputs, the tensors the pullback reads saved
// (autograd's version counter guards them), the extents.
struct PlanNode : public torch::autograd::Node {
    // the op itself, not its index: g_ops grows (a registration, under the GIL) while a backward or a forward
    // reads it without the GIL, and a growing vector moves its elements (each Op stays where it is)
    const Op* op_ = nullptr;
    std::vector<long long> sizes;
    std::vector<torch::autograd::SavedVariable> inputs;    // the inputs (a create_graph backward recomputes)
    std::vector<torch::autograd::SavedVariable> saves;     // the rrule's saves, in its order

    std::string name() const override { return "tensor_rules::" + op_->name + "Backward"; }

    void release_variables() override {
        inputs.clear();
        saves.clear();
    }

    variable_list apply(variable_list&& grads) override {
        const Op& op = *op_;
        size_t n_in = op.in_kind.size(), n_out = op.out_buf.size();
        variable_list out(n_in);
        bool any = false;
        for (auto& g : grads) any = any || g.defined();
        if (!any) return out;
        TORCH_CHECK(!inputs.empty() || n_in == 0, "tensor-rules: ", op.name,
                    ": backward through the graph a second time (the saved tensors were freed; "
                    "use retain_graph=True the first time)");
        auto self = getptr();
        variable_list ins;
        for (auto& s : inputs) ins.push_back(s.unpack(self));
        // a cotangent the kernels cannot read (vmap's batched one: autograd.grad(is_grads_batched=True),
        // jacobian(vectorize=True); a tensor subclass) or a transform active: the Python pullback too
        bool python = at::GradMode::is_enabled() || !environment_ok();
        for (const auto& g : grads) python = python || (g.defined() && at::isTensorSubclassLike(g));
        if (python) {
            // create_graph: the Python pullback over torch ops, which autograd records and differentiates
            py::gil_scoped_acquire gil;
            return python_cotangents(*this, op.pull, py::none(), ins, grads);
        }
        at::ScalarType dtype = ins[0].scalar_type();
        std::vector<Buf> bufs(op.n_bufs);
        for (size_t s = 0; s < saves.size(); ++s) {
            at::Tensor v = saves[s].unpack(self);
            // contiguous first: reshape({-1}) of a 1-D strided view (x[::2], expand()) is that view again
            v = v.contiguous();
            Buf& b = bufs[op.rrule.saves[s]];
            b.p = data_of(v);
            b.t = std::move(v);
        }
        for (size_t r = 0; r < n_out; ++r) {
            if (!grads[r].defined()) continue;
            at::Tensor g = grads[r];
            if (g.scalar_type() != dtype || !g.device().is_cpu() || g.layout() != at::kStrided || g.is_neg() ||
                g.is_conj())
                g = g.to(dtype).resolve_neg().resolve_conj();
            g = g.contiguous();
            Buf& b = bufs[op.dout_buf[r]];
            b.p = data_of(g);
            b.t = std::move(g);
        }
        // only the steps the asked-for cotangents need
        std::vector<char> need(op.n_bufs, 0), keep(op.pullback.steps.size(), 0);
        for (size_t k = 0; k < n_in; ++k)
            if (op.din_buf[k] >= 0 && task_should_compute_output(k)) need[op.din_buf[k]] = 1;
        for (size_t i = op.pullback.steps.size(); i-- > 0;) {
            const Step& st = op.pullback.steps[i];
            bool used = false;
            for (const Out& o : st.outputs) used = used || need[o.buf];
            if (!used) continue;
            keep[i] = 1;
            for (int r : st.reads) need[r] = 1;
        }
        {
            Run run(op, op.pullback, sizes.data(), dtype, bufs);
            if (op.elementwise) run.flat_shape = elem_shape(op, ins);
            run.run(&keep);
        }
        for (size_t k = 0; k < n_in; ++k) {
            int b = op.din_buf[k];
            if (b < 0 || !task_should_compute_output(k) || !bufs[b].p) continue;
            out[k] = bufs[b].t;
        }
        return out;
    }
};

// forward with an autograd node: the rrule program, its saves kept on the node
variable_list forward_node(const Op& op, const variable_list& originals, const long long* sizes,
                           at::ScalarType dtype) {
    std::vector<Buf> bufs(op.n_bufs);
    as_buffers(op, originals, bufs);
    {
        Run run(op, op.rrule, sizes, dtype, bufs);
        if (op.elementwise) run.flat_shape = elem_shape(op, originals);
        run.run();
    }
    variable_list ys = results(op, op.rrule, bufs, originals);
    auto node = c10::make_intrusive<PlanNode>();
    node->op_ = &op;
    node->sizes.assign(sizes, sizes + op.n_classes);
    node->set_next_edges(torch::autograd::collect_next_edges(originals));
    for (auto& y : ys) torch::autograd::set_history(y, node);
    for (const auto& x : originals) node->inputs.emplace_back(x, false);
    for (int s : op.rrule.saves) {
        int out = -1;
        for (size_t r = 0; r < op.rrule.results.size(); ++r)
            if (op.rrule.results[r] == s) out = r;
        int in = -1;
        for (size_t k = 0; k < originals.size(); ++k)
            if (op.in_buf[k] == s) in = k;
        if (out >= 0) node->saves.emplace_back(ys[out], true);
        else if (in >= 0) node->saves.emplace_back(originals[in], false);
        else node->saves.emplace_back(bufs[s].t, false);
    }
    return ys;
}

// ------------------------------------------------------------------------------------------------- the calls
PyObject* pack(const variable_list& ys) {
    if (ys.size() == 1) return THPVariable_Wrap(ys[0]);
    PyObject* tup = PyTuple_New(ys.size());
    for (size_t i = 0; i < ys.size(); ++i) PyTuple_SET_ITEM(tup, i, THPVariable_Wrap(ys[i]));
    return tup;
}

// ---------------------------------------------------------------------------- a node for the Python code's forward
// An op with no plan (a matrix primitive, a masked scan) runs its generated Python rrule; this node stands where a
// Python torch.autograd.Function would, at a fraction of Function.apply's cost. It keeps what that Function keeps:
// the inputs and outputs (version counter, saved-tensor hooks) and the pullback closure (none under saved-tensor
// hooks, which cannot see inside it), dropped at its backward; `pull` (Python) runs it, or recomputes the rrule
// from the inputs (a second backward, create_graph), and gives the cotangents autograd asks for.
struct PyOp {
    std::string name;
    py::object rrule, pull;
    size_t n_in = 0, n_out = 0;
};
std::vector<std::unique_ptr<PyOp>>& g_pyops = *new std::vector<std::unique_ptr<PyOp>>();   // (never destroyed)

struct PyPullNode : public torch::autograd::Node {
    const PyOp* op_ = nullptr;                   // (not an index into g_pyops: see PlanNode::op_)
    std::vector<torch::autograd::SavedVariable> inputs, outputs;
    PyObject* pb = nullptr;                      // owned; null: recompute

    std::string name() const override { return "tensor_rules::" + op_->name + "Backward"; }

    void drop_closure() {
        if (!pb) return;
        if (!Py_IsInitialized()) {               // interpreter gone: nothing left to release it to
            pb = nullptr;
            return;
        }
        py::gil_scoped_acquire gil;
        Py_CLEAR(pb);
    }
    ~PyPullNode() override { drop_closure(); }

    void release_variables() override {
        inputs.clear();
        outputs.clear();
        drop_closure();
    }

    variable_list apply(variable_list&& grads) override {
        const PyOp& op = *op_;
        variable_list out(op.n_in);
        bool any = false;
        for (auto& g : grads) any = any || g.defined();
        if (!any) return out;
        TORCH_CHECK(!inputs.empty() || op.n_in == 0, "tensor-rules: ", op.name,
                    ": backward through the graph a second time (the saved tensors were freed; "
                    "use retain_graph=True the first time)");
        auto self = getptr();
        variable_list ins, outs;
        for (auto& s : inputs) ins.push_back(s.unpack(self));
        for (auto& s : outputs) outs.push_back(s.unpack(self));     // (unpacked: the version counter checked)
        py::gil_scoped_acquire gil;
        // the closure is used once, as torch frees saved tensors; a retained graph's next backward recomputes
        py::object closure = pb ? py::reinterpret_steal<py::object>(pb) : py::none();
        pb = nullptr;
        return python_cotangents(*this, op.pull, closure, ins, grads);
    }
};

// pyapply(index, *tensors): the op's rrule run with grad off, its outputs given a PyPullNode
PyObject* tr_pyapply(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    HANDLE_TH_ERRORS
    long long index = nargs ? PyLong_AsLongLong(args[0]) : -1;
    TORCH_CHECK(index >= 0 && (size_t)index < g_pyops.size(), "tensor-rules: pyapply of an unknown op");
    const PyOp& op = *g_pyops[index];
    TORCH_CHECK((size_t)nargs - 1 == op.n_in, "tensor-rules: ", op.name, ": wrong argument count");
    variable_list ins;
    for (Py_ssize_t k = 1; k < nargs; ++k) {
        TORCH_CHECK(THPVariable_Check(args[k]), "tensor-rules: ", op.name, ": tensors only");
        ins.push_back(THPVariable_Unpack(args[k]));
    }
    py::object res;
    {
        at::AutoGradMode off(false);             // as a Function's forward: the rrule's own ops record nothing
        res = py::reinterpret_steal<py::object>(PyObject_Vectorcall(op.rrule.ptr(), args + 1, nargs - 1, nullptr));
        if (!res) throw py::error_already_set();
    }
    py::tuple pair = res.cast<py::tuple>();
    py::object y = pair[0];
    variable_list ys;
    if (op.n_out == 1) ys.push_back(THPVariable_Unpack(y.ptr()));
    else
        for (auto v : y.cast<py::tuple>()) ys.push_back(THPVariable_Unpack(v.ptr()));
    for (size_t r = 0; r < ys.size(); ++r) {     // each output its own tensor (not an input, not another output)
        bool alias = false;
        for (const auto& t : ins) alias = alias || ys[r].is_same(t);
        for (size_t q = 0; q < r; ++q) alias = alias || ys[r].is_same(ys[q]);
        // the caller gets an alias (same memory and version counter): the closure keeps the tensor it made, which
        // has no history, so no cycle output -> node -> closure -> output forms (the garbage collector cannot see
        // through this node, and every call's outputs would leak)
        ys[r] = alias ? ys[r].clone() : ys[r].detach();
    }
    auto node = c10::make_intrusive<PyPullNode>();
    node->op_ = &op;
    node->set_next_edges(torch::autograd::collect_next_edges(ins));
    for (auto& v : ys) torch::autograd::set_history(v, node);
    for (const auto& x : ins) node->inputs.emplace_back(x, false);
    for (const auto& v : ys) node->outputs.emplace_back(v, true);
    if (!at::SavedTensorDefaultHooks::get_hooks().has_value()) node->pb = py::object(pair[1]).release().ptr();
    return pack(ys);
    END_HANDLE_TH_ERRORS
}

int64_t register_pyop(std::string name, py::object rrule, py::object pull, size_t n_in, size_t n_out) {
    auto op = std::make_unique<PyOp>();
    op->name = std::move(name);
    op->rrule = std::move(rrule);
    op->pull = std::move(pull);
    op->n_in = n_in;
    op->n_out = n_out;
    g_pyops.push_back(std::move(op));
    return (int64_t)g_pyops.size() - 1;
}

// call(index, *args): the op's outputs, or None where this runner does not take the call
PyObject* tr_call(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs < 1) Py_RETURN_NONE;
    long long index = PyLong_AsLongLong(args[0]);
    if (index < 0 || (size_t)index >= g_ops.size()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    const Op& op = *g_ops[index];
    if (!environment_ok()) Py_RETURN_NONE;
    HANDLE_TH_ERRORS
    long long sizes[MAX_CLASSES];
    at::ScalarType dtype;
    if (!bind(op, args + 1, nargs - 1, sizes, dtype)) Py_RETURN_NONE;
    variable_list ins;
    ins.reserve(nargs - 1);
    bool grad = false;
    for (Py_ssize_t k = 1; k < nargs; ++k) {
        ins.push_back(THPVariable_Unpack(args[k]));
        grad = grad || ins.back().requires_grad();
    }
    grad = grad && at::GradMode::is_enabled();
    variable_list ys;
    {
        pybind11::gil_scoped_release no_gil;
        if (grad) {
            ys = forward_node(op, ins, sizes, dtype);
        } else {
            std::vector<Buf> bufs(op.n_bufs);
            as_buffers(op, ins, bufs);
            {
                Run run(op, op.forward, sizes, dtype, bufs);
                if (op.elementwise) run.flat_shape = elem_shape(op, ins);
                run.run();
            }
            ys = results(op, op.forward, bufs, ins);
        }
    }
    return pack(ys);
    END_HANDLE_TH_ERRORS
}

PyMethodDef tr_methods[] = {
    {"call", (PyCFunction)(void (*)(void))tr_call, METH_FASTCALL,
     "call(index, *args): the registered op's outputs, or None where the call is not one this runner takes"},
    {"pyapply", (PyCFunction)(void (*)(void))tr_pyapply, METH_FASTCALL,
     "pyapply(index, *tensors): the registered Python rrule's outputs with a node of this module"},
    {nullptr, nullptr, 0, nullptr}};

// ----------------------------------------------------------------------------------------------- registration
std::vector<int> ints(py::handle h) { return h.cast<std::vector<int>>(); }

std::vector<std::vector<int>> per_buffer(py::handle h, int n) {
    std::vector<std::vector<int>> out(n);
    for (auto item : h.cast<py::list>()) {
        auto pair = item.cast<py::tuple>();
        out[pair[0].cast<int>()] = ints(pair[1]);
    }
    return out;
}

Reach reach(py::handle h) {
    auto t = h.cast<py::tuple>();
    Reach r;
    r.axis = t[0].cast<int>();
    for (auto term : t[1].cast<py::list>()) {
        auto p = term.cast<py::tuple>();
        r.terms.emplace_back(p[0].cast<long long>(), p[1].cast<int>());
    }
    r.constant = t[2].cast<long long>();
    return r;
}

Program program(py::dict d, int n_bufs) {
    Program p;
    p.args = ints(d["args"]);
    p.results = ints(d["results"]);
    p.saves = ints(d["saves"]);
    p.classes = per_buffer(d["buffers"], n_bufs);
    p.scratch.assign(n_bufs, 0);
    for (int b : ints(d["scratch"])) p.scratch[b] = 1;
    for (auto sh : d["steps"].cast<py::list>()) {
        py::dict s = sh.cast<py::dict>();
        Step st;
        st.cls = s["cls"].cast<int>();
        for (auto o : s["outputs"].cast<py::list>()) {
            auto t = o.cast<py::tuple>();
            st.outputs.push_back({t[0].cast<int>(), t[1].cast<bool>(), ints(t[2])});
        }
        st.reads = ints(s["reads"]);
        if (st.cls == GEMM) {
            st.a = s["a"].cast<int>();
            st.b = s["b"].cast<int>();
            st.alpha = s["alpha"].cast<double>();
            st.alpha_buf = s["alpha_buf"].cast<int>();
            st.a_classes = ints(s["a_classes"]);
            st.b_classes = ints(s["b_classes"]);
            st.c_classes = ints(s["c_classes"]);
            auto groups = s["groups"].cast<py::list>();
            for (int g = 0; g < 4; ++g)
                for (auto dim : groups[g].cast<py::list>()) {
                    auto v = ints(dim);
                    st.groups[g].push_back({v[0], v[1], v[2], v[3]});
                }
        } else {
            st.k32 = reinterpret_cast<Kernel>(s["k32"].cast<uintptr_t>());
            st.k64 = reinterpret_cast<Kernel>(s["k64"].cast<uintptr_t>());
            st.written.assign(n_bufs, 0);
            for (auto prm : s["params"].cast<py::list>()) {
                auto v = ints(prm);
                st.params.emplace_back(v[0], v[1]);
                if (v[0] == P_MODE) st.written[v[1]] = 1;
            }
            st.space = ints(s["space"]);
            st.rows = ints(s["rows"]);
            st.red = ints(s["red"]);
            st.lane = s["lane"].cast<int>();
            st.moved.assign(n_bufs, -1);
            for (auto m : s["moved"].cast<py::list>()) {
                auto v = ints(m);
                st.moved[v[0]] = v[1];
            }
            st.read_classes = per_buffer(s["read_classes"], n_bufs);
            st.write_classes = per_buffer(s["write_classes"], n_bufs);
        }
        p.steps.push_back(std::move(st));
    }
    return p;
}

int64_t register_op(py::dict d, py::object pull) {
    auto op = std::make_unique<Op>();
    op->name = d["name"].cast<std::string>();
    op->n_bufs = d["n_bufs"].cast<int>();
    op->n_classes = d["n_classes"].cast<int>();
    op->elementwise = d["elementwise"].cast<bool>();
    for (auto in : d["inputs"].cast<py::list>()) {
        auto t = in.cast<py::tuple>();
        op->in_kind.push_back(t[0].cast<int>());
        op->in_buf.push_back(t[1].cast<int>());
        op->in_classes.push_back(ints(t[2]));
    }
    for (auto f : d["fixed"].cast<py::list>()) {
        auto t = f.cast<py::tuple>();
        op->fixed.emplace_back(t[0].cast<int>(), t[1].cast<long long>());
    }
    for (auto dv : d["derived"].cast<py::list>()) {
        auto t = dv.cast<py::tuple>();
        std::vector<Reach> rs;
        for (auto r : t[1].cast<py::list>()) rs.push_back(reach(r));
        op->derived.emplace_back(t[0].cast<int>(), std::move(rs));
    }
    for (auto c : d["checks"].cast<py::list>()) op->checks.push_back(reach(c));
    if (op->elementwise)
        for (size_t k = 0; k < op->in_kind.size(); ++k)
            if (op->in_kind[k] == K_TENSOR && op->in_classes[k].size() == 1) {
                op->flat_class = op->in_classes[k][0];
                break;
            }
    op->out_buf = ints(d["out_buf"]);
    op->dout_buf = ints(d["dout_buf"]);
    op->din_buf = ints(d["din_buf"]);
    op->forward = program(d["forward"].cast<py::dict>(), op->n_bufs);
    op->rrule = program(d["rrule"].cast<py::dict>(), op->n_bufs);
    op->pullback = program(d["pullback"].cast<py::dict>(), op->n_bufs);
    op->pull = pull;
    if (op->n_classes > MAX_CLASSES) throw std::runtime_error("tensor-rules: an op with over 64 index classes");
    g_ops.push_back(std::move(op));
    return (int64_t)g_ops.size() - 1;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.doc() = "tensor-rules: derived ops' native CPU plans on torch tensors (runtime/torch_native.py)";
    m.def("register", &register_op, "register(op description, pull) -> index for call(); pull as register_python's");
    m.attr("MAX_POINTERS") = MAX_POINTERS;
    m.attr("MAX_NUMBERS") = MAX_NUMBERS;
    m.attr("MAX_CLASSES") = MAX_CLASSES;
    m.def("register_python", &register_pyop,
          "register_python(name, rrule, pull, n_in, n_out) -> index for pyapply(): rrule(*args) -> (y, pullback); "
          "pull(pullback or None, inputs, grads, needs) -> cotangents");
    m.def("set_parameter_type", [](py::object t) {
        Py_XINCREF(t.ptr());
        g_parameter = t.ptr();
    });
    m.def("set_blas", [](uintptr_t s, uintptr_t d) {
        g_sgemm = reinterpret_cast<Sgemm>(s);
        g_dgemm = reinterpret_cast<Dgemm>(d);
    });
    m.def("counts", [] {
        return py::make_tuple(g_counts[MAP].load(), g_counts[REDUCE].load(), g_counts[GEMM].load());
    }, "(map kernels, reduction kernels, contractions) this process has run");
    PyModule_AddFunctions(m.ptr(), tr_methods);
}
