// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_plot.h"

#include <algorithm>
#include <cmath>

#include "render/colormaps.h"
#include "render/figure.h"
#include "render/token_labels.h"

namespace attnviz::ui {
ProfilePlot::ProfilePlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumHeight(80);  // a short bottom dock on a laptop; raised taller at the first click
    plotLayout()->insertRow(0);
    m_title =
        new QCPTextElement(this, QString(), QFont(render::figureFontFamily(), 9, QFont::DemiBold));
    plotLayout()->addElement(0, 0, m_title);
    // Its lines fit the width (fitTitle): its one-line width must not be the plot's minimum.
    m_title->setMinimumSize(QSize(60, 0));
    setTitle(tr("Click a query token to see its weights over the keys"));
    retranslateUi();
    xAxis->setTickLabelRotation(45);
    legend->setVisible(false);
    legend->setFont(QFont(render::figureFontFamily(), 8));
    // The legend beside the plot or below it (placeLegend), never over the data.
    axisRect()->insetLayout()->take(legend);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setRowSpacing(0);
    placeLegend();
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
    return m_caption;
}

void ProfilePlot::setTitle(const QString& text) {
    m_caption = text;
    fitTitle();
}

namespace {

// `parts` joined by `separator` into lines of at most `room` pixels where they fit.
QStringList fillLines(const QStringList& parts, const QString& separator, const QFontMetrics& fm,
                      int room) {
    QStringList lines;
    for (const QString& part : parts) {
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.back() + separator + part) <= room)
            lines.back() += separator + part;
        else
            lines << part;
    }
    return lines;
}

}  // namespace

void ProfilePlot::fitTitle() {
    const QFontMetrics fm(m_title->font());
    const int room = std::max(120, width() - 16);
    QStringList lines;  // broken at " · ", and a part still too wide at its spaces
    for (const QString& line : fillLines(m_caption.split(" · "), " · ", fm, room))
        lines << (fm.horizontalAdvance(line) <= room ? QStringList{line}
                                                     : fillLines(line.split(' '), " ", fm, room));
    const QString shown = lines.join('\n');
    if (m_title->text() == shown) return;
    m_title->setText(shown);
    replot(QCustomPlot::rpQueuedReplot);
}

void ProfilePlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);
    placeLegend();
    fitTitle();
}

void ProfilePlot::placeLegend() {
    const bool below = width() < kLegendBelowWidth;
    // Hidden (no profile), the legend is out of the layout: empty, it capped its column's
    // width, and below a narrow plot that cut the hint to 98 pixels.
    const bool wanted = legend->visible();
    if (m_legendPlaced == wanted && (!wanted || below == m_legendBelow)) return;
    if (m_legendPlaced) {
        plotLayout()->take(legend);
        plotLayout()->simplify();  // the emptied row or column goes
    }
    m_legendPlaced = wanted;
    if (!wanted) {
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_legendBelow = below;
    // Room right of the plot for the last key's slanted label (QCustomPlot leaves out a label
    // that would cross the widget's edge); beside, the legend's column gives it.
    axisRect()->setMinimumMargins(QMargins(0, 0, below ? 48 : 0, 0));
    if (below) {  // two names per row: the plot keeps the width
        plotLayout()->addElement(2, 0, legend);
        plotLayout()->setRowStretchFactor(2, 0.001);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(2);
    } else {  // 6 names per column, then the next: the plot keeps the height
        plotLayout()->addElement(1, 1, legend);
        plotLayout()->setColumnStretchFactor(1, 0.001);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
        legend->setWrap(6);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void ProfilePlot::clearProfile(const QString& message) {
    clearGraphs();
    legend->setVisible(false);
    placeLegend();
    // No axes without data: the message alone, not a dummy 0–1 frame.
    for (QCPAxis* a : {xAxis, yAxis}) {
        a->setVisible(false);
        a->grid()->setVisible(false);
    }
    setTitle(message);
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

void ProfilePlot::showProfile(const Profile& unmarked, bool querySelected) {
    const Profile f = render::markPieces(unmarked);  // "·ation", as in the grid
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
    legend->setVisible(true);
    placeLegend();  // empty still, as it was placed before the graphs came
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
    setTitle(QString::fromStdString(f.title));
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnviz::ui
