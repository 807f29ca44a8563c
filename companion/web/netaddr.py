"""Which address to type on the tablets: the Pi's LAN addresses and port (never 0.0.0.0), its
``.local`` name when mDNS (avahi) answers for it, and a QR code of the first one.

Nothing here asks the network: the addresses are those of this machine's own interfaces (the
source address a UDP socket would use towards a LAN route, plus ``hostname -I`` where present),
and the ``.local`` name is offered only when avahi-daemon runs. The QR code is made by segno
(pure Python, SVG, no CDN), on the server.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

_UNSPECIFIED = {"0.0.0.0", "::", ""}


def every_interface(host: str) -> bool:
    """Whether a server bound to ``host`` listens on every network interface (0.0.0.0, ::)."""
    return host in _UNSPECIFIED


@dataclass(frozen=True)
class Addresses:
    """The URLs to open on a tablet, best first; ``qr_svg`` encodes ``urls[0]``."""

    urls: tuple[str, ...]
    local_name: str | None

    def to_json(self) -> dict:
        return {"urls": list(self.urls), "local_name": self.local_name,
                "qr_svg": qr_svg(self.urls[0]) if self.urls else None}


def lan_ips() -> list[str]:
    """This machine's IPv4 addresses a tablet on the same network can reach (no loopback)."""
    found: list[str] = []
    try:  # the address a packet towards a private network would leave from; sends nothing
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    if shutil.which("hostname"):
        try:
            out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
            found += out.split()
        except (OSError, subprocess.SubprocessError):
            pass
    usable = []
    for text in found:
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if ip.version == 4 and not ip.is_loopback and not ip.is_unspecified and text not in usable:
            usable.append(text)
    return usable


def mdns_name() -> str | None:
    """``<hostname>.local`` when avahi-daemon runs here (it answers that name on the LAN)."""
    running = Path("/run/avahi-daemon/pid").exists() or Path("/var/run/avahi-daemon/pid").exists()
    if not running:
        return None
    name = socket.gethostname().split(".")[0]
    return f"{name}.local" if name and name != "localhost" else None


def addresses(host: str, port: int, ips: list[str] | None = None,
              local_name: str | None = ...) -> Addresses:  # type: ignore[assignment]
    """The URLs for a server bound to ``host``:``port``. Bound to all interfaces: the LAN
    addresses (and the ``.local`` name first when there is one); bound to one address: that
    one. Loopback only: the loopback URL, which a tablet cannot open (the caller says so)."""
    if local_name is ...:
        local_name = mdns_name()
    if every_interface(host):
        hosts = list(ips if ips is not None else lan_ips())
        if local_name:
            hosts.insert(0, local_name)
        if not hosts:
            hosts = ["127.0.0.1"]
    else:
        hosts = [host]
        local_name = None
    return Addresses(tuple(f"http://{h}:{port}/" for h in hosts), local_name)


def qr_svg(url: str) -> str:
    """An SVG QR code of ``url`` (segno), scaled by its viewBox to whatever size CSS gives it."""
    import segno

    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff")


def console_lines(addrs: Addresses) -> list[str]:
    """What ``companion serve`` prints: the addresses, and the QR code as text for a terminal."""
    import io

    import segno

    lines = ["Open the companion on the tablets at:"]
    lines += [f"    {url}" for url in addrs.urls]
    if addrs.urls and all("//127." in u or "//localhost" in u for u in addrs.urls):
        lines.append("    (only this computer can open it: start with HOST=0.0.0.0 for the tablets)")
    if addrs.urls:
        buffer = io.StringIO()
        segno.make(addrs.urls[0], error="m", micro=False).terminal(out=buffer, compact=True, border=1)
        lines += buffer.getvalue().rstrip("\n").splitlines()
    return lines
