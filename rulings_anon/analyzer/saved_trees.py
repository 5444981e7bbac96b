"""A saved LightGBM model run through LightGBM's own library, without its Python package.

``import lightgbm`` imports scipy: about 0.4 s of every ``score`` start, more than the trees then
take for a ruling. ``score`` only reads model files and asks them for probabilities of float32
rows, which the library's C interface (the same functions the package calls, with the same
parameters) answers directly: :class:`SavedTrees` does that and nothing else. Training, and
reading a model where the library cannot be found, keep ``lightgbm.Booster``; a test checks
that both give the same numbers.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from rulings_anon.errors import ModelError

_PREDICT_NORMAL = 0  # C_API_PREDICT_NORMAL: probabilities
_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float64): 1}  # C_API_DTYPE_FLOAT32, _FLOAT64
_ROW_MAJOR = 1
_LIBRARY_NAMES = {"linux": "lib_lightgbm.so", "darwin": "lib_lightgbm.dylib", "win32": "lib_lightgbm.dll"}


@lru_cache(maxsize=1)
def library() -> ctypes.CDLL | None:
    """LightGBM's library as the installed package ships it, found without importing the package;
    None where it is not where the package keeps it."""
    spec = importlib.util.find_spec("lightgbm")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    name = _LIBRARY_NAMES.get(sys.platform, "lib_lightgbm.so")
    for candidate in (folder / "lib" / name, folder / name):
        if candidate.is_file():
            try:
                lib = ctypes.cdll.LoadLibrary(str(candidate))
            except OSError:  # a library it needs is missing: the package says which
                return None
            lib.LGBM_GetLastError.restype = ctypes.c_char_p
            return lib
    return None


def _check(lib: ctypes.CDLL, code: int, what: str) -> None:
    if code != 0:
        raise ModelError(f"{what}: {lib.LGBM_GetLastError().decode('utf-8', 'replace')}")


def parameters(params: dict) -> str:
    """Prediction parameters as the package passes them to the library ("key=value" by spaces)."""
    return " ".join(f"{key}={value}" for key, value in params.items() if value is not None)


class SavedTrees:
    """A LightGBM model file, predicted through the library (``predict``, ``save_model`` as a
    ``lightgbm.Booster`` of a loaded file has them)."""

    def __init__(self, model_file: str | Path, lib: ctypes.CDLL):
        self._lib, self._handle = lib, ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        _check(lib, lib.LGBM_BoosterCreateFromModelfile(str(model_file).encode("utf-8"), ctypes.byref(iterations),
                                                         ctypes.byref(self._handle)), str(model_file))
        classes = ctypes.c_int(0)
        _check(lib, lib.LGBM_BoosterGetNumClasses(self._handle, ctypes.byref(classes)), str(model_file))
        if classes.value != 1:
            raise ModelError(f"{model_file}: a model of {classes.value} classes; the scorer's trees answer yes or no")

    def predict(self, rows: np.ndarray, **params) -> np.ndarray:
        """The probability of each row (all trees, as ``Booster.predict`` of a loaded file)."""
        rows = np.asarray(rows)
        if rows.ndim != 2:
            raise ValueError(f"rows of 2 dimensions expected, not {rows.ndim}")
        data = np.ascontiguousarray(rows, dtype=rows.dtype if rows.dtype in _DTYPES else np.float32)
        out = np.empty(len(data), dtype=np.float64)
        written = ctypes.c_int64(0)
        _check(self._lib, self._lib.LGBM_BoosterPredictForMat(
            self._handle, data.ctypes.data_as(ctypes.c_void_p), ctypes.c_int(_DTYPES[data.dtype]),
            ctypes.c_int32(data.shape[0]), ctypes.c_int32(data.shape[1]), ctypes.c_int(_ROW_MAJOR),
            ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0), ctypes.c_int(-1),
            parameters(params).encode("utf-8"), ctypes.byref(written),
            out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))), "LightGBM prediction")
        if written.value != len(data):
            raise ModelError(f"LightGBM gave {written.value} predictions for {len(data)} rows")
        return out

    def save_model(self, filename: str | Path) -> None:
        _check(self._lib, self._lib.LGBM_BoosterSaveModel(self._handle, ctypes.c_int(0), ctypes.c_int(-1),
                                                          ctypes.c_int(0), str(filename).encode("utf-8")),
               str(filename))

    def model_to_string(self) -> str:
        """The model file's text (what a copy pickled to another process loads)."""
        length = ctypes.c_int64(0)
        size = 1 << 22
        while True:
            buffer = ctypes.create_string_buffer(size)
            _check(self._lib, self._lib.LGBM_BoosterSaveModelToString(
                self._handle, ctypes.c_int(0), ctypes.c_int(-1), ctypes.c_int(0), ctypes.c_int64(size),
                ctypes.byref(length), buffer), "LightGBM model text")
            if length.value <= size:
                return buffer.value.decode("utf-8")
            size = length.value

    def __getstate__(self) -> dict:
        return {"model": self.model_to_string()}

    def __setstate__(self, state: dict) -> None:
        lib = library()
        if lib is None:
            raise ModelError("LightGBM's library is not installed (pip install lightgbm)")
        self._lib, self._handle = lib, ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        _check(lib, lib.LGBM_BoosterLoadModelFromString(state["model"].encode("utf-8"), ctypes.byref(iterations),
                                                         ctypes.byref(self._handle)), "LightGBM model text")

    def __del__(self):
        if getattr(self, "_handle", None) and self._handle.value:
            self._lib.LGBM_BoosterFree(self._handle)
            self._handle = ctypes.c_void_p()


def load_trees(model_file: str | Path):
    """The model of ``model_file``: :class:`SavedTrees` where the library is found, else a
    ``lightgbm.Booster``."""
    lib = library()
    if lib is None:
        import lightgbm

        return lightgbm.Booster(model_file=str(model_file))
    return SavedTrees(model_file, lib)
