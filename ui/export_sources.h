// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the app exports, drawn by render/ from the workspace model: the grid, one panel,
// the query profile and the loss curves as figure painters, and the data in view.
#include <QString>
#include <functional>

#include "export_dialog.h"
#include "workspace_model.h"

class QCustomPlot;

namespace attnviz::ui {

// Painters of the workspace's figures; empty, with *error, when there is nothing to draw.
render::FigurePainter gridExport(const WorkspaceModel& model, const render::FigureStyle& style,
                                 QString* error);
// Head `head` of grid column `column` (clamped to the grid).
render::FigurePainter panelExport(const WorkspaceModel& model, int column, int head,
                                  const render::FigureStyle& style, QString* error);
// The view's query: a line per model (column < 0) or per head of `column`.
render::FigurePainter profileExport(const WorkspaceModel& model, int column,
                                    const render::FigureStyle& style, QString* error);
// The loss plot recorded as vector drawing operations, replayed scaled onto the page.
render::FigurePainter lossExport(QCustomPlot* plot, const QString& language, QString* error);

// The caption of the workspace's figures: the sentence, then "→ " and its translation (the
// target given; else the models' own, a line for each different one, named by its models
// when they differ; at most three). Empty before a sentence.
QString exportCaption(const WorkspaceModel& model);

// The export dialog's source. currentColumn: the clicked column (-1: none); profileColumn:
// the column whose heads the profile shows (-1: every model).
ExportDialog::Source exportSource(const WorkspaceModel* model, std::function<int()> currentColumn,
                                  std::function<int()> profileColumn, QCustomPlot* lossPlot);

// Writes the bytes `make` returns to `path` atomically; false with a message naming the path
// when making them (an Error) or writing fails.
bool writeExportFile(const QString& path, const std::function<std::string()>& make, QString* error);

// Writes the matrices in view as CSV, JSON (the dump format) or NPY by the extension of
// `path`; false with a message naming the path on error.
bool writeDataExport(const WorkspaceModel& model, const QString& path, QString* error);

}  // namespace attnviz::ui
