// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "core/probe.h"
#include "view_state.h"

class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QSlider;

namespace attnviz::ui {

class HeatmapPanel;

// The "Over training" dock (issue 15): a probe sentence's attention recorded during a
// training run (core/probe.h), one snapshot at a time under a slider, and a filmstrip figure
// of several snapshots. The record comes from a probe file (`attnviz-cli train --probe`) or
// live from the Training tab. A thin view: each snapshot goes through probeResults and
// selectTables (the one road to pixels) into HeatmapPanels, the filmstrip through
// gridPainter and writeFigure.
class FilmDock : public QWidget {
    Q_OBJECT
public:
    explicit FilmDock(QWidget* parent = nullptr);

    // Shows this record (replacing any other); its last snapshot selected.
    void setRecord(attnviz::ProbeRecord record);
    // Appends a snapshot of the record being shown live (in-app training); starts a new live
    // record when `first` is true. Snapshots of a run not shown live (another record was
    // opened since) are dropped. The slider follows the newest snapshot unless the user
    // moved it away from the end.
    void addSnapshot(const QString& runName, const std::string& source, int every,
                     attnviz::ProbeSnapshot snapshot, bool first);
    // Opens a probe file; false with the reason in *error (the file's problem named), the
    // record shown before kept.
    bool openFile(const QString& path, QString* error);
    // What to show of each snapshot: the block kind, layer, heads (all or their mean),
    // colours, scaling and sizes of the window's view. A view that compares columns
    // (difference) or focuses one (every layer) shows the weights of the chosen layer.
    void setView(const ViewState& view);

    const attnviz::ProbeRecord& record() const { return m_record; }
    int currentStep() const;                      // step of the shown snapshot, -1 when none
    QSlider* slider() const { return m_slider; }  // for tests
    // The shown snapshot's table `row` (a head, or their mean), null if none.
    HeatmapPanel* panel(int row) const;
    QLabel* caption() const { return m_caption; }  // "model · "sentence" · step S (k/n)"

    // Writes a filmstrip: the chosen block, layer and heads at `steps` (a column per step,
    // titled "step S") as SVG, PDF or PNG by the extension (a 16:9 slide, PNG at 144 dpi);
    // false with *error (no snapshots, a step not recorded, no such block, unwritable).
    bool exportFilmstrip(const QString& path, const std::vector<int>& steps, QString* error);
    // Writes the record as a probe file (atomically); false with *error.
    bool saveProbe(const QString& path, QString* error) const;
    // Evenly spaced recorded steps for a filmstrip of n frames, first and last included
    // (every step when there are no more than n).
    std::vector<int> filmSteps(int n) const;

signals:
    void message(const QString& text);

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void retranslateUi();
    void showCurrent();   // the slider's snapshot into the caption and the panels
    void updateSlider();  // range and position from the record and m_index
    void openFromDialog();
    void exportFromDialog();
    void saveFromDialog();
    void showCaption(int step);  // the caption and the slider's tooltip for the snapshot at `step`
    void showPanels(int step);   // that snapshot's tables through selectTables into the panels
    attnviz::SelectionRequest request() const;
    render::FigureStyle style() const;

    attnviz::ProbeRecord m_record;
    ViewState m_view;
    int m_index = -1;      // the shown snapshot, -1: none
    bool m_follow = true;  // the slider stays on the newest snapshot
    bool m_live = false;   // m_record is a run of the Training tab, still growing
    bool m_settingSlider = false;
    QPushButton *m_open, *m_export, *m_save;
    QLabel* m_caption;
    QSlider* m_slider;
    QLabel* m_empty;
    QScrollArea* m_scroll;
    QHBoxLayout* m_row;
    std::vector<HeatmapPanel*> m_panels;  // the shown snapshot's tables, left to right
    int m_shown = 0;                      // of which the first m_shown are in use
};

}  // namespace attnviz::ui
