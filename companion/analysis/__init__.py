"""Statistics of the tower and the battles: pure NumPy, no Flask, no I/O.

* :mod:`.tower_model` — fits, per colour, the chance that a thrown cube lands in the tray at once
  and the chance that a cube already inside comes out, from logged throws;
* :mod:`.regression` — the same model with chances that depend on the throw's fill and size
  (Newton on the marginal likelihood, score tests);
* :mod:`.fairness` — tests of one colour against the others at the same fill and size, the bias
  with its range, the bias the verdict could have detected, the model check, a plain sentence;
* :mod:`.odds` — Monte Carlo odds of a battle before the throw, calibration and luck;
* :mod:`.tests` — the χ² tail (central and noncentral) and normal quantiles the above need.

Everything here takes plain numbers and returns frozen dataclasses or JSON-safe dicts; the store
(:mod:`companion.store.stats`) feeds it and the web layer serves it.
"""
