"""The tower hardware: camera, buttons and LED, and the simulated tower that stands in for them.

=====================  ==========================================================================
``tower``              :class:`~companion.hw.tower.Tower`, the one object the web layer holds
``camera_base``        :class:`~companion.hw.camera_base.Camera`, the interface every backend implements
``camera``             the choice of backend: :func:`~companion.hw.camera.open_camera`, auto-detection
``cameras.*``          backends: ``picam`` (Picamera2), ``usb`` (OpenCV), ``folder``, ``synthetic``
``controls``           the two buttons and the status LED through gpiozero (mock pins off the Pi)
``counting``           press → settle → one fresh frame → count (:class:`CountSession`)
``simulator``          the seeded model of the tower's interior and tray
``settings``           the tower builder's environment settings
``holders``            busy camera: the exception chain, and which process holds the device
``service``            the installed systemd unit: running? which data folder?
``cli``                ``companion tower check | lock | simulate``
=====================  ==========================================================================

Depends on :mod:`companion.vision` only (counting, settle detection, the synthetic renderer).
"""
