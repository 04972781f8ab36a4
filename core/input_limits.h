// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one entry point for reading files and JSON that a user (or an attacker) supplies, and
// the limits that keep a hostile input from exhausting the stack, the memory or the
// terminal. Every limit is listed, with its value and its message, in docs/limits.md.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace attnviz {

// Deepest nesting of arrays and objects accepted in any JSON we read (configurations,
// checkpoint metadata, sessions). Real files nest at most 4 levels.
constexpr int kMaxJsonDepth = 64;
// Largest text read for each kind of input.
constexpr uint64_t kMaxConfigBytes = 1ull << 20;    // model configurations, presets
constexpr uint64_t kMaxSessionBytes = 16ull << 20;  // app sessions
constexpr uint64_t kMaxDataBytes = 256ull << 20;    // TSV / text data, vocabularies, bleu input
// What a data file's examples (or sentences) may occupy in memory once read, counted as
// strings: 8 times the largest file, so that no file within kMaxDataBytes costs more.
constexpr uint64_t kMaxDataMemoryBytes = 8 * kMaxDataBytes;
// Attention over training (core/probe.h): as much as a checkpoint's header may hold.
constexpr uint64_t kMaxProbeBytes = 64ull << 20;
constexpr uint64_t kMaxSentenceListBytes = 64ull << 20;  // the app's sentence lists
// Largest model, counted in weights besides the embeddings (a float each): 1 GiB of floats.
constexpr uint64_t kMaxModelWeights = 256ull << 20;
// Largest model counted with its embeddings: 2 GiB of floats (a checkpoint holds at most 4).
constexpr uint64_t kMaxModelParameters = 512ull << 20;
// Largest memory a training or evaluation request may be estimated to need.
constexpr uint64_t kMaxRequestBytes = 8ull << 30;
// Bounds of counts given on the command line (or by the app).
constexpr int kMaxBatchSize = 65536;
constexpr int kMaxExampleCount = 1000000;  // --held-out, eval --count
constexpr int kMaxJsonIndent = 16;
// Most layers of a stack (enc_layers, dec_layers): layer indices are 0 … kMaxLayers − 1.
constexpr int kMaxLayers = 256;
// Smallest vocabulary a model may be given (train --vocab-size, bench --vocab): the 4 special
// tokens (<pad>, <unk>, <bos>, <eos>: Vocab::specials) and at least one word. Below it every
// word is <unk> and the model learns nothing of its text.
constexpr int kMinVocabSize = 5;

// "~3.2 GB" for a byte count, for "needs ~N GB" messages.
std::string gigabytes(double bytes);

// Longest excerpt of a value or key quoted in an error message.
constexpr size_t kMaxExcerptChars = 40;

// The text of a JSON value as attnviz writes it (files, standard output): a string that is
// not valid UTF-8 (a file name from a file system of another encoding) has its invalid bytes
// replaced by U+FFFD instead of failing the whole write with an exception. The one road for
// the JSON attnviz-cli writes. `indent` -1: compact.
template <class Json>
std::string jsonText(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// Parses `text` as JSON; `what` names the input in errors ("'c.json'", "checkpoint config").
// Error when the text is larger than `maxBytes`, is not valid JSON, nests deeper than
// kMaxJsonDepth, or repeats a key within one object. Never recurses per nesting level.
nlohmann::json parseJson(std::string_view text, const std::string& what,
                         uint64_t maxBytes = kMaxConfigBytes);

// A short description of a value for an error message: scalars as written, cut at
// kMaxExcerptChars; arrays and objects by their type and size only. Never recurses.
std::string excerpt(const nlohmann::json& v);
// What a file that is not a regular file is, from its st_mode: "a directory", "a FIFO
// (named pipe)", "a symbolic link", … for messages such as "'x' is a directory, not a file".
std::string fileKind(unsigned mode);

// A string (a key, a token) cut at kMaxExcerptChars.
std::string excerpt(std::string_view s);
inline std::string excerpt(const std::string& s) {
    return excerpt(std::string_view(s));
}

// The one road for every file attnviz reads (text or bytes: configurations, data, probe
// files, workspaces, sentence lists, checkpoints): the whole of a regular file of at most
// `maxBytes`. Opened without blocking and checked with fstat before any read, so a FIFO, a
// device, a socket or a directory is refused by name at once; a file over the limit is
// refused before it is read (and if it grows while read). Error naming the path and the rule:
// "'<path>' is a FIFO (named pipe), not a file", "'<path>' is larger than the limit for a
// <what> (N bytes read, limit L)". `what` names the kind of input ("configuration").
std::string readTextFile(const std::string& path, uint64_t maxBytes, const std::string& what);

// The same road for a reader that checks a header before it reads the rest (checkpoints): a
// regular file of at most `maxBytes`, opened and checked as readTextFile does (the same
// messages), then read in parts, so a bad header is refused without reading the data.
class InputFile {
public:
    InputFile(const std::string& path, uint64_t maxBytes, const std::string& what);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    uint64_t size() const { return m_size; }  // when opened
    // Reads exactly `n` bytes at `offset` into `out`. Error naming the path when the file
    // ends sooner (it shrank) or a read fails.
    void read(uint64_t offset, void* out, uint64_t n) const;

private:
    int m_fd = -1;
    uint64_t m_size = 0;
    std::string m_path;
};

}  // namespace attnviz
