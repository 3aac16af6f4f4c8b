"""Spatial Relationship scenes, one per DailyClue subtask kind: a chessboard (logical), a pantry
shelf (static) and a floor plan with dimensions (functional)."""
from __future__ import annotations

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.drawing import Canvas, dim_h, dim_v, union


def chess(demo: DemoSet) -> None:
    """Chessboard: a rook and a queen share a file, but a pawn blocks the path."""
    W, H = 900, 880
    c = Canvas(W, H, (250, 248, 244))
    ox, oy, sq = 100, 40, 90
    for f in range(8):
        for r in range(8):
            col = (240, 217, 181) if (f + r) % 2 == 0 else (181, 136, 99)
            c.rect((ox + f * sq, oy + r * sq, ox + (f + 1) * sq, oy + (r + 1) * sq), fill=col)
    c.rect((ox, oy, ox + 8 * sq, oy + 8 * sq), outline=(60, 40, 30), width=3)
    files = {}
    for f, ch in enumerate("abcdefgh"):
        files[ch] = c.text((ox + f * sq + sq / 2, oy + 8 * sq + 12), ch, 30, (60, 40, 30), anchor="mt")
    for r in range(1, 9):
        c.text((ox - 20, oy + (8 - r) * sq + sq / 2), str(r), 30, (60, 40, 30), anchor="rm")

    def piece(square, letter, white):
        f, r = "abcdefgh".index(square[0]), int(square[1])
        cx, cy = ox + f * sq + sq / 2, oy + (8 - r) * sq + sq / 2
        c.circle(cx, cy, 34, fill=(250, 250, 250) if white else (32, 32, 32), outline=(20, 20, 20), width=3)
        c.text((cx, cy), letter, 38, (20, 20, 20) if white else (245, 245, 245), anchor="mm", bold=True)
        return (cx - 34, cy - 34, cx + 34, cy + 34)

    boxes = {}
    for sqr, let, white in (("g1", "K", True), ("f3", "R", True), ("c3", "N", True), ("g2", "P", True),
                            ("h2", "P", True), ("e4", "P", True), ("g8", "K", False), ("f7", "Q", False),
                            ("f5", "P", False), ("g7", "P", False), ("h7", "P", False), ("c6", "N", False),
                            ("a8", "R", False)):
        boxes[sqr] = piece(sqr, let, white)
    demo.add(
        "chess-blocked-rook", domain="Spatial Relationship", subtask="Logical Spatial Relations",
        question="White plays from the bottom of the board (letters on the discs: K king, Q queen, R rook, "
                 "N knight, P pawn). Can the white rook capture the black queen in one move?",
        answer_type="yes_no", answer="No",
        images=[demo.save(c, "chess_blocked_rook.png")],
        clues=[
            ("The white rook on f3 and the black queen on f7 stand on the same file (f)",
             "A rook moves along files and ranks, so the queen is on a line the rook could use.",
             [c.box(0, boxes["f3"]), c.box(0, boxes["f7"]), c.box(0, files["f"])]),
            ("A black pawn on f5 stands between them", "A rook cannot jump over pieces; the pawn on f5 blocks the "
             "path from f3 to f7, so the queen cannot be captured this move.", [c.box(0, boxes["f5"])]),
        ],
        gt_reasoning="Rook f3 and queen f7 share the f-file, but the black pawn on f5 blocks the line, so the "
                     "capture is impossible in one move.",
        status="in_review", metadata={"source": "synthetic drawing"},
    )


def pantry(demo: DemoSet) -> None:
    """Pantry shelf with labelled jars: 'directly below' questions need a clean grid."""
    W, H = 1100, 1000
    c = Canvas(W, H, (236, 230, 220))
    wood, dark = (196, 154, 108), (150, 110, 70)
    c.rect((100, 60, 1000, 932), fill=(222, 196, 160))
    c.rect((80, 40, 1020, 60), fill=dark)
    c.rect((80, 40, 100, 960), fill=dark)
    c.rect((1000, 40, 1020, 960), fill=dark)
    shelves = [330, 620, 910]
    for y in shelves:
        c.rect((100, y, 1000, y + 22), fill=wood, outline=dark)
    names = [["FLOUR", "SUGAR", "COFFEE", "TEA"], ["RICE", "PASTA", "OATS", "LENTILS"],
             ["SALT", "HONEY", "BEANS", "COCOA"]]
    fills = {"FLOUR": (246, 244, 238), "SUGAR": (252, 252, 252), "COFFEE": (70, 44, 30), "TEA": (90, 110, 60),
             "RICE": (240, 236, 222), "PASTA": (232, 196, 110), "OATS": (214, 190, 150), "LENTILS": (180, 90, 50),
             "SALT": (248, 248, 250), "HONEY": (226, 160, 40), "BEANS": (130, 40, 40), "COCOA": (100, 60, 40)}
    heights = [[190, 170, 200, 160], [180, 200, 175, 190], [160, 205, 185, 170]]
    jars = {}
    for row, y in enumerate(shelves):
        for col in range(4):
            name, h = names[row][col], heights[row][col]
            cx = 212 + col * 225
            body = c.rect((cx - 75, y - h, cx + 75, y), fill=(214, 230, 236), outline=(150, 170, 180), width=3, radius=18)
            c.rect((cx - 68, y - h * 0.75, cx + 68, y - 7), fill=fills[name], radius=12)
            lid = c.rect((cx - 62, y - h - 24, cx + 62, y - h + 4), fill=(120, 120, 128), radius=6)
            c.rect((cx - 62, y - h / 2 - 22, cx + 62, y - h / 2 + 22), fill=(255, 255, 255), outline=(90, 90, 90), width=2)
            c.text((cx, y - h / 2), name, 24, (20, 20, 20), anchor="mm", bold=True)
            jars[name] = union(body, lid)
    demo.add(
        "pantry-shelf", domain="Spatial Relationship", subtask="Static Spatial Relations",
        question="Which jar stands directly below the coffee jar?",
        answer_type="multiple_choice", answer="D",
        options=[{"label": "A", "text": "Tea"}, {"label": "B", "text": "Pasta"},
                 {"label": "C", "text": "Lentils"}, {"label": "D", "text": "Oats"}],
        images=[demo.save(c, "pantry_shelf.png")],
        clues=[
            ("The COFFEE jar is on the top shelf, third from the left", "Locates the reference object's column.",
             [c.box(0, jars["COFFEE"])]),
            ("On the middle shelf, third from the left, stands the OATS jar", "Same column, one shelf lower: "
             "this is the jar directly below the coffee.", [c.box(0, jars["OATS"])]),
        ],
        gt_reasoning="Coffee is in the third column of the top shelf; the jar in the third column of the shelf "
                     "below is Oats.",
        status="candidate", metadata={"source": "synthetic drawing"},
    )


def floorplan(demo: DemoSet) -> None:
    """Floor plan with dimensions: which furniture fits the alcove (functional spatial reasoning)."""
    W, H = 1300, 900
    c = Canvas(W, H, (252, 252, 250))
    wall = (40, 40, 40)
    pts = [(80, 280), (243, 280), (243, 93), (587, 93), (587, 280), (700, 280), (700, 820), (80, 820), (80, 280)]
    c.line(pts, wall, 14)
    # door gap in the bottom wall, with its swing arc
    c.rect((440, 810, 580, 830), fill=(252, 252, 250))
    c.line((440, 820, 440, 690), wall, 4)
    c.d.arc((310, 690, 570, 950), 270, 360, fill=(120, 120, 120), width=2)
    # window in the left wall
    c.rect((74, 450, 86, 650), fill=(190, 220, 240), outline=wall, width=2)
    c.text((390, 560), "BEDROOM", 34, (110, 110, 110), anchor="mm", bold=True)
    c.text((415, 255), "alcove", 24, (110, 110, 110), anchor="mm")
    alcove_w = dim_h(c, 250, 580, 150, "110 cm")
    alcove_d = dim_v(c, 625, 100, 280, "60 cm", size=22)
    for y in (100, 280):  # extension lines from the alcove's inner faces to the dimension
        c.line((596, y, 638, y), (30, 60, 140), 1)
    # furniture to place, same scale (3 px = 1 cm)
    c.text((780, 40), "Furniture to place (top view, same scale)", 26, (40, 40, 40), bold=True)
    pieces = {}
    for name, x1, y0, y1, dy, w_cm, col in (("WARDROBE", 1160, 130, 310, 340, 120, (206, 176, 136)),
                                           ("BOOKCASE", 1100, 400, 505, 535, 100, (170, 196, 160)),
                                           ("DESK", 1220, 600, 810, 840, 140, (190, 180, 214))):
        body = c.rect((800, y0, x1, y1), fill=col, outline=(60, 60, 60), width=3)
        c.text(((800 + x1) / 2, (y0 + y1) / 2), name, 26, (40, 40, 40), anchor="mm", bold=True)
        pieces[name] = (body, dim_h(c, 800, x1, dy, f"{w_cm} cm"))
    c.line((80, 870, 230, 870), (40, 40, 40), 4)
    c.text((240, 870), "50 cm", 20, (40, 40, 40), anchor="lm")
    demo.add(
        "alcove-furniture", domain="Spatial Relationship", subtask="Functional Spatial Relations",
        question="Which piece of furniture fits into the bedroom alcove?",
        answer_type="multiple_choice", answer="C",
        options=[{"label": "A", "text": "The wardrobe"}, {"label": "B", "text": "The desk"},
                 {"label": "C", "text": "The bookcase"}, {"label": "D", "text": "None of them"}],
        images=[demo.save(c, "alcove_floorplan.png")],
        clues=[
            ("The alcove is 110 cm wide and 60 cm deep", "These are the limits any piece must respect.",
             [c.box(0, alcove_w), c.box(0, alcove_d)]),
            ("The bookcase is 100 cm wide (and shallow)", "100 cm < 110 cm, and its depth is far less than 60 cm, "
             "so it fits.", [c.box(0, pieces["BOOKCASE"][0]), c.box(0, pieces["BOOKCASE"][1])]),
            ("The wardrobe is 120 cm and the desk 140 cm wide", "Both are wider than the 110 cm alcove.",
             [c.box(0, pieces["WARDROBE"][1]), c.box(0, pieces["DESK"][1])]),
        ],
        gt_reasoning="Only the 100 cm bookcase is narrower than the 110 cm alcove; the wardrobe (120 cm) and desk "
                     "(140 cm) are too wide.",
        status="draft", metadata={"source": "synthetic drawing"},
    )
