"""Server paths on the Import page stay inside the import roots (issue #12, section 1)."""
from __future__ import annotations

import os

import pytest

from cli import main as cli_main
from ui.import_roots import ImportRootError, ImportRoots
from ui.io_handlers import IoError, IoHandlers


@pytest.fixture
def tree(tmp_path):
    """root/data.jsonl inside the root; outside/secret.jsonl and links pointing out."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir(), outside.mkdir()
    (root / "data.jsonl").write_text('{"id": "t/1", "question": "q?"}\n')
    (outside / "secret.jsonl").write_text('{"id": "s/1", "question": "secret?"}\n')
    os.symlink(outside / "secret.jsonl", root / "link.jsonl")
    os.symlink(outside, root / "linked-folder")
    return root, outside


def test_a_path_inside_a_root_is_accepted_resolved(tree):
    root, _ = tree
    roots = ImportRoots([root])
    assert roots.check(str(root / "data.jsonl")) == (root / "data.jsonl").resolve()
    assert roots.check(f"{root}/sub/../data.jsonl") == (root / "data.jsonl").resolve()


@pytest.mark.parametrize("name", ["link.jsonl", "linked-folder/secret.jsonl",
                                  "../outside/secret.jsonl"])
def test_links_and_dotdot_leaving_the_root_are_refused(tree, name):
    root, _ = tree
    with pytest.raises(ImportRootError, match="outside the folders this server imports from"):
        ImportRoots([root]).check(f"{root}/{name}")


@pytest.mark.parametrize("path", ["/etc/passwd", "/proc/self/environ", "/"])
def test_system_files_and_the_filesystem_root_are_refused(tree, path):
    with pytest.raises(ImportRootError, match="refused"):
        ImportRoots([tree[0]]).check(path, "image folder")


def test_no_roots_means_no_server_paths(tree):
    with pytest.raises(ImportRootError, match="upload the file or a ZIP instead"):
        ImportRoots().check(str(tree[0] / "data.jsonl"))


def test_the_filesystem_root_cannot_be_an_import_root(tmp_path):
    with pytest.raises(ImportRootError, match="whole filesystem"):
        ImportRoots(["/"])
    with pytest.raises(ImportRootError, match="not a folder"):
        ImportRoots([tmp_path / "missing"])


def test_defaults_none_with_a_login_and_cwd_db_home_locally(tmp_path):
    assert ImportRoots.defaults(local_mode=False, db_path=tmp_path / "x.db").roots == []
    (tmp_path / "home").mkdir(), (tmp_path / "work").mkdir(), (tmp_path / "dbs").mkdir()
    local = ImportRoots.defaults(local_mode=True, db_path=tmp_path / "dbs" / "x.db",
                                 cwd=tmp_path / "work", home=tmp_path / "home")
    assert local.roots == [(tmp_path / p).resolve() for p in ("work", "dbs", "home")]
    assert ImportRoots.defaults(local_mode=True, cwd="/", home="/").roots == []


def test_the_handler_refuses_server_paths_and_image_folders_outside(store, tree):
    root, outside = tree
    handlers = IoHandlers(store, ImportRoots([root]))
    with pytest.raises(IoError, match="outside the folders"):
        handlers.run_import("jsonl", None, str(root / "link.jsonl"), "", "", author="tester")
    with pytest.raises(IoError, match="image folder / is the whole filesystem"):
        handlers.run_import("jsonl", None, str(root / "data.jsonl"), "/", "", author="tester")
    with pytest.raises(IoError, match="image folder .* outside"):
        handlers.run_import("jsonl", None, str(root / "data.jsonl"), str(outside), "",
                            author="tester")
    with pytest.raises(IoError, match="no --import-root configured"):
        IoHandlers(store, None).run_import("jsonl", None, str(root / "data.jsonl"), "", "",
                                           author="tester")
    assert store.item_ids() == []
    report = handlers.run_import("jsonl", None, str(root / "data.jsonl"), str(root), "",
                                 author="tester")
    assert report["imported"] == 1 and store.item_ids() == ["t/1"]


def test_serve_refuses_a_root_of_slash_before_creating_the_database(tmp_path, capsys):
    db = tmp_path / "new.db"
    assert cli_main(["serve", "--db", str(db), "--import-root", "/"]) == 2
    assert "whole filesystem" in capsys.readouterr().err
    assert not db.exists()
    assert cli_main(["serve", "--db", str(db), "--import-root", str(tmp_path / "no")]) == 2
    assert not db.exists()
