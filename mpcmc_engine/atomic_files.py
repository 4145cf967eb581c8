"""Atomic file writes (weights, the trainer's checkpoints and curves): a temporary file beside the target, then
os.replace, so a reader never sees a half-written file."""

import os
import tempfile
from pathlib import Path


def write_atomically(path, write) -> None:
    """Create `path` by calling write(temporary_path) and renaming the result into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_text_atomically(path, text: str) -> None:
    """Write `text` to `path` atomically."""
    write_atomically(path, lambda temporary: Path(temporary).write_text(text))
