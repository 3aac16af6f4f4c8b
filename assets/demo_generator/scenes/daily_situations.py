"""Daily Commonsense scenes judged from several clues together: a kitchen on the evening before
bin day, a phishing text message, and a VER-Bench-style winter park with many small clues."""
from __future__ import annotations

import math
import random

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.drawing import Canvas, font, person, union


def kitchen(demo: DemoSet) -> None:
    """Kitchen: calendar + fridge note + dark window -> put the bins out tonight?"""
    W, H = 1600, 1100
    c = Canvas(W, H, (238, 226, 200))
    for y in range(0, 760, 40):
        c.line((0, y, 1260, y), (232, 218, 190), 1)
    # night window
    window = c.rect((130, 140, 600, 560), fill=(246, 246, 244))
    c.vgrad((150, 160, 580, 540), [(0, (10, 16, 40)), (1, (30, 40, 80))])
    rnd = random.Random(8)
    for _ in range(40):
        x, y = rnd.randint(160, 570), rnd.randint(170, 520)
        c.circle(x, y, rnd.choice((1, 1, 2)), fill=(240, 240, 220))
    c.circle(480, 230, 26, fill=(240, 236, 210))
    c.circle(468, 222, 24, fill=(16, 24, 52))
    c.rect((355, 160, 375, 540), fill=(246, 246, 244))
    c.rect((150, 340, 580, 360), fill=(246, 246, 244))
    # wall clock at 7:50
    cx, cy, r = 800, 280, 110
    clock = c.circle(cx, cy, r, fill=(252, 252, 250), outline=(40, 40, 40), width=8)
    for k in range(12):
        a = math.radians(k * 30)
        c.line((cx + (r - 26) * math.sin(a), cy - (r - 26) * math.cos(a), cx + (r - 12) * math.sin(a),
                cy - (r - 12) * math.cos(a)), (40, 40, 40), 4)
    for k, lab in ((0, "12"), (3, "3"), (6, "6"), (9, "9")):
        a = math.radians(k * 30)
        c.text((cx + (r - 44) * math.sin(a), cy - (r - 44) * math.cos(a)), lab, 22, (40, 40, 40), anchor="mm")
    for ang, length, wdt in (((7 + 50 / 60) * 30, 55, 9), (50 * 6, 85, 5)):
        a = math.radians(ang)
        c.line((cx, cy, cx + length * math.sin(a), cy - length * math.cos(a)), (20, 20, 20), wdt)
    c.circle(cx, cy, 8, fill=(20, 20, 20))
    # calendar
    cal = c.rect((990, 150, 1200, 430), fill=(255, 255, 255), outline=(120, 120, 120), width=2)
    c.rect((990, 150, 1200, 200), fill=(200, 40, 40))
    c.text((1095, 175), "OCTOBER", 24, (255, 255, 255), anchor="mm", bold=True)
    c.text((1095, 290), "14", 96, (30, 30, 30), anchor="mm", bold=True)
    c.text((1095, 390), "MONDAY", 28, (200, 40, 40), anchor="mm", bold=True)
    for x in (1030, 1160):
        c.circle(x, 150, 7, fill=(90, 90, 90))
    # counter and cabinets
    c.rect((0, 760, 1260, 800), fill=(120, 120, 126))
    c.rect((0, 800, 1260, H), fill=(170, 132, 92))
    for x in range(0, 1260, 315):
        c.rect((x + 10, 815, x + 305, 1090), outline=(130, 96, 62), width=4)
        c.rect((x + 140, 840, x + 175, 852), fill=(200, 200, 205))
    c.rect((820, 690, 900, 760), fill=(90, 150, 90), radius=8)
    c.rect((940, 660, 1010, 760), fill=(230, 230, 235), outline=(150, 150, 150), radius=8)
    # fridge with note
    c.rect((1270, 110, 1570, 1080), fill=(232, 236, 238), outline=(150, 156, 160), width=4, radius=14)
    c.line((1270, 430, 1570, 430), (150, 156, 160), 4)
    c.rect((1290, 180, 1304, 380), fill=(170, 176, 180), radius=6)
    c.rect((1290, 480, 1304, 700), fill=(170, 176, 180), radius=6)
    note = c.rect((1340, 500, 1540, 650), fill=(255, 244, 150), outline=(210, 190, 90), width=2)
    c.circle(1440, 504, 12, fill=(40, 120, 200))
    c.text((1440, 550), "BIN DAY:", 26, (30, 30, 90), anchor="mm", bold=True)
    c.text((1440, 592), "TUESDAY", 28, (30, 30, 90), anchor="mm", bold=True)
    c.text((1440, 628), "7 am", 24, (30, 30, 90), anchor="mm")
    demo.add(
        "kitchen-bin-night", domain="Daily Commonsense", subtask="Home and Daily Life",
        question="This household puts the bins out on the evening before collection day. Should the bins go "
                 "out tonight?",
        answer_type="yes_no", answer="Yes",
        images=[demo.save(c, "kitchen_evening.png")],
        clues=[
            ("The wall calendar shows Monday, 14 October", "Today is Monday.", [c.box(0, cal)]),
            ("Note on the fridge: 'BIN DAY: TUESDAY 7 am'", "Collection is tomorrow morning.", [c.box(0, note)]),
            ("The window is dark and the clock reads 7:50", "It is already evening (7:50 pm), the time the bins "
             "are put out.", [c.box(0, window), c.box(0, clock)]),
        ],
        gt_reasoning="It is Monday evening and the bins are collected on Tuesday morning, so they go out tonight.",
        status="in_review", metadata={"source": "synthetic drawing"},
    )


def sms(demo: DemoSet) -> None:
    """Phone screenshot: a parcel-fee text with tell-tale scam signs (information literacy)."""
    W, H = 900, 1600
    c = Canvas(W, H, (40, 40, 46))
    c.rect((20, 20, 880, 1580), fill=(14, 14, 18), radius=70)
    c.rect((45, 60, 855, 1540), fill=(250, 250, 252), radius=50)
    c.text((100, 84), "09:41", 26, (20, 20, 20), bold=True)
    c.rect((45, 130, 855, 270), fill=(240, 240, 245))
    c.text((75, 180), "<", 44, (0, 122, 255), anchor="lm")
    c.circle(450, 175, 34, fill=(170, 170, 180))
    c.circle(450, 163, 12, fill=(240, 240, 245))
    c.d.chord((424, 172, 476, 214), 180, 360, fill=(240, 240, 245))
    sender = c.text((450, 236), "+44 7700 900461", 28, (20, 20, 20), anchor="mt")
    c.text((450, 300), "Text Message · Today 09:12", 20, (140, 140, 146), anchor="mt")
    size, lh, x0, maxw = 30, 42, 110, 560
    f = font(size)

    def wrap(s):
        out, cur = [], ""
        for word in s.split():
            trial = (cur + " " + word).strip()
            if f.getlength(trial) <= maxw:
                cur = trial
            else:
                out.append(cur)
                cur = word
        return out + [cur]

    paras = [(wrap("ParcelPost: your parcel could not be delivered because a customs fee of $1.99 is unpaid."), "text"),
             (wrap("Pay within 24 hours or it will be returned to the sender:"), "urgent"),
             (["http://parcelpost-redelivery.top/", "pay?id=88213"], "url")]
    # lay out first (to size the bubble), then draw bubble and text
    layout, y = [], 370
    for lines, kind in paras:
        for ln in lines:
            layout.append((ln, kind, y))
            y += lh
        y += 14
    bubble = (80, 350, 80 + maxw + 60, y + 8)
    c.rect(bubble, fill=(229, 229, 234), radius=28)
    spans = {"urgent": [], "url": []}
    for ln, kind, yy in layout:
        col = (0, 90, 220) if kind == "url" else (20, 20, 20)
        r = c.text((x0, yy), ln, size, col)
        if kind == "url":
            c.line((r[0], r[3] + 3, r[2], r[3] + 3), col, 2)
            r = (r[0], r[1], r[2], r[3] + 4)
        if kind in spans:
            spans[kind].append(r)
    c.rect((70, 1450, 830, 1505), outline=(200, 200, 206), width=2, radius=26)
    c.text((100, 1477), "Text Message", 24, (170, 170, 176), anchor="lm")
    demo.add(
        "parcel-fee-sms", domain="Daily Commonsense", subtask="Information Literacy",
        question="Is this text message likely a genuine notice from the delivery company?",
        answer_type="yes_no", answer="No",
        images=[demo.save(c, "parcel_sms.png")],
        clues=[
            ("Sender is a bare mobile number (+44 7700 ...), not the courier's registered name",
             "Couriers send notices from named short codes; a private mobile number is a phishing sign.",
             [c.box(0, sender)]),
            ("The link goes to 'parcelpost-redelivery.top', not the courier's official domain",
             "Look-alike domains on cheap TLDs are typical of phishing pages.", [c.box(0, union(*spans["url"]))]),
            ("Pressure to pay within 24 hours or lose the parcel", "Artificial urgency pushes victims to pay "
             "without checking.", [c.box(0, union(*spans["urgent"]))]),
        ],
        gt_reasoning="A private mobile number, a look-alike link and a 24-hour payment threat indicate a "
                     "smishing scam, not a genuine notice.",
        status="rejected",
        metadata={"source": "synthetic drawing",
                  "review_note": "Rejected: answerable from the OCR'd text alone; no visual clue beyond reading."},
    )


def park(demo: DemoSet) -> None:
    """VER-Bench-style large scene (3000x2000): season from many small clues, several boxes per clue."""
    W, H = 3000, 2000
    c = Canvas(W, H)
    c.vgrad((0, 0, W, 1150), [(0, (172, 180, 190)), (1, (214, 218, 224))])
    rnd = random.Random(21)
    for x in range(-40, W, 70):
        r = rnd.randint(40, 90)
        c.ellipse((x, 1150 - r, x + 120, 1160), fill=(150, 146, 146))
    c.vgrad((0, 1150, W, H), [(0, (226, 230, 236)), (1, (246, 248, 250))])
    c.polygon([(1380, 1150), (1520, 1150), (2250, H), (850, H)], fill=(146, 140, 134))
    for k in range(26):
        t = k / 25
        for xe in (1380 + (850 - 1380) * t, 1520 + (2250 - 1520) * t):
            y = 1150 + (H - 1150) * t
            r = 8 + 50 * t * rnd.uniform(0.6, 1.2)
            c.ellipse((xe - r * 1.8, y - r * 0.5, xe + r * 1.8, y + r * 0.5), fill=(240, 242, 246))

    def tree(x, base, height, seed):
        tr = random.Random(seed)
        rects = []

        def branch(x0, y0, ang, length, width, depth):
            x1 = x0 + length * math.sin(math.radians(ang))
            y1 = y0 - length * math.cos(math.radians(ang))
            rects.append(c.line((x0, y0, x1, y1), (66, 56, 52), max(2, int(width))))
            if depth:
                for da in (-tr.uniform(14, 30), tr.uniform(14, 30)):
                    branch(x1, y1, ang + da, length * tr.uniform(0.66, 0.8), width * 0.68, depth - 1)

        branch(x, base, 0, height * 0.32, height * 0.045, 7)
        return union(*rects)

    trees = [tree(330, 1420, 720, 1), tree(1010, 1300, 560, 2), tree(2600, 1380, 700, 3)]
    tree(2930, 1240, 420, 4)
    people = [person(c, 1250, 1640, 260, coat=(96, 40, 40), hat=(200, 30, 40), scarf=(230, 196, 60)),
              person(c, 1580, 1720, 280, coat=(40, 60, 104), hat=(236, 236, 236), scarf=(200, 40, 40)),
              person(c, 2160, 1580, 240, coat=(60, 84, 60), hat=(46, 46, 50), scarf=(80, 120, 200))]
    # snowman
    sx = 760
    parts = [c.circle(sx, 1830, 78, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
             c.circle(sx, 1712, 56, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
             c.circle(sx, 1622, 40, fill=(250, 250, 252), outline=(200, 206, 214), width=3),
             c.rect((sx - 34, 1578, sx + 34, 1590), fill=(20, 20, 20)),
             c.rect((sx - 24, 1528, sx + 24, 1580), fill=(20, 20, 20)),
             c.line((sx - 50, 1700, sx - 130, 1650), (90, 60, 40), 6),
             c.line((sx + 50, 1700, sx + 130, 1650), (90, 60, 40), 6)]
    c.polygon([(sx, 1622), (sx + 40, 1630), (sx, 1636)], fill=(240, 120, 30))
    for dx in (-14, 14):
        c.circle(sx + dx, 1610, 5, fill=(20, 20, 20))
    snowman = union(*parts)
    # bench with snow on it
    b = [c.rect((2330, 1700, 2660, 1730), fill=(120, 84, 56)), c.rect((2330, 1640, 2660, 1670), fill=(120, 84, 56)),
         c.rect((2350, 1730, 2366, 1790), fill=(50, 50, 54)), c.rect((2624, 1730, 2640, 1790), fill=(50, 50, 54)),
         c.ellipse((2325, 1686, 2665, 1708), fill=(248, 249, 252)), c.ellipse((2325, 1628, 2665, 1646), fill=(248, 249, 252))]
    bench = union(*b)
    # lamppost with a poster
    c.rect((1892, 700, 1908, 1560), fill=(40, 60, 50))
    c.rect((1860, 670, 1940, 710), fill=(40, 60, 50), radius=8)
    poster = c.rect((1822, 1120, 1978, 1320), fill=(186, 28, 34), outline=(250, 250, 250), width=4)
    c.text((1900, 1162), "CHRISTMAS", 24, (255, 255, 255), anchor="mm", bold=True)
    c.text((1900, 1200), "MARKET", 30, (255, 255, 255), anchor="mm", bold=True)
    c.text((1900, 1258), "1-23 DEC", 26, (255, 230, 120), anchor="mm", bold=True)
    c.text((1900, 1296), "Old Town Square", 16, (255, 255, 255), anchor="mm")
    demo.add(
        "park-season", domain="Daily Commonsense", subtask="Logical Reasoning",
        question="In which season was this photo most likely taken?",
        answer_type="open", answer="Winter", aliases=["winter", "early winter", "December"],
        images=[demo.save(c, "park_season.jpg", photo_seed=22)],
        clues=[
            ("Deciduous trees with completely bare branches", "Bare deciduous trees rule out spring and summer.",
             [c.box(0, t) for t in trees]),
            ("People wear knitted hats, scarves and long coats", "Warm clothing indicates cold weather.",
             [c.box(0, p) for p in people]),
            ("Snow on the ground and on the bench; a snowman", "Lying snow means freezing temperatures.",
             [c.box(0, snowman), c.box(0, bench)]),
            ("Poster on the lamppost: 'CHRISTMAS MARKET 1-23 DEC'", "An announcement for the current month points "
             "to December.", [c.box(0, poster)]),
        ],
        gt_reasoning="Bare trees, winter clothing, lying snow and a poster for a December Christmas market all "
                     "indicate winter.",
        status="verified", metadata={"source": "synthetic drawing", "style": "VER-Bench"},
    )
