#!/usr/bin/env python3
"""Generate tickets.sqlite: the database of a small event-ticketing web app, for evaluation.

All rows are synthetic, generated data (no real people, performers, venues or companies);
the names come from the built-in lists below (the venues are placed in real US cities).
Generation is deterministic: a fixed seed and random.Random(SEED) only, so two runs write
the same rows. An existing file at the output path is overwritten.

Naming style, as a Rails or Django app would create it: plural lower_snake_case tables
(venues, events, ticket_types, order_items, ...), every primary key named plain id,
foreign keys named <singular>_id (venue_id, customer_id, referred_by_id), timestamps as
ISO text 'YYYY-MM-DD HH:MM:SS' (created_at, starts_at), booleans as INTEGER 0/1
(is_sold_out, is_vip, is_active) and money as INTEGER cents (price_cents, total_cents).

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_tickets.py [OUTPUT]   (default: tickets.sqlite next to this script)
"""

import bisect
import datetime
import os
import random
import sys

from evaldb import write_database

SEED = 41852077
LAUNCH = datetime.datetime(2023, 1, 9, 9, 0, 0)        # the app went live
SNAPSHOT = datetime.datetime(2025, 6, 30, 23, 59, 59)  # the moment of the snapshot

SCHEMA = """
CREATE TABLE venues (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, address TEXT NOT NULL,
    city TEXT NOT NULL, state TEXT NOT NULL, capacity INTEGER NOT NULL,
    phone TEXT, created_at TEXT NOT NULL);
CREATE TABLE organizers (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, contact_email TEXT NOT NULL,
    phone TEXT, website TEXT, created_at TEXT NOT NULL);
CREATE TABLE performers (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, genre TEXT NOT NULL,
    home_city TEXT, created_at TEXT NOT NULL);
CREATE TABLE events (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE,
    venue_id INTEGER NOT NULL REFERENCES venues(id),
    organizer_id INTEGER NOT NULL REFERENCES organizers(id),
    starts_at TEXT NOT NULL, doors_open_at TEXT, status TEXT NOT NULL,
    is_sold_out INTEGER NOT NULL DEFAULT 0, is_all_ages INTEGER NOT NULL DEFAULT 1,
    description TEXT, created_at TEXT NOT NULL);
CREATE TABLE event_performers (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id),
    performer_id INTEGER NOT NULL REFERENCES performers(id),
    billing_order INTEGER NOT NULL, set_length_minutes INTEGER,
    UNIQUE (event_id, performer_id));
CREATE TABLE ticket_types (
    id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id),
    name TEXT NOT NULL, price_cents INTEGER NOT NULL, quantity INTEGER NOT NULL,
    created_at TEXT NOT NULL, UNIQUE (event_id, name));
CREATE TABLE customers (
    id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, first_name TEXT NOT NULL,
    last_name TEXT NOT NULL, phone TEXT, city TEXT, state TEXT,
    is_vip INTEGER NOT NULL DEFAULT 0,
    referred_by_id INTEGER REFERENCES customers(id),
    marketing_opt_in INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
CREATE TABLE promo_codes (
    id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, percent_off INTEGER NOT NULL,
    starts_on TEXT NOT NULL, ends_on TEXT NOT NULL, is_active INTEGER NOT NULL,
    created_at TEXT NOT NULL);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    promo_code_id INTEGER REFERENCES promo_codes(id), status TEXT NOT NULL,
    subtotal_cents INTEGER NOT NULL, discount_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL, payment_method TEXT, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL);
CREATE TABLE order_items (
    id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
    quantity INTEGER NOT NULL, unit_price_cents INTEGER NOT NULL);
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id),
    amount_cents INTEGER NOT NULL, reason TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE reviews (
    id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    event_id INTEGER NOT NULL REFERENCES events(id), rating INTEGER NOT NULL,
    body TEXT, created_at TEXT NOT NULL, UNIQUE (customer_id, event_id));
CREATE INDEX index_events_on_venue_id ON events (venue_id);
CREATE INDEX index_events_on_organizer_id ON events (organizer_id);
CREATE INDEX index_ticket_types_on_event_id ON ticket_types (event_id);
CREATE INDEX index_orders_on_customer_id ON orders (customer_id);
CREATE INDEX index_order_items_on_order_id ON order_items (order_id);
CREATE INDEX index_reviews_on_event_id ON reviews (event_id);
"""

# city, state, weight (share of venues, customers and events)
CITIES = [
    ("Austin", "TX", 3), ("Nashville", "TN", 3), ("Denver", "CO", 2), ("Portland", "OR", 2),
    ("Chicago", "IL", 3), ("Atlanta", "GA", 2), ("Minneapolis", "MN", 2), ("Seattle", "WA", 2),
    ("New Orleans", "LA", 2), ("Kansas City", "MO", 1), ("Philadelphia", "PA", 2),
    ("San Diego", "CA", 2),
]
VENUE_WORDS = ["Copper", "Juniper", "Lantern", "Foxglove", "Marigold", "Ironwood", "Silverline",
               "Cobalt", "Redbrick", "Willow", "Saltbox", "Granite", "Meridian", "Thistle",
               "Ember", "Canopy", "Driftwood", "Larkspur", "Quarry", "Bramble", "Tin Roof",
               "Old Mill", "Cinder", "Hollow Oak"]
# kind, capacity range, weight
VENUE_KINDS = [("Lounge", (150, 350), 3), ("Music Hall", (600, 1800), 4),
               ("Theater", (800, 2600), 3), ("Ballroom", (900, 2200), 2),
               ("Amphitheater", (4000, 12000), 2), ("Warehouse", (400, 1200), 2),
               ("Pavilion", (2500, 8000), 1)]
STREETS = ["Main Street", "Elm Avenue", "Cherry Street", "Depot Road", "Market Street",
           "River Road", "Commerce Street", "Harbor Drive", "Grand Avenue", "Union Street",
           "Mill Street", "Chestnut Avenue", "Railroad Avenue", "Canal Street"]

ORGANIZER_A = ["Bright Lantern", "Northstar", "Half Moon", "Red Thread", "Open Sky", "Low Tide",
               "Paper Crane", "Long Table", "Golden Hour", "Second Wind", "Blue Heron",
               "Wildflower", "Loud Owl", "Night Shift", "Tall Pines", "Crossroads", "Sunday Best",
               "Ninth Street", "Tin Can", "Little Giant"]
ORGANIZER_B = ["Presents", "Live", "Productions", "Entertainment", "Concerts", "Events",
               "Booking Co.", "Sound Co."]

# genre, weight, price range in dollars (general admission), popularity
GENRES = [("Rock", 14, (25, 55), 1.1), ("Indie", 12, (18, 40), 1.0), ("Pop", 8, (45, 110), 1.4),
          ("Hip-Hop", 9, (35, 90), 1.3), ("Country", 9, (30, 75), 1.1), ("Jazz", 9, (20, 60), 0.8),
          ("Electronic", 8, (25, 65), 1.2), ("Folk", 7, (18, 40), 0.8), ("R&B", 6, (35, 85), 1.1),
          ("Metal", 5, (25, 50), 0.9), ("Classical", 5, (30, 95), 0.7),
          ("Comedy", 8, (20, 55), 1.0)]
BAND_ADJ = ["Velvet", "Paper", "Electric", "Hollow", "Midnight", "Neon", "Lonesome", "Golden",
            "Silver", "Broken", "Crooked", "Wandering", "Quiet", "Savage", "Howling", "Amber",
            "Static", "Lucky", "Copper", "Restless", "Sleepy", "Wild", "Northern", "Blue"]
BAND_NOUN = ["Foxes", "Lanterns", "Pilots", "Tigers", "Owls", "Rivers", "Ghosts", "Sparrows",
             "Machines", "Saints", "Wolves", "Harbors", "Kites", "Echoes", "Coyotes", "Drifters",
             "Violets", "Comets", "Satellites", "Ramblers", "Strangers", "Magpies"]
ENSEMBLE = {"Jazz": ["Trio", "Quartet", "Quintet", "Big Band"],
            "Classical": ["String Quartet", "Chamber Orchestra", "Ensemble", "Piano Trio"],
            "Folk": ["String Band", "Family Band", "Collective"],
            "Country": ["and the Dust Devils", "and the Night Riders", "Band"]}
STAGE_PREFIX = {"Hip-Hop": ["Lil", "Young", "MC", "Big"], "Electronic": ["DJ", "", ""],
                "R&B": ["", ""], "Pop": ["", ""]}
STAGE_WORDS = ["Nova", "Echo", "Blaze", "Rook", "Sable", "Vesper", "Jinx", "Kairo", "Lumen",
               "Onyx", "Pixel", "Quasar", "Rhyme", "Saint", "Tempo", "Voltage", "Zephyr",
               "Cypher", "Halo", "Mirage", "Prism", "Wren", "Juno", "Atlas"]

FIRST_NAMES = [
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Lucas", "Isabella", "Mason",
    "Mia", "Ethan", "Amelia", "Logan", "Harper", "James", "Evelyn", "Aiden", "Abigail", "Caleb",
    "Emily", "Owen", "Ella", "Wyatt", "Grace", "Henry", "Chloe", "Samuel", "Nora", "Julian",
    "Lily", "Isaac", "Hannah", "Gabriel", "Zoe", "Mateo", "Leah", "Daniel", "Aria", "David",
    "Priya", "Ravi", "Mei", "Kenji", "Fatima", "Omar", "Ingrid", "Tomas", "Rosa", "Diego",
    "Aisha", "Yusuf", "Hana", "Arjun", "Marcus", "Tessa", "Desmond", "Camila", "Jamal", "Keiko",
    "Sienna", "Malik", "Freya", "Rafael", "Imani", "Connor", "Lucia", "Darius", "Willa", "Andre",
    "Beatrix", "Callum", "Dalia", "Emeka", "Farah", "Gideon", "Ines", "Joaquin", "Kira", "Leon",
    "Maren", "Nikhil", "Odette", "Pavel", "Rhea", "Soren", "Talia", "Uriel", "Vera", "Xavier",
]
LAST_NAMES = [
    "Anderson", "Bennett", "Carter", "Delgado", "Ellison", "Fischer", "Garcia", "Hughes",
    "Ibarra", "Jensen", "Kowalski", "Lindqvist", "Morales", "Nakamura", "Okafor", "Patel",
    "Quinn", "Ramirez", "Sullivan", "Tanaka", "Underwood", "Vasquez", "Whitaker", "Xu",
    "Yilmaz", "Zimmerman", "Abbott", "Brennan", "Castillo", "Dawson", "Everett", "Fleming",
    "Gallagher", "Holloway", "Iverson", "Jacobs", "Keller", "Lawson", "McAllister", "Novak",
    "Olsen", "Pearson", "Reyes", "Schmidt", "Thornton", "Vance", "Wallace", "Young", "Chen",
    "Singh", "Kim", "Nguyen", "Haddad", "Moreau", "Osei", "Petrov", "Rossi", "Sato", "Baptiste",
    "Mendez", "Lowry", "Fairchild", "Okonkwo", "Brandt", "Acosta", "Bjork", "Cardenas", "Dunbar",
    "Eriksen", "Ferreira", "Grant", "Hale", "Ivanova", "Juarez", "Kaur", "Landry", "Mbeki",
    "Nolan", "Ortega", "Park", "Quintero", "Ruiz", "Stone", "Toivonen", "Ueda", "Voss", "Webb",
]
TOUR_ADJ = ["Neon", "Midnight", "Summer", "Winter", "Electric", "Golden", "Lost", "Endless",
            "Wildfire", "Velvet", "Open Road", "Homecoming", "Afterglow", "Daydream", "Northern",
            "Southern", "Full Moon", "Late Night", "First Light", "Paper Heart", "Stardust",
            "Thunder", "Slow Burn", "Sunset"]
TOUR_NOUN = ["Tour", "Nights", "Sessions", "Revue", "Live", "Showcase", "Weekend", "Jamboree",
             "Spectacular", "Residency", "Get-Together", "Celebration"]
COMEDY_NOUN = ["Stand-Up Hour", "Comedy Night", "Laugh Tour", "Live Taping", "Roast Night"]

# ticket type name, price factor against general admission, share of the allocation
TICKET_TYPES = {"General Admission": (1.0, 1.0), "VIP": (2.6, 0.12), "Balcony": (0.85, 0.3),
                "Floor": (1.3, 0.35), "Early Bird": (0.8, 0.15), "Reserved Seating": (1.4, 0.4),
                "Meet & Greet": (4.0, 0.05)}

# code, percent off, starts on, ends on, relative use
PROMO_CODES = [
    ("WELCOME10", 10, "2023-01-09", "2025-12-31", 6),
    ("SPRING23", 15, "2023-03-01", "2023-05-31", 3),
    ("SUMMER23", 20, "2023-06-01", "2023-08-31", 3),
    ("FALL23", 15, "2023-09-01", "2023-11-30", 2),
    ("HOLIDAY23", 25, "2023-11-20", "2023-12-31", 2),
    ("SPRING24", 15, "2024-03-01", "2024-05-31", 3),
    ("SUMMER24", 20, "2024-06-01", "2024-08-31", 4),
    ("FALL24", 15, "2024-09-01", "2024-11-30", 3),
    ("HOLIDAY24", 25, "2024-11-20", "2024-12-31", 3),
    ("SPRING25", 15, "2025-03-01", "2025-05-31", 3),
    ("SUMMER25", 20, "2025-06-01", "2025-08-31", 3),
    ("STUDENT15", 15, "2023-01-09", "2024-12-31", 4),
    ("FRIENDS5", 5, "2023-01-09", "2025-12-31", 5),
    ("VIPLOVE30", 30, "2024-02-01", "2024-02-29", 1),
    ("LOUDOWL50", 50, "2024-10-01", "2024-10-07", 1),
    ("NEWYEAR25", 25, "2025-01-01", "2025-01-15", 1),
    ("BLACKFRI40", 40, "2024-11-29", "2024-12-02", 2),
    ("STAFFPICK", 35, "2025-07-01", "2025-09-30", 0),
]
PAYMENT_METHODS = [("card", 78), ("apple_pay", 12), ("google_pay", 6), ("paypal", 4)]
REVIEW_BODIES = {
    5: ["Best show I've seen all year.", "Incredible energy from start to finish!",
        "Worth every penny.", "Sound was perfect and the crowd was great.",
        "Absolutely magical night.", "Would go again in a heartbeat."],
    4: ["Great show, lines at the bar were long.", "Really fun night out.",
        "Strong set, venue was a bit warm.", "Loved it, parking was a pain.",
        "Good value for the money."],
    3: ["It was okay.", "Sound mix was muddy in the back.", "Started 40 minutes late.",
        "Fine, but the opener dragged on.", "Decent, nothing special."],
    2: ["Too crowded to enjoy it.", "Short set and poor sound.", "Not worth the ticket price.",
        "The venue staff were rude."],
    1: ["Terrible organization, waited an hour to get in.", "Sound kept cutting out.",
        "Headliner played for 30 minutes. Never again."],
}
REFUND_REASONS = [("Customer request", 6), ("Duplicate order", 1), ("Could not attend", 3)]


def ts(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def moment_between(rng, start, end):
    seconds = int((end - start).total_seconds())
    return start + datetime.timedelta(seconds=rng.randint(0, max(0, seconds)))


def weighted(rng, pairs):
    return rng.choices([p[0] for p in pairs], weights=[p[-1] for p in pairs])[0]


def phone(rng):
    return f"555-{rng.randint(200, 989):03d}-{rng.randint(0, 9999):04d}"


def make_venues(rng):
    rows, names = [], set()
    cities = []
    for city, state, weight in CITIES:
        cities += [(city, state)] * (weight + 1)
    rng.shuffle(cities)
    for city, state in cities:
        while True:
            kind = weighted(rng, VENUE_KINDS)
            name = f"The {rng.choice(VENUE_WORDS)} {kind}"
            if name not in names:
                names.add(name)
                break
        low, high = next(k[1] for k in VENUE_KINDS if k[0] == kind)
        capacity = round(rng.randint(low, high), -1 if high < 3000 else -2)
        address = f"{rng.randint(10, 4800)} {rng.choice(STREETS)}"
        created = moment_between(rng, LAUNCH - datetime.timedelta(days=20), LAUNCH)
        if rng.random() < 0.3:
            created = moment_between(rng, LAUNCH, datetime.datetime(2024, 9, 1))
        rows.append([len(rows) + 1, name, address, city, state, capacity,
                     phone(rng) if rng.random() < 0.85 else None, ts(created)])
    rows.sort(key=lambda r: r[7])
    for i, row in enumerate(rows, start=1):
        row[0] = i
    return rows


def make_organizers(rng, count):
    rows, names = [], set()
    while len(rows) < count:
        name = f"{rng.choice(ORGANIZER_A)} {rng.choice(ORGANIZER_B)}"
        if name in names or name.split(" ")[0] in {n.split(" ")[0] for n in names}:
            continue
        names.add(name)
        slug = "".join(ch for ch in name.lower() if ch.isalnum())
        created = moment_between(rng, LAUNCH - datetime.timedelta(days=10), LAUNCH)
        if rng.random() < 0.35:
            created = moment_between(rng, LAUNCH, datetime.datetime(2024, 6, 1))
        rows.append([0, name, f"booking@{slug}.example", phone(rng) if rng.random() < 0.7 else None,
                     f"https://{slug}.example" if rng.random() < 0.75 else None, ts(created)])
    rows.sort(key=lambda r: r[5])
    for i, row in enumerate(rows, start=1):
        row[0] = i
    return rows


def performer_name(rng, genre):
    roll = rng.random()
    if genre in ENSEMBLE and roll < 0.5:
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} {rng.choice(ENSEMBLE[genre])}"
    if genre == "Comedy" or (genre in ("Folk", "Country", "Jazz", "Classical", "Pop", "R&B")
                             and roll < 0.75):
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
    if genre in STAGE_PREFIX and roll < 0.8:
        return f"{rng.choice(STAGE_PREFIX[genre])} {rng.choice(STAGE_WORDS)}".strip()
    pattern = rng.choice(["The {a} {n}", "The {a} {n}", "{a} {n}", "{n} of {c}"])
    return pattern.format(a=rng.choice(BAND_ADJ), n=rng.choice(BAND_NOUN),
                          c=rng.choice(["Ashford", "the Valley", "Lake Ivory", "the Coast",
                                        "Marlow", "Red Hill"]))


def make_performers(rng, count):
    rows, names, popularity = [], set(), {}
    while len(rows) < count:
        genre = weighted(rng, [(g[0], g[1]) for g in GENRES])
        name = performer_name(rng, genre)
        if name in names:
            continue
        names.add(name)
        home = None
        if rng.random() < 0.8:
            home = rng.choice(CITIES)[0] if rng.random() < 0.7 else rng.choice(
                ["Los Angeles", "Brooklyn", "Detroit", "Memphis", "Omaha", "Tulsa", "Boise"])
        created = moment_between(rng, LAUNCH - datetime.timedelta(days=5),
                                 LAUNCH + datetime.timedelta(days=30))
        if rng.random() < 0.4:
            created = moment_between(rng, LAUNCH, datetime.datetime(2025, 3, 1))
        performer_id = len(rows) + 1
        rows.append([performer_id, name, genre, home, ts(created)])
        genre_pop = next(g[3] for g in GENRES if g[0] == genre)
        popularity[performer_id] = genre_pop * rng.choice([0.5, 0.7, 0.9, 1.0, 1.2, 1.5, 2.0])
    return rows, popularity


def event_title(rng, headliner, genre, used):
    for _ in range(200):
        if genre == "Comedy":
            tail = rng.choice(COMEDY_NOUN)
            if rng.random() < 0.5:
                tail = f"{rng.choice(TOUR_ADJ)} {tail}"
        else:
            tail = f"{rng.choice(TOUR_ADJ)} {rng.choice(TOUR_NOUN)}"
        title = f"{headliner}: {tail}"
        if title not in used:
            used.add(title)
            return title
    raise RuntimeError("no free title")


def renumber(parents, key, children):
    """Sorts `parents` by `key` and gives them ids 1, 2, … in that order (column 0), as the web
    app would have assigned them; the rows of `children` that refer to a parent in column 1
    follow it to its new id."""
    parents.sort(key=key)
    new_id = {row[0]: i for i, row in enumerate(parents, start=1)}
    for row in parents:
        row[0] = new_id[row[0]]
    for rows in children:
        for row in rows:
            row[1] = new_id[row[1]]


def make_events(rng, venues, organizers, performers, popularity, count):
    venue_weights = [next(c[2] for c in CITIES if c[0] == v[3]) for v in venues]
    by_genre = {}
    for p in performers:
        by_genre.setdefault(p[2], []).append(p)
    org_weights = [rng.choice([1, 1, 2, 2, 3, 5]) for _ in organizers]
    events, lineup, ticket_types = [], [], []
    titles = set()
    first_start = datetime.datetime(2023, 2, 1)
    last_start = datetime.datetime(2025, 12, 20)
    while len(events) < count:
        day = moment_between(rng, first_start, last_start).date()
        if day.weekday() in (0, 1) and rng.random() < 0.7:
            continue                                        # few shows early in the week
        if day.weekday() < 5:
            hour = rng.choice([19, 19, 20, 20, 20, 21])
        else:
            hour = rng.choice([18, 19, 20, 21])
        minute = rng.choice([0, 0, 0, 30])
        starts = datetime.datetime(day.year, day.month, day.day, hour, minute)
        announced = starts - datetime.timedelta(days=rng.randint(35, 150), hours=rng.randint(0, 9))
        announced = max(announced, LAUNCH + datetime.timedelta(days=rng.randint(0, 20), hours=3))
        if announced >= starts - datetime.timedelta(days=10) or announced > SNAPSHOT:
            continue
        stamp = ts(announced)
        # only venues, organizers and performers already on the app can be booked
        open_venues = [(v, w) for v, w in zip(venues, venue_weights) if v[7] <= stamp]
        open_orgs = [(o, w) for o, w in zip(organizers, org_weights) if o[5] <= stamp]
        acts = [p for p in performers if p[4] <= stamp]
        if not open_venues or not open_orgs or not acts:
            continue
        venue = rng.choices([v for v, _ in open_venues], weights=[w for _, w in open_venues])[0]
        organizer = rng.choices([o for o, _ in open_orgs], weights=[w for _, w in open_orgs])[0]
        headliner = rng.choices(acts, weights=[popularity[p[0]] ** 0.5 for p in acts])[0]
        genre = headliner[2]
        event_id = len(events) + 1
        title = event_title(rng, headliner[1], genre, titles)
        cancelled = rng.random() < 0.045
        if starts <= SNAPSHOT:
            status = "cancelled" if cancelled else "completed"
        else:
            status = "cancelled" if cancelled and rng.random() < 0.5 else "scheduled"
        doors = ts(starts - datetime.timedelta(minutes=rng.choice([30, 60, 60, 90])))
        if rng.random() < 0.15:
            doors = None
        all_ages = 0
        if genre in ("Classical", "Folk", "Jazz", "Country") or rng.random() < 0.35:
            all_ages = 1
        if genre == "Comedy":
            all_ages = 0
        description = None
        if rng.random() < 0.6:
            description = rng.choice([
                f"An evening with {headliner[1]}.", f"{headliner[1]} live at {venue[1]}.",
                f"{genre} night at {venue[1]}.", f"{headliner[1]} returns to {venue[3]}."])
        events.append([event_id, title, venue[0], organizer[0], ts(starts), doors, status, 0,
                       all_ages, description, ts(announced)])
        # line-up: headliner plus 0-2 support acts of a similar genre
        lineup.append([0, event_id, headliner[0], 1, rng.choice([60, 75, 90, 90, 105, 120])])
        support_pool = [p for p in by_genre[genre] if p[0] != headliner[0] and p[4] <= stamp]
        n_support = rng.choices([0, 1, 2], weights=[3, 5, 2])[0]
        if genre in ("Classical",):
            n_support = min(n_support, 1)
        for order, act in enumerate(rng.sample(support_pool, min(n_support, len(support_pool))), 2):
            lineup.append([0, event_id, act[0], order,
                           rng.choice([None, 30, 30, 40, 45]) if genre != "Comedy" else 20])
        # ticket types: the platform's allocation, well under the venue's capacity
        low, high = next(g[2] for g in GENRES if g[0] == genre)
        base = rng.randint(low, high) * 100 + rng.choice([0, 0, 0, 50, 99])
        if venue[5] >= 4000:
            base += 1500
        allocation = max(16, min(int(venue[5] * rng.uniform(0.025, 0.07)), 240))
        names = ["General Admission"]
        if venue[5] >= 800 and rng.random() < 0.55:
            names.append(rng.choice(["Balcony", "Reserved Seating", "Floor"]))
        if rng.random() < 0.4:
            names.append("VIP")
        if rng.random() < 0.2:
            names.append("Early Bird")
        if genre in ("Pop", "Hip-Hop", "R&B", "Country") and rng.random() < 0.15:
            names.append("Meet & Greet")
        for name in names:
            factor, share = TICKET_TYPES[name]
            price = int(round(base * factor / 100.0)) * 100 - (1 if base % 100 == 99 else 0)
            if name == "General Admission":
                share = 1.0 - sum(TICKET_TYPES[n][1] for n in names if n != name) * 0.6
            quantity = max(4, int(allocation * share * rng.uniform(0.8, 1.2)))
            if name in ("VIP", "Meet & Greet"):
                quantity = max(4, round(quantity / 2) * 2)
            ticket_types.append([0, event_id, name, price, quantity, ts(announced)])
    renumber(events, key=lambda e: (e[10], e[0]), children=(lineup, ticket_types))
    for rows in (lineup, ticket_types):
        rows.sort(key=lambda r: (r[1], r[3] if rows is lineup else 0))
        for i, r in enumerate(rows, start=1):
            r[0] = i
    return events, lineup, ticket_types


def make_customers(rng, count):
    rows, emails = [], set()
    signups = sorted(moment_between(rng, LAUNCH, datetime.datetime(2025, 6, 29, 22))
                     for _ in range(count))
    # more sign-ups early on (the launch campaign) than a uniform spread gives
    signups = sorted(s if rng.random() < 0.75 else moment_between(
        rng, LAUNCH, LAUNCH + datetime.timedelta(days=120)) for s in signups)
    for customer_id, created in enumerate(signups, start=1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        while True:
            style = rng.random()
            domain = rng.choice(["example.com", "example.net", "example.org", "mail.example"])
            if style < 0.5:
                local = f"{first}.{last}"
            elif style < 0.8:
                local = f"{first[0]}{last}{rng.randint(1, 99)}"
            else:
                local = f"{first}{rng.randint(1970, 2006)}"
            email = f"{local}@{domain}".lower()
            if email not in emails:
                emails.add(email)
                break
        city = state = None
        if rng.random() < 0.9:
            if rng.random() < 0.9:
                city, state, _ = rng.choices(CITIES, weights=[c[2] for c in CITIES])[0]
            else:
                city, state = rng.choice([("Boulder", "CO"), ("Round Rock", "TX"),
                                          ("Evanston", "IL"), ("Franklin", "TN"),
                                          ("Tacoma", "WA"), ("Decatur", "GA")])
        referred = None
        if customer_id > 40 and rng.random() < 0.18:
            referred = rng.randint(1, customer_id - 1)
        rows.append([customer_id, email, first, last, phone(rng) if rng.random() < 0.62 else None,
                     city, state, 0, referred, 1 if rng.random() < 0.45 else 0, ts(created)])
    return rows


def make_promo_codes(rng):
    rows = []
    for i, (code, pct, start, end, _) in enumerate(PROMO_CODES, start=1):
        created = datetime.datetime.fromisoformat(start) - datetime.timedelta(
            days=rng.randint(3, 20), hours=rng.randint(0, 8))
        created = max(created, LAUNCH - datetime.timedelta(days=2))
        active = 1 if end >= "2025-06-30" else 0
        rows.append([i, code, pct, start, end, active, ts(created)])
    return rows


def make_orders(rng, events, ticket_types, customers, promo_rows, popularity, lineup):
    headliner = {l[1]: l[2] for l in lineup if l[3] == 1}
    types_by_event = {}
    for t in ticket_types:
        types_by_event.setdefault(t[1], []).append(t)
    signup_times = [datetime.datetime.fromisoformat(c[10]) for c in customers]
    promo_weights = {p[0]: PROMO_CODES[p[0] - 1][4] for p in promo_rows}
    # a customer's appetite: a few heavy buyers, many one-off buyers
    appetite = [rng.choice([0.3, 0.5, 1, 1, 1, 2, 3, 6]) for _ in customers]
    cum = []
    orders, items, refunds = [], [], []
    for event in events:
        event_id, starts, status = event[0], datetime.datetime.fromisoformat(event[4]), event[6]
        announced = datetime.datetime.fromisoformat(event[10])
        types = types_by_event[event_id]
        left = {t[0]: t[4] for t in types}
        pop = popularity[headliner[event_id]]
        fill = min(1.1, rng.uniform(0.2, 0.85) * pop ** 0.7)
        total_tickets = sum(left.values())
        wanted = int(total_tickets * fill)
        sale_end = min(starts - datetime.timedelta(hours=2), SNAPSHOT)
        cancelled_at = None
        if status == "cancelled":
            cancelled_at = moment_between(rng, announced + (sale_end - announced) * 0.5, sale_end)
            sale_end = cancelled_at
        if starts > SNAPSHOT:
            # sales so far of an upcoming show: a share that grows as the show gets near
            done = (SNAPSHOT - announced) / (starts - datetime.timedelta(hours=2) - announced)
            wanted = int(wanted * max(0.0, min(1.0, done)) ** 0.8)
        sold = 0
        tries = 0
        while sold < wanted and tries < 400:
            tries += 1
            # buying comes in a rush after the announcement and just before the show
            u = rng.random()
            frac = u ** 2.2 if rng.random() < 0.5 else 1 - u ** 3
            created = announced + (sale_end - announced) * frac
            created = created.replace(microsecond=0)
            if created > sale_end:
                continue
            limit = bisect.bisect_right(signup_times, created)
            if limit < 1:
                continue
            if rng.random() < 0.3 and limit > 1:
                customer_index = rng.randrange(limit)
            else:
                customer_index = pick_customer(rng, appetite, limit, cum)
            customer = customers[customer_index]
            avail = [t for t in types if left[t[0]] > 0]
            if not avail:
                break
            lines = []
            first = rng.choices(avail, weights=[t[4] for t in avail])[0]
            qty = rng.choices([1, 2, 3, 4, 5, 6], weights=[22, 46, 10, 15, 3, 4])[0]
            if first[2] in ("VIP", "Meet & Greet"):
                qty = min(qty, 2)
            qty = min(qty, left[first[0]])
            lines.append((first, qty))
            others = [t for t in avail if t[0] != first[0]]
            if others and rng.random() < 0.1:
                second = rng.choice(others)
                lines.append((second, min(rng.choice([1, 2]), left[second[0]])))
            promo = None
            if rng.random() < 0.14:
                day = created.date().isoformat()
                valid = [p for p in promo_rows if p[3] <= day <= p[4] and promo_weights[p[0]] > 0
                         and p[6] <= ts(created)]
                if valid:
                    promo = rng.choices(valid, weights=[promo_weights[p[0]] for p in valid])[0]
            subtotal = sum(t[3] * q for t, q in lines)
            discount = int(round(subtotal * promo[2] / 100.0)) if promo else 0
            order_status = "paid"
            updated = created + datetime.timedelta(seconds=rng.randint(20, 400))
            refund = None
            if status == "cancelled":
                order_status = "refunded"
                refund = ("Event cancelled", cancelled_at + datetime.timedelta(
                    hours=rng.randint(1, 72), minutes=rng.randint(0, 59)))
            elif SNAPSHOT - created < datetime.timedelta(days=4) and rng.random() < 0.35:
                order_status = "pending"
                updated = created
            elif rng.random() < 0.012:
                order_status = "pending"                     # abandoned at checkout
                updated = created
            elif rng.random() < 0.035:
                back = created + datetime.timedelta(days=rng.randint(1, 20),
                                                    hours=rng.randint(0, 23))
                back = min(back, starts - datetime.timedelta(hours=3))
                if back > created and back <= SNAPSHOT:
                    order_status = "refunded"
                    refund = (weighted(rng, REFUND_REASONS), back)
            if refund:
                updated = refund[1]
            order_id = len(orders) + 1
            payment = weighted(rng, PAYMENT_METHODS) if order_status != "pending" else None
            orders.append([order_id, customer[0], promo[0] if promo else None, order_status,
                           subtotal, discount, subtotal - discount, payment, ts(created),
                           ts(updated)])
            for t, q in lines:
                items.append([0, order_id, t[0], q, t[3]])
                if order_status != "refunded" or status == "cancelled":
                    left[t[0]] -= q
                sold += q
            if refund:
                refunds.append([0, order_id, subtotal - discount, refund[0], ts(refund[1])])
        remaining = sum(left.values())
        if remaining == 0 and status != "cancelled":
            event[7] = 1
    # ids in time order, like the web app would have assigned them
    renumber(orders, key=lambda o: (o[8], o[0]), children=(items, refunds))
    items.sort(key=lambda r: r[1])
    refunds.sort(key=lambda r: (r[4], r[1]))
    for rows in (items, refunds):
        for i, r in enumerate(rows, start=1):
            r[0] = i
    return orders, items, refunds


def pick_customer(rng, appetite, limit, cum):
    """Weighted choice among the first `limit` customers (prefix sums kept in cum)."""
    while len(cum) < len(appetite):
        cum.append((cum[-1] if cum else 0) + appetite[len(cum)])
    x = rng.random() * cum[limit - 1]
    return min(bisect.bisect_right(cum, x, 0, limit), limit - 1)


def make_reviews(rng, events, orders, items, ticket_types):
    event_of_type = {t[0]: t[1] for t in ticket_types}
    info = {e[0]: e for e in events}
    paid_by = {o[0]: o[1] for o in orders if o[3] == "paid"}
    attendees = {}
    for item in items:
        if item[1] in paid_by:
            attendees.setdefault(event_of_type[item[2]], []).append(paid_by[item[1]])
    quality = {e[0]: rng.choice([2.6, 3.4, 3.8, 4.1, 4.1, 4.4, 4.6]) for e in events}
    rows = []
    for event_id in sorted(attendees):
        event = info[event_id]
        if event[6] != "completed":
            continue
        starts = datetime.datetime.fromisoformat(event[4])
        for customer_id in sorted(set(attendees[event_id])):
            if rng.random() > 0.2:
                continue
            created = starts + datetime.timedelta(hours=rng.randint(3, 24 * 14))
            if created > SNAPSHOT:
                continue
            rating = max(1, min(5, round(rng.gauss(quality[event_id], 0.9))))
            body = rng.choice(REVIEW_BODIES[rating]) if rng.random() < 0.58 else None
            rows.append([0, customer_id, event_id, rating, body, ts(created)])
    rows.sort(key=lambda r: (r[5], r[1]))
    for i, r in enumerate(rows, start=1):
        r[0] = i
    return rows


def mark_vips(rng, customers, orders):
    spent = {}
    for order in orders:
        if order[3] == "paid":
            spent[order[1]] = spent.get(order[1], 0) + order[6]
    for customer in customers:
        total = spent.get(customer[0], 0)
        if total >= 150000 or (total >= 60000 and rng.random() < 0.3) or rng.random() < 0.01:
            customer[7] = 1


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "tickets.sqlite")
    rng = random.Random(SEED)
    venues = make_venues(rng)
    organizers = make_organizers(rng, 18)
    performers, popularity = make_performers(rng, 140)
    events, lineup, ticket_types = make_events(rng, venues, organizers, performers, popularity, 330)
    customers = make_customers(rng, 2300)
    promo_codes = make_promo_codes(rng)
    orders, items, refunds = make_orders(rng, events, ticket_types, customers, promo_codes,
                                         popularity, lineup)
    reviews = make_reviews(rng, events, orders, items, ticket_types)
    mark_vips(rng, customers, orders)

    tables = [("venues", venues), ("organizers", organizers), ("performers", performers),
              ("events", events), ("event_performers", lineup), ("ticket_types", ticket_types),
              ("customers", customers), ("promo_codes", promo_codes), ("orders", orders),
              ("order_items", items), ("refunds", refunds), ("reviews", reviews)]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
