// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

#include "workspace.h"

class QLineEdit;
class QComboBox;
class QSpinBox;
class QCheckBox;

namespace attnviz::ui {

class ComparisonGrid;

// The main window: sentence fields, view controls and the comparison grid. It wires
// widgets together and delegates the work (analysis: AnalysisRunner; drawing: ComparisonGrid).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void setColumns(std::vector<ModelColumn> columns);
    void addColumn(ModelColumn column);
    void setSentence(const QString& source, const QString& target = {});
    void setBlock(BlockKind kind, int layer);
    // Runs the analysis in this thread and updates every panel (for export and tests).
    void analyzeNow();
    // Saves the grid as it is on screen (PNG/JPEG by extension); false with a message on error.
    bool exportFigure(const QString& path, QString* error);

    ComparisonGrid* grid() const { return m_grid; }
    QLineEdit* sourceEdit() const { return m_source; }
    QLineEdit* targetEdit() const { return m_target; }
    AnalysisRunner* runner() const { return m_runner; }

private:
    void requestAnalysis();
    void showResults(std::shared_ptr<const Results> results);
    void openCheckpoint();
    void exportFigureDialog();

    std::vector<ModelColumn> m_columns;
    AnalysisRunner* m_runner;
    ComparisonGrid* m_grid;
    QLineEdit *m_source, *m_target;
    QComboBox *m_block, *m_colormap;
    QSpinBox* m_layer;
    QCheckBox* m_shared;
};

}  // namespace attnviz::ui
