# SPDX-License-Identifier: GPL-3.0-or-later
"""python3 -m attnviz_torch: what the package offers (its modules that run as programs).

Installed with attnviz (the Debian package puts the package in /usr/lib/python3/dist-packages;
it needs python3-torch, python3-numpy and python3-sentencepiece)."""
import sys

# Imported so that a broken installation (no torch, a missing file) fails here, not later.
from . import attention, torchrun, train  # noqa: F401

USAGE = """attnviz_torch: the attnviz models in PyTorch (docs/scale-out.md)

  python3 -m attnviz_torch.train --config C.json (--task NAME | --data F.tsv) --steps S --out M.safetensors
      train a model, on one process or many (torch.distributed)
  python3 -m attnviz_torch.torchrun --standalone --nproc_per_node N -m attnviz_torch.train ...
      torchrun with a fix for Debian 12's PyTorch
  python3 -m attnviz_torch.attention --model M (--text T [--target T2] | --fashion-mnist K | --photo K) [--out F]
      the attention dump of one sentence or image, as attnviz-cli attention prints it

Each takes --help. Checkpoints go both ways between this package and attnviz-cli.
"""


def main(argv):
    if len(argv) <= 1 or argv[1] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    sys.stderr.write(f"attnviz_torch: unknown argument {argv[1]!r}\n\n" + USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
