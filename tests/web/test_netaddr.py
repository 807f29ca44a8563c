"""Find the app: the address to type on the tablets, and a QR code that reads back as it."""

from __future__ import annotations

import io

import cv2
import numpy as np
import segno

from companion.web.netaddr import addresses, console_lines, qr_svg

from .conftest import ok


def test_all_interfaces_give_the_lan_addresses_and_the_local_name_first_never_0000():
    got = addresses("0.0.0.0", 8000, ips=["192.168.1.5", "10.0.0.7"], local_name="tower.local")
    assert got.urls == ("http://tower.local:8000/", "http://192.168.1.5:8000/", "http://10.0.0.7:8000/")
    assert all("0.0.0.0" not in u for u in got.urls)


def test_a_server_bound_to_one_address_gives_that_one():
    got = addresses("192.168.1.5", 9000, ips=["10.0.0.7"], local_name="tower.local")
    assert got.urls == ("http://192.168.1.5:9000/",) and got.local_name is None


def test_no_lan_address_falls_back_to_loopback():
    assert addresses("0.0.0.0", 8000, ips=[], local_name=None).urls == ("http://127.0.0.1:8000/",)


def test_the_qr_code_reads_back_as_the_address():
    url = "http://192.168.1.5:8000/"
    assert qr_svg(url).startswith("<svg") and "viewBox" in qr_svg(url)
    buffer = io.BytesIO()  # the same symbol as a PNG, read by OpenCV's QR detector
    segno.make(url, error="m", micro=False).save(buffer, kind="png", scale=8, border=4)
    image = cv2.imdecode(np.frombuffer(buffer.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == url


def test_the_console_lines_name_every_address_and_draw_the_code():
    lines = console_lines(addresses("0.0.0.0", 8000, ips=["192.168.1.5"], local_name=None))
    assert lines[:2] == ["Open the companion on the tablets at:", "    http://192.168.1.5:8000/"]
    assert len(lines) > 10 and any("█" in line for line in lines[2:])


def test_the_address_endpoint_gives_urls_and_a_qr_svg(client):
    body = ok(client.get("/api/address"))
    assert body["urls"] and all(u.startswith("http://") and "0.0.0.0" not in u for u in body["urls"])
    assert body["qr_svg"].startswith("<svg")


def test_a_server_only_this_computer_reaches_says_how_to_open_it_to_the_tablets():
    lines = console_lines(addresses("127.0.0.1", 8000))
    assert lines[1] == "    http://127.0.0.1:8000/" and "HOST=0.0.0.0" in lines[2]
    assert not any("HOST=" in line for line in console_lines(addresses("0.0.0.0", 8000, ips=["10.1.2.3"], local_name=None)))
