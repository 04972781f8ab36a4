// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as the SentencePiece model inside a checkpoint
// (core/sentencepiece_model.h, Tokenizer::sentencePiece; issue 27). The seeds in
// corpus/sentencepiece/ are a model attnviz trained and hostile variants of it. Every input is
// refused with an attnviz::Error or gives a tokenizer that tokenises, labels and decodes text
// without harm: a crash, a sanitizer report (the library reading out of bounds) or another
// exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/sentencepiece_model.h"
#include "core/tokenizer.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::Tokenizer t = attnviz::Tokenizer::sentencePiece(bytes);
        for (const char* text :
             {"Don't go to the station, 駅へ行かない", "ﷺ ㍻ ﬁ Ａ", "  a  b ", "x"}) {
            const auto tokens = t.tokenize(text);
            (void)t.display(tokens);
            (void)t.detokenize(tokens);
        }
        (void)attnviz::Tokenizer::fromJson(t.toJson());
    } catch (const attnviz::Error& e) {
        if (std::string(e.what()).size() > attnviz::fuzz::kMaxMessageBytes)
            attnviz::fuzz::fail("a message longer than the limit");
    }
    return 0;
}
