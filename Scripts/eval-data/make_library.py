#!/usr/bin/env python3
"""Generate library.sqlite: a small public library network database for evaluation.

All rows are synthetic, generated data (no real people, books or libraries); the
names, titles, branches and genres come from the built-in lists below. Generation is
deterministic: a fixed seed and random.Random(SEED) only, so two runs write the same
rows. An existing file at the output path is overwritten.

Naming style: singular lower_snake_case tables (branch, member, book, copy, loan, ...)
with primary keys named <table>_id.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_library.py [OUTPUT]   (default: library.sqlite next to this script)
"""

import datetime
import os
import random
import sys

from evaldb import write_database

SEED = 7351902
FIRST_DAY = datetime.date(2022, 1, 3)   # the loan system went live
TODAY = datetime.date(2025, 6, 30)      # the day of the snapshot
LOAN_DAYS = 21
LATE_FEE_PER_DAY = 0.25
LATE_FEE_CAP = 10.00

SCHEMA = """
CREATE TABLE branch (
    branch_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, district TEXT NOT NULL,
    street_address TEXT NOT NULL, phone TEXT NOT NULL, opened_year INTEGER NOT NULL,
    open_weekends INTEGER NOT NULL);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    job_title TEXT NOT NULL, branch_id INTEGER NOT NULL REFERENCES branch(branch_id),
    manager_id INTEGER REFERENCES staff(staff_id), hired_on TEXT NOT NULL,
    annual_salary REAL NOT NULL, email TEXT NOT NULL);
CREATE TABLE member (
    member_id INTEGER PRIMARY KEY, card_number TEXT NOT NULL UNIQUE,
    first_name TEXT NOT NULL, last_name TEXT NOT NULL, membership_type TEXT NOT NULL,
    home_branch_id INTEGER NOT NULL REFERENCES branch(branch_id),
    email TEXT, phone TEXT, birth_year INTEGER NOT NULL, joined_on TEXT NOT NULL);
CREATE TABLE author (
    author_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    nationality TEXT NOT NULL, birth_year INTEGER NOT NULL, death_year INTEGER);
CREATE TABLE book (
    book_id INTEGER PRIMARY KEY, title TEXT NOT NULL,
    author_id INTEGER NOT NULL REFERENCES author(author_id), genre TEXT NOT NULL,
    audience TEXT NOT NULL, isbn TEXT NOT NULL UNIQUE, publication_year INTEGER NOT NULL,
    page_count INTEGER NOT NULL, language TEXT NOT NULL);
CREATE TABLE copy (
    copy_id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES book(book_id),
    branch_id INTEGER NOT NULL REFERENCES branch(branch_id), barcode TEXT NOT NULL UNIQUE,
    acquired_on TEXT NOT NULL, purchase_price REAL NOT NULL, condition TEXT NOT NULL,
    status TEXT NOT NULL);
CREATE TABLE loan (
    loan_id INTEGER PRIMARY KEY, copy_id INTEGER NOT NULL REFERENCES copy(copy_id),
    member_id INTEGER NOT NULL REFERENCES member(member_id),
    loaned_on TEXT NOT NULL, due_on TEXT NOT NULL, returned_on TEXT,
    status TEXT NOT NULL);
CREATE TABLE fine (
    fine_id INTEGER PRIMARY KEY, loan_id INTEGER NOT NULL REFERENCES loan(loan_id),
    reason TEXT NOT NULL, amount REAL NOT NULL, issued_on TEXT NOT NULL, paid_on TEXT);
CREATE TABLE reservation (
    reservation_id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES book(book_id),
    member_id INTEGER NOT NULL REFERENCES member(member_id),
    pickup_branch_id INTEGER NOT NULL REFERENCES branch(branch_id),
    placed_on TEXT NOT NULL, status TEXT NOT NULL, fulfilled_on TEXT);
CREATE TABLE event (
    event_id INTEGER PRIMARY KEY, branch_id INTEGER NOT NULL REFERENCES branch(branch_id),
    host_staff_id INTEGER REFERENCES staff(staff_id), title TEXT NOT NULL,
    category TEXT NOT NULL, event_date TEXT NOT NULL, start_time TEXT NOT NULL,
    capacity INTEGER NOT NULL);
CREATE TABLE event_registration (
    registration_id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES event(event_id),
    member_id INTEGER NOT NULL REFERENCES member(member_id),
    registered_on TEXT NOT NULL, attended INTEGER NOT NULL,
    UNIQUE (event_id, member_id));
"""

# name, district, street address, opened year, open on weekends (1 or 0),
# relative size (share of copies, members and events)
BRANCHES = [
    ("Central Library", "Downtown", "100 Civic Plaza", 1962, 1, 3.0),
    ("Riverside Branch", "Riverside", "42 Mill Race Road", 1988, 1, 1.6),
    ("Oak Hill Branch", "Oak Hill", "7 Acorn Lane", 1975, 0, 1.2),
    ("Harbor View Branch", "Harborfront", "310 Pier Street", 2004, 1, 1.3),
    ("Maple Grove Branch", "Maple Grove", "18 Sycamore Avenue", 1995, 0, 1.0),
    ("Eastgate Branch", "Eastgate", "2550 Eastgate Boulevard", 2011, 1, 1.1),
    ("Westfield Branch", "Westfield", "96 Prairie Road", 1981, 0, 0.8),
    ("Northside Branch", "Northside", "1400 Quarry Street", 2019, 1, 0.9),
]

FIRST_NAMES = [
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Lucas", "Isabella",
    "Mason", "Mia", "Ethan", "Amelia", "Logan", "Harper", "James", "Evelyn", "Aiden",
    "Abigail", "Caleb", "Emily", "Owen", "Ella", "Wyatt", "Grace", "Henry", "Chloe",
    "Samuel", "Nora", "Julian", "Lily", "Isaac", "Hannah", "Gabriel", "Zoe", "Mateo",
    "Leah", "Daniel", "Aria", "David", "Priya", "Ravi", "Mei", "Kenji", "Fatima",
    "Omar", "Ingrid", "Tomas", "Rosa", "Diego", "Aisha", "Yusuf", "Hana", "Arjun",
    "Margaret", "Walter", "Dorothy", "Harold", "Ruth", "Frank",
]
LAST_NAMES = [
    "Anderson", "Bennett", "Carter", "Delgado", "Ellison", "Fischer", "Garcia", "Hughes",
    "Ibarra", "Jensen", "Kowalski", "Lindqvist", "Morales", "Nakamura", "Okafor",
    "Patel", "Quinn", "Ramirez", "Sullivan", "Tanaka", "Underwood", "Vasquez", "Whitaker",
    "Xu", "Yilmaz", "Zimmerman", "Abbott", "Brennan", "Castillo", "Dawson", "Everett",
    "Fleming", "Gallagher", "Holloway", "Iverson", "Jacobs", "Keller", "Lawson",
    "McAllister", "Novak", "Olsen", "Pearson", "Reyes", "Schmidt", "Thornton", "Vance",
    "Wallace", "Young", "Chen", "Singh", "Kim", "Nguyen", "Haddad", "Moreau",
]

# Fictional author names (made up; not real writers).
AUTHOR_FIRST = [
    "Adelaide", "Bram", "Cecily", "Desmond", "Elowen", "Fitzgerald", "Genevieve", "Hollis",
    "Imogen", "Jasper", "Katarina", "Lorcan", "Marguerite", "Nikolai", "Ottoline", "Percival",
    "Quentin", "Rosalind", "Sebastian", "Theodora", "Ulrich", "Vivienne", "Winifred",
    "Xavier", "Yara", "Zachary", "Anneliese", "Barnaby", "Clementine", "Dashiell", "Esperanza",
    "Florian", "Gwendolyn", "Horatio", "Isolde", "Leopold", "Minerva", "Octavia", "Rufus",
    "Seraphina", "Tobias", "Wilhelmina", "Amara", "Kofi", "Saoirse", "Takeshi", "Ines",
    "Mirela", "Anders", "Lucinda",
]
AUTHOR_LAST = [
    "Ashcombe", "Blackwood", "Calloway", "Dunmore", "Elsworth", "Fairbanks", "Greyson",
    "Hartwell", "Ingram", "Jessop", "Kingsley", "Larkspur", "Merriweather", "Northcott",
    "Osgood", "Pemberton", "Quill", "Ravensdale", "Stirling", "Thistlewood", "Umberfield",
    "Vantreight", "Wexford", "Yardley", "Abernathy", "Brightwater", "Castellane", "Devereux",
    "Eastwick", "Farrow", "Goldhawk", "Hawthorne", "Ironside", "Juniper", "Kestrel",
    "Lindgren", "Marchetti", "Nightingale", "Oyelaran", "Petrakis", "Rosenthal", "Sandoval",
    "Tremaine", "Valdivia", "Winterbourne", "Okonkwo", "Moriyama", "Albescu", "Halvorsen",
    "Beaumont",
]
NATIONALITIES = [("American", 30), ("British", 18), ("Canadian", 10), ("Irish", 6),
                 ("Australian", 6), ("French", 5), ("Nigerian", 4), ("Japanese", 4),
                 ("Mexican", 4), ("Swedish", 3), ("Italian", 3), ("Indian", 4), ("German", 3)]

# genre, audience, weight, popularity factor
GENRES = [
    ("Literary Fiction", "Adult", 11, 1.0), ("Mystery", "Adult", 11, 1.5),
    ("Thriller", "Adult", 8, 1.5), ("Science Fiction", "Adult", 7, 1.1),
    ("Fantasy", "Young Adult", 8, 1.3), ("Romance", "Adult", 7, 1.3),
    ("Historical Fiction", "Adult", 6, 1.0), ("Biography", "Adult", 6, 0.8),
    ("History", "Adult", 6, 0.6), ("Science", "Adult", 5, 0.6),
    ("Self-Help", "Adult", 4, 0.9), ("Cooking", "Adult", 4, 0.8),
    ("Poetry", "Adult", 3, 0.4), ("Picture Book", "Children", 8, 1.4),
    ("Children's Fiction", "Children", 7, 1.3), ("Graphic Novel", "Young Adult", 5, 1.4),
]
TITLE_ADJ = ["Silent", "Crimson", "Hidden", "Last", "Broken", "Golden", "Forgotten", "Distant",
             "Burning", "Quiet", "Secret", "Midnight", "Winter", "Hollow", "Wild", "Glass",
             "Iron", "Paper", "Lonely", "Endless", "Salt", "Velvet", "Northern", "Borrowed"]
TITLE_NOUN = ["Garden", "River", "House", "Harbor", "Letter", "Orchard", "Lighthouse", "Crown",
              "Mirror", "Island", "Station", "Promise", "Tide", "Forest", "Map", "Bridge",
              "Clockmaker", "Daughter", "Kingdom", "Voyage", "Archive", "Window", "Season",
              "Compass", "Sparrow", "Lantern", "Road", "Storm"]
TITLE_PLACE = ["Ashford", "the Marsh", "Larkhill", "the North Sea", "Coldwater", "Elm Street",
               "the Lost Valley", "Blackmoor", "the Old Quarter", "Silver Lake", "Kestrel Bay",
               "the Far Hills", "Juniper Point", "Ravenscar"]
NONFICTION_TOPIC = {
    "Biography": ["A Life of {p}", "{p}: The Untold Story", "Becoming {p}", "The Many Lives of {p}"],
    "History": ["The Rise and Fall of {t}", "A Short History of {t}", "{t}: An Empire Remembered",
                "The Road to {t}"],
    "Science": ["The Secret Life of {s}", "Understanding {s}", "{s} and the Universe",
                "The Hidden World of {s}"],
    "Self-Help": ["The Art of {h}", "{h} Every Day", "A Year of {h}", "Small Steps to {h}"],
    "Cooking": ["{c} at Home", "The {c} Kitchen", "Simply {c}", "Weeknight {c}"],
}
PEOPLE = ["Captain Elias Thorne", "Ada Merriwether", "Lottie Vance", "Dr. Samuel Okoro",
          "Marguerite Dubois", "Hiram Blackstone", "Nell Carrow", "Ignatius Pell"]
EMPIRES = ["the Salt Road", "the River Kingdoms", "the Copper Coast", "the Northern League",
           "the Amber Trade", "the Tea Clippers", "the Iron Railways", "the Free Cities"]
SUBJECTS = ["Fungi", "Bees", "Tides", "Volcanoes", "Octopuses", "Clouds", "Stars", "Seeds",
            "Glaciers", "Ants"]
HABITS = ["Slowing Down", "Focus", "Calm", "Good Sleep", "Saying No", "Deep Work", "Gratitude"]
CUISINES = ["Vegetarian", "Mediterranean", "Baking", "Soups", "Noodles", "One-Pot", "Grilling",
            "Preserving"]
KIDS_ANIMALS = ["Bear", "Fox", "Owl", "Hedgehog", "Rabbit", "Dragon", "Penguin", "Mouse",
                "Badger", "Otter", "Duckling", "Tortoise"]
KIDS_NAMES = ["Pip", "Mabel", "Otis", "Tilly", "Bruno", "Juniper", "Ziggy", "Poppy", "Felix",
              "Hazel"]
KIDS_PATTERNS = ["{n} the {a}", "{n} and the Big Adventure", "Where Is {n}?",
                 "The {a} Who Could Not Sleep", "Goodnight, Little {a}", "{n} Goes to School",
                 "The Brave Little {a}", "{n}'s Rainy Day"]

EVENT_TYPES = [
    # category, titles, capacity range, weight, audience (who registers)
    ("Story Time", ["Toddler Story Time", "Pajama Story Time", "Bilingual Story Time"],
     (15, 30), 5, "Child"),
    ("Book Club", ["Mystery Book Club", "Classics Book Club", "Sci-Fi Book Club",
                   "Evening Book Club"], (12, 20), 4, "Adult"),
    ("Workshop", ["Creative Writing Workshop", "Family History Workshop",
                  "Resume Writing Workshop", "Bookbinding Workshop"], (10, 20), 3, "Adult"),
    ("Author Talk", ["Meet the Author", "Local Authors Evening", "Poetry Reading"],
     (40, 80), 2, "Adult"),
    ("Technology Class", ["Computer Basics", "Smartphone Help Session",
                          "Online Safety for Seniors", "E-Book Borrowing 101"], (8, 16), 3,
     "Senior"),
]


def iso(day):
    return day.isoformat()


def day_between(rng, start, end):
    return start + datetime.timedelta(days=rng.randint(0, (end - start).days))


def isbn13(rng, used):
    while True:
        digits = [9, 7, 8] + [rng.randint(0, 9) for _ in range(9)]
        check = (10 - sum(d * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10) % 10
        text = "".join(map(str, digits + [check]))
        if text not in used:
            used.add(text)
            return text


def weighted(rng, pairs):
    return rng.choices([p[0] for p in pairs], weights=[p[1] for p in pairs])[0]


def phone(rng):
    return f"555-{rng.randint(200, 989):03d}-{rng.randint(0, 9999):04d}"


def make_branches(rng):
    rows = []
    for i, (name, district, street, year, weekend, _) in enumerate(BRANCHES, start=1):
        rows.append((i, name, district, street, phone(rng), year, weekend))
    return rows


def make_staff(rng, branches):
    rows, used = [], set()

    def person(branch_id, title, manager_id, salary_range, hired_from):
        while True:
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            if (first, last) not in used:
                used.add((first, last))
                break
        staff_id = len(rows) + 1
        opened = datetime.date(BRANCHES[branch_id - 1][3], 1, 1)
        hired = day_between(rng, max(hired_from, opened), datetime.date(2025, 3, 31))
        salary = round(rng.uniform(*salary_range) / 10) * 10
        email = f"{first}.{last}@citylibrary.example".lower()
        rows.append((staff_id, first, last, title, branch_id, manager_id, iso(hired),
                     round(float(salary), 2), email))
        return staff_id

    director = person(1, "Library Director", None, (118000, 126000), datetime.date(2009, 1, 1))
    for branch in branches:
        branch_id = branch[0]
        size = BRANCHES[branch_id - 1][5]
        manager = person(branch_id, "Branch Manager", director, (78000, 92000),
                         datetime.date(2010, 1, 1))
        titles = ["Reference Librarian", "Youth Services Librarian"]
        titles += ["Library Assistant"] * (2 + round(size))
        if size >= 1.2:
            titles += ["Circulation Supervisor"]
        if branch_id == 1:
            titles += ["Cataloging Librarian", "Systems Librarian", "Outreach Coordinator"]
        for title in titles:
            salary = {"Reference Librarian": (56000, 68000),
                      "Youth Services Librarian": (54000, 66000),
                      "Library Assistant": (34000, 42000),
                      "Circulation Supervisor": (46000, 54000),
                      "Cataloging Librarian": (58000, 70000),
                      "Systems Librarian": (64000, 76000),
                      "Outreach Coordinator": (50000, 60000)}[title]
            person(branch_id, title, manager, salary, datetime.date(2012, 1, 1))
    return rows


def make_members(rng, branches, count):
    weights = [b[5] for b in BRANCHES]
    rows = []
    for member_id in range(1, count + 1):
        kind = rng.choices(["Adult", "Child", "Senior"], weights=[64, 20, 16])[0]
        home = rng.choices([b[0] for b in branches], weights=weights)[0]
        joined = day_between(rng, datetime.date(2016, 1, 1), datetime.date(2025, 6, 15))
        if kind == "Child":
            birth = rng.randint(max(2008, joined.year - 12), 2020)
        elif kind == "Senior":
            birth = rng.randint(1935, 1960)
        else:
            birth = rng.randint(1961, min(2007, joined.year - 16))
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = None
        if kind != "Child" and rng.random() < 0.82:
            domain = rng.choice(["mailbox.example", "inbox.example", "post.example"])
            email = f"{first}.{last}{rng.randint(1, 99)}@{domain}".lower()
        tel = phone(rng) if rng.random() < (0.55 if kind == "Child" else 0.7) else None
        card = f"LIB{100000 + member_id * 7 + rng.randint(0, 6):07d}"
        rows.append((member_id, card, first, last, kind, home, email, tel, birth, iso(joined)))
    return rows


def make_authors(rng, count):
    rows, used = [], set()
    while len(rows) < count:
        first, last = rng.choice(AUTHOR_FIRST), rng.choice(AUTHOR_LAST)
        if (first, last) in used or last in {r[2] for r in rows[-3:]}:
            continue
        used.add((first, last))
        born = rng.randint(1890, 1995)
        died = None
        if born < 1950 and rng.random() < (0.85 if born < 1925 else 0.35):
            died = rng.randint(max(born + 45, 1960), min(born + 98, 2024))
        rows.append((len(rows) + 1, first, last, weighted(rng, NATIONALITIES), born, died))
    return rows


def make_title(rng, genre):
    words = raw_title(rng, genre).split(" ")
    for i, word in enumerate(words[:-1]):
        if word in ("A", "a") and words[i + 1][0] in "AEIOU":
            words[i] = word + "n"
    title = " ".join(words)
    return title[0].upper() + title[1:]


def raw_title(rng, genre):
    if genre in NONFICTION_TOPIC:
        pattern = rng.choice(NONFICTION_TOPIC[genre])
        return pattern.format(p=rng.choice(PEOPLE), t=rng.choice(EMPIRES),
                              s=rng.choice(SUBJECTS), h=rng.choice(HABITS),
                              c=rng.choice(CUISINES))
    if genre in ("Picture Book", "Children's Fiction"):
        return rng.choice(KIDS_PATTERNS).format(n=rng.choice(KIDS_NAMES), a=rng.choice(KIDS_ANIMALS))
    if genre == "Poetry":
        return rng.choice(["Songs of {p}", "{a} Hours", "Poems from {p}", "The {a} Psalms"]).format(
            p=rng.choice(TITLE_PLACE), a=rng.choice(TITLE_ADJ))
    pattern = rng.choice(["The {a} {n}", "The {n} of {p}", "A {n} for {p}", "{a} {n}",
                          "The {n}'s {n2}", "Murder at {p}" if genre == "Mystery" else "The {a} {n}",
                          "Beyond {p}"])
    return pattern.format(a=rng.choice(TITLE_ADJ), n=rng.choice(TITLE_NOUN),
                          n2=rng.choice(TITLE_NOUN), p=rng.choice(TITLE_PLACE))


def make_books(rng, authors, count):
    # each author writes mostly in one or two genres
    author_genres = {}
    for author in authors:
        main = weighted(rng, [(g[0], g[2]) for g in GENRES])
        other = weighted(rng, [(g[0], g[2]) for g in GENRES])
        author_genres[author[0]] = (main, other)
    author_weights = [rng.choice([1, 1, 1, 2, 2, 3, 5]) for _ in authors]
    genre_info = {g[0]: g for g in GENRES}
    rows, titles, isbns = [], set(), set()
    while len(rows) < count:
        author = rng.choices(authors, weights=author_weights)[0]
        main, other = author_genres[author[0]]
        genre = main if rng.random() < 0.8 else other
        title = make_title(rng, genre)
        if title in titles:
            continue
        titles.add(title)
        first_year = max(author[4] + 22, 1950)
        last_year = min(author[5] or 2025, 2025)
        if first_year > last_year:
            first_year = last_year
        year = rng.randint(first_year, last_year)
        if rng.random() < 0.5:                       # libraries buy mostly recent books
            year = rng.randint(max(first_year, min(2015, last_year)), last_year)
        audience = genre_info[genre][1]
        pages = {"Picture Book": (24, 48), "Children's Fiction": (80, 220),
                 "Graphic Novel": (120, 260), "Poetry": (60, 140)}.get(genre, (180, 620))
        language = weighted(rng, [("English", 90), ("Spanish", 6), ("French", 2), ("Chinese", 2)])
        rows.append((len(rows) + 1, title, author[0], genre, audience, isbn13(rng, isbns), year,
                     rng.randint(*pages), language))
    return rows


def make_copies(rng, books, branches):
    weights = [b[5] for b in BRANCHES]
    genre_pop = {g[0]: g[3] for g in GENRES}
    rows, popularity = [], {}
    for book in books:
        pop = genre_pop[book[3]] * rng.choice([0.4, 0.6, 0.8, 1.0, 1.0, 1.3, 1.8, 2.6])
        if book[6] >= 2022:
            pop *= 1.4
        popularity[book[0]] = pop
        n = max(1, min(6, round(rng.gauss(1.2 + pop, 0.8))))
        for _ in range(n):
            branch_id = rng.choices([b[0] for b in branches], weights=weights)[0]
            earliest = max(FIRST_DAY, datetime.date(book[6], 1, 1))
            if earliest > datetime.date(2025, 5, 1):
                earliest = datetime.date(2025, 5, 1)
            if book[6] < 2022 and rng.random() < 0.75:
                acquired = FIRST_DAY - datetime.timedelta(days=2)   # stock migrated at launch
            else:
                acquired = day_between(rng, earliest, datetime.date(2025, 5, 31))
            price = {"Picture Book": (12, 22), "Children's Fiction": (9, 18),
                     "Graphic Novel": (14, 28), "Poetry": (12, 20)}.get(book[3], (15, 34))
            price = round(rng.uniform(*price) - 0.01 * rng.choice([0, 1, 5]), 2)
            copy_id = len(rows) + 1
            barcode = f"3{copy_id * 13 + 1000000:09d}"
            rows.append([copy_id, book[0], branch_id, barcode, iso(acquired), price, None, None])
    return rows, popularity


def make_loans(rng, copies, books, members, popularity):
    by_branch = {}
    for m in members:
        by_branch.setdefault(m[5], []).append(m)
    children = [m for m in members if m[4] == "Child"]
    audience = {b[0]: b[4] for b in books}
    loans = []
    for copy in copies:
        copy_id, book_id, branch_id = copy[0], copy[1], copy[2]
        pop = popularity[book_id]
        day = max(datetime.date.fromisoformat(copy[4]), FIRST_DAY)
        day += datetime.timedelta(days=rng.randint(0, 60))
        status = "Available"
        uses = 0
        while True:
            day += datetime.timedelta(days=int(rng.expovariate(pop / 480.0)))
            if day > TODAY:
                break
            if day.weekday() == 6 and not BRANCHES[branch_id - 1][4]:
                day += datetime.timedelta(days=1)
            if day > TODAY:
                break
            member = None
            for _ in range(12):
                if audience[book_id] == "Children" and rng.random() < 0.6:
                    cand = rng.choice(children)
                elif rng.random() < 0.8:
                    cand = rng.choice(by_branch[branch_id])
                else:
                    cand = rng.choice(members)
                if cand[9] <= iso(day):
                    member = cand
                    break
            if member is None:
                day += datetime.timedelta(days=14)
                continue
            due = day + datetime.timedelta(days=LOAN_DAYS)
            uses += 1
            roll = rng.random()
            if roll < 0.005:
                keep = None                       # never returned: declared lost
            elif roll < 0.009:
                keep = "open"                     # never returned (yet)
            elif roll < 0.13:
                keep = LOAN_DAYS + rng.randint(1, 45)      # late
            else:
                keep = rng.randint(2, LOAN_DAYS)
            loan_id = len(loans) + 1
            if keep is None or keep == "open":
                if keep is None and due + datetime.timedelta(days=30) <= TODAY:
                    loans.append([loan_id, copy_id, member[0], iso(day), iso(due), None, "Lost"])
                    status = "Lost"
                else:
                    loans.append([loan_id, copy_id, member[0], iso(day), iso(due), None,
                                  "Overdue" if due < TODAY else "Active"])
                    status = "On Loan"
                break
            back = day + datetime.timedelta(days=keep)
            if back > TODAY:
                loans.append([loan_id, copy_id, member[0], iso(day), iso(due), None,
                              "Overdue" if due < TODAY else "Active"])
                status = "On Loan"
                break
            loans.append([loan_id, copy_id, member[0], iso(day), iso(due), iso(back), "Returned"])
            day = back + datetime.timedelta(days=rng.randint(0, 3))
        if status == "Available" and rng.random() < 0.02:
            status = "Withdrawn"
        copy[7] = status
        if status == "Lost":
            copy[6] = "Good"
        elif uses > 8 or (status != "Withdrawn" and rng.random() < 0.1):
            copy[6] = "Worn"
        elif status == "Withdrawn":
            copy[6] = "Damaged"
        elif datetime.date.fromisoformat(copy[4]) >= datetime.date(2025, 1, 1) and uses < 2:
            copy[6] = "New"
        else:
            copy[6] = "Good"
    # loan ids in date order, like a real circulation system
    loans.sort(key=lambda l: (l[3], l[1]))
    for i, loan in enumerate(loans, start=1):
        loan[0] = i
    return loans


def make_fines(rng, loans, copies):
    price = {c[0]: c[5] for c in copies}
    rows = []

    def add(loan_id, reason, amount, issued):
        paid = None
        if rng.random() < (0.72 if reason == "Late return" else 0.5):
            paid_day = issued + datetime.timedelta(days=rng.randint(0, 40))
            if paid_day <= TODAY:
                paid = iso(paid_day)
        rows.append((len(rows) + 1, loan_id, reason, round(amount, 2), iso(issued), paid))

    for loan in loans:
        loan_id, copy_id, _, loaned, due, returned, status = loan
        due_day = datetime.date.fromisoformat(due)
        if status == "Returned":
            back = datetime.date.fromisoformat(returned)
            late = (back - due_day).days
            if late > 0:
                add(loan_id, "Late return", min(LATE_FEE_CAP, late * LATE_FEE_PER_DAY), back)
            elif rng.random() < 0.012:
                add(loan_id, "Damaged item", rng.choice([5.0, 7.5, 10.0, 15.0]), back)
        elif status == "Lost":
            add(loan_id, "Lost item", price[copy_id] + 5.00, due_day + datetime.timedelta(days=30))
    return rows


def make_reservations(rng, books, members, popularity, copies):
    held = {}
    for c in copies:
        held.setdefault(c[1], set()).add(c[2])
    book_ids = [b[0] for b in books]
    weights = [popularity[b] ** 2 for b in book_ids]
    rows = []
    while len(rows) < 820:
        book_id = rng.choices(book_ids, weights=weights)[0]
        member = rng.choice(members)
        joined = datetime.date.fromisoformat(member[9])
        placed = day_between(rng, max(FIRST_DAY, joined), TODAY)
        age = (TODAY - placed).days
        if age <= 10:
            status = rng.choice(["Waiting", "Waiting", "Ready"])
        elif age <= 40:
            status = rng.choices(["Waiting", "Ready", "Fulfilled", "Cancelled"],
                                 weights=[3, 2, 4, 1])[0]
        else:
            status = rng.choices(["Fulfilled", "Cancelled", "Expired"], weights=[76, 14, 10])[0]
        fulfilled = None
        if status == "Fulfilled":
            fulfilled = iso(min(TODAY, placed + datetime.timedelta(days=rng.randint(1, 35))))
        pickup = member[5] if rng.random() < 0.85 else rng.choice(sorted(held[book_id]))
        rows.append((len(rows) + 1, book_id, member[0], pickup, iso(placed), status, fulfilled))
    return rows


def make_events(rng, branches, staff, members):
    weights = [b[5] for b in BRANCHES]
    hosts = {}
    for s in staff:
        hosts.setdefault(s[4], []).append(s)
    rows, regs = [], []
    used = set()
    while len(rows) < 140:
        branch_id = rng.choices([b[0] for b in branches], weights=weights)[0]
        category, titles, cap, _, who = rng.choices(EVENT_TYPES, weights=[e[3] for e in EVENT_TYPES])[0]
        day = day_between(rng, datetime.date(2022, 2, 1), datetime.date(2025, 6, 28))
        if not BRANCHES[branch_id - 1][4] and day.weekday() >= 5:
            continue
        if (branch_id, iso(day)) in used:
            continue
        used.add((branch_id, iso(day)))
        if category == "Story Time":
            pool = [s for s in hosts[branch_id] if s[3] == "Youth Services Librarian"]
        elif category == "Technology Class":
            pool = [s for s in hosts[branch_id] if s[3] in ("Library Assistant", "Reference Librarian")]
        else:
            pool = [s for s in hosts[branch_id] if s[3] != "Library Assistant"]
        host = rng.choice(pool)[0] if category != "Author Talk" or rng.random() < 0.6 else None
        start = {"Story Time": ["10:00", "10:30", "18:30"], "Book Club": ["18:00", "19:00"],
                 "Workshop": ["14:00", "18:00"], "Author Talk": ["18:30", "19:00"],
                 "Technology Class": ["10:00", "13:00", "15:00"]}[category]
        capacity = rng.randint(*cap)
        event_id = len(rows) + 1
        rows.append((event_id, branch_id, host, rng.choice(titles), category, iso(day),
                     rng.choice(start), capacity))
        # registrations: members joined before the event, mostly from the branch
        fill = rng.uniform(0.35, 1.0)
        wanted = int(capacity * fill)
        local = [m for m in members if m[9] < iso(day) and
                 (m[5] == branch_id or rng.random() < 0.1)]
        if who == "Child":
            preferred = [m for m in local if m[4] == "Child"]
        elif who == "Senior":
            preferred = [m for m in local if m[4] == "Senior"] + \
                        [m for m in local if m[4] == "Adult"][:5]
        else:
            preferred = [m for m in local if m[4] != "Child"]
        chosen = rng.sample(preferred, min(wanted, len(preferred)))
        for m in chosen:
            earliest = max(datetime.date.fromisoformat(m[9]), day - datetime.timedelta(days=30))
            registered = day_between(rng, earliest, day)
            attended = 1 if rng.random() < 0.78 else 0
            regs.append((len(regs) + 1, event_id, m[0], iso(registered), attended))
    return rows, regs


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "library.sqlite")
    rng = random.Random(SEED)
    branches = make_branches(rng)
    staff = make_staff(rng, branches)
    members = make_members(rng, branches, 1250)
    authors = make_authors(rng, 140)
    books = make_books(rng, authors, 680)
    copies, popularity = make_copies(rng, books, branches)
    loans = make_loans(rng, copies, books, members, popularity)
    fines = make_fines(rng, loans, copies)
    reservations = make_reservations(rng, books, members, popularity, copies)
    events, registrations = make_events(rng, branches, staff, members)

    tables = [("branch", branches), ("staff", staff), ("member", members), ("author", authors),
              ("book", books), ("copy", copies), ("loan", loans), ("fine", fines),
              ("reservation", reservations), ("event", events),
              ("event_registration", registrations)]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
