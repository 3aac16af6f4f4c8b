"""Tests that check the codebase itself: the README's commands, CI, and layering rules."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.+?)\n```", text, flags=re.S)[:2]


def test_readme_opens_with_exactly_the_two_commands():
    install_run, test = readme_commands()
    assert install_run == "pip install -r requirements.txt && python app.py"
    assert "playwright install" not in test and "chromium" in test
    # the browser tests run in a pytest process of their own: Playwright's sync API keeps
    # an event loop running in the main thread, which breaks asyncio.run() in later tests
    assert test.endswith("python -m pytest -q -p no:cacheprovider --ignore=tests/browser && "
                         "python -m pytest -q -p no:cacheprovider tests/browser")
    head = (ROOT / "README.md").read_text().split("---")[0]
    assert head.count("```bash") == 2


def test_ci_runs_exactly_the_readme_test_command():
    _, test = readme_commands()
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith(("#", "set ", "cd "))]
    assert lines == [test]


def test_every_requirement_is_pinned():
    for name in ("requirements.txt", "requirements-test.txt", "requirements-semantic.txt"):
        for line in (ROOT / name).read_text().splitlines():
            if line and not line.startswith(("#", "-r")):
                assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][\w.]*", line), line
    assert "opencv-python==" not in (ROOT / "requirements.txt").read_text()


def imports_of(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_layering_rules():
    assert not imports_of("store") & {"gradio", "judges", "ui", "formats", "cli"}
    assert not imports_of("formats") & {"gradio", "ui", "cli"}
    assert not imports_of("cli") & {"gradio"}
    for package in ("store", "formats"):
        for path in (ROOT / package).rglob("*.py"):
            assert "sqlite3" not in path.read_text() or package == "store", path


def test_documents_the_readme_links_to_exist():
    text = (ROOT / "README.md").read_text()
    for link in re.findall(r"\]\(((?:docs)/[^)]+)\)", text):
        assert (ROOT / link).exists(), link
