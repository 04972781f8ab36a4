// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the tokenizer and the vocabulary (core/tokenizer.h). The input is read
// three ways: as a checkpoint's "tokenizer" JSON (Tokenizer::fromJson: a `kind` that is a
// number, or a non-object, must be an attnviz::Error), as text to tokenize (invalid UTF-8 must
// be an Error), and as a vocabulary file, one word a line (`init --vocab`), stored the way a
// checkpoint stores it (JSON). An attnviz::Error is the expected answer; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);

    // 1. The tokenizer description of a checkpoint.
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) {
        try {
            const attnviz::Tokenizer t = attnviz::Tokenizer::fromJson(j);
            (void)t.toJson().dump();
            (void)t.tokenize("Don't go to the station, 駅へ行かない");
        } catch (const attnviz::Error&) {
        }
    }

    // 2. Text to tokenize, both cases.
    std::vector<std::string> tokens;
    for (const bool lowercase : {true, false}) {
        try {
            tokens = attnviz::Tokenizer(lowercase).tokenize(text);
        } catch (const attnviz::Error&) {
        }
    }

    // 3. A vocabulary file: one word a line, then the checkpoint's JSON of it.
    std::vector<std::string> lines;
    std::string_view rest(text);
    while (!rest.empty()) {
        const size_t nl = rest.find('\n');
        lines.emplace_back(rest.substr(0, nl));
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    for (const auto* words : {&tokens, &lines}) {
        try {
            const attnviz::Vocab v = attnviz::Vocab::fromWords(*words);
            (void)nlohmann::json(v.tokens()).dump();
            const attnviz::Vocab again(v.tokens());
            (void)again.ids(*words);
        } catch (const attnviz::Error&) {
        }
    }
    return 0;
}
