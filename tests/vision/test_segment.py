import cv2
import numpy as np

from companion.vision.classify import UNKNOWN
from companion.vision.segment import find_blobs


def test_blob_statistics_agree_with_opencv():
    rng = np.random.default_rng(1)
    classes = np.zeros((200, 300), np.uint8)
    for _ in range(30):
        x, y = rng.integers(0, 280), rng.integers(0, 180)
        classes[y:y + rng.integers(3, 20), x:x + rng.integers(3, 20)] = rng.integers(1, UNKNOWN + 1)
    blobs = find_blobs(classes)
    opened = cv2.morphologyEx((classes != 0).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert blobs.count == count
    assert np.array_equal(blobs.stats[1:], stats[1:])
    for label in range(1, count):  # the class histogram covers exactly the blob's pixels
        inside = labels == label
        assert np.array_equal(blobs.histogram[label], np.bincount(classes[inside], minlength=UNKNOWN + 1))


def test_a_thin_line_of_tray_does_not_split_a_cube():
    classes = np.zeros((40, 40), np.uint8)
    classes[10:30, 10:30] = 1
    classes[:, 19:22] = 0  # the glare of a scratch across the cube
    blobs = find_blobs(classes)
    assert blobs.count == 2 and blobs.histogram[1, 1] == 17 * 20


def test_single_pixels_and_thin_lines_are_not_blobs():
    classes = np.zeros((40, 40), np.uint8)
    classes[5, 5] = 1
    classes[20, :] = UNKNOWN
    assert find_blobs(classes).count == 1
