# SPDX-License-Identifier: GPL-3.0-or-later
"""The image sets' IDX files, read by the engine's rules (core/idx.cpp, core/image_set.cpp;
docs/limits.md "IDX file"): a regular file of at most 256 MiB, gzip (one member, nothing
after it, inflated no further than the limit) or plain; unsigned bytes only, 1 to 4
dimensions, each at least 1, exactly the data the sizes describe. Fashion-MNIST (28 × 28
grayscale) and the bundled clothing photos (64 × 64 colour, resources/data/clothing-photos:
[N, 64, 64, 3], R, G, B of a pixel together). Every refusal is an InputError with the
engine's message."""
import os
import zlib

from .limits import InputError, read_file

MAX_IDX_FILE_BYTES = 256 << 20  # kMaxIdxFileBytes: as stored, and in elements once inflated
MAX_IDX_DIMS = 4  # kMaxIdxDims
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
           "Ankle boot"]
PHOTO_CLASSES = ["T-Shirt", "Longsleeve", "Pants", "Shoes", "Shirt", "Dress", "Outwear", "Shorts", "Skirt", "Hat"]
PHOTO_SIZE, PHOTO_CHANNELS = 64, 3
PHOTO_SPLITS = ("train", "validation", "test")
MAX_CLASS_LIST_BYTES = 4096
TYPES = {0x08: "unsigned byte", 0x09: "signed byte", 0x0B: "16-bit integer", 0x0C: "32-bit integer",
         0x0D: "32-bit float", 0x0E: "64-bit float"}


def gunzip(raw, what, max_bytes):
    """One gzip member, its CRC and size checked, stopped at `max_bytes` (core gunzip)."""
    z = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = z.decompress(raw, max_bytes + 1)
    except zlib.error as e:
        raise InputError(f"{what}: is not valid gzip data ({e})") from None
    if len(out) > max_bytes:
        raise InputError(f"{what}: decompresses to more than the limit of {max_bytes} bytes (refused there, "
                         "without inflating the rest)")
    if not z.eof:
        raise InputError(f"{what}: the gzip stream is truncated (it ends before its last block)")
    if z.unused_data:
        raise InputError(f"{what}: {len(z.unused_data)} bytes follow the gzip stream (one member expected, "
                         "nothing after it)")
    return out


def parse_idx(raw, what, max_bytes=MAX_IDX_FILE_BYTES):
    """Bytes -> (dims, data bytes)."""
    if len(raw) >= 2 and raw[0] == 0x1F and raw[1] == 0x8B:
        return parse_idx(gunzip(raw, what, max_bytes + 4 + 4 * MAX_IDX_DIMS), what + " (decompressed)", max_bytes)
    if len(raw) < 4:
        raise InputError(f"{what} is {len(raw)} bytes long: too short for an IDX header (4 bytes and the sizes)")
    if raw[0] != 0 or raw[1] != 0:
        raise InputError(f"{what} is not an IDX file: it starts with 0x{raw[0]:02X} 0x{raw[1]:02X}, not 0x00 0x00 "
                         "(or gzip's 0x1F 0x8B)")
    if raw[2] != 0x08:
        raise InputError(f"{what} holds elements of type 0x{raw[2]:02X} ({TYPES.get(raw[2], 'unknown')}); attnviz "
                         "reads IDX files of unsigned bytes (0x08) only")
    n = raw[3]
    if not 1 <= n <= MAX_IDX_DIMS:
        raise InputError(f"{what} has {n} dimensions; an IDX array here has 1 to {MAX_IDX_DIMS}")
    header = 4 + 4 * n
    if len(raw) < header:
        raise InputError(f"{what} is truncated: it ends inside the {n} dimension sizes")
    dims, count = [], 1
    for k in range(n):
        s = int.from_bytes(raw[4 + 4 * k:8 + 4 * k], "big")
        if s == 0:
            raise InputError(f"{what}: dimension {k} has size 0")
        count *= s
        if count > max_bytes:
            raise InputError(f"{what}: the sizes ask for more than {max_bytes} elements (dimension {k} is {s})")
        dims.append(s)
    have = len(raw) - header
    if have < count:
        raise InputError(f"{what} is truncated: its sizes need {count} bytes of data, it has {have}")
    if have > count:
        raise InputError(f"{what} has {have - count} bytes after the data its sizes describe")
    return dims, memoryview(raw)[header:]


def fashion_mnist_dir():
    return os.environ.get("ATTNVIZ_FASHION_MNIST") or "/usr/share/datasets/fashion-mnist"


def split_files(split, directory=None):
    """The candidate paths (gzip first) of a split's images and labels."""
    d = directory or fashion_mnist_dir()
    stem = "train" if split == "train" else "t10k"
    return [os.path.join(d, f"{stem}-{kind}-idx{n}-ubyte{ext}")
            for kind, n in (("images", 3), ("labels", 1)) for ext in (".gz", "")]


def _find(d, name):
    for p in (os.path.join(d, name + ".gz"), os.path.join(d, name)):
        if os.path.lexists(p):
            return p
    raise InputError(f"Fashion-MNIST: neither '{d}/{name}.gz' nor '{d}/{name}' exists (install the Debian package "
                     "dataset-fashion-mnist, or set ATTNVIZ_FASHION_MNIST to the directory that holds the files)")



def _image_of(images, labels, idims, ldims, images_path, labels_path, classes, option, split, index):
    """(pixels, label) of image `index` after checking the labels as core/image_set.cpp does:
    one per image, each below `classes`; InputError naming the file or the option."""
    if len(ldims) != 1 or ldims[0] != idims[0]:
        raise InputError(f"'{labels_path}' does not hold one label per image of '{images_path}' ({idims[0]})")
    for i, v in enumerate(labels):
        if v >= classes:
            raise InputError(f"'{labels_path}': label {v} of image {i} is not a class (0 … {classes - 1})")
    if index >= idims[0]:
        raise InputError(f"{option}: the {split} split has {idims[0]} images")
    n = 1
    for dim in idims[1:]:
        n *= dim
    return list(images[index * n:(index + 1) * n]), labels[index]

def load_image(split, index):
    """(784 pixels, label) of Fashion-MNIST image `index` of `split` (core loadFashionMnist)."""
    if split not in ("train", "test"):
        raise InputError(f"Fashion-MNIST has the splits \"train\" and \"test\", not \"{split}\"")
    d = fashion_mnist_dir()
    stem = "train" if split == "train" else "t10k"
    images_path, labels_path = _find(d, stem + "-images-idx3-ubyte"), _find(d, stem + "-labels-idx1-ubyte")
    idims, images = parse_idx(read_file(images_path, MAX_IDX_FILE_BYTES, "IDX file"), f"'{images_path}'")
    ldims, labels = parse_idx(read_file(labels_path, MAX_IDX_FILE_BYTES, "IDX file"), f"'{labels_path}'")
    if len(idims) != 3 or idims[1] != 28 or idims[2] != 28:
        raise InputError(f"'{images_path}' does not hold 28×28 images (an IDX array [N, 28, 28])")
    return _image_of(images, labels, idims, ldims, images_path, labels_path, len(CLASSES),
                     f"--fashion-mnist {index}", split, index)


# -- the clothing photos (issue 49) -----------------------------------------------------------------

def models_dir():
    """The bundled models: $ATTNVIZ_MODELS, else resources/models of this source tree."""
    return os.environ.get("ATTNVIZ_MODELS") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "resources", "models")


def clothing_photos_dir():
    """$ATTNVIZ_CLOTHING_PHOTOS, else data/clothing-photos beside the bundled models (core
    clothingPhotosDir)."""
    return os.environ.get("ATTNVIZ_CLOTHING_PHOTOS") or os.path.join(models_dir(), "..", "data", "clothing-photos")


_PHOTO_ADVICE = ("they are bundled with attnviz in data/clothing-photos beside the models; set "
                 "ATTNVIZ_CLOTHING_PHOTOS to the directory that holds them")


def photo_split_files(split, directory=None):
    """The candidate paths (gzip first) of a split's images and labels, and classes.txt."""
    d = directory or clothing_photos_dir()
    return [os.path.join(d, f"{split}-{kind}-idx{n}-ubyte{ext}")
            for kind, n in (("images", 4), ("labels", 1)) for ext in (".gz", "")] + [os.path.join(d, "classes.txt")]


def _find_photo_file(d, name):
    for p in (os.path.join(d, name + ".gz"), os.path.join(d, name)):
        if os.path.lexists(p):
            return p
    raise InputError(f"clothing photos: neither '{d}/{name}.gz' nor '{d}/{name}' exists ({_PHOTO_ADVICE})")


def load_photo(split, index):
    """(64·64·3 values, label) of clothing photo `index` of `split` (core loadClothingPhotos):
    value k of pixel (y, x) at (y·64 + x)·3 + k."""
    if split not in PHOTO_SPLITS:
        raise InputError(f"the clothing photos have the splits \"train\", \"validation\" and \"test\", not "
                         f"\"{split}\"")
    d = clothing_photos_dir()
    classes_path = d + "/classes.txt"
    try:
        listed = read_file(classes_path, MAX_CLASS_LIST_BYTES, "class list")
    except InputError as e:
        raise InputError(f"clothing photos: {e} ({_PHOTO_ADVICE})") from None
    if listed != "".join(c + "\n" for c in PHOTO_CLASSES).encode():
        raise InputError(f"'{classes_path}' does not list the ten classes of the clothing photos ("
                         + ", ".join(PHOTO_CLASSES[:-1]) + f" or {PHOTO_CLASSES[-1]}, one a line)")
    images_path = _find_photo_file(d, split + "-images-idx4-ubyte")
    labels_path = _find_photo_file(d, split + "-labels-idx1-ubyte")
    idims, images = parse_idx(read_file(images_path, MAX_IDX_FILE_BYTES, "IDX file"), f"'{images_path}'")
    ldims, labels = parse_idx(read_file(labels_path, MAX_IDX_FILE_BYTES, "IDX file"), f"'{labels_path}'")
    if idims[1:] != [PHOTO_SIZE, PHOTO_SIZE, PHOTO_CHANNELS]:
        raise InputError(f"'{images_path}' does not hold 64×64 colour images (an IDX array [N, 64, 64, 3])")
    return _image_of(images, labels, idims, ldims, images_path, labels_path, len(PHOTO_CLASSES),
                     f"--photo {index}", split, index)
