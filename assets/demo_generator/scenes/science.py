"""Scientific Commonsense scenes: physics (is the puddle frozen?), astronomy (the Moon's phase)
and biology as an MMR-Life-style image sequence with five image options."""
from __future__ import annotations

import math
import random

import numpy as np
from PIL import Image, ImageDraw

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.drawing import Canvas, union


def thermometer(demo: DemoSet) -> None:
    """Window with an outdoor thermometer at -6 °C and frost: is the puddle frozen? (physics)"""
    W, H = 1200, 1000
    c = Canvas(W, H, (226, 212, 186))
    c.rect((180, 80, 1020, 900), fill=(246, 246, 242))
    c.vgrad((210, 110, 990, 560), [(0, (188, 202, 218)), (1, (226, 230, 236))])
    rnd = random.Random(5)
    x = 210
    while x < 990:
        w, top = rnd.randint(90, 170), rnd.randint(420, 500)
        c.rect((x, top, min(990, x + w), 600), fill=(126, 128, 136))
        c.polygon([(x, top), (min(990, x + w), top), (min(990, x + w / 2), top - 40)], fill=(100, 90, 90))
        x += w + 10
    c.rect((210, 600, 990, 870), fill=(150, 150, 152))
    c.ellipse((280, 720, 540, 800), fill=(120, 132, 148))
    c.rect((590, 110, 610, 870), fill=(246, 246, 242))

    def frost(x0, y0, sx, sy, seed):
        fr = random.Random(seed)
        rects = []
        for _ in range(9):
            ang = fr.uniform(0.1, 1.45)
            length = fr.uniform(60, 150)
            x1, y1 = x0 + sx * length * math.cos(ang), y0 + sy * length * math.sin(ang)
            rects.append(c.line((x0, y0, x1, y1), (250, 252, 255), 3))
            for t in (0.35, 0.55, 0.75):
                px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                for da in (-0.7, 0.7):
                    a2 = math.atan2(y1 - y0, x1 - x0) + da
                    rects.append(c.line((px, py, px + 22 * math.cos(a2), py + 22 * math.sin(a2)), (250, 252, 255), 2))
        return union(*rects)

    frost_l = frost(212, 868, 1, -1, 1)
    frost_r = frost(988, 868, -1, -1, 2)
    # outdoor thermometer: +40 at y=200 ... -30 at y=650
    def level(t):
        return 200 + (40 - t) * 450 / 70

    c.rect((752, 160, 852, 730), fill=(255, 255, 255), outline=(120, 120, 126), width=3, radius=14)
    c.text((802, 182), "°C", 20, (40, 40, 40), anchor="mm", bold=True)
    c.line((822, 196, 822, 676), (200, 200, 206), 10)
    for t in range(-30, 41, 2):
        long = t % 10 == 0
        c.line((806 if long else 812, level(t), 818, level(t)), (40, 40, 40), 2)
        if long:
            c.text((800, level(t)), str(t), 18, (0, 60, 170) if t == 0 else (40, 40, 40), anchor="rm", bold=t == 0)
    c.line((822, level(-6), 822, 690), (210, 30, 30), 6)
    c.circle(822, 694, 14, fill=(210, 30, 30))
    reading = (754, level(0) - 14, 850, level(-10) + 14)
    demo.add(
        "frozen-puddle", domain="Scientific Commonsense", subtask="Physics",
        question="There is a puddle on the pavement outside this window. Is it likely to be frozen right now?",
        answer_type="yes_no", answer="Yes",
        images=[demo.save(c, "frosty_window.png")],
        clues=[
            ("The outdoor thermometer's red column ends at about -6 °C", "Water freezes at 0 °C; at -6 °C a "
             "shallow puddle freezes.", [c.box(0, reading, pad=0)]),
            ("Frost crystals in the corners of the window panes", "Frost forms only when the glass is below "
             "freezing, confirming sub-zero temperatures.", [c.box(0, frost_l), c.box(0, frost_r)]),
        ],
        gt_reasoning="The thermometer reads about -6 °C and there is frost on the glass: below freezing, so the "
                     "puddle is most likely frozen.",
        status="candidate", metadata={"source": "synthetic drawing"},
    )


def moon(demo: DemoSet) -> None:
    """Evening crescent lit on the lower right, sunset glow: waxing (astronomy)."""
    W, H = 1600, 1000
    horizon = 790
    glow_c, gsx, gsy = (1300, horizon), 420.0, 170.0
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    t = np.clip(yy / horizon, 0, 1)[..., None]
    top, mid, low = np.array([8, 14, 44]), np.array([44, 56, 116]), np.array([120, 96, 140])
    sky = np.where(t < 0.6, top + (mid - top) * (t / 0.6), mid + (low - mid) * ((t - 0.6) / 0.4))
    g = np.exp(-(((xx - glow_c[0]) / gsx) ** 2 + ((yy - glow_c[1]) / gsy) ** 2))[..., None]
    sky = sky * (1 - g) + np.array([250, 150, 70]) * g
    c = Canvas(W, H)
    c.im = Image.fromarray(sky.clip(0, 255).astype(np.uint8))
    c.d = ImageDraw.Draw(c.im)
    rnd = random.Random(3)
    for _ in range(90):
        x, y = rnd.randint(0, W - 1), rnd.randint(0, 520)
        if abs(x - 980) > 70 or abs(y - 330) > 70:
            c.circle(x, y, rnd.choice((1, 1, 1.6)), fill=(230, 230, 240))
    # crescent: full dim disk (earthshine), lit part = disk minus a disk shifted away from the Sun
    mx, my, r = 980, 330, 40
    c.circle(mx, my, r, fill=(34, 42, 78))
    mask = Image.new("L", (W, H), 0)
    md = ImageDraw.Draw(mask)
    md.ellipse((mx - r, my - r, mx + r, my + r), fill=255)
    ux, uy = glow_c[0] - mx, glow_c[1] - my
    n = math.hypot(ux, uy)
    ox, oy = -ux / n * 15, -uy / n * 15
    md.ellipse((mx + ox - r, my + oy - r, mx + ox + r, my + oy + r), fill=0)
    c.im.paste((252, 246, 222), (0, 0), mask)
    moon = (mx - r, my - r, mx + r, my + r)
    # silhouettes: hills, houses, a church spire, trees
    hills = [(0, H), (0, 800)] + [(x, horizon + 18 * math.sin(x / 160) - 4) for x in range(0, W + 1, 40)] + [(W, H)]
    c.polygon(hills, fill=(14, 14, 24))
    for x, w, h in ((150, 120, 80), (300, 90, 60), (520, 140, 90), (1420, 110, 70)):
        c.rect((x, horizon - h, x + w, horizon + 20), fill=(14, 14, 24))
        c.polygon([(x - 10, horizon - h), (x + w + 10, horizon - h), (x + w / 2, horizon - h - 50)], fill=(14, 14, 24))
    c.rect((820, horizon - 150, 870, horizon + 20), fill=(14, 14, 24))
    c.polygon([(815, horizon - 150), (875, horizon - 150), (845, horizon - 260)], fill=(14, 14, 24))
    for x in (700, 1040, 1120, 1560):
        c.ellipse((x - 40, horizon - 110, x + 40, horizon + 10), fill=(14, 14, 24))
    half = math.sqrt(math.log(2))
    glow = (glow_c[0] - gsx * half, glow_c[1] - gsy * half, glow_c[0] + gsx * half, horizon)
    demo.add(
        "evening-crescent", domain="Scientific Commonsense", subtask="Astronomy and Geography",
        question="This photo was taken in the Northern Hemisphere shortly after sunset. Which phase is the Moon in?",
        answer_type="multiple_choice", answer="B",
        options=[{"label": "A", "text": "Waning crescent"}, {"label": "B", "text": "Waxing crescent"},
                 {"label": "C", "text": "Full Moon"}, {"label": "D", "text": "Last quarter"}],
        images=[demo.save(c, "evening_crescent.png")],
        clues=[
            ("Thin crescent Moon, bright limb on the lower right", "The lit limb faces the Sun; seen from the "
             "Northern Hemisphere a crescent lit on the right is waxing.", [c.box(0, moon)]),
            ("Orange afterglow on the horizon below and right of the Moon", "The Sun has just set: a crescent in "
             "the evening sky is waxing (a waning crescent is seen before dawn).", [c.box(0, glow, pad=0)]),
        ],
        gt_reasoning="An evening crescent, lit on the side facing the set Sun (right), is a waxing crescent.",
        status="released", metadata={"source": "synthetic drawing"},
    )


def plant_sequence(demo: DemoSet) -> None:
    """MMR-Life-style item: four frames of a growing plant + five image options A-E (temporal)."""
    def pot_scene(bg=(236, 232, 224)):
        c = Canvas(512, 512, bg)
        c.rect((0, 420, 512, 512), fill=(178, 136, 96))
        c.polygon([(176, 300), (336, 300), (316, 440), (196, 440)], fill=(190, 92, 60))
        c.rect((166, 284, 346, 310), fill=(206, 106, 72))
        c.ellipse((178, 280, 334, 300), fill=(84, 58, 40))
        return c

    green, leaf = (60, 130, 50), (84, 160, 70)

    def plant(c, stage, dx=0, scale=1.0, dry=False):
        """Draw the plant at a growth stage; return (plant box, bud/flower box or None)."""
        bx = 256 + dx
        stem_col, leaf_col = ((140, 110, 60), (160, 120, 60)) if dry else (green, leaf)
        if stage == "seed":
            return c.ellipse((bx - 9, 279, bx + 9, 291), fill=(200, 160, 100)), None
        if stage == "soil":
            return c.ellipse((bx - 40, 282, bx + 40, 296), fill=(96, 68, 46)), None
        tops = {"sprout": 250, "young": 190, "bud": 120, "flower": 110, "wilted": 150}
        top = 292 - (292 - tops[stage]) * scale
        rects = [c.line((bx, 292, bx, top), stem_col, 7)]
        if stage == "sprout":
            rects += [c.ellipse((bx - 36 * scale, top - 12, bx, top + 10), fill=leaf_col),
                      c.ellipse((bx, top - 12, bx + 36 * scale, top + 10), fill=leaf_col)]
            return union(*rects), None
        n = {"young": 2, "bud": 3, "flower": 3, "wilted": 3}[stage]
        for k in range(n):
            y = 262 - k * (292 - top - 40) / n
            if dry:
                rects += [c.polygon([(bx, y), (bx - 60, y + 40), (bx - 50, y + 50)], fill=leaf_col),
                          c.polygon([(bx, y), (bx + 60, y + 40), (bx + 50, y + 50)], fill=leaf_col)]
            else:
                ln = 66 * scale
                rects += [c.ellipse((bx - ln, y - 14, bx, y + 12), fill=leaf_col),
                          c.ellipse((bx, y - 14, bx + ln, y + 12), fill=leaf_col)]
        extra = None
        if stage == "bud":
            extra = c.ellipse((bx - 13, top - 34, bx + 13, top + 4), fill=(96, 150, 60))
            c.ellipse((bx - 6, top - 34, bx + 6, top - 20), fill=(236, 210, 80))
        elif stage == "flower":
            for k in range(8):
                a = math.radians(k * 45)
                px, py = bx + 28 * math.cos(a), top - 20 + 28 * math.sin(a)
                rects.append(c.circle(px, py, 18, fill=(250, 206, 40)))
            extra = c.circle(bx, top - 20, 14, fill=(130, 80, 30))
        elif stage == "wilted":
            rects.append(c.line((bx, top, bx + 30, top + 20, bx + 44, top + 56), stem_col, 6))
            extra = c.ellipse((bx + 30, top + 50, bx + 56, top + 78), fill=(120, 90, 50))
        if extra:
            rects.append(extra)
        return union(*rects), extra

    frames, boxes = [], []
    for i, stage in enumerate(("seed", "sprout", "young", "bud")):
        c = pot_scene()
        pbox, extra = plant(c, stage)
        frames.append(demo.save(c, f"plant/frame_{i + 1}.png"))
        boxes.append((c, pbox, extra))
    options = []
    for label, stage, kw, bg in (("A", "young", {"dx": -6, "scale": 0.9}, (232, 234, 228)),
                                 ("B", "wilted", {"dry": True}, (238, 230, 222)),
                                 ("C", "flower", {}, (236, 232, 226)),
                                 ("D", "sprout", {"scale": 1.25}, (230, 232, 236)),
                                 ("E", "soil", {}, (234, 230, 230))):
        c = pot_scene(bg)
        plant(c, stage, **kw)
        options.append({"label": label, "image": demo.save(c, f"plant/option_{label}.png")})
    c3, bud_plant, bud = boxes[3]
    demo.add(
        "plant-growth-next", domain="Scientific Commonsense", subtask="Biology", reasoning_type="temporal",
        # the options are images, each shown with its letter: a trailing "Options: " read as a
        # question cut off before its list
        question="The first four images show the same potted plant photographed several days apart, in order. "
                 "Which of the option images A to E shows the most likely next stage?",
        answer_type="multiple_choice", answer="C", options=options,
        images=frames,
        clues=[
            ("The plant grows taller and adds leaf pairs from image 2 to image 4", "A healthy, growing plant: the "
             "sequence moves forward in its life cycle.",
             [boxes[k][0].box(k, boxes[k][1]) for k in (1, 2, 3)]),
            ("Image 4: a closed flower bud at the top of the stem", "A bud opens into a flower next, so the next "
             "frame shows the plant in bloom (option C).", [c3.box(3, bud)]),
        ],
        gt_reasoning="Seed -> sprout -> leafy plant -> plant with a bud; the next stage is the open flower (C). "
                     "A, D and E are earlier stages and B (wilted) contradicts the healthy growth.",
        status="in_review", metadata={"source": "synthetic drawing", "style": "MMR-Life"},
    )
