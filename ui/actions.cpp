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
#include <QToolButton>
#include <algorithm>

#include "comparison_grid.h"
#include "export_dialog.h"
#include "export_sources.h"
#include "film_dock.h"
#include "heads_dock.h"
#include "help_menu.h"
#include "image_view.h"
#include "language.h"
#include "main_window.h"
#include "offset_profiles.h"
#include "presentation.h"
#include "render/words.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "view_controls.h"

namespace attnviz::ui {

void MainWindow::createMenus() {
    addFileMenu();
    addViewMenu();
    addColumnsMenu();
    addHelpMenu(this, [this](QAction* a, const char* source) { return named(a, source); });
}

void MainWindow::addFileMenu() {
    // Texts through named(), so that retranslateUi names them again.
    auto add = [this](QMenu* m, const char* source, auto&&... args) {
        return named(m->addAction(QString(), args...), source);
    };
    auto* file = menuBar()->addMenu(QString());
    named(file->menuAction(), QT_TR_NOOP("&File"));
    addFileOpenActions(file);
    m_recent = file->addMenu(QString());
    named(m_recent->menuAction(), QT_TR_NOOP("&Recent sentences"));
    connect(m_recent, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    add(file, QT_TR_NOOP("Open &workspace…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open workspace"), {}, tr("attnviz workspace (*.attnviz.json *.json)"));
        QString error;
        if (!path.isEmpty()) openSession(path, &error);  // problems are listed in the panel
    });
    add(file, QT_TR_NOOP("Save workspace &as…"), QKeySequence::SaveAs, this, [this] {
        if (!confirmUnsavedLeftOut()) return;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save workspace"), "workspace.attnviz.json",
                                         tr("attnviz workspace (*.attnviz.json)"));
        QString error;
        if (!path.isEmpty() && !saveSession(path, &error)) message(error);
    });
    file->addSeparator();
    addFileExportActions(file);
    file->addSeparator();
    add(file, QT_TR_NOOP("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::addFileOpenActions(QMenu* file) {
    auto add = [this](QMenu* m, const char* source, auto&&... args) {
        return named(m->addAction(QString(), args...), source);
    };
    add(file, QT_TR_NOOP("&Open checkpoint as a new column…"), QKeySequence::Open, this, [this] {
        // Starts in the bundled models' folder: the other sets are its subfolders.
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open checkpoint"), QString::fromStdString(bundledModelDirectory()),
            tr("Checkpoints (*.safetensors)"));
        if (!path.isEmpty()) openCheckpointFile(path);
    });
    add(file, QT_TR_NOOP("Open &sentence list…"), QKeySequence("Ctrl+Shift+O"), this,
        &MainWindow::openSentenceList);
    add(file, QT_TR_NOOP("Open training &probe…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open training probe"), {},
            //: File dialog filters: translate the descriptions; keep the patterns and ";;"
            tr("Probe files (*.probe.json);;All files (*)"));
        if (!path.isEmpty()) openProbeFile(path);
    });
    add(file, QT_TR_NOOP("&Watch folder…"), this, [this] {
        // Checkpoints synced from a trainer: a column each, refreshed when replaced.
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Watch folder of checkpoints"), watchedFolder());
        QString error;
        if (!dir.isEmpty()) watchFolder(dir, &error);  // a failure is listed in Problems
    });
    add(file, QT_TR_NOOP("Stop &watching"), this, &MainWindow::stopWatching);
}

void MainWindow::addFileExportActions(QMenu* file) {
    auto add = [this](QMenu* m, const char* source, auto&&... args) {
        return named(m->addAction(QString(), args...), source);
    };
    add(file, QT_TR_NOOP("&Export figure…"), QKeySequence("Ctrl+E"), this, [this] {
        std::unique_ptr<ExportDialog> d(createExportDialog());
        d->setStartFolder(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
        if (d->exec() == QDialog::Accepted && !d->writtenPath().isEmpty())
            message(tr("wrote %1").arg(d->writtenPath()));
    });
    add(file, QT_TR_NOOP("Export &data…"), QKeySequence("Ctrl+Shift+E"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export data"), "attention.csv",
            //: File dialog filters: translate the descriptions; keep the patterns and ";;"
            tr("CSV, long form (*.csv);;JSON dump (*.json);;NumPy (*.npy)"));
        QString error;
        if (!path.isEmpty())
            message(exportData(path, &error) ? tr("exported %1").arg(path) : error);
    });
}

void MainWindow::addViewMenu() {
    // Texts through named(), so that retranslateUi names them again.
    auto add = [this](QMenu* m, const char* source, auto&&... args) {
        return named(m->addAction(QString(), args...), source);
    };
    auto* view = menuBar()->addMenu(QString());
    named(view->menuAction(), QT_TR_NOOP("&View"));
    for (auto* d : m_docks) view->addAction(d->toggleViewAction());
    view->addSeparator();
    const char* blocks[] = {QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Encoder self-attention"),
                            QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Decoder self-attention"),
                            QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "Cross-attention")};
    for (int i = 0; i < 3; ++i)
        add(view, blocks[i], QKeySequence(QString("Ctrl+%1").arg(i + 1)), this,
            [this, i] { m_controls->setBlockIndex(i); });
    add(view, QT_TR_NOOP("Next query"), QKeySequence("Alt+Down"), this,
        [this] { selectQuery(currentColumn(), this->view().query + 1); });
    add(view, QT_TR_NOOP("Previous query"), QKeySequence("Alt+Up"), this,
        [this] { selectQuery(currentColumn(), std::max(0, this->view().query - 1)); });
    add(view, QT_TR_NOOP("Clear query"), QKeySequence("Alt+Backspace"), this,
        [this] { selectQuery(currentColumn(), -1); });
    // The current column (for the Variant tab and the per-head profile) without a mouse.
    add(view, QT_TR_NOOP("Next column"), QKeySequence("Ctrl+Alt+Right"), this,
        [this] { stepColumn(+1); });
    add(view, QT_TR_NOOP("Previous column"), QKeySequence("Ctrl+Alt+Left"), this,
        [this] { stepColumn(-1); });
    view->addSeparator();
    add(view, QT_TR_NOOP("Zoom &in"), QKeySequence::ZoomIn, this, [this] { zoomBy(1.25); });
    add(view, QT_TR_NOOP("Zoom &out"), QKeySequence::ZoomOut, this, [this] { zoomBy(0.8); });
    add(view, QT_TR_NOOP("&Actual size"), QKeySequence("Ctrl+0"), this, [this] { zoomBy(0); });
    //: Moves the keyboard focus to the sentence field
    add(view, QT_TR_NOOP("Focus the sentence"), QKeySequence("Ctrl+L"), this, [this] {
        m_source->setFocus();
        m_source->selectAll();
    });
    view->addSeparator();
    // Also the window's own action: its shortcut works while the menu bar is hidden.
    addAction(add(view, QT_TR_NOOP("&Presentation mode"), QKeySequence(Qt::Key_F5), m_presentation,
                  &Presentation::toggle));
    view->addSeparator();
    addLanguageMenu(view);
}

// View › Language: the system's, or one chosen and remembered; switched at once.
void MainWindow::addLanguageMenu(QMenu* view) {
    QMenu* menu = view->addMenu(QString());
    named(menu->menuAction(), QT_TR_NOOP("&Language"));
    auto* group = new QActionGroup(menu);
    auto add = [&](const QString& label, const QString& code) -> QAction* {
        QAction* a = menu->addAction(label, this, [this, code] {
            rememberLanguage(code);
            setLanguage(code.isEmpty() ? render::systemLanguage() : code);
        });
        a->setCheckable(true);
        a->setData(code);
        group->addAction(a);
        return a;
    };
    //: View › Language: follow the operating system's language
    named(add(QString(), QString()), QT_TR_NOOP("System language"));
    menu->addSeparator();
    // Each language by its own name, whatever the interface's language.
    for (const auto& l : render::languages()) add(l.nativeName, l.code);
    connect(menu, &QMenu::aboutToShow, this, [group] {
        const QString chosen = chosenLanguage();
        for (QAction* a : group->actions()) a->setChecked(a->data().toString() == chosen);
    });
}

void MainWindow::setLanguage(const QString& code) {
    if (render::isLanguage(code) ? code == currentLanguage() : currentLanguage() == "en") return;
    installLanguage(code);
    // Qt posts QEvent::LanguageChange to every window; delivered now, each widget names its
    // texts again in its changeEvent (the window's: main_window_texts.cpp).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
    //: Status bar, after View › Language: %1 the language's own name
    message(tr("Interface language: %1").arg(render::nativeName(currentLanguage())));
}

QAction* MainWindow::named(QAction* action, const char* source) {
    action->setText(tr(source));
    m_named.emplace_back(action, source);
    return action;
}

void MainWindow::addColumnsMenu() {
    // Texts through named(), so that retranslateUi names them again.
    auto add = [this](QMenu* m, const char* source, auto&&... args) {
        return named(m->addAction(QString(), args...), source);
    };
    auto* columns = menuBar()->addMenu(QString());
    named(columns->menuAction(), QT_TR_NOOP("&Columns"));
    add(columns, QT_TR_NOOP("Show every &layer of the clicked model"), QKeySequence("Ctrl+Shift+L"),
        this, [this] {
            ViewState v = view();
            v.allLayersOf = v.allLayersOf >= 0 ? -1 : std::max(0, currentColumn());
            setView(v);
            if (v.allLayersOf < 0) {
                message(tr("all models"));
                return;
            }
            const auto& name = this->columns()[size_t(v.allLayersOf)].name;
            message(tr("every layer of %1 (Ctrl+Shift+L: back to all models)")
                        .arg(QString::fromStdString(name)));
        });
    add(columns, QT_TR_NOOP("Move clicked column &left"), QKeySequence("Ctrl+Shift+Left"), this,
        [this] { moveColumn(currentColumn(), -1); });
    add(columns, QT_TR_NOOP("Move clicked column &right"), QKeySequence("Ctrl+Shift+Right"), this,
        [this] { moveColumn(currentColumn(), +1); });
    add(columns, QT_TR_NOOP("&Remove clicked column"), QKeySequence("Ctrl+Shift+Del"), this,
        [this] { removeColumn(currentColumn()); });
    columns->addSeparator();
    add(columns, QT_TR_NOOP("&Choose models…"), QKeySequence("Ctrl+M"), this,
        [this] { chooseModels(); });
    QMenu* compare = columns->addMenu(QString());
    named(compare->menuAction(), QT_TR_NOOP("Co&mpare"));
    m_compare->setMenu(compare);                 // the button beside the Models box
    for (const auto& p : comparisonPresets()) {  // texts: retranslateUi (engine texts)
        QAction* a = compare->addAction(engineText(p.label));
        a->setCheckable(true);
        m_presetActions.emplace_back(a, p.label);
        const QString id = QString::fromStdString(p.id);
        a->setData(id);
        connect(a, &QAction::triggered, this, [this, id] { applyComparison(id); });
    }
    // The comparison the columns show now is marked (none when they are another choice).
    connect(compare, &QMenu::aboutToShow, this, [this, compare] {
        for (QAction* a : compare->actions()) a->setChecked(showsComparison(a->data().toString()));
    });
}

void MainWindow::stepColumn(int delta) {
    if (columns().empty()) return;
    const int n = int(columns().size());
    const int c = currentColumn() < 0 ? 0 : (currentColumn() + delta + n) % n;
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
    showTextDock(m_sentenceDock);
    m_sentences->list()->setFocus();
    m_sentences->setCurrentIndex(0);
    return true;
}

void MainWindow::rememberSentence() {
    const QString s = m_workspace->source().trimmed();
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

bool MainWindow::exportFigure(const QString& path, QString* error) {
    // A 16:9 slide; PNG at 144 dpi is 1920 x 1080.
    render::FigureStyle style = view().figureStyle();
    style.language = currentLanguage();
    style.fontSize = render::defaultLabelPoints(540);  // the slide's, smaller where needed
    style.fontSizeMin = render::kMinLabelPoints;
    style.caption = mode().exportCaption();
    const auto paint = mode().exportSource()(ExportDialog::Grid, style, 0, error);
    return paint &&
           render::writeFigure(path, render::canvasForPoints({960, 540}, 144), paint, error);
}

ExportDialog* MainWindow::createExportDialog() {
    auto source = mode().exportSource();
    render::FigureStyle style = view().figureStyle();
    style.language = currentLanguage();  // the dialog's default for the figure's words
    auto* d = new ExportDialog(source, style, this);
    d->setCaptionSource([this](const QString&) { return mode().exportCaption(); });
    return d;
}

bool MainWindow::exportData(const QString& path, QString* error) {
    return mode().writeData(path, error);
}

}  // namespace attnviz::ui
