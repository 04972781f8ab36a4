// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's Columns › Compare presets and Choose models…: the columns a lecture needs,
// from the workspace's model set (else the default set), models already shown kept as they
// are (their edited settings, models trained here).
#include <QDir>
#include <QFileInfo>
#include <algorithm>

#include "column_files.h"
#include "language.h"
#include "main_window.h"
#include "model_picker.h"

namespace attnviz::ui {

const ModelSet& MainWindow::comparisonSet() const {
    static const ModelSet none;  // no bundled set at all: an empty folder
    const ModelSet* set = findModelSet(modelSet().toStdString());
    return set ? *set : modelSets().empty() ? none : modelSets().front();
}

namespace {

// The set's checkpoints as columns holding only their paths (named as openColumnsIn names
// them, sorted): enough for presetKey and the picker; opened only once chosen.
std::vector<ModelColumn> setFiles(const ModelSet& set) {
    std::vector<ModelColumn> out;
    const QDir d(QString::fromStdString(modelSetDirectory(set)));
    for (const QString& name : d.entryList({"*.safetensors"}, QDir::Files, QDir::Name)) {
        ModelColumn c;
        c.path = d.filePath(name).toStdString();
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

// `wanted` (columns of the set, in order) with each model already shown taken from the
// workspace instead and the others opened; asks first when models trained here would be
// closed. Files that cannot be opened are named in the Problems panel and left out.
bool MainWindow::showColumns(std::vector<ModelColumn> wanted, const QString& title) {
    std::vector<ModelColumn> dropped;
    for (const auto& c : columns())
        if (c.path.empty() && std::none_of(wanted.begin(), wanted.end(),
                                           [&](const auto& w) { return w.model == c.model; }))
            dropped.push_back(c);
    if (!offerToSave(dropped, title,
                     tr("%1 model(s) trained here are not saved and would be closed; their "
                        "training is lost.")
                         .arg(dropped.size()),
                     tr("C&lose them")))
        return false;
    std::vector<ModelColumn> shown;
    QStringList problems;
    for (auto& w : wanted) {
        for (const auto& c : columns())
            if (!w.path.empty() && c.path == w.path) w = c;  // its settings and state as shown
        if (w.model) {
            shown.push_back(std::move(w));
        } else if (QString error; auto c = openColumn(QString::fromStdString(w.path), &error)) {
            shown.push_back(std::move(*c));
        } else {
            problems << error;
        }
    }
    if (!problems.isEmpty())
        reportProblems(tr("%1 checkpoint(s) in %2 could not be opened and were skipped")
                           .arg(problems.size())
                           .arg(QString::fromStdString(modelSetDirectory(comparisonSet()))),
                       problems);
    wanted = std::move(shown);
    m_workspace->setModelSet(QString::fromStdString(comparisonSet().id));
    setColumns(std::move(wanted));
    return true;
}

void MainWindow::applyComparison(const QString& id) {
    const ComparisonPreset* preset = findComparisonPreset(id.toStdString());
    if (!preset) return;
    const ModelSet& set = comparisonSet();
    auto chosen = presetColumns(setFiles(set), *preset);
    if (chosen.empty()) {
        message(tr("\"%1\" has none of the models of \"%2\"")
                    .arg(engineText(set.label), engineText(preset->label)));
        return;
    }
    if (showColumns(std::move(chosen), engineText(preset->label)))
        message(tr("%1: %2 models").arg(engineText(preset->label)).arg(columns().size()));
}

bool MainWindow::showsComparison(const QString& id) const {
    const ComparisonPreset* preset = findComparisonPreset(id.toStdString());
    if (!preset || columns().empty()) return false;
    const auto wanted = presetColumns(setFiles(comparisonSet()), *preset);
    return std::equal(wanted.begin(), wanted.end(), columns().begin(), columns().end(),
                      [](const ModelColumn& a, const ModelColumn& b) {
                          return !b.path.empty() && QFileInfo(QString::fromStdString(a.path)) ==
                                                        QFileInfo(QString::fromStdString(b.path));
                      });
}

void MainWindow::chooseModels() {
    const auto all = setFiles(comparisonSet());
    // Keys: a column's path, or "#k" for the k-th shown column without one.
    QStringList names, keys, shown;
    for (size_t k = 0; k < columns().size(); ++k) {
        const auto& c = columns()[k];
        const QString key = c.path.empty() ? QString("#%1").arg(k) : QString::fromStdString(c.path);
        names << QString::fromStdString(c.name);
        keys << key;
        shown << key;
    }
    for (const auto& c : all)
        if (!keys.contains(QString::fromStdString(c.path))) {
            names << QString::fromStdString(presetKey(c));  // not opened: its file's name
            keys << QString::fromStdString(c.path);
        }
    ModelPicker picker(names, keys, shown, this);
    if (m_pickModels ? !m_pickModels(picker) : picker.exec() != QDialog::Accepted) return;
    std::vector<ModelColumn> wanted;
    for (const QString& key : picker.chosen()) {
        if (key.startsWith('#')) {
            wanted.push_back(columns()[size_t(key.mid(1).toInt())]);
            continue;
        }
        auto pick = [&](const std::vector<ModelColumn>& from) {
            for (const auto& c : from)
                if (QString::fromStdString(c.path) == key) {
                    wanted.push_back(c);
                    return true;
                }
            return false;
        };
        if (!pick(columns())) pick(all);  // a shown one as it is
    }
    showColumns(std::move(wanted), tr("Choose models"));
}

}  // namespace attnviz::ui
