"""The † footnote on the Results page read "score the command line's --no-cache asks the
judge afresh": the page's flag rule rewrote the flag inside the command. Now the remedy is
said whole in words, with no flag left. The footnotes and notes as the tables make them."""
from scoring.biased import note
from scoring.judge_failures import advice
from ui.page_words import on_page


def test_the_no_cache_remedy_reads_plainly_on_the_page():
    for text in (note({"m · CoT": 2}, "rigorous"),
                 advice({"extracted clues not in the reply": 2, "reply unreadable": 1})):
        said = on_page(text)
        assert "score --no-cache asks the judge afresh" in text
        assert "command line's --no-cache" not in said and "--" not in said, said
        assert "scoring from the command line with the cache off (score's no-cache option) " \
               "asks the judge afresh" in said
