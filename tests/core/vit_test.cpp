// SPDX-License-Identifier: GPL-3.0-or-later
// Vision Transformers (arch "vit", docs/model-spec.md 3.10): configuration, tensors,
// checkpoints, the forward pass's properties, training and evaluation on images.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "core/evaluate.h"
#include "core/head_stats.h"
#include "core/image_set.h"
#include "core/safetensors.h"
#include "core/trainer.h"
#include "core/training_job.h"
#include "test_util.h"
#include "tests/expect.h"

using namespace attnviz;

namespace {

std::string configError(const std::string& json) {
    return test::errorOf([&] { ModelConfig::fromJsonText(json); });
}

Model vit(const std::string& extra = "", uint64_t seed = 1) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 2,
            "image_size": 8, "patch": 2, "classes": 3)" +
        extra + "}");
    return Model::initializeImages(cfg, {"a", "b", "c"}, seed);
}

std::vector<uint8_t> randomImages(int n, int size, uint64_t seed) {
    Rng r(seed);
    std::vector<uint8_t> px(size_t(n * size * size));
    for (auto& p : px) p = uint8_t(r.below(256));
    return px;
}

// Image `img` [S²] with patches a and b (grid indices) exchanged.
std::vector<uint8_t> swapPatches(std::vector<uint8_t> img, int S, int P, int a, int b) {
    const int G = S / P;
    for (int y = 0; y < P; ++y)
        for (int x = 0; x < P; ++x)
            std::swap(img[size_t(((a / G) * P + y) * S + (a % G) * P + x)],
                      img[size_t(((b / G) * P + y) * S + (b % G) * P + x)]);
    return img;
}

}  // namespace

TEST(VitConfig, DefaultsAndResolvedForm) {
    const ModelConfig c = ModelConfig::fromJsonText(R"({"arch": "vit"})");
    EXPECT_TRUE(c.isVision());
    EXPECT_FALSE(c.hasEncoder());
    EXPECT_EQ(c.imageSize, 28);
    EXPECT_EQ(c.patch, 4);
    EXPECT_EQ(c.gridSize(), 7);
    EXPECT_EQ(c.patchCount(), 49);
    EXPECT_EQ(c.positions(), 50);
    EXPECT_EQ(c.maxLen, 50);
    EXPECT_EQ(c.encLayers, 4);
    EXPECT_EQ(c.decLayers, 0);
    const nlohmann::json j = c.toJson();
    EXPECT_EQ(j["pool"], "cls");
    EXPECT_EQ(j["max_len"], 50);
    EXPECT_FALSE(j.contains("dec_layers"));
    EXPECT_FALSE(j.contains("decoder_self"));
    EXPECT_EQ(ModelConfig::fromJson(j), c);  // the resolved form reads back as itself
    const ModelConfig mean = ModelConfig::fromJsonText(R"({"arch": "vit", "pool": "mean"})");
    EXPECT_EQ(mean.positions(), 49);
    EXPECT_EQ(mean.maxLen, 49);
}

TEST(VitConfig, EveryErrorIsNamed) {
    EXPECT_HAS(configError(R"({"arch": "vit", "patch": 5})"), "'patch' (5) must divide");
    EXPECT_HAS(configError(R"({"arch": "vit", "patch": 0})"), "'patch' must be between 1 and 28");
    EXPECT_HAS(configError(R"({"arch": "vit", "pool": "max"})"), "\"cls\" or \"mean\"");
    EXPECT_HAS(configError(R"({"arch": "vit", "max_len": 64})"), "number of positions (50");
    EXPECT_HAS(configError(R"({"arch": "vit", "dec_layers": 2})"), "remove 'dec_layers'");
    EXPECT_HAS(configError(R"({"arch": "vit", "cross": {}})"), "remove 'cross'");
    EXPECT_HAS(configError(R"({"arch": "vit", "classes": 1})"), "'classes' must be between 2");
    EXPECT_HAS(configError(R"({"arch": "vit", "image_size": 1024, "patch": 1})"),
               "1048577 positions");
    EXPECT_HAS(configError(R"({"patch": 4})"), "'patch' belongs to arch \"vit\"");
    EXPECT_HAS(configError(R"({"arch": "decoder", "pool": "cls"})"), "'pool' belongs");
    EXPECT_HAS(configError(R"({"arch": "vision"})"), "\"seq2seq\", \"decoder\" or \"vit\"");
    // The 2D readings' own rules (docs/model-spec.md 4.4), named with the block.
    EXPECT_HAS(configError(R"({"arch": "vit", "encoder_self": {"variant": "local", "window": 7}})"),
               "encoder_self: 'window' on a grid of 7×7 patches must be at most 6");
    EXPECT_HAS(configError(R"({"arch": "vit", "encoder_self": {"variant": "mixture",
                                  "components": ["random", "learned_gaussian"]}})"),
               "use \"pool\": \"mean\"");
    EXPECT_HAS(configError(R"({"arch": "vit", "encoder_self": {"variant": "factorized_dense",
                                                              "a": 5, "b": 10}})"),
               "fixed by the patch grid");
    EXPECT_NO_THROW(ModelConfig::fromJsonText(
        R"({"arch": "vit", "encoder_self": {"variant": "mixture", "components": ["dense", "dot"]}})"));
}

// The calibration model of issue 28 (width 64, 4 layers, 4 heads, patch 4, MLP 128): 139,018
// parameters, as PyTorch counts the same model (the issue's "139k").
TEST(VitModel, ParameterCountIsHandComputed) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 64, "heads": 4, "d_ff": 128, "enc_layers": 4})");
    const Model m = Model::initializeImages(cfg, fashionMnistClasses(), 1);
    const int64_t layer = (4 * 64 * 64 + 4 * 64) + (2 * 64 * 128 + 64 + 128) + 4 * 64;
    const int64_t rest = (16 * 64 + 64) + 64 + 50 * 64 + (10 * 64 + 10) + 2 * 64;
    EXPECT_EQ(countParameters(m.parameterInfo()).total, 4 * layer + rest);
    EXPECT_EQ(4 * layer + rest, 139018);
    std::vector<std::string> names;
    for (const auto& p : m.parameterInfo()) names.push_back(p.name);
    for (const char* n :
         {"patch_embed.weight", "patch_embed.bias", "cls_token", "pos_embed", "head.weight",
          "head.bias", "encoder.norm.weight", "encoder.layers.3.self_attn.q_proj.weight"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    for (const char* n :
         {"src_embed.weight", "tgt_embed.weight", "generator.bias", "decoder.norm.weight"})
        EXPECT_EQ(std::find(names.begin(), names.end(), n), names.end()) << n;
}

// A convolutional stem (docs/model-spec.md 3.10): 3 × 3 convolutions of stride 2, one per
// halving, so patch = 2^len; the patch embedding reads the last one's channels. The photos'
// stem [24, 48, 64] on 64 × 64 colour images: counted by hand, and the form written back.
TEST(VitConfig, AStemHalvesTheImageOncePerConvolution) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "image_size": 64, "channels": 3, "patch": 8, "stem": [24, 48, 64],
            "d_model": 64, "heads": 4, "d_ff": 128, "enc_layers": 4, "pool": "mean"})");
    EXPECT_EQ(cfg.patchValues(), 64);
    EXPECT_EQ(cfg.toJson()["stem"], nlohmann::json({24, 48, 64}));
    EXPECT_EQ(ModelConfig::fromJson(cfg.toJson()), cfg);
    EXPECT_FALSE(ModelConfig::fromJsonText(R"({"arch": "vit"})").toJson().contains("stem"));
    const Model m = Model::initializeImages(cfg, clothingPhotoClasses(), 1);
    const int64_t stem = (9 * 3 + 1) * 24 + (9 * 24 + 1) * 48 + (9 * 48 + 1) * 64;
    const int64_t layer = (4 * 64 * 64 + 4 * 64) + (2 * 64 * 128 + 64 + 128) + 4 * 64;
    const int64_t rest = (64 * 64 + 64) + 64 * 64 + (10 * 64 + 10) + 2 * 64;
    EXPECT_EQ(countParameters(m.parameterInfo()).total, stem + 4 * layer + rest);
    EXPECT_EQ(stem, 38800);
    for (const auto& [json, said] : std::vector<std::pair<std::string, std::string>>{
             {R"("stem": [], "patch": 1)", "'stem' must be a list of 1 to 5"},
             {R"("stem": "wide", "patch": 2)", "'stem' must be a list of 1 to 5"},
             {R"("stem": [8, 8, 8, 8, 8, 8], "patch": 64, "image_size": 64)",
              "1 to 5 channel counts (3 × 3 convolutions of stride 2), got an array of 6"},
             {R"("stem": [8], "image_size": 64)",
              "a 'stem' of 1 convolution of stride 2 makes patches of 2 pixels: 'patch' must be "
              "2, got 4 (its default)"},
             {R"("stem": [0], "patch": 2)", "integers from 1 to 1024, got 0"},
             {R"("stem": [8.5], "patch": 2)", "integers from 1 to 1024, got 8.5"},
             {R"("stem": [8, 16], "patch": 8, "image_size": 64)", "'patch' must be 4, got 8"}})
        EXPECT_NE(configError(R"({"arch": "vit", )" + json + "}").find(said), std::string::npos)
            << json << ": " << configError(R"({"arch": "vit", )" + json + "}");
    EXPECT_NE(configError(R"({"arch": "decoder", "stem": [8]})").find("belongs to arch \"vit\""),
              std::string::npos);
}

TEST(VitModel, ForwardGivesOneRowOfLogitsPerImageAndCapturesEveryLayer) {
    Model m = vit();
    const Batch b = Batch::images(randomImages(3, 8, 1), {0, 1, 2}, m.config().positions());
    const ForwardResult r = m.forward(b, true);
    EXPECT_EQ(r.logits.rows(), 3);
    EXPECT_EQ(r.logits.cols(), 3);
    EXPECT_EQ(r.tokens, 3);  // class 0 counts: no label is ignored
    EXPECT_TRUE(std::isfinite(r.loss()));
    ASSERT_EQ(r.blocks.size(), 2u);
    ASSERT_EQ(r.blocks[0].weights.size(), 3u * 2u);
    EXPECT_EQ(r.blocks[0].weights[0].rows(), 17);  // 16 patches and the class token
    EXPECT_EQ(r.blocks[0].weights[0].cols(), 17);
    for (const auto& w : r.blocks[1].weights)
        for (Eigen::Index i = 0; i < w.rows(); ++i) EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-5);
    // A batch of the wrong image size is refused, not read out of range.
    const Batch wrong = Batch::images(randomImages(2, 7, 1), {0, 1}, m.config().positions());
    EXPECT_HAS(test::errorOf([&] { m.forward(wrong, false); }), "2 images of 8×8 pixels");
    EXPECT_HAS(test::errorOf([&] { m.analyze("a text"); }), "takes an image, not a text");
}

// Without position embeddings, dot attention and both poolings are blind to the patches'
// order: exchanging two patches of the image leaves the logits unchanged. With them, it does
// not. (A patch cut wrongly would make the two exchanged images differ in content.)
TEST(VitModel, PositionsAreTheOnlyOrderInformation) {
    for (const std::string pool : {"cls", "mean"}) {
        Model m = vit(R"(, "pool": ")" + pool + "\"");
        const std::vector<uint8_t> img = randomImages(1, 8, 2);
        const std::vector<uint8_t> swapped = swapPatches(img, 8, 2, 1, 14);
        ASSERT_NE(img, swapped);
        auto logits = [&](const std::vector<uint8_t>& px) {
            return m.forward(Batch::images(px, {0}, m.config().positions()), false).logits;
        };
        EXPECT_GT((logits(img) - logits(swapped)).cwiseAbs().maxCoeff(), 1e-4) << pool;
        m.params().at("pos_embed").m.setZero();
        EXPECT_LT((logits(img) - logits(swapped)).cwiseAbs().maxCoeff(), 1e-5) << pool;
    }
}

TEST(VitModel, CheckpointRoundTripsBitForBit) {
    Model m = vit(R"(, "encoder_self": {"variant": "random", "trainable": false})");
    const std::string path = test::tempPath("vit.safetensors");
    m.save(path);
    Model back = Model::load(path);
    EXPECT_EQ(back.config(), m.config());
    EXPECT_EQ(back.classNames(), (std::vector<std::string>{"a", "b", "c"}));
    for (const auto& [name, t] : m.params()) EXPECT_EQ(back.params().at(name).m, t.m) << name;
    const Batch b = Batch::images(randomImages(2, 8, 3), {1, 2}, m.config().positions());
    EXPECT_EQ(back.forward(b, false).logits, m.forward(b, false).logits);

    SafeTensorsFile f = m.toSafeTensors();
    f.metadata["classes"] = R"(["a", "b"])";
    EXPECT_HAS(test::errorOf([&] { Model::fromSafeTensors(f); }), "JSON array of 3 names");
    f.metadata["classes"] = R"(["a", "b", "a"])";
    EXPECT_HAS(test::errorOf([&] { Model::fromSafeTensors(f); }), "'a' repeats");
    f.metadata.erase("classes");
    EXPECT_HAS(test::errorOf([&] { Model::fromSafeTensors(f); }), "'classes' is missing");
    f = m.toSafeTensors();
    f.metadata["src_vocab"] = "[]";
    EXPECT_HAS(test::errorOf([&] { Model::fromSafeTensors(f); }), "no 'src_vocab'");
    f = m.toSafeTensors();
    f.tensors.erase("cls_token");
    EXPECT_HAS(test::errorOf([&] { Model::fromSafeTensors(f); }), "missing tensor 'cls_token'");
}

// Dark images are class 0, bright ones class 1, grey ones class 2: a few Adam steps learn it,
// and the evaluation's confusion matrix adds up.
TEST(VitTraining, LearnsBrightnessAndCountsTheConfusion) {
    Model m = vit();
    std::vector<Example> data;
    Rng r(7);
    for (int i = 0; i < 96; ++i) {
        Example e;
        e.label = i % 3;
        const int base = e.label == 0 ? 0 : e.label == 1 ? 190 : 95;
        for (int p = 0; p < 64; ++p) e.pixels.push_back(uint8_t(base + int(r.below(60))));
        data.push_back(e);
    }
    TrainOptions o;
    o.lr = 3e-3;
    o.warmup = 0;
    o.schedule = "constant";
    o.dropout = 0;
    o.threads = 2;
    Trainer t(m, o);
    const Classification before = classifyImages(m, data, 32);
    for (int s = 0; s < 30; ++s)
        t.step(std::vector<Example>(data.begin() + (s % 3) * 32, data.begin() + (s % 3 + 1) * 32));
    const Classification after = classifyImages(m, data, 32);
    EXPECT_LT(after.loss, before.loss * 0.5);
    EXPECT_EQ(after.accuracy(), 1.0);
    long total = 0;
    for (const auto& row : after.confusion)
        for (int x : row) total += x;
    EXPECT_EQ(total, 96);
    EXPECT_EQ(after.confusion[1][1], 32);
    const nlohmann::json j = after.toJson(m.classNames());
    EXPECT_EQ(j["class_accuracy"].size(), 3u);
    EXPECT_EQ(j["classes"][2], "c");
    // A text example in an image batch is refused by name.
    Example text;
    text.tgt = {"a"};
    EXPECT_HAS(test::errorOf([&] { t.step({text}); }), "is not a labelled 8×8 image");
}

TEST(VitTraining, JobsCheckTaskAndArchitecture) {
    JobSpec s;
    s.task = "fashion-mnist";
    s.configJson = nlohmann::json::parse(R"({"arch": "decoder"})");
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "needs an image model");
    s.configJson = nlohmann::json::parse(R"({"arch": "vit", "image_size": 32})");
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }),
               "task 'fashion-mnist' has 28×28 grayscale images of 10 classes; the model takes "
               "32×32 grayscale images of 10 classes");
    s.configJson = nlohmann::json::parse(R"({"arch": "vit", "channels": 3})");
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "28×28 colour images of 10 classes");
    s.task = "clothing-photos";
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "has 64×64 colour images");
    s.configJson = nlohmann::json::parse(R"({"arch": "vit", "image_size": 64, "channels": 3})");
    EXPECT_NO_THROW(validateJobSpec(s));
    s.task = "fashion-mnist";
    s.configJson = nlohmann::json::parse(R"({"arch": "vit"})");
    EXPECT_NO_THROW(validateJobSpec(s));
    s.task = "copy";
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "needs a seq2seq model");
}

namespace {

// The mean attention distance (docs/model-spec.md 4.4) a hard-coded 2D Gaussian head at
// offset (dr, dc) with width sigma must have on the 7 × 7 grid of 4-pixel patches, from the
// formula alone in double precision (its weights do not depend on the image): each row the
// density over the patch keys, renormalised, times the keys' pixel distances, averaged.
double analyticGaussianDistancePx(double dr, double dc, double sigma) {
    const int G = 7, P = 4;
    double total = 0;
    for (int q = 0; q < G * G; ++q) {
        double sum = 0, dist = 0;
        for (int t = 0; t < G * G; ++t) {
            const double y = t / G - q / G - dr, x = t % G - q % G - dc;
            const double e = std::exp(-(y * y + x * x) / (2 * sigma * sigma));
            sum += e;
            dist += e * P * std::hypot(double(t / G - q / G), double(t % G - q % G));
        }
        total += dist / sum;
    }
    return total / (G * G);
}

Model gaussianVit(const std::string& block) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 16, "heads": 4, "d_ff": 32, "enc_layers": 1,
            "encoder_self": )" +
        block + "}");
    return Model::initializeImages(cfg, fashionMnistClasses(), 1);
}

}  // namespace

TEST(VitGaussian, DefaultsAreLeftRightAboveBelow) {
    const ModelConfig c =
        ModelConfig::fromJsonText(R"({"arch": "vit", "encoder_self": {"variant": "gaussian"}})");
    EXPECT_EQ(c.encoderSelf.numbers("offsets"), (std::vector<double>{0, -1, 0, 1, -1, 0, 1, 0}));
    EXPECT_HAS(configError(R"({"arch": "vit", "encoder_self": {"variant": "gaussian",
                                                              "offsets": [0, 1, 2]}})"),
               "an even number of numbers, got 3");
}

// The hard-coded 2D Gaussian's weights are the spec's densities; the class token reads the
// mean of the patches and no patch reads it; mean attention distances are the analytic ones.
TEST(VitGaussian, WeightsAndMeanAttentionDistancesAreAnalytic) {
    Model m = gaussianVit(R"({"variant": "gaussian", "offsets": [0, -1, 0, 0, 1, 0, 2, 2]})");
    const ImageAnalysis a = m.analyzeImage(std::vector<uint8_t>(784, 100));
    ASSERT_EQ(a.blocks.size(), 1u);
    const auto& w = a.blocks[0].weights;
    ASSERT_EQ(w.size(), 4u);
    const int G = 7, P = 4;
    for (int hd = 0; hd < 4; ++hd) {
        EXPECT_FLOAT_EQ(float(w[hd](0, 0)), 0.0f);
        EXPECT_FLOAT_EQ(float(w[hd](0, 20)), float(1.0 / 49));
        EXPECT_EQ(w[hd].col(0).sum(), 0.0f);  // no patch attends to the class token
    }
    // Head 0 (left): query patch (3, 3) = position 25; key (3, 2) = position 24 is the centre.
    EXPECT_NEAR(w[0](25, 24), 1.0 / (2 * M_PI), 1e-7);
    EXPECT_NEAR(w[0](25, 25), std::exp(-0.5) / (2 * M_PI), 1e-7);
    EXPECT_NEAR(w[0](25, 17), std::exp(-0.5) / (2 * M_PI), 1e-7);  // (2, 2): d² = 1
    EXPECT_NEAR(w[0](25, 16), std::exp(-1.0) / (2 * M_PI), 1e-7);  // (2, 1): d² = 2
    // Mean distances against the same sums in double, from the formula alone.
    const double off[4][2] = {{0, -1}, {0, 0}, {1, 0}, {2, 2}};
    const PatchGrid grid{G, P, true};
    for (int hd = 0; hd < 4; ++hd)
        EXPECT_NEAR(meanAttentionDistance(w[hd], grid).px,
                    analyticGaussianDistancePx(off[hd][0], off[hd][1], 1.0), 1e-5)
            << "head " << hd;
    // Closed forms with a narrow window (σ = 0.1): a head at offset "left" attends to the left
    // neighbour, 4 px away, from the 42 patches that have one, and to itself from the 7 of
    // the first column: 4 · 42 / 49 px. At offset "self": 0 px.
    Model narrow =
        gaussianVit(R"({"variant": "gaussian", "sigma": 0.1, "offsets": [0, -1, 0, 0]})");
    const ImageAnalysis n = narrow.analyzeImage(std::vector<uint8_t>(784, 7));
    EXPECT_NEAR(meanAttentionDistance(n.blocks[0].weights[0], grid).px, 4.0 * 42 / 49, 1e-4);
    EXPECT_NEAR(meanAttentionDistance(n.blocks[0].weights[1], grid).px, 0.0, 1e-4);
    // Uniform attention over the patches (the class token's row): 14.44 px (the spec's 14.4).
    Mat uniform = Mat::Constant(50, 50, Scalar(1.0 / 49));
    EXPECT_NEAR(meanAttentionDistance(uniform, grid).px, 14.437861767102035, 1e-9);
}

// The default model of the issue (offsets left, right, above, below; σ = 1 patch) over several
// images through AttentionDistances, as `attnviz-cli analyze` averages them: every head equals
// its analytic value (the four are equal by symmetry: a reflection or a transposition of the
// grid maps one offset onto another and keeps distances).
TEST(VitGaussian, DefaultHeadsOverImagesHaveTheAnalyticDistance) {
    Model m = gaussianVit(R"({"variant": "gaussian"})");
    AttentionDistances d(patchGrid(m.config()));
    const std::vector<uint8_t> px = randomImages(3, 28, 5);
    for (int i = 0; i < 3; ++i)
        d.add(m.analyzeImage(std::vector<uint8_t>(px.begin() + i * 784, px.begin() + (i + 1) * 784))
                  .blocks);
    EXPECT_EQ(d.images(), 3);
    const auto heads = d.perHead();
    ASSERT_EQ(heads.size(), 1u);
    ASSERT_EQ(heads[0].size(), 4u);
    const double off[4][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};
    for (int hd = 0; hd < 4; ++hd) {
        const double analytic = analyticGaussianDistancePx(off[hd][0], off[hd][1], 1.0);
        EXPECT_NEAR(heads[0][size_t(hd)].px, analytic, 1e-6) << "head " << hd;
        EXPECT_EQ(heads[0][size_t(hd)].rows, 3 * 49);
        std::printf("gaussian head %d offset (%g, %g): %.9f px, analytic %.9f px\n", hd, off[hd][0],
                    off[hd][1], heads[0][size_t(hd)].px, analytic);
    }
    EXPECT_NEAR(d.perBlock()[0], analyticGaussianDistancePx(0, -1, 1.0), 1e-6);
}

// factorized_dense, local and learned_gaussian on the patch grid (docs/model-spec.md 4.4) in
// whole models: their resolved configurations and checkpoints round-trip, every row sums to 1,
// and under the position-only variants the class token reads the patches' mean while no
// patch reads it. (Hand-computed values: tests/core/attention/grid_test.cpp.)
TEST(VitVariants, RunRoundTripAndKeepTheClassTokenRule) {
    for (const std::string block :
         {R"({"variant": "factorized_dense"})", R"({"variant": "local", "window": 1})",
          R"({"variant": "learned_gaussian", "init_sigma": 0.8})",
          R"({"variant": "mixture", "components": ["factorized_dense", "dot"]})"}) {
        for (const std::string pool : {"cls", "mean"}) {
            SCOPED_TRACE(block + " " + pool);
            Model m = vit(R"(, "pool": ")" + pool + R"(", "encoder_self": )" + block);
            EXPECT_EQ(ModelConfig::fromJson(m.config().toJson()), m.config());
            const std::string path = test::tempPath("vit-variant.safetensors");
            m.save(path);
            Model back = Model::load(path);
            const Batch b = Batch::images(randomImages(2, 8, 5), {0, 2}, m.config().positions());
            const ForwardResult r = m.forward(b, true);
            EXPECT_EQ(back.forward(b, false).logits, r.logits);
            const bool positional = block.find("dense") == std::string::npos;
            for (const auto& blk : r.blocks)
                for (const auto& w : blk.weights) {
                    for (Eigen::Index i = 0; i < w.rows(); ++i)
                        EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-5);
                    if (!positional || pool != "cls") continue;
                    EXPECT_EQ(w(0, 0), 0);
                    EXPECT_NEAR(w(0, 7), 1.0 / 16, 1e-6);
                    EXPECT_EQ(w.col(0).sum(), 0);
                }
        }
    }
    // The 2D tensors: (2w+1)² window logits, a (Δrow, Δcolumn) centre per head, a grid row
    // (and the class token) by a grid column of factors.
    const Model local = vit(R"(, "encoder_self": {"variant": "local", "window": 1})");
    EXPECT_EQ(local.params().at("encoder.layers.0.self_attn.local.logits").shape,
              (std::vector<int64_t>{2, 9}));
    const Model lg = vit(R"(, "encoder_self": {"variant": "learned_gaussian"})");
    EXPECT_EQ(lg.params().at("encoder.layers.1.self_attn.lgauss.mu_shift").shape,
              (std::vector<int64_t>{2, 2}));
    const Model fd = vit(R"(, "encoder_self": {"variant": "factorized_dense"})");
    EXPECT_EQ(fd.params().at("encoder.layers.0.self_attn.fdense.wa.weight").shape,
              (std::vector<int64_t>{2, 5, 8}));
    EXPECT_EQ(fd.params().at("encoder.layers.0.self_attn.fdense.wb.weight").shape,
              (std::vector<int64_t>{2, 4, 8}));
}

// Colour (issue 49, docs/model-spec.md 3.10): "channels" 1 or 3, in the resolved form, and a
// patch embedding of P²·K inputs.
TEST(VitConfig, ChannelsAreOneOrThreeAndWidenThePatchEmbedding) {
    EXPECT_EQ(ModelConfig::fromJsonText(R"({"arch": "vit"})").channels, 1);
    const ModelConfig c = ModelConfig::fromJsonText(
        R"({"arch": "vit", "image_size": 64, "channels": 3, "patch": 8, "pool": "mean"})");
    EXPECT_EQ(c.channels, 3);
    EXPECT_EQ(c.imageBytes(), 64u * 64u * 3u);
    EXPECT_EQ(c.patchValues(), 192);
    EXPECT_EQ(c.toJson()["channels"], 3);
    EXPECT_EQ(ModelConfig::fromJson(c.toJson()), c);
    for (const char* bad : {"0", "2", "4", "-3"})
        EXPECT_HAS(
            configError(std::string(R"({"arch": "vit", "channels": )") + bad + "}"),
            "'channels' must be 1 (grayscale) or 3 (colour: R, G, B), got " + std::string(bad));
    EXPECT_HAS(configError(R"({"arch": "vit", "channels": "3"})"), "'channels'");
    EXPECT_HAS(configError(R"({"arch": "vit", "channels": 3.0})"), "'channels'");
    EXPECT_HAS(configError(R"({"channels": 3})"), "'channels' belongs to arch \"vit\"");
    const Model m = Model::initializeImages(c, clothingPhotoClasses(), 1);
    EXPECT_EQ(m.params().at("patch_embed.weight").shape, (std::vector<int64_t>{64, 192}));
}

// The layout of a patch's values, (y·P + x)·K + k: a colour image whose three values are equal
// everywhere gives the logits of a grayscale model whose patch-embedding column y·P + x is the
// sum of the colour model's columns (y·P + x)·3 + 0, 1, 2 — and only that layout does.
TEST(VitModel, AColourPatchIsItsPixelsValuesTogether) {
    const std::string rest =
        R"("arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 2,
           "image_size": 8, "patch": 4, "classes": 3)";
    Model colour = Model::initializeImages(
        ModelConfig::fromJsonText("{" + rest + R"(, "channels": 3})"), {"a", "b", "c"}, 5);
    Model gray =
        Model::initializeImages(ModelConfig::fromJsonText("{" + rest + "}"), {"a", "b", "c"}, 9);
    for (auto& [name, t] : gray.params())
        if (name != "patch_embed.weight") t.m = colour.params().at(name).m;
    const Mat& wc = colour.params().at("patch_embed.weight").m;  // [16, 48]
    Mat& wg = gray.params().at("patch_embed.weight").m;          // [16, 16]
    for (int i = 0; i < 16; ++i) wg.col(i) = wc.col(3 * i) + wc.col(3 * i + 1) + wc.col(3 * i + 2);
    const std::vector<uint8_t> g = randomImages(1, 8, 4);
    std::vector<uint8_t> rgb;
    for (uint8_t v : g) rgb.insert(rgb.end(), {v, v, v});
    const ImageAnalysis a = colour.analyzeImage(rgb), b = gray.analyzeImage(g);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.logits[size_t(k)], b.logits[size_t(k)], 1e-4);
    // A channel-major layout (k·P² + y·P + x) would pair other columns: the logits differ.
    for (int i = 0; i < 16; ++i) wg.col(i) = wc.col(i) + wc.col(16 + i) + wc.col(32 + i);
    const ImageAnalysis c = gray.analyzeImage(g);
    double diff = 0;
    for (int k = 0; k < 3; ++k) diff += std::abs(a.logits[size_t(k)] - c.logits[size_t(k)]);
    EXPECT_GT(diff, 1e-3);
    // The wrong number of values is refused, naming the shape.
    EXPECT_HAS(test::errorOf([&] { colour.analyzeImage(g); }), "8×8 pixels of 3 values (192)");
}

// The bundled clothing photos (resources/data/clothing-photos) as the task clothing-photos:
// the README's counts, 64×64 RGB, and models that do not fit are refused by name.
TEST(ImageTasks, TheClothingPhotosLoadWithTheirSplitsAndRefuseModelsThatDoNotFit) {
    const ImageTask* t = findImageTask(kClothingPhotosTask);
    ASSERT_NE(t, nullptr);
    EXPECT_TRUE(isImageTask("clothing-photos"));
    const ImageSet train =
        loadClothingPhotos(ATTNVIZ_TEST_DATA "/../../resources/data/clothing-photos", "train");
    EXPECT_EQ(train.size(), 1898u);
    EXPECT_EQ(train.channels, 3);
    EXPECT_EQ(train.imageBytes(), 64u * 64u * 3u);
    EXPECT_EQ(train.pixels.size(), 1898u * 64u * 64u * 3u);
    for (const char* split : {"validation", "test"})
        EXPECT_EQ(
            loadClothingPhotos(ATTNVIZ_TEST_DATA "/../../resources/data/clothing-photos", split)
                .size(),
            406u);
    EXPECT_HAS(test::errorOf([] { loadClothingPhotos("/nonexistent", "train"); }),
               "ATTNVIZ_CLOTHING_PHOTOS");
    EXPECT_HAS(test::errorOf([] {
                   loadClothingPhotos(ATTNVIZ_TEST_DATA "/../../resources/data/clothing-photos",
                                      "dev");
               }),
               "\"train\", \"validation\" and \"test\"");
    const ModelConfig gray = ModelConfig::fromJsonText(R"({"arch": "vit"})");
    EXPECT_HAS(test::errorOf([&] { t->checkModel(gray, "'m.safetensors'"); }),
               "task 'clothing-photos' has 64×64 colour images of 10 classes; 'm.safetensors' "
               "takes 28×28 grayscale images of 10 classes");
    const ModelConfig colour = ModelConfig::fromJsonText(
        R"({"arch": "vit", "image_size": 64, "channels": 3, "patch": 8})");
    EXPECT_NO_THROW(t->checkModel(colour, "m"));
    EXPECT_EQ(imageTaskFor(colour, clothingPhotoClasses()), t);
    EXPECT_EQ(imageTaskFor(gray, fashionMnistClasses()), findImageTask(kFashionMnistTask));
    EXPECT_EQ(imageTaskFor(colour, fashionMnistClasses()), nullptr);
    // The training record's task picks among tasks of one shape and classes: a model trained on
    // the cut-out photos reads those (and a person's photo is cut out for it); a task the record
    // names that the model does not fit, or none, gives the first that fits.
    const ImageTask* cut = findImageTask(kClothingCutoutTask);
    ASSERT_NE(cut, nullptr);
    EXPECT_TRUE(cut->cutOut);
    EXPECT_FALSE(t->cutOut);
    EXPECT_EQ(imageTaskFor(colour, clothingPhotoClasses(), kClothingCutoutTask), cut);
    EXPECT_EQ(imageTaskFor(colour, clothingPhotoClasses(), kClothingPhotosTask), t);
    EXPECT_EQ(imageTaskFor(colour, clothingPhotoClasses(), kFashionMnistTask), t);
    EXPECT_EQ(imageTaskFor(colour, clothingPhotoClasses(), "copy"), t);
    EXPECT_EQ(imageTaskFor(gray, fashionMnistClasses(), kClothingCutoutTask),
              findImageTask(kFashionMnistTask));
    EXPECT_EQ(imageTaskReadBy(colour, {"mine", "yours"}, kClothingCutoutTask), cut);
    // For browsing, a model of a task's shape reads that task's images whatever its classes;
    // a shape no task has reads none, and neither does a text model.
    const std::vector<std::string> own = {"mine", "yours"};
    EXPECT_EQ(imageTaskReadBy(colour, own), t);
    EXPECT_EQ(imageTaskReadBy(gray, own), findImageTask(kFashionMnistTask));
    EXPECT_EQ(imageTaskReadBy(colour, clothingPhotoClasses()), t);
    EXPECT_EQ(
        imageTaskReadBy(ModelConfig::fromJsonText(
                            R"({"arch": "vit", "image_size": 32, "channels": 3, "patch": 8})"),
                        own),
        nullptr);
    EXPECT_EQ(imageTaskReadBy(ModelConfig{}, own), nullptr);
}
