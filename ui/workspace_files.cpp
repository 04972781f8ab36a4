// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's files: opening checkpoints and workspaces, restoring the last workspace at
// start (skipped when its last restore never finished), and the Problems panel that names
// every file that could not be opened.
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMessageBox>
#include <QStatusBar>
#include <algorithm>

#include "column_files.h"
#include "folder_columns.h"
#include "image_view.h"
#include "language.h"
#include "main_window.h"
#include "problems_panel.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "view_controls.h"

namespace attnviz::ui {

void MainWindow::reportProblems(const QString& heading, const QStringList& details) {
    m_problems->add(heading, details);
    m_problemsDock->show();
    m_problemsDock->raise();
    fitProblemsDock();
    // The heading, then the first detail ("… (see Problems)" when there are more).
    if (details.isEmpty()) {
        statusBar()->showMessage(heading);
    } else if (details.size() == 1) {
        //: Status bar: a problem's heading, then its detail
        statusBar()->showMessage(tr("%1: %2").arg(heading, details.first()));
    } else {
        //: Status bar: a problem's heading, then the first of its details
        statusBar()->showMessage(tr("%1: %2 … (see Problems)").arg(heading, details.first()));
    }
}

bool MainWindow::openCheckpointFile(const QString& path) {
    QString error;
    auto column = openColumn(path, &error);
    if (!column) {
        reportProblems(tr("A checkpoint could not be opened"), {error});
        return false;
    }
    addColumn(std::move(*column));
    message(tr("opened %1").arg(path));
    return true;
}

std::vector<ModelColumn> MainWindow::unsavedModels() const {
    std::vector<ModelColumn> out;
    for (const auto& c : columns())
        if (c.path.empty()) out.push_back(c);
    return out;
}

int MainWindow::unsavedColumns() const {
    return int(unsavedModels().size());
}

bool MainWindow::confirmUnsavedLeftOut() {
    const auto unsaved = unsavedModels();
    return offerToSave(unsaved, tr("Save workspace"),
                       tr("%1 model(s) trained here are not saved: a workspace names its models "
                          "by their files, so they would be left out of it. Save them first?")
                           .arg(unsaved.size()),
                       tr("Save &without them"));
}

bool MainWindow::offerToSave(const std::vector<ModelColumn>& unsaved, const QString& title,
                             const QString& text, const QString& goOn) {
    if (unsaved.empty()) return true;
    UnsavedPrompt prompt(title, text, goOn, this);
    UnsavedPrompt::Choice choice = UnsavedPrompt::Cancel;
    if (m_askUnsaved)
        choice = m_askUnsaved(prompt);
    else if (m_confirm)
        choice = m_confirm(title, text) ? UnsavedPrompt::GoOn : UnsavedPrompt::Cancel;
    else
        choice = (prompt.exec(), prompt.choice());
    if (choice != UnsavedPrompt::SaveThem) return choice == UnsavedPrompt::GoOn;
    // One file dialog for one model, one folder dialog for several (TrainingDock::saveModels;
    // its modelSaved gives each column its path); a cancelled or failed one stops here,
    // nothing lost.
    std::vector<std::pair<std::shared_ptr<Model>, QString>> models;
    for (const auto& c : unsaved) models.emplace_back(c.model, QString::fromStdString(c.name));
    return m_training->saveModels(models);
}

bool MainWindow::confirm(const QString& title, const QString& text) {
    if (m_confirm) return m_confirm(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Yes;
}

bool MainWindow::chooseModelSet(const QString& id, bool ask) {
    const ModelSet* set = findModelSet(id.toStdString());
    auto revert = [&] {  // the box back to the workspace's set
        const QSignalBlocker b(m_modelSet);
        m_modelSet->setCurrentIndex(m_modelSet->findData(modelSet()));
        return false;
    };
    if (!set) return revert();
    const auto unsaved = unsavedModels();
    if (ask && !offerToSave(unsaved, tr("Switch models"),
                            tr("%1 model(s) trained here are not saved. Switching to \"%2\" "
                               "closes them and their training is lost.")
                                .arg(unsaved.size())
                                .arg(engineText(set->label)),
                            tr("S&witch without saving")))
        return revert();
    const QString dir = QString::fromStdString(modelSetDirectory(*set));
    QStringList skipped;
    auto cols = openColumnsIn(dir, &skipped);
    m_workspace->setModelSet(id);
    setColumns(std::move(cols));
    // Language models have no encoder: a set of them would open on panels that all say
    // "no enc self block". Show decoder self-attention when no model has an encoder.
    const bool anyEncoder = std::any_of(columns().begin(), columns().end(), [](const auto& c) {
        return c.model && c.model->config().hasEncoder();
    });
    if (!columns().empty() && !anyEncoder && view().kind != BlockKind::DecoderSelf)
        setBlock(BlockKind::DecoderSelf, view().layer);
    if (!skipped.isEmpty())
        reportProblems(tr("%1 checkpoint(s) in %2 could not be opened and were skipped")
                           .arg(skipped.size())
                           .arg(dir),
                       skipped);
    if (columns().empty())
        reportProblems(
            tr("No models in %1").arg(dir),
            {tr("The set \"%1\" has no checkpoints here (scripts/train-bundled-models %2 makes "
                "them).")
                 .arg(engineText(set->label), id)});
    else
        message(
            //: Status bar: how many models were opened, then the model set's name
            tr("%1 models: %2").arg(columns().size()).arg(engineText(set->label)));
    return true;
}

bool MainWindow::openSession(const QString& path, QString* error) {
    Session s;
    QString e;
    if (!Session::load(path, &s, &e)) {
        reportProblems(tr("A workspace could not be opened"), {e});
        if (error) *error = e;
        return false;
    }
    QStringList errors;
    applySession(s, &errors);
    if (!errors.isEmpty())
        reportProblems(tr("%1 of %2 checkpoints of the workspace %3 could not be opened")
                           .arg(errors.size())
                           .arg(s.columns.size())
                           .arg(QFileInfo(path).fileName()),
                       errors);
    return true;
}

bool MainWindow::restoreLastSession() {
    Session last;
    if (!lastSession(&last)) return false;
    if (Session::isRestoring()) {
        reportProblems(
            tr("The last workspace was not reopened: opening it did not finish at the last start "
               "(the app may have crashed on one of its files). Its checkpoints:"),
            last.columns);
        m_problems->setOffer(tr("Open the last workspace anyway"), [this] {
            Session::setRestoring(false);
            restoreLastSession();
        });
        return false;
    }
    Session::setRestoring(true);
    QStringList errors;
    applySession(last, &errors);
    if (!errors.isEmpty()) {
        reportProblems(tr("%1 of %2 checkpoints of the last workspace could not be opened "
                          "and are left out of it")
                           .arg(errors.size())
                           .arg(last.columns.size()),
                       errors);
        session().saveAsLast();  // not tried again at the next start
    }
    // Shown once the first analysis of it is back; a crash before leaves the marker set.
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_workspace, &WorkspaceModel::resultsChanged, this, [once] {
        Session::setRestoring(false);
        QObject::disconnect(*once);
    });
    return true;
}

Session MainWindow::session() const {
    Session s = m_workspace->session();
    mode().save(s);
    return s;
}

void MainWindow::applySession(const Session& s, QStringList* errors) {
    std::vector<ModelColumn> cols = s.openColumns(errors);
    m_controls->showView(s.view);
    m_workspace->apply(s, std::move(cols));
    const QStringList problems = mode().restore(s);  // the image: on its own
    if (!problems.isEmpty())
        reportProblems(tr("Part of the workspace's image mode could not be restored"), problems);
}

QString MainWindow::modelSet() const {
    return m_workspace->modelSet();
}

bool MainWindow::saveSession(const QString& path, QString* error) const {
    return session().save(path, error);
}

bool MainWindow::lastSession(Session* out) {
    return Session::loadLast(out);
}

bool MainWindow::watchFolder(const QString& dir, QString* error) {
    return m_folderColumns->watch(dir, error);
}

QString MainWindow::watchedFolder() const {
    return m_folderColumns->folder();
}

void MainWindow::stopWatching() {
    m_folderColumns->stop();
}

}  // namespace attnviz::ui
