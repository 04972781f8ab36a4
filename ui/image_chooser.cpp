// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_chooser.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QtConcurrent>
#include <algorithm>
#include <utility>

#include "background.h"
#include "image_chooser_parts.h"
#include "image_model.h"

namespace attnviz::ui {
namespace {

struct LoadedSet {
    ImageSet set;
    QString error;
};

}  // namespace

ImageChooser::ImageChooser(ImageModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_task(findImageTask(kFashionMnistTask)),
      m_filter(new QComboBox),
      m_invertBox(new QComboBox),
      m_prepareBox(new QComboBox),
      m_open(new QPushButton),
      m_cancel(new QPushButton),
      m_strip(new QListWidget),
      m_original(new QLabel),
      m_seen(new QLabel),
      m_note(new QLabel),
      m_invertLabel(new QLabel),
      m_prepareLabel(new QLabel) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto* left = new QVBoxLayout;
    left->addWidget(createToolbar());
    m_strip->setViewMode(QListView::IconMode);
    m_strip->setFlow(QListView::LeftToRight);
    m_strip->setWrapping(false);
    m_strip->setMovement(QListView::Static);
    m_strip->setUniformItemSizes(true);
    m_strip->setIconSize(QSize(chooser::kThumb, chooser::kThumb));
    m_strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_strip->setFixedHeight(chooser::kThumb + 36);
    left->addWidget(m_strip);
    left->addWidget(m_note);
    row->addLayout(left, 1);
    for (QLabel* l : {m_original, m_seen}) {
        l->setFixedSize(chooser::kPreview,
                        chooser::kPreview);  // the original: as wide as its steps (below)
        l->setFrameShape(QFrame::StyledPanel);
        l->setAlignment(Qt::AlignCenter);
        row->addWidget(l);
    }
    connect(m_strip, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item) chooseTestImage(item->data(Qt::UserRole).toInt());
    });
    retranslateUi();
}

ImageChooser::~ImageChooser() {
    if (m_cancelOpen) m_cancelOpen->store(true);
}

QWidget* ImageChooser::createToolbar() {
    auto* bar = new QWidget;
    auto* h = new QHBoxLayout(bar);
    h->setContentsMargins(0, 0, 0, 0);
    fillFilter();
    connect(m_filter, &QComboBox::activated, this,
            [this](int i) { setClassFilter(m_filter->itemData(i).toInt()); });
    for (int i = 0; i < 3; ++i) m_invertBox->addItem(QString());
    for (int i = 0; i < 2; ++i) m_prepareBox->addItem(QString());
    connect(m_prepareBox, &QComboBox::activated, this,
            [this](int i) { setPrepare(i == 1 ? PrepareMode::Plain : PrepareMode::Cutout); });
    connect(m_invertBox, &QComboBox::activated, this, [this](int i) {
        setInvert(i == 1 ? InvertMode::Yes : i == 2 ? InvertMode::No : InvertMode::Auto);
    });
    connect(m_open, &QPushButton::clicked, this, &ImageChooser::openImageDialog);
    connect(m_cancel, &QPushButton::clicked, this, &ImageChooser::cancelOpening);
    m_cancel->hide();  // while an image is being opened
    h->addWidget(m_filter);
    h->addWidget(m_open);
    h->addWidget(m_cancel);
    h->addWidget(m_prepareLabel);
    h->addWidget(m_prepareBox);
    h->addWidget(m_invertLabel);
    h->addWidget(m_invertBox);
    h->addStretch(1);
    return bar;
}

void ImageChooser::fillFilter() {
    const QSignalBlocker b(m_filter);
    m_filter->clear();
    m_filter->addItem(QString(), -1);
    for (size_t k = 0; k < m_task->classes->size(); ++k) m_filter->addItem(QString(), int(k));
}

QString ImageChooser::taskName() const {
    return taskLabel(m_task->name);
}

void ImageChooser::retranslateUi() {
    m_filter->setItemText(0, tr("Every class"));
    for (int k = 1; k < m_filter->count(); ++k)
        m_filter->setItemText(k, classLabel((*m_task->classes)[size_t(k - 1)]));
    for (int i = 0; i < m_strip->count(); ++i) m_strip->item(i)->setToolTip(testImageName(i));
    //: %1 the image set: "Fashion-MNIST", "clothing-photo"
    m_filter->setToolTip(tr("Which %1 test images the strip shows").arg(taskName()));
    m_open->setText(tr("Open image…"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop opening the image; the image shown stays"));
    m_open->setToolTip(
        tr("Your own image (PNG, JPEG, BMP, …); you can also drop one on the "
           "window or paste it (Ctrl+V)"));
    m_invertLabel->setText(tr("Invert:"));
    m_invertBox->setItemText(0, tr("auto"));
    m_invertBox->setItemText(1, tr("yes"));
    m_invertBox->setItemText(2, tr("no"));
    m_invertBox->setToolTip(
        tr("Fashion-MNIST items are light on black: auto inverts an "
           "image whose border is light"));
    m_prepareLabel->setText(tr("Photo:"));
    m_prepareBox->setItemText(0, tr("cut out the garment"));
    m_prepareBox->setItemText(1, tr("whole image"));
    m_prepareBox->setToolTip(
        colour() ? tr("Cut out: the garment is separated from its background by colour and "
                      "texture (GrabCut) and set on gray, as the photos these models learned "
                      "from were. Whole image: the photo fitted as it is.")
                 : tr("Cut out: the garment is separated from its background by colour and "
                      "texture (GrabCut), cropped, centred and inverted as Fashion-MNIST's items "
                      "are. Whole image: the image is made 28 × 28 as it is."));
    // A colour task reads a photo's colours: nothing to invert; only a task whose photos were
    // cut out (ImageTask::cutOut) cuts a person's photo out.
    for (QWidget* w : std::initializer_list<QWidget*>{m_invertLabel, m_invertBox})
        w->setVisible(!colour());
    for (QWidget* w : std::initializer_list<QWidget*>{m_prepareLabel, m_prepareBox})
        w->setVisible(!colour() || m_task->cutOut);
    m_original->setToolTip(tr("Your image"));
    m_seen->setToolTip(seenTip());
    if (m_own) setPreviewTips();
    //: %1 the image set: "Fashion-MNIST", "clothing-photo"
    if (m_loading && !m_loaded) m_note->setText(tr("Loading the %1 test images…").arg(taskName()));
    // The note of the test image shown, when it still says that, in the new language.
    if (m_testIndex >= 0 && !m_testNote.isEmpty() && m_note->text() == m_testNote)
        m_note->setText(m_testNote = testImageNote());
}

void ImageChooser::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ImageChooser::setTask(const ImageTask* task) {
    if (!task || task == m_task) return;
    m_task = task;
    ++m_loadGeneration;  // a load of the older task's images still going is dropped
    m_loading = m_loaded = false;
    m_test = ImageSet();
    m_loadError.clear();
    m_testIndex = -1;
    m_pendingTest = -1;  // an index into the older task's images
    m_testNote.clear();
    m_note->clear();
    {
        const QSignalBlocker b(m_strip);
        m_strip->clear();
    }
    // A person's image being opened, else the one shown, is made again for the new task, read
    // again as it was the first time (the file, or the pasted bytes its request holds).
    const std::optional<Request> again =
        m_opening && m_openingRequest.decode ? std::optional<Request>(m_openingRequest)
        : m_own && m_shownRequest.decode     ? std::optional<Request>(m_shownRequest)
                                             : std::nullopt;
    m_own.reset();
    fillFilter();
    retranslateUi();
    m_model->setImage({});  // the image shown does not fit the new task's models
    showPreviews({});
    if (again) startOpening(again->decode, again->path, again->name);
}

void ImageChooser::loadTestImages() {
    if (m_loading) return;
    m_loading = true;
    retranslateUi();
    const int generation = m_loadGeneration;
    // A watcher owned by this chooser: destroyed with it, so a load still going when the
    // window closes delivers to nobody (QFuture::then(this, …) asserted on the vanished
    // context).
    auto* watcher = new QFutureWatcher<LoadedSet>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_loadGeneration) return;  // another task's images came meanwhile
        LoadedSet loaded = watcher->result();
        m_test = std::move(loaded.set);
        m_loadError = loaded.error;
        m_loaded = true;
        m_note->setText(m_loadError);
        if (!m_loadError.isEmpty())
            //: %1 the image set: "Fashion-MNIST", "clothing-photo"
            emit problem(tr("The %1 test images could not be read").arg(taskName()), m_loadError);
        fillStrip();
        if (m_pendingTest >= 0)
            chooseTestImageWhenLoaded(std::exchange(m_pendingTest, -1));
        else if (m_model->image().empty() && !m_opening && m_test.size() > 0)
            m_strip->setCurrentRow(0);  // not over an own image still being decoded
    });
    watcher->setFuture(QtConcurrent::run(backgroundPool(), [task = m_task] {
        LoadedSet out;
        try {
            out.set = task->load("test");
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

bool ImageChooser::waitForTestImages(QString* error) {
    loadTestImages();
    while (!m_loaded) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (error) *error = m_loadError;
    return m_loadError.isEmpty();
}

void ImageChooser::fillStrip() {
    const QSignalBlocker b(m_strip);
    m_strip->clear();
    const int label = m_filter->currentData().toInt();
    int shown = 0;
    for (size_t i = 0; i < m_test.size() && shown < chooser::kStripMax; ++i) {
        if (label >= 0 && m_test.labels[i] != label) continue;
        const QImage img =
            chooser::pixelsQImage(m_test.image(i), m_test.cols, m_test.rows, m_test.channels);
        auto* item = new QListWidgetItem(
            QIcon(QPixmap::fromImage(img.scaled(chooser::kThumb, chooser::kThumb))), {});
        item->setData(Qt::UserRole, int(i));
        m_strip->addItem(item);
        item->setToolTip(testImageName(m_strip->count() - 1));
        ++shown;
    }
}

QString ImageChooser::testImageName(int row) const {
    const int i = m_strip->item(row)->data(Qt::UserRole).toInt();
    return classLabel((*m_task->classes)[m_test.labels[size_t(i)]]) + QString(" · #%1").arg(i);
}

void ImageChooser::setClassFilter(int label) {
    m_filter->setCurrentIndex(std::max(0, m_filter->findData(label)));
    fillStrip();
}

bool ImageChooser::chooseTestImageWhenLoaded(int index, QString* error) {
    if (!m_loaded) {
        m_pendingTest = index;
        loadTestImages();
        return true;
    }
    if (index >= 0 && size_t(index) < m_test.size()) {
        chooseTestImage(index);
        for (int row = 0; row < m_strip->count(); ++row)  // shown in the strip when it is there
            if (m_strip->item(row)->data(Qt::UserRole).toInt() == index) {
                const QSignalBlocker b(m_strip);
                m_strip->setCurrentRow(row);
            }
        return true;
    }
    return refuse(tr("The workspace's image could not be shown"),
                  //: %3 the image set: "Fashion-MNIST", "clothing-photo"
                  tr("Test image %1 is not among the %2 %3 test images.")
                      .arg(index)
                      .arg(m_test.size())
                      .arg(taskName()),
                  error);
}

void ImageChooser::chooseTestImage(int index) {
    if (index < 0 || size_t(index) >= m_test.size()) return;
    cancelOpening();
    m_own.reset();
    m_ownPath.clear();
    m_testIndex = index;
    const uint8_t* first = m_test.image(size_t(index));
    std::vector<uint8_t> px(first, first + m_test.imageBytes());
    m_model->setImage(px, m_test.labels[size_t(index)],
                      m_task->name + " test image " + std::to_string(index));
    showPreviews({});
    m_note->setText(m_testNote = testImageNote());
}

QString ImageChooser::testImageNote() const {
    return tr("Test image %1: %2")
        .arg(m_testIndex)
        .arg(classLabel((*m_task->classes)[m_test.labels[size_t(m_testIndex)]]));
}

}  // namespace attnviz::ui
