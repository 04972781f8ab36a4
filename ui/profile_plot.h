// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include "core/selection.h"

namespace attnviz::ui {

// The weights of one query over the keys as lines (the papers' picture of Gaussian windows
// around a word): one line per model (its heads' mean), or one per head of one model.
// Identical lines (heads with the same fixed Gaussian, models with the same hard-coded
// window) are drawn once, the legend naming them together ("head 0 = head 3"): drawn on top of
// each other they would hide all but one, and offsetting them would draw weights that are not
// there. Without a line the plot shows only why (no dummy axes).
class ProfilePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    // Draws a profile (core/selection.h); with no line, says why (no query selected yet, or
    // no model has it).
    void showProfile(const Profile& profile, bool querySelected);
    void clearProfile(const QString& message);
    int lineCount() const { return graphCount(); }  // lines drawn (identical ones once)
    QString caption() const;  // the title on one line (drawn broken into lines to fit)
    bool axesShown() const;   // false while only a message is shown
    // Indices of f.lines in sets of identical lines (within kSameWithin at every key), in
    // the order of their first line.
    static std::vector<std::vector<int>> coincident(const Profile& f);
    static constexpr double kSameWithin = 1e-6;
    // A set's legend entry: "a = b = c", or "a and 11 more, identical" (the other lines'
    // entries tell which are not).
    static QString groupName(const QStringList& names);

protected:
    void changeEvent(QEvent* event) override;        // retranslates on QEvent::LanguageChange
    void resizeEvent(QResizeEvent* event) override;  // the title broken again for the width

private:
    void retranslateUi();
    // Shows `text` as the title, broken at its " · " into lines as wide as the plot allows
    // (beside the grid on a laptop the plot is narrow): one long line would set the width of
    // the plot's column and squeeze the legend beside it out of sight.
    void setTitle(const QString& text);
    void fitTitle();
    // The legend beside the plot, or below it when the plot is narrower than kLegendBelowWidth
    // (names beside a narrow plot would leave it no room).
    void placeLegend();
    static constexpr int kLegendBelowWidth = 560;
    bool m_legendPlaced = false, m_legendBelow = false;
    QCPTextElement* m_title;
    QString m_caption;  // the title as given
};

}  // namespace attnviz::ui
