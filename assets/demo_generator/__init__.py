"""Generate ClueLab's demo dataset: ``assets/demo/demo.jsonl`` and ``assets/demo/images/``.

Why a generator instead of checked-in photos: the demo seeds every new database, so it must be
small, licence-clean and exactly reproducible, and every clue box must frame the evidence it names.
Each scene (scenes/, one module per domain) is drawn with Pillow primitives (drawing.py), and its
boxes are computed from the very coordinates used to draw the evidence -- never typed in by hand.

The items imitate the three seed benchmarks: DailyClue's four domains and 16 subtasks
(question-clue-answer triplets), VER-Bench (several boxes per clue, a reasoning step per clue,
tiny clues on large images) and MMR-Life (a multi-image sequence with five image options A-E).

Run:  python -m assets.demo_generator [--out assets/demo]   (from the repository root)
Deterministic: fixed seeds, Pillow's built-in font only, no clocks -- the same Pillow
version writes byte-identical files (tests/test_demo_assets.py pins them).
"""
