// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QComboBox;
class QLineEdit;

namespace attnviz::ui {

class WorkspaceModel;

// The Source and Target fields edit the workspace's sentence and show it, whoever set it
// (typing, the sentence list, a workspace opened).
void followSentence(WorkspaceModel* workspace, QLineEdit* source, QLineEdit* target);

// The Models box shows the workspace's set (choosing one: MainWindow::chooseModelSet).
void followModelSet(WorkspaceModel* workspace, QComboBox* box);

}  // namespace attnviz::ui
