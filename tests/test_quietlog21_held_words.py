"""A refusal held back says what was held back: one key per account held its other events'
refusals too, and "refused a call of inspect_open … (and 60 more like it)" said they were
all inspect_open (an attacker's review of the server log)."""
import logging

from ui.quiet_log import QuietLog


def test_the_held_lines_are_said_in_the_callers_words(caplog):
    quiet = QuietLog(logging.getLogger("test.quiet"), every_s=0.0)
    quiet.every_s = 3600.0
    with caplog.at_level(logging.WARNING, logger="test.quiet"):
        quiet.warning("ann", "refused a call of inspect_open by ann", "more calls refused")
        quiet.warning("ann", "refused a call of show_results by ann", "more calls refused")
        quiet.warning("ann", "refused a call of start_run by ann", "more calls refused")
        quiet.every_s = 0.0
        quiet.warning("ann", "refused a call of run_stop by ann", "more calls refused")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["refused a call of inspect_open by ann",
                     "refused a call of run_stop by ann (and 2 more calls refused since the "
                     "last such line)"], lines


def test_the_queue_door_says_its_held_refusals_are_of_any_event():
    import inspect

    from ui import queue_door
    assert "more of this account's calls refused, of any event" in inspect.getsource(
        queue_door.refusal)
