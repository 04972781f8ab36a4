// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_plot.h"

#include <algorithm>
#include <cmath>

#include "render/colormaps.h"
#include "render/figure.h"

namespace attnviz::ui {
ProfilePlot::ProfilePlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumHeight(80);  // a short bottom dock on a laptop; raised taller at the first click
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("Click a query token to see its weights over the keys"),
                                 QFont(render::figureFontFamily(), 9, QFont::DemiBold));
    plotLayout()->addElement(0, 0, m_title);
    retranslateUi();
    xAxis->setTickLabelRotation(45);
    legend->setVisible(false);
    legend->setFont(QFont(render::figureFontFamily(), 8));
    // The legend beside the plot, never over the data.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(1, 1, legend);
    plotLayout()->setColumnStretchFactor(1, 0.001);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);  // 6 names per column, then the next
    legend->setWrap(6);
    legend->setRowSpacing(0);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

// The axis title; the title and legend are made again by the owner's showProfile.
void ProfilePlot::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        replot();
    }
    QCustomPlot::changeEvent(event);
}

void ProfilePlot::retranslateUi() {
    //: Axis title of the profile plot: the attention weight
    yAxis->setLabel(tr("weight"));
}

QString ProfilePlot::caption() const {
    return m_title->text();
}

void ProfilePlot::clearProfile(const QString& message) {
    clearGraphs();
    legend->setVisible(false);
    // No axes without data: the message alone, not a dummy 0–1 frame.
    for (QCPAxis* a : {xAxis, yAxis}) {
        a->setVisible(false);
        a->grid()->setVisible(false);
    }
    m_title->setText(message);
    replot(QCustomPlot::rpQueuedReplot);
}

bool ProfilePlot::axesShown() const {
    return xAxis->visible() && yAxis->visible();
}

std::vector<std::vector<int>> ProfilePlot::coincident(const Profile& f) {
    std::vector<std::vector<int>> groups;
    for (int i = 0; i < int(f.lines.size()); ++i) {
        const auto& y = f.lines[size_t(i)].second;
        auto same = [&](const std::vector<int>& g) {
            const auto& z = f.lines[size_t(g.front())].second;
            if (z.size() != y.size()) return false;
            for (size_t j = 0; j < y.size(); ++j)
                if (!(std::abs(z[j] - y[j]) <= kSameWithin)) return false;  // NaN: never the same
            return true;
        };
        const auto it = std::find_if(groups.begin(), groups.end(), same);
        if (it == groups.end())
            groups.push_back({i});
        else
            it->push_back(i);
    }
    return groups;
}

QString ProfilePlot::groupName(const QStringList& names) {
    if (names.size() <= 3) return names.join(" = ");
    //: Profile legend: lines identical to the first are drawn once; %1 the first line's
    //: name, %2 how many others are the same, e.g. "head 0 and 10 more, identical"
    return tr("%1 and %2 more, identical").arg(names.front()).arg(names.size() - 1);
}

void ProfilePlot::showProfile(const Profile& f, bool querySelected) {
    clearGraphs();
    if (f.lines.empty()) {
        clearProfile(!querySelected ? tr("Click a query token to see its weights over the keys")
                                    : tr("No model has this block for the selected query"));
        return;
    }
    for (QCPAxis* a : {xAxis, yAxis}) {
        a->setVisible(true);
        a->grid()->setVisible(true);
    }
    double top = 0;
    size_t longest = 0;
    // Identical lines (e.g. heads with the same Gaussian) would hide each other: each set is
    // drawn once, its legend entry naming them all.
    for (const auto& group : coincident(f)) {
        QStringList names;
        for (int k : group) names << QString::fromStdString(f.lines[size_t(k)].first);
        const auto& y = f.lines[size_t(group.front())].second;
        QCPGraph* g = addGraph();
        g->setName(groupName(names));
        // Colour and dash pattern differ between neighbours (readable without colour);
        // the markers too.
        const int i = graphCount() - 1;
        g->setPen(QPen(render::lineColor(i), 2, render::lineStyle(i)));
        static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle,
                                                               QCPScatterStyle::ssSquare,
                                                               QCPScatterStyle::ssTriangle,
                                                               QCPScatterStyle::ssDiamond,
                                                               QCPScatterStyle::ssCross,
                                                               QCPScatterStyle::ssPlus,
                                                               QCPScatterStyle::ssTriangleInverted,
                                                               QCPScatterStyle::ssStar};
        g->setScatterStyle(QCPScatterStyle(shapes[i % 8], 6));
        for (size_t j = 0; j < y.size(); ++j) {
            g->addData(double(j), y[j]);
            top = std::max(top, y[j]);
        }
        longest = std::max(longest, y.size());
    }
    legend->setVisible(true);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t j = 0; j < f.keys.size(); ++j)
        ticker->addTick(double(j), QString::fromStdString(f.keys[j]));
    xAxis->setTicker(ticker);
    xAxis->setRange(-0.5, double(longest) - 0.5);
    yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    m_title->setText(QString::fromStdString(f.title));
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnviz::ui
