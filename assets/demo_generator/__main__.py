"""``python -m assets.demo_generator [--out DIR]`` (run from the repository root)."""
from assets.demo_generator.generate import main

main()
