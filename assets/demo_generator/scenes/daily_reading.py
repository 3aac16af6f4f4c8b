"""Daily Commonsense scenes answered by reading printed numbers and doing a little arithmetic:
a bus timetable, a bakery's price board and a nutrition label."""
from __future__ import annotations

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.drawing import Canvas, union


def bus_stop(demo: DemoSet) -> None:
    """Bus shelter: clock display + weekday/weekend timetable -> minutes to wait."""
    W, H = 1600, 1100
    c = Canvas(W, H)
    c.vgrad((0, 0, W, 850), [(0, (160, 196, 228)), (1, (218, 228, 238))])
    for x0, x1, top in ((0, 380, 300), (380, 820, 220), (820, 1200, 340), (1200, 1600, 260)):
        c.rect((x0, top, x1, 850), fill=(196, 192, 186), outline=(160, 156, 150), width=2)
    c.rect((0, 850, W, 960), fill=(186, 184, 178))
    c.rect((0, 960, W, H), fill=(86, 88, 92))
    c.rect((200, 250, 1300, 300), fill=(60, 64, 70))
    c.rect((220, 300, 1280, 850), fill=(206, 226, 234), outline=(120, 130, 136), width=4)
    c.rect((212, 300, 228, 850), fill=(90, 94, 100))
    c.rect((1272, 300, 1288, 850), fill=(90, 94, 100))
    c.rect((380, 690, 880, 716), fill=(110, 80, 60))
    c.rect((400, 716, 414, 850), fill=(70, 70, 74))
    c.rect((846, 716, 860, 850), fill=(70, 70, 74))
    display = c.rect((540, 306, 900, 380), fill=(18, 18, 20), outline=(90, 90, 94), width=3)
    c.text((720, 344), "TUE 14:37", 44, (255, 168, 40), anchor="mm", bold=True)
    # timetable panel
    c.rect((930, 330, 1250, 820), fill=(255, 255, 255), outline=(40, 40, 40), width=3)
    c.text((1090, 356), "LINE 42", 34, (20, 20, 20), anchor="mt", bold=True)
    c.text((1090, 396), "to Central Station", 22, (40, 40, 40), anchor="mt")
    y = 440
    rows = {}
    tables = (("Mon-Fri", {13: "05  25  45", 14: "05  25  45", 15: "05  25  45", 16: "05  20  35  50"}),
              ("Sat-Sun", {13: "10  40", 14: "10  40", 15: "10  40", 16: "10  40"}))
    for title, table in tables:
        rows[title] = c.text((950, y), title, 24, (150, 20, 20), bold=True)
        c.line((950, y + 32, 1230, y + 32), (150, 20, 20), 2)
        y += 42
        for hour, mins in table.items():
            a = c.text((955, y), str(hour), 22, (20, 20, 20), bold=True)
            b = c.text((1010, y), mins, 22, (20, 20, 20))
            rows[(title, hour)] = union(a, b)
            y += 32
        y += 18
    # bus stop pole
    c.rect((1414, 330, 1426, 950), fill=(120, 122, 126))
    pole_sign = c.rect((1350, 190, 1490, 330), fill=(255, 255, 255), outline=(20, 110, 60), width=6, radius=12)
    c.text((1420, 236), "BUS", 28, (20, 110, 60), anchor="mm", bold=True)
    c.text((1420, 288), "42", 48, (20, 20, 20), anchor="mm", bold=True)
    demo.add(
        "bus-stop-wait", domain="Daily Commonsense", subtask="Transportation and Travel",
        question="A passenger arrives at this stop right now. How many minutes will they wait for the next "
                 "line 42 bus, if it runs on time?",
        answer_type="numeric", answer="8", aliases=["8 minutes", "8 min"],
        images=[demo.save(c, "bus_stop.png")],
        clues=[
            ("The shelter display shows 'TUE 14:37'", "It is Tuesday, 14:37: a weekday afternoon.",
             [c.box(0, display)]),
            ("Mon-Fri timetable, row 14: departures at :05, :25 and :45", "On a weekday the next departure after "
             "14:37 is 14:45, i.e. 8 minutes later (the Sat-Sun table does not apply).",
             [c.box(0, rows["Mon-Fri"]), c.box(0, rows[("Mon-Fri", 14)])]),
            ("The stop sign shows line 42", "Confirms that line 42 serves this stop.", [c.box(0, pole_sign)]),
        ],
        gt_reasoning="Tuesday 14:37 -> weekday timetable; next line 42 departure is 14:45 -> 8 minutes.",
        status="verified", metadata={"source": "synthetic drawing"},
    )


def bakery(demo: DemoSet) -> None:
    """Bakery front: price board + breakfast deal -> cheapest basket."""
    W, H = 1600, 1100
    c = Canvas(W, H, (236, 226, 206))
    c.rect((300, 60, 1300, 170), fill=(24, 76, 52), outline=(200, 180, 120), width=4)
    c.text((800, 115), "CORNER BAKERY", 72, (248, 236, 200), anchor="mm", bold=True)
    for k, x in enumerate(range(150, 1450, 65)):
        c.rect((x, 190, x + 65, 320), fill=(200, 36, 40) if k % 2 == 0 else (250, 248, 242))
        c.d.chord((x, 290, x + 65, 350), 0, 180, fill=(200, 36, 40) if k % 2 == 0 else (250, 248, 242))
    c.rect((150, 380, 880, 950), fill=(250, 236, 204), outline=(90, 60, 40), width=12)
    c.rect((250, 430, 780, 900), fill=(36, 42, 40), outline=(150, 110, 70), width=14)
    chalk = (242, 242, 236)
    c.text((515, 470), "TODAY", 40, chalk, anchor="mm", bold=True)
    lines = {}
    for i, (name, price) in enumerate((("Croissant", "€1.80"), ("Baguette", "€2.20"), ("Pain au chocolat", "€2.10"),
                                       ("Coffee", "€2.50"), ("Tea", "€2.00"))):
        y = 530 + 66 * i
        a = c.text((285, y), name, 34, chalk)
        b = c.text((745, y), price, 34, chalk, anchor="ra")
        lines[name] = union(a, b)
    c.rect((950, 380, 1230, 1000), fill=(120, 80, 50), outline=(80, 50, 30), width=6)
    c.rect((980, 410, 1200, 790), fill=(214, 230, 232))
    c.circle(1205, 830, 10, fill=(220, 190, 90))
    poster = c.rect((1000, 440, 1180, 690), fill=(255, 214, 64), outline=(200, 40, 30), width=4)
    red = (190, 30, 30)
    c.text((1090, 476), "BREAKFAST", 26, red, anchor="mm", bold=True)
    c.text((1090, 510), "DEAL", 30, red, anchor="mm", bold=True)
    c.text((1090, 560), "Coffee +", 24, (30, 30, 30), anchor="mm")
    c.text((1090, 592), "Croissant", 24, (30, 30, 30), anchor="mm")
    c.text((1090, 646), "€3.50", 44, red, anchor="mm", bold=True)
    c.rect((1280, 380, 1500, 950), fill=(250, 236, 204), outline=(90, 60, 40), width=12)
    for k in range(4):
        y = 460 + k * 120
        c.rect((1300, y + 50, 1480, y + 58), fill=(150, 110, 70))
        c.ellipse((1310, y, 1470, y + 48), fill=(214, 160, 90), outline=(160, 110, 60), width=2)
    c.rect((0, 1000, W, H), fill=(180, 178, 172))
    demo.add(
        "bakery-breakfast-deal", domain="Daily Commonsense", subtask="Planning and Consumption",
        question="What is the lowest total price for one coffee and two croissants at this bakery?",
        answer_type="multiple_choice", answer="B",
        options=[{"label": "A", "text": "€6.10"}, {"label": "B", "text": "€5.30"},
                 {"label": "C", "text": "€3.50"}, {"label": "D", "text": "€7.00"}],
        images=[demo.save(c, "bakery_front.png")],
        clues=[
            ("Chalkboard prices: Croissant €1.80, Coffee €2.50", "Bought separately: 2.50 + 2 x 1.80 = €6.10.",
             [c.box(0, lines["Croissant"]), c.box(0, lines["Coffee"])]),
            ("Poster on the door: 'Breakfast deal - Coffee + Croissant €3.50'", "Deal plus one extra croissant: "
             "3.50 + 1.80 = €5.30, cheaper than €6.10.", [c.box(0, poster)]),
        ],
        gt_reasoning="Use the €3.50 deal for coffee + one croissant and buy the second croissant at €1.80: €5.30.",
        status="candidate", metadata={"source": "synthetic drawing"},
    )


def nutrition(demo: DemoSet) -> None:
    """Nutrition label: per-100 g value + serving size -> grams per serving."""
    W, H = 1000, 1300
    c = Canvas(W, H, (236, 136, 40))
    c.text((500, 90), "CRUNCHY OAT FLAKES", 56, (255, 255, 255), anchor="mm", bold=True)
    c.text((500, 170), "Net weight 480 g", 26, (255, 255, 255), anchor="mm")
    c.rect((120, 240, 880, 1180), fill=(255, 255, 255), outline=(20, 20, 20), width=4)
    c.text((150, 270), "Nutrition Information", 44, (20, 20, 20), bold=True)
    serving = c.text((150, 345), "Serving size: 40 g", 30, (20, 20, 20))
    c.text((150, 390), "Servings per pack: 12", 30, (20, 20, 20))
    c.rect((140, 440, 860, 448), fill=(20, 20, 20))
    c.text((150, 462), "Typical values", 28, (20, 20, 20), bold=True)
    c.text((850, 462), "per 100 g", 28, (20, 20, 20), anchor="ra", bold=True)
    c.rect((140, 505, 860, 509), fill=(20, 20, 20))
    rows = {}
    for i, (label, value, indent) in enumerate((("Energy", "1590 kJ / 376 kcal", 0), ("Fat", "3.2 g", 0),
                                                ("of which saturates", "0.6 g", 1), ("Carbohydrate", "78 g", 0),
                                                ("of which sugars", "32 g", 1), ("Fibre", "4.5 g", 0),
                                                ("Protein", "7.8 g", 0), ("Salt", "0.9 g", 0))):
        y = 524 + 62 * i
        a = c.text((150 + 40 * indent, y), label, 28, (20, 20, 20))
        b = c.text((850, y), value, 28, (20, 20, 20), anchor="ra")
        c.line((140, y + 48, 860, y + 48), (150, 150, 150), 1)
        rows[label] = union(a, b)
    c.text((150, 1100), "Best before: see top of pack", 22, (80, 80, 80))
    demo.add(
        "cereal-sugar-serving", domain="Daily Commonsense", subtask="Food and Health",
        question="How many grams of sugar does one serving of this cereal contain?",
        answer_type="numeric", answer="12.8", aliases=["12.8 g", "12.8 grams"],
        images=[demo.save(c, "nutrition_label.png")],
        clues=[
            ("'of which sugars 32 g' in the per-100 g column", "Sugar content is 32 g per 100 g.",
             [c.box(0, rows["of which sugars"])]),
            ("'Serving size: 40 g'", "One serving is 40 g, so sugar = 32 x 40 / 100 = 12.8 g.", [c.box(0, serving)]),
        ],
        gt_reasoning="32 g sugar per 100 g x 40 g serving / 100 = 12.8 g of sugar per serving.",
        status="draft", metadata={"source": "synthetic drawing"},
    )
