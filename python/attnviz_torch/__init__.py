# SPDX-License-Identifier: GPL-3.0-or-later
"""The attnviz models in PyTorch (docs/model-spec.md): every attention variant, masks,
pre/post norm, tied and shared embeddings, both tokenizers; attnviz safetensors checkpoints
read and written with the same metadata, so files go both ways between this package and
the C++ engine. Training at scale with torch.distributed: attnviz_torch.train.
docs/scale-out.md is the guide."""
from .checkpoint import read_checkpoint, write_checkpoint  # noqa: F401
from .model import AttnvizModel  # noqa: F401
from .tokenizer import make_tokenizer  # noqa: F401
