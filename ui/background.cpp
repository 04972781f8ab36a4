// SPDX-License-Identifier: GPL-3.0-or-later
#include "background.h"

#include <QThread>
#include <algorithm>

namespace attnviz::ui {

QThreadPool* backgroundPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;  // lives as long as the process: jobs may outlive windows
        p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        p->setObjectName("attnviz background");
        return p;
    }();
    return pool;
}

QThreadPool* trainingPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        p->setObjectName("attnviz training");
        return p;
    }();
    return pool;
}

BackgroundJobsFinish::~BackgroundJobsFinish() {
    backgroundPool()->waitForDone();
    trainingPool()->waitForDone();
}

}  // namespace attnviz::ui
