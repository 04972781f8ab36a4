# SPDX-License-Identifier: GPL-3.0-or-later
"""python3 -m attnviz_torch.torchrun [torchrun's arguments]: torchrun, with a fix for Debian
12 (PyTorch 1.13 on Python 3.11).

There, `python3 -m torch.distributed.run` fails before starting any worker with
"AttributeError: 'NoneType' object has no attribute 'get'": torch's Std.from_str("0") finds
no member because Python 3.11 no longer iterates zero-valued IntFlag members. This module
replaces that one function and then runs torchrun unchanged (rendezvous, elastic agent,
multi-node options and all). With a PyTorch where torchrun works, use torchrun itself."""
import re
import sys

from torch.distributed.elastic.multiprocessing import api


def _from_str(cls, vm):
    if re.match(api._VALUE_REGEX, vm):
        return cls(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(f"{vm} does not match: <{api._VALUE_REGEX}> or <{api._MAPPING_REGEX}>")


if api.Std.from_str("0") is None:  # the bug is present
    api.Std.from_str = classmethod(_from_str)

if __name__ == "__main__":
    from torch.distributed.run import main

    sys.argv[0] = "torchrun"
    sys.exit(main())
