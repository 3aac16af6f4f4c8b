"""The layers: which package may import which, in one table (docs/ARCHITECTURE.md shows it).

Imports are read with `ast`, function-level ones included, so a lazy import counts like any
other. A failure names the file, the line and the import.
"""
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ALLOWED = {
    "app": {"cli"},
    # cli's `serve` starts the web app (ui.server) and checks --import-root (ui.import_roots)
    "cli": {"ui", "formats", "scoring", "runner", "judges", "store", "domain"},
    "ui": {"formats", "scoring", "runner", "judges", "store", "domain"},
    # benchmarks measure the product from outside; `tests` lends them the fake OpenAI server
    "bench": {"ui", "formats", "scoring", "runner", "judges", "store", "domain", "tests"},
    "formats": {"judges", "store", "domain"},
    "scoring": {"runner", "judges", "store", "domain"},
    "runner": {"store", "domain"},
    "judges": {"domain"},
    "store": {"domain"},
    "domain": set(),
    "assets": set(),
}
INTERNAL = set(ALLOWED) | {"tests"}
PURE = ("domain", "judges", "store")
GRADIO = {"gradio", "gradio_client", "gradio_image_annotation"}
NETWORK = {"openai", "aiohttp", "httpx", "requests", "urllib.request", "http.client", "socket"}
DRAWS = {"runner/images.py"}
"""The only modules that import OpenCV: they draw on images (masks, crops)."""


def _sources(package: str) -> list[Path]:
    if package == "app":
        return [ROOT / "app.py"]
    return sorted((ROOT / package).rglob("*.py"))


def _imports(path: Path):
    """(line, module) of every absolute import in the file, at any depth."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)


def _is(module: str, names: set[str]) -> bool:
    return any(module == name or module.startswith(name + ".") for name in names)


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_every_package_imports_only_what_the_table_allows():
    wrong = {}  # one message per file, line and package (not per imported name)
    for package, allowed in ALLOWED.items():
        for path in _sources(package):
            for line, module in _imports(path):
                top = module.split(".")[0]
                if top in INTERNAL and top != package and top not in allowed:
                    wrong.setdefault((_where(path, line), top), (
                        f"{_where(path, line)}: imports {module} "
                        f"({package} may import: {', '.join(sorted(allowed)) or 'nothing'})"))
    assert not wrong, "\n".join(sorted(wrong.values()))


def test_nothing_imports_ui_or_cli_but_the_top():
    assert {p for p, allowed in ALLOWED.items() if "cli" in allowed} == {"app"}
    assert {p for p, allowed in ALLOWED.items() if "ui" in allowed} == {"cli", "bench"}


def test_the_pure_layers_import_no_gradio_and_nothing_that_goes_online():
    wrong = [f"{_where(path, line)}: imports {module}"
             for package in PURE for path in _sources(package)
             for line, module in _imports(path) if _is(module, GRADIO | NETWORK)]
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_opencv_is_imported_only_where_images_are_drawn():
    wrong = [f"{_where(path, line)}: imports {module}"
             for package in ALLOWED if package != "bench" for path in _sources(package)
             for line, module in _imports(path)
             if _is(module, {"cv2"}) and str(path.relative_to(ROOT)) not in DRAWS]
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_scoring_and_the_inspect_view_load_no_opencv_and_no_http_client():
    """What `import` pulls in behind the scenes: the grounded score and the Inspect overlay
    share the box rule without the runner's image code or its HTTP client."""
    code = ("import sys, scoring.offline, scoring.results, judges.grounding, domain.extract, "
            "ui.inspect_view; print(sorted({'cv2', 'aiohttp'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def _doc_table() -> dict[str, set[str]]:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## Allowed imports\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = {}
    for row in rows:
        package, _job, may = [cell.strip() for cell in row.strip("|").split("|")]
        name = re.fullmatch(r"`(\w+)(?:\.py|/)?`", package).group(1)
        table[name] = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", may)))
    return table


def test_the_architecture_doc_shows_the_same_table():
    assert _doc_table() == ALLOWED
