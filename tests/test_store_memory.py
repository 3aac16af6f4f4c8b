"""A large image decode hands the memory it freed back to the system (store/memory.py): the
server's size stayed at its largest decode's (405 MB -> 1.8 GB after a few large images)."""
import subprocess
import sys
import textwrap

from PIL import Image


def test_memory_of_a_large_decode_is_given_back(tmp_path):
    path = tmp_path / "large.png"
    Image.new("RGB", (9000, 9000), (120, 30, 40)).save(path, compress_level=1)
    script = textwrap.dedent(f"""
        import threading
        from store.decode import decode_checked
        data = open({str(path)!r}, "rb").read()
        def rss():
            return int(open("/proc/self/statm").read().split()[1]) * 4096 // 2**20
        before = rss()
        def work():
            assert decode_checked(data, "large.png") is not None     # a preview
        threads = [threading.Thread(target=work) for _ in range(2)]
        [t.start() for t in threads]; [t.join() for t in threads]
        print(rss() - before)
    """)
    grown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=str(__import__("pathlib").Path(__file__).parents[1]))
    assert int(grown.stdout.strip()) < 100, grown.stdout       # MB; 300+ kept before
