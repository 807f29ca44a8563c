"""Sharing an evening: one self-contained HTML file and a PNG summary card.

Both are made with **Pillow** (decode, downscale, re-encode the photos; draw the card with a
TrueType font): it reads every JPEG/PNG the companion stores, tells a damaged file from a good
one, and draws any Unicode name ("Jürgen", "Zoë") — OpenCV, which the camera uses, only has
ASCII Hershey fonts. The card uses DejaVu Sans (Raspberry Pi OS and Debian install it) and falls
back to Pillow's own font.

Guarantees:

- :func:`share_html` is one file: data, pictures (``data:`` URIs, each downscaled to at most
  :data:`PHOTO_WIDTH` px wide), styles and its small script inside; it loads nothing from
  anywhere, so it opens offline from a chat app. Pictures are made smaller until the whole file
  fits :data:`MAX_BYTES`.
- A photo that is missing or cannot be decoded never stops the export: it is left out and the
  file lists it ("Battle in round 3: photo missing").
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import render_template

from companion.messages import lookup

PHOTO_WIDTH = 480
MAX_BYTES = 5 * 1024 * 1024
QUALITIES = (70, 55, 40)  # JPEG quality tried in turn while the file is too big
CARD_SIZE = (1200, 630)  # the size chat apps show as a link preview
FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


@dataclass
class Pictures:
    """The evening's pictures as ``data:`` URIs, and what could not be included."""

    uris: dict[str, str] = field(default_factory=dict)
    missing: list[dict[str, Any]] = field(default_factory=list)


def downscale(path: Path, width: int, quality: int) -> bytes | None:
    """``path`` as a JPEG at most ``width`` px wide; ``None`` when it is missing or damaged."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            # A JPEG is decoded at the smallest DCT scale still at least ``width`` wide: a 3 MP
            # camera photo then costs a fraction of a full decode (the Pi makes 40 of them).
            image.draft("RGB", (width, width * image.height // max(1, image.width)))
            image.load()
            picture = image.convert("RGB")
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    if picture.width > width:
        picture = picture.resize((width, max(1, round(picture.height * width / picture.width))),
                                 Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def pictures(wanted: Mapping[str, tuple[Path | None, dict[str, Any]]], quality: int,
             width: int = PHOTO_WIDTH) -> Pictures:
    """``wanted``: key → (file or None, what it is). Missing and damaged files are listed."""
    out = Pictures()
    for key, (path, about) in wanted.items():
        data = downscale(path, width, quality) if path is not None else None
        if data is None:
            state = "damaged" if path is not None and path.is_file() else "missing"
            out.missing.append({**about, "state": state})
        else:
            out.uris[key] = "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")
    return out


def wanted_pictures(recap: Mapping[str, Any], battle_photo: Callable[[str], Path],
                    table_photo: Callable[[int], Path | None]) -> dict[str, tuple[Path | None, dict[str, Any]]]:
    """Every picture of the evening: each counted battle's tray photo, each final-table photo."""
    wanted: dict[str, tuple[Path | None, dict[str, Any]]] = {}
    for g in recap["games"]:
        if g["kind"] == "tabletop" and g["photo"] is not None:
            wanted[f"table-{g['id']}"] = (table_photo(g["id"]), {"what": "table", "game": g["title"] or g["title_names"]})
        for b in g["battles"]:
            if b["reading_id"]:
                wanted[f"battle-{g['id']}-{b['seq']}"] = (
                    battle_photo(b["reading_id"]),
                    {"what": "battle", "game": g["title"] or g["title_names"], "round": b["round"], "seq": b["seq"]})
    return wanted


def share_html(recap: Mapping[str, Any], wanted: Mapping[str, tuple[Path | None, dict[str, Any]]],
               lang: str, css: str) -> bytes:
    """The self-contained HTML file of the evening (see the module docstring)."""
    text = b""
    for quality in QUALITIES:
        pics = pictures(wanted, quality)
        text = render_template("recap_share.html", recap=recap, pics=pics, lang=lang, css=css,
                               t=_Words(lang), title_of=lambda g: title_of(g, lang), facts=[fact_text(f, lang) for f in recap["facts"]],
                               data=json.dumps(recap, ensure_ascii=False)).encode("utf-8")
        if len(text) <= MAX_BYTES:
            return text
    return text  # at the lowest quality; the photos of 40 battles take well under 2 MB


def title_of(game: Mapping[str, Any], lang: str) -> str:
    """The game's own title, else its players' names joined in ``lang``."""
    from companion.messages import join

    return game["title"] or join(game.get("title_names") or [], lang)


def fact_text(fact: Mapping[str, Any], lang: str) -> str:
    from companion.messages import msg

    return msg(fact["key"], **fact["params"]).render(lang)


class _Words:
    """``t.key`` / ``t("key", n=1)`` in a template: the catalogue's string in ``lang``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getattr__(self, key: str) -> str:
        return lookup(key, self.lang)

    def __call__(self, key: str, **params: Any) -> str:
        from companion.messages import msg

        return msg(key, **params).render(self.lang)


def _font(size: int, bold: bool = False) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype(FONTS[1 if bold else 0], size)
    except OSError:
        return ImageFont.load_default(size)


def card_png(recap: Mapping[str, Any], lang: str) -> bytes:
    """A 1200×630 PNG: the evening, each game with its winners, and the first facts."""
    from PIL import Image, ImageDraw

    words = _Words(lang)
    image = Image.new("RGB", CARD_SIZE, (43, 33, 71))
    draw = ImageDraw.Draw(image)
    width, height = CARD_SIZE
    y = 36
    draw.text((48, y), words("recap_card_title", night=recap["night"]), font=_font(54, True), fill=(255, 213, 79))
    y += 84
    body, small = _font(30), _font(26)
    for g in recap["games"][:6]:
        winners = [p["name"] for p in g["players"] if p["winner"]]
        line = title_of(g, lang) + " — " + (words("recap_won_by", names=", ".join(winners)) if winners
                                     else words("recap_no_winner"))
        draw.text((48, y), _fit(draw, line, body, width - 96), font=body, fill=(255, 255, 255))
        y += 44
    if len(recap["games"]) > 6:
        draw.text((48, y), words("recap_more_games", n=len(recap["games"]) - 6), font=small, fill=(200, 200, 220))
        y += 40
    y += 12
    for fact in recap["facts"][:3]:
        if y > height - 60:
            break
        draw.text((48, y), _fit(draw, "• " + fact_text(fact, lang), small, width - 96), font=small, fill=(220, 220, 240))
        y += 38
    draw.text((48, height - 48), words("app_title"), font=small, fill=(160, 150, 200))
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _fit(draw: Any, text: str, font: Any, width: int) -> str:
    """``text`` cut with "…" so that it fits ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"
