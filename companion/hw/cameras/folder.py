"""Replay recorded frames from a folder, in name order (for testing the counter on real photos)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera_base import Camera
from companion.hw.errors import CameraUnavailableError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


class FolderCamera(Camera):
    """Each :meth:`capture` returns the next image of the folder.

    After the last image the camera keeps returning it (a settled tray), or starts again from the
    first when ``loop`` is true. The folder is listed once, when the camera opens.
    """

    name = "folder"

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraUnavailableError(f"The camera folder {self.folder} does not exist.")
        self.files = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise CameraUnavailableError(f"The camera folder {self.folder} holds no images.")
        self.loop = loop
        self.position = 0
        self.description = f"{len(self.files)} images in {self.folder}"

    def capture(self) -> np.ndarray:
        path = self.files[self.position]
        if self.position + 1 < len(self.files):
            self.position += 1
        elif self.loop:
            self.position = 0
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraUnavailableError(f"The recorded frame {path.name} cannot be read.")
        return image
