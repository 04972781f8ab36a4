// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_plot.h"

#include "figure.h"

namespace attnviz::ui {
namespace {

// Distinct, colour-blind-friendly line colours (Okabe-Ito), then repeated darker.
QColor lineColor(int i) {
    static const QColor c[] = {QColor(0, 114, 178),   QColor(213, 94, 0),  QColor(0, 158, 115),
                               QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233),
                               QColor(240, 228, 66),  QColor(0, 0, 0)};
    const QColor base = c[i % 8];
    return i < 8 ? base : base.darker(100 + 40 * (i / 8));
}

}  // namespace

ProfilePlot::ProfilePlot(QWidget* parent) : QCustomPlot(parent) {
    setMinimumHeight(180);
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, "Click a query token to see its weights over the keys",
                                 QFont(figureFontFamily(), 9, QFont::DemiBold));
    plotLayout()->addElement(0, 0, m_title);
    yAxis->setLabel("weight");
    xAxis->setTickLabelRotation(45);
    legend->setVisible(false);
    legend->setFont(QFont(figureFontFamily(), 8));
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);  // 11 models fit in three rows of four
    legend->setWrap(4);
    legend->setBrush(QColor(255, 255, 255, 210));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

QString ProfilePlot::caption() const {
    return m_title->text();
}

void ProfilePlot::clearProfile(const QString& message) {
    clearGraphs();
    legend->setVisible(false);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
    m_title->setText(message);
    replot(QCustomPlot::rpQueuedReplot);
}

void ProfilePlot::showProfile(const Results& results, const ViewState& v, int column) {
    clearGraphs();
    QStringList keys;
    QString query;
    double top = 0;
    int longest = 0;
    auto addLine = [&](const QString& name, const Mat& w, int i) {
        if (i < 0 || i >= w.rows()) return;
        QCPGraph* g = addGraph();
        g->setName(name);
        QPen pen(lineColor(graphCount() - 1), 2);
        g->setPen(pen);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            g->addData(double(j), double(w(i, j)));
            top = std::max(top, double(w(i, j)));
        }
        longest = std::max(longest, int(w.cols()));
    };
    for (int c = 0; c < int(results.size()); ++c) {
        if (column >= 0 && c != column) continue;
        const ColumnResult& r = results[size_t(c)];
        const CapturedBlock* b =
            r.error.isEmpty() ? findBlock(r.analysis, v.kind, v.layer) : nullptr;
        if (!b || v.query < 0) continue;
        const QStringList k = keyTokens(r.analysis, v.kind);
        if (k.size() > keys.size()) keys = k;
        if (query.isEmpty()) query = queryTokens(r.analysis, v.kind).value(v.query);
        if (column < 0) {
            addLine(r.name, headMean(*b), v.query);
        } else {
            for (int h = 0; h < b->heads; ++h)
                addLine(QString("head %1").arg(h), b->weights[size_t(h)], v.query);
        }
    }
    if (!graphCount()) {
        clearProfile(v.query < 0 ? "Click a query token to see its weights over the keys"
                                 : "No model has this block for the selected query");
        return;
    }
    legend->setVisible(true);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int j = 0; j < keys.size(); ++j) ticker->addTick(j, keys[j]);
    xAxis->setTicker(ticker);
    xAxis->setRange(-0.5, longest - 0.5);
    yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    const QString who =
        column >= 0 ? results[size_t(column)].name + ", every head" : "every model, mean of heads";
    m_title->setText(QString("Query %1 \"%2\" · %3 L%4 · %5")
                         .arg(v.query)
                         .arg(query, kindLabel(v.kind))
                         .arg(v.layer)
                         .arg(who));
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnviz::ui
