// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QListWidget>
#include <QWidget>

namespace attnviz::ui {

class WorkspaceModel;

// A list of sentences loaded from a text file (one per line) or a TSV (source, tab,
// target), walked with the arrow keys: the current entry becomes the workspace's sentence.
// With a workspace (follow), the list is the workspace's: shown from it, loaded into it.
class SentenceList : public QWidget {
    Q_OBJECT
public:
    explicit SentenceList(QWidget* parent = nullptr);

    // Reads `path`; false with a message in *error when it cannot (the list is unchanged).
    bool loadFile(const QString& path, QString* error);
    void setLines(const QStringList& lines);  // "source" or "source\ttarget"
    QStringList lines() const;
    QListWidget* list() const { return m_list; }
    // Shows the workspace's list and current entry; a file loaded or an entry chosen here
    // becomes the workspace's list, entry and sentence.
    void follow(WorkspaceModel* workspace);
    int currentIndex() const { return m_list->currentRow(); }
    void setCurrentIndex(int i) { m_list->setCurrentRow(i); }

signals:
    void linesChanged();  // setLines (a file loaded, a session restored)
    void sentenceChosen(const QString& source, const QString& target);

private:
    QListWidget* m_list;
};

}  // namespace attnviz::ui
