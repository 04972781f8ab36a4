// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_chooser.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QUrl>
#include <QtConcurrent>
#include <algorithm>
#include <cstring>
#include <utility>

#include "background.h"
#include "core/error.h"
#include "core/session_file.h"
#include "image_model.h"
#include "render/image_file.h"

namespace attnviz::ui {
namespace {

constexpr int kStripMax = 400;  // thumbnails in the strip (the filter narrows them)
constexpr int kThumb = 48;      // a thumbnail's side, pixels
constexpr int kPreview = 84;    // the previews' side

// Pixels [h, w, channels] (1: gray, 3: RGB) as an image.
QImage pixelsQImage(const uint8_t* px, int w, int h, int channels) {
    QImage img(w, h, channels == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    const size_t row = size_t(w) * size_t(channels);
    for (int y = 0; y < h; ++y) std::memcpy(img.scanLine(y), px + size_t(y) * row, row);
    return img;
}

struct LoadedSet {
    ImageSet set;
    QString error;
};

// Pasted bytes decoded as a file's (render::readColorImageBytes), by MIME type; a QImage put on
// the clipboard by this process has no bytes and comes as application/x-qt-image.
const char* const kImageMimeTypes[] = {"image/png",
                                       "image/jpeg",
                                       "image/bmp",
                                       "image/gif",
                                       "image/webp",
                                       "image/tiff",
                                       "image/x-portable-graymap"};

}  // namespace

// Both preparations of a person's image, made once in the background: switching between them
// or the invert switch only chooses among these.
struct ImageChooser::Opened {
    const ImageTask* task = nullptr;  // whose input it is made for
    int width = 0, height = 0;        // the image as decoded
    std::vector<uint8_t> colourSeen;  // a colour task's input: [S, S, 3], the photo fitted
    // A gray task's: (empty for a colour task)
    ModelImage seen[2];        // the whole image: as it is, inverted
    bool autoInverts = false;  // what InvertMode::Auto chooses for the whole image
    GarmentCutout cut[2];      // the garment cut out: not inverted, inverted (auto)
    QImage steps[2];           // cutoutStepsImage of each, at the preview's height
    QImage preview;            // the original at the preview's size (gray for a gray task)
    ColorImage pasted;         // a pasted image's pixels, for a workspace; empty for a file
    QString error;             // why it could not be read; "" when it was
    bool cancelled = false;
};

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
    m_strip->setIconSize(QSize(kThumb, kThumb));
    m_strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_strip->setFixedHeight(kThumb + 36);
    left->addWidget(m_strip);
    left->addWidget(m_note);
    row->addLayout(left, 1);
    for (QLabel* l : {m_original, m_seen}) {
        l->setFixedSize(kPreview, kPreview);  // the original: as wide as its steps (below)
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
        tr("Cut out: the garment is separated from its background by colour and texture "
           "(GrabCut), cropped, centred and inverted as Fashion-MNIST's items are. Whole "
           "image: the image is made 28 × 28 as it is."));
    // A colour task reads a photo as it is: nothing to cut out or invert.
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_invertLabel, m_invertBox, m_prepareLabel, m_prepareBox})
        w->setVisible(!colour());
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
    for (size_t i = 0; i < m_test.size() && shown < kStripMax; ++i) {
        if (label >= 0 && m_test.labels[i] != label) continue;
        const QImage img = pixelsQImage(m_test.image(i), m_test.cols, m_test.rows, m_test.channels);
        auto* item = new QListWidgetItem(QIcon(QPixmap::fromImage(img.scaled(kThumb, kThumb))), {});
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

bool ImageChooser::refuse(const QString& heading, const QString& why, QString* error) {
    if (error) *error = why;
    m_note->setText(why);
    emit problem(heading, why);
    return false;
}

void ImageChooser::startOpening(Decode decode, const QString& path, const std::string& ownName) {
    const bool keepPixels = path.isEmpty();  // a pasted image: kept for a saved workspace
    cancelOpening();
    m_openingRequest = {decode, path, ownName};
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancelOpen = cancel;
    const int generation = ++m_openGeneration;
    m_opening = true;
    m_openError.clear();
    m_cancel->show();
    m_note->setText(path.isEmpty() ? tr("Opening the pasted image…")
                                   : tr("Opening %1…").arg(QFileInfo(path).fileName()));
    // A watcher owned by this chooser (as the test images' loader): gone with it, so a decode
    // still running when the window closes delivers to nobody.
    auto* watcher = new QFutureWatcher<std::shared_ptr<Opened>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [=] {
        watcher->deleteLater();
        if (generation == m_openGeneration) finishOpening(watcher->result(), path, ownName);
    });
    watcher->setFuture(QtConcurrent::run(
        backgroundPool(), [decode = std::move(decode), cancel, keepPixels, task = m_task] {
            auto out = std::make_shared<Opened>();
            out->task = task;
            const int kSize = task->imageSize;
            try {
                ColorImage color = decode(cancel.get());
                out->width = color.width;
                out->height = color.height;
                if (task->channels == 3) {  // read as it is (model-spec 3.12)
                    out->colourSeen = prepareColorModelImage(color, kSize);
                    out->preview = render::qImage(color).scaled(
                        kPreview - 4, kPreview - 4, Qt::KeepAspectRatio, Qt::SmoothTransformation);
                    if (keepPixels) out->pasted = std::move(color);
                    return out;
                }
                const GrayImage gray = grayImage(color);
                const ModelImage automatic = prepareModelImage(gray, kSize, InvertMode::Auto);
                out->autoInverts = automatic.inverted;
                out->seen[automatic.inverted ? 1 : 0] = automatic;
                out->seen[automatic.inverted ? 0 : 1] = prepareModelImage(
                    gray, kSize, automatic.inverted ? InvertMode::No : InvertMode::Yes);
                out->preview = pixelsQImage(gray.pixels.data(), gray.width, gray.height, 1)
                                   .scaled(kPreview - 4, kPreview - 4, Qt::KeepAspectRatio,
                                           Qt::SmoothTransformation);
                for (int k = 0; k < 2; ++k) {  // GrabCut on a copy of at most 320 pixels: < 1 s
                    if (cancel->load()) throw Cancelled();
                    out->cut[k] = cutOutGarment(color, kSize, k ? InvertMode::Yes : InvertMode::No);
                    // At the preview's height, at most three previews wide (a long shoe's crop).
                    out->steps[k] = render::qImage(cutoutStepsImage(out->cut[k]))
                                        .scaled(3 * kPreview, kPreview - 4, Qt::KeepAspectRatio,
                                                Qt::SmoothTransformation);
                    out->cut[k].work = {};  // shown by the steps; not kept twice
                }
                if (keepPixels) out->pasted = std::move(color);
            } catch (const Cancelled&) {
                out->cancelled = true;
            } catch (const std::exception& e) {
                out->error = QString::fromStdString(e.what());
            }
            return out;
        }));
}

void ImageChooser::finishOpening(std::shared_ptr<Opened> opened, const QString& path,
                                 const std::string& ownName) {
    m_opening = false;
    m_cancel->hide();
    m_cancelOpen.reset();
    if (opened->cancelled || !opened->error.isEmpty()) {
        m_openError = opened->cancelled ? tr("Opening the image was cancelled.") : opened->error;
        refuse(tr("The image could not be opened"), m_openError, nullptr);
        emit openingFinished(false);
        return;
    }
    m_own = std::move(opened);
    m_shownRequest = m_openingRequest;
    m_ownPath = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    m_ownName = ownName;
    showOwnImage();
    emit openingFinished(true);
}

void ImageChooser::cancelOpening() {
    if (!m_opening) return;
    m_cancelOpen->store(true);
    ++m_openGeneration;  // whatever it still delivers is dropped
    m_opening = false;
    m_cancelOpen.reset();
    m_cancel->hide();
    m_openError = tr("Opening the image was cancelled.");
    m_note->setText(m_openError);
    emit openingFinished(false);
}

bool ImageChooser::waitForImage(QString* error) {
    QEventLoop loop;
    connect(this, &ImageChooser::openingFinished, &loop, &QEventLoop::quit);
    while (m_opening) loop.exec();  // a newer request may have replaced the one waited for
    if (error) *error = m_openError;
    return m_openError.isEmpty();
}

void ImageChooser::requestImageFile(const QString& path) {
    startOpening(
        [p = path.toStdString()](const std::atomic<bool>* cancel) {
            return render::readColorImageFile(p, cancel);
        },
        path, "file '" + path.toStdString() + "'");
}

bool ImageChooser::openImageFile(const QString& path, QString* error) {
    requestImageFile(path);
    return waitForImage(error);
}

bool ImageChooser::requestMime(const QMimeData* mime, QString* error) {
    if (mime) {
        for (const char* type : kImageMimeTypes) {
            if (!mime->hasFormat(type)) continue;
            startOpening(
                [bytes = mime->data(type).toStdString()](const std::atomic<bool>* cancel) {
                    return render::readColorImageBytes(bytes, "the pasted image", cancel);
                },
                {}, "the pasted image");
            return true;
        }
        if (mime->hasImage()) {
            startOpening(
                [image = qvariant_cast<QImage>(mime->imageData())](const std::atomic<bool>*) {
                    return render::colorImage(image, "the pasted image");
                },
                {}, "the pasted image");
            return true;
        }
        if (mime->hasUrls())
            for (const QUrl& url : mime->urls())
                if (url.isLocalFile()) {
                    requestImageFile(url.toLocalFile());
                    return true;
                }
    }
    return refuse(tr("The image could not be opened"), tr("The clipboard holds no image."), error);
}

bool ImageChooser::openMime(const QMimeData* mime, QString* error) {
    return requestMime(mime, error) && waitForImage(error);
}

std::string ImageChooser::pastedPng() const {
    if (!m_own || !m_ownPath.isEmpty() || m_testIndex >= 0 || m_own->pasted.rgb.empty()) return {};
    // A workspace holds at most kMaxPastedPngBytes of PNG: a larger photo is kept at half its
    // size, and half again, until it fits (a workspace that could not be opened again would
    // lose everything else in it).
    std::string png = render::colorPng(m_own->pasted);
    QImage image = render::qImage(m_own->pasted);
    while (png.size() > kMaxPastedPngBytes && image.width() > 1 && image.height() > 1) {
        image = image.scaled(image.width() / 2, image.height() / 2, Qt::IgnoreAspectRatio,
                             Qt::SmoothTransformation);
        png = render::colorPng(render::colorImage(image, "the pasted image"));
    }
    return png;
}

void ImageChooser::requestPastedPng(const std::string& png) {
    startOpening(
        [png](const std::atomic<bool>* cancel) {
            return render::readColorImageBytes(png, "the pasted image kept in the workspace",
                                               cancel);
        },
        {}, "the pasted image");
}

bool ImageChooser::openPastedPng(const std::string& png, QString* error) {
    requestPastedPng(png);
    return waitForImage(error);
}

void ImageChooser::setInvert(InvertMode mode) {
    m_invert = mode;
    m_invertBox->setCurrentIndex(mode == InvertMode::Yes ? 1 : mode == InvertMode::No ? 2 : 0);
    if (m_own) showOwnImage();
}

void ImageChooser::setPrepare(PrepareMode mode) {
    m_prepare = mode;
    m_prepareBox->setCurrentIndex(mode == PrepareMode::Plain ? 1 : 0);
    if (m_own) showOwnImage();
}

void ImageChooser::showOwnImage() {
    if (m_own->task != m_task) return;  // made for another task: being made again
    const QString name = m_ownPath.isEmpty()
                             ? tr("Your pasted image")
                             : tr("Your image: %1").arg(QFileInfo(m_ownPath).fileName());
    if (colour()) {
        const QSignalBlocker b(m_strip);
        m_strip->setCurrentRow(-1);
        m_testIndex = -1;
        m_model->setImage(m_own->colourSeen, std::nullopt,
                          m_ownName + " (" + std::to_string(m_own->width) + "×" +
                              std::to_string(m_own->height) +
                              " pixels, colour, fitted on its mean colour)");
        showPreviews(m_own->preview);
        setPreviewTips();
        m_note->setText(name);
        return;
    }
    const bool cutout = m_prepare == PrepareMode::Cutout, invert = ownInverted();
    const GarmentCutout& cut = m_own->cut[invert ? 1 : 0];
    const ModelImage& in = cutout ? cut.model : m_own->seen[invert ? 1 : 0];
    const std::string how = cutout ? cutoutSummary(cut)
                                   : std::string(in.inverted ? ", inverted" : "") +
                                         (in.fitted ? ", trimmed and fitted" : "");
    const QSignalBlocker b(m_strip);
    m_strip->setCurrentRow(-1);
    m_testIndex = -1;
    m_model->setImage(in.pixels, std::nullopt,
                      m_ownName + " (" + std::to_string(m_own->width) + "×" +
                          std::to_string(m_own->height) + " pixels" + how + ")");
    showPreviews(cutout ? m_own->steps[invert ? 1 : 0] : m_own->preview);
    setPreviewTips();
    m_note->setText(
        cutout && !cut.found && cut.model.fitted
            ? tr("%1 (no garment cut out: %2)").arg(name, QString::fromStdString(cut.note))
            : name);
}

bool ImageChooser::ownInverted() const {
    if (colour()) return false;
    if (m_prepare == PrepareMode::Cutout) return m_invert != InvertMode::No;
    return m_invert == InvertMode::Yes || (m_invert == InvertMode::Auto && m_own->autoInverts);
}

QString ImageChooser::seenTip() const {
    //: %1 the side in pixels (28, 64); %2 "grayscale" or "colour"
    return tr("The %1 × %1 %2 image the models see")
        .arg(m_task->imageSize)
        .arg(colour() ? tr("colour") : tr("grayscale"));
}

void ImageChooser::setPreviewTips() {
    if (colour()) {
        m_original->setToolTip(tr("Your image"));
        m_seen->setToolTip(
            seenTip() +
            tr(": your photo as it is, its longer side scaled to %1 pixels and the rest filled "
               "with its mean colour, as the clothing photos were made")
                .arg(m_task->imageSize));
        return;
    }
    const bool cutout = m_prepare == PrepareMode::Cutout, invert = ownInverted();
    const GarmentCutout& cut = m_own->cut[invert ? 1 : 0];
    m_original->setToolTip(
        !cutout     ? tr("Your image")
        : cut.found ? tr("Your image with the garment found outlined, and the garment cropped; the "
                         "models read it as the 28 × 28 image on the right")
                    : tr("No garment was cut out (%1): the whole image is used")
                          .arg(QString::fromStdString(cut.note)));
    m_seen->setToolTip(seenTip() + (invert ? tr(" (inverted)") : QString()));
}

void ImageChooser::showPreviews(const QImage& own) {
    m_original->setVisible(!own.isNull());
    if (!own.isNull()) {  // at its height already; the steps are wider than the photo alone
        m_original->setFixedWidth(std::max(kPreview, own.width() + 4));
        m_original->setPixmap(QPixmap::fromImage(own));
    }
    const auto& px = m_model->image();
    const int side = m_task->imageSize, channels = m_task->channels;
    if (px.size() == size_t(side) * size_t(side) * size_t(channels))
        m_seen->setPixmap(QPixmap::fromImage(
            pixelsQImage(px.data(), side, side, channels).scaled(kPreview - 4, kPreview - 4)));
    else
        m_seen->clear();
}

void ImageChooser::openImageDialog() {
    QStringList patterns;
    for (const auto& f : render::imageFileFormats())
        patterns << "*." + QString::fromStdString(f == "jpeg" ? "jpg" : f);
    patterns << "*.jpeg"
             << "*.tif";
    const QString path = QFileDialog::getOpenFileName(this, tr("Open image"), QString(),
                                                      tr("Images (%1)").arg(patterns.join(' ')));
    if (!path.isEmpty()) requestImageFile(path);
}

}  // namespace attnviz::ui
