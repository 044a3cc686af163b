// CPU emulation of the CUDA subset the generated kernels use (tests only; see cuda_emu.py).
// Every CUDA thread of a block is an OS thread; blocks run one after another, so one shared-memory buffer
// serves all; __syncthreads is a block barrier; warp shuffles exchange through a per-warp slot array.
#pragma once
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

using namespace std;  // float overloads of the math functions, as CUDA provides

struct tr_dim3 { unsigned x = 1, y = 1, z = 1; };

inline thread_local tr_dim3 tr_emu_tid, tr_emu_bid;
inline tr_dim3 tr_emu_bdim, tr_emu_gdim;
alignas(64) inline unsigned char tr_smem[1 << 22];

#define threadIdx tr_emu_tid
#define blockIdx tr_emu_bid
#define blockDim tr_emu_bdim
#define gridDim tr_emu_gdim
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(x)
#define __shared__
#define __align__(n)

struct tr_emu_block {
    std::barrier<> block;
    std::vector<std::barrier<>*> warps;
    std::vector<unsigned long long> slots;
    explicit tr_emu_block(unsigned n) : block(n), slots(n) {
        for (unsigned w = 0; w < (n + 31) / 32; ++w) warps.push_back(new std::barrier<>(std::min(32u, n - 32 * w)));
    }
    ~tr_emu_block() { for (auto* w : warps) delete w; }
};
inline tr_emu_block* tr_emu_cur = nullptr;

inline void __syncthreads() { tr_emu_cur->block.arrive_and_wait(); }
inline void __syncwarp(unsigned = 0xffffffffu) { tr_emu_cur->warps[tr_emu_tid.x / 32]->arrive_and_wait(); }

template <typename T> T __shfl_down_sync(unsigned, T v, int delta) {
    static_assert(sizeof(T) <= 8, "shuffle of a value wider than 8 bytes");
    const unsigned lane = tr_emu_tid.x % 32, base = tr_emu_tid.x - lane;
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    tr_emu_cur->slots[tr_emu_tid.x] = bits;
    __syncwarp();
    T out = v;
    if (lane + delta < 32 && base + lane + delta < tr_emu_bdim.x)
        std::memcpy(&out, &tr_emu_cur->slots[base + lane + delta], sizeof(T));
    __syncwarp();
    return out;
}

template <typename T> T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <typename T> T atomicMax(T* p, T v) {
    std::atomic_ref<T> a(*p);
    T cur = a.load();
    while (cur < v && !a.compare_exchange_weak(cur, v)) {
    }
    return cur;
}
template <typename T> T atomicCAS(T* p, T compare, T val) {
    std::atomic_ref<T>(*p).compare_exchange_strong(compare, val);
    return compare;  // the old value, as CUDA's atomicCAS returns
}
template <typename T> T rsqrt(T x) { return T(1) / std::sqrt(x); }
// CUDA's erfinv (C++ has none): the native CPU kernels' implementation
#include "../../templates/erfinv.h"
template <typename T> T erfinv(T x) { return tr_erfinv(x); }

template <typename... A, std::size_t... I>
void tr_emu_call(void (*f)(A...), void** args, std::index_sequence<I...>) {
    f(*reinterpret_cast<std::remove_cv_t<std::remove_reference_t<A>>*>(args[I])...);
}

// a pool of worker threads reused by every launch (creating 256 threads per launch would dominate the tests)
struct tr_emu_pool {
    std::vector<std::thread> threads;
    std::mutex m;
    std::condition_variable start, finished;
    unsigned long long gen = 0;
    unsigned active = 0, remaining = 0;
    std::function<void(unsigned)> job;

    void run(unsigned n, std::function<void(unsigned)> f) {
        std::unique_lock<std::mutex> g(m);
        while (threads.size() < n) {
            const unsigned t = (unsigned)threads.size();
            const unsigned long long now = gen;  // a new worker waits for the next launch, not the last one
            threads.emplace_back([this, t, now] { work(t, now); });
            threads.back().detach();
        }
        job = std::move(f);
        active = remaining = n;
        ++gen;
        start.notify_all();
        finished.wait(g, [&] { return remaining == 0; });
    }

    void work(unsigned t, unsigned long long seen) {
        for (;;) {
            std::function<void(unsigned)> f;
            {
                std::unique_lock<std::mutex> g(m);
                start.wait(g, [&] { return gen != seen; });
                seen = gen;
                if (t >= active) continue;
                f = job;
            }
            f(t);
            std::lock_guard<std::mutex> g(m);
            if (--remaining == 0) finished.notify_one();
        }
    }
};
// never destroyed: its detached workers still wait on it when the process exits
inline tr_emu_pool& tr_emu_workers = *new tr_emu_pool;

template <typename... A>
void tr_emu_run(void (*f)(A...), unsigned gx, unsigned gy, unsigned gz, unsigned bx, void** args) {
    tr_emu_gdim = {gx, gy, gz};
    tr_emu_bdim = {bx, 1, 1};
    tr_emu_block blk(bx);
    tr_emu_cur = &blk;
    tr_emu_workers.run(bx, [=, &blk](unsigned t) {
        tr_emu_tid = {t, 0, 0};
        for (unsigned z = 0; z < gz; ++z)
            for (unsigned y = 0; y < gy; ++y)
                for (unsigned x = 0; x < gx; ++x) {
                    tr_emu_bid = {x, y, z};
                    tr_emu_call(f, args, std::index_sequence_for<A...>{});
                    blk.block.arrive_and_wait();
                }
    });
    tr_emu_cur = nullptr;
}

#define TR_EMU_EXPORT(name)                                                                                \
    extern "C" void emu_##name(unsigned gx, unsigned gy, unsigned gz, unsigned bx, void** args) {            \
        tr_emu_run(name, gx, gy, gz, bx, args);                                                            \
    }
