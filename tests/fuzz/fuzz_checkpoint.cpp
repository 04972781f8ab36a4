// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes through the safetensors reader and, when they parse,
// through checkpoint validation. Any crash, sanitizer report or out-of-bounds read is a bug;
// an attnviz::Error is the expected answer to bad input.
#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "core/model.h"
#include "core/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const attnviz::SafeTensorsFile f = attnviz::SafeTensorsFile::parse(data, size);
        attnviz::Model m = attnviz::Model::fromSafeTensors(f);
        (void)m.analyze("i want to go to the station");
    } catch (const attnviz::Error&) {
    }
    return 0;
}
