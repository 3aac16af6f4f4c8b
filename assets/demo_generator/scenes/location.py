"""Location Identification scenes, SeekWorld style: a street in Munich and a street corner in
Montreal, each placed by several small clues (signs, number plates, buildings) rather than one."""
from __future__ import annotations

import math

from assets.demo_generator.demo_set import DemoSet
from assets.demo_generator.drawing import Canvas, Rect, font, person, union


def german_plate(c: Canvas, cx, cy) -> Rect:
    """German plate: EU strip, district code, two round seals, letters and digits."""
    size = 40
    f = font(size)
    w_m, w_r = f.getlength("M"), f.getlength("LK 4821")
    total = 30 + 14 + w_m + 10 + 22 + 10 + w_r + 14
    x0, y0, x1, y1 = cx - total / 2, cy - 29, cx + total / 2, cy + 29
    c.rect((x0, y0, x1, y1), fill=(250, 250, 246), outline=(20, 20, 20), width=3, radius=5)
    c.rect((x0 + 3, y0 + 3, x0 + 30, y1 - 3), fill=(0, 51, 153))
    c.circle(x0 + 16.5, y0 + 17, 8, outline=(255, 204, 0), width=2)
    c.text((x0 + 16.5, y1 - 7), "D", 17, (255, 255, 255), anchor="ms")
    x = x0 + 44
    c.text((x, cy), "M", size, anchor="lm")
    x += w_m + 10
    c.circle(x + 11, cy - 12, 10, fill=(60, 130, 200), outline=(40, 40, 40))
    c.circle(x + 11, cy + 12, 10, fill=(230, 200, 60), outline=(40, 40, 40))
    c.text((x + 32, cy), "LK 4821", size, anchor="lm")
    return (x0, y0, x1, y1)


def munich(demo: DemoSet) -> None:
    """Large photo-like street (3000x2000): three tiny clues pin it to Munich, Bavaria."""
    W, H = 3000, 2000
    c = Canvas(W, H)
    c.vgrad((0, 0, W, 1500), [(0, (118, 168, 224)), (1, (208, 224, 240))])
    facades = [(0, 520, 380, (222, 196, 150)), (520, 1180, 300, (238, 228, 205)),
               (1180, 1760, 420, (214, 160, 150)), (1760, 2300, 260, (190, 205, 180)),
               (2300, 3000, 350, (225, 215, 190))]
    for x0, x1, top, col in facades:
        c.rect((x0, top, x1, 1500), fill=col, outline=(120, 110, 100), width=3)
        c.rect((x0 - 10, top - 40, x1 + 10, top), fill=(130, 70, 55))
        cols, ww, wh = max(2, (x1 - x0) // 170), 90, 140
        gap = (x1 - x0 - cols * ww) / (cols + 1)
        y = top + 80
        while y + wh < 1120:
            for k in range(cols):
                wx = x0 + gap + (ww + gap) * k
                c.rect((wx - 8, y - 8, wx + ww + 8, y + wh + 8), fill=(246, 243, 236))
                c.rect((wx, y, wx + ww, y + wh), fill=(92, 118, 140))
                c.line((wx + ww / 2, y, wx + ww / 2, y + wh), (246, 243, 236), 5)
                c.line((wx, y + wh * 0.4, wx + ww, y + wh * 0.4), (246, 243, 236), 5)
            y += wh + 70
        c.rect((x0 + 40, 1240, x1 - 40, 1490), fill=(70, 86, 96), outline=(60, 50, 45), width=6)
    # distractor: a German bakery sign (German-speaking, but not region-specific)
    t = c.measure((850, 1190), "Bäckerei · Café", 50, anchor="mm")
    c.rect((t[0] - 30, 1152, t[2] + 30, 1228), fill=(110, 62, 36))
    c.text((850, 1190), "Bäckerei · Café", 50, (250, 236, 200), anchor="mm")
    # clue: street-name sign at the corner of the third house
    t = c.measure((1350, 1190), "Leopoldstr.", 46, anchor="mm")
    sign = (t[0] - 22, t[1] - 16, t[2] + 22, t[3] + 16)
    c.rect(sign, fill=(24, 62, 142))
    c.rect((sign[0] + 6, sign[1] + 6, sign[2] - 6, sign[3] - 6), outline=(255, 255, 255), width=3)
    c.text((1350, 1190), "Leopoldstr.", 46, (255, 255, 255), anchor="mm")
    # sidewalk, curb, road
    c.rect((0, 1500, W, 1640), fill=(186, 183, 177))
    for x in range(0, W, 150):
        c.line((x, 1500, x - 40, 1640), (160, 157, 150), 3)
    c.rect((0, 1640, W, 1662), fill=(150, 148, 142))
    c.rect((0, 1662, W, H), fill=(88, 90, 94))
    for x in range(40, W, 280):
        c.rect((x, 1870, x + 160, 1884), fill=(235, 235, 230))
    # a tree and pedestrians (context)
    c.rect((1945, 1120, 1975, 1600), fill=(92, 66, 44))
    for dx, dy, r in ((-150, -40, 150), (120, -60, 160), (0, -190, 170), (-40, 60, 130), (140, 70, 120)):
        c.circle(1960 + dx, 1000 + dy, r, fill=(70, 120, 60))
    person(c, 320, 1600, 270, coat=(60, 70, 90))
    person(c, 1640, 1610, 260, coat=(150, 60, 60))
    # clue: U-Bahn sign "Muenchner Freiheit" on a post in front of the last house
    c.rect((2444, 1010, 2456, 1600), fill=(70, 72, 76))
    u = c.rect((2395, 900, 2505, 1010), fill=(0, 82, 160))
    c.text((2450, 955), "U", 90, (255, 255, 255), anchor="mm", bold=True)
    t = c.measure((2450, 1041), "Münchner Freiheit", 30, anchor="mm")
    panel = c.rect((t[0] - 14, 1016, t[2] + 14, 1066), fill=(255, 255, 255), outline=(0, 82, 160), width=3)
    c.text((2450, 1041), "Münchner Freiheit", 30, (0, 60, 130), anchor="mm")
    ubahn = union(u, panel)
    # clue: a car seen from behind with a German plate "M LK 4821"
    c.polygon([(745, 1560), (1055, 1560), (1090, 1660), (710, 1660)], fill=(34, 62, 112))
    c.rect((765, 1576, 1035, 1648), fill=(40, 48, 58))
    c.rect((690, 1650, 1110, 1800), fill=(40, 72, 128), radius=18)
    c.rect((702, 1670, 768, 1712), fill=(200, 30, 30))
    c.rect((1032, 1670, 1098, 1712), fill=(200, 30, 30))
    c.rect((690, 1780, 1110, 1812), fill=(50, 52, 56))
    c.rect((705, 1805, 780, 1850), fill=(20, 20, 22))
    c.rect((1020, 1805, 1095, 1850), fill=(20, 20, 22))
    plate = german_plate(c, 900, 1740)
    demo.add(
        "munich-street", domain="Location Identification", subtask="Location Identification",
        question="In which country and within which first-level administrative region of that country was this "
                 "picture taken? Please answer in the format $country,administrative_area_level_1$.",
        answer_type="location", answer="$germany,bavaria/bayern$",
        aliases=["$germany,bavaria$", "$germany,bayern$", "$deutschland,bayern$"],
        images=[demo.save(c, "munich_street.jpg", photo_seed=11)],
        clues=[
            ("Blue street-name sign on the corner house reading 'Leopoldstr.'",
             "'Str.' abbreviates 'Straße', so this is a German-speaking country; Leopoldstraße is the main "
             "avenue of Munich's Schwabing district.", [c.box(0, sign)]),
            ("U-Bahn sign (white U on blue) with the station name 'Münchner Freiheit'",
             "Münchner Freiheit is a station of the Munich U-Bahn (lines U3/U6) on Leopoldstraße, "
             "which places the photo in Munich, Bavaria.", [c.box(0, ubahn)]),
            ("Number plate 'M LK 4821' with the blue EU strip marked 'D'",
             "'D' is Germany's EU country code and the district code 'M' stands for München.", [c.box(0, plate)]),
        ],
        gt_reasoning="The street sign (German 'Str.'), the U-Bahn station 'Münchner Freiheit' and the 'M' number "
                     "plate with the 'D' strip all point to Munich, the capital of Bavaria, Germany.",
        status="verified", metadata={"source": "synthetic drawing", "style": "SeekWorld"},
    )


def montreal(demo: DemoSet) -> None:
    """Montreal street corner: French stop sign, Quebec plate, 'dépanneur', exterior staircases."""
    W, H = 1600, 1000
    c = Canvas(W, H)
    c.vgrad((0, 0, W, 640), [(0, (138, 184, 230)), (1, (212, 226, 240))])
    # two brick plexes
    for x0, x1, top in ((0, 620, 180), (620, 1120, 210)):
        c.rect((x0, top, x1, 640), fill=(158, 72, 52), outline=(90, 40, 30), width=3)
        for y in range(top + 14, 640, 18):
            c.line((x0, y, x1, y), (176, 96, 76), 2)
        c.rect((x0, top - 24, x1, top), fill=(70, 60, 55))
        for k in range(3):
            wx = x0 + 70 + k * ((x1 - x0 - 140) // 2) - 45
            for wy in (top + 40, top + 200):
                c.rect((wx, wy, wx + 90, wy + 120), fill=(240, 236, 228))
                c.rect((wx + 8, wy + 8, wx + 82, wy + 112), fill=(84, 110, 130))
    # exterior staircase on the second plex (iron, typical of Montreal)
    iron = (25, 25, 28)
    stairs = [c.rect((700, 405, 1040, 415), fill=iron),            # balcony
              c.line((700, 350, 1040, 350), iron, 4),                # balcony railing
              c.line((750, 640, 1000, 405), iron, 5),                # stringer
              c.line((750, 585, 1000, 350), iron, 4)]                # stair railing
    for x in range(700, 1041, 34):
        c.line((x, 350, x, 405), iron, 3)
    for k in range(13):
        px, py = 750 + 250 * k / 12, 640 - 235 * k / 12
        c.line((px - 14, py, px + 14, py), iron, 5)
        c.line((px, py, px, py - 55), iron, 2)
    c.line((700, 415, 700, 640), iron, 5)
    staircase = union(*stairs)
    # corner store on the first plex
    t = c.measure((310, 498), "DÉPANNEUR", 56, anchor="mm")
    t2 = c.measure((310, 548), "Bière · Vin · Loto", 26, anchor="mm")
    store_sign = c.rect((min(t[0], t2[0]) - 26, t[1] - 16, max(t[2], t2[2]) + 26, t2[3] + 12), fill=(22, 96, 60), outline=(240, 240, 230), width=3)
    c.text((310, 498), "DÉPANNEUR", 56, (255, 255, 255), anchor="mm")
    c.text((310, 548), "Bière · Vin · Loto", 26, (255, 230, 120), anchor="mm")
    c.rect((40, 580, 580, 640), fill=(60, 80, 90))
    # sidewalk, road
    c.rect((0, 640, W, 700), fill=(186, 184, 178))
    c.rect((0, 700, W, H), fill=(84, 86, 90))
    for x in range(0, W, 220):
        c.rect((x, 930, x + 120, 942), fill=(235, 215, 80))
    # post with street-name sign and stop sign
    c.rect((1294, 300, 1306, 700), fill=(140, 142, 146))
    t = c.measure((1300, 318), "Rue Sainte-Catherine", 28, anchor="mm")
    street = c.rect((t[0] - 16, 292, t[2] + 16, 345), fill=(20, 70, 140), outline=(255, 255, 255), width=2)
    c.text((1300, 318), "Rue Sainte-Catherine", 28, (255, 255, 255), anchor="mm")
    oct_out = [(1300 + 78 * math.cos(math.radians(22.5 + 45 * k)), 460 + 78 * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)]
    oct_in = [(1300 + 70 * math.cos(math.radians(22.5 + 45 * k)), 460 + 70 * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)]
    stop = c.polygon(oct_out, fill=(255, 255, 255))
    c.polygon(oct_in, fill=(198, 22, 32))
    c.text((1300, 466), "ARRÊT", 34, (255, 255, 255), anchor="mm", bold=True)
    # car from behind with a Quebec plate
    c.polygon([(470, 680), (730, 680), (770, 770), (430, 770)], fill=(150, 150, 156))
    c.rect((488, 694, 712, 762), fill=(40, 48, 58))
    c.rect((420, 765, 780, 935), fill=(176, 176, 182), radius=16)
    c.rect((430, 785, 486, 820), fill=(200, 30, 30))
    c.rect((714, 785, 770, 820), fill=(200, 30, 30))
    c.rect((440, 930, 505, 975), fill=(20, 20, 22))
    c.rect((695, 930, 760, 975), fill=(20, 20, 22))
    plate = c.rect((510, 830, 690, 920), fill=(250, 250, 250), outline=(40, 60, 140), width=3, radius=6)
    blue = (22, 58, 150)
    c.text((600, 848), "QUÉBEC", 18, blue, anchor="mm", bold=True)
    c.text((600, 878), "F24 KLM", 38, blue, anchor="mm")
    c.text((600, 908), "Je me souviens", 14, blue, anchor="mm")
    demo.add(
        "montreal-corner", domain="Location Identification", subtask="Location Identification",
        question="In which country and within which first-level administrative region of that country was this "
                 "picture taken? Please answer in the format $country,administrative_area_level_1$.",
        answer_type="location", answer="$canada,quebec/québec$",
        aliases=["$canada,quebec$", "$canada,québec$", "$canada,qc$"],
        images=[demo.save(c, "montreal_corner.png")],
        clues=[
            ("Stop sign reading 'ARRÊT'", "A French-language stop sign: France and other francophone countries use "
             "'STOP', while 'ARRÊT' is characteristic of Quebec, Canada.", [c.box(0, stop)]),
            ("Licence plate 'QUÉBEC' with the motto 'Je me souviens'", "'Je me souviens' is Quebec's motto, printed "
             "on its licence plates.", [c.box(0, plate)]),
            ("Shop sign 'DÉPANNEUR - Bière · Vin · Loto'", "'Dépanneur' is the Quebec French word for a corner shop "
             "selling beer and wine.", [c.box(0, store_sign)]),
            ("Street sign 'Rue Sainte-Catherine' and an exterior iron staircase",
             "Rue Sainte-Catherine is Montreal's main commercial street; outdoor staircases on brick plexes are "
             "typical of Montreal.", [c.box(0, street), c.box(0, staircase)]),
        ],
        gt_reasoning="The French stop sign 'ARRÊT', the Quebec plate, the 'dépanneur' and Rue Sainte-Catherine place "
                     "the scene in Montreal, Quebec, Canada.",
        status="released", metadata={"source": "synthetic drawing", "style": "SeekWorld"},
    )
