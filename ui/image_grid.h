// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image set's comparison grid (issue 28): a column per model, headed by its name and its
// predicted class with the probability (a click lists all ten; the tooltip gives the held-out
// accuracy, recorded, and each class's, computed when first seen), its panels below (a row per
// head, or the mean of heads, or the rollout), each an ImagePanelView. It draws an
// ImageModel; clicking a patch in any panel makes it the query of every panel. Only the
// columns in view get their panels (the model selects a column when first asked): a column
// scrolled into view is filled then.
#include <QWidget>
#include <vector>

class QGridLayout;
class QLabel;
class QTableWidget;
class QToolButton;

namespace attnviz {
struct ModelColumn;
}

namespace attnviz::ui {

class ClassAccuracies;
class ImageModel;
class ImagePanelView;

class ImageGrid : public QWidget {
    Q_OBJECT
public:
    explicit ImageGrid(ImageModel* model, QWidget* parent = nullptr);

    int columnCount() const { return int(m_columns.size()); }
    // Column c's header button ("name", "accuracy 89.0 %", then "Ankle boot 87.3 %") and
    // panels. Its tooltip, once about to be shown, asks for each class's held-out accuracy
    // (ClassAccuracies) and lists them when they come.
    QToolButton* header(int c) const { return m_columns[size_t(c)].header; }
    const std::vector<ImagePanelView*>& panels(int c) const { return m_columns[size_t(c)].panels; }
    // Shows the popup listing column c's ten class probabilities (what clicking its header
    // shows) and returns its table; the popup is the table's window(), a menu that closes on
    // Esc or a click outside and deletes itself. Null when the column has no result.
    QTableWidget* showProbabilities(int c);
    // Whether the headers give each model's held-out accuracy from its checkpoint (as the
    // text grid's Quality gives BLEU); on by default.
    void setQuality(bool on) {
        m_quality = on;
        refresh();
    }
    bool quality() const { return m_quality; }
    // The panels' size: the view's zoom (Ctrl+−/+/0, as the text grid's), 1 = 180 × 212 px.
    void setZoom(double zoom);
    double zoom() const { return m_zoom; }
    QSize panelSize() const;
    // Column c's panels now, in view or not (to scroll to one of them).
    void fill(int c);
    bool filled(int c) const { return m_columns[size_t(c)].filled; }

signals:
    // A panel (its patch) or a header of column c was clicked: the column becomes the current
    // one, as a click on a text panel makes it (the Variant dock follows).
    void columnClicked(int c);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;  // a header's tooltip
    void moveEvent(QMoveEvent* event) override;                  // scrolled: columns come into view
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Column {
        QToolButton* header = nullptr;
        QLabel* error = nullptr;
        std::vector<ImagePanelView*> panels;
        bool filled = false;  // its panels show the current results and request
    };
    void rebuild();  // the widgets for the model's columns and panels
    void refresh();  // their contents, from the model's results and request
    void refreshHeader(int c);
    void resultsArrived();
    void columnArrived(int c);
    void markStale();
    void fillVisible();  // the columns in view that are not filled yet
    bool inView(int c) const;
    void setHeaderTip(int c);
    QString classAccuracyTip(const ModelColumn& column) const;  // "" when not asked for
    void classAccuraciesReady();
    void fillColumn(int c);
    ImageModel* m_model;
    QGridLayout* m_layout;
    std::vector<Column> m_columns;
    QLabel* m_empty;                   // while nothing is analysed yet
    double m_sharedTop = 0;            // the shared scale's top (ImageModel::sharedTop) when shared
    bool m_quality = true;             // headers give the held-out accuracy (setQuality)
    double m_zoom = 1;                 // the panels' size factor (setZoom)
    ClassAccuracies* m_classAccuracy;  // per class, for the headers' tooltips
};

}  // namespace attnviz::ui
