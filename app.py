"""ClueLab entry point.

`python app.py` serves the annotation UI on http://127.0.0.1:7860 (creating and seeding
`cluelab.db` on first start); `python app.py <command>` runs the command line
(`import`, `export`, `stats`, `user add`). See `python app.py --help`.
"""
import sys

from cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
