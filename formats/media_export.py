"""Writing stored images beside an export file, and reading them back as bytes.

Every exporter that writes image files (jsonl, coco, labelstudio) puts them in
`<OUT stem>_images/<sha256>.<ext>` and refers to them by a path relative to the folder of
OUT, so the export folder can be moved or zipped as a whole.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

# The stored Pillow format name -> file extension (docs/FORMAT_JSONL.md).
EXTENSIONS = {"JPEG": "jpg", "MPO": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif",
              "BMP": "bmp", "TIFF": "tiff"}


def extension(image_format: str) -> str:
    return EXTENSIONS.get(str(image_format).upper(), str(image_format).lower())


def images_folder_for(out: Path) -> Path:
    out = Path(out)
    return out.with_name(f"{out.stem}_images")


ImageSink = Callable[[str, Path], None]
"""Where an export's images go instead of the folder beside OUT: called once per image with
its path relative to OUT's folder (`<OUT stem>_images/<sha>.<ext>`) and the stored file.
The web app writes them straight into the download's ZIP (ui/io_handlers.py), with no copy
of the dataset on the way."""


class ImageWriter:
    """Copies each stored image once into the images folder beside OUT (or hands it to
    `sink`, see ImageSink).

    `relative(sha)` returns the path to write into the export file, e.g.
    `export_images/3f2a….png`. Files already present with the right size are not rewritten.
    """

    def __init__(self, store, out: Path, sink: ImageSink | None = None):
        self.store = store
        self.folder = images_folder_for(out)
        self.sink = sink
        self.written: dict[str, str] = {}
        self.infos: dict[str, dict] = {}

    def info(self, sha: str) -> dict:
        if sha not in self.infos:
            self.infos[sha] = self.store.image_info(sha)
        return self.infos[sha]

    def relative(self, sha: str) -> str:
        if sha not in self.written:
            name = f"{sha}.{extension(self.info(sha)['format'])}"
            target = self.folder / name
            source = Path(self.store.image_path(sha))
            if self.sink is not None:
                self.sink(f"{self.folder.name}/{name}", source)
            elif not (target.is_file() and target.stat().st_size == source.stat().st_size):
                self.folder.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
            self.written[sha] = f"{self.folder.name}/{name}"
        return self.written[sha]

    @property
    def count(self) -> int:
        return len(self.written)


def image_bytes(store, sha: str) -> bytes:
    return Path(store.image_path(sha)).read_bytes()
