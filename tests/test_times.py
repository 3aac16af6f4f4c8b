"""Times as the Annotate page shows them (ui/times.py): "2026-12-01 23:11 UTC", with the age
where a list of past events is read. The page's handlers using it: tests/test_ui_handlers.py
(test_every_time_on_the_annotate_page_is_readable)."""
from datetime import datetime, timezone

import pytest

from ui import times

NOW = datetime(2026, 12, 2, 1, 11, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize("stamp, shown", [
    ("2026-12-01T23:11:05Z", "2026-12-01 23:11 UTC"),
    ("2026-12-01T23:11:05.123Z", "2026-12-01 23:11 UTC"),
    ("2026-12-02T01:11:05+02:00", "2026-12-01 23:11 UTC"),     # an offset: shown in UTC
    ("2026-12-01 23:11:05", "2026-12-01 23:11 UTC"),           # no zone: stored as UTC
    ("", ""), (None, ""), ("not a time", "not a time"),
])
def test_a_stored_time_is_shown_as_people_read_it(stamp, shown):
    assert times.shown(stamp) == shown


@pytest.mark.parametrize("stamp, ago", [
    ("2026-12-02T01:11:00Z", "just now"), ("2026-12-02T01:20:00Z", "just now"),  # clock skew
    ("2026-12-02T01:06:05Z", "5 min ago"), ("2026-12-01T22:11:05Z", "3 h ago"),
    ("2026-12-01T00:11:05Z", "1 day ago"), ("2026-11-20T01:11:05Z", "12 days ago"),
    ("garbage", ""),
])
def test_the_age_beside_it(stamp, ago):
    assert times.age(stamp, NOW) == ago
    assert times.shown_with_age("2026-12-01T22:11:05Z", NOW) == "2026-12-01 22:11 UTC · 3 h ago"
