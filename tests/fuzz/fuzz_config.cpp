// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as a model configuration (ModelConfig::fromJsonText, the
// reader behind `init --config` and a checkpoint's "config"). An attnviz::Error is the expected
// answer to bad input; any other exception, a crash (deep nesting overflowing the stack) or a
// sanitizer report is a bug, and so is an error message longer than 4 KiB.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/config.h"
#include "core/error.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::ModelConfig c = attnviz::ModelConfig::fromJsonText(text);
        (void)c.toJson().dump();
    } catch (const attnviz::Error& e) {
        // Error messages quote at most a short excerpt of the input (issue 11: a 50 MB
        // unknown key gave a 50 MB error line).
        if (std::strlen(e.what()) > attnviz::fuzz::kMaxMessageBytes)
            attnviz::fuzz::fail("error message of " + std::to_string(std::strlen(e.what())) +
                                " bytes: " + e.what());
    }
    return 0;
}
