#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch reference of the engine's tests: a thin user of python/attnviz_torch (the
PyTorch twin, written from docs/model-spec.md, not from the C++ engine), run in float64 on
one sentence at a time. compare.py, sgd_step.py and head_stats_ref.py check the engine
against it; one implementation serves both the tests and training at scale (issue 16)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from attnviz_torch.checkpoint import read_checkpoint  # noqa: E402
from attnviz_torch.model import AttnvizModel  # noqa: E402
from attnviz_torch.tokenizer import WordTokenizer  # noqa: E402


def read_safetensors(path):
    """(tensors in float64, metadata)."""
    tensors, meta = read_checkpoint(path)
    return {k: v.double() for k, v in tensors.items()}, meta


def tokenize(text, lowercase=True):
    return WordTokenizer(lowercase).tokenize(text)


class Reference:
    def __init__(self, path):
        self.model = AttnvizModel.from_checkpoint(path).double()
        self.cfg = self.model.cfg
        self.src_vocab, self.tgt_vocab = self.model.src_vocab, self.model.tgt_vocab
        self.lower = getattr(self.model.tokenizer, "lowercase", True)
        # The parameters by checkpoint name (autograd leaves: sgd_step.py reads their .grad).
        self.T = {n: self.model.P(n) for n in self.model.names}

    def ids(self, vocab, toks):
        index = {t: i for i, t in enumerate(vocab)}
        return [index.get(t, 1) for t in toks]

    def run_tensor(self, src_ids, tgt_ids):
        """The mean cross-entropy over the target tokens (and <eos>), as a tensor."""
        record = []
        src, tin, tout = self.model.batch([(src_ids, tgt_ids)])
        logits = self.model.forward(src, tin, record=record)
        self.record = [A[0] for A in record]
        return torch.nn.functional.cross_entropy(logits[0], tout[0])

    def run(self, src_ids, tgt_ids):
        """src_ids: source ids without <eos> (None for decoder-only); tgt_ids without <bos>.
        Returns (every block's weights [heads, Nq, Nk] in dump order, loss)."""
        loss = self.run_tensor(src_ids, tgt_ids)
        return [A.detach() for A in self.record], float(loss)
