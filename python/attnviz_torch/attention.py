# SPDX-License-Identifier: GPL-3.0-or-later
"""python3 -m attnviz_torch.attention --model M (--text T [--target U] | --fashion-mnist K | --photo K) [--split S]

Prints the attention dump of docs/model-spec.md ("Attention dump (JSON)"), the same JSON as
`attnviz-cli attention`: every block's weights for one sentence, computed by the PyTorch
model. Without a target (or with one that tokenizes to nothing) a seq2seq model decodes
greedily (3.9), and the target's text is the decoded tokens detokenized (8). An image model
(arch "vit") dumps Fashion-MNIST image K of --split test or train, or (a colour model of the
clothing photos) photo K of --split test, validation or train (8.1); a person's own image file
(attnviz-cli attention --image F, 3.11, 3.12) is the engine's: this package decodes no image
files and refuses --image by name. --out may not be the same file as an input (--model, the
image set's files), after symbolic and hard links; without --out, or with -, the dump goes to
standard output."""
import argparse
import json
import sys

import torch

from . import config as cfgmod
from . import idx
from .checkpoint import check_outputs, unwind_on_signals, write_file_atomically
from .limits import InputError, excerpt
from .model import BOS, EOS, PAD, AttnvizModel


def greedy_limit(model, n):
    """The most tokens greedy decoding emits for n source tokens (docs/model-spec.md 3.9):
    min(2n + 10, the longest target the model accepts)."""
    return min(2 * n + 10, cfgmod.max_target_tokens(model.cfg))


def greedy(model, src_ids, limit=None):
    """Greedy decoding (3.9): the arg-max over the target vocabulary without <pad> and <bos>
    (lowest id on ties), until <eos> (not part of the output) or `limit` tokens (default:
    greedy_limit)."""
    limit = greedy_limit(model, len(src_ids)) if limit is None else limit
    out = []
    with torch.no_grad():
        src = torch.tensor([src_ids + [EOS]])
        for _ in range(limit):
            logits = model.forward(src, torch.tensor([[BOS] + out]))[0, -1].clone()
            logits[PAD] = logits[BOS] = float("-inf")
            nxt = int(torch.argmax(logits))  # the first maximum: the lowest id
            if nxt == EOS:
                break
            out.append(nxt)
    return out


def _check_length(n, limit, c, what, special):
    if n > limit:
        note = f" (max_len {c['max_len']} less one for <{special}>)" if limit + 1 == c["max_len"] else ""
        raise InputError(f"the {what} has {n} tokens; this model accepts at most {limit}{note}")


def image_dump(model, name, pixels, label=None, source=""):
    """The image model's dump (docs/model-spec.md 8.1), as `attnviz-cli attention` writes it
    for an image: pixels, logits, probabilities, prediction, loss (with a label), blocks."""
    c = model.cfg
    record = []
    with torch.no_grad():
        px = torch.as_tensor(pixels, dtype=torch.long).reshape(1, -1)
        logits = model.forward_images(px, record=record)[0]
    for A, (_, p) in zip(record, model._blocks()):
        if not bool(torch.isfinite(A).all()) or not bool(torch.isfinite(logits).all()):
            raise InputError(f"this model's weights give non-finite attention or logits (NaN or infinity) in "
                             f"{p.rstrip('.')}: the checkpoint's values are too large to compute with")
    probs = torch.softmax(logits.double(), 0)
    d = {"model": name, "config": c,
         "image": {"size": c["image_size"], "channels": c["channels"], "pixels": [int(p) for p in px[0]],
                   "source": source},
         "classes": model.classes, "logits": [float(x) for x in logits],
         "probabilities": [float(x) for x in probs],
         "prediction": {"index": int(torch.argmax(logits)), "class": model.classes[int(torch.argmax(logits))]}}
    if label is not None:
        d["image"]["label"] = label
        d["loss"] = float(-torch.log_softmax(logits.double(), 0)[label])
    names = [p for _, p in model._blocks()]
    d["blocks"] = [{"name": p[:-1], "kind": "encoder_self", "layer": i, "variant": c["encoder_self"]["variant"],
                    "heads": c["encoder_self"]["heads"], "weights": A[0].tolist()}
                   for i, (A, p) in enumerate(zip(record, names))]
    return d


def dump(model, name, text, target=None):
    c = model.cfg
    seq2seq = c["arch"] == "seq2seq"
    toks = model.tokenizer.tokenize(text)
    if not toks:
        raise InputError("the source sentence is empty: type a sentence" if seq2seq else
                         "the text is empty: type a sentence")
    d = {"model": name, "config": c}
    decoded = False
    if seq2seq:
        _check_length(len(toks), cfgmod.max_source_tokens(c), c, "source", "eos")
        sids = [model._src_index.get(t, 1) for t in toks]
        d["source"] = {"text": text, "tokens": toks + ["<eos>"], "ids": sids + [EOS]}
        ttoks = model.tokenizer.tokenize(target) if target is not None else []
        if ttoks:
            _check_length(len(ttoks), cfgmod.max_target_tokens(c), c, "target", "bos")
            tids = [model._tgt_index.get(t, 1) for t in ttoks]
            ttext = target
        else:
            tids = greedy(model, sids)
            ttoks = [model.tgt_vocab[i] for i in tids]
            ttext, decoded = model.tokenizer.detokenize(ttoks), True
    else:
        if target is not None:
            raise InputError("a decoder-only model takes one text, not a target")
        _check_length(len(toks), cfgmod.max_target_tokens(c), c, "text", "bos")
        sids, ttoks, ttext = None, toks, text
        tids = [model._tgt_index.get(t, 1) for t in toks]
    d["target"] = {"text": ttext, "tokens": ["<bos>"] + ttoks, "ids": [BOS] + tids, "decoded": decoded}
    record = []
    with torch.no_grad():
        src, tin, tout = model.batch([(sids, tids)])
        logits = model.forward(src, tin, record=record)
        loss = torch.nn.functional.cross_entropy(logits[0], tout[0])
    d["loss"] = float(loss)
    blocks = []
    names = [p for _, p in model._blocks()]
    kinds = [k for k, _ in model._blocks()]
    # Dump order: encoder layers, then each decoder layer's self and cross blocks (the order
    # the forward pass records them in, which _blocks() lists).
    for A, kind, prefix in zip(record, kinds, names):
        for h in range(A.shape[1]):
            if not bool(torch.isfinite(A[0, h]).all()):
                raise InputError("this model's weights give non-finite attention (NaN or infinity) in "
                                 f"{prefix.rstrip('.')}, head {h}: the checkpoint's values are too large "
                                 "to compute with")
        layer = int(prefix.split(".")[2])
        blocks.append({"name": prefix.rstrip("."), "kind": kind, "layer": layer,
                       "variant": c[kind]["variant"], "heads": c[kind]["heads"],
                       "weights": A[0].tolist()})
    d["blocks"] = blocks
    return d


MAX_FASHION_MNIST_INDEX = 59999  # the engine's --fashion-mnist and --photo range (0 … 59999)


def _shape(size, channels, classes):
    return f"{size}×{size} {'grayscale' if channels == 1 else 'colour'} images of {classes} classes"


def _check_task_model(task, size, channels, classes, c, what):
    """core ImageTask::checkModel: the model takes the task's images and classes."""
    if c["image_size"] != size or c["channels"] != channels or c["classes"] != classes:
        raise InputError(f"task '{task}' has {_shape(size, channels, classes)}; {what} takes "
                         f"{_shape(c['image_size'], c['channels'], c['classes'])} (image_size, channels and "
                         "classes of its configuration)")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m attnviz_torch.attention", description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--text", help="source sentence (decoder-only models: the text)")
    ap.add_argument("--target", help="target sentence; without it a seq2seq model decodes greedily")
    ap.add_argument("--fashion-mnist", type=int, metavar="K", help="image models: the Fashion-MNIST image of this "
                                                                   "index (of --split)")
    ap.add_argument("--photo", type=int, metavar="K", help="colour image models of the clothing photos: the photo "
                                                            "of this index (of --split)")
    ap.add_argument("--split", default="test", help="with --fashion-mnist: test or train; with --photo: test, "
                                                    "validation or train (default: test)")
    ap.add_argument("--image", help="not here: attnviz-cli attention --image F reads image files")
    ap.add_argument("--out", help="output file (default, or -: standard output)")
    a = ap.parse_args(argv)
    unwind_on_signals()
    if a.fashion_mnist is not None and not 0 <= a.fashion_mnist <= MAX_FASHION_MNIST_INDEX:
        ap.error(f"--fashion-mnist: must be between 0 and {MAX_FASHION_MNIST_INDEX}, got {a.fashion_mnist}")
    if a.photo is not None and not 0 <= a.photo <= MAX_FASHION_MNIST_INDEX:
        ap.error(f"--photo: must be between 0 and {MAX_FASHION_MNIST_INDEX}, got {a.photo}")
    try:
        inputs = [("--model", a.model), ("--image", a.image)]
        if a.fashion_mnist is not None:
            inputs += [("--fashion-mnist's file", f) for f in idx.split_files(a.split)]
        if a.photo is not None:
            inputs += [("--photo's file", f) for f in idx.photo_split_files(a.split)]
        check_outputs([("--out", a.out)], inputs)
        if sum(x is not None for x in (a.image, a.fashion_mnist, a.photo)) > 1:
            raise InputError("give one of --image, --fashion-mnist and --photo")
        if a.photo is not None or a.split == "validation":
            if a.split not in ("test", "train", "validation"):
                raise InputError(f"--split must be test, validation or train, got {excerpt(a.split)}")
            if a.fashion_mnist is not None:
                raise InputError("--split validation: Fashion-MNIST's files are test and train (--fashion-mnist "
                                 "indexes them as they are)")
        elif a.split not in ("test", "train"):
            raise InputError(f"--split must be test or train, got {excerpt(a.split)}")
        if a.image is not None:
            raise InputError("attnviz_torch does not decode image files (--image): `attnviz-cli attention --image "
                             "F` makes a file into an image model's input (docs/model-spec.md 3.11); here give "
                             "--fashion-mnist K")
        m = AttnvizModel.from_checkpoint(a.model)
        if m.cfg["arch"] == "vit":
            if a.text is not None or a.target is not None:
                raise InputError(f"'{a.model}' is an image model (arch \"vit\"): it takes no --text; give "
                                 "--fashion-mnist K or --photo K")
            if a.fashion_mnist is None and a.photo is None:
                raise InputError(f"'{a.model}' is an image model: give --fashion-mnist INDEX or --photo INDEX")
            if a.photo is not None:
                _check_task_model("clothing-photos", idx.PHOTO_SIZE, idx.PHOTO_CHANNELS, len(idx.PHOTO_CLASSES),
                                  m.cfg, f"'{a.model}'")
                pixels, label = idx.load_photo(a.split, a.photo)
                d = image_dump(m, a.model, pixels, label, f"clothing-photos {a.split} image {a.photo}")
            else:
                if m.cfg["image_size"] != 28 or m.cfg["channels"] != 1:
                    _check_task_model("fashion-mnist", 28, 1, len(idx.CLASSES), m.cfg, f"'{a.model}'")
                pixels, label = idx.load_image(a.split, a.fashion_mnist)
                d = image_dump(m, a.model, pixels, label if label < m.cfg["classes"] else None,
                               f"fashion-mnist {a.split} image {a.fashion_mnist}")
        else:
            if a.fashion_mnist is not None or a.photo is not None:
                raise InputError("--image and --fashion-mnist need an image model; this one reads text")
            if a.text is None:
                raise InputError("attention needs --text")
            d = dump(m, a.model, a.text, a.target)
        text = json.dumps(d, ensure_ascii=False, allow_nan=False)
        if a.out and a.out != "-":
            write_file_atomically(a.out, [(text + "\n").encode()])
        else:
            try:
                sys.stdout.write(text + "\n")
                sys.stdout.flush()
            except OSError as e:
                raise InputError(f"the output could not be written to standard output ({e.strerror})") from None
    except (OSError, ValueError) as e:
        print(f"attnviz_torch.attention: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
