#!/usr/bin/env python3
"""Generate clinic.sqlite: a small veterinary clinic chain database for evaluation.

All rows are synthetic, generated data (no real people, pets or businesses); the
names, cities, species and breeds come from the built-in lists below. Generation is
deterministic: a fixed seed and random.Random(SEED) only, so two runs write the same
rows. An existing file at the output path is overwritten.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_clinic.py [OUTPUT]   (default: clinic.sqlite next to this script)
"""

import datetime
import os
import random
import sqlite3
import sys

SEED = 20240611
FIRST_DAY = datetime.date(2022, 1, 3)
LAST_DAY = datetime.date(2025, 12, 31)

SCHEMA = """
CREATE TABLE clinics (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, state TEXT NOT NULL,
    phone TEXT NOT NULL, opened_on TEXT NOT NULL);
CREATE TABLE veterinarians (
    id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    clinic_id INTEGER NOT NULL REFERENCES clinics(id),
    supervisor_id INTEGER REFERENCES veterinarians(id),
    specialty TEXT, hired_on TEXT NOT NULL);
CREATE TABLE owners (
    id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    email TEXT, phone TEXT NOT NULL, city TEXT NOT NULL, registered_on TEXT NOT NULL);
CREATE TABLE pets (
    id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL REFERENCES owners(id),
    name TEXT NOT NULL, species TEXT NOT NULL, breed TEXT, sex TEXT NOT NULL,
    birth_date TEXT NOT NULL, weight_kg REAL);
CREATE TABLE appointments (
    id INTEGER PRIMARY KEY, pet_id INTEGER NOT NULL REFERENCES pets(id),
    veterinarian_id INTEGER NOT NULL REFERENCES veterinarians(id),
    clinic_id INTEGER NOT NULL REFERENCES clinics(id),
    scheduled_at TEXT NOT NULL, reason TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE treatments (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL);
CREATE TABLE invoices (
    id INTEGER PRIMARY KEY, appointment_id INTEGER NOT NULL UNIQUE REFERENCES appointments(id),
    issued_on TEXT NOT NULL, total REAL NOT NULL, paid_on TEXT);
CREATE TABLE invoice_items (
    id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    treatment_id INTEGER NOT NULL REFERENCES treatments(id),
    quantity INTEGER NOT NULL, unit_price REAL NOT NULL);
CREATE TABLE medications (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, form TEXT NOT NULL, unit_price REAL NOT NULL);
CREATE TABLE prescriptions (
    id INTEGER PRIMARY KEY, appointment_id INTEGER NOT NULL REFERENCES appointments(id),
    medication_id INTEGER NOT NULL REFERENCES medications(id),
    quantity INTEGER NOT NULL, dosage TEXT NOT NULL, refills INTEGER NOT NULL);
"""

CLINICS = [  # name, city, state, opened_on
    ("Riverside Animal Hospital", "Portland", "OR", "2009-04-14"),
    ("Puget Sound Pet Clinic", "Seattle", "WA", "2012-09-03"),
    ("Cascade Veterinary Center", "Tacoma", "WA", "2015-02-23"),
    ("Willamette Valley Vets", "Eugene", "OR", "2016-06-01"),
    ("Capitol Paws Clinic", "Salem", "OR", "2018-10-15"),
    ("Inland Empire Animal Care", "Spokane", "WA", "2020-03-09"),
    ("Treasure Valley Pet Hospital", "Boise", "ID", "2022-08-22"),
]
# Owner cities, each with the clinic (1-based) its residents usually visit, and a weight.
OWNER_CITIES = [
    ("Portland", 1, 14), ("Beaverton", 1, 5), ("Gresham", 1, 4), ("Seattle", 2, 13),
    ("Bellevue", 2, 5), ("Everett", 2, 3), ("Tacoma", 3, 8), ("Olympia", 3, 3),
    ("Eugene", 4, 8), ("Springfield", 4, 3), ("Salem", 5, 7), ("Keizer", 5, 2),
    ("Spokane", 6, 7), ("Boise", 7, 6), ("Meridian", 7, 3),
]
FIRST_NAMES = [
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella", "Lucas",
    "Mia", "Logan", "Amelia", "James", "Harper", "Benjamin", "Evelyn", "Elijah", "Abigail",
    "Daniel", "Emily", "Henry", "Ella", "Jackson", "Grace", "Samuel", "Chloe", "Owen", "Nora",
    "Caleb", "Hannah", "Wyatt", "Zoe", "Julian", "Lily", "Aaron", "Maya", "Isaac", "Leah",
    "Gabriel", "Priya", "Diego", "Mei", "Omar", "Sofia", "Ravi", "Ingrid", "Tomas", "Aisha",
    "Kenji", "Fatima", "Marcus", "Rosa", "Andre", "Yuki", "Nadia", "Patrick", "Helen",
]
LAST_NAMES = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
    "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore",
    "Jackson", "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson",
    "Walker", "Young", "Allen", "King", "Wright", "Scott", "Nguyen", "Hill", "Flores", "Green",
    "Nakamura", "Patel", "Kim", "Olsen", "Lindqvist", "Novak", "Okafor", "Schmidt", "Rossi",
    "Murphy", "Chen", "Singh", "Cohen", "Fischer", "Dubois", "Kowalski", "Reyes", "Bauer",
]
SPECIES = [  # species, weight, (min kg, max kg), breeds, share of unknown breed
    ("Dog", 46, (3.0, 42.0), ["Labrador Retriever", "Golden Retriever", "German Shepherd",
     "French Bulldog", "Beagle", "Poodle", "Dachshund", "Border Collie", "Boxer",
     "Australian Shepherd", "Shih Tzu", "Chihuahua", "Siberian Husky"], 0.2),
    ("Cat", 36, (2.8, 7.5), ["Domestic Shorthair", "Domestic Longhair", "Maine Coon",
     "Siamese", "Ragdoll", "Bengal", "British Shorthair", "Persian"], 0.15),
    ("Rabbit", 7, (1.0, 3.5), ["Holland Lop", "Netherland Dwarf", "Mini Rex", "Lionhead"], 0.3),
    ("Bird", 5, (0.03, 0.9), ["Budgerigar", "Cockatiel", "African Grey", "Lovebird"], 0.1),
    ("Guinea Pig", 3, (0.7, 1.3), ["American", "Abyssinian", "Peruvian"], 0.4),
    ("Ferret", 2, (0.6, 2.0), ["Sable", "Albino"], 0.5),
    ("Reptile", 1, (0.1, 2.5), ["Bearded Dragon", "Leopard Gecko", "Ball Python"], 0.0),
]
PET_NAMES = [
    "Bella", "Max", "Luna", "Charlie", "Lucy", "Cooper", "Daisy", "Milo", "Bailey", "Oliver",
    "Coco", "Rocky", "Sadie", "Leo", "Molly", "Tucker", "Lola", "Bear", "Nala", "Simba",
    "Pepper", "Ziggy", "Willow", "Biscuit", "Mochi", "Ollie", "Rosie", "Jasper", "Gizmo",
    "Hazel", "Finn", "Penny", "Oreo", "Scout", "Maple", "Kiwi", "Pickles", "Ruby", "Toby",
    "Juniper", "Clover", "Peanut", "Shadow", "Buddy", "Misty", "Thor", "Ginger", "Sunny",
]
TREATMENTS = [  # name, category, price
    ("Wellness exam", "Preventive", 64.95), ("Consultation", "Diagnostic", 54.50),
    ("Follow-up exam", "Diagnostic", 39.95), ("Rabies vaccine", "Preventive", 34.75),
    ("DHPP vaccine", "Preventive", 37.50), ("FVRCP vaccine", "Preventive", 36.25),
    ("Microchipping", "Preventive", 54.99), ("Blood panel", "Diagnostic", 118.40),
    ("Fecal exam", "Diagnostic", 44.60), ("X-ray", "Diagnostic", 186.25),
    ("Ultrasound", "Diagnostic", 319.00), ("Skin scraping", "Diagnostic", 59.80),
    ("Allergy test", "Diagnostic", 244.50), ("Dental cleaning", "Dental", 349.95),
    ("Tooth extraction", "Dental", 138.75), ("Spay surgery", "Surgical", 425.00),
    ("Neuter surgery", "Surgical", 312.50), ("Laceration repair", "Surgical", 264.30),
    ("Wound care", "Therapeutic", 84.90), ("Fluid therapy", "Therapeutic", 96.15),
    ("Hospitalization (per day)", "Therapeutic", 149.50), ("Nail trim", "Grooming", 19.95),
]
MEDICATIONS = [  # name, form, unit_price
    ("Carprofen", "Tablet", 1.20), ("Meloxicam", "Liquid", 18.50), ("Amoxicillin", "Tablet", 0.85),
    ("Cephalexin", "Capsule", 0.95), ("Metronidazole", "Tablet", 0.70), ("Prednisolone", "Tablet", 0.40),
    ("Apoquel", "Tablet", 2.75), ("Gabapentin", "Capsule", 0.60), ("Buprenorphine", "Injection", 24.00),
    ("Maropitant", "Tablet", 6.50), ("Famotidine", "Tablet", 0.35), ("Fenbendazole", "Liquid", 14.00),
    ("Selamectin", "Topical", 19.95), ("Chlorhexidine Shampoo", "Topical", 16.25),
    ("Otomax Ear Drops", "Liquid", 27.80), ("Enrofloxacin", "Tablet", 1.10),
]
# reason -> (weight, treatments always billed, optional extras, medications to pick from)
REASONS = {
    "Annual checkup": (30, ["Wellness exam"], ["Blood panel", "Fecal exam", "Nail trim", "Microchipping"],
                       ["Fenbendazole", "Selamectin"]),
    "Vaccination": (22, ["Wellness exam"], [], []),
    "Skin issue": (10, ["Consultation"], ["Skin scraping", "Allergy test"],
                   ["Apoquel", "Prednisolone", "Chlorhexidine Shampoo", "Cephalexin", "Otomax Ear Drops"]),
    "Digestive problem": (9, ["Consultation"], ["Fecal exam", "Blood panel", "Fluid therapy", "Ultrasound"],
                          ["Metronidazole", "Maropitant", "Famotidine"]),
    "Injury": (8, ["Consultation"], ["X-ray", "Wound care", "Laceration repair"],
               ["Carprofen", "Meloxicam", "Amoxicillin", "Gabapentin"]),
    "Dental cleaning": (7, ["Dental cleaning"], ["Tooth extraction"], ["Amoxicillin", "Meloxicam", "Buprenorphine"]),
    "Surgery": (5, ["Blood panel"], ["Hospitalization (per day)"], ["Buprenorphine", "Carprofen", "Enrofloxacin"]),
    "Follow-up": (9, ["Follow-up exam"], ["Blood panel", "X-ray"], []),
}
VACCINES = {"Dog": ["Rabies vaccine", "DHPP vaccine"], "Cat": ["Rabies vaccine", "FVRCP vaccine"]}
DOSAGES = ["once daily", "twice daily", "every 8 hours", "every 12 hours", "as needed"]


def money(value):
    return round(value + 1e-9, 2)


def random_day(rng, start, end):
    return start + datetime.timedelta(days=rng.randint(0, (end - start).days))


def phone(rng, area):
    return f"({area}) 555-{rng.randint(0, 9999):04d}"


def make_clinics(rng):
    areas = {"OR": "503", "WA": "206", "ID": "208"}
    return [(i, name, city, state, phone(rng, areas[state]), opened)
            for i, (name, city, state, opened) in enumerate(CLINICS, 1)]


def make_veterinarians(rng):
    """Vet 1 is the chief of staff; each clinic has a lead vet reporting to the chief."""
    rows, used = [], set()
    plan = [("Internal Medicine", None), ("Surgery", "Dentistry", "Exotics"), ("Dermatology", "Surgery"),
            ("Exotics", None), (None, "Dentistry"), ("Surgery", None), ("Internal Medicine",)]
    for clinic_id, specialties in enumerate(plan, 1):
        lead_id = None
        staff = 1 + len(specialties) + rng.randint(1, 2)
        for k in range(staff):
            while True:
                name = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
                if name not in used:
                    used.add(name)
                    break
            vet_id = len(rows) + 1
            specialty = specialties[k - 1] if 1 <= k <= len(specialties) else None
            opened = max(datetime.date.fromisoformat(CLINICS[clinic_id - 1][3]), datetime.date(2008, 1, 1))
            if k == 0:  # the lead is in place when the clinic opens (or by the end of 2021)
                hired = random_day(rng, opened, max(opened, datetime.date(2021, 12, 1)))
                supervisor, lead_id = (None if vet_id == 1 else 1), vet_id
            else:
                hired = random_day(rng, opened, datetime.date(2024, 9, 30))
                supervisor = lead_id
            rows.append((vet_id, name[0], name[1], clinic_id, supervisor, specialty, hired.isoformat()))
    return rows


def make_owners(rng, count=420):
    cities = [c for c, _, w in OWNER_CITIES for _ in range(w)]
    rows = []
    for i in range(1, count + 1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = None if rng.random() < 0.14 else f"{first.lower()}.{last.lower()}{i}@example.com"
        city = rng.choice(cities)
        registered = random_day(rng, datetime.date(2022, 1, 3), datetime.date(2025, 6, 30))
        if rng.random() < 0.55:  # the chain existed before 2022: many owners registered early
            registered = random_day(rng, datetime.date(2022, 1, 3), datetime.date(2022, 3, 31))
        rows.append((i, first, last, email, phone(rng, "503"), city, registered.isoformat()))
    return rows


def make_pets(rng, owners):
    weights = [s[1] for s in SPECIES]
    rows = []
    for owner in owners:
        for _ in range(rng.choices([1, 2, 3], [62, 28, 10])[0]):
            species, _, (lo, hi), breeds, unknown = rng.choices(SPECIES, weights)[0]
            breed = None if rng.random() < unknown else rng.choice(breeds)
            born = random_day(rng, datetime.date(2008, 1, 1), datetime.date(2024, 10, 31))
            weight = None if rng.random() < 0.06 else round(rng.uniform(lo, hi), 2 if hi < 1 else 1)
            rows.append((len(rows) + 1, owner[0], rng.choice(PET_NAMES), species, breed,
                         rng.choice(["Male", "Female"]), born.isoformat(), weight))
    return rows


def make_appointments(rng, owners, pets, vets):
    home = {city: clinic for city, clinic, _ in OWNER_CITIES}
    owner_by_id = {o[0]: o for o in owners}
    reasons = list(REASONS)
    raw, booked = [], set()
    for pet in pets:
        owner = owner_by_id[pet[1]]
        start = max(datetime.date.fromisoformat(owner[6]), datetime.date.fromisoformat(pet[6]))
        small = pet[3] not in ("Dog", "Cat", "Rabbit", "Ferret")  # no vaccines, dental or spay
        reason_weights = [0 if (r == "Vaccination" and pet[3] not in ("Dog", "Cat"))
                          or (small and r in ("Dental cleaning", "Surgery")) else REASONS[r][0]
                          for r in reasons]
        for _ in range(rng.choices(range(9), [3, 10, 16, 18, 15, 12, 10, 9, 7])[0]):
            clinic = home[owner[5]] if rng.random() < 0.9 else rng.randint(1, len(CLINICS))
            first = max(start, datetime.date.fromisoformat(CLINICS[clinic - 1][3]))
            day = random_day(rng, first, LAST_DAY)
            while day.weekday() == 6:  # closed on Sundays
                day = random_day(rng, first, LAST_DAY)
            staff = [v for v in vets if v[3] == clinic and v[6] <= day.isoformat()]
            exotic = [v for v in staff if v[5] == "Exotics"]
            vet = rng.choice(exotic if exotic and pet[3] not in ("Dog", "Cat") else staff)
            while True:  # a vet sees one pet per slot
                minute = rng.randrange(8 * 60, 17 * 60 + 1, 15)
                at = f"{day.isoformat()} {minute // 60:02d}:{minute % 60:02d}:00"
                if (vet[0], at) not in booked:
                    booked.add((vet[0], at))
                    break
            reason = rng.choices(reasons, reason_weights)[0]
            status = rng.choices(["Completed", "Cancelled", "No-show"], [86, 9, 5])[0]
            raw.append((at, pet[0], vet[0], clinic, reason, status))
    raw.sort()
    return [(i, pet, vet, clinic, at, reason, status)
            for i, (at, pet, vet, clinic, reason, status) in enumerate(raw, 1)]


def billed_treatments(rng, reason, pet):
    _, always, extras, _ = REASONS[reason]
    names = list(always)
    if reason == "Vaccination":
        names += rng.sample(VACCINES[pet[3]], rng.randint(1, 2))
    elif reason == "Surgery":
        names.insert(0, "Spay surgery" if pet[5] == "Female" else "Neuter surgery")
    names += [e for e in extras if rng.random() < (0.05 if e == "Microchipping" else 0.35)]
    return names


def make_billing(rng, appointments, pets):
    pet_by_id = {p[0]: p for p in pets}
    treatment_ids = {t[0]: (i, t[2]) for i, t in enumerate(TREATMENTS, 1)}
    medication_ids = {m[0]: i for i, m in enumerate(MEDICATIONS, 1)}
    invoices, items, prescriptions = [], [], []
    for appt in appointments:
        appt_id, pet_id, _, _, at, reason, status = appt
        if status != "Completed":
            continue
        pet, day = pet_by_id[pet_id], datetime.date.fromisoformat(at[:10])
        invoice_id, total = len(invoices) + 1, 0.0
        for name in billed_treatments(rng, reason, pet):
            treatment_id, price = treatment_ids[name]
            quantity = rng.randint(1, 3) if name in ("Tooth extraction", "Hospitalization (per day)") else 1
            items.append((len(items) + 1, invoice_id, treatment_id, quantity, price))
            total += quantity * price
        paid = day + datetime.timedelta(days=rng.choice([0, 0, 0, 0, 1, 3, 7, 14, 30]))
        # the data is a snapshot taken at the end of 2025: later payments are not in it yet
        unpaid = rng.random() < (0.25 if day >= datetime.date(2025, 11, 15) else 0.04) or paid > LAST_DAY
        invoices.append((invoice_id, appt_id, day.isoformat(), money(total),
                         None if unpaid else paid.isoformat()))
        choices = REASONS[reason][3]
        if choices and rng.random() < 0.7:
            for med in rng.sample(choices, rng.choices([1, 2], [75, 25])[0]):
                prescriptions.append((len(prescriptions) + 1, appt_id, medication_ids[med],
                                      rng.choice([7, 10, 14, 20, 28, 30, 60]), rng.choice(DOSAGES),
                                      rng.choices([0, 1, 2, 3], [60, 20, 12, 8])[0]))
    return invoices, items, prescriptions


def build(path):
    rng = random.Random(SEED)
    tables = {"clinics": make_clinics(rng), "veterinarians": make_veterinarians(rng)}
    tables["owners"] = make_owners(rng)
    tables["pets"] = make_pets(rng, tables["owners"])
    tables["appointments"] = make_appointments(rng, tables["owners"], tables["pets"], tables["veterinarians"])
    tables["treatments"] = [(i, *t) for i, t in enumerate(TREATMENTS, 1)]
    tables["medications"] = [(i, *m) for i, m in enumerate(MEDICATIONS, 1)]
    tables["invoices"], tables["invoice_items"], tables["prescriptions"] = make_billing(
        rng, tables["appointments"], tables["pets"])
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    order = ["clinics", "veterinarians", "owners", "pets", "appointments", "treatments",
             "medications", "invoices", "invoice_items", "prescriptions"]
    for name in order:
        rows = tables[name]
        db.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    db.commit()
    problems = db.execute("PRAGMA foreign_key_check").fetchall()
    db.execute("VACUUM")
    db.close()
    if problems:
        sys.exit(f"foreign key problems: {problems[:5]}")
    return {name: len(tables[name]) for name in order}


def main():
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "clinic.sqlite")
    path = sys.argv[1] if len(sys.argv) > 1 else default
    counts = build(path)
    print(f"wrote {path}: " + ", ".join(f"{name} {n}" for name, n in counts.items()))


if __name__ == "__main__":
    main()
