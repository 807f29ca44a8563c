"""Reading and writing photos, with errors a player understands."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.errors import ImageReadError


def read_image(path: str | Path) -> np.ndarray:
    """The photo at ``path`` as an H×W×3 BGR uint8 array.

    Raises :class:`ImageReadError` when the file is missing, is not a picture, is black and
    white (the counter needs colour) or is not 8 bits per channel. An alpha channel is dropped.
    """
    path = Path(path)
    try:
        data = np.fromfile(path, dtype=np.uint8)  # np.fromfile + imdecode: any file name works
    except OSError as exc:
        raise ImageReadError(f"Cannot read the photo {path}: {exc.strerror or exc}.") from None
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if image is None:
        raise ImageReadError(f"Cannot read the photo {path}: it is not a picture file "
                             "(use JPEG or PNG).")
    if image.dtype != np.uint8:
        raise ImageReadError(f"The photo {path} has {image.dtype.itemsize * 8} bits per channel; "
                             "save it as an ordinary 8-bit JPEG or PNG.")
    if image.ndim == 2 or image.shape[2] == 1:
        raise ImageReadError(f"The photo {path} is black and white; the counter needs colour.")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def write_image(path: str | Path, image: np.ndarray) -> None:
    """Write ``image`` (format from the file extension); :class:`ImageReadError` if impossible."""
    path = Path(path)
    ok, data = cv2.imencode(path.suffix or ".jpg", image)
    if not ok:
        raise ImageReadError(f"Cannot write the picture {path}: unsupported file type.")
    try:
        data.tofile(path)
    except OSError as exc:
        raise ImageReadError(f"Cannot write the picture {path}: {exc.strerror or exc}.") from None
