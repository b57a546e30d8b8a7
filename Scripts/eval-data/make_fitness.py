#!/usr/bin/env python3
"""Generate fitness.sqlite: the backend database of a made-up chain of fitness studios' mobile app.

All rows are synthetic, generated data (no real people, studios or companies); the names
come from the built-in lists below (the studios are placed in real Ohio cities, and every
email address is on a reserved example domain). Generation is deterministic: a fixed seed
and random.Random(SEED) only, so two runs write the same rows. An existing file at the
output path is overwritten.

Naming style, as an ORM of a mobile backend (Prisma, TypeORM, Core Data) would create it:
PascalCase singular table names (Studio, Member, ClassSession, MembershipPause, ...),
camelCase column names (firstName, startsAt, durationMinutes), every primary key named
plain id, foreign keys named <entity>Id (homeStudioId, classSessionId, mentorId,
referredById). Timestamps are ISO text 'YYYY-MM-DD HH:MM:SS' (startsAt, bookedAt,
chargedAt), dates 'YYYY-MM-DD' (joinedOn, birthDate), booleans INTEGER 0/1 (isCancelled,
isActive, offPeakOnly) and money INTEGER cents (priceCents, amountCents).

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_fitness.py [OUTPUT]   (default: fitness.sqlite next to this script)
"""

import datetime
import os
import random
import sys

from evaldb import write_database

SEED = 73914562
LAUNCH = datetime.datetime(2024, 1, 2, 6, 0, 0)          # the app went live
SNAPSHOT = datetime.datetime(2025, 9, 30, 23, 59, 59)    # the moment of the snapshot
LAST_SESSION_DAY = datetime.date(2025, 10, 12)           # the timetable is published to here
NO_SHOW_FEE_FROM = datetime.datetime(2025, 1, 1)         # no-shows cost $10 from this day

SCHEMA = """
CREATE TABLE Studio (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT NOT NULL,
    address TEXT NOT NULL, phone TEXT, openedOn TEXT NOT NULL,
    squareFeet INTEGER NOT NULL, hasSauna INTEGER NOT NULL DEFAULT 0);
CREATE TABLE Instructor (
    id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, lastName TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE, phone TEXT, studioId INTEGER NOT NULL REFERENCES Studio(id),
    mentorId INTEGER REFERENCES Instructor(id), title TEXT NOT NULL, hiredOn TEXT NOT NULL,
    hourlyRateCents INTEGER NOT NULL, isActive INTEGER NOT NULL DEFAULT 1);
CREATE TABLE MembershipPlan (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, priceCents INTEGER NOT NULL,
    billingPeriod TEXT NOT NULL, classLimit INTEGER, offPeakOnly INTEGER NOT NULL DEFAULT 0,
    isAvailable INTEGER NOT NULL DEFAULT 1, introducedOn TEXT NOT NULL);
CREATE TABLE Member (
    id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, lastName TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE, phone TEXT, birthDate TEXT NOT NULL, city TEXT NOT NULL,
    joinedOn TEXT NOT NULL, homeStudioId INTEGER NOT NULL REFERENCES Studio(id),
    planId INTEGER NOT NULL REFERENCES MembershipPlan(id),
    referredById INTEGER REFERENCES Member(id), cancelledOn TEXT);
CREATE TABLE MembershipPause (
    id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES Member(id),
    startsOn TEXT NOT NULL, endsOn TEXT, reason TEXT NOT NULL);
CREATE TABLE ClassType (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, category TEXT NOT NULL,
    durationMinutes INTEGER NOT NULL, intensity TEXT NOT NULL,
    isBeginnerFriendly INTEGER NOT NULL DEFAULT 0);
CREATE TABLE ClassSession (
    id INTEGER PRIMARY KEY, classTypeId INTEGER NOT NULL REFERENCES ClassType(id),
    instructorId INTEGER NOT NULL REFERENCES Instructor(id),
    studioId INTEGER NOT NULL REFERENCES Studio(id), startsAt TEXT NOT NULL,
    capacity INTEGER NOT NULL, isCancelled INTEGER NOT NULL DEFAULT 0);
CREATE TABLE Booking (
    id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES Member(id),
    classSessionId INTEGER NOT NULL REFERENCES ClassSession(id), bookedAt TEXT NOT NULL,
    status TEXT NOT NULL, cancelledAt TEXT, UNIQUE (memberId, classSessionId));
CREATE TABLE Review (
    id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES Member(id),
    classSessionId INTEGER NOT NULL REFERENCES ClassSession(id),
    stars INTEGER NOT NULL, comment TEXT, createdAt TEXT NOT NULL,
    UNIQUE (memberId, classSessionId));
CREATE TABLE PersonalTrainingSession (
    id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES Member(id),
    instructorId INTEGER NOT NULL REFERENCES Instructor(id),
    studioId INTEGER NOT NULL REFERENCES Studio(id), startsAt TEXT NOT NULL,
    durationMinutes INTEGER NOT NULL, priceCents INTEGER NOT NULL, status TEXT NOT NULL);
CREATE TABLE Payment (
    id INTEGER PRIMARY KEY, memberId INTEGER NOT NULL REFERENCES Member(id),
    amountCents INTEGER NOT NULL, purpose TEXT NOT NULL, method TEXT NOT NULL,
    status TEXT NOT NULL, chargedAt TEXT NOT NULL);
CREATE TABLE Equipment (
    id INTEGER PRIMARY KEY, studioId INTEGER NOT NULL REFERENCES Studio(id),
    kind TEXT NOT NULL, serialNumber TEXT NOT NULL UNIQUE, purchasedOn TEXT NOT NULL,
    lastServicedOn TEXT, isOutOfOrder INTEGER NOT NULL DEFAULT 0);
CREATE INDEX Member_homeStudioId_idx ON Member (homeStudioId);
CREATE INDEX ClassSession_studioId_idx ON ClassSession (studioId);
CREATE INDEX ClassSession_instructorId_idx ON ClassSession (instructorId);
CREATE INDEX Booking_classSessionId_idx ON Booking (classSessionId);
CREATE INDEX Payment_memberId_idx ON Payment (memberId);
"""

# name, city, street address, opened on, square feet, sauna, sessions a week, area code
STUDIOS = [
    ("Kettlebird Short North", "Columbus", "1187 High Street", "2019-03-16", 6200, 1, 3, "614"),
    ("Kettlebird Over-the-Rhine", "Cincinnati", "1420 Vine Street", "2019-10-05", 5400, 0, 3,
     "513"),
    ("Kettlebird German Village", "Columbus", "655 Third Street", "2020-08-01", 3900, 0, 2, "614"),
    ("Kettlebird Ohio City", "Cleveland", "2805 Lorain Avenue", "2021-01-09", 5100, 1, 3, "216"),
    ("Kettlebird Easton", "Columbus", "4040 Morse Crossing", "2021-05-15", 7400, 1, 3, "614"),
    ("Kettlebird Hyde Park", "Cincinnati", "2716 Erie Avenue", "2022-04-09", 4300, 0, 2, "513"),
    ("Kettlebird Tremont", "Cleveland", "1012 Starkweather Avenue", "2024-02-17", 3600, 0, 2,
     "216"),
    ("Kettlebird Oregon District", "Dayton", "522 Fifth Street", "2024-09-07", 4100, 0, 2, "937"),
]
# where members of a studio city live (weights)
HOME_CITIES = {
    "Columbus": [("Columbus", 10), ("Dublin", 2), ("Westerville", 2), ("Worthington", 1),
                 ("Grandview Heights", 1), ("Bexley", 1)],
    "Cincinnati": [("Cincinnati", 10), ("Norwood", 2), ("Covington", 2), ("Mason", 1)],
    "Cleveland": [("Cleveland", 10), ("Lakewood", 3), ("Shaker Heights", 2), ("Parma", 1)],
    "Dayton": [("Dayton", 10), ("Kettering", 3), ("Oakwood", 1)],
}

# name, price in cents, billing period, class limit a month (None: unlimited), off-peak only,
# available to new members, introduced on, weight for new members
PLANS = [
    ("Basic", 3900, "monthly", 8, 0, 1, "2019-03-01", 5),
    ("Plus", 6900, "monthly", 16, 0, 1, "2019-03-01", 6),
    ("Premium", 11900, "monthly", None, 0, 1, "2019-03-01", 3),
    ("Student", 2900, "monthly", 8, 0, 1, "2020-09-01", 3),
    ("Off-Peak", 3400, "monthly", 12, 1, 1, "2022-01-10", 2),
    ("Annual", 119000, "annual", None, 0, 1, "2023-01-01", 1.5),
    ("Founders", 4900, "monthly", None, 0, 0, "2019-03-01", 0),
    ("Corporate", 5900, "monthly", 12, 0, 1, "2025-09-15", 0),
]

# name, category, minutes, intensity, beginner friendly, base capacity, popularity
CLASS_TYPES = [
    ("Spin", "Cardio", 45, "high", 1, 20, 1.25),
    ("HIIT", "Cardio", 45, "high", 0, 18, 1.15),
    ("Rowing", "Cardio", 45, "medium", 1, 12, 0.6),
    ("Strength", "Strength", 60, "medium", 1, 14, 0.85),
    ("Kettlebell", "Strength", 45, "high", 0, 14, 0.7),
    ("Bootcamp", "Strength", 50, "high", 0, 20, 0.9),
    ("Yoga", "Mind & Body", 60, "low", 1, 22, 1.05),
    ("Hot Yoga", "Mind & Body", 75, "medium", 0, 18, 1.0),
    ("Pilates", "Mind & Body", 50, "medium", 1, 10, 1.1),
    ("Stretch", "Mind & Body", 30, "low", 1, 16, 0.5),
    ("Boxing", "Combat", 50, "high", 0, 14, 0.9),
    ("Kickboxing", "Combat", 45, "high", 1, 16, 0.8),
    ("Barre", "Dance", 50, "medium", 1, 16, 0.95),
    ("Dance Cardio", "Dance", 45, "medium", 1, 20, 0.7),
    ("Aqua Fit", "Cardio", 45, "low", 1, 12, 1.0),     # planned for a pool that was never built
]
NEVER_SCHEDULED = {"Aqua Fit"}

WEEKDAY_TIMES = [("06:00", 2), ("07:00", 2), ("09:30", 1.5), ("12:00", 1), ("17:30", 3),
                 ("18:30", 3), ("19:30", 2)]
SATURDAY_TIMES = [("08:00", 2), ("09:00", 3), ("10:30", 2), ("12:00", 1)]
SUNDAY_TIMES = [("09:00", 2), ("10:00", 3), ("11:30", 1)]
TIME_POPULARITY = {"06:00": 0.8, "07:00": 0.95, "09:30": 0.7, "12:00": 0.75, "17:30": 1.15,
                   "18:30": 1.2, "19:30": 0.95, "08:00": 0.9, "09:00": 1.15, "10:00": 1.1,
                   "10:30": 1.0, "11:30": 0.8}

FIRST_NAMES = [
    "Avery", "Blake", "Carmen", "Dante", "Elena", "Felix", "Gemma", "Hector", "Iris", "Jonah",
    "Kaia", "Lorenzo", "Maya", "Nico", "Opal", "Pierce", "Quinn", "Rosalind", "Silas", "Tamsin",
    "Ulla", "Vikram", "Wren", "Yara", "Zane", "Adele", "Bruno", "Cleo", "Dorian", "Esme",
    "Flynn", "Greta", "Hugo", "Ivy", "Jasper", "Kendra", "Levi", "Marisol", "Nadia", "Orson",
    "Paloma", "Rocco", "Saoirse", "Theo", "Uma", "Vaughn", "Winona", "Xiomara", "Yusuf", "Zara",
    "Anika", "Beau", "Celeste", "Dev", "Elodie", "Finn", "Giselle", "Hamza", "Inez", "Jude",
    "Keanu", "Lila", "Mateus", "Noor", "Otto", "Priya", "Reuben", "Sabine", "Tariq", "Valentina",
    "Wesley", "Ximena", "Yasmin", "Zoltan", "Ambrose", "Bianca", "Cyrus", "Delphine", "Emil",
    "Farrah", "Gus", "Hazel", "Idris", "Juniper", "Kofi", "Lucille", "Milo", "Nell", "Oscar",
    "Petra", "Rafferty", "Sunita", "Tobias", "Viola", "Wilder", "Aurelio", "Bree", "Cosima",
]
LAST_NAMES = [
    "Abernathy", "Balogun", "Castellano", "Drummond", "Eklund", "Fontaine", "Gutierrez",
    "Halvorsen", "Ikeda", "Jablonski", "Kavanagh", "Lindgren", "Marchetti", "Nwosu", "Oyelaran",
    "Pemberton", "Quiroga", "Rasmussen", "Szabo", "Trevino", "Umarov", "Valdez", "Wexler",
    "Yamamoto", "Zelenko", "Ashby", "Barraza", "Cromwell", "Dimitrov", "Estrada", "Fairweather",
    "Greaves", "Hollis", "Iglesias", "Jovanovic", "Kowalczyk", "Lachance", "Mwangi", "Norquist",
    "Ostrowski", "Prescott", "Rahimi", "Sorensen", "Tolliver", "Varga", "Whitcombe", "Yoon",
    "Zamora", "Aguilar", "Bertrand", "Carrington", "Delacroix", "Engstrom", "Fitzgerald",
    "Galloway", "Hendricks", "Iwasaki", "Kingsley", "Langford", "Mancini", "Nakagawa",
    "Okoro", "Pacheco", "Ridley", "Santangelo", "Thackeray", "Vukovic", "Winslow", "Ferraro",
    "Haddock", "Lockhart", "Moreland", "Pruitt", "Sandoval", "Tremblay", "Underhill", "Voigt",
]

PAUSE_REASONS = [("travel", 5), ("injury", 4), ("medical", 2), ("financial", 2), ("other", 1)]
PAYMENT_METHODS = [("card", 58), ("direct_debit", 24), ("apple_pay", 12), ("google_pay", 6)]

COMMENTS = {
    5: ["Best class of my week!", "Loved the playlist and the energy.", "Great cues, great vibe.",
        "Tough but so worth it.", "Instructor was amazing.", "Left feeling fantastic."],
    4: ["Really good class.", "Solid workout, room was a bit warm.", "Fun, would come again.",
        "Good pace, nice music."],
    3: ["It was fine.", "A bit crowded.", "Music was too loud.", "Started a few minutes late."],
    2: ["Felt rushed.", "Not much instruction for beginners.", "Equipment was not ready."],
    1: ["Class started 15 minutes late and ended early.", "Bike was broken the whole class."],
}

# equipment kind, class types that need it, how many per studio (low, high)
EQUIPMENT = [
    ("Spin Bike", {"Spin"}, (6, 12)),
    ("Rowing Machine", {"Rowing"}, (4, 8)),
    ("Reformer", {"Pilates"}, (5, 8)),
    ("Heavy Bag", {"Boxing", "Kickboxing"}, (4, 8)),
    ("Squat Rack", {"Strength", "Bootcamp"}, (2, 4)),
    ("Kettlebell Set", {"Kettlebell", "Bootcamp", "Strength"}, (2, 3)),
    ("Air Bike", {"HIIT"}, (3, 6)),
    ("Treadmill", None, (3, 6)),
]
SERIAL_PREFIX = {"Spin Bike": "SB", "Rowing Machine": "RW", "Reformer": "RF", "Heavy Bag": "HB",
                 "Squat Rack": "SR", "Kettlebell Set": "KB", "Air Bike": "AB", "Treadmill": "TM"}


def ts(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def day(text):
    return datetime.date.fromisoformat(text)


def weighted(rng, pairs):
    return rng.choices([p[0] for p in pairs], weights=[p[-1] for p in pairs])[0]


def date_between(rng, start, end):
    return start + datetime.timedelta(days=rng.randint(0, max(0, (end - start).days)))


def phone(rng, area):
    return f"{area}-555-{rng.randint(1000, 9999)}"


def add_months(d, months, billing_day):
    month = d.month - 1 + months
    year = d.year + month // 12
    return datetime.date(year, month % 12 + 1, billing_day)


def make_studios():
    rows = []
    for i, (name, city, address, opened, feet, sauna, _, area) in enumerate(STUDIOS, start=1):
        studio_phone = None if name.endswith("Oregon District") else f"{area}-555-0{100 + i}"
        rows.append([i, name, city, address, studio_phone, opened, feet, sauna])
    return rows


def make_class_types():
    return [[i, name, cat, minutes, intensity, beginner]
            for i, (name, cat, minutes, intensity, beginner, _, _) in enumerate(CLASS_TYPES, 1)]


def make_plans():
    return [[i, p[0], p[1], p[2], p[3], p[4], p[5], p[6]] for i, p in enumerate(PLANS, start=1)]


def unique_email(rng, first, last, used, domains):
    while True:
        style = rng.random()
        if style < 0.45:
            local = f"{first}.{last}"
        elif style < 0.75:
            local = f"{first[0]}{last}{rng.randint(1, 99)}"
        else:
            local = f"{first}{rng.randint(1960, 2007)}"
        email = f"{local}@{rng.choice(domains)}".lower()
        if email not in used:
            used.add(email)
            return email


def make_instructors(rng, studios, used_names):
    """Returns (rows, info): rows as stored; info per instructor id: studio, class types,
    active from/to, rating quality, popularity, does classes, does personal training."""
    people = []      # dicts: first, last, studio, title, hired, left, types, pt, classes, mentor
    type_names = [c[0] for c in CLASS_TYPES if c[0] not in NEVER_SCHEDULED]

    def person(studio, title, hired, types, pt=False, classes=True, left=None):
        while True:
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            if (first, last) not in used_names:
                used_names.add((first, last))
                break
        people.append({"first": first, "last": last, "studio": studio, "title": title,
                       "hired": hired, "left": left, "types": types, "pt": pt,
                       "classes": classes})
        return people[-1]

    for studio in studios:
        sid, opened = studio[0], day(studio[5])
        offered = rng.sample(type_names, rng.randint(6, 8))
        if sid == 1:
            offered = sorted(set(offered) | {"Spin", "Yoga", "Pilates"}, key=type_names.index)
        head = person(sid, "Head Coach", opened - datetime.timedelta(days=rng.randint(30, 90)),
                      rng.sample(offered, 3), pt=True)
        head["mentor"] = None
        rest = [t for t in offered if t not in head["types"]]
        rng.shuffle(rest)
        n_others = 3 if studio[6] >= 3 else 2
        chunks = [rest[i::n_others] for i in range(n_others)]
        for k, chunk in enumerate(chunks):
            types = chunk + rng.sample(offered, 1)
            types = sorted(set(types), key=type_names.index)
            senior = k == 0 and rng.random() < 0.7
            hired = date_between(rng, opened - datetime.timedelta(days=20),
                                 max(opened + datetime.timedelta(days=200),
                                     min(day("2025-03-01"), opened + datetime.timedelta(days=700))))
            p = person(sid, "Senior Instructor" if senior else "Instructor", hired, types)
            p["mentor"] = ("head", sid) if rng.random() < 0.75 else None
        if sid not in (3, 8):
            hired = date_between(rng, opened, max(opened, day("2025-04-30")))
            p = person(sid, "Personal Trainer", hired, [], pt=True, classes=False)
            p["mentor"] = ("head", sid) if rng.random() < 0.5 else None
    # three class instructors left in 2024-2025; each got a replacement a few weeks earlier
    leavers = [p for p in people if p["classes"] and p["title"] == "Instructor"
               and p["hired"] < day("2023-06-01")]
    for p in rng.sample(leavers, 3):
        p["left"] = date_between(rng, day("2024-04-01"), day("2025-06-30"))
        q = person(p["studio"], "Instructor",
                   p["left"] - datetime.timedelta(days=rng.randint(10, 40)), list(p["types"]))
        q["mentor"] = ("head", p["studio"])
    # two new hires that had not taught by the snapshot
    for hired in (day("2025-09-22"), day("2025-09-26")):
        studio = rng.choice(studios)
        p = person(studio[0], "Instructor", hired, [], classes=False)
        p["mentor"] = ("head", studio[0])
    # ids in hiring order
    people.sort(key=lambda p: (p["hired"], p["studio"], p["first"]))
    head_of = {}
    for i, p in enumerate(people, start=1):
        p["id"] = i
        if p["title"] == "Head Coach":
            head_of[p["studio"]] = p
    rows, info = [], {}
    area = {s[0]: STUDIOS[s[0] - 1][7] for s in studios}
    for p in people:
        mentor = None
        if p["mentor"]:
            candidate = head_of[p["mentor"][1]]
            if candidate["hired"] < p["hired"]:
                mentor = candidate["id"]
            else:                   # a head coach hired later: mentored by the first head coach
                mentor = people[0]["id"] if people[0]["hired"] < p["hired"] else None
        elif p["title"] == "Head Coach" and p["hired"] > day("2021-01-01") and rng.random() < 0.6:
            # the head coach of a newer studio learns the ropes from an older studio's one
            elders = [h["id"] for h in head_of.values()
                      if h["hired"] < p["hired"] - datetime.timedelta(days=365)]
            mentor = rng.choice(sorted(elders))
        rate = {"Head Coach": (4800, 5800), "Senior Instructor": (3900, 4600),
                "Instructor": (2800, 3600), "Personal Trainer": (4000, 5200)}[p["title"]]
        rate = rng.randint(rate[0] // 50, rate[1] // 50) * 50
        local = f"{p['first']}.{p['last']}".lower()
        email = f"{local}@staff.example.org"
        rows.append([p["id"], p["first"], p["last"], email,
                     phone(rng, area[p["studio"]]) if rng.random() < 0.8 else None,
                     p["studio"], mentor, p["title"], p["hired"].isoformat(), rate,
                     0 if p["left"] else 1])
        info[p["id"]] = {"studio": p["studio"], "types": p["types"], "hired": p["hired"],
                         "left": p["left"], "classes": p["classes"], "pt": p["pt"],
                         "quality": rng.choice([3.2, 3.6, 3.9, 4.1, 4.3, 4.4, 4.6, 4.8]),
                         "popularity": rng.choice([0.75, 0.9, 1.0, 1.0, 1.1, 1.25])}
    return rows, info


def make_members(rng, studios, count, used_names):
    plans = {p[0]: p for p in PLANS}
    emails = set()
    joins = []
    for _ in range(count):
        studio = rng.choices(studios, weights=[STUDIOS[s[0] - 1][6] for s in studios])[0]
        opened = day(studio[5])
        if rng.random() < 0.33 and opened < day("2023-10-01"):
            joined = date_between(rng, opened, day("2023-12-31"))
        else:
            joined = date_between(rng, max(opened, LAUNCH.date()), day("2025-09-29"))
        joins.append((joined, studio))
    joins.sort(key=lambda j: (j[0], j[1][0]))
    rows, info = [], {}
    for member_id, (joined, studio) in enumerate(joins, start=1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        while (first, last) in used_names:                  # no member shares a coach's name
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = unique_email(rng, first, last, emails,
                             ["example.com", "example.com", "example.org", "example.net"])
        age = rng.choices([rng.randint(17, 24), rng.randint(25, 34), rng.randint(35, 49),
                           rng.randint(50, 68)], weights=[3, 5, 4, 2])[0]
        birth = datetime.date(2025 - age, rng.randint(1, 12), rng.randint(1, 28))
        age_at_join = (joined - birth).days // 365
        options = [(name, w) for name, (_, _, _, _, _, avail, intro, w) in plans.items()
                   if w > 0 and day(intro) <= joined and (name != "Student" or age_at_join <= 25)]
        if joined < day("2021-01-01") and rng.random() < 0.5:
            plan = "Founders"
        else:
            plan = weighted(rng, options)
        plan_id = [p[0] for p in PLANS].index(plan) + 1
        city = weighted(rng, HOME_CITIES[studio[2]])
        referred = None
        if member_id > 25 and rng.random() < 0.16:
            referred = rng.randint(1, member_id - 1)
            if day(rows[referred - 1][7]) >= joined:
                referred = None
        cancelled = None
        if rng.random() < 0.19:
            start = max(joined + datetime.timedelta(days=45), day("2024-01-15"))
            if start < day("2025-09-20"):
                cancelled = date_between(rng, start, day("2025-09-29"))
        area = STUDIOS[studio[0] - 1][7]
        rows.append([member_id, first, last, email, phone(rng, area) if rng.random() < 0.7 else None,
                     birth.isoformat(), city, joined.isoformat(), studio[0], plan_id, referred,
                     cancelled.isoformat() if cancelled else None])
        activity = rng.choice([0.3, 0.6, 1, 1, 1.5, 2, 3])
        if rng.random() < 0.08:
            activity = 0                                    # never books a class in the app
        info[member_id] = {"joined": joined, "studio": studio[0], "city": studio[2],
                           "plan": plan, "cancelled": cancelled, "activity": activity,
                           "no_show": rng.choice([0.02, 0.04, 0.06, 0.08, 0.12, 0.2]),
                           "method": weighted(rng, PAYMENT_METHODS), "pauses": []}
    return rows, info


def make_pauses(rng, members, minfo):
    rows = []
    for m in members:
        info = minfo[m[0]]
        if rng.random() > 0.17:
            continue
        earliest = max(info["joined"] + datetime.timedelta(days=30), LAUNCH.date())
        latest = (info["cancelled"] - datetime.timedelta(days=20)) if info["cancelled"] \
            else day("2025-09-25")
        n = 2 if rng.random() < 0.15 else 1
        for _ in range(n):
            if earliest >= latest:
                break
            start = date_between(rng, earliest, latest)
            end = start + datetime.timedelta(days=rng.choice([14, 21, 30, 30, 45, 60, 90]))
            if info["cancelled"] and end >= info["cancelled"]:
                end = info["cancelled"] - datetime.timedelta(days=1)
            open_ended = False
            if end > SNAPSHOT.date() or (start > day("2025-08-01") and rng.random() < 0.4):
                open_ended = True
            info["pauses"].append((start, None if open_ended else end))
            rows.append([0, m[0], start.isoformat(),
                         None if open_ended else end.isoformat(), weighted(rng, PAUSE_REASONS)])
            if open_ended:
                break
            earliest = end + datetime.timedelta(days=60)
    rows.sort(key=lambda r: (r[2], r[1]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def paused(info, d):
    for start, end in info["pauses"]:
        if start <= d and (end is None or d <= end):
            return True
    return False


def member_can_attend(info, d):
    if info["activity"] == 0 or info["joined"] > d:
        return False
    if info["cancelled"] and info["cancelled"] <= d:
        return False
    return not paused(info, d)


def make_sessions(rng, studios, iinfo):
    type_id = {c[0]: i for i, c in enumerate(CLASS_TYPES, start=1)}
    rows = []
    taken = set()
    first_week = LAUNCH.date() - datetime.timedelta(days=LAUNCH.date().weekday())
    for studio in studios:
        sid, opened, city = studio[0], day(studio[5]), studio[2]
        per_week = STUDIOS[sid - 1][6]
        cap_factor = rng.choice([0.8, 0.9, 1.0, 1.0, 1.1])
        if studio[6] < 4500:
            cap_factor *= 0.85
        week = first_week
        while week <= LAST_SESSION_DAY:
            n = rng.choice([per_week - 1, per_week, per_week, per_week + 1])
            for _ in range(n):
                d = week + datetime.timedelta(days=rng.choices(range(7),
                                                               weights=[3, 3, 3, 3, 2, 2, 1.5])[0])
                if d < opened or d < LAUNCH.date() or d > LAST_SESSION_DAY:
                    continue
                if d.weekday() < 5:
                    slot = weighted(rng, WEEKDAY_TIMES)
                elif d.weekday() == 5:
                    slot = weighted(rng, SATURDAY_TIMES)
                else:
                    slot = weighted(rng, SUNDAY_TIMES)
                hour, minute = map(int, slot.split(":"))
                starts = datetime.datetime(d.year, d.month, d.day, hour, minute)
                teachers = [i for i, x in iinfo.items() if x["classes"] and x["hired"] <= d
                            and (x["left"] is None or d < x["left"])]
                local = [i for i in teachers if iinfo[i]["studio"] == sid]
                guests = [i for i in teachers if iinfo[i]["studio"] != sid
                          and studios[iinfo[i]["studio"] - 1][2] == city]
                pool = guests if guests and rng.random() < 0.025 else local
                if not pool:
                    continue
                instructor = rng.choice(pool)
                if (sid, starts) in taken or (instructor, starts) in taken:
                    continue
                taken.add((sid, starts))
                taken.add((instructor, starts))
                kinds = iinfo[instructor]["types"]
                kind = rng.choices(kinds, weights=[CLASS_TYPES[type_id[k] - 1][6] ** 2
                                                   for k in kinds])[0]
                spec = CLASS_TYPES[type_id[kind] - 1]
                capacity = max(8, int(round(spec[5] * cap_factor)))
                cancelled = 1 if starts <= SNAPSHOT and rng.random() < 0.03 else 0
                rows.append([0, type_id[kind], instructor, sid, ts(starts), capacity, cancelled])
            week += datetime.timedelta(days=7)
    rows.sort(key=lambda r: (r[4], r[3]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def off_peak(starts):
    return starts.weekday() < 5 and 9 <= starts.hour < 16


def make_bookings(rng, sessions, members, minfo, iinfo, studios):
    city_of = {s[0]: s[2] for s in studios}
    rows = []
    for session in sessions:
        sid, starts = session[3], datetime.datetime.fromisoformat(session[4])
        capacity, cancelled = session[5], session[6]
        spec = CLASS_TYPES[session[1] - 1]
        share = rng.uniform(0.12, 0.55) if rng.random() > 0.07 else rng.uniform(0.9, 1.4)
        demand = (capacity * share * spec[6] * iinfo[session[2]]["popularity"]
                  * TIME_POPULARITY[starts.strftime("%H:%M")])
        wanted = min(capacity, int(round(demand)))
        window_start = starts - datetime.timedelta(days=7)
        if starts > SNAPSHOT:
            if window_start > SNAPSHOT:
                continue
            done = (SNAPSHOT - window_start) / (starts - window_start)
            wanted = int(wanted * done)
        d = starts.date()
        candidates, weights = [], []
        for m in members:
            info = minfo[m[0]]
            if not member_can_attend(info, d):
                continue
            if info["plan"] == "Off-Peak" and not off_peak(starts):
                continue
            if info["studio"] == sid:
                w = 1.0
            elif info["city"] == city_of[sid]:
                w = 0.05
            else:
                w = 0.002
            candidates.append(m[0])
            weights.append(w * info["activity"])
        cancel_time = starts - datetime.timedelta(hours=rng.randint(3, 30))
        seen = set()
        taken = tries = 0                 # taken: spots held by bookings not cancelled
        while taken < min(wanted, len(candidates)) and tries < wanted * 20:
            tries += 1
            member_id = rng.choices(candidates, weights=weights)[0]
            if member_id in seen:
                continue
            seen.add(member_id)
            info = minfo[member_id]
            lead = datetime.timedelta(minutes=int(15 + (7 * 24 * 60 - 15) * rng.random() ** 2))
            booked = starts - lead
            earliest = max(datetime.datetime.combine(info["joined"], datetime.time(7, 0)), LAUNCH)
            if booked < earliest:
                booked = earliest + datetime.timedelta(minutes=rng.randint(0, 60))
                if booked > starts - datetime.timedelta(minutes=15):
                    continue
            if booked > SNAPSHOT:
                booked = SNAPSHOT - datetime.timedelta(minutes=rng.randint(5, 600))
                if booked < earliest:
                    continue
            booked = booked.replace(second=rng.randint(0, 59), microsecond=0)
            cancelled_at = None
            if cancelled:
                status = "cancelled"
                cancelled_at = max(cancel_time, booked + datetime.timedelta(minutes=5))
            elif starts > SNAPSHOT:
                status = "booked"
            else:
                r = rng.random()
                if r < 0.11:
                    status = "cancelled"          # the spot goes back to the pool
                    cancelled_at = booked + (starts - booked) * rng.random() ** 0.6
                    cancelled_at = cancelled_at.replace(microsecond=0)
                elif r < 0.11 + info["no_show"]:
                    status = "no_show"
                else:
                    status = "attended"
            if status != "cancelled" or cancelled:
                taken += 1
            rows.append([0, member_id, session[0], ts(booked), status,
                         ts(cancelled_at) if cancelled_at else None])
    rows.sort(key=lambda r: (r[3], r[2], r[1]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def make_reviews(rng, sessions, bookings, iinfo):
    session = {s[0]: s for s in sessions}
    rows = []
    for b in bookings:
        if b[4] != "attended" or rng.random() > 0.13:
            continue
        s = session[b[2]]
        spec = CLASS_TYPES[s[1] - 1]
        ends = datetime.datetime.fromisoformat(s[4]) + datetime.timedelta(minutes=spec[2])
        created = ends + datetime.timedelta(minutes=rng.randint(5, 72 * 60))
        if created > SNAPSHOT:
            continue
        stars = max(1, min(5, round(rng.gauss(iinfo[s[2]]["quality"], 0.85))))
        comment = rng.choice(COMMENTS[stars]) if rng.random() < 0.55 else None
        rows.append([0, b[1], b[2], stars, comment, ts(created)])
    rows.sort(key=lambda r: (r[5], r[1]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def make_personal_training(rng, members, minfo, iinfo):
    trainers_at = {}
    for i, x in iinfo.items():
        if x["pt"] and x["left"] is None:
            trainers_at.setdefault(x["studio"], []).append(i)
    rows = []
    for m in members:
        info = minfo[m[0]]
        if rng.random() > 0.14 or info["studio"] not in trainers_at:
            continue
        trainer = rng.choice(trainers_at[info["studio"]])
        start = max(info["joined"], LAUNCH.date(), iinfo[trainer]["hired"])
        end = info["cancelled"] or (SNAPSHOT.date() + datetime.timedelta(days=14))
        if start >= end - datetime.timedelta(days=10):
            continue
        d = date_between(rng, start, end - datetime.timedelta(days=10))
        minutes = rng.choice([30, 45, 60, 60])
        price = {30: 4500, 45: 6000, 60: 7500}[minutes]
        if iinfo[trainer]["pt"] and iinfo[trainer]["classes"]:
            price += 1000                                      # head coaches cost more
        for _ in range(rng.choice([1, 3, 4, 5, 6, 8, 10, 12])):
            if d >= end or paused(info, d):
                break
            hour = rng.choice([6, 7, 8, 12, 16, 17, 18, 19])
            starts = datetime.datetime(d.year, d.month, d.day, hour, 0)
            if starts > SNAPSHOT:
                status = "scheduled"
            else:
                status = weighted(rng, [("completed", 88), ("cancelled", 8), ("no_show", 4)])
            rows.append([0, m[0], trainer, info["studio"], ts(starts), minutes, price, status])
            d += datetime.timedelta(days=rng.choice([5, 7, 7, 7, 14]))
    rows.sort(key=lambda r: (r[4], r[2]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def make_payments(rng, members, minfo, bookings, sessions, pt_sessions):
    rows = []

    def charge(member_id, amount, purpose, moment, method=None):
        if moment > SNAPSHOT:
            return
        info = minfo[member_id]
        method = method or info["method"]
        r = rng.random()
        status = "paid"
        if method == "cash":
            pass                                            # paid at the front desk
        elif r < 0.03:
            status = "failed"
        elif r < 0.038 and purpose != "no_show_fee":
            status = "refunded"
        rows.append([0, member_id, amount, purpose, method, status, ts(moment)])
        if status == "failed" and rng.random() < 0.85:
            retry = moment + datetime.timedelta(days=3, minutes=rng.randint(0, 300))
            if retry <= SNAPSHOT:
                rows.append([0, member_id, amount, purpose, method, "paid", ts(retry)])

    for m in members:
        info = minfo[m[0]]
        plan = PLANS[m[9] - 1]
        step = 12 if plan[2] == "annual" else 1
        billing_day = min(info["joined"].day, 28)
        k = 0
        while True:
            due = add_months(info["joined"], k, billing_day)
            k += step
            if due > SNAPSHOT.date() or (info["cancelled"] and due >= info["cancelled"]):
                break
            if due < LAUNCH.date() or paused(info, due):
                continue
            moment = datetime.datetime(due.year, due.month, due.day, 3, rng.randint(0, 59),
                                       rng.randint(0, 59))
            charge(m[0], plan[1], "membership", moment)
    session = {s[0]: s for s in sessions}
    for b in bookings:
        starts = datetime.datetime.fromisoformat(session[b[2]][4])
        if b[4] == "no_show" and starts >= NO_SHOW_FEE_FROM:
            moment = (starts + datetime.timedelta(days=1)).replace(hour=4, minute=rng.randint(0, 59))
            charge(b[1], 1000, "no_show_fee", moment)
    for p in pt_sessions:
        if p[7] in ("completed", "no_show"):
            moment = datetime.datetime.fromisoformat(p[4]) + datetime.timedelta(
                minutes=p[5] + rng.randint(2, 20))
            method = "cash" if rng.random() < 0.1 else None
            charge(p[1], p[6], "personal_training", moment, method)
    rows.sort(key=lambda r: (r[6], r[1], r[3]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def make_equipment(rng, studios, sessions):
    type_names = {i: c[0] for i, c in enumerate(CLASS_TYPES, start=1)}
    offered = {}
    for s in sessions:
        offered.setdefault(s[3], set()).add(type_names[s[1]])
    rows, serials = [], set()
    for studio in studios:
        opened = day(studio[5])
        for kind, needs, (low, high) in EQUIPMENT:
            if needs is not None and not (needs & offered.get(studio[0], set())):
                continue
            for _ in range(rng.randint(low, high)):
                bought = opened - datetime.timedelta(days=rng.randint(5, 40))
                if rng.random() < 0.25:
                    bought = date_between(rng, opened, day("2025-08-31"))
                while True:
                    serial = f"{SERIAL_PREFIX[kind]}-{rng.randint(10000, 99999)}"
                    if serial not in serials:
                        serials.add(serial)
                        break
                serviced = None
                if rng.random() < 0.82:
                    serviced = date_between(rng, max(bought + datetime.timedelta(days=30),
                                                     day("2024-06-01")), day("2025-09-26"))
                broken = 1 if rng.random() < 0.06 else 0
                rows.append([0, studio[0], kind, serial, bought.isoformat(),
                             serviced.isoformat() if serviced else None, broken])
    rows.sort(key=lambda r: (r[4], r[1], r[3]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "fitness.sqlite")
    rng = random.Random(SEED)
    studios = make_studios()
    class_types = make_class_types()
    plans = make_plans()
    used_names = set()
    instructors, iinfo = make_instructors(rng, studios, used_names)
    members, minfo = make_members(rng, studios, 500, used_names)
    pauses = make_pauses(rng, members, minfo)
    sessions = make_sessions(rng, studios, iinfo)
    bookings = make_bookings(rng, sessions, members, minfo, iinfo, studios)
    reviews = make_reviews(rng, sessions, bookings, iinfo)
    pt_sessions = make_personal_training(rng, members, minfo, iinfo)
    payments = make_payments(rng, members, minfo, bookings, sessions, pt_sessions)
    equipment = make_equipment(rng, studios, sessions)

    tables = [("Studio", studios), ("Instructor", instructors), ("MembershipPlan", plans),
              ("Member", members), ("MembershipPause", pauses), ("ClassType", class_types),
              ("ClassSession", sessions), ("Booking", bookings), ("Review", reviews),
              ("PersonalTrainingSession", pt_sessions), ("Payment", payments),
              ("Equipment", equipment)]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
