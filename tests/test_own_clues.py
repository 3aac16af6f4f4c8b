"""domain/extract/own_clues: a judge's extracted clues are kept only when the reply names
them; a reply that is its answer alone is not sent for extraction."""
from domain.extract.own_clues import has_reasoning, own_clues


def test_a_reply_that_is_its_answer_alone_has_no_reasoning():
    for text in ("Answer: C", "**Answer:** C\n", "\\boxed{12}", "C", "", None,
                 "The answer is (B).", "<answer>Yes</answer>"):
        assert not has_reasoning(text), text
    assert has_reasoning("The sign on the wall reads Paris.\nAnswer: C")
    assert has_reasoning("路牌上写着巴黎。\nAnswer: C")


def test_extracted_clues_the_reply_does_not_name_are_dropped():
    reply = "I can see road signs in French and a red timetable board.\nAnswer: C"
    kept, dropped = own_clues([{"text": "the sign on the wall"},
                               {"text": "a red timetable"},
                               {"text": "snow on the mountain"},
                               {"text": "the image shows something"}], reply)
    assert [c["text"] for c in kept] == ["the sign on the wall", "a red timetable"]
    assert [c["text"] for c in dropped] == ["snow on the mountain",
                                            "the image shows something"]
    assert own_clues([{"text": "the timetable"}], "Answer: C") == ([], [{"text": "the timetable"}])
    kept, _ = own_clues([{"text": "巴黎的路牌"}], "路牌上写着巴黎。Answer: C")
    assert kept


def test_one_shared_common_word_does_not_make_a_clue_the_replys():
    """'the timetable says departures at :05, :25 and :45' was kept for a reply whose only
    such word was 'says'."""
    reply = ("The wall calendar shows Monday 14 October and the fridge note says bin day "
             "Tuesday 7 am. Answer: Yes")
    kept, dropped = own_clues([{"text": "the timetable says departures at :05, :25 and :45"},
                               {"text": "the fridge note: bin day Tuesday"},
                               {"text": "a calendar on the wall"}], reply)
    assert [c["text"] for c in dropped] == ["the timetable says departures at :05, :25 and :45"]
    assert len(kept) == 2
