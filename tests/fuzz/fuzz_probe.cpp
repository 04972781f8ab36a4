// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as a training probe file (core/probe.h, `render --probe`,
// the app's Film dock) and as a session file (core/session_file.h, the workspace the app
// reopens; issue 27). Both are read through their file readers, as the CLI and the app read
// them. An attnviz::Error with a short message is the expected answer to bad input; for an
// accepted probe every snapshot becomes results as the scrubber shows them.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/probe.h"
#include "core/session_file.h"
#include "fuzz_util.h"

namespace {

void checkMessage(const attnviz::Error& e) {
    if (std::string(e.what()).size() > attnviz::fuzz::kMaxMessageBytes)
        attnviz::fuzz::fail("a message longer than the limit");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const auto r = attnviz::readProbeFile(attnviz::fuzz::writeInput(data, size, ".probe.json"));
        for (const auto& column : attnviz::probeResults(r))
            for (const auto& b : column.analysis.blocks)
                for (const auto& w : b.weights)
                    if (!w.allFinite())
                        attnviz::fuzz::fail("a probe accepted with non-finite weights");
    } catch (const attnviz::Error& e) {
        checkMessage(e);
    }
    try {
        (void)attnviz::readSessionFile(attnviz::fuzz::writeInput(data, size, ".session"));
    } catch (const attnviz::Error& e) {
        checkMessage(e);
    }
    return 0;
}
