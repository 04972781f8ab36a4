// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli: the headless command-line tool. All work is in cli/.
#include <unistd.h>

#include <iostream>

#include "cli/cli.h"
#include "cli/fd_output.h"
#include "core/file_io.h"

int main(int argc, char** argv) {
    attnviz::removeTemporariesOnTermination();  // Ctrl-C or kill mid-write leaves no temp file
    // Standard output through a buffer that remembers why a write failed (cli/fd_output.h).
    attnviz::cli::FdOutputBuffer buffer(STDOUT_FILENO);
    std::ostream out(&buffer);
    return attnviz::cli::run(argc, argv, out, std::cerr);
}
