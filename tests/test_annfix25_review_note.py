"""A review refused for a text-direction control in its note says so in one plain sentence:
it read "Review not recorded: item demo/x: note: Review note holds text-direction
characters (U+202E)…" ("note: Review note" twice)."""
import pytest

from tests.test_ui_handlers import ui_store  # noqa: F401  (the fixture: a real store)
from ui.editor_model import EditError
from ui.history_handlers import HistoryHandlers


def test_a_review_note_with_a_control_is_refused_in_one_sentence(ui_store):
    item = ui_store.get_item("ui/alpha")
    with pytest.raises(EditError) as refused:
        HistoryHandlers(ui_store).review("ui/alpha", item["version"], "rev", "revise",
                                         "looks fine \u202eevil")
    assert str(refused.value) == ("Review not recorded: the review note holds a "
                                  "text-direction control (U+202E); remove it")
    assert ui_store.get_item("ui/alpha")["version"] == item["version"]
    with pytest.raises(EditError, match=r"controls \(U\+202E, U\+2066\); remove them$"):
        HistoryHandlers(ui_store).review("ui/alpha", item["version"], "rev", "revise",
                                         "a\u202eb\u2066c")
