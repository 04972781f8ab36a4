// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled models (resources/models): every one loads, says how it was made, has the
// configuration of its file in models/configs, reproduces its recorded held-out metrics
// exactly, and decodes a held-out sentence.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/evaluate.h"
#include "core/presets.h"
#include "core/training_job.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

const fs::path kModels = ATTNVIZ_MODELS_DIR;

std::vector<fs::path> modelsIn(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".safetensors") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::string decode(Model& m, const std::string& text) {
    std::string s;
    for (const auto& t : m.analyze(text).targetTokens)
        if (t != "<bos>") s += (s.empty() ? "" : " ") + t;
    return s;
}

}  // namespace

class BundledModel : public ::testing::TestWithParam<fs::path> {};

TEST_P(BundledModel, MetadataConfigAndHeldOutMetricsHold) {
    const fs::path path = GetParam();
    Model m = Model::load(path.string());
    const auto& t = m.training().raw();
    ASSERT_TRUE(t.is_object()) << path;
    EXPECT_EQ(t["kind"], "trained");
    EXPECT_EQ(t["steps"], 2000);
    EXPECT_FALSE(t["stopped_early"].get<bool>());
    const bool lm = path.parent_path().filename() == "lm";
    EXPECT_EQ(t["task"], lm ? "lm" : "translate");
    // The configuration is that of its file in models/configs.
    const fs::path cfg = kModels / "configs" / (lm ? "lm" : "") / (path.stem().string() + ".json");
    EXPECT_TRUE(m.config() == ModelConfig::fromFile(cfg.string())) << cfg;
    // Its held-out examples, evaluated again, give the recorded metrics (exactly on the
    // machine that trained it; the tolerances allow for other CPUs' float kernels).
    const auto task = makeTask(t["task"].get<std::string>());
    const auto heldOut = taskHeldOut(*task, t["options"]["seed"].get<uint64_t>(), 200);
    const Evaluation ev = evaluate(m, heldOut);
    const auto& rec = t["held_out"];
    EXPECT_NEAR(ev.loss, rec["loss"].get<double>(), 1e-4);
    EXPECT_NEAR(ev.tokenAccuracy, rec["token_accuracy"].get<double>(), 2e-3);
    if (!lm) {
        EXPECT_NEAR(100 * ev.bleu->score, rec["bleu"].get<double>(), 0.5);
        EXPECT_NEAR(ev.bestAer()->aer, rec["best_aer"]["aer"].get<double>(), 5e-3);
        // A held-out sentence decodes to something in the target language.
        const std::string out = decode(m, "she says that the train arrives at the station today .");
        EXPECT_FALSE(out.empty());
        EXPECT_GT(ev.tokenAccuracy, 0.8) << path;  // the weakest, all hard-coded, has 0.91
    } else {
        EXPECT_GT(ev.tokenAccuracy, 0.2) << path;  // chance is 1/148
    }
}

INSTANTIATE_TEST_SUITE_P(All, BundledModel, ::testing::ValuesIn([] {
                             auto v = modelsIn(kModels);
                             for (const auto& p : modelsIn(kModels / "lm")) v.push_back(p);
                             return v;
                         }()),
                         [](const auto& info) {
                             std::string n = info.param.stem().string();
                             for (auto& c : n)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

// One trained model per preset (core/presets.h), with the preset's file name.
TEST(BundledModels, OnePerConfiguration) {
    for (const std::string set : {"", "lm"}) {
        const auto presets = loadPresets((kModels / "configs" / set).string());
        std::vector<std::string> want, have;
        for (const auto& p : presets) want.push_back(fs::path(p.path).stem().string());
        for (const auto& m : modelsIn(kModels / set)) have.push_back(m.stem().string());
        EXPECT_EQ(have, want) << set;
        EXPECT_GE(presets.size(), 4u);
    }
}

// The dot-product baseline translates well enough that its cross-attention aligns words.
TEST(BundledModels, DotProductTranslatesAndAligns) {
    Model m = Model::load((kModels / "01-dot.safetensors").string());
    EXPECT_EQ(decode(m, "I want to go to the station"), "mo volo na de banof te irer");
    const auto& h = m.training().raw()["held_out"];
    EXPECT_GE(h["bleu"].get<double>(), 95.0);
    EXPECT_LE(h["best_aer"]["aer"].get<double>(), 0.1);
}
