// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <functional>

#include "session.h"
#include "unsaved_prompt.h"
#include "view_state.h"
#include "window_mode.h"
#include "workspace_model.h"

class QLineEdit;
class QComboBox;
class QToolButton;
class QLabel;
class QMenu;
class QDockWidget;
class QFormLayout;
class QStackedWidget;

namespace attnviz::ui {

class ComparisonGrid;
class ExportDialog;
class ProblemsPanel;
class ColorBar;
class ProfilePlot;
class SentenceList;
class TrainingDock;
class VariantPanel;
class HeadsDock;
class OffsetProfileView;
class FilmDock;
class FolderColumns;
class ViewControls;
class Presentation;
class ImageView;

// The main window: sentence fields, view controls, the comparison grid and docks (query
// profile, sentence list, variant settings, training). It wires widgets to the workspace
// model (columns, results, view) and delegates: analysis to the model's AnalysisRunner,
// drawing to ComparisonGrid and ProfilePlot, menus to actions.cpp, docks to docks.cpp,
// exports to export_sources.h, training to TrainingDock, files to Session.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Before the window is first shown: where it was at the last quit (Qt moves it back onto
    // a screen that is gone); at the first start maximised where the default size and a
    // window frame do not fit the screen (main_window_layout.cpp).
    void placeOnScreen();

    void setColumns(std::vector<ModelColumn> c) { m_workspace->setColumns(std::move(c)); }
    // Replaces the columns by a bundled set's models (core/workspace.h), after asking when
    // models trained here and not saved would be closed (ask = false: never asks, closes
    // them). False when the user declined or the set is unknown.
    bool chooseModelSet(const QString& id, bool ask = true);  // workspace_files.cpp
    // Columns › Compare: the preset's models of the workspace's set (comparisons.cpp).
    void applyComparison(const QString& presetId);
    // Whether the columns are that preset's models of the set, in its order (the Compare
    // menu marks it).
    bool showsComparison(const QString& presetId) const;
    // Columns › Choose models…: which models of the set are shown, in which order.
    void chooseModels();
    // Stands in for the picker's exec() (tests): true = OK.
    using PickModels = std::function<bool(class ModelPicker&)>;
    void setPickModels(PickModels pick) { m_pickModels = std::move(pick); }
    QString modelSet() const;  // the set the columns came from, "" when none
    QComboBox* modelSetBox() const { return m_modelSet; }
    QToolButton* compareButton() const { return m_compare; }
    QToolButton* presentButton() const { return m_present; }  // beside Compare: F5's button
    // The narrowest query profile beside the grid (a small screen); with less room for it the
    // profile opens below the grid.
    static constexpr int kMinProfileWidth = 260;
    // How the window asks a yes/no question before losing work (quit, switching sets); the
    // default shows a message box. Tests replace it. Returns true for "go ahead".
    using Confirm = std::function<bool(const QString& title, const QString& text)>;
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // Before models trained here and not saved would be lost or left out (quitting, switching
    // sets, saving a workspace), a prompt offers to save them (each as Training › Save
    // model…), to go on without them, or to cancel. This stands in for the prompt's exec()
    // (tests); unset, a window with setConfirm answers through it (yes: go on without them).
    using AskUnsaved = std::function<UnsavedPrompt::Choice(UnsavedPrompt&)>;
    void setAskUnsaved(AskUnsaved ask) { m_askUnsaved = std::move(ask); }
    // Columns holding models trained here and not saved yet.
    int unsavedColumns() const;
    // Before a workspace is saved: true when no model trained here is unsaved, when the user
    // had them saved (the workspace then names their files), or agrees to leave them out
    // (they have no file for the workspace to name).
    bool confirmUnsavedLeftOut();  // workspace_files.cpp
    void addColumn(ModelColumn column) { m_workspace->addColumn(std::move(column)); }
    void moveColumn(int column, int delta);
    void removeColumn(int column);
    const std::vector<ModelColumn>& columns() const { return m_workspace->columns(); }
    // Opens a checkpoint as a new column; false with the error in the Problems panel.
    bool openCheckpointFile(const QString& path);  // workspace_files.cpp
    // Opens a sentence list (text or TSV); false with the reason in the Problems panel.
    bool openSentenceFile(const QString& path);  // actions.cpp
    // Opens a training probe in the Over training dock; false with the reason in Problems.
    bool openProbeFile(const QString& path);  // file_arguments.cpp
    // Opens files named from outside (command line, file manager, a second start): workspaces
    // first, then each checkpoint as a new column, then probes (file_arguments.h). Each one
    // that cannot be opened is named in the Problems panel. Returns how many opened.
    int openFiles(const QStringList& paths);  // file_arguments.cpp

    void setSentence(const QString& source, const QString& target = {});
    void setBlock(BlockKind kind, int layer);
    void setView(const ViewState& view);
    // The interface in "en", "zh_CN" or "zh_TW" at once, without restarting (ui/language.h);
    // View › Language calls it and remembers the choice.
    void setLanguage(const QString& code);
    // Multiplies the grid's zoom (panel size) by `factor`, within the view's limits; 0: back
    // to 1.
    void zoomBy(double factor);
    ViewState view() const { return m_workspace->view(); }
    // Selects query row `query` (clicked in `column`, -1: none): outlined in every panel, its
    // profile plotted.
    void selectQuery(int column, int query);

    // Runs the analysis in this thread and updates every panel (for export and tests).
    void analyzeNow();
    // Writes the grid as a figure (SVG, PDF or PNG by extension; a 16:9 slide, PNG at
    // 1920 x 1080); false with a message on error.
    bool exportFigure(const QString& path, QString* error);
    // The export dialog for the current workspace (the caller owns it).
    ExportDialog* createExportDialog();
    // Writes the matrices in view as CSV, JSON (the dump format) or NPY by extension.
    bool exportData(const QString& path, QString* error);

    Session session() const;
    // Applies a session; checkpoints that cannot be opened are listed in *errors.
    void applySession(const Session& s, QStringList* errors);
    bool saveSession(const QString& path, QString* error) const;
    // Opens a workspace; false (the reason in *error and the Problems panel) when the file is
    // not one. Checkpoints it lists that cannot be opened are named in the Problems panel.
    bool openSession(const QString& path, QString* error);  // workspace_files.cpp
    // The workspace at the last close (QSettings), if any.
    static bool lastSession(Session* out);
    // Reopens the workspace of the last close, unless opening it did not finish at the last
    // start (the app crashed or was killed): then it is skipped, the Problems panel says why
    // and offers to open it. True when restored.
    bool restoreLastSession();  // workspace_files.cpp
    // Lists files that could not be opened in the Problems panel (shown and kept until
    // cleared) and says so in the status bar.
    void reportProblems(const QString& heading, const QStringList& details);
    // Follows a folder of checkpoints (File › Watch folder…): a column per checkpoint in it,
    // now and as they appear; a column reloaded in place (the view kept, the analysis rerun)
    // when its file is replaced. Files that cannot be opened go to the Problems panel and are
    // tried again when they change. Replaces the folder watched before. False, with the
    // reason in *error and the Problems panel, when the folder cannot be watched.
    bool watchFolder(const QString& dir, QString* error);
    void stopWatching();            // File › Stop watching
    QString watchedFolder() const;  // "" when none

    WorkspaceModel* workspace() const { return m_workspace; }
    AnalysisRunner* runner() const { return m_workspace->runner(); }
    ComparisonGrid* grid() const { return m_grid; }
    HeadsDock* heads() const { return m_heads; }
    OffsetProfileView* offsetProfiles() const { return m_offsets; }
    FilmDock* film() const { return m_film; }  // the Over-training dock
    // Shows one head of a column large: the Focus layout of that model (every layer of the
    // block kind, a panel per head), scrolled to the head. The Heads dock asks for this.
    void showHead(int column, BlockKind kind, int layer, int head);  // docks.cpp
    ColorBar* colorBar() const { return m_colorBar; }
    QLabel* failuresLabel() const { return m_failures; }
    ProfilePlot* profile() const { return m_profile; }
    SentenceList* sentences() const { return m_sentences; }
    TrainingDock* training() const { return m_training; }
    VariantPanel* variantPanel() const { return m_variant; }
    ProblemsPanel* problems() const { return m_problems; }
    // View › Presentation mode (F5, `attnviz --present`): full screen, large labels, a
    // caption, the arrow keys step the query (ui/presentation.h).
    Presentation* presentation() const { return m_presentation; }
    QDockWidget* problemsDock() const { return m_problemsDock; }
    // The image mode (issue 28): shown instead of the sentence fields, the view bar and the
    // grid while the Models box holds the image set (image_mode.cpp).
    ImageView* imageView() const { return m_imageView; }
    bool imageMode() const;
    // What differs between text and image mode, for the mode shown (ui/window_mode.h).
    const WindowMode& mode() const { return imageMode() ? *m_imageMode : *m_textMode; }
    WindowMode& mode() { return imageMode() ? *m_imageMode : *m_textMode; }
    QLineEdit* sourceEdit() const { return m_source; }
    QLineEdit* targetEdit() const { return m_target; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;  // main_window_texts.cpp

private:
    QWidget* createCentralWidget();  // main_window_layout.cpp
    // The text page (grid and colour bar) in a stack with the image mode's view; the wiring
    // that switches between them (image_mode.cpp).
    QWidget* createImageMode(QWidget* textPage);
    void updateMode();  // the page, the fields and the image view's columns for the set
    // A laptop's screen (less than kSmallScreenHeight available): the tool docks start as a
    // strip of tabs, the query profile opens beside the grid (main_window_layout.cpp).
    static constexpr int kSmallScreenHeight = 900, kCollapsedTools = 80;
    bool smallScreen() const;
    static constexpr QSize kDefaultSize{1600, 1000};
    // The bottom docks' height: at start, or with the query profile in front.
    int toolsHeight(bool profile) const;
    // The query profile's width beside the grid (a small screen's place for it): three tenths
    // of the window's, kMinProfileWidth to 480 px, the central widget keeping its minimum.
    int profileWidth() const;
    void showProfileDock();  // at the first clicked query: beside the grid or below it
    void fitProblemsDock();  // shown with a few lines, the grid keeping most of the height
    // Every text the window owns, in the installed language: its own, the docks' titles, the
    // menus, and what is made from data (main_window_texts.cpp).
    void retranslateUi();
    void labelModelSets();    // the Models box's items (main_window_texts.cpp)
    void retranslateDocks();  // docks.cpp
    void markStaleDocks();    // docks.cpp: dims the docks of an overdue analysis
    void showFailures();      // the status bar's note of the models that could not run
    // `action`'s text is tr(source) now and after every language change; returns `action`.
    QAction* named(QAction* action, const char* source);  // actions.cpp
    void createDocks();                                   // docks.cpp
    void createMenus();                                   // actions.cpp
    void addFileMenu();                                   // actions.cpp
    void addViewMenu();                                   // actions.cpp
    void addColumnsMenu();                                // actions.cpp
    void addLanguageMenu(QMenu* view);                    // actions.cpp
    void openSentenceList();                              // actions.cpp
    void stepColumn(int delta);                           // actions.cpp
    void rebuildRecentMenu();                             // actions.cpp
    void rememberSentence();                              // actions.cpp
    // Parts of createDocks (docks.cpp) and addFileMenu (actions.cpp).
    // A dock's row of the dock table (ui/docks.cpp): name, title, area, tab, stale data.
    struct DockRow {
        QString name, title;
        Qt::DockWidgetArea area;
        bool tab;            // one of the bottom's tabs
        QWidget* staleData;  // dimmed and "updating…" while an analysis is overdue; null: never
        bool images;         // shown in image mode; a text-only dock is hidden there and comes
                             // back as it was with text (showDocksOfMode)
    };
    std::vector<DockRow> dockTable() const;
    QWidget* createProfileBox();  // the query profile and its mode
    void connectHeadDocks(QDockWidget* headsDock, QDockWidget* offsetsDock);  // Heads, Offsets
    void connectFilmDock();                  // the Over training dock, fed by the Training tab
    void addFileOpenActions(QMenu* file);    // checkpoint, sentence list, probe, watch folder
    void addFileExportActions(QMenu* file);  // Export figure, Export data
    void connectWidgets();
    void analysing();  // the status and the Training tab's probe follow the sentence
    void resultsChanged();
    void updateColorBar();
    void updateProfile();
    void columnsChanged();
    void refreshColumnInfo();               // the grid's column tooltips (VariantPanel::describe)
    void showWatching(const QString& dir);  // main_window_texts.cpp
    void message(const QString& text);
    int profileColumn() const;  // the column whose heads the profile shows, -1: every model
    int currentColumn() const { return m_workspace->currentColumn(); }  // -1: none

    WorkspaceModel* m_workspace;
    ComparisonGrid* m_grid;
    ColorBar* m_colorBar;
    QLabel* m_failures;  // status bar: how many models could not run, each reason in its tooltip
    ProfilePlot* m_profile;
    SentenceList* m_sentences;
    TrainingDock* m_training;
    HeadsDock* m_heads = nullptr;
    OffsetProfileView* m_offsets = nullptr;
    FilmDock* m_film = nullptr;
    QLabel* m_watching = nullptr;  // status bar: the watched folder, while there is one
    QDockWidget* m_filmDock = nullptr;
    VariantPanel* m_variant;
    ViewControls* m_controls;
    ProblemsPanel* m_problems;
    QLineEdit *m_source, *m_target;
    QComboBox* m_modelSet;             // the bundled sets (core/workspace.h)
    std::vector<int> m_setSizes;       // their model counts, read by retranslateUi
    QToolButton* m_compare = nullptr;  // beside it: Columns › Compare's presets
    QToolButton* m_present = nullptr;  // and View › Presentation mode
    Confirm m_confirm;
    PickModels m_pickModels;
    AskUnsaved m_askUnsaved;
    const ModelSet& comparisonSet() const;  // the workspace's set, else the default one
    bool showColumns(std::vector<ModelColumn> wanted, const QString& title);
    bool confirm(const QString& title, const QString& text);
    // The prompt of setAskUnsaved about `unsaved` (none: true at once); true to go ahead: all
    // of them saved, or the user chose `goOn` (workspace_files.cpp).
    bool offerToSave(const std::vector<ModelColumn>& unsaved, const QString& title,
                     const QString& text, const QString& goOn);
    std::vector<ModelColumn> unsavedModels() const;  // the columns without a file
    QComboBox* m_profileMode = nullptr;
    QMenu* m_recent = nullptr;
    QDockWidget *m_profileDock = nullptr, *m_sentenceDock = nullptr, *m_problemsDock = nullptr;
    std::vector<QDockWidget*> m_docks;
    // Text-only docks hidden by image mode, and whether each was shown before (showDocksOfMode).
    std::map<QString, bool> m_textDocksShown;
    void showDocksOfMode(bool image);
    // Shows and raises a text-only dock (a sentence list or a probe was opened); in image mode
    // it comes forward when text returns.
    void showTextDock(QDockWidget* dock);
    std::vector<std::pair<QPointer<QAction>, const char*>> m_named;  // named(): action, source
    std::vector<std::pair<QPointer<QAction>, std::string>> m_presetActions;  // Compare menu
    bool m_shown = false;
    bool m_profileRaised = false;  // the query profile was brought forward by a first click
    QString m_mixedTasks;          // the columns of different image tasks last reported ("": none)
    FolderColumns* m_folderColumns = nullptr;  // File › Watch folder
    Presentation* m_presentation = nullptr;
    QFormLayout* m_fields = nullptr;    // the Models box and the sentence fields
    QStackedWidget* m_modes = nullptr;  // the text grid, the image view
    ImageView* m_imageView = nullptr;
    std::unique_ptr<WindowMode> m_textMode, m_imageMode;  // ui/window_mode.h
};

}  // namespace attnviz::ui
