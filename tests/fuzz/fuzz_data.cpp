// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as a training/evaluation data file (core/data.h loadData),
// read both as a seq2seq TSV and as a language-model text file, then a vocabulary built from
// it. An attnviz::Error is the expected answer to bad input; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data.h"
#include "core/error.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = attnviz::fuzz::writeInput(data, size, ".tsv");
    const attnviz::Tokenizer tok(true);
    for (const bool seq2seq : {true, false}) {
        try {
            attnviz::LoadedData d = attnviz::loadData(path, seq2seq, tok, 64);
            std::vector<std::vector<std::string>> sentences;
            for (const auto& e : d.examples) {
                sentences.push_back(e.src);
                sentences.push_back(e.tgt);
            }
            (void)attnviz::buildVocab(sentences, 200);
            (void)attnviz::describeSkipped(d);
            std::vector<attnviz::Example> heldOut;
            attnviz::splitHeldOut(d.examples, heldOut, 0.1);
        } catch (const attnviz::Error&) {
        }
    }
    return 0;
}
