// SPDX-License-Identifier: GPL-3.0-or-later
// The Heads dock's distance-by-layer chart in image mode with a set as large as the bundled
// vision set (11 models; issue 47): a tooltip names each dot's model, layer, head and distance,
// no two models share a colour (and each dot is drawn in its model's), and the dock's model
// filter leaves the other models' dots out, each model keeping its colour.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "core/head_stats.h"
#include "core/image_set.h"
#include "core/model.h"
#include "render/charts.h"
#include "tests/ui/wait.h"
#include "ui/chart_view.h"
#include "ui/heads_dock.h"
#include "ui/image_chooser.h"
#include "ui/image_model.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

const char* const kNames[] = {"alpha", "bravo", "charlie", "delta",   "echo", "foxtrot",
                              "golf",  "hotel", "india",   "juliett", "kilo"};
constexpr size_t kModels = std::size(kNames);

// A models folder whose vision/ holds 11 untrained image models (2 layers of 2 heads), as many
// as the bundled vision set, ATTNVIZ_MODELS pointing at it; the window in image mode with the
// Heads dock raised and its chart drawn.
class DistanceChart : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());
        QDir(m_dir.path()).mkpath("vision");
        const ModelConfig cfg = ModelConfig::fromJsonText(
            R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 2,
                "image_size": 28, "patch": 4, "classes": 10, "pool": "mean"})");
        for (size_t i = 0; i < kModels; ++i)
            Model::initializeImages(cfg, fashionMnistClasses(), 10 + i)
                .save(QString("%1/vision/%2-%3.safetensors")
                          .arg(m_dir.path())
                          .arg(i + 1, 2, 10, QChar('0'))
                          .arg(kNames[i])
                          .toStdString());
        m_before = qgetenv("ATTNVIZ_MODELS");
        qputenv("ATTNVIZ_MODELS", m_dir.path().toUtf8());
        m_window = std::make_unique<MainWindow>();
        MainWindow& w = *m_window;
        w.resize(1366, 768);
        w.show();
        ASSERT_TRUE(w.chooseModelSet("vision", false));
        ASSERT_EQ(w.columns().size(), kModels);
        ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
        ASSERT_TRUE(waitUntil([&] {
            const ImageModel* m = w.imageView()->model();
            return !m->busy() && m->results().size() == kModels && !m->image().empty();
        }));
        w.findChild<QDockWidget*>("heads")->raise();
        ASSERT_TRUE(waitUntil([&] { return dock()->chartComputations() >= 1; }));
        ASSERT_FALSE(view()->charts().charts.empty()) << view()->message().toStdString();
    }
    void TearDown() override {
        m_window.reset();
        qputenv("ATTNVIZ_MODELS", m_before);
    }
    HeadsDock* dock() const { return m_window->heads(); }
    ChartView* view() const { return dock()->distanceChart(); }
    const render::Chart& chart() const { return view()->charts().charts.at(0); }
    // The dots as the view draws them now.
    std::vector<render::ChartPoint> points() const {
        return render::chartPoints(view()->charts(), view()->style(),
                                   QRectF(QPointF(0, 0), QSizeF(view()->size())));
    }
    // The chart's series of each model, by name (the reference line is none).
    std::map<std::string, const render::ChartSeries*> modelSeries() const {
        std::map<std::string, const render::ChartSeries*> out;
        for (const auto& s : chart().series)
            if (!s.reference) out[s.name] = &s;
        return out;
    }
    // Types `text` into the dock's filter and waits for the chart drawn again.
    void filter(const QString& text) {
        const int before = dock()->chartComputations();
        dock()->filter()->setText(text);
        ASSERT_TRUE(waitUntil([&] { return dock()->chartComputations() > before; }));
    }

    QTemporaryDir m_dir;
    QByteArray m_before;
    std::unique_ptr<MainWindow> m_window;
};

// The point of `all` farthest from every other point: where a tooltip can mean only it.
const render::ChartPoint& loneliest(const std::vector<render::ChartPoint>& all) {
    size_t best = 0;
    double bestGap = -1;
    for (size_t i = 0; i < all.size(); ++i) {
        double gap = 1e9;
        for (size_t j = 0; j < all.size(); ++j)
            if (j != i)
                gap = std::min(
                    gap, std::hypot(all[i].at.x() - all[j].at.x(), all[i].at.y() - all[j].at.y()));
        if (gap > bestGap) best = i, bestGap = gap;
    }
    return all[best];
}

TEST_F(DistanceChart, EveryDotHasATooltipNamingModelLayerHeadAndDistance) {
    const auto all = points();
    std::vector<render::ChartPoint> dots;
    for (const auto& p : all)
        if (!chart().series[p.series].reference) dots.push_back(p);
    ASSERT_EQ(dots.size(), kModels * 4);  // 2 layers × 2 heads each
    const render::ChartPoint& dot = loneliest(dots);
    // Which head it is, from the numbers: the model's heads in order, layer by layer.
    const ColumnResult& r = m_window->imageView()->model()->results()[dot.series];
    const size_t layer = dot.point / 2, head = dot.point % 2;
    const double px =
        meanAttentionDistance(r.image->analysis.blocks[layer].weights[head], r.image->grid).px;
    const QString expected = QString("%1 · layer %2 · head %3 · %4 px")
                                 .arg(QString::fromStdString(r.name))
                                 .arg(layer + 1)
                                 .arg(head + 1)
                                 .arg(px, 0, 'f', 1);
    EXPECT_EQ(chart().series[dot.series].name, r.name);

    const QPoint at = dot.at.toPoint();
    QHelpEvent help(QEvent::ToolTip, at, view()->mapToGlobal(at));
    QApplication::sendEvent(view(), &help);
    EXPECT_TRUE(QToolTip::isVisible());
    EXPECT_EQ(QToolTip::text().toStdString(), expected.toStdString());
    EXPECT_EQ(view()->noteAt(at + QPoint(1, 1)).toStdString(),
              expected.toStdString());  // a dot is small: near it is on it
    // Away from every dot (the title's line): none.
    QToolTip::hideText();
    EXPECT_TRUE(view()->noteAt(QPoint(2, 2)).isEmpty());
}

TEST_F(DistanceChart, NoTwoModelsShareAColourAndEachDotIsDrawnInItsModels) {
    const auto series = modelSeries();
    ASSERT_EQ(series.size(), kModels);
    std::set<QRgb> colours;
    for (const auto& [name, s] : series) colours.insert(render::seriesColor(*s).rgb());
    EXPECT_EQ(colours.size(), kModels);
    const auto reference = std::find_if(chart().series.begin(), chart().series.end(),
                                        [](const auto& s) { return s.reference; });
    ASSERT_NE(reference, chart().series.end());  // the uniform line, in a colour of its own
    EXPECT_EQ(colours.count(render::seriesColor(*reference).rgb()), 0u);

    // On screen: a dot with no other model's near it is its model's colour at its centre (the
    // data drawn over the reference line).
    const QImage drawn = ChartView::draw(view()->charts(), view()->style(), view()->size(), 1.0);
    const auto all = points();
    size_t checked = 0;
    for (size_t m = 0; m < kModels; ++m) {
        std::vector<render::ChartPoint> others, own;
        for (const auto& p : all) (p.series == m ? own : others).push_back(p);
        for (const auto& p : own) {
            const bool alone = std::all_of(others.begin(), others.end(), [&](const auto& o) {
                return chart().series[o.series].reference ||
                       std::hypot(o.at.x() - p.at.x(), o.at.y() - p.at.y()) > 8;
            });
            if (!alone) continue;
            ++checked;
            const QColor pixel = drawn.pixelColor(p.at.toPoint());
            const QColor want = render::seriesColor(chart().series[m]);
            EXPECT_LE(std::abs(pixel.red() - want.red()) + std::abs(pixel.green() - want.green()) +
                          std::abs(pixel.blue() - want.blue()),
                      6)
                << chart().series[m].name << " at " << p.at.x() << "," << p.at.y();
            break;
        }
    }
    EXPECT_EQ(checked, kModels);
}

TEST_F(DistanceChart, TheModelFilterHidesTheOtherModelsDots) {
    const auto before = modelSeries();
    ASSERT_EQ(before.size(), kModels);
    std::string echo;
    for (const auto& [name, s] : before)
        if (name.find("echo") != std::string::npos) echo = name;
    ASSERT_FALSE(echo.empty());
    const QColor echoColour = render::seriesColor(*before.at(echo));

    filter("ECHO");  // as the table: any case
    auto after = modelSeries();
    ASSERT_EQ(after.size(), 1u);
    EXPECT_EQ(after.begin()->first, echo);
    EXPECT_EQ(after.begin()->second->y.size(), 4u);
    EXPECT_EQ(render::seriesColor(*after.begin()->second), echoColour);  // its colour kept
    const QAbstractItemModel* table = dock()->table()->model();          // the table keeps the same
    ASSERT_GT(table->rowCount(), 0);
    for (int r = 0; r < table->rowCount(); ++r)
        EXPECT_EQ(table->index(r, HeadsDock::Model).data().toString().toStdString(), echo);
    for (const auto& p : points())
        EXPECT_EQ(chart().series[p.series].name == echo || chart().series[p.series].reference,
                  true);

    filter("no such model");
    EXPECT_TRUE(view()->charts().charts.empty());
    EXPECT_NE(view()->message().indexOf("no such model"), -1) << view()->message().toStdString();

    filter("");
    EXPECT_EQ(modelSeries().size(), kModels);
}

}  // namespace
