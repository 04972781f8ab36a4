// SPDX-License-Identifier: GPL-3.0-or-later
// The query profile (issue 29): identical lines drawn once and named together in the legend,
// and no dummy axes without a line.
#include "ui/profile_plot.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <limits>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

Profile profileOf(const std::vector<std::pair<std::string, std::vector<double>>>& lines) {
    Profile f;
    f.title = "Query 1 \"cat\"";
    f.keys = {"the", "cat", "sat"};
    f.lines = lines;
    return f;
}

QStringList legendNames(const ProfilePlot& p) {
    QStringList out;
    for (int i = 0; i < p.graphCount(); ++i) out << p.graph(i)->name();
    return out;
}

}  // namespace

TEST(ProfilePlot, IdenticalLinesAreDrawnOnceAndNamedTogether) {
    const std::vector<double> gauss = {0.2, 0.6, 0.2}, other = {0.5, 0.3, 0.2};
    // 0.6 + 1e-9: the same within rounding (kSameWithin); 0.6 + 1e-3: a different line.
    const Profile f = profileOf({{"head 0", gauss},
                                 {"head 1", other},
                                 {"head 2", {0.2, 0.6 + 1e-9, 0.2}},
                                 {"head 3", {0.2, 0.6 + 1e-3, 0.2}}});
    const auto groups = ProfilePlot::coincident(f);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0], (std::vector<int>{0, 2}));
    EXPECT_EQ(groups[1], (std::vector<int>{1}));
    EXPECT_EQ(groups[2], (std::vector<int>{3}));
    ProfilePlot p;
    p.showProfile(f, true);
    EXPECT_EQ(p.lineCount(), 3);
    EXPECT_EQ(legendNames(p), (QStringList{"head 0 = head 2", "head 1", "head 3"}));
    EXPECT_TRUE(p.axesShown());
}

// A diverged model's NaN weights are never "the same" as another line (NaN compares false).
TEST(ProfilePlot, NaNLinesAreNeverMerged) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Profile f = profileOf(
        {{"dot", {0.2, 0.6, 0.2}}, {"broken", {0.2, nan, 0.2}}, {"broken too", {0.2, nan, 0.2}}});
    const auto groups = ProfilePlot::coincident(f);
    ASSERT_EQ(groups.size(), 3u);
}

TEST(ProfilePlot, TwelveIdenticalHeadsNamedInOneEntry) {
    std::vector<std::pair<std::string, std::vector<double>>> lines;
    for (int h = 0; h < 12; ++h) lines.push_back({"head " + std::to_string(h), {0.1, 0.8, 0.1}});
    ProfilePlot p;
    p.showProfile(profileOf(lines), true);
    EXPECT_EQ(p.lineCount(), 1);
    EXPECT_EQ(legendNames(p), QStringList{"head 0 and 11 more, identical"});
    if (const QByteArray dir = qgetenv("ATTNVIZ_GRAB_DIR"); !dir.isEmpty()) {
        lines[3].second = {0.3, 0.5, 0.2};  // one head differs: two lines
        p.showProfile(profileOf(lines), true);
        p.resize(700, 260);
        p.replot();
        p.grab().save(QString::fromUtf8(dir) + "/profile-identical.png");
        p.showProfile(Profile{}, false);
        p.replot();
        p.grab().save(QString::fromUtf8(dir) + "/profile-empty.png");
    }
}

TEST(ProfilePlot, EmptyProfileShowsAMessageWithoutAxes) {
    ProfilePlot p;
    p.showProfile(Profile{}, false);
    EXPECT_EQ(p.lineCount(), 0);
    EXPECT_FALSE(p.axesShown());
    EXPECT_EQ(p.caption(), "Click a query token to see its weights over the keys");
    p.showProfile(profileOf({{"dot", {0.3, 0.4, 0.3}}}), true);
    EXPECT_TRUE(p.axesShown());
    p.showProfile(Profile{}, true);
    EXPECT_FALSE(p.axesShown());
    EXPECT_EQ(p.caption(), "No model has this block for the selected query");
}

// No profile yet (or none after the query is cleared): the hint spans the plot's width. The
// hidden, empty legend below a narrow plot capped the layout's column at 98 pixels and cut
// the hint on both sides (the query profile beside the grid on a laptop).
TEST(ProfilePlot, TheHintSpansTheWidthOfANarrowPlot) {
    for (int w : {300, 400}) {
        attnviz::ui::ProfilePlot p;
        p.resize(w, 300);
        p.clearProfile("Click a query token to see its weights over the keys");
        p.replot();
        QCPLayoutElement* title = p.plotLayout()->element(0, 0);
        ASSERT_NE(title, nullptr);
        EXPECT_GE(title->outerRect().width(), w - 20) << "plot " << w << " px wide";
    }
}
