// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as a saved workspace (ui/session.h Session::load, the
// reader behind `attnviz --session FILE` and the last workspace). Built with Qt Core/Gui only:
// the reader and the view state it restores, no widgets. A false return with a message is the
// expected answer to bad input; a crash, an exception or a sanitizer report is a bug.
#include <QString>
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "ui/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = attnviz::fuzz::writeInput(data, size, ".attnviz-session");
    attnviz::ui::Session s;
    QString error;
    if (attnviz::ui::Session::load(QString::fromStdString(path), &s, &error)) {
        // What the app does next with a session it accepted, short of opening checkpoints.
        (void)(s == attnviz::ui::Session::fromFile(s.toFile()));
    } else if (error.isEmpty()) {
        attnviz::fuzz::fail("session refused without a message");  // issue 11
    }
    return 0;
}
