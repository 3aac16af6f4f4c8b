"""No import message, log line or HTTP answer quotes a file's content (issue #12, section 1).

Files shaped like /etc/passwd and /proc/self/environ, with planted secrets, are imported in
every format through the CLI, the Import page's handler (upload and server path) and the
running server over HTTP. Before the fix the VLMEvalKit error quoted the header line: for
an environ file that is the server's whole environment.
"""
from __future__ import annotations

import json
import zipfile

import pytest
from gradio_client import Client, handle_file

from cli import main as cli_main
from formats import IMPORT_FORMATS
from store import Store
from tests.live_server import LiveServer
from ui.import_roots import ImportRoots
from ui.io_handlers import IoError, IoHandlers

SECRET = "sk-planted-7f3a9c"
ROOT_LINE = "root:x:0:0:root:/root:/bin/bash"
PASSWD = f"{ROOT_LINE}\ndaemon:x:1:1:{SECRET}:/usr/sbin:/usr/sbin/nologin\n"
ENVIRON = f"PATH=/usr/bin\0OPENAI_API_KEY={SECRET}\0HOME=/root\0".replace("\0", "\x00")
MARKERS = (SECRET, "root:x:0", "OPENAI_API_KEY", "daemon:x")


def hostile_files(folder):
    """{label: path} of the two files under names each format might expect."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for label, text in (("passwd", PASSWD), ("environ", ENVIRON)):
        for suffix in (".jsonl", ".json", ".tsv"):
            files[f"{label}{suffix}"] = folder / f"{label}{suffix}"
            files[f"{label}{suffix}"].write_text(text)
        bench = folder / f"{label}-verbench" / "Annotation"
        bench.mkdir(parents=True)
        (bench / "x.json").write_text(text)
        (bench.parent / "Box_annotation").mkdir()
        (bench.parent / "Box_annotation" / "x_bbox.json").write_text(text)
        files[f"{label}-verbench"] = bench.parent
    return files


def cases(files):
    for fmt in IMPORT_FORMATS:
        for label in ("passwd", "environ"):
            if fmt == "verbench":
                yield fmt, files[f"{label}-verbench"]
            else:
                yield fmt, files[f"{label}{'.tsv' if fmt == 'vlmevalkit' else '.jsonl'}"]
                yield fmt, files[f"{label}.json"]


def assert_clean(text: str) -> None:
    for marker in MARKERS:
        assert marker not in text


def test_cli_never_prints_a_file_s_content(tmp_path, capsys):
    files = hostile_files(tmp_path / "files")
    for fmt, path in cases(files):
        for extra in ([], ["--json"]):
            cli_main(["import", "--db", str(tmp_path / "x.db"), "--format", fmt, *extra,
                      str(path)])
            out = capsys.readouterr()
            assert_clean(out.out + out.err)
            assert str(path.name) in out.out + out.err      # the file is named


def test_the_page_never_shows_a_file_s_content(store, tmp_path):
    files = hostile_files(tmp_path / "files")
    handlers = IoHandlers(store, ImportRoots([tmp_path]))
    for fmt, path in cases(files):
        uploads = [str(path)] if path.is_file() else []
        archive = tmp_path / f"{path.name}.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            if path.is_file():
                zf.write(path, path.name)
            else:
                for member in path.rglob("*"):
                    zf.write(member, member.relative_to(path.parent))
        for upload, server_path in [(u, "") for u in uploads + [str(archive)]] + \
                                   [(None, str(path))]:
            try:
                report = handlers.run_import(fmt, upload, server_path, "", "", author="tester")
            except IoError as err:
                message = str(err)
                assert "nothing was imported" in message
            else:
                message = json.dumps(report)
            assert_clean(message)
            assert "cluelab-import-" not in message          # the user's names, not temp ones


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("secrets")
    db = folder / "s.db"
    with Store.open(db) as store:
        store.add_user("res", "researcher", "pw-researcher")
    files = hostile_files(folder / "root")
    server = LiveServer(db, "--auth", "--import-root", str(folder / "root"),
                        env={"OPENAI_API_KEY": SECRET})
    server.files = files
    yield server
    server.stop()


def test_the_running_server_answers_and_logs_no_content(auth_server):
    client = Client(auth_server.url, auth=("res", "pw-researcher"), verbose=False,
                    download_files=False)
    answers = []
    attempts = [("vlmevalkit", handle_file(str(auth_server.files["environ.tsv"])), ""),
                ("jsonl", handle_file(str(auth_server.files["passwd.jsonl"])), ""),
                ("vlmevalkit", None, str(auth_server.files["environ.tsv"])),
                ("mmr-life", None, str(auth_server.files["passwd.json"])),
                ("vlmevalkit", None, "/proc/self/environ"),
                ("jsonl", None, "/etc/passwd")]
    for fmt, upload, path in attempts:
        with pytest.raises(Exception) as caught:
            client.predict(fmt, upload, path, "", "", api_name="/import_file")
        answers.append(str(caught.value))
    assert all("nothing was imported" in a for a in answers), answers
    assert "outside the folders" in answers[-1] and "outside the folders" in answers[-2]
    for answer in answers:
        assert_clean(answer)
    assert_clean(auth_server.log.read_text())


def test_problems_listed_in_a_jsonl_file_are_counted_not_quoted(tmp_path, capsys):
    """A ClueLab JSONL carries its items' problem sentences; they are the file's text, so the
    report counts them (the item keeps them, to be read on its page)."""
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps({"id": "d/1", "dataset": "d", "question": "Q?", "answer": "a",
                                "problems": [f"note: {SECRET}", ROOT_LINE]}) + "\n")
    db = tmp_path / "x.db"
    assert cli_main(["import", "--db", str(db), "--format", "jsonl", str(path)]) == 0
    out = capsys.readouterr()
    assert_clean(out.out + out.err)
    assert "d/1: problems listed in the file: 2 sentences" in out.out
    assert Store(db).get_item("d/1")["problems"][:2] == [f"note: {SECRET}", ROOT_LINE]
