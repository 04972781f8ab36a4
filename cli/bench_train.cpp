// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bench train: the time of an Adam training step, its rate in tokens and FLOP/s,
// and Eigen's matrix-product rate on the same machine for comparison.
#include <algorithm>
#include <chrono>
#include <map>
#include <ostream>

#include "command.h"
#include "core/attention/attention.h"
#include "core/config.h"
#include "core/error.h"
#include "core/gemm.h"
#include "core/input_limits.h"
#include "core/thread_pool.h"
#include "core/trainer.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class BenchTrainCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::vector<double> timeSteps(const ModelConfig& cfg, const Vocab& vocab,
                                  const std::vector<std::string>& words);

    std::string m_config;
    std::vector<GemmCall> m_products;  // of one step
    int m_batch = 32, m_len = 32, m_steps = 20, m_threads = 1, m_vocab = 1000;
};

// Floating-point operations of one training step (forward and backward, matrix products
// only; backward counted as twice the forward, but once for an image model's first product,
// whose input needs no gradient). N = B*T rows.
double trainingFlops(const ModelConfig& c, int B, int Ts, int Tt, int V) {
    const double d = c.dModel, f = c.dFf;
    auto block = [&](const BlockConfig& bc, double Tq, double Tk) {
        double fl = 2 * B * Tk * d * d + 2 * B * Tq * d * d + 2 * B * Tq * Tk * d;  // V, out, AV
        if (const auto& score = variantInfo(bc.variant).scoreFlops) fl += B * score(bc, Tq, Tk, d);
        return fl;
    };
    auto ffn = [&](double T) { return 4 * B * T * d * f; };
    double fwd = 0;
    if (c.isVision()) {  // stem, patches and classifier; the encoder over the positions
        const double Np = c.patchCount(), N = c.positions();
        const double embed = 2.0 * B * Np * c.patchValues() * d;
        fwd = embed + 2.0 * B * d * c.classes;
        double first = embed;  // the first product's backward has no input gradient: twice
        for (size_t i = 0; i < c.stem.size(); ++i) {  // each output pixel: [9·Cin] · [9·Cin, Cout]
            const double side = double(c.imageSize) / double(2 << i);
            const double conv = 2.0 * B * side * side * 9 * c.stemInputs(i) * c.stem[i];
            fwd += conv;
            if (i == 0) first = conv;
        }
        for (int i = 0; i < c.encLayers; ++i) fwd += block(c.encoderSelf, N, N) + ffn(N);
        return 3 * fwd - first;
    }
    if (c.hasEncoder())
        for (int i = 0; i < c.encLayers; ++i) fwd += block(c.encoderSelf, Ts, Ts) + ffn(Ts);
    for (int i = 0; i < c.decLayers; ++i) {
        fwd += block(c.decoderSelf, Tt, Tt) + ffn(Tt);
        if (c.hasCross(i)) fwd += block(c.cross, Tt, Ts);
    }
    fwd += 2.0 * B * Tt * d * V;
    return 3 * fwd;
}

// Eigen's rate on a large single-precision matrix product, one product per thread at once.
double eigenGemmGflops(int threads) {
    const int n = 1024;
    ThreadPool pool(threads);
    std::vector<Mat> a(size_t(threads), Mat::Random(n, n)), b(size_t(threads), Mat::Random(n, n)),
        c(size_t(threads), Mat(n, n));
    double best = 0;
    for (int rep = 0; rep < 4; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        pool.run(threads, [&](int k) { c[size_t(k)].noalias() = a[size_t(k)] * b[size_t(k)]; });
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * n * n * n * threads / s / 1e9);
    }
    return best;
}

// The step's own products, each timed alone: every distinct product recorded in one step
// (GemmRecorder) run in a loop on scratch operands, by `threads` threads at once as the
// trainer runs its shards. floorMs = the time the step's products take at those rates,
// shared among the threads; the step can be no faster with this library making them.
struct GemmFloor {
    double floorMs = 0, gflop = 0;
    size_t calls = 0, shapes = 0;
    json perShape = json::array();  // each distinct product: shape, count, time alone
};

GemmFloor timeRecordedProducts(const std::vector<GemmCall>& calls, int threads) {
    std::map<GemmCall, int> count;
    for (const GemmCall& c : calls) ++count[c];
    ThreadPool pool(threads);
    GemmFloor f;
    f.calls = calls.size();
    f.shapes = count.size();
    for (const auto& entry : count) {
        const GemmCall& c = entry.first;  // not a structured binding: the lambda below uses it
        const int n = entry.second;
        const size_t aSize = size_t(c.transA ? c.k : c.m) * size_t(c.lda);
        const size_t bSize = size_t(c.transB ? c.n : c.k) * size_t(c.ldb);
        struct Operands {
            std::vector<float> a, b, c;
        };
        std::vector<Operands> ops(
            size_t(threads),
            Operands{std::vector<float>(aSize, 0.5f), std::vector<float>(bSize, 0.25f),
                     std::vector<float>(size_t(c.m) * size_t(c.ldc), 0.f)});
        // ~5 ms per trial at 200 GFLOP/s, the best of five trials.
        const int reps = std::clamp(int(1e9 / c.flops()), 1, 100000);
        double best = 1e300;
        for (int trial = 0; trial < 5; ++trial) {
            const auto t0 = std::chrono::steady_clock::now();
            pool.run(threads, [&](int t) {
                Operands& o = ops[size_t(t)];
                for (int r = 0; r < reps; ++r) replayGemm(c, o.a.data(), o.b.data(), o.c.data());
            });
            best = std::min(best, std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - t0)
                                          .count() /
                                      reps);
        }
        f.floorMs += best * n / threads;
        f.gflop += c.flops() * n / 1e9;
        f.perShape.push_back({{"m", c.m},
                              {"n", c.n},
                              {"k", c.k},
                              {"trans_a", c.transA},
                              {"trans_b", c.transB},
                              {"accumulate", c.accumulate},
                              {"per_step", n},
                              {"us_alone", best * 1000},
                              {"gflops_alone", c.flops() / (best / 1000.0) / 1e9},
                              {"ms_per_step", best * n / threads}});
    }
    return f;
}

CLI::App* BenchTrainCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("train", "Time Adam training steps (JSON)");
    input(c->add_option("--config", m_config, "Model configuration (JSON)"))
        ->required()
        ->check(CLI::ExistingFile);
    addStepSizeOptions(c, m_batch, m_len, m_threads, m_vocab, "Threads");
    c->add_option("--steps", m_steps, "Timed steps")
        ->capture_default_str()
        ->check(integerIn(1, 100000));
    return c;
}

// Milliseconds of each of the --steps Adam steps on random sentences of `words` (the
// words of `vocab`), after three warm-up steps; sorted.
std::vector<double> BenchTrainCommand::timeSteps(const ModelConfig& cfg, const Vocab& vocab,
                                                 const std::vector<std::string>& words) {
    std::vector<std::string> classes;
    for (int k = 0; k < cfg.classes; ++k) classes.push_back(std::to_string(k));
    Model model = cfg.isVision() ? Model::initializeImages(cfg, classes, 1)
                                 : Model::initialize(cfg, vocab, vocab, Tokenizer(true), 1);
    TrainOptions o;
    o.threads = m_threads;
    o.batchSize = m_batch;
    o.dropout = 0;
    o.labelSmoothing = 0;
    o.steps = m_steps;
    o.warmup = 0;
    Trainer trainer(model, o);
    Rng rng(7);
    // Sequences of T positions: T-1 tokens plus <eos> (source) or <bos> (target).
    auto batch = [&] {
        std::vector<Example> b(static_cast<size_t>(m_batch));
        for (auto& e : b) {
            if (cfg.isVision()) {  // random images and labels (--seq-len is ignored)
                e.pixels.resize(cfg.imageBytes());
                for (auto& p : e.pixels) p = uint8_t(rng.below(256));
                e.label = int(rng.below(uint64_t(cfg.classes)));
                continue;
            }
            for (int i = 0; i < m_len - 1; ++i) {
                if (cfg.hasEncoder()) e.src.push_back(words[rng.below(words.size())]);
                e.tgt.push_back(words[rng.below(words.size())]);
            }
        }
        return b;
    };
    for (int i = 0; i < 3; ++i) trainer.step(batch());  // warm-up
    {
        GemmRecorder recorder;  // one more untimed step: its products
        trainer.step(batch());
        m_products = recorder.calls();
    }
    std::vector<double> ms;
    for (int i = 0; i < m_steps; ++i) {
        const auto b = batch();
        const auto t0 = std::chrono::steady_clock::now();
        trainer.step(b);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

void BenchTrainCommand::run(const Context& ctx) {
    const ModelConfig cfg = ModelConfig::fromFile(m_config);
    if (m_len < 2 || m_batch < 1 || m_steps < 1)
        throw Error("bench train needs --seq-len >= 2, --batch-size >= 1, --steps >= 1");
    std::vector<std::string> words;
    for (int i = 0; i < m_vocab - 4; ++i) words.push_back("w" + std::to_string(i));
    const Vocab vocab = Vocab::fromWords(words);
    const std::vector<double> ms = timeSteps(cfg, vocab, words);
    const double median = ms[ms.size() / 2];
    const double flops = trainingFlops(cfg, m_batch, m_len, m_len, vocab.size());
    const double gemm = eigenGemmGflops(m_threads);
    // Images: tokens are the encoder's positions (patches and class token) of every image.
    const double tokens = cfg.isVision() ? double(m_batch) * cfg.positions()
                                         : (cfg.hasEncoder() ? 2.0 : 1.0) * m_batch * m_len;
    const double gflops = flops / (median / 1000.0) / 1e9;
    // Without a library (ATTNVIZ_GEMM=eigen) nothing is recorded: no floor to report.
    const GemmFloor floor =
        m_products.empty() ? GemmFloor{} : timeRecordedProducts(m_products, m_threads);
    auto orNull = [&](double v) { return m_products.empty() ? json() : json(v); };
    json j{{"benchmark", "train"},
           {"config", cfg.toJson()},
           {"batch_size", m_batch},
           {"seq_len", m_len},
           {"vocab", vocab.size()},
           {"threads", m_threads},
           {"optimizer", "adam"},
           {"steps", m_steps},
           {"ms_per_step", median},
           {"ms_min", ms.front()},
           {"tokens_per_s", tokens / (median / 1000.0)},
           {"gflop_per_step", flops / 1e9},
           {"gflops", gflops},
           {"gemm_library", gemmBackend()},
           {"eigen_gemm_gflops", gemm},
           {"fraction_of_gemm", gflops / gemm},
           {"products_per_step", floor.calls},
           {"product_shapes", floor.shapes},
           {"products_gflop", orNull(floor.gflop)},
           {"products_alone_ms", orNull(floor.floorMs)},
           {"products_alone_gflops", orNull(floor.gflop / (floor.floorMs / 1000.0))},
           {"fraction_of_products_alone", orNull(floor.floorMs / median)},
           {"products", floor.perShape},
           {"what",
            "median wall time of an Adam step (forward, backward, update), no dropout; "
            "tokens = source + target positions; FLOPs = matrix products only, backward = 2x "
            "forward; "
            "eigen_gemm_gflops = 1024^3 float products, one per thread at once; "
            "products_alone_ms = the step's own products (recorded in one step, "
            "products_gflop of them) each timed alone in a loop, shared among the threads: "
            "the step at the library's rate for its shapes; fraction_of_products_alone = "
            "that over ms_per_step; products = each distinct one: per_step of them, us_alone each "
            "(best of five loops), ms_per_step = their share of products_alone_ms"}};
    ctx.out << jsonText(j, 2) << "\n";
}

}  // namespace

std::unique_ptr<Command> makeBenchTrainCommand() {
    return std::make_unique<BenchTrainCommand>();
}

}  // namespace attnviz::cli
