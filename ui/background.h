// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QThreadPool>

namespace attnviz::ui {

// The threads of the app's background computations: the analysis of a sentence, the docks'
// statistics and fits, pruning (QtConcurrent::run(backgroundPool(), …)). Not Qt's global
// pool: Qt draws with it (image conversion and scaling), and painting waited for the docks'
// fits to finish, seconds on a long sentence (issue 27, item 9). As many threads as cores.
QThreadPool* backgroundPool();

// One thread for in-app training, which runs for minutes and must not hold a thread that an
// analysis is waiting for.
QThreadPool* trainingPool();

}  // namespace attnviz::ui
