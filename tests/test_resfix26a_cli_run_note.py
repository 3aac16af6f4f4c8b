"""A researcher watching a run started from the command line (only an admin steers it)
saw Pause, Cancel and Resume greyed with nothing beside them saying why: the control line
under them now says it, on watching the run and when its status changes. The real app
process under --auth, gradio_client, real SQLite."""
from __future__ import annotations

import html

from gradio_client import Client

from store import Store
from tests.live_server import LiveServer, build_ui_db
from tests.scoring_helpers import make_run

WHY = ("started from the command line: only an admin may pause, cancel, resume, rename or "
       "delete it")


def shown(markdown: str) -> str:
    """The control line's words as read on the page (it is escaped Markdown)."""
    return html.unescape(markdown).replace("\\", "")


def test_the_control_line_says_why_the_buttons_are_off(tmp_path):
    db = tmp_path / "auth.db"
    build_ui_db(db)
    with Store.open(db) as store:
        store.add_user("rita", "researcher", "pw-rita-123")
        store.add_user("ada", "admin", "pw-ada-1234")
        item = store.item_ids()[0]
        make_run(store, "cli-run", {item: "Yes."})
        make_run(store, "rita-run", {item: "Yes."})
        store.db.conn.execute("UPDATE model_runs SET created_by = 'cli', status = 'stopped' "
                              "WHERE id = 'cli-run'")
        store.db.conn.execute("UPDATE model_runs SET created_by = 'rita', status = 'stopped' "
                              "WHERE id = 'rita-run'")
        store.db.conn.commit()
    srv = LiveServer(db, "--auth")
    try:
        rita = Client(srv.url, auth=("rita", "pw-rita-123"), verbose=False,
                      download_files=False)
        watched = rita.predict("cli-run", "all", api_name="/watch_run")
        assert "only an admin" in watched[1]          # the panel says it too, at its foot
        assert WHY in shown(watched[-1]), watched[-1]
        assert rita.predict("rita-run", "all", api_name="/watch_run")[-1] == ""   # her own
        ada = Client(srv.url, auth=("ada", "pw-ada-1234"), verbose=False, download_files=False)
        assert ada.predict("cli-run", "all", api_name="/watch_run")[-1] == ""     # an admin
    finally:
        srv.stop()
