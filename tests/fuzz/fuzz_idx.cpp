// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as an IDX file, plain or gzip (core/idx.h parseIdx), with a
// 1 MiB limit so that a bomb is stopped quickly; then through the file road (readIdx). An
// attnviz::Error is the expected answer to bad input; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/idx.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::IdxArray a = attnviz::parseIdx(bytes, "input", 1u << 20);
        if (a.data.size() != a.elements()) __builtin_trap();  // the reader's own promise
    } catch (const attnviz::Error&) {
    }
    try {
        (void)attnviz::readIdx(attnviz::fuzz::writeInput(data, size, ".idx"), 1u << 20);
    } catch (const attnviz::Error&) {
    }
    return 0;
}
