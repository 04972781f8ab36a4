// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Waiting in UI tests without fixed sleeps: results, layouts and dock changes arrive by
// queued events, late on a loaded machine.
#include <QElapsedTimer>
#include <QTest>

namespace attnviz::ui::test {

// Processes events until pred() holds; false after `ms` milliseconds without.
template <class P>
bool waitUntil(P pred, int ms = 30000) {
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > ms) return false;
        QTest::qWait(10);
    }
    return true;
}

}  // namespace attnviz::ui::test
