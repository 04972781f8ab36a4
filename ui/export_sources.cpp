// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_sources.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QPicture>
#include <QStringList>
#include <algorithm>

#include "core/file_io.h"
#include "training_dock.h"

namespace attnviz::ui {
namespace {

bool fail(QString* error, const QString& why) {
    if (error) *error = why;
    return false;
}

}  // namespace

render::FigurePainter gridExport(const WorkspaceModel& model, const render::FigureStyle& style,
                                 QString* error) {
    if (model.results()->empty())
        return fail(error, QCoreApplication::translate("attnviz::ui::ExportSources",
                                                       "nothing to export yet")),
               nullptr;
    return render::gridPainter(model.selection({}, style.language), style, error);
}

render::FigurePainter panelExport(const WorkspaceModel& model, int column, int head,
                                  const render::FigureStyle& style, QString* error) {
    if (model.results()->empty())
        return fail(error, QCoreApplication::translate("attnviz::ui::ExportSources",
                                                       "nothing to export yet")),
               nullptr;
    const Selection all = model.selection({}, style.language);
    if (!all.error.empty()) return fail(error, QString::fromStdString(all.error)), nullptr;
    const int c = std::clamp(column, 0, std::max(0, int(all.columns.size()) - 1));
    return render::gridPainter(all.single(c, head), style, error);
}

render::FigurePainter profileExport(const WorkspaceModel& model, int column,
                                    const render::FigureStyle& style, QString* error) {
    if (model.results()->empty())
        return fail(error, QCoreApplication::translate("attnviz::ui::ExportSources",
                                                       "nothing to export yet")),
               nullptr;
    if (model.view().query < 0)
        return fail(error, QCoreApplication::translate("attnviz::ui::ExportSources",
                                                       "click a query token first")),
               nullptr;
    return render::profilePainter(model.profile(column, style.language), style, error);
}

// The Training dock's plot as it is, its axis titles in the figure's language (the legend holds
// the runs' names).
render::FigurePainter lossExport(QCustomPlot* plot, const QString& language, QString* error) {
    if (!plot->graphCount())
        return fail(error, QCoreApplication::translate(
                               "attnviz::ui::ExportSources",
                               "no loss curves yet: train a model in the Training tab")),
               nullptr;
    auto picture = std::make_shared<QPicture>();
    const std::pair<QString, QString> shown{plot->xAxis->label(), plot->yAxis->label()};
    const auto [x, y] = TrainingDock::lossAxisTitles(language);
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    {
        QCPPainter qp(picture.get());
        plot->toPainter(&qp, 600, 400);
    }
    plot->xAxis->setLabel(shown.first);
    plot->yAxis->setLabel(shown.second);
    return [picture](QPainter& p, const QRectF& r) {
        p.save();
        p.translate(r.topLeft());
        p.scale(r.width() / 600, r.height() / 400);
        p.drawPicture(0, 0, *picture);
        p.restore();
    };
}

QString exportCaption(const WorkspaceModel& model) {
    if (model.source().trimmed().isEmpty()) return {};
    QStringList lines{model.source().trimmed()};
    if (!model.target().trimmed().isEmpty())
        return (lines << "→ " + model.target().trimmed()).join('\n');
    std::vector<std::pair<QString, QStringList>> translations;  // text, its models
    for (const auto& r : *model.results()) {
        if (!r.error.empty() || !r.analysis.decoded) continue;
        const QString text = QString::fromStdString(r.analysis.targetText).trimmed();
        auto it = std::find_if(translations.begin(), translations.end(),
                               [&](const auto& t) { return t.first == text; });
        if (it == translations.end()) it = translations.insert(translations.end(), {text, {}});
        it->second << QString::fromStdString(r.name);
    }
    for (size_t i = 0; i < translations.size() && i < 3; ++i) {
        const auto& [text, models] = translations[i];
        lines << "→ " + text + (translations.size() > 1 ? " (" + models.join(", ") + ")" : "");
    }
    return lines.join('\n');
}

ExportDialog::Source exportSource(const WorkspaceModel* model, std::function<int()> currentColumn,
                                  std::function<int()> profileColumn, QCustomPlot* lossPlot) {
    return [=](ExportDialog::What what, const render::FigureStyle& style, int head,
               QString* error) -> render::FigurePainter {
        if (what != ExportDialog::Loss && model->results()->empty())
            return fail(error, QCoreApplication::translate("attnviz::ui::ExportSources",
                                                           "nothing to export yet")),
                   nullptr;
        switch (what) {
            case ExportDialog::Loss:
                return lossExport(lossPlot, style.language, error);
            case ExportDialog::Profile:
                return profileExport(*model, profileColumn(), style, error);
            case ExportDialog::Panel:
                return panelExport(*model, currentColumn(), head, style, error);
            default:
                return gridExport(*model, style, error);
        }
    };
}

bool writeExportFile(const QString& path, const std::function<std::string()>& make,
                     QString* error) {
    std::string bytes;
    try {
        bytes = make();
    } catch (const std::exception& e) {
        return fail(error, path + ": " + QString::fromUtf8(e.what()));
    }
    try {
        writeFileAtomically(path.toStdString(), bytes);  // its message names the path
    } catch (const std::exception& e) {
        return fail(error, QString::fromUtf8(e.what()));
    }
    return true;
}

bool writeDataExport(const WorkspaceModel& model, const QString& path, QString* error) {
    return writeExportFile(
        path,
        [&] {
            return exportDataBytes(model.results(), model.columns(), model.view().request(),
                                   QFileInfo(path).suffix().toLower().toStdString());
        },
        error);
}

}  // namespace attnviz::ui
