// SPDX-License-Identifier: GPL-3.0-or-later
#include "column_files.h"

#include <QCoreApplication>
#include <QDir>

namespace attnviz::ui {
namespace {

QString withPath(const QString& path, const QString& reason) {
    return reason.contains(path) ? reason : path + ": " + reason;
}

}  // namespace

std::optional<ModelColumn> openColumn(const QString& path, QString* error) {
    QString problem;
    try {
        return loadModelColumn(path.toStdString());
    } catch (const std::exception& e) {
        problem = QString::fromUtf8(e.what());
    } catch (...) {
        problem = QCoreApplication::translate("attnviz::ui::ColumnFiles",
                                              "unknown error while reading it");
    }
    if (problem.size() > 600) problem = problem.left(600) + "…";  // a huge value in a message
    if (error) *error = withPath(path, problem);
    return std::nullopt;
}

std::vector<ModelColumn> openColumnsIn(const QString& dir, QStringList* errors) {
    std::vector<ModelColumn> out;
    const QDir d(dir);
    for (const QString& name : d.entryList({"*.safetensors"}, QDir::Files, QDir::Name)) {
        QString error;
        if (auto c = openColumn(d.filePath(name), &error)) {
            out.push_back(std::move(*c));
        } else if (errors) {
            errors->append(error);
        }
    }
    return out;
}

}  // namespace attnviz::ui
