#!/usr/bin/env python3
"""Generate rentals.sqlite, a held-out evaluation database for natural-language-to-SQL.

rentals.sqlite is the backend database of the web app of Tallgrass Property Management, a
made-up company that rents out apartments in 18 buildings in four real US cities (Austin,
Denver, Raleigh, Minneapolis). It holds the buildings and their amenities, the units, the
tenants, their rental applications and leases, the rent invoices and payments, and the
maintenance requests with the technicians who work on them.

Naming style: the one Django creates. Table names are `<app>_<model>` in lower case
(`properties_building`, `leasing_lease`, `billing_invoice`, ...), with the many-to-many
table `properties_building_amenities`. Every primary key is a plain `id`, foreign keys are
`<field>_id` where the field is not always named after the target model (`manager_id` and
`owner_id` point to `accounts_user`, `assigned_to_id` to `maintenance_technician`,
`reported_by_id` and `co_signer_id` to `leasing_tenant`). Columns are snake_case,
timestamps are ISO text 'YYYY-MM-DD HH:MM:SS', dates 'YYYY-MM-DD', booleans INTEGER 0/1,
choice fields lower-case codes, and money columns are declared `decimal` as Django
declares a DecimalField (2 decimals). SQLite gives them NUMERIC affinity, as in a real
Django database: amounts with cents are stored as REAL, whole-dollar amounts as INTEGER.

The history runs from the app's launch in January 2022 (some imported leases started in
2021) to the snapshot at the end of 2025-06-30.

All of it is synthetic: no real people, buildings or companies are in it. The names come
from built-in lists; the cities are real, the street addresses are made up and email
addresses use reserved `example` domains. The generator is deterministic (fixed SEED,
random.Random(SEED) only), so every run writes the same rows.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_rentals.py [OUTPUT.sqlite]   (default: rentals.sqlite next to this script)
"""

import datetime as dt
import heapq
import os
import random
import sys

from evaldb import write_database

SEED = 58203917
APP_LIVE = dt.date(2022, 1, 3)
SNAPSHOT = dt.date(2025, 6, 30)

SCHEMA = """
CREATE TABLE accounts_user (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    username varchar(150) NOT NULL UNIQUE,
    first_name varchar(150) NOT NULL,
    last_name varchar(150) NOT NULL,
    email varchar(254) NOT NULL,
    role varchar(20) NOT NULL,
    phone varchar(20) NULL,
    is_staff bool NOT NULL,
    is_active bool NOT NULL,
    date_joined datetime NOT NULL,
    last_login datetime NULL
);
CREATE TABLE properties_amenity (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    name varchar(80) NOT NULL UNIQUE,
    category varchar(20) NOT NULL
);
CREATE TABLE properties_building (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    name varchar(120) NOT NULL,
    street_address varchar(200) NOT NULL,
    city varchar(80) NOT NULL,
    state varchar(2) NOT NULL,
    zip_code varchar(10) NOT NULL,
    year_built integer NOT NULL,
    floors integer NOT NULL,
    manager_id bigint NULL REFERENCES accounts_user (id) DEFERRABLE INITIALLY DEFERRED,
    owner_id bigint NOT NULL REFERENCES accounts_user (id) DEFERRABLE INITIALLY DEFERRED,
    created_at datetime NOT NULL
);
CREATE INDEX properties_building_manager_id_5c1e0f7a ON properties_building (manager_id);
CREATE INDEX properties_building_owner_id_9b2d44e1 ON properties_building (owner_id);
CREATE TABLE properties_building_amenities (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    building_id bigint NOT NULL REFERENCES properties_building (id) DEFERRABLE INITIALLY DEFERRED,
    amenity_id bigint NOT NULL REFERENCES properties_amenity (id) DEFERRABLE INITIALLY DEFERRED
);
CREATE UNIQUE INDEX properties_building_amenities_building_id_amenity_id_3f8a2c1b_uniq
    ON properties_building_amenities (building_id, amenity_id);
CREATE INDEX properties_building_amenities_building_id_0d4e7b12 ON properties_building_amenities (building_id);
CREATE INDEX properties_building_amenities_amenity_id_a17c9e03 ON properties_building_amenities (amenity_id);
CREATE TABLE properties_unit (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    building_id bigint NOT NULL REFERENCES properties_building (id) DEFERRABLE INITIALLY DEFERRED,
    unit_number varchar(10) NOT NULL,
    floor integer NOT NULL,
    bedrooms integer NOT NULL,
    bathrooms decimal NOT NULL,
    square_feet integer NOT NULL,
    monthly_rent decimal NOT NULL,
    is_furnished bool NOT NULL,
    pets_allowed bool NOT NULL
);
CREATE UNIQUE INDEX properties_unit_building_id_unit_number_6e0b3d55_uniq
    ON properties_unit (building_id, unit_number);
CREATE INDEX properties_unit_building_id_2a9f61c4 ON properties_unit (building_id);
CREATE TABLE leasing_tenant (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    first_name varchar(100) NOT NULL,
    last_name varchar(100) NOT NULL,
    email varchar(254) NOT NULL UNIQUE,
    phone varchar(20) NULL,
    preferred_contact varchar(10) NOT NULL,
    created_at datetime NOT NULL
);
CREATE TABLE leasing_application (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    tenant_id bigint NOT NULL REFERENCES leasing_tenant (id) DEFERRABLE INITIALLY DEFERRED,
    unit_id bigint NOT NULL REFERENCES properties_unit (id) DEFERRABLE INITIALLY DEFERRED,
    status varchar(20) NOT NULL,
    annual_income decimal NOT NULL,
    credit_score integer NULL,
    desired_move_in date NOT NULL,
    submitted_at datetime NOT NULL,
    reviewed_by_id bigint NULL REFERENCES accounts_user (id) DEFERRABLE INITIALLY DEFERRED,
    reviewed_at datetime NULL
);
CREATE INDEX leasing_application_tenant_id_4b7d2e90 ON leasing_application (tenant_id);
CREATE INDEX leasing_application_unit_id_c3a81f26 ON leasing_application (unit_id);
CREATE INDEX leasing_application_reviewed_by_id_7f02b9d8 ON leasing_application (reviewed_by_id);
CREATE TABLE leasing_lease (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    unit_id bigint NOT NULL REFERENCES properties_unit (id) DEFERRABLE INITIALLY DEFERRED,
    tenant_id bigint NOT NULL REFERENCES leasing_tenant (id) DEFERRABLE INITIALLY DEFERRED,
    co_signer_id bigint NULL REFERENCES leasing_tenant (id) DEFERRABLE INITIALLY DEFERRED,
    start_date date NOT NULL,
    end_date date NULL,
    monthly_rent decimal NOT NULL,
    deposit decimal NOT NULL,
    status varchar(20) NOT NULL,
    created_at datetime NOT NULL
);
CREATE INDEX leasing_lease_unit_id_8d5c0a3e ON leasing_lease (unit_id);
CREATE INDEX leasing_lease_tenant_id_1e6f4b77 ON leasing_lease (tenant_id);
CREATE INDEX leasing_lease_co_signer_id_b90d2c61 ON leasing_lease (co_signer_id);
CREATE TABLE billing_invoice (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    lease_id bigint NOT NULL REFERENCES leasing_lease (id) DEFERRABLE INITIALLY DEFERRED,
    kind varchar(20) NOT NULL,
    amount decimal NOT NULL,
    due_date date NOT NULL,
    status varchar(20) NOT NULL,
    created_at datetime NOT NULL
);
CREATE INDEX billing_invoice_lease_id_5a3e8c20 ON billing_invoice (lease_id);
CREATE TABLE billing_payment (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    invoice_id bigint NOT NULL REFERENCES billing_invoice (id) DEFERRABLE INITIALLY DEFERRED,
    amount decimal NOT NULL,
    paid_on date NOT NULL,
    method varchar(10) NOT NULL,
    reference varchar(40) NULL,
    created_at datetime NOT NULL
);
CREATE INDEX billing_payment_invoice_id_e24b7f19 ON billing_payment (invoice_id);
CREATE TABLE maintenance_technician (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    first_name varchar(100) NOT NULL,
    last_name varchar(100) NOT NULL,
    email varchar(254) NOT NULL,
    phone varchar(20) NOT NULL,
    specialty varchar(20) NOT NULL,
    hourly_rate decimal NOT NULL,
    hired_on date NOT NULL,
    is_active bool NOT NULL
);
CREATE TABLE maintenance_request (
    id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    unit_id bigint NOT NULL REFERENCES properties_unit (id) DEFERRABLE INITIALLY DEFERRED,
    reported_by_id bigint NULL REFERENCES leasing_tenant (id) DEFERRABLE INITIALLY DEFERRED,
    assigned_to_id bigint NULL REFERENCES maintenance_technician (id) DEFERRABLE INITIALLY DEFERRED,
    category varchar(20) NOT NULL,
    priority varchar(10) NOT NULL,
    status varchar(20) NOT NULL,
    title varchar(200) NOT NULL,
    created_at datetime NOT NULL,
    closed_at datetime NULL,
    cost decimal NULL
);
CREATE INDEX maintenance_request_unit_id_0b8e5d31 ON maintenance_request (unit_id);
CREATE INDEX maintenance_request_reported_by_id_66a2f0c9 ON maintenance_request (reported_by_id);
CREATE INDEX maintenance_request_assigned_to_id_d1c47a85 ON maintenance_request (assigned_to_id);
"""

FIRST_NAMES = [
    "Aaliyah", "Aaron", "Abigail", "Adrian", "Aiden", "Alejandro", "Alexis", "Amara", "Andre",
    "Angela", "Anika", "Arjun", "Ava", "Benjamin", "Bianca", "Brandon", "Brianna", "Caleb",
    "Camila", "Carmen", "Carter", "Chloe", "Christopher", "Dakota", "Daniel", "Deja", "Derek",
    "Diana", "Dylan", "Elena", "Elijah", "Emily", "Erin", "Ethan", "Fatima", "Gabriel", "Grace",
    "Hannah", "Hector", "Imani", "Isaac", "Isabella", "Jacob", "Jada", "Jamal", "Jasmine",
    "Jordan", "Joseph", "Julia", "Kayla", "Kevin", "Kiara", "Landon", "Lauren", "Leah", "Logan",
    "Lucas", "Luis", "Madison", "Malik", "Maria", "Marcus", "Maya", "Mei", "Mia", "Nathan",
    "Nia", "Noah", "Olivia", "Omar", "Owen", "Priya", "Rachel", "Rafael", "Riley", "Rosa",
    "Ryan", "Samantha", "Samuel", "Sara", "Sofia", "Tariq", "Taylor", "Trevor", "Tyler",
    "Valeria", "Victor", "Wei", "Xavier", "Yasmin", "Zoe",
]
LAST_NAMES = [
    "Abbott", "Acosta", "Alvarez", "Anderson", "Banerjee", "Barnes", "Bell", "Bishop", "Brooks",
    "Bryant", "Caldwell", "Castillo", "Chen", "Coleman", "Cruz", "Dawson", "Delgado", "Diaz",
    "Dixon", "Duong", "Ellis", "Espinoza", "Fischer", "Fleming", "Foster", "Garcia", "Gibson",
    "Gomez", "Graham", "Gupta", "Hansen", "Harper", "Hayes", "Henderson", "Hoang", "Holland",
    "Hughes", "Ibrahim", "Jensen", "Johnson", "Kang", "Keller", "Khan", "Kim", "Larsen", "Le",
    "Lindqvist", "Lopez", "Malone", "Mendoza", "Meyer", "Mitchell", "Morales", "Murphy",
    "Nakamura", "Nelson", "Nguyen", "Novak", "Okafor", "Olson", "Ortiz", "Owens", "Park",
    "Patel", "Pearson", "Perez", "Porter", "Quinn", "Ramirez", "Reyes", "Rivera", "Robinson",
    "Russo", "Santos", "Schmidt", "Shah", "Silva", "Sullivan", "Tanaka", "Thompson", "Torres",
    "Tran", "Turner", "Vargas", "Vasquez", "Wagner", "Walsh", "Washington", "Webb", "Wright",
    "Yilmaz", "Young", "Zhang",
]
# Staff and technicians get names from their own lists, so no staff member shares a name
# with a tenant.
STAFF = [
    # (first, last, role, joined, is_active)
    ("Gordon", "Whitfield", "owner", dt.date(2021, 12, 6), 1),
    ("Lorraine", "Achebe", "owner", dt.date(2021, 12, 6), 1),
    ("Harold", "Brennan", "owner", dt.date(2021, 12, 13), 1),
    ("Beatrice", "Kowalczyk", "owner", dt.date(2022, 9, 1), 1),
    ("Desmond", "Farrow", "owner", dt.date(2023, 5, 22), 1),
    ("Marguerite", "Osei", "manager", dt.date(2021, 12, 6), 1),
    ("Theodore", "Lindgren", "manager", dt.date(2021, 12, 6), 1),
    ("Priscilla", "Vance", "manager", dt.date(2021, 12, 13), 0),
    ("Roderick", "Amadi", "manager", dt.date(2022, 4, 18), 1),
    ("Genevieve", "Castellanos", "manager", dt.date(2023, 1, 9), 1),
    ("Ignatius", "Moreau", "manager", dt.date(2024, 2, 26), 1),
    ("Winifred", "Dunleavy", "manager", dt.date(2025, 6, 2), 1),
    ("Cornelius", "Radcliffe", "leasing_agent", dt.date(2021, 12, 13), 1),
    ("Philippa", "Nwosu", "leasing_agent", dt.date(2021, 12, 13), 0),
    ("Bartholomew", "Sato", "leasing_agent", dt.date(2022, 6, 6), 1),
    ("Octavia", "Lindahl", "leasing_agent", dt.date(2023, 3, 13), 1),
    ("Leopold", "Mbeki", "leasing_agent", dt.date(2024, 1, 8), 1),
    ("Rosalind", "Pemberton", "accountant", dt.date(2021, 12, 6), 1),
    ("Augustin", "Halvorsen", "accountant", dt.date(2023, 8, 14), 1),
    ("Evangeline", "Thorne", "admin", dt.date(2021, 11, 29), 1),
]
# last working day of the staff who left (their accounts are inactive)
STAFF_LEFT = {"Priscilla Vance": dt.date(2023, 3, 31), "Philippa Nwosu": dt.date(2023, 2, 28)}

TECHNICIANS = [
    # (first, last, specialty, hourly_rate, hired_on, is_active)
    ("Rufus", "Carrington", "plumbing", 62.00, dt.date(2021, 12, 6), 1),
    ("Delphine", "Ashby", "plumbing", 58.50, dt.date(2022, 8, 15), 1),
    ("Mortimer", "Quist", "electrical", 68.00, dt.date(2021, 12, 6), 1),
    ("Ingrid", "Solberg", "electrical", 64.00, dt.date(2023, 4, 3), 1),
    ("Cyrus", "Blackwood", "hvac", 71.25, dt.date(2021, 12, 13), 1),
    ("Fenella", "Marsh", "hvac", 66.00, dt.date(2022, 3, 7), 0),
    ("Ambrose", "Tillman", "hvac", 69.00, dt.date(2024, 1, 15), 1),
    ("Wilhelmina", "Crane", "appliance", 55.00, dt.date(2022, 1, 10), 1),
    ("Barnaby", "Oduya", "general", 45.00, dt.date(2021, 12, 6), 1),
    ("Clementine", "Rourke", "general", 47.50, dt.date(2022, 5, 2), 1),
    ("Thaddeus", "Yamada", "general", 48.00, dt.date(2023, 9, 11), 1),
    ("Ottilie", "Varga", "general", 44.00, dt.date(2022, 2, 14), 0),
    ("Lysander", "Pike", "electrical", 66.50, dt.date(2025, 6, 23), 1),
]
TECH_LEFT = {"Fenella Marsh": dt.date(2024, 5, 31), "Ottilie Varga": dt.date(2023, 10, 31)}

AMENITIES = [
    ("Fitness Center", "fitness"), ("Swimming Pool", "fitness"), ("Sauna", "fitness"),
    ("Rooftop Deck", "outdoor"), ("Dog Park", "outdoor"), ("Courtyard Grills", "outdoor"),
    ("Playground", "outdoor"), ("Package Lockers", "convenience"),
    ("On-site Laundry", "convenience"), ("Elevator", "convenience"),
    ("Business Center", "convenience"), ("Concierge", "convenience"),
    ("Bike Storage", "parking"), ("Covered Parking", "parking"), ("EV Charging", "parking"),
    ("Controlled Access", "security"),
]
UNUSED_AMENITIES = ["Sauna", "Concierge", "Playground"]

CITIES = {
    "Austin": ("TX", ["78701", "78702", "78704", "78705", "78751"], 1400),
    "Denver": ("CO", ["80202", "80203", "80205", "80206", "80211"], 1500),
    "Raleigh": ("NC", ["27601", "27603", "27605", "27608"], 1200),
    "Minneapolis": ("MN", ["55401", "55403", "55405", "55408", "55414"], 1250),
}
BUILDINGS = [
    # (name, city, street, year_built, floors, units, onboarded)
    ("The Alder", "Austin", "1408 Alder Ridge Dr", 2016, 4, 16, dt.date(2022, 1, 3)),
    ("Bluebonnet Flats", "Austin", "2210 Bluebonnet Ln", 2009, 3, 12, dt.date(2022, 1, 5)),
    ("Cedar Row", "Austin", "715 Cedar Row Ave", 1998, 2, 8, dt.date(2022, 1, 10)),
    ("Limestone Commons", "Austin", "3900 Limestone Way", 2019, 5, 18, dt.date(2023, 2, 6)),
    ("Mesquite House", "Austin", "88 Mesquite St", 1987, 3, 10, dt.date(2024, 8, 5)),
    ("Aspen Terrace", "Denver", "1650 Aspen Terrace Blvd", 2014, 4, 15, dt.date(2022, 1, 4)),
    ("Larkspur Lofts", "Denver", "2901 Larkspur St", 1925, 4, 14, dt.date(2022, 1, 12)),
    ("The Columbine", "Denver", "420 Columbine Ct", 2003, 3, 11, dt.date(2022, 5, 16)),
    ("Juniper Court", "Denver", "3377 Juniper Ave", 1978, 2, 9, dt.date(2023, 10, 2)),
    ("Foothill Yards", "Denver", "5120 Foothill Yards Rd", 2021, 6, 20, dt.date(2025, 1, 13)),
    ("Dogwood Place", "Raleigh", "1012 Dogwood Pl", 2011, 3, 12, dt.date(2022, 1, 6)),
    ("The Magnolia", "Raleigh", "604 Magnolia Grove St", 2017, 4, 14, dt.date(2022, 1, 18)),
    ("Longleaf Apartments", "Raleigh", "2750 Longleaf Pine Rd", 1994, 3, 13, dt.date(2022, 9, 12)),
    ("Tobacco Barn Lofts", "Raleigh", "318 Warehouse Row", 1931, 3, 10, dt.date(2024, 3, 11)),
    ("Lakeshore Flats", "Minneapolis", "1840 Lakeshore Pkwy", 2012, 5, 17, dt.date(2022, 1, 7)),
    ("The Linden", "Minneapolis", "905 Linden Hill Ave", 1962, 3, 9, dt.date(2022, 1, 19)),
    ("Prairie House", "Minneapolis", "2433 Prairie Wind Dr", 2006, 4, 13, dt.date(2023, 6, 19)),
    ("Northstar Commons", "Minneapolis", "77 Northstar Way", 2018, 5, 16, dt.date(2022, 1, 11)),
]
BUILDING_AMENITIES = {
    "The Alder": ["Fitness Center", "Swimming Pool", "Package Lockers", "Elevator", "Covered Parking", "Controlled Access", "Dog Park"],
    "Bluebonnet Flats": ["Swimming Pool", "On-site Laundry", "Courtyard Grills", "Bike Storage"],
    "Cedar Row": ["On-site Laundry", "Courtyard Grills"],
    "Limestone Commons": ["Fitness Center", "Swimming Pool", "Rooftop Deck", "Package Lockers", "Elevator", "EV Charging", "Controlled Access", "Business Center", "Dog Park"],
    "Mesquite House": ["On-site Laundry", "Covered Parking"],
    "Aspen Terrace": ["Fitness Center", "Package Lockers", "Elevator", "Bike Storage", "Controlled Access", "Dog Park"],
    "Larkspur Lofts": ["Rooftop Deck", "Elevator", "Bike Storage", "On-site Laundry"],
    "The Columbine": ["Fitness Center", "Courtyard Grills", "Covered Parking", "Package Lockers"],
    "Juniper Court": ["On-site Laundry"],
    "Foothill Yards": ["Fitness Center", "Rooftop Deck", "Package Lockers", "Elevator", "EV Charging", "Bike Storage", "Controlled Access", "Business Center"],
    "Dogwood Place": ["Swimming Pool", "Courtyard Grills", "Dog Park", "On-site Laundry"],
    "The Magnolia": ["Fitness Center", "Swimming Pool", "Package Lockers", "Elevator", "Controlled Access"],
    "Longleaf Apartments": ["Swimming Pool", "On-site Laundry", "Covered Parking"],
    "Tobacco Barn Lofts": ["Bike Storage", "Rooftop Deck", "Package Lockers"],
    "Lakeshore Flats": ["Fitness Center", "Elevator", "Covered Parking", "Package Lockers", "Business Center", "EV Charging"],
    "The Linden": ["On-site Laundry", "Covered Parking"],
    "Prairie House": ["Fitness Center", "Elevator", "Covered Parking", "On-site Laundry", "Dog Park"],
    "Northstar Commons": ["Fitness Center", "Elevator", "Covered Parking", "Package Lockers", "Controlled Access", "Bike Storage"],
}
# (manager, owner) by building; the newest manager has no building yet, the manager who left
# has none any more, and Juniper Court has no manager assigned.
BUILDING_STAFF = {
    "The Alder": ("Marguerite Osei", "Gordon Whitfield"),
    "Bluebonnet Flats": ("Marguerite Osei", "Gordon Whitfield"),
    "Cedar Row": ("Roderick Amadi", "Harold Brennan"),
    "Limestone Commons": ("Marguerite Osei", "Beatrice Kowalczyk"),
    "Mesquite House": ("Ignatius Moreau", "Desmond Farrow"),
    "Aspen Terrace": ("Theodore Lindgren", "Lorraine Achebe"),
    "Larkspur Lofts": ("Theodore Lindgren", "Lorraine Achebe"),
    "The Columbine": ("Genevieve Castellanos", "Lorraine Achebe"),
    "Juniper Court": (None, "Desmond Farrow"),
    "Foothill Yards": ("Genevieve Castellanos", "Beatrice Kowalczyk"),
    "Dogwood Place": ("Roderick Amadi", "Harold Brennan"),
    "The Magnolia": ("Roderick Amadi", "Gordon Whitfield"),
    "Longleaf Apartments": ("Ignatius Moreau", "Harold Brennan"),
    "Tobacco Barn Lofts": ("Ignatius Moreau", "Desmond Farrow"),
    "Lakeshore Flats": ("Theodore Lindgren", "Gordon Whitfield"),
    "The Linden": ("Genevieve Castellanos", "Harold Brennan"),
    "Prairie House": ("Genevieve Castellanos", "Beatrice Kowalczyk"),
    "Northstar Commons": ("Theodore Lindgren", "Lorraine Achebe"),
}

REQUEST_TITLES = {
    "plumbing": ["Leaking kitchen faucet", "Clogged bathroom sink", "Running toilet",
                 "Low water pressure in shower", "Leak under kitchen sink", "Clogged tub drain",
                 "No hot water", "Water heater leaking"],
    "electrical": ["Outlet not working", "Bedroom light flickering", "Breaker keeps tripping",
                   "Ceiling fan not working", "Smoke detector chirping", "Bathroom fan broken"],
    "hvac": ["AC not cooling", "Heat not working", "Thermostat unresponsive",
             "Furnace making noise", "Replace HVAC filter", "Weak airflow from vents"],
    "appliance": ["Dishwasher not draining", "Refrigerator not cold", "Oven not heating",
                  "Washer leaking", "Dryer not heating", "Garbage disposal jammed",
                  "Microwave not working"],
    "pest_control": ["Ants in kitchen", "Mice in unit", "Cockroaches under sink",
                     "Wasp nest on balcony"],
    "general": ["Door lock sticking", "Window will not close", "Broken closet door",
                "Drywall damage", "Loose cabinet hinge", "Replace blinds", "Squeaky floor",
                "Balcony door off track"],
}
CATEGORY_SPECIALTY = {"plumbing": "plumbing", "electrical": "electrical", "hvac": "hvac",
                      "appliance": "appliance", "pest_control": "general", "general": "general"}
TURNOVER_TITLES = ["Move-out inspection repairs", "Paint unit before move-in",
                   "Deep clean after move-out", "Replace carpet in bedroom"]


def add_months(d, n):
    y, m = divmod(d.month - 1 + n, 12)
    y += d.year
    m += 1
    day = min(d.day, [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1])
    return dt.date(y, m, day)


def first_of_next_month(d):
    return d if d.day == 1 else add_months(d.replace(day=1), 1)


def stamp(d, rng, lo=8, hi=18):
    return f"{d.isoformat()} {rng.randint(lo, hi - 1):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def moment(d, rng, lo, hi):
    """A datetime on day `d` between hours lo and hi (exclusive)."""
    return dt.datetime(d.year, d.month, d.day, rng.randint(lo, hi - 1), rng.randint(0, 59),
                       rng.randint(0, 59))


def fmt(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


def money(x):
    return round(x + 1e-9, 2)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "rentals.sqlite")
    rng = random.Random(SEED)

    # ---- staff users
    users, user_id = [], {}
    for i, (first, last, role, joined, active) in enumerate(STAFF, start=1):
        name = f"{first} {last}"
        user_id[name] = i
        username = f"{first[0].lower()}{last.lower()}"
        email = f"{first.lower()}.{last.lower()}@tallgrass.example.com"
        phone = f"({rng.choice(['512', '303', '919', '612'])}) 555-{rng.randint(100, 999):04d}" \
            if rng.random() < 0.7 else None
        if active:
            last_login = stamp(SNAPSHOT - dt.timedelta(days=rng.randint(0, 20)), rng)
        else:
            last_login = stamp(STAFF_LEFT[name] - dt.timedelta(days=rng.randint(0, 3)), rng)
        if name == "Winifred Dunleavy":
            last_login = None
        users.append((i, username, first, last, email, role, phone,
                      0 if role == "owner" else 1, active, stamp(joined, rng), last_login))
    agents = [(user_id[f"{f} {l}"], j, STAFF_LEFT.get(f"{f} {l}", dt.date(2099, 1, 1)))
              for f, l, r, j, _ in STAFF if r == "leasing_agent"]

    # ---- amenities, buildings, units
    amenities = [(i, n, c) for i, (n, c) in enumerate(AMENITIES, start=1)]
    amenity_id = {n: i for i, n, _ in amenities}
    buildings, building_amenities, units = [], [], []
    unit_info = []  # dicts
    for b_id, (name, city, street, year, floors, n_units, onboarded) in enumerate(BUILDINGS, start=1):
        state, zips, base = CITIES[city]
        manager, owner = BUILDING_STAFF[name]
        buildings.append((b_id, name, street, city, state, rng.choice(zips), year, floors,
                          user_id[manager] if manager else None, user_id[owner],
                          stamp(onboarded, rng, 9, 12)))
        for a in BUILDING_AMENITIES[name]:
            building_amenities.append((b_id, amenity_id[a]))
        pets_building = rng.random() < 0.7
        per_floor = -(-n_units // floors)
        for k in range(n_units):
            floor = k // per_floor + 1
            number = f"{floor}{k % per_floor + 1:02d}"
            bedrooms = rng.choices([0, 1, 2, 3], weights=[14, 40, 33, 13])[0]
            bathrooms = {0: 1.0, 1: rng.choice([1.0, 1.0, 1.0, 1.5]),
                         2: rng.choice([1.0, 1.5, 2.0, 2.0, 2.0]),
                         3: rng.choice([2.0, 2.0, 2.5])}[bedrooms]
            sqft = {0: rng.randint(42, 56), 1: rng.randint(60, 82), 2: rng.randint(88, 118),
                    3: rng.randint(120, 150)}[bedrooms] * 10 + rng.randint(0, 9)
            newness = max(0, year - 1990) * 6
            rent = base + bedrooms * 420 + (sqft - 700) * 0.55 + newness + rng.randint(-60, 60)
            if city == "Denver" and name == "Foothill Yards":
                rent += 250
            rent = round(rent / 5) * 5
            furnished = 1 if rng.random() < (0.35 if bedrooms == 0 else 0.12) else 0
            if furnished:
                rent += 150
            pets = 1 if (pets_building and rng.random() < 0.85) or rng.random() < 0.1 else 0
            u_id = len(units) + 1
            units.append([u_id, b_id, number, floor, bedrooms, bathrooms, sqft, float(rent),
                          furnished, pets])
            unit_info.append({"id": u_id, "building": b_id, "rent": rent, "onboarded": onboarded,
                              "pets": pets})

    # ---- tenants (created on demand)
    tenants = []
    used_emails = set()
    tenant_profile = {}   # tenant id -> (how they pay: good/late/bad, preferred method)

    def new_tenant(created):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        base_email = f"{first.lower()}.{last.lower()}"
        email, n = None, 1
        while email is None or email in used_emails:
            suffix = "" if n == 1 else str(n)
            email = f"{base_email}{suffix}@{rng.choice(['example.com', 'example.net', 'example.org'])}"
            n += 1
        used_emails.add(email)
        phone = f"({rng.choice(['512', '737', '303', '720', '919', '984', '612', '651'])}) " \
                f"555-{rng.randint(100, 999):04d}" if rng.random() < 0.85 else None
        contact = rng.choices(["email", "sms", "phone"], weights=[55, 35, 10])[0]
        if phone is None and contact != "email":
            contact = "email"
        t_id = len(tenants) + 1
        tenants.append((t_id, first, last, email, phone, contact, created))
        profile = rng.choices(["good", "late", "bad"], weights=[80, 15, 5])[0]
        method = rng.choices(["ach", "card", "check"], weights=[55, 30, 15])[0]
        tenant_profile[t_id] = (profile, method)
        return t_id

    def asking_rent(unit, when):
        years = (when - SNAPSHOT).days / 365.25
        return float(round(unit["rent"] * (1.035 ** years) / 5) * 5)

    def pick_agent(when):
        live = [a for a, j, left in agents if j <= when <= left]
        return rng.choice(live)

    # ---- leases and applications, unit by unit
    leases = []   # dicts, turned into rows below
    app_rows = []

    def add_application(unit, status, submitted, move_in):
        """A new applicant signs up and applies; returns (tenant, review day)."""
        signed_up = moment(submitted, rng, 7, 22)
        tenant = new_tenant(fmt(signed_up))
        income = money(rng.randint(38, 160) * 1000 + rng.choice([0, 0, 0, 500]))
        score = None if rng.random() < 0.07 else rng.randint(560, 820)
        if status == "approved" and score is not None and score < 620:
            score = rng.randint(640, 820)
        if status == "rejected" and score is not None and score > 700 and rng.random() < 0.7:
            score = rng.randint(540, 640)
        if status in ("approved", "rejected"):
            reviewed = submitted + dt.timedelta(days=rng.randint(1, 4))
            reviewer = pick_agent(reviewed)
            reviewed_at = stamp(reviewed, rng, 9, 18)
        else:
            reviewed, reviewer, reviewed_at = None, None, None
        app_rows.append([tenant, unit["id"], status, income, score, move_in.isoformat(),
                         fmt(signed_up + dt.timedelta(minutes=rng.randint(4, 40))), reviewer,
                         reviewed_at])
        return tenant, reviewed

    def new_lease(unit, tenant, start, rent, prior=None, imported=False, created=None):
        term = rng.choices([12, 12, 12, 6, 18, 24], weights=[50, 10, 10, 8, 12, 10])[0]
        month_to_month = (not imported) and prior is not None and rng.random() < 0.18
        if month_to_month:
            planned_end = None
        else:
            planned_end = add_months(start, term) - dt.timedelta(days=1)
        lease = {"unit": unit, "tenant": tenant, "start": start, "planned_end": planned_end,
                 "rent": rent, "imported": imported, "renewal": prior is not None,
                 "co_signer": None}
        if imported:
            lease["created_at"] = moment(unit["onboarded"], rng, 15, 19)
        elif created is not None:
            lease["created_at"] = created
        else:  # renewal
            day = max(start - dt.timedelta(days=rng.randint(20, 45)),
                      unit["onboarded"] + dt.timedelta(days=1))
            lease["created_at"] = moment(day, rng, 9, 19)
        lease["created"] = lease["created_at"].date()
        if prior is not None:
            lease["deposit"] = prior["deposit"]
            lease["co_signer"] = prior["co_signer"]
        else:
            lease["deposit"] = money(rent * rng.choice([1.0, 1.0, 1.0, 1.0, 1.5]))
        leases.append(lease)
        return lease

    for unit in unit_info:
        onboarded = unit["onboarded"]
        # occupied when the building joined the app?
        if rng.random() < 0.9:
            start = dt.date(onboarded.year, onboarded.month, 1)
            start = add_months(start, -rng.randint(1, 11))
            tenant = new_tenant(stamp(onboarded, rng, 13, 15))
            rent = asking_rent(unit, start)
            lease = new_lease(unit, tenant, start, rent, imported=True)
            while lease["planned_end"] < onboarded + dt.timedelta(days=20):
                lease["planned_end"] = add_months(lease["planned_end"], 6)
        else:
            lease = None
            free_from = onboarded
        while True:
            if lease is not None:
                # does it end early?
                planned = lease["planned_end"]
                horizon = planned if planned is not None else SNAPSHOT + dt.timedelta(days=400)
                lease["terminated"] = False
                if rng.random() < 0.07:
                    # not before the building joined the app: those leases were never imported
                    earliest = max(lease["start"] + dt.timedelta(days=60),
                                   onboarded + dt.timedelta(days=30))
                    span = (horizon - earliest).days
                    if span > 30:
                        cut = earliest + dt.timedelta(days=rng.randint(0, span - 20))
                        lease["end"] = cut
                        lease["terminated"] = True
                if not lease["terminated"]:
                    if planned is None:
                        # month-to-month: stays unless the tenant gives notice
                        if rng.random() < 0.5:
                            lease["end"] = add_months(lease["start"], rng.randint(3, 20)) - dt.timedelta(days=1)
                        else:
                            lease["end"] = None
                    else:
                        lease["end"] = planned
                end = lease["end"]
                if end is None or end >= SNAPSHOT:
                    break
                if not lease["terminated"] and lease["planned_end"] is not None and rng.random() < 0.5:
                    # renewal, same tenant
                    start = end + dt.timedelta(days=1)
                    rent = float(round(lease["rent"] * rng.uniform(1.02, 1.05)))
                    lease = new_lease(unit, lease["tenant"], start, rent, prior=lease)
                    continue
                free_from = end + dt.timedelta(days=1)
            # vacancy, then a new tenant
            start = first_of_next_month(free_from + dt.timedelta(days=rng.randint(12, 70)))
            if start > SNAPSHOT:
                # still vacant: maybe applications are waiting
                if rng.random() < 0.6:
                    for _ in range(rng.randint(1, 2)):
                        sub = SNAPSHOT - dt.timedelta(days=rng.randint(0, 20))
                        add_application(unit, "pending", sub, first_of_next_month(
                            SNAPSHOT + dt.timedelta(days=rng.randint(2, 40))))
                break
            via_app = rng.random() < 0.85
            floor = max(onboarded + dt.timedelta(days=1), free_from - dt.timedelta(days=30))
            if via_app:
                submitted = max(start - dt.timedelta(days=rng.randint(15, 45)), floor)
                # competing applicants first
                for _ in range(rng.choices([0, 1, 2, 3], weights=[45, 30, 17, 8])[0]):
                    sub = max(submitted + dt.timedelta(days=rng.randint(-10, 6)), floor)
                    add_application(unit, rng.choice(["rejected", "rejected", "withdrawn"]),
                                    sub, start)
                tenant, reviewed = add_application(unit, "approved", submitted, start)
                signed = min(reviewed + dt.timedelta(days=rng.randint(1, 7)),
                             start - dt.timedelta(days=1))
                created = moment(signed, rng, 9, 19)
            else:
                # a paper application, entered by staff on the day the lease is signed
                signed = max(start - dt.timedelta(days=rng.randint(5, 25)),
                             onboarded + dt.timedelta(days=1))
                tenant = new_tenant(stamp(signed, rng, 9, 11))
                created = moment(signed, rng, 12, 19)
            lease = new_lease(unit, tenant, start, asking_rent(unit, start), created=created)
            if rng.random() < 0.13:
                lease["co_signer"] = "new"

    # co-signers: most are guarantors with no lease of their own, some are other tenants
    lease_tenants = sorted({l["tenant"] for l in leases})
    for lease in leases:
        if lease["co_signer"] == "new" and not lease["renewal"]:
            signed = fmt(lease["created_at"])
            known = [t for t in lease_tenants
                     if tenants[t - 1][6] < signed and t != lease["tenant"]]
            if rng.random() < 0.12 and known:
                lease["co_signer"] = rng.choice(known)
            else:
                lease["co_signer"] = new_tenant(
                    fmt(lease["created_at"] - dt.timedelta(minutes=rng.randint(10, 90))))
    # renewals inherit the resolved co-signer
    by_unit = {}
    for lease in leases:
        by_unit.setdefault(lease["unit"]["id"], []).append(lease)
    for lst in by_unit.values():
        for prev, cur in zip(lst, lst[1:]):
            if cur["renewal"]:
                cur["co_signer"] = prev["co_signer"]

    # order leases by creation so ids follow time, like an app's table
    leases.sort(key=lambda l: (l["created"], l["unit"]["id"]))
    lease_rows = []
    for l_id, lease in enumerate(leases, start=1):
        lease["id"] = l_id
        end = lease["end"]
        if end is None or end >= SNAPSHOT:
            status = "active"
            shown_end = lease["planned_end"]
        else:
            status = "terminated" if lease["terminated"] else "ended"
            shown_end = end
        lease["status"] = status
        lease["shown_end"] = shown_end
        lease_rows.append((l_id, lease["unit"]["id"], lease["tenant"], lease["co_signer"],
                           lease["start"].isoformat(), shown_end.isoformat() if shown_end else None,
                           lease["rent"], lease["deposit"], status, fmt(lease["created_at"])))

    # ---- invoices and payments
    invoices, payments = [], []
    invoice_created = {}
    pending_invoices = []

    def pay(inv_id, amount, day, method):
        ref = None
        if method == "check":
            ref = f"CHK {rng.randint(1000, 9999)}"
        elif method == "ach":
            ref = f"ACH-{rng.randint(10**7, 10**8 - 1)}"
        payments.append([inv_id, money(amount), day.isoformat(), method, ref, stamp(day, rng, 7, 24)])

    def settle(inv_id, amount, due, tenant, lease, kind):
        """Payments for an invoice; returns (status, first payment date or None)."""
        profile, pref = tenant_profile[tenant]
        method = pref if rng.random() < 0.9 else rng.choice(["ach", "card", "check"])
        if profile == "good":
            day = due + dt.timedelta(days=rng.randint(-4, 2))
            skip = 0.0005
        elif profile == "late":
            day = due + dt.timedelta(days=rng.choice([-2, 0, 1, 3, 4, 6, 8, 10, 12]))
            skip = 0.004
        else:
            day = due + dt.timedelta(days=rng.randint(0, 25))
            skip = 0.02
        if kind != "rent":
            day = due + dt.timedelta(days=rng.randint(-6, 10))
            skip = 0.06
        if lease["status"] == "terminated" and lease["end"] - due < dt.timedelta(days=80):
            skip = 0.6
        created = invoice_created[inv_id]
        if day < created:
            day = created
        if rng.random() < skip or day > SNAPSHOT:
            return "unpaid", None
        if rng.random() < 0.03 and amount > 200:
            part = money(amount * rng.choice([0.3, 0.4, 0.5, 0.6]))
            pay(inv_id, part, day, method)
            later = day + dt.timedelta(days=rng.randint(5, 30))
            if later > SNAPSHOT or rng.random() < 0.04:
                return "partial", day
            pay(inv_id, money(amount - part), later, method)
            return "paid", day
        pay(inv_id, amount, day, method)
        return "paid", day

    for lease in leases:
        start = lease["start"]
        last_day = lease["end"] if lease["end"] is not None else dt.date(2099, 1, 1)
        first_due = first_of_next_month(max(start, lease["unit"]["onboarded"], APP_LIVE))
        due = first_due
        while due <= last_day and due <= dt.date(2025, 7, 1):
            created = max(due - dt.timedelta(days=5), lease["created"] + dt.timedelta(days=1))
            pending_invoices.append((created, lease["id"], 0, lease, "rent", lease["rent"], due))
            due = add_months(due, 1)
        if lease["status"] == "ended" and rng.random() < 0.12 and lease["end"] >= APP_LIVE:
            amount = money(rng.randint(8, 90) * 10 + rng.choice([0, 0.5, 0.75]))
            pending_invoices.append((lease["end"], lease["id"], 2, lease, "damage", amount,
                                     lease["end"]))
    # issue invoices in date order; late fees join the queue as rent is paid late
    heap = [(created, lease["id"], order, kind, amount, due)
            for order, (created, _, _, lease, kind, amount, due) in enumerate(
                sorted(pending_invoices, key=lambda p: (p[0], p[1], p[2], p[6])))]
    heapq.heapify(heap)
    lease_by_id = {lease["id"]: lease for lease in leases}
    seq = len(heap)
    while heap:
        created, l_id, _, kind, amount, due = heapq.heappop(heap)
        lease = lease_by_id[l_id]
        if created > SNAPSHOT:
            continue
        inv_id = len(invoices) + 1
        invoice_created[inv_id] = created
        status, first_paid = settle(inv_id, amount, due, lease["tenant"], lease, kind)
        if kind == "rent" and lease["status"] == "active" and due > SNAPSHOT:
            # next month's rent was issued a few days ago: mostly not paid yet
            if status == "paid" and rng.random() < 0.7:
                while payments and payments[-1][0] == inv_id:
                    payments.pop()
                status, first_paid = "unpaid", None
        invoices.append([inv_id, lease["id"], kind, money(amount), due.isoformat(), status,
                         stamp(created, rng, 2, 6)])
        if kind == "rent":
            late_day = first_paid if first_paid is not None else (
                due + dt.timedelta(days=6) if due + dt.timedelta(days=6) <= SNAPSHOT else None)
            if late_day is not None and late_day > due + dt.timedelta(days=5):
                fee_created = due + dt.timedelta(days=6)
                fee_due = fee_created + dt.timedelta(days=14)
                if lease["end"] is None or fee_due <= lease["end"]:
                    seq += 1
                    heapq.heappush(heap, (fee_created, lease["id"], seq, "late_fee", 75.0, fee_due))

    # payments: ids in payment-day order, like rows written as money arrives
    payments.sort(key=lambda p: (p[2], p[5], p[0]))
    pay_rows = [(i, *p) for i, p in enumerate(payments, start=1)]
    inv_out = [tuple(r) for r in invoices]

    # ---- technicians and maintenance requests
    techs = []
    for t_id, (first, last, spec, rate, hired, active) in enumerate(TECHNICIANS, start=1):
        techs.append((t_id, first, last, f"{first.lower()}.{last.lower()}@tallgrass.example.com",
                      f"({rng.choice(['512', '303', '919', '612'])}) 555-{rng.randint(100, 999):04d}",
                      spec, rate, hired.isoformat(), active))
    tech_by_spec = {}
    for t_id, (first, last, spec, rate, hired, active) in enumerate(TECHNICIANS, start=1):
        tech_by_spec.setdefault(spec, []).append(
            (t_id, rate, hired, TECH_LEFT.get(f"{first} {last}", dt.date(2099, 1, 1))))

    def pick_tech(category, day):
        spec = CATEGORY_SPECIALTY[category]
        pool = [t for t in tech_by_spec[spec] if t[2] <= day <= t[3]]
        if not pool or rng.random() < 0.08:
            pool = [t for t in tech_by_spec["general"] if t[2] <= day <= t[3]]
        # the newest hire has not been given work yet
        pool = [t for t in pool if t[2] < dt.date(2025, 6, 1)] or pool
        return rng.choice(pool)

    requests = []

    def add_request(unit_id, reporter, day, category, title, turnover=False):
        if day > SNAPSHOT or day < APP_LIVE:
            return
        priority = rng.choices(["low", "medium", "high", "emergency"], weights=[28, 46, 20, 6])[0]
        if turnover:
            priority = rng.choice(["low", "medium"])
        if category == "pest_control" and priority == "emergency":
            priority = "high"
        created = dt.datetime(day.year, day.month, day.day, rng.randint(6, 22), rng.randint(0, 59),
                              rng.randint(0, 59))
        hours = {"emergency": (2, 30), "high": (12, 96), "medium": (24, 240), "low": (48, 500)}[priority]
        closed = created + dt.timedelta(hours=rng.randint(*hours), minutes=rng.randint(0, 59))
        tech = pick_tech(category, day)
        snap_end = dt.datetime(2025, 6, 30, 23, 59, 59)
        # a few requests get stuck (waiting for parts, no access to the unit)
        stuck = rng.random() < (0.3 if day >= dt.date(2025, 4, 1) else
                                0.02 if day >= dt.date(2024, 7, 1) else 0)
        if closed <= snap_end and not (stuck and priority != "emergency"):
            status = "closed"
            labour = rng.choice([0.5, 1, 1, 1.5, 2, 2, 3, 4, 6])
            parts = rng.choice([0, 0, 0, 15, 25, 40, 60, 85, 120, 180, 260, 420]) + rng.randint(0, 99) / 100
            cost = money(labour * tech[1] + parts)
            closed_at = closed.strftime("%Y-%m-%d %H:%M:%S")
            assigned = tech[0]
        else:
            cost, closed_at = None, None
            age = (snap_end - created).days
            if age <= 4 and priority != "emergency" and rng.random() < 0.6:
                status, assigned = "open", None
            elif rng.random() < 0.2:
                status, assigned = "open", None
            elif rng.random() < 0.25:
                status, assigned = "open", tech[0]
            else:
                status, assigned = "in_progress", tech[0]
        requests.append([unit_id, reporter, assigned, category, priority, status, title,
                         created.strftime("%Y-%m-%d %H:%M:%S"), closed_at, cost])

    categories = ["plumbing", "electrical", "hvac", "appliance", "pest_control", "general"]
    cat_weights = [27, 14, 18, 17, 6, 18]
    for lease in leases:
        start = max(lease["start"], lease["unit"]["onboarded"])
        end = lease["end"] if lease["end"] is not None else SNAPSHOT
        end = min(end, SNAPSHOT)
        months = max(0, (end - start).days) / 30.4
        n = sum(1 for _ in range(int(months)) if rng.random() < 0.13)
        for _ in range(n):
            day = start + dt.timedelta(days=rng.randint(0, max(0, (end - start).days)))
            cat = rng.choices(categories, weights=cat_weights)[0]
            reporter = lease["tenant"] if rng.random() < 0.9 else None
            add_request(lease["unit"]["id"], reporter, day, cat, rng.choice(REQUEST_TITLES[cat]))
        if lease["status"] != "active" and rng.random() < 0.35 and lease["end"] >= APP_LIVE:
            day = lease["end"] + dt.timedelta(days=rng.randint(1, 4))
            add_request(lease["unit"]["id"], None, day, "general", rng.choice(TURNOVER_TITLES),
                        turnover=True)
    requests.sort(key=lambda r: (r[7], r[0]))
    req_rows = [(i, *r) for i, r in enumerate(requests, start=1)]

    # ---- applications: ids in submission order
    app_rows.sort(key=lambda r: (r[6], r[1], r[0]))
    app_out = [(i, *r) for i, r in enumerate(app_rows, start=1)]

    # tenants: ids follow creation time
    order = sorted(tenants, key=lambda t: (t[6], t[0]))
    remap = {t[0]: i for i, t in enumerate(order, start=1)}
    tenant_rows = [(remap[t[0]], *t[1:]) for t in order]
    lease_rows = [(r[0], r[1], remap[r[2]], remap[r[3]] if r[3] else None, *r[4:]) for r in lease_rows]
    app_out = [(r[0], remap[r[1]], *r[2:]) for r in app_out]
    req_rows = [(r[0], r[1], remap[r[2]] if r[2] else None, *r[3:]) for r in req_rows]

    ba_rows = [(i, b, a) for i, (b, a) in enumerate(sorted(building_amenities), start=1)]
    unit_rows = [tuple(u) for u in units]

    tables = [
        ("accounts_user", users),
        ("properties_amenity", amenities),
        ("properties_building", buildings),
        ("properties_building_amenities", ba_rows),
        ("properties_unit", unit_rows),
        ("leasing_tenant", tenant_rows),
        ("leasing_application", app_out),
        ("leasing_lease", lease_rows),
        ("billing_invoice", inv_out),
        ("billing_payment", pay_rows),
        ("maintenance_technician", techs),
        ("maintenance_request", req_rows),
    ]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
