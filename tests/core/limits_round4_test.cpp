// SPDX-License-Identifier: GPL-3.0-or-later
// Limits that hold (issue 48, items 6, 8 and 9, the engine's side): the class names of a
// checkpoint are checked in linear time; a vocabulary has room for a word; a workspace's
// image keys are in range and a file name holds no NUL; a layer index prints without
// overflow; JSON is written even when a string is not UTF-8.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/attention/attention.h"
#include "core/config.h"
#include "core/error.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "core/safetensors.h"
#include "core/selection.h"
#include "core/session_file.h"
#include "core/tokenizer.h"
#include "core/training_job.h"
#include "test_util.h"

using namespace attnviz;
using nlohmann::json;

namespace {

double secondsOf(const std::function<void()>& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// 65,536 class names of ~200 bytes sharing a long prefix (the slowest to compare): checked
// when a model is made and when a checkpoint is read, in linear time. The quadratic search
// took 11–14 s; linear takes well under a second (the bound is generous for CI).
TEST(LimitsRound4, ManyClassNamesAreCheckedInLinearTime) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 8, "enc_layers": 1,
            "image_size": 8, "patch": 4, "classes": 65536})");
    std::vector<std::string> names;
    for (int i = 0; i < 65536; ++i) names.push_back(std::string(190, 'c') + std::to_string(i));
    std::optional<Model> m;
    const double made = secondsOf([&] { m.emplace(Model::initializeImages(cfg, names, 1)); });
    const SafeTensorsFile f = m->toSafeTensors();
    double read = secondsOf([&] { EXPECT_EQ(Model::fromSafeTensors(f).classNames(), names); });
    EXPECT_LT(made, 3.0);
    EXPECT_LT(read, 3.0);
    // A repeat is still found, and named by an excerpt.
    names.back() = names.front();
    const std::string e = test::errorOf([&] { Model::initializeImages(cfg, names, 1); });
    EXPECT_NE(e.find("repeats"), std::string::npos) << e;
    EXPECT_LT(e.size(), 200u);
}

// The least vocabulary: the special tokens and one word (kMinVocabSize); below it every word
// would be <unk>. The engine refuses it, whoever asks (the CLI, the app).
TEST(LimitsRound4, AVocabularyHasRoomForAWord) {
    EXPECT_EQ(kMinVocabSize, int(Vocab::specials().size()) + 1);
    JobSpec s;
    s.configJson = json::parse(R"({"d_model": 8, "heads": 2, "d_ff": 8, "enc_layers": 1,
                                   "dec_layers": 1, "max_len": 16})");
    s.data = test::tempPath("vocab_min.tsv");
    std::ofstream(s.data) << "a b\tc d\n";
    for (const int v : {INT_MIN, -1, 0, 1, 2, 3, 4}) {
        s.vocabSize = v;
        const std::string e = test::errorOf([&] { validateJobSpec(s); });
        EXPECT_NE(e.find("--vocab-size must be at least 5"), std::string::npos) << v << ": " << e;
    }
    s.vocabSize = kMinVocabSize;
    EXPECT_EQ(test::errorOf([&] { validateJobSpec(s); }), "");
}

// A layer index is shown counted from 1 without overflowing an int.
TEST(LimitsRound4, ALayerIsCountedWithoutOverflow) {
    EXPECT_EQ(counted(0), "1");
    EXPECT_EQ(counted(INT_MAX), "2147483648");
}

// Every integer of a workspace's image object, at and past the edges: in range or refused
// with the key named, never wrapped; a file name with a NUL byte is refused.
TEST(LimitsRound4, AWorkspaceImageIsCheckedKeyByKey) {
    auto withImage = [](const json& image) {
        return json{{"attnviz_session", 1}, {"image", image}}.dump();
    };
    for (const char* key : {"layer", "test_index"}) {
        for (const int64_t v : {int64_t(INT_MAX), int64_t(INT_MAX) + 1, int64_t(-2), int64_t(256),
                                int64_t(INT_MIN)}) {
            const std::string e = test::errorOf([&] {
                parseSessionJson(withImage({{key, v}}), "'w'");
            });
            if (std::string(key) == "test_index" && v >= 0 && v <= INT_MAX) continue;
            EXPECT_NE(e.find(std::string("image.") + key), std::string::npos)
                << key << " " << v << ": " << e;
        }
    }
    EXPECT_EQ(parseSessionJson(withImage({{"layer", 255}}), "'w'").image->layer, 255);
    EXPECT_EQ(parseSessionJson(withImage({{"layer", -1}}), "'w'").image->layer, -1);
    const std::string e = test::errorOf([&] {
        parseSessionJson(withImage({{"file", std::string("a\0b.png", 7)}}), "'w'");
    });
    EXPECT_NE(e.find("image.file"), std::string::npos) << e;
    EXPECT_NE(e.find("NUL"), std::string::npos) << e;
}

// JSON with a string that is not UTF-8 (a file name) is written, the bad bytes replaced.
TEST(LimitsRound4, JsonTextReplacesBytesThatAreNotUtf8) {
    const json j = {{"file", "caf\xe9.png"}};
    EXPECT_THROW((void)j.dump(), json::exception);
    const std::string text = jsonText(j, 2);
    EXPECT_NE(text.find("caf\xef\xbf\xbd.png"), std::string::npos) << text;
    EXPECT_EQ(json::parse(text)["file"], "caf\xef\xbf\xbd.png");
}

namespace {

// The values at the ends of an option's range: its minimum (the next number above it when the
// minimum is exclusive) and its maximum; none for an unbounded end (then the option has no
// range to hold, which VariantOptions.EveryNumberHasAFiniteRange reports).
std::vector<double> rangeEnds(const OptionSpec& o) {
    std::vector<double> ends;
    if (std::isfinite(o.min)) ends.push_back(o.minExclusive ? std::nextafter(o.min, o.max) : o.min);
    if (std::isfinite(o.max)) ends.push_back(o.max);
    return ends;
}

bool allFinite(const std::vector<CapturedBlock>& blocks) {
    for (const auto& b : blocks)
        for (const Mat& w : b.weights)
            if (!w.allFinite()) return false;
    return true;
}

}  // namespace

// Every number option of every variant has a finite range (issue 48 item 8: 'sigma', 'offsets'
// and 'ratio' of the hard-coded Gaussian accepted 1e308, which overflowed once squared).
TEST(VariantOptions, EveryNumberHasAFiniteRange) {
    for (const VariantInfo& v : allVariants())
        for (const OptionSpec& o : v.options) {
            if (o.type != OptionType::Number && o.type != OptionType::Numbers &&
                o.type != OptionType::Integer)
                continue;
            EXPECT_TRUE(std::isfinite(o.min) && std::isfinite(o.max))
                << v.name << "." << o.name << " " << o.rule();
        }
}

// At both ends of every number option's range, a model of that variant (text, and on the
// patch grid where the variant runs there) gives finite weights everywhere, and its checkpoint
// is written and read back with the same configuration.
TEST(VariantOptions, EveryVariantWorksAtTheEndsOfItsRanges) {
    int tried = 0;
    for (const VariantInfo& v : allVariants())
        for (const OptionSpec& o : v.options) {
            if (o.type != OptionType::Number && o.type != OptionType::Numbers) continue;
            for (const double end : rangeEnds(o)) {
                json block = v.example;
                block["variant"] = v.name;
                block[o.name] = o.type == OptionType::Numbers ? json::array({end, end}) : json(end);
                const std::string what = v.name + "." + o.name + " = " + std::to_string(end);
                SCOPED_TRACE(what);
                // In the encoder and in cross-attention ('ratio' is read there), or in the
                // encoder alone when the variant cannot be cross-attention.
                json text{{"d_model", 16},         {"heads", 2},      {"d_ff", 32},
                          {"enc_layers", 1},       {"dec_layers", 1}, {"max_len", 16},
                          {"encoder_self", block}, {"cross", block}};
                try {
                    ModelConfig::fromJsonText(text.dump());
                } catch (const Error&) {
                    text.erase("cross");
                }
                ++tried;
                try {
                    Model m = test::makeModel(text.dump());
                    const Analysis a = m.analyze("the cat sat on the mat", "el gato");
                    EXPECT_TRUE(allFinite(a.blocks));
                    const std::string path = test::tempPath("ends.safetensors");
                    m.save(path);
                    EXPECT_EQ(Model::load(path).config(), m.config());
                    std::remove(path.c_str());
                } catch (const std::exception& e) {
                    ADD_FAILURE() << "text model: " << e.what();
                }

                json image{{"arch", "vit"}, {"d_model", 16},   {"heads", 2},
                           {"d_ff", 32},    {"enc_layers", 1}, {"encoder_self", block}};
                ModelConfig cfg;
                try {
                    cfg = ModelConfig::fromJsonText(image.dump());
                } catch (const Error&) {
                    continue;  // the variant does not run on the patch grid
                }
                try {
                    Model vit = Model::initializeImages(cfg, fashionMnistClasses(), 1);
                    EXPECT_TRUE(allFinite(vit.analyzeImage(std::vector<uint8_t>(784, 100)).blocks));
                } catch (const std::exception& e) {
                    ADD_FAILURE() << "image model: " << e.what();
                }
            }
        }
    EXPECT_GE(tried, 8);  // gaussian sigma, offsets, ratio and learned_gaussian's, both ends
}
