// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli: the headless command-line tool. All work is in cli/.
#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) {
    return attnviz::cli::run(argc, argv, std::cout, std::cerr);
}
