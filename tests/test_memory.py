"""The allocator limit that keeps the server's memory flat (companion/memory.py)."""

import platform
import subprocess
import sys

import pytest

from companion.memory import limit_heap_growth


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt tuning is glibc-only")
def test_glibc_accepts_the_limits() -> None:
    assert limit_heap_growth() is True


_FRAGMENTING_WORKLOAD = """
import sys
import numpy as np
def rss_kb():
    with open('/proc/self/status') as f:
        return next(int(l.split()[1]) for l in f if l.startswith('VmRSS'))
if sys.argv[1] == "limited":
    from companion.memory import limit_heap_growth
    assert limit_heap_growth()
start = rss_kb()
kept = []
for _ in range(30):  # like counts: big temporary images, and a small object that outlives them
    frame = np.ones((960, 1280, 3), np.float32)
    small = np.ones((480, 640, 3), np.uint8)
    kept.append(bytearray(4096))
    del frame, small
print(rss_kb() - start)
"""


def _growth_kb(mode: str) -> int:
    # A fresh process each: the threshold only helps when set before the first big free.
    done = subprocess.run([sys.executable, "-c", _FRAGMENTING_WORKLOAD, mode], check=True,
                          capture_output=True, text=True)
    return int(done.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt tuning is glibc-only")
def test_freed_images_go_back_to_the_system() -> None:
    limited, default = _growth_kb("limited"), _growth_kb("default")
    assert limited < 4 * 1024, f"resident memory grew by {limited} kB with the limit"
    # The workload really does fragment the default heap, so the check above means something.
    assert default > limited + 4 * 1024, (default, limited)
