// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes through the safetensors reader and, when they parse,
// through checkpoint validation. Any crash, sanitizer report or out-of-bounds read is a bug;
// an attnviz::Error with a message of at most 4 KiB is the expected answer to bad input.
// The same bytes then go through `attnviz-cli info` in process, which prints the metadata
// (issue 11: a deep "training" value crashed `info` only).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "cli/cli.h"
#include "core/error.h"
#include "core/model.h"
#include "core/safetensors.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const attnviz::SafeTensorsFile f = attnviz::SafeTensorsFile::parse(data, size);
        attnviz::Model m = attnviz::Model::fromSafeTensors(f);
        (void)m.analyze("i want to go to the station");
    } catch (const attnviz::Error& e) {
        // Error messages quote at most a short excerpt of the input (issue 11).
        if (std::strlen(e.what()) > attnviz::fuzz::kMaxMessageBytes)
            attnviz::fuzz::fail("error message of " + std::to_string(std::strlen(e.what())) +
                                " bytes: " + e.what());
    }
    const std::string& path = attnviz::fuzz::writeInput(data, size, ".safetensors");
    const char* const argv[] = {"attnviz-cli", "info", "--model", path.c_str()};
    std::ostringstream out, err;
    const int code = attnviz::cli::run(4, argv, out, err);
    if (code != 0 && code != 1)
        attnviz::fuzz::fail("info exited " + std::to_string(code) + ": " +
                            err.str());  // not a usage error: the arguments are fixed
    return 0;
}
