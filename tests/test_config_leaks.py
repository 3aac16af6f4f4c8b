"""/config (and each page's HTML, which embeds it) is the same for every logged-in user, so
the initial values and choices of components must hold no data: pages fill them on load
through guarded events (ui/access.py). Checked as anonymous and as each role under --auth,
on a database whose endpoint, key variable, run, baseline and dataset have marked names."""
from __future__ import annotations


import pytest

from runner.config import Execution, RunConfig
from runner.planning import create_run, plan_run
from store import Store
from tests.live_server import LiveServer, add_user, build_ui_db
from tests.queue_caller import QueueCaller
from ui import access

PASSWORD = "config-leak-pw"
ROLES = {"ada": "admin", "rita": "researcher", "ann": "annotator", "pat": "participant"}
MARKED = {"endpoint": "zebra-endpoint", "model": "zebra-model", "base URL": "10.9.8.7",
          "key variable": "ZEBRA_KEY_VAR", "run name": "zebra-run", "baseline": "zebra-human",
          "baseline label": "Zebra panel", "dataset": "zebra-dataset"}


@pytest.fixture(scope="module")
def marked_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("config-leaks") / "leaks.db"
    ids = build_ui_db(db)
    with Store.open(db) as store:
        item = store.get_item(ids[1])
        store.save_item(dict(item, dataset=MARKED["dataset"]), item["version"], "t")
        store.add_endpoint(MARKED["endpoint"], f"http://{MARKED['base URL']}:8000/v1",
                           MARKED["model"], api_key_env=MARKED["key variable"])
        plan = plan_run(store, RunConfig(endpoint=MARKED["endpoint"], ids=ids), Execution())
        store.label_run(create_run(store, plan), name=MARKED["run name"])
        store.add_human_baseline(MARKED["baseline"], MARKED["baseline label"], {ids[0]: True})
        folders = {"database folder": str(db.parent), "media folder": str(store.media_dir)}
    for name, role in ROLES.items():
        add_user(db, name, role, PASSWORD)
    server = LiveServer(db, "--auth")
    server.markers = {**MARKED, **folders}
    yield server
    server.stop()


def leaks(text: str, markers: dict) -> list[str]:
    return [what for what, marker in markers.items() if marker.lower() in text.lower()]


@pytest.mark.parametrize("name", list(ROLES))
def test_config_and_pages_hold_no_data_for_any_role(marked_server, name):
    caller = QueueCaller(marked_server.url, (name, PASSWORD))
    config = caller.get("/config")
    if ROLES[name] == "participant":      # no page and no event: no description of them
        assert config.status_code == 403
    else:
        assert config.status_code == 200 and '"dependencies"' in config.text
    assert leaks(config.text, marked_server.markers) == []
    for page in access.PAGES:
        for query in ("", "?page=" + page.strip("/")):
            shown = caller.get(page + query)
            assert shown.status_code in (200, 403)
            assert leaks(shown.text, marked_server.markers) == [], (page, query)


def test_anonymous_callers_get_no_config_and_a_bare_login_page(marked_server):
    anonymous = QueueCaller(marked_server.url)
    assert anonymous.get("/config").status_code == 401
    for page in access.PAGES:
        assert leaks(anonymous.get(page).text, marked_server.markers) == []


def test_the_page_fills_its_choices_for_those_who_may_see_them(marked_server):
    """What /config leaves out, the Results page's opening event fills (researchers only)."""
    rita = QueueCaller(marked_server.url, ("rita", PASSWORD))
    config = rita.config()
    [answer] = rita.answers(config, only={"results_on_open"}).values()
    assert answer["success"] is True
    assert MARKED["endpoint"] in str(answer["output"]) and MARKED["run name"] in \
        str(answer["output"])
