// SPDX-License-Identifier: GPL-3.0-or-later
// Limits that hold (issue 48, items 6, 8 and 9, the engine's side): the class names of a
// checkpoint are checked in linear time; a vocabulary has room for a word; a workspace's
// image keys are in range and a file name holds no NUL; a layer index prints without
// overflow; JSON is written even when a string is not UTF-8.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/config.h"
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
