// SPDX-License-Identifier: GPL-3.0-or-later
// The limits on what a user's file may hold (docs/limits.md): nesting, size, repeated keys,
// bounded excerpts, special files.
#include "core/input_limits.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <thread>

#include "core/error.h"
#include "core/probe.h"
#include "core/safetensors.h"
#include "core/session_file.h"
#include "core/training_info.h"
#include "test_util.h"

namespace attnviz {
namespace {

std::string parseError(const std::string& text, uint64_t maxBytes = kMaxConfigBytes) {
    return test::errorOf([&] { parseJson(text, "input", maxBytes); });
}

TEST(InputLimits, NestingIsBoundedWithoutRecursion) {
    const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
    EXPECT_TRUE(parseJson(ok, "input").is_array());
    const std::string over = "[" + ok + "]";
    EXPECT_NE(parseError(over).find("deeper than 64 levels"), std::string::npos);
    // Issue 11, defect 1: 300,000 levels (the crash input) and an unfinished 50,000.
    EXPECT_NE(parseError(std::string(300000, '[') + std::string(300000, ']'), 1 << 21)
                  .find("deeper than"),
              std::string::npos);
    EXPECT_NE(parseError("{\"d_model\":" + std::string(50000, '[')).find("deeper than"),
              std::string::npos);
}

TEST(InputLimits, RepeatedKeysAndSizeAreRefused) {
    EXPECT_NE(parseError(R"({"a": 1, "b": {"a": 2, "a": 3}})").find("repeats the key 'a'"),
              std::string::npos);
    EXPECT_TRUE(parseJson(R"([{"a": 1}, {"a": 2}])", "input").is_array());
    EXPECT_NE(parseError("[1, 2, 3]", 4).find("limit is 4 bytes"), std::string::npos);
    EXPECT_NE(parseError("{").find("not valid JSON"), std::string::npos);
}

TEST(InputLimits, ExcerptsAreShortAndNeverSerialiseContainers) {
    EXPECT_EQ(excerpt(nlohmann::json::parse("[[1],[2]]")), "an array of 2 elements");
    EXPECT_EQ(excerpt(nlohmann::json::parse(R"({"a": [1]})")), "an object of 1 keys");
    EXPECT_EQ(excerpt(nlohmann::json(5)), "5");
    const std::string long_(5000, 'k');
    EXPECT_LT(excerpt(long_).size(), 50u);
    EXPECT_LT(excerpt(nlohmann::json(long_)).size(), 52u);
    // Cut at a character boundary: the excerpt stays valid UTF-8.
    std::string accents;
    for (int i = 0; i < 40; ++i) accents += "é";
    EXPECT_NO_THROW(nlohmann::json(excerpt(accents)).dump());
}

TEST(InputLimits, SpecialAndOversizedFilesAreRefusedByName) {
    EXPECT_NE(test::errorOf([] {
                  readTextFile("/dev/zero", 100, "configuration");
              }).find("'/dev/zero' is a character device"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { readTextFile("/", 100, "configuration"); }).find("a directory"),
              std::string::npos);
    const std::string fifo = ::testing::TempDir() + "attnviz_limits_fifo";
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(test::errorOf([&] { readTextFile(fifo, 100, "data file"); }).find("FIFO"),
              std::string::npos);
    ::unlink(fifo.c_str());
    const std::string big = ::testing::TempDir() + "attnviz_limits_big";
    std::ofstream(big) << std::string(200, 'x');
    EXPECT_NE(test::errorOf([&] {
                  readTextFile(big, 100, "data file");
              }).find("larger than the limit for a data file"),
              std::string::npos);
    EXPECT_EQ(readTextFile(big, 200, "data file").size(), 200u);
}

// ---- One road for every file: probe files, sessions and checkpoints meet the same limits ----

// A reader of one kind of file, and how to make a file of that kind that holds `inner` (a JSON
// value) where the format has a free value, or whose text is exactly `raw`.
struct Road {
    std::string kind;
    std::function<void(const std::string& path)> read;
    std::function<std::string(const std::string& inner)> withValue;
    uint64_t maxBytes;  // the file's size limit
};

std::string writeTemp(const std::string& name, const std::string& bytes) {
    const std::string path = test::tempPath(name);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path;
}

// The checkpoint of a small model with `training` (a JSON text) as its training metadata.
std::string checkpointWith(const std::string& training) {
    Model m = test::makeModel(R"({"d_model": 8, "heads": 2, "d_ff": 16, "enc_layers": 1,
        "dec_layers": 1, "max_len": 16, "encoder_self": {"variant": "dot"},
        "decoder_self": {"variant": "dot"}, "cross": {"variant": "dot"}})");
    SafeTensorsFile f = m.toSafeTensors();
    f.metadata["training"] = training;
    return f.serialize();
}

std::vector<Road> roads() {
    return {
        {"probe file", [](const std::string& p) { readProbeFile(p); },
         [](const std::string& inner) {
             return R"({"format": "attnviz-probe", "version": 1, "model": "m", "every": 1,
                        "probe": {"source": "a", "target": null}, "snapshots": [], "notes": )" +
                    inner + "}";
         },
         kMaxProbeBytes},
        {"session", [](const std::string& p) { readSessionFile(p); },
         [](const std::string& inner) {
             return R"({"attnviz_session": 1, "columns": [], "view": {"notes": )" + inner + "}}";
         },
         kMaxSessionBytes},
        {"checkpoint", [](const std::string& p) { Model::load(p); },
         [](const std::string& inner) { return checkpointWith("{\"notes\": " + inner + "}"); },
         SafeTensorsFile::kMaxFileBytes},
    };
}

std::string errorWithin(const Road& r, const std::string& path, const std::string& fifo = "") {
    return test::errorWithin(r.kind, r.read, path, fifo);  // test_util.h
}

void expectHas(const std::string& error, const std::string& part, const Road& r) {
    EXPECT_NE(error.find(part), std::string::npos)
        << r.kind << ": '" << error << "' should say '" << part << "'";
}

TEST(InputRoad, AFifoOrADeviceIsRefusedByNameWithoutBlocking) {
    for (const Road& r : roads()) {
        const std::string fifo = test::tempPath("road.fifo");
        ::unlink(fifo.c_str());
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        expectHas(errorWithin(r, fifo, fifo), "'" + fifo + "' is a FIFO (named pipe), not a file",
                  r);
        ::unlink(fifo.c_str());
        expectHas(errorWithin(r, "/dev/zero"), "'/dev/zero' is a character device, not a file", r);
        expectHas(errorWithin(r, "/"), "'/' is a directory, not a file", r);
    }
}

TEST(InputRoad, AFileOverItsLimitIsRefusedBeforeItIsRead) {
    for (const Road& r : roads()) {
        // Sparse: 200 MB (or the checkpoint limit and a byte) that take no disk.
        const uint64_t size = std::max<uint64_t>(200'000'000, r.maxBytes + 1);
        const std::string path = test::tempPath("road-huge");
        ::unlink(path.c_str());
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::ftruncate(fd, off_t(size)), 0);
        ::close(fd);
        const auto start = std::chrono::steady_clock::now();
        const std::string error = errorWithin(r, path);
        expectHas(error, "'" + path + "' is larger than the limit for a " + r.kind, r);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2))
            << r.kind << ": the size is checked before reading";
        ::unlink(path.c_str());
    }
}

TEST(InputRoad, DeepNestingInvalidUtf8AndRepeatedKeysGetTheSameMessages) {
    const std::string deep = std::string(10000, '[') + std::string(10000, ']');
    for (const Road& r : roads()) {
        const std::string path = writeTemp("road-deep", r.withValue(deep));
        expectHas(errorWithin(r, path), "nests arrays and objects deeper than 64 levels", r);
        // Bytes that are not UTF-8 inside a string (made after serialising: a checkpoint's
        // writer would refuse them).
        std::string bad = r.withValue(R"("cafQQ")");
        bad.replace(bad.find("cafQQ"), 5, "caf\xe9Q");
        expectHas(errorWithin(r, writeTemp("road-latin1", bad)), "is not valid JSON", r);
        expectHas(errorWithin(r, writeTemp("road-latin1", bad)), "ill-formed UTF-8", r);
        const std::string twice = r.withValue(R"({"a": 1, "a": 2})");
        expectHas(errorWithin(r, writeTemp("road-twice", twice)),
                  "repeats the key 'a' in one object", r);
    }
}

TEST(InputRoad, WrongTypesAreNamedWithTheKey) {
    const auto probe = [](const std::string& every) {
        return R"({"format": "attnviz-probe", "version": 1, "model": "m", "every": )" + every +
               R"(, "probe": {"source": "a", "target": null}, "snapshots": []})";
    };
    EXPECT_NE(test::errorOf([&] {
                  parseProbeJson(probe(R"("ten")"), "p");
              }).find("'every' must be an integer, got \"ten\""),
              std::string::npos);
    EXPECT_NE(test::errorOf([&] {
                  parseProbeJson(probe("1e300"), "p");
              }).find("'every' must be an integer, got 1e+300"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  parseSessionJson(R"({"attnviz_session": 1, "columns": 5})", "'w'");
              }).find("'w': 'columns' must be an array of strings, got 5"),
              std::string::npos);
    const std::string path =
        writeTemp("road-steps.safetensors", checkpointWith(R"({"steps": "ten"})"));
    EXPECT_NE(test::errorOf([&] { Model::load(path); })
                  .find(": checkpoint training metadata: 'steps' must be an integer of at least 0, "
                        "got \"ten\""),
              std::string::npos);
}

TEST(SessionFile, AFileAsTheAppWroteItOpensAndRoundTrips) {
    // Written by the Qt-based writer (indented, keys sorted, a double written as an integer).
    const std::string qtWritten = R"({
    "attnviz_session": 1,
    "column_configs": [
        null,
        {"arch": "seq2seq", "d_model": 64}
    ],
    "columns": [
        "/m/01-dot.safetensors",
        "/m/09-hc-sa.safetensors"
    ],
    "model_set": "toy",
    "sentence_index": 1,
    "sentences": ["a\tb", "c"],
    "source": "I want to go",
    "target": "",
    "view": {"colormap": "viridis", "layer": 1, "zoom": 1.5}
}
)";
    const SessionFile s = parseSessionJson(qtWritten, "'w'");
    EXPECT_EQ(s.columns,
              (std::vector<std::string>{"/m/01-dot.safetensors", "/m/09-hc-sa.safetensors"}));
    EXPECT_EQ(s.sentences, (std::vector<std::string>{"a\tb", "c"}));
    EXPECT_EQ(s.sentenceIndex, 1);
    EXPECT_EQ(s.source, "I want to go");
    EXPECT_EQ(s.modelSet, "toy");
    ASSERT_EQ(s.columnConfigs.size(), 2u);
    EXPECT_TRUE(s.columnConfigs[0].is_null());
    EXPECT_EQ(s.columnConfigs[1]["d_model"], 64);
    EXPECT_EQ(s.view["zoom"], 1.5);
    EXPECT_EQ(parseSessionJson(sessionJson(s), "again"), s);
    // The oldest files: only the marker and the columns; every other key takes its default.
    const SessionFile old = parseSessionJson(R"({"attnviz_session": 1, "columns": ["x"]})", "o");
    EXPECT_EQ(old.sentenceIndex, -1);
    EXPECT_TRUE(old.view.is_object());
    EXPECT_NE(test::errorOf([] { parseSessionJson("[1, 2]", "'a'"); }).find("'a' is a JSON array"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  parseSessionJson(R"({"attnviz_session": 2})", "'a'");
              }).find("not an attnviz session"),
              std::string::npos);
}

// Image mode's "image" object (issue 28): a test image or a file, the query and the panels'
// settings round trip; every rule broken is refused naming the key.
TEST(SessionFile, TheImageAndItsQueryRoundTripAndBadOnesAreRefused) {
    const SessionFile s = parseSessionJson(
        R"({"attnviz_session": 1, "model_set": "vision", "image": {"test_index": 7,
            "query": "3,4", "layer": 1, "heads": "rollout", "opacity": 0.25,
            "colormap": "magma", "shared_scale": true}})",
        "'w'");
    ASSERT_TRUE(s.image);
    EXPECT_EQ(s.image->testIndex, 7);
    EXPECT_EQ(s.image->query, "3,4");
    EXPECT_EQ(s.image->layer, 1);
    EXPECT_EQ(s.image->heads, "rollout");
    EXPECT_EQ(s.image->opacity, 0.25);
    EXPECT_EQ(s.image->colormap, "magma");
    EXPECT_TRUE(s.image->sharedScale);
    EXPECT_EQ(parseSessionJson(sessionJson(s), "again"), s);
    const SessionFile f = parseSessionJson(
        R"({"attnviz_session": 1, "image": {"file": "shoe.jpg", "invert": "no"}})", "'w'");
    ASSERT_TRUE(f.image);
    EXPECT_EQ(f.image->file, "shoe.jpg");
    EXPECT_EQ(f.image->testIndex, -1);
    EXPECT_EQ(f.image->invert, "no");
    EXPECT_EQ(f.image->query, "pooled");  // defaults
    EXPECT_EQ(f.image->layer, -1);
    // A pasted image: its PNG bytes inside the workspace, round trip (decoded by the app).
    const SessionFile p = parseSessionJson(
        R"({"attnviz_session": 1, "image": {"pasted_png": "iVBORw0KGgoAAAA=", "invert": "yes"}})",
        "'w'");
    ASSERT_TRUE(p.image);
    EXPECT_EQ(p.image->pastedPng, std::string("\x89PNG\r\n\x1a\n\0\0\0", 11));
    EXPECT_EQ(p.image->invert, "yes");
    EXPECT_EQ(parseSessionJson(sessionJson(p), "again"), p);
    EXPECT_NE(sessionJson(p).find("\"pasted_png\": \"iVBORw0KGgoAAAA=\""), std::string::npos);
    {  // larger than the limit: refused before decoding
        const std::string huge(size_t(kMaxPastedPngBytes) / 3 * 4 + 8, 'A');
        const std::string e = test::errorOf([&] {
            parseSessionJson(R"({"attnviz_session": 1, "image": {"pasted_png": ")" + huge + "\"}}",
                             "'w'");
        });
        EXPECT_NE(e.find("of at most 8 MiB"), std::string::npos) << e;
    }
    EXPECT_FALSE(parseSessionJson(R"({"attnviz_session": 1})", "'w'").image);
    EXPECT_EQ(sessionJson(SessionFile()).find("image"), std::string::npos);
    const std::pair<const char*, const char*> bad[] = {
        {R"("image": 3)", "'w': 'image' must be an object, got 3"},
        {R"("image": {"test_index": -2})", "'image.test_index' must be an integer of at least 0"},
        {R"("image": {"test_index": 1.5})", "'image.test_index' must be an integer"},
        {R"("image": {"test_index": 1, "file": "a.png"})",
         "names more than one of a test image, a file and a pasted image"},
        {R"("image": {"file": "a.png", "pasted_png": "iVBORw0KGgo="})",
         "names more than one of a test image, a file and a pasted image"},
        {R"("image": {"pasted_png": "iVBORw0KGgo"})",  // not base64 (length)
         "'image.pasted_png' must be base64 of a PNG image"},
        {R"("image": {"pasted_png": "R0lGODlhAQABAAAAACw="})",  // a GIF's signature
         "'image.pasted_png' must be base64 of a PNG image"},
        {R"("image": {"pasted_png": 7})", "'image.pasted_png' must be base64 of a PNG image"},
        {R"("image": {"invert": "maybe"})",
         "'image.invert' must be auto, yes or no, got \"maybe\""},
        {R"("image": {"query": "3;4"})", "'image.query' must be pooled, cls or a patch ROW,COL"},
        {R"("image": {"query": "-1,2"})", "'image.query' must be pooled, cls or a patch ROW,COL"},
        {R"("image": {"layer": -2})", "'image.layer' must be an integer of at least -1"},
        {R"("image": {"heads": "0,1"})", "'image.heads' must be all, mean or rollout"},
        {R"("image": {"opacity": 1.5})", "'image.opacity' must be a number from 0 to 1"},
        {R"("image": {"colormap": 5})", "'image.colormap' must be a string"},
        {R"("image": {"shared_scale": "yes"})", "'image.shared_scale' must be true or false"},
        {R"("image": {"file": ["a"]})", "'image.file' must be a string"},
    };
    for (const auto& [json, message] : bad) {
        const std::string e = test::errorOf([&] {
            parseSessionJson(std::string(R"({"attnviz_session": 1, )") + json + "}", "'w'");
        });
        EXPECT_NE(e.find(message), std::string::npos) << json << " → " << e;
    }
}

TEST(TrainingInfo, FieldsAreTypedOnceAndUnknownKeysSurviveASave) {
    const std::string path =
        writeTemp("training-info.safetensors",
                  checkpointWith(R"({"kind": "trained", "steps": 2000, "stopped_early": false,
            "task": "translate", "name": "mine", "future_key": {"x": [1, 2]},
            "held_out": {"sentences": 200, "loss": 0.5, "token_accuracy": 0.75, "bleu": 96.5,
                         "best_aer": {"layer": 0, "head": "mean", "aer": 0.08},
                         "source": "task 'translate'"}})"));
    const Model m = Model::load(path);
    const TrainingInfo& t = m.training();
    EXPECT_EQ(t.kind, "trained");
    EXPECT_EQ(t.steps.value_or(-1), 2000);
    EXPECT_EQ(t.stoppedEarly.value_or(true), false);
    EXPECT_EQ(t.task, "translate");
    EXPECT_EQ(t.name, "mine");
    ASSERT_TRUE(t.heldOut);
    EXPECT_EQ(t.heldOut->sentences.value_or(0), 200);
    EXPECT_EQ(t.heldOut->loss.value_or(0), 0.5);
    EXPECT_EQ(t.heldOut->tokenAccuracy.value_or(0), 0.75);
    EXPECT_EQ(t.heldOut->bleu.value_or(0), 96.5);
    EXPECT_EQ(t.heldOut->bestAer.value_or(0), 0.08);
    EXPECT_EQ(t.heldOut->source, "task 'translate'");
    EXPECT_FALSE(t.untrained());
    const std::string again = test::tempPath("training-info-again.safetensors");
    m.save(again);
    EXPECT_EQ(Model::load(again).training().raw()["future_key"],
              nlohmann::json::parse(R"({"x": [1, 2]})"));
    // Absent, and refused.
    EXPECT_FALSE(TrainingInfo::fromJson(nullptr, "t").present());
    EXPECT_TRUE(TrainingInfo::fromJson({{"kind", "random-init"}, {"seed", 3}}, "t").untrained());
    for (const char* bad : {R"([1])", R"({"kind": 5})", R"({"steps": -1})", R"({"name": null})",
                            R"({"stopped_early": "no"})", R"({"held_out": {"bleu": "high"}})",
                            R"({"held_out": {"best_aer": {"aer": []}}})"}) {
        EXPECT_NE(test::errorOf([&] {
                      TrainingInfo::fromJson(nlohmann::json::parse(bad), "t");
                  }).find("t"),
                  std::string::npos)
            << bad;
        EXPECT_FALSE(
            test::errorOf([&] { TrainingInfo::fromJson(nlohmann::json::parse(bad), "t"); }).empty())
            << bad;
    }
}

}  // namespace
}  // namespace attnviz
