// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's menus and keyboard actions (File, View, Columns) and the work of the File
// menu: opening checkpoints and sentence lists, recent sentences.
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <algorithm>

#include "comparison_grid.h"
#include "export_dialog.h"
#include "film_dock.h"
#include "heads_dock.h"
#include "language.h"
#include "main_window.h"
#include "offset_profiles.h"
#include "render/words.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "view_controls.h"

namespace attnviz::ui {

void MainWindow::createMenus() {
    addFileMenu();
    addViewMenu();
    addColumnsMenu();
}

void MainWindow::addFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open checkpoint as a new column…"), QKeySequence::Open, this, [this] {
        // Starts in the bundled models' folder: the other sets are its subfolders.
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open checkpoint"), QString::fromStdString(bundledModelDirectory()),
            tr("Checkpoints (*.safetensors)"));
        if (!path.isEmpty()) openCheckpointFile(path);
    });
    file->addAction(tr("Open &sentence list…"), QKeySequence("Ctrl+Shift+O"), this,
                    &MainWindow::openSentenceList);
    file->addAction(tr("Open training &probe…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open training probe"), {},
            //: File dialog filters: translate the descriptions; keep the patterns and ";;"
            tr("Probe files (*.probe.json);;All files (*)"));
        if (path.isEmpty()) return;
        QString error;
        if (!m_film->openFile(path, &error)) {
            reportProblems(tr("A training probe could not be opened"), {error});
            return;
        }
        m_filmDock->show();
        m_filmDock->raise();
        message(tr("opened %1").arg(path));
    });
    file->addAction(tr("&Watch folder…"), this, [this] {
        // Checkpoints synced from a trainer: a column each, refreshed when replaced.
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Watch folder of checkpoints"), watchedFolder());
        QString error;
        if (!dir.isEmpty()) watchFolder(dir, &error);  // a failure is listed in Problems
    });
    file->addAction(tr("Stop &watching"), this, &MainWindow::stopWatching);
    m_recent = file->addMenu(tr("&Recent sentences"));
    connect(m_recent, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction(tr("Open &workspace…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open workspace"), {}, tr("attnviz workspace (*.attnviz.json *.json)"));
        QString error;
        if (!path.isEmpty()) openSession(path, &error);  // problems are listed in the panel
    });
    file->addAction(tr("Save workspace &as…"), QKeySequence::SaveAs, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save workspace"), "workspace.attnviz.json",
                                         tr("attnviz workspace (*.attnviz.json)"));
        QString error;
        if (!path.isEmpty() && !saveSession(path, &error)) message(error);
    });
    file->addSeparator();
    file->addAction(tr("&Export figure…"), QKeySequence("Ctrl+E"), this, [this] {
        std::unique_ptr<ExportDialog> d(createExportDialog());
        d->setStartFolder(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
        if (d->exec() == QDialog::Accepted && !d->writtenPath().isEmpty())
            message(tr("wrote %1").arg(d->writtenPath()));
    });
    file->addAction(tr("Export &data…"), QKeySequence("Ctrl+Shift+E"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export data"), "attention.csv",
            //: File dialog filters: translate the descriptions; keep the patterns and ";;"
            tr("CSV, long form (*.csv);;JSON dump (*.json);;NumPy (*.npy)"));
        QString error;
        if (!path.isEmpty())
            message(exportData(path, &error) ? tr("exported %1").arg(path) : error);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::addViewMenu() {
    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* d : m_docks) view->addAction(d->toggleViewAction());
    view->addSeparator();
    const char* blocks[] = {QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Encoder self-attention"),
                            QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Decoder self-attention"),
                            QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Cross-attention")};
    for (int i = 0; i < 3; ++i)
        view->addAction(tr(blocks[i]), QKeySequence(QString("Ctrl+%1").arg(i + 1)), this,
                        [this, i] { m_controls->setBlockIndex(i); });
    view->addAction(tr("Next query"), QKeySequence("Alt+Down"), this,
                    [this] { selectQuery(m_currentColumn, this->view().query + 1); });
    view->addAction(tr("Previous query"), QKeySequence("Alt+Up"), this,
                    [this] { selectQuery(m_currentColumn, std::max(0, this->view().query - 1)); });
    view->addAction(tr("Clear query"), QKeySequence("Alt+Backspace"), this,
                    [this] { selectQuery(m_currentColumn, -1); });
    // The current column (for the Variant tab and the per-head profile) without a mouse.
    view->addAction(tr("Next column"), QKeySequence("Ctrl+Alt+Right"), this,
                    [this] { stepColumn(+1); });
    view->addAction(tr("Previous column"), QKeySequence("Ctrl+Alt+Left"), this,
                    [this] { stepColumn(-1); });
    view->addSeparator();
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { zoomBy(1.25); });
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { zoomBy(0.8); });
    view->addAction(tr("&Actual size"), QKeySequence("Ctrl+0"), this, [this] { zoomBy(0); });
    //: Moves the keyboard focus to the sentence field
    view->addAction(tr("Focus the sentence"), QKeySequence("Ctrl+L"), this, [this] {
        m_source->setFocus();
        m_source->selectAll();
    });
    view->addSeparator();
    addLanguageMenu(view);
}

// View › Language: the system's, or one chosen and remembered; switched at once.
void MainWindow::addLanguageMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(menu);
    auto add = [&](const QString& label, const QString& code) {
        QAction* a = menu->addAction(label, this, [this, code] {
            rememberLanguage(code);
            setLanguage(code.isEmpty() ? render::systemLanguage() : code);
        });
        a->setCheckable(true);
        a->setData(code);
        group->addAction(a);
    };
    //: View › Language: follow the operating system's language
    add(tr("System language"), QString());
    menu->addSeparator();
    // Each language by its own name, whatever the interface's language.
    for (const auto& l : render::languages()) add(l.nativeName, l.code);
    connect(menu, &QMenu::aboutToShow, this, [group] {
        const QString chosen = chosenLanguage();
        for (QAction* a : group->actions()) a->setChecked(a->data().toString() == chosen);
    });
}

void MainWindow::setLanguage(const QString& code) {
    const QString from = currentLanguage();
    installLanguage(code);
    if (currentLanguage() == from) return;
    retranslateTree(this, from, currentLanguage());
    for (QWidget* top : QApplication::topLevelWidgets())  // windows without a parent
        if (top != this && !top->parent()) retranslateTree(top, from, currentLanguage());
    // What is made from data is made again, from what is already computed (nothing is
    // analysed again): the grid's titles and tooltips, the Variant tab, the docks' summaries
    // and charts, the status bar.
    statusBar()->clearMessage();
    refreshColumnInfo();
    m_grid->rebuild();
    setView(view());
    m_film->setView(view());
    m_offsets->recompute();
    m_heads->retranslate();
    m_training->retranslate();
    if (!watchedFolder().isEmpty()) showWatching(watchedFolder());
    //: Status bar, after View › Language: %1 the language's own name
    message(tr("Interface language: %1").arg(render::nativeName(currentLanguage())));
}

void MainWindow::addColumnsMenu() {
    auto* columns = menuBar()->addMenu(tr("&Columns"));
    columns->addAction(tr("Show every &layer of the clicked model"), QKeySequence("Ctrl+Shift+L"),
                       this, [this] {
                           ViewState v = view();
                           v.allLayersOf = v.allLayersOf >= 0 ? -1 : std::max(0, m_currentColumn);
                           setView(v);
                           if (v.allLayersOf < 0) {
                               message(tr("all models"));
                               return;
                           }
                           const auto& name = this->columns()[size_t(v.allLayersOf)].name;
                           message(tr("every layer of %1 (Ctrl+Shift+L: back to all models)")
                                       .arg(QString::fromStdString(name)));
                       });
    columns->addAction(tr("Move clicked column &left"), QKeySequence("Ctrl+Shift+Left"), this,
                       [this] { moveColumn(m_currentColumn, -1); });
    columns->addAction(tr("Move clicked column &right"), QKeySequence("Ctrl+Shift+Right"), this,
                       [this] { moveColumn(m_currentColumn, +1); });
    columns->addAction(tr("&Remove clicked column"), QKeySequence("Ctrl+Shift+Del"), this,
                       [this] { removeColumn(m_currentColumn); });
}

void MainWindow::stepColumn(int delta) {
    if (columns().empty()) return;
    const int n = int(columns().size());
    const int c = m_currentColumn < 0 ? 0 : (m_currentColumn + delta + n) % n;
    selectQuery(c, view().query);
    message(tr("current column: %1").arg(QString::fromStdString(columns()[size_t(c)].name)));
}

void MainWindow::openSentenceList() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Sentence list"), {},
        //: File dialog filters: translate the descriptions; keep the patterns and ";;"
        tr("Text or TSV (*.txt *.tsv);;All files (*)"));
    if (!path.isEmpty()) openSentenceFile(path);
}

bool MainWindow::openSentenceFile(const QString& path) {
    QString error;
    if (!m_sentences->loadFile(path, &error)) {
        reportProblems(tr("A sentence list could not be opened"), {error});
        return false;
    }
    m_sentenceDock->show();
    m_sentences->list()->setFocus();
    m_sentences->setCurrentIndex(0);
    return true;
}

void MainWindow::rememberSentence() {
    const QString s = m_source->text().trimmed();
    if (s.isEmpty()) return;
    QSettings settings;
    QStringList recent = settings.value("recentSentences").toStringList();
    recent.removeAll(s);
    recent.prepend(s);
    settings.setValue("recentSentences", recent.mid(0, 20));
}

void MainWindow::rebuildRecentMenu() {
    m_recent->clear();
    const QStringList recent = QSettings().value("recentSentences").toStringList();
    for (const QString& s : recent) m_recent->addAction(s, this, [this, s] { setSentence(s); });
    if (recent.isEmpty())
        m_recent->addAction(tr("(none yet: press Enter in the sentence field)"))->setEnabled(false);
}

}  // namespace attnviz::ui
