// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

#include "session.h"
#include "view_state.h"
#include "workspace.h"

class QLineEdit;
class QComboBox;
class QSpinBox;
class QCheckBox;
class QMenu;
class QDockWidget;

namespace attnviz::ui {

class ComparisonGrid;
class ProfilePlot;
class SentenceList;
class TrainingDock;
class VariantPanel;

// The main window: sentence fields, view controls, the comparison grid and docks (query
// profile, sentence list, variant settings, training). It wires widgets together and
// delegates the work: analysis to AnalysisRunner, drawing to ComparisonGrid and ProfilePlot,
// training to TrainingDock, files to Session.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    void setColumns(std::vector<ModelColumn> columns);
    void addColumn(ModelColumn column);
    void moveColumn(int column, int delta);
    void removeColumn(int column);
    const std::vector<ModelColumn>& columns() const { return m_columns; }
    // Opens a checkpoint as a new column; false with the error in the status bar.
    bool openCheckpointFile(const QString& path);

    void setSentence(const QString& source, const QString& target = {});
    void setBlock(BlockKind kind, int layer);
    void setView(const ViewState& view);
    ViewState view() const { return m_view; }
    // Selects query row `query` (clicked in `column`, -1: none): outlined in every panel, its
    // profile plotted.
    void selectQuery(int column, int query);

    // Runs the analysis in this thread and updates every panel (for export and tests).
    void analyzeNow();
    // Writes the grid as a figure (SVG, PDF or PNG by extension; a 16:9 slide, PNG at
    // 1920 x 1080); false with a message on error.
    bool exportFigure(const QString& path, QString* error);
    // The export dialog for the current workspace (the caller owns it).
    class ExportDialog* createExportDialog();
    // Writes the matrices in view as CSV, JSON (the dump format) or NPY by extension.
    bool exportData(const QString& path, QString* error);

    Session session() const;
    // Applies a session; checkpoints that cannot be opened are listed in *errors.
    void applySession(const Session& s, QStringList* errors);
    bool saveSession(const QString& path, QString* error) const;
    bool openSession(const QString& path, QString* error);
    // The workspace at the last close (QSettings), if any.
    static bool lastSession(Session* out);

    ComparisonGrid* grid() const { return m_grid; }
    ProfilePlot* profile() const { return m_profile; }
    SentenceList* sentences() const { return m_sentences; }
    TrainingDock* training() const { return m_training; }
    VariantPanel* variantPanel() const { return m_variant; }
    QLineEdit* sourceEdit() const { return m_source; }
    QLineEdit* targetEdit() const { return m_target; }
    AnalysisRunner* runner() const { return m_runner; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void requestAnalysis();
    void showResults(std::shared_ptr<const Results> results);
    void viewFromControls();
    void updateProfile();
    void columnsChanged();
    void rememberSentence();
    void rebuildRecentMenu();
    void message(const QString& text);

    std::vector<ModelColumn> m_columns;
    ViewState m_view;
    int m_currentColumn = -1;
    AnalysisRunner* m_runner;
    ComparisonGrid* m_grid;
    ProfilePlot* m_profile;
    SentenceList* m_sentences;
    TrainingDock* m_training;
    VariantPanel* m_variant;
    QLineEdit *m_source, *m_target;
    QComboBox *m_block, *m_colormap, *m_scaling, *m_profileMode;
    QSpinBox* m_layer;
    QCheckBox *m_shared, *m_mean;
    QMenu* m_recent;
    QDockWidget* m_profileDock;
    bool m_shown = false;
};

}  // namespace attnviz::ui
