"""Run a child as an ordinary user would be: as root, file modes do not stop writes."""

from __future__ import annotations

import ctypes
import os


def without_root_powers() -> None:
    """As root, drop the power to write where the file modes say no (so a 0555 directory
    is read-only for the child, as for anyone else); a `preexec_fn`."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "cannot drop a capability")
