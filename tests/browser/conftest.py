"""Real-browser tests: Debian's Chromium driven by Playwright against a live server."""
import shutil

import pytest

from tests.live_server import start_ui_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1600, "height": 1000}}


@pytest.fixture
def ui_server(tmp_path):
    server = start_ui_server(tmp_path)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def module_ui_server(tmp_path_factory, request):
    """One server (start_ui_server) for all the tests of the module that asks for it."""
    server = start_ui_server(tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]))
    yield server
    server.stop()
