"""How the project compiles numba code: one decorator and an on-disk cache keyed by *all* numba sources.

numba's own cache stamp covers only the file that defines a function, so a constant or callee changed in another
module would be served stale. Every numba function of the project is therefore compiled through `jit` below, whose
cache lives in a directory named by a digest of every source file of the numba packages (mpcmc_engine/bitboard, search, eval and jit),
the Python version and the numba version: any change anywhere invalidates all of it at once.

The cache directory is `$XDG_CACHE_HOME/mpcmc-engine/numba/<digest>` (default `~/.cache/...`); when that is not
writable, numba's default locators are used. In a stand-alone executable (PyInstaller, `sys.frozen`) the sources are
not on disk: the build ships a cache compiled for a generic CPU in `numba_cache/<digest>/` inside the bundle, the
digest is that folder's name, and the first start copies it to `.../numba/<digest>-executable` in the user's cache.
"""

import hashlib
import os
import shutil
import sys
from pathlib import Path

import numba
from numba.core.caching import CacheImpl, _CacheLocator

NUMBA_PACKAGES = ("bitboard", "search", "eval", "jit")
_PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # mpcmc_engine/
FROZEN = bool(getattr(sys, "frozen", False))
BUNDLED_CACHE_FOLDER = "numba_cache"


def source_digest(root: Path = _PACKAGE_ROOT) -> str:
    """Return a hex digest of every source file of the numba packages under `root`, the interpreter and numba."""
    digest = hashlib.sha256()
    digest.update(f"{sys.version_info[:3]} numba {numba.__version__}".encode())
    for package in NUMBA_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _bundled_cache() -> Path:
    """The pre-built cache folder inside a stand-alone executable's bundle (one sub-folder named by the digest)."""
    return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / BUNDLED_CACHE_FOLDER


def _bundled_digest() -> str:
    """The digest the bundled cache was built for; raise RuntimeError when the bundle has none."""
    folders = [p.name for p in _bundled_cache().iterdir() if p.is_dir()] if _bundled_cache().is_dir() else []
    if len(folders) != 1:
        raise RuntimeError(f"{_bundled_cache()}: expected one pre-built numba cache folder, found {folders}")
    return folders[0]


SOURCE_DIGEST = _bundled_digest() if FROZEN else source_digest()


def cache_root() -> Path:
    """Return the directory that holds this build's numba cache (a stand-alone executable's own: its entries are
    compiled for a generic CPU, and a source tree of the same digest must not hide them)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mpcmc-engine" / "numba" / (f"{SOURCE_DIGEST}-executable" if FROZEN else SOURCE_DIGEST)


def _install_bundled_cache() -> None:
    """Copy the bundle's pre-built cache into the user's cache directory once (atomically, by rename)."""
    target = cache_root()
    if target.exists():
        return
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        shutil.copytree(_bundled_cache() / SOURCE_DIGEST, temporary)
        os.replace(temporary, target)
    except OSError:
        shutil.rmtree(temporary, ignore_errors=True)


if FROZEN:
    _install_bundled_cache()


class ProjectCacheLocator(_CacheLocator):
    """numba cache locator for the project's numba packages: one directory per source digest."""

    def __init__(self, py_func, py_file):
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_root() / Path(py_file).parent.name)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return SOURCE_DIGEST

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file)
        if path.parent.name not in NUMBA_PACKAGES:
            return None
        if not FROZEN and path.resolve().parent.parent != _PACKAGE_ROOT:
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


if ProjectCacheLocator not in CacheImpl._locator_classes:
    CacheImpl._locator_classes.insert(0, ProjectCacheLocator)


def jit(signature=None, **options):
    """`numba.njit` with the project's defaults (cached, nogil, no Python fallback); signature is optional."""
    options.setdefault("cache", True)
    options.setdefault("nogil", True)
    if signature is None:
        return numba.njit(**options)
    return numba.njit(signature, **options)
