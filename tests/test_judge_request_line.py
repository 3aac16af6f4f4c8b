"""`score`'s request line ended "7 requests: 0 answered, 7 from the cache … and one answered
before is served from the cache, not sent" whatever the count (10 from the cache read the
same "one"): fixed text beside a number. Now it says the count. Pure function."""
from scoring.judge_client import counts_text

COUNTS = {"judge": "llm:j", "requests": 7, "answered": 0, "cached": 7, "failed": 0,
          "unreadable": 0, "failures": {}}


def test_the_cached_requests_are_counted_not_one():
    text = counts_text(COUNTS, responses=14)
    assert "7 from the cache" in text and "one answered before" not in text
    assert text.endswith("and the 7 answered before are served from the cache, not sent")
    one = counts_text({**COUNTS, "answered": 6, "cached": 1}, responses=14)
    assert one.endswith("and the 1 answered before is served from the cache, not sent")
