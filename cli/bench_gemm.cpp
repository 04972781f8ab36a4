// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bench gemm: the rate of the matrix-product library the engine was built with
// (CMake ATTNVIZ_GEMM), at the product shapes of a training step of `bench train`'s model.
// Build the engine with each library and compare (docs/training.md).
#include <algorithm>
#include <chrono>
#include <ostream>

#include "command.h"
#include "core/config.h"
#include "core/error.h"
#include "core/gemm.h"
#include "core/input_limits.h"
#include "core/tensor.h"
#include "core/thread_pool.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

// One product of a step: C [m, n] = A [m, k] · B [k, n], written as the engine writes it.
struct Shape {
    std::string what;
    int m, k, n;
    enum Form { XWt, DyTX, DyW } form;  // y = x·Wᵀ, dW = dyᵀ·x, dx = dy·W (core/layers.cpp)
    int count;                          // products of this shape per step and shard
};

// The products of one shard of a training step: N = rows of the shard (its sequences times
// the length), T the length, per head of width dk. Attention products are per sequence and
// head; the output projection's backward for the embedding is counted with the linears.
std::vector<Shape> stepShapes(const ModelConfig& c, int sequences, int T, int V) {
    const int N = sequences * T, d = c.dModel, f = c.dFf, dk = c.dModel / c.heads;
    const int blocks =
        (c.hasEncoder() ? c.encLayers : 0) + c.decLayers + (c.hasEncoder() ? c.decLayers : 0);
    const int ffns = (c.hasEncoder() ? c.encLayers : 0) + c.decLayers;
    const int perHead = blocks * sequences * c.heads;
    std::vector<Shape> s;
    auto linear = [&](const std::string& name, int in, int out, int count) {
        s.push_back({name + " forward", N, in, out, Shape::XWt, count});
        s.push_back({name + " dW", out, N, in, Shape::DyTX, count});
        s.push_back({name + " dx", N, out, in, Shape::DyW, count});
    };
    linear("projection d->d", d, d, 4 * blocks);
    linear("FFN d->d_ff", d, f, ffns);
    linear("FFN d_ff->d", f, d, ffns);
    linear("output d->V", d, V, 1);
    s.push_back({"scores q·kᵀ (per head)", T, dk, T, Shape::XWt, perHead});
    s.push_back({"context a·v (per head)", T, T, dk, Shape::DyW, perHead});
    s.push_back({"backward dq, dv, da (per head)", T, T, dk, Shape::DyW, 3 * perHead});
    return s;
}

// GFLOP/s of `reps` products of shape s, one chain per thread of the pool at once.
double rate(const Shape& s, ThreadPool& pool, int threads, int reps) {
    struct Operands {
        Mat a, b, c;
    };
    std::vector<Operands> ops(static_cast<size_t>(threads));
    for (auto& o : ops) {
        switch (s.form) {
            case Shape::XWt:
                o.a = Mat::Random(s.m, s.k), o.b = Mat::Random(s.n, s.k);
                break;
            case Shape::DyTX:
                o.a = Mat::Random(s.k, s.m), o.b = Mat::Random(s.k, s.n);
                break;
            case Shape::DyW:
                o.a = Mat::Random(s.m, s.k), o.b = Mat::Random(s.k, s.n);
                break;
        }
        o.c = Mat::Zero(s.m, s.n);
    }
    auto once = [&](Operands& o) {
        switch (s.form) {
            case Shape::XWt:
                o.c.noalias() = o.a * o.b.transpose();
                break;
            case Shape::DyTX:
                o.c.noalias() += o.a.transpose() * o.b;
                break;
            case Shape::DyW:
                o.c.noalias() = o.a * o.b;
                break;
        }
    };
    double best = 0;
    for (int trial = 0; trial < 5; ++trial) {
        const auto t0 = std::chrono::steady_clock::now();
        pool.run(threads, [&](int t) {
            for (int r = 0; r < reps; ++r) once(ops[size_t(t)]);
        });
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * s.m * s.k * s.n * reps * threads / sec / 1e9);
    }
    return best;
}

class BenchGemmCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override {
        auto* c = parent.add_subcommand(
            "gemm", "Rate of the matrix-product library at a training step's shapes (JSON)");
        input(c->add_option("--config", m_config, "Model configuration (JSON)"))
            ->required()
            ->check(CLI::ExistingFile);
        addStepSizeOptions(c, m_batch, m_len, m_threads, m_vocab,
                           "Threads (each multiplies its shard's shapes)");
        return c;
    }

    void run(const Context& ctx) override {
        const ModelConfig cfg = ModelConfig::fromFile(m_config);
        if (m_len < 1 || m_batch < m_threads || m_vocab < 1)
            throw Error(
                "bench gemm needs --seq-len >= 1, --vocab >= 1 and --batch-size >= --threads");
        singleThreadedGemm();
        ThreadPool pool(m_threads);
        const int shard = m_batch / m_threads;
        json rows = json::array();
        double flops = 0, seconds = 0;
        for (const Shape& s : stepShapes(cfg, shard, m_len, m_vocab)) {
            const double f = 2.0 * s.m * s.k * s.n;
            // Enough repetitions for ~20 ms per trial at 100 GFLOP/s.
            const int reps = std::clamp(int(2e9 / f), 1, 100000);
            const double g = rate(s, pool, m_threads, reps);
            flops += f * s.count;
            seconds += f * s.count / (g * 1e9);
            rows.push_back({{"product", s.what},
                            {"m", s.m},
                            {"k", s.k},
                            {"n", s.n},
                            {"per_step", s.count},
                            {"gflops", g}});
        }
        json j{{"benchmark", "gemm"},
               {"library", gemmBackend()},
               {"threads", m_threads},
               {"batch_size", m_batch},
               {"seq_len", m_len},
               {"shapes", rows},
               {"step_gflops", flops / seconds / 1e9},
               {"what",
                "GFLOP/s per thread-parallel product chain (each thread multiplies its own "
                "shard's shape, as the trainer does); step_gflops = the step's product FLOPs "
                "over the summed time of its products at these rates (a decoder-only config "
                "counts no cross-attention)"}};
        ctx.out << jsonText(j, 2) << "\n";
    }

private:
    std::string m_config;
    int m_batch = 32, m_len = 32, m_threads = 1, m_vocab = 1000;
};

}  // namespace

std::unique_ptr<Command> makeBenchGemmCommand() {
    return std::make_unique<BenchGemmCommand>();
}

}  // namespace attnviz::cli
