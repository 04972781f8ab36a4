// SPDX-License-Identifier: GPL-3.0-or-later
// Every function of the engine that reads a file a user names (issue 27, items 4 and 7): a
// FIFO, /dev/zero and a directory are refused by name at once, and a checkpoint's header is
// checked before its data is read. Each reader runs on another thread so that one that
// blocks or reads without end fails the test instead of hanging it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <thread>

#include "core/config.h"
#include "core/data.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/presets.h"
#include "core/probe.h"
#include "core/safetensors.h"
#include "core/session_file.h"
#include "core/word_alignment.h"
#include "test_util.h"

using namespace attnviz;

namespace {

struct Reader {
    std::string name;
    std::function<void(const std::string& path)> read;
};

std::vector<Reader> readers() {
    const Tokenizer word;
    const std::string tsv = test::tempPath("readers_pairs.tsv");
    std::ofstream(tsv) << "a b\tc d\n";
    return {
        {"configuration", [](const std::string& p) { ModelConfig::fromFile(p); }},
        {"checkpoint", [](const std::string& p) { Model::load(p); }},
        {"safetensors", [](const std::string& p) { SafeTensorsFile::read(p); }},
        {"probe file", [](const std::string& p) { readProbeFile(p); }},
        {"session", [](const std::string& p) { readSessionFile(p); }},
        {"data TSV", [word](const std::string& p) { loadData(p, true, word, 64); }},
        {"data text", [word](const std::string& p) { loadData(p, false, word, 64); }},
        {"data sentences", [](const std::string& p) { dataSentences(p, true); }},
        {"alignment pairs", [tsv](const std::string& p) { loadWordAlignedPairs(p, tsv); }},
        {"alignment links", [tsv](const std::string& p) { loadWordAlignedPairs(tsv, p); }},
        {"text file", [](const std::string& p) { readTextFile(p, kMaxDataBytes, "text file"); }},
    };
}

std::string errorWithin(const Reader& r, const std::string& path, const std::string& fifo = "") {
    return test::errorWithin(r.name, r.read, path, fifo);  // test_util.h
}

std::string sparseFile(const std::string& name, const std::string& head, uint64_t size) {
    const std::string path = test::tempPath(name);
    ::unlink(path.c_str());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, head.data(), head.size()), ssize_t(head.size()));
    EXPECT_EQ(::ftruncate(fd, off_t(size)), 0);
    ::close(fd);
    return path;
}

std::string le64(uint64_t n) {
    std::string s;
    for (int i = 0; i < 8; ++i) s.push_back(char((n >> (8 * i)) & 0xFF));
    return s;
}

}  // namespace

TEST(FileReaders, EveryReaderRefusesAFifoADeviceAndADirectoryAtOnce) {
    for (const Reader& r : readers()) {
        const std::string fifo = test::tempPath("readers.fifo");
        ::unlink(fifo.c_str());
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        EXPECT_NE(errorWithin(r, fifo, fifo).find("is a FIFO (named pipe), not a file"),
                  std::string::npos)
            << r.name;
        ::unlink(fifo.c_str());
        EXPECT_NE(errorWithin(r, "/dev/zero").find("'/dev/zero' is a character device"),
                  std::string::npos)
            << r.name;
        EXPECT_NE(errorWithin(r, "/").find("'/' is a directory"), std::string::npos) << r.name;
    }
}

TEST(FileReaders, APresetFolderWithAFifoOrADeviceLinkIsNotBlocked) {
    const std::string dir = test::tempPath("readers_presets");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ASSERT_EQ(::mkfifo((dir + "/fifo.json").c_str(), 0600), 0);
    const Reader r{"presets", [](const std::string& d) { loadPresets(d); }};
    errorWithin(r, dir, dir + "/fifo.json");  // an error or an empty list, but at once
    std::filesystem::remove_all(dir);
}

// Item 7: a checkpoint just under the size limit with a bad header (sparse: no disk used) is
// refused from its first bytes, without reading the gigabytes behind them.
TEST(FileReaders, ACheckpointHeaderIsCheckedBeforeItsData) {
    const uint64_t size = SafeTensorsFile::kMaxFileBytes - 4096;
    const std::string meta =
        R"({"__metadata__": {"format": "attnviz", "format_version": "1"}, "w": {"dtype": "F32",)"
        R"( "shape": [1024, 1024], "data_offsets": [0, 4194304]}})";
    std::vector<std::pair<std::string, std::string>> cases{
        {le64(20) + "{\"a\": not json     ", "malformed header"},
        {le64(1ull << 40), "oversized header"},
        {le64(meta.size()) + meta, "unused bytes at the end"},
    };
    // Offsets that cover the file exactly, but metadata that is not a checkpoint.
    std::string exact =
        R"({"w": {"dtype": "F32", "shape": [NNNNNNNNNN], "data_offsets": [0, BBBBBBBBBB]}})";
    while ((exact.size() + 8) % 8) exact += ' ';
    const uint64_t data = size - 8 - exact.size();
    ASSERT_EQ(data % 4, 0u);
    exact.replace(exact.find("BBBBBBBBBB"), 10, std::to_string(data));
    exact.replace(exact.find("NNNNNNNNNN"), 10, std::to_string(data / 4));
    cases.push_back({le64(exact.size()) + exact, "not an attnviz checkpoint"});
    for (const auto& [head, message] : cases) {
        const std::string path = sparseFile("readers_sparse.safetensors", head, size);
        const auto start = std::chrono::steady_clock::now();
        const std::string error =
            errorWithin({"checkpoint", [](const std::string& p) { Model::load(p); }}, path);
        const auto took = std::chrono::steady_clock::now() - start;
        EXPECT_NE(error.find(message), std::string::npos) << error;
        EXPECT_LT(took, std::chrono::milliseconds(500)) << message;
        ::unlink(path.c_str());
    }
}

// Item 24: weights that are not finite numbers (1e39 is a float infinity) were drawn.
TEST(FileReaders, AProbeWithNonFiniteNumbersIsRefused) {
    Model m = test::makeModel(R"({"d_model": 8, "heads": 2, "d_ff": 16, "enc_layers": 1,
        "dec_layers": 1, "max_len": 16})");
    ProbeRecorder rec(m, "m", "the cat", std::string("the cat"), 1);
    rec.record(m, 0);
    const std::string good = probeJson(rec.record());
    EXPECT_NO_THROW(parseProbeJson(good, "p"));
    nlohmann::json j = nlohmann::json::parse(good);
    auto& weights = j["snapshots"][0]["dump"]["blocks"][0]["weights"][0][0];
    // (1e999 is refused by the JSON reader itself: a number overflow.)
    for (const std::string bad : {"1e39", "-1e39", "3.5e38", "\"0.5\"", "null", "true"}) {
        nlohmann::json k = j;
        std::string text = k.dump();
        const std::string first = weights[0].dump();
        const std::string at = "\"weights\":[[[" + first;
        const size_t pos = text.find(at);
        ASSERT_NE(pos, std::string::npos);
        text.replace(pos, at.size(), "\"weights\":[[[" + bad);
        const std::string error = test::errorOf([&] { parseProbeJson(text, "p"); });
        EXPECT_NE(error.find("must be a finite number"), std::string::npos) << bad << ": " << error;
    }
    // Past the range of a double the JSON reader refuses, in words (no library tag).
    const std::string text = j.dump();
    const std::string error = test::errorOf([&] {
        parseProbeJson(std::string(text).replace(text.find("\"weights\":[[[") + 13, 1, "1e999,"),
                       "p");
    });
    EXPECT_NE(error.find("p is not valid JSON: number overflow"), std::string::npos) << error;
    EXPECT_EQ(error.find("json.exception"), std::string::npos) << error;
}

// Item 8: a data file within its size limit took 22 times its size in memory (255 MiB of
// one-letter tokens: 5.85 GB). What its examples may take is bounded, and so is the list of
// skipped lines.
TEST(FileReaders, WhatADataFileCostsInMemoryIsBounded) {
    static_assert(kMaxDataMemoryBytes <= 8 * kMaxDataBytes);
    const std::string path = test::tempPath("readers_tiny_tokens.tsv");
    std::string text;
    for (int i = 0; i < 20000; ++i) text += "a b c d\te f g h\n";
    std::ofstream(path) << text;
    const Tokenizer word;
    // 20,000 examples of 8 one-letter tokens: ~8 × 32 bytes each, over 4 MB in memory.
    EXPECT_EQ(loadData(path, true, word, 64).examples.size(), 20000u);
    const std::string error = test::errorOf([&] { loadData(path, true, word, 64, 1 << 20); });
    EXPECT_NE(error.find("would take more than"), std::string::npos) << error;
    EXPECT_NE(
        test::errorOf([&] { dataSentences(path, true, 1 << 20); }).find("would take more than"),
        std::string::npos);
    // 200,000 bad lines: every one counted, a hundred kept to show.
    std::string bad = "a\tb\n";
    for (int i = 0; i < 200000; ++i) bad += "no tab here\n";
    std::ofstream(path) << bad;
    const LoadedData d = loadData(path, true, word, 64);
    EXPECT_EQ(d.skippedLines, 200000);
    EXPECT_EQ(d.skipped.size(), LoadedData::kMaxListedIssues);
    EXPECT_NE(describeSkipped(d).find("200000 of 200001 lines skipped"), std::string::npos);
}
