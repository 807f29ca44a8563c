"""The camera set-up page's API: a live picture, a photo to tap on, the check, kept calibrations;
the battle's empty-tray check; the simulated tray.

The views are thin: shapes are checked here (pydantic, :mod:`companion.web.api.spec`), the
meaning (an outline inside the photo, a tap on a cube) by
:func:`companion.hw.calibration_store.parse_setup`, the work by the store and the tower.
Bad input answers 400 naming the item and changes nothing: the active calibration is replaced
only by a complete, checked one.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Annotated, Any

from flask import Blueprint, Flask, Response, current_app, jsonify, send_file
from pydantic import Field

from companion.hw.calibration_store import CalibrationStore, check_setup, jpeg, parse_setup
from companion.hw.settings import hardware_settings
from companion.web.api.errors import ApiError
from companion.web.api.runtime import runtime
from companion.web.api.shapes import Answer, Counts, Request
from companion.web.api.spec import Named, Says, accepts, operation, responds

bp = Blueprint("api_camera_setup", __name__, url_prefix="/api")

PREVIEW_WIDTH = 800  # pixels of the live picture: enough to drag and tap on a tablet
STORE_KEY = "companion.camera_setup"


class SimulatedTowerOnlyError(ApiError, ValueError):
    """Only the simulated tower's tray can be filled from the screen."""

    status = 409


# -- shapes ---------------------------------------------------------------------------------------

Coordinate = Annotated[float, Says("a number of photo pixels")]


class TapIn(Request):
    color: Annotated[str | None, Named("a tap's colour"), Says("a cube colour, or null for plain tray")] = None
    x: Annotated[float, Named("a tap's x"), Says("a number of photo pixels")]
    y: Annotated[float, Named("a tap's y"), Says("a number of photo pixels")]


class SetupIn(Request):
    """A photo taken on the set-up page, the tray outline on it and one tap per colour."""

    photo: Annotated[str, Field(min_length=1, max_length=40), Named('"photo"'),
                     Says("the id of a photo taken on this page")]
    outline: Annotated[list[list[float]], Named("the tray outline"),
                       Says("a list of [x, y] points in photo pixels")]
    taps: Annotated[list[TapIn], Named("the taps"), Says("a list of {color, x, y}")]


class PhotoOut(Answer):
    photo: str
    url: str
    width: int
    height: int


class CheckOut(Answer):
    found: dict[str, int]
    unknown: int
    colors: list[str]
    warnings: list[dict[str, Any]] = Field(description='{"kind": "alike"|"like_tray"|"not_found", '
                                           '"colors": [...]}; the tablet words them')
    samples: list[dict[str, Any]]
    checked_url: str


class EntryOut(Answer):
    id: str
    created_at: str
    origin: str | None = Field(default=None, description='"simulator": the simulated tower\'s own '
                               'calibration; "earlier": the one in use before the first saved here')
    colors: list[str]
    warnings: list[dict[str, Any]]
    active: bool
    thumbnail_url: str


class CameraOut(Answer):
    simulated: bool
    calibrated: bool
    colors: list[str]
    image_size: list[int] | None
    outline: list[list[int]] | None
    calibrations: list[EntryOut]


class CalibrationsOut(Answer):
    calibrations: list[EntryOut]


class SimulatedTray(Request):
    cubes: Annotated[Counts, Named('"cubes"')]


class TrayChecked(Answer):
    empty: bool
    game: int
    version: int


_ENTRY = {"entry_id": {"description": "A saved calibration's id (date-time-random)."}}
_PHOTO = {"photo_id": {"description": "A photo taken on the set-up page."}}


# -- the store --------------------------------------------------------------------------------------

def store() -> CalibrationStore:
    """This app's calibration store: ``<calibration dir>/calibrations`` beside the active file."""
    app: Flask = current_app
    found = app.extensions.get(STORE_KEY)
    if found is None:
        rt = runtime()
        active = hardware_settings(rt.settings).calibration_path
        found = app.extensions[STORE_KEY] = CalibrationStore(active.parent / "calibrations", active)
    return found


def _jpeg_response(data: bytes, cache: bool = False) -> Response:
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "max-age=86400" if cache else "no-store"
    return response


# -- the camera and its calibrations ----------------------------------------------------------------

@functools.cache
def _simulated_calibration_photo() -> Any:
    """What a player holds under a simulated tower's camera to calibrate it: one cube of every
    colour on the renderer's tray (its camera's default light)."""
    from companion.vision.synthetic import render_calibration_photo

    return render_calibration_photo()[0].image


def _picture(fresh: bool) -> Any:
    """The set-up page's picture. A simulated tower's tray holds only what the game threw, so
    some colours could never be tapped: its set-up page shows the calibration photo instead
    (every colour), and the simulated tray is left as the game needs it."""
    tower = runtime().tower
    if tower.simulated:
        return _simulated_calibration_photo().copy()
    return tower.snapshot() if fresh else tower.preview()


def _keep_the_one_in_use(photo: Any) -> None:
    """Before the first calibration saved here replaces the one the tower counts with (the
    simulator's own, or a file made with ``companion calibrate``), keep that one in the list,
    so it can be restored."""
    tower = runtime().tower
    if tower.calibration is None or store().active_id() is not None:
        return
    earlier = _simulated_calibration_photo() if tower.simulated else photo
    store().save(tower.calibration, earlier, origin="simulator" if tower.simulated else "earlier")


@bp.get("/camera")
@operation("The camera set-up page's start: calibration, photo size, kept calibrations")
@responds(200, CameraOut, "The camera's calibration state.")
def camera() -> Response:
    tower = runtime().tower
    cal = tower.calibration
    roi = getattr(cal, "roi", None)
    size = getattr(cal, "image_size", None)
    return jsonify({
        "simulated": bool(tower.simulated),
        "calibrated": cal is not None,
        "colors": list(tower.calibrated_colors),
        "image_size": list(size) if size else None,
        "outline": [list(p) for p in roi] if roi else None,
        "calibrations": [e.to_json() for e in store().list()],
    })


@bp.get("/camera/preview.jpg")
@operation("A live picture of the tray (poll it a few times a second while the page shows)",
           description="Never waits for and never delays a count: during a count the last "
                       "picture comes again. Shrunk to 800 pixels wide; X-Photo-Width and "
                       "X-Photo-Height give the camera's own size.", errors=(409, 503))
@responds(200, None, "JPEG", content_type="image/jpeg")
def preview() -> Response:
    frame = _picture(fresh=False)
    response = _jpeg_response(jpeg(frame, 70, PREVIEW_WIDTH))
    response.headers["X-Photo-Width"], response.headers["X-Photo-Height"] = str(frame.shape[1]), str(frame.shape[0])
    return response


@bp.post("/camera/photos")
@operation("Take the photo to calibrate on (full size, kept a while for tapping)", errors=(409, 503))
@responds(201, PhotoOut, "The photo.")
def take_photo() -> tuple[Response, int]:
    frame = _picture(fresh=True)
    photo_id = store().keep_photo(frame)
    return jsonify({"photo": photo_id, "url": f"/api/camera/photos/{photo_id}.jpg",
                    "width": int(frame.shape[1]), "height": int(frame.shape[0])}), 201


@bp.get("/camera/photos/<photo_id>.jpg")
@operation("A photo taken on the set-up page", params=_PHOTO, errors=(400,))
@responds(200, None, "JPEG", content_type="image/jpeg")
def photo(photo_id: str) -> Response:
    return _jpeg_response(jpeg(store().photo(photo_id), 85))


@bp.get("/camera/photos/<photo_id>/checked.jpg")
@operation("The photo counted back with the checked calibration", params=_PHOTO, errors=(400,))
@responds(200, None, "JPEG", content_type="image/jpeg")
def checked_photo(photo_id: str) -> Response:
    return _jpeg_response(jpeg(store().checked_photo(photo_id), 85))


def _check(body: SetupIn) -> Any:
    photo = store().photo(body.photo)
    setup = parse_setup(body.model_dump(), (photo.shape[1], photo.shape[0]))
    result = check_setup(photo, setup)
    store().note_checked(body.photo, result.annotated)
    return photo, result


@bp.post("/camera/check")
@operation("Calibrate the photo from the taps and count it back, without saving",
           description="400 names the item: an outline of fewer than 3 points or outside the "
                       "photo, a tap on the tray named as a colour, two colours on one cube.",
           errors=(400,))
@accepts(SetupIn)
@responds(200, CheckOut, "What the new calibration finds on its own photo.")
def check(body: SetupIn) -> Response:
    _, result = _check(body)
    return jsonify({**result.to_json(), "checked_url": f"/api/camera/photos/{body.photo}/checked.jpg"})


@bp.get("/camera/calibrations")
@operation("Saved calibrations, newest first")
@responds(200, CalibrationsOut, "The list.")
def calibrations() -> Response:
    return jsonify({"calibrations": [e.to_json() for e in store().list()]})


@bp.post("/camera/calibrations")
@operation("Check and save a calibration; the tower counts with it from now on",
           errors=(400,))
@accepts(SetupIn)
@responds(201, EntryOut, "The saved calibration.")
def save(body: SetupIn) -> tuple[Response, int]:
    photo, result = _check(body)
    tower = runtime().tower
    calibration = result.calibration
    settings = tower.camera_settings()
    if settings:
        calibration = dataclasses.replace(calibration, camera=settings)
    _keep_the_one_in_use(photo)
    entry = store().save(calibration, photo, result.warnings)
    tower.set_calibration(calibration)
    return jsonify(entry.to_json()), 201


@bp.post("/camera/calibrations/<entry_id>/restore")
@operation("Make a saved calibration the one the tower uses", params=_ENTRY, errors=(400, 404))
@responds(200, CalibrationsOut, "The list, with the restored one active.")
def restore(entry_id: str) -> Response:
    calibration = store().restore(entry_id)
    runtime().tower.set_calibration(calibration)
    return jsonify({"calibrations": [e.to_json() for e in store().list()]})


@bp.delete("/camera/calibrations/<entry_id>")
@operation("Delete a saved calibration (not the active one)", params=_ENTRY, errors=(400, 404))
@responds(200, CalibrationsOut, "The list without it.")
def delete(entry_id: str) -> Response:
    store().delete(entry_id)
    return jsonify({"calibrations": [e.to_json() for e in store().list()]})


@bp.get("/camera/calibrations/<entry_id>/thumbnail.jpg")
@operation("A saved calibration's photo, small, with its outline and sample boxes", params=_ENTRY,
           errors=(400, 404))
@responds(200, None, "JPEG", content_type="image/jpeg")
def thumbnail(entry_id: str) -> Response:
    return send_file(store().file(entry_id, "thumbnail.jpg"), mimetype="image/jpeg", max_age=86400)


# -- the empty-tray step of a battle ----------------------------------------------------------------

@bp.post("/games/<int:game_id>/battle/tray-check")
@operation("Check the tray is empty before the throw (a real tower's first step)",
           description="Empty: its photo is the battle's empty-tray reference, kept with the "
                       "reading (`empty_url`). Not empty: 409 TrayNotEmptyError; the tower "
                       "status' `tray_left` says what lies there.",
           errors=(400, 404, 409, 503))
@responds(200, TrayChecked, "The tray is empty.")
def tray_check(game_id: int) -> Response:
    rt = runtime()
    rt.touch(game_id)
    return jsonify(rt.counter.check_tray(game_id))


@bp.get("/readings/<rid>/empty.jpg")
@operation("The tray checked empty before a reading's throw", errors=(404,),
           params={"rid": {"description": "A reading's id."}})
@responds(200, None, "JPEG", content_type="image/jpeg")
def empty_photo(rid: str) -> Response:
    path = runtime().readings.image_path(rid, "empty")
    return send_file(path, mimetype="image/jpeg", max_age=24 * 3600)


@bp.put("/tower/simulated-tray")
@operation("Simulated tower: the tray holds exactly these cubes, put in by hand",
           description="They stay through the players' clearing before a throw (cubes left in "
                       "the tray) until the tray is set again; `{}` clears it.", errors=(400, 409))
@accepts(SimulatedTray)
@responds(200, Counts, "What the tray holds now.")
def simulated_tray(body: SimulatedTray) -> Response:
    tower = runtime().tower
    if tower.simulator is None:
        raise SimulatedTowerOnlyError("This is a real tower: put cubes in its tray by hand.")
    tower.simulator.place(body.cubes.as_dict())
    return jsonify(tower.simulator.tray)


# -- find the app -------------------------------------------------------------------------------

class AddressOut(Answer):
    urls: list[str] = Field(description="Addresses to type on a tablet, best first (never 0.0.0.0).")
    local_name: str | None = Field(description="The .local name when mDNS (avahi) answers for it.")
    qr_svg: str | None = Field(description="An SVG QR code of the first address.")


@bp.get("/address")
@operation("The address to open on the tablets, and its QR code")
@responds(200, AddressOut, "The addresses.")
def address() -> Response:
    from flask import request

    from companion.web.netaddr import addresses

    rt = runtime()
    port = int(request.environ.get("SERVER_PORT") or rt.settings.port)
    return jsonify(addresses(rt.settings.host, port).to_json())
