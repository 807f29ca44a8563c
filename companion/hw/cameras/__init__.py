"""Camera backends; choose one through :func:`companion.hw.camera.open_camera`."""
