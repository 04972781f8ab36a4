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

// Waits for every background job when it goes out of scope. Each program declares one right
// after its QApplication, so that no job still runs while the application and the libraries'
// static objects are torn down (a sentence analysed at exit crashed in oneDNN's): what
// QCoreApplication does for Qt's global pool.
struct BackgroundJobsFinish {
    BackgroundJobsFinish() = default;
    BackgroundJobsFinish(const BackgroundJobsFinish&) = delete;
    BackgroundJobsFinish& operator=(const BackgroundJobsFinish&) = delete;
    ~BackgroundJobsFinish();
};

}  // namespace attnviz::ui
