// Minimal CPU emulation of the CUDA features the app kernels use: each block's threads run as std::threads with a
// barrier for __syncthreads; blocks run one after another, so function-static "shared" arrays are per block.
// Kernels must not call __syncthreads after some of a block's threads have returned (ours never do).
#pragma once
#include <thread>
#include <vector>
#include <barrier>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <cstdint>
#include <algorithm>
struct dim3 { unsigned x = 1, y = 1, z = 1; };
inline thread_local dim3 threadIdx;
inline dim3 blockIdx, blockDim, gridDim;
inline std::barrier<>* emu_barrier = nullptr;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
inline void __syncthreads() { emu_barrier->arrive_and_wait(); }
// Blocks run one after another here, so every earlier block's writes are visible: a fence has nothing to order.
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
using std::min;
struct float2 { float x, y; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }
inline float __fadd_rn(float a, float b) { volatile float r = a + b; return r; }
inline double __dmul_rn(double a, double b) { volatile double r = a * b; return r; }
inline double __ddiv_rn(double a, double b) { volatile double r = a / b; return r; }
inline double __dsub_rn(double a, double b) { volatile double r = a - b; return r; }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long) (((unsigned __int128) a * b) >> 64);
}
inline double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, 8); return d; }
template <typename T> T atomicAdd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
inline unsigned atomicCAS(unsigned* p, unsigned expected, unsigned desired) {
    std::atomic_ref<unsigned>(*p).compare_exchange_strong(expected, desired);
    return expected;
}
// Runs `grid` blocks of `block` threads one block after another. The block's threads are created once per launch
// and step through the blocks together (thread 0 sets blockIdx between two barriers), so a large grid costs barrier
// waits, not thread creation. A thread that returns early from the kernel still meets the per-block barriers.
template <typename F> void launch(unsigned grid, unsigned block, F kernel) {
    gridDim.x = grid; blockDim.x = block;
    std::barrier<> bar(block);
    emu_barrier = &bar;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < block; t++) {
        threads.emplace_back([&, t] {
            threadIdx.x = t;
            for (unsigned b = 0; b < grid; b++) {
                if (t == 0) blockIdx.x = b;
                bar.arrive_and_wait();
                kernel();
                bar.arrive_and_wait();
            }
        });
    }
    for (auto& th : threads) th.join();
}
