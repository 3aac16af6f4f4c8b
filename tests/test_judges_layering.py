"""`judges` stays pure: it imports neither store nor gradio, nor anything that goes online."""
import ast
from pathlib import Path

JUDGES = Path(__file__).resolve().parent.parent / "judges"
FORBIDDEN = {"store", "gradio", "ui", "sqlite3", "aiohttp", "openai", "requests", "urllib",
             "http", "socket"}


def test_judges_imports_no_store_gradio_or_network():
    for path in JUDGES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_judges_modules_stay_small():
    for path in JUDGES.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 300, path.name
