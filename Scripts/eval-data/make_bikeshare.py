#!/usr/bin/env python3
"""Generate bikeshare.sqlite, a held-out evaluation database for natural-language-to-SQL.

bikeshare.sqlite is the backend database of the Rails app behind Loopway, a made-up
bike-sharing service in the made-up town of Alder Bay. Riders sign up in the app, buy day
passes or monthly and annual memberships (sometimes with a promo code), unlock bikes at
docking stations and pay per ride when no membership covers it. The operations staff keep
the fleet running: mechanics work through maintenance tickets that riders or the dock's
self-check open.

Naming style: the one a Ruby on Rails app gets from its migrations. Tables are plural
snake_case (`users`, `bike_models`, `maintenance_tickets`, `promotion_redemptions`), every
primary key is a plain `id`, foreign keys are `<association>_id` and not always named after
the table (`home_station_id`, `start_station_id`, `end_station_id` and `current_station_id`
point to `stations`, `referred_by_id` to `users`, `manager_id` to `staff_members`,
`reported_by_id` to `users`, `assigned_to_id` to `staff_members`). Foreign keys are declared
as Rails declares them in SQLite (`CONSTRAINT "fk_rails_..." FOREIGN KEY ... REFERENCES`),
indexes are `index_<table>_on_<column>`. Every table has `created_at`/`updated_at`.
Timestamps are ISO text with microseconds, 'YYYY-MM-DD HH:MM:SS.ffffff', in the town's
local time; dates are 'YYYY-MM-DD'; booleans are INTEGER 1/0; enums are lower-case
strings; money is INTEGER cents (`price_cents`, `fare_cents`, `amount_cents`, ...).

The service launched on 2024-03-15; the data is a snapshot taken on 2025-09-30 at 18:00.

All of it is synthetic: no real people, places or companies are in it. The names come from
built-in lists and email addresses use reserved `example` domains. The generator is
deterministic (fixed SEED, random.Random(SEED) only), so every run writes the same rows.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_bikeshare.py [OUTPUT.sqlite]   (default: bikeshare.sqlite next to this script)
"""

import datetime as dt
import hashlib
import math
import os
import random
import sys

from evaldb import write_database

SEED = 40417263
LAUNCH = dt.date(2024, 3, 15)
SNAPSHOT = dt.datetime(2025, 9, 30, 18, 0, 0)
SNAP_DATE = SNAPSHOT.date()
FAR = dt.datetime(2100, 1, 1)


def fk(table, column):
    """A Rails-like constraint name: fk_rails_ + 10 hex digits derived from the names."""
    return "fk_rails_" + hashlib.sha1(f"{table}.{column}".encode()).hexdigest()[:10]


def references(table, column, target):
    return (f'CONSTRAINT "{fk(table, column)}" FOREIGN KEY ("{column}") '
            f'REFERENCES "{target}" ("id")')


SCHEMA = f"""
CREATE TABLE "plans" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "name" varchar NOT NULL,
  "slug" varchar NOT NULL,
  "price_cents" integer NOT NULL,
  "billing_interval" varchar NOT NULL,
  "included_minutes_per_ride" integer NOT NULL,
  "overage_cents_per_minute" integer NOT NULL,
  "ebike_cents_per_minute" integer NOT NULL,
  "active" boolean DEFAULT 1 NOT NULL,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL
);
CREATE UNIQUE INDEX "index_plans_on_slug" ON "plans" ("slug");
CREATE TABLE "promotions" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "code" varchar NOT NULL,
  "description" varchar NOT NULL,
  "discount_percent" integer NOT NULL,
  "plan_id" integer,
  "starts_on" date NOT NULL,
  "ends_on" date,
  "max_redemptions" integer,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("promotions", "plan_id", "plans")}
);
CREATE UNIQUE INDEX "index_promotions_on_code" ON "promotions" ("code");
CREATE INDEX "index_promotions_on_plan_id" ON "promotions" ("plan_id");
CREATE TABLE "stations" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "name" varchar NOT NULL,
  "neighborhood" varchar NOT NULL,
  "latitude" decimal(9,6) NOT NULL,
  "longitude" decimal(9,6) NOT NULL,
  "dock_count" integer NOT NULL,
  "status" varchar DEFAULT 'planned' NOT NULL,
  "opened_on" date,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL
);
CREATE UNIQUE INDEX "index_stations_on_name" ON "stations" ("name");
CREATE TABLE "bike_models" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "name" varchar NOT NULL,
  "manufacturer" varchar NOT NULL,
  "kind" varchar NOT NULL,
  "battery_range_km" integer,
  "weight_kg" decimal(4,1) NOT NULL,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL
);
CREATE TABLE "bikes" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "serial_number" varchar NOT NULL,
  "bike_model_id" integer NOT NULL,
  "status" varchar DEFAULT 'available' NOT NULL,
  "current_station_id" integer,
  "commissioned_on" date NOT NULL,
  "retired_on" date,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("bikes", "bike_model_id", "bike_models")},
  {references("bikes", "current_station_id", "stations")}
);
CREATE UNIQUE INDEX "index_bikes_on_serial_number" ON "bikes" ("serial_number");
CREATE INDEX "index_bikes_on_bike_model_id" ON "bikes" ("bike_model_id");
CREATE INDEX "index_bikes_on_current_station_id" ON "bikes" ("current_station_id");
CREATE TABLE "staff_members" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "first_name" varchar NOT NULL,
  "last_name" varchar NOT NULL,
  "email" varchar NOT NULL,
  "role" varchar NOT NULL,
  "manager_id" integer,
  "hourly_rate_cents" integer,
  "hired_on" date NOT NULL,
  "left_on" date,
  "active" boolean DEFAULT 1 NOT NULL,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("staff_members", "manager_id", "staff_members")}
);
CREATE UNIQUE INDEX "index_staff_members_on_email" ON "staff_members" ("email");
CREATE INDEX "index_staff_members_on_manager_id" ON "staff_members" ("manager_id");
CREATE TABLE "users" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "email" varchar DEFAULT '' NOT NULL,
  "first_name" varchar NOT NULL,
  "last_name" varchar NOT NULL,
  "phone" varchar,
  "home_station_id" integer,
  "referred_by_id" integer,
  "marketing_opt_in" boolean DEFAULT 0 NOT NULL,
  "sign_in_count" integer DEFAULT 0 NOT NULL,
  "last_sign_in_at" datetime(6),
  "confirmed_at" datetime(6),
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("users", "home_station_id", "stations")},
  {references("users", "referred_by_id", "users")}
);
CREATE UNIQUE INDEX "index_users_on_email" ON "users" ("email");
CREATE INDEX "index_users_on_home_station_id" ON "users" ("home_station_id");
CREATE INDEX "index_users_on_referred_by_id" ON "users" ("referred_by_id");
CREATE TABLE "subscriptions" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "user_id" integer NOT NULL,
  "plan_id" integer NOT NULL,
  "status" varchar DEFAULT 'active' NOT NULL,
  "starts_on" date NOT NULL,
  "ends_on" date,
  "auto_renew" boolean DEFAULT 1 NOT NULL,
  "cancelled_at" datetime(6),
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("subscriptions", "user_id", "users")},
  {references("subscriptions", "plan_id", "plans")}
);
CREATE INDEX "index_subscriptions_on_user_id" ON "subscriptions" ("user_id");
CREATE INDEX "index_subscriptions_on_plan_id" ON "subscriptions" ("plan_id");
CREATE TABLE "promotion_redemptions" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "promotion_id" integer NOT NULL,
  "user_id" integer NOT NULL,
  "subscription_id" integer NOT NULL,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("promotion_redemptions", "promotion_id", "promotions")},
  {references("promotion_redemptions", "user_id", "users")},
  {references("promotion_redemptions", "subscription_id", "subscriptions")}
);
CREATE UNIQUE INDEX "index_promotion_redemptions_on_promotion_id_and_user_id"
  ON "promotion_redemptions" ("promotion_id", "user_id");
CREATE INDEX "index_promotion_redemptions_on_user_id" ON "promotion_redemptions" ("user_id");
CREATE INDEX "index_promotion_redemptions_on_subscription_id"
  ON "promotion_redemptions" ("subscription_id");
CREATE TABLE "rides" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "user_id" integer NOT NULL,
  "bike_id" integer NOT NULL,
  "subscription_id" integer,
  "start_station_id" integer NOT NULL,
  "end_station_id" integer,
  "started_at" datetime(6) NOT NULL,
  "ended_at" datetime(6),
  "distance_meters" integer,
  "fare_cents" integer,
  "status" varchar DEFAULT 'in_progress' NOT NULL,
  "rating" integer,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("rides", "user_id", "users")},
  {references("rides", "bike_id", "bikes")},
  {references("rides", "subscription_id", "subscriptions")},
  {references("rides", "start_station_id", "stations")},
  {references("rides", "end_station_id", "stations")}
);
CREATE INDEX "index_rides_on_user_id" ON "rides" ("user_id");
CREATE INDEX "index_rides_on_bike_id" ON "rides" ("bike_id");
CREATE INDEX "index_rides_on_subscription_id" ON "rides" ("subscription_id");
CREATE INDEX "index_rides_on_start_station_id" ON "rides" ("start_station_id");
CREATE INDEX "index_rides_on_end_station_id" ON "rides" ("end_station_id");
CREATE INDEX "index_rides_on_started_at" ON "rides" ("started_at");
CREATE TABLE "payments" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "user_id" integer NOT NULL,
  "subscription_id" integer,
  "ride_id" integer,
  "kind" varchar NOT NULL,
  "amount_cents" integer NOT NULL,
  "currency" varchar DEFAULT 'usd' NOT NULL,
  "status" varchar NOT NULL,
  "processor_reference" varchar NOT NULL,
  "processed_at" datetime(6) NOT NULL,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("payments", "user_id", "users")},
  {references("payments", "subscription_id", "subscriptions")},
  {references("payments", "ride_id", "rides")}
);
CREATE INDEX "index_payments_on_user_id" ON "payments" ("user_id");
CREATE INDEX "index_payments_on_subscription_id" ON "payments" ("subscription_id");
CREATE INDEX "index_payments_on_ride_id" ON "payments" ("ride_id");
CREATE UNIQUE INDEX "index_payments_on_processor_reference" ON "payments" ("processor_reference");
CREATE TABLE "maintenance_tickets" (
  "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  "bike_id" integer NOT NULL,
  "station_id" integer NOT NULL,
  "ride_id" integer,
  "reported_by_id" integer,
  "assigned_to_id" integer,
  "issue" varchar NOT NULL,
  "priority" varchar DEFAULT 'normal' NOT NULL,
  "status" varchar DEFAULT 'open' NOT NULL,
  "opened_at" datetime(6) NOT NULL,
  "resolved_at" datetime(6),
  "resolution" varchar,
  "parts_cost_cents" integer,
  "labor_minutes" integer,
  "created_at" datetime(6) NOT NULL,
  "updated_at" datetime(6) NOT NULL,
  {references("maintenance_tickets", "bike_id", "bikes")},
  {references("maintenance_tickets", "station_id", "stations")},
  {references("maintenance_tickets", "ride_id", "rides")},
  {references("maintenance_tickets", "reported_by_id", "users")},
  {references("maintenance_tickets", "assigned_to_id", "staff_members")}
);
CREATE INDEX "index_maintenance_tickets_on_bike_id" ON "maintenance_tickets" ("bike_id");
CREATE INDEX "index_maintenance_tickets_on_station_id" ON "maintenance_tickets" ("station_id");
CREATE INDEX "index_maintenance_tickets_on_ride_id" ON "maintenance_tickets" ("ride_id");
CREATE INDEX "index_maintenance_tickets_on_reported_by_id" ON "maintenance_tickets" ("reported_by_id");
CREATE INDEX "index_maintenance_tickets_on_assigned_to_id" ON "maintenance_tickets" ("assigned_to_id");
"""

# ---------------------------------------------------------------- reference data

# (name, neighborhood, lat, lon, docks, opened_on or None); the town is made up
STATIONS = [
    ("Harbor Pier", "Harborfront", 47.6121, -122.6402, 23, LAUNCH),
    ("Ferry Terminal", "Harborfront", 47.6107, -122.6371, 31, LAUNCH),
    ("Seawall & Dock St", "Harborfront", 47.6139, -122.6428, 15, LAUNCH),
    ("Old Mill Square", "Old Mill", 47.6188, -122.6325, 19, LAUNCH),
    ("Millrace Park", "Old Mill", 47.6203, -122.6291, 15, LAUNCH),
    ("Tannery Lane", "Old Mill", 47.6221, -122.6340, 11, LAUNCH),
    ("University Library", "University Heights", 47.6287, -122.6215, 27, LAUNCH),
    ("Science Quad", "University Heights", 47.6301, -122.6188, 19, LAUNCH),
    ("College Ave & 3rd", "University Heights", 47.6269, -122.6242, 15, LAUNCH),
    ("Central Market", "Market District", 47.6159, -122.6276, 27, LAUNCH),
    ("City Hall", "Market District", 47.6171, -122.6250, 19, LAUNCH),
    ("Main & 5th", "Market District", 47.6148, -122.6239, 15, LAUNCH),
    ("Union Station", "Market District", 47.6133, -122.6218, 31, LAUNCH),
    ("Riverside Park", "Riverside", 47.6232, -122.6169, 19, LAUNCH),
    ("Footbridge", "Riverside", 47.6215, -122.6143, 11, LAUNCH),
    ("Boathouse", "Riverside", 47.6249, -122.6121, 15, LAUNCH),
    ("Northgate Transit Center", "Northgate", 47.6355, -122.6262, 23, LAUNCH),
    ("Hospital East", "Northgate", 47.6339, -122.6224, 15, LAUNCH),
    ("Eastside Library", "Eastside", 47.6178, -122.6087, 15, LAUNCH),
    ("Cedar & 12th", "Eastside", 47.6157, -122.6052, 11, LAUNCH),
    ("Westbrook Commons", "Westbrook", 47.6201, -122.6478, 19, dt.date(2024, 7, 1)),
    ("Westbrook Pool", "Westbrook", 47.6226, -122.6511, 11, dt.date(2024, 7, 1)),
    ("Linden Ave", "Westbrook", 47.6182, -122.6496, 15, dt.date(2024, 7, 1)),
    ("Pioneer Stadium", "Eastside", 47.6129, -122.6031, 23, dt.date(2024, 7, 1)),
    ("Northgate Mall", "Northgate", 47.6372, -122.6298, 19, dt.date(2024, 7, 1)),
    ("Lakeshore Trailhead", "Riverside", 47.6281, -122.6095, 15, dt.date(2025, 5, 20)),
    ("Fairgrounds", "Eastside", 47.6109, -122.5998, 19, dt.date(2025, 5, 20)),
    ("Tech Park", "Northgate", 47.6398, -122.6231, 23, dt.date(2025, 5, 20)),
    ("Southpoint Marina", "Harborfront", 47.6068, -122.6419, 15, None),
]
POPULARITY = {
    "Harbor Pier": 9, "Ferry Terminal": 14, "Seawall & Dock St": 5, "Old Mill Square": 8,
    "Millrace Park": 5, "Tannery Lane": 3, "University Library": 12, "Science Quad": 8,
    "College Ave & 3rd": 6, "Central Market": 13, "City Hall": 7, "Main & 5th": 6,
    "Union Station": 15, "Riverside Park": 8, "Footbridge": 4, "Boathouse": 5,
    "Northgate Transit Center": 9, "Hospital East": 5, "Eastside Library": 4,
    "Cedar & 12th": 2, "Westbrook Commons": 5, "Westbrook Pool": 3, "Linden Ave": 3,
    "Pioneer Stadium": 4, "Northgate Mall": 5, "Lakeshore Trailhead": 6, "Fairgrounds": 3,
    "Tech Park": 7, "Southpoint Marina": 0,
}
TOURIST_SPOTS = {"Harbor Pier", "Ferry Terminal", "Seawall & Dock St", "Old Mill Square",
                 "Central Market", "Riverside Park", "Boathouse", "Lakeshore Trailhead",
                 "Footbridge", "Millrace Park"}
FOOTBRIDGE_CLOSED = dt.datetime(2025, 8, 11, 6, 0)
INSPECTION_SWEEP = dt.datetime(2025, 9, 24, 0, 0)   # fleet-wide check before winter

# (name, slug, price_cents, interval, included min/ride, overage c/min, ebike c/min, active, created)
PLANS = [
    ("Day Pass", "day-pass", 1500, "day", 60, 20, 20, 1, dt.datetime(2024, 3, 1, 10, 2, 11)),
    ("Monthly", "monthly", 2400, "month", 45, 15, 15, 1, dt.datetime(2024, 3, 1, 10, 4, 40)),
    ("Student Monthly", "student-monthly", 1200, "month", 45, 15, 12, 1,
     dt.datetime(2024, 3, 1, 10, 6, 3)),
    ("Annual", "annual", 17900, "year", 45, 15, 12, 1, dt.datetime(2024, 3, 1, 10, 7, 52)),
    ("Founders Annual", "founders-annual", 9900, "year", 60, 10, 10, 0,
     dt.datetime(2024, 3, 1, 10, 9, 30)),
    ("Corporate Annual", "corporate-annual", 14900, "year", 45, 15, 12, 1,
     dt.datetime(2025, 9, 15, 9, 41, 7)),
]
DAY, MONTHLY, STUDENT, ANNUAL, FOUNDERS, CORPORATE = 1, 2, 3, 4, 5, 6
FOUNDERS_LAST_DAY = dt.date(2024, 5, 31)
PAYG_UNLOCK = 125
PAYG_CLASSIC = 35
PAYG_EBIKE = 50

# (code, description, percent, plan_id, starts_on, ends_on, max_redemptions)
PROMOTIONS = [
    ("LAUNCH50", "Half off your first pass or membership at launch", 50, None,
     dt.date(2024, 3, 15), dt.date(2024, 4, 30), None),
    ("FRIENDS10", "Referral discount on your first purchase", 10, None,
     dt.date(2024, 3, 15), None, None),
    ("SUMMERDAY", "Summer day pass discount", 30, DAY, dt.date(2024, 6, 1),
     dt.date(2024, 8, 31), None),
    ("BACK2SCHOOL", "Student monthly, first month discounted", 25, STUDENT,
     dt.date(2024, 8, 19), dt.date(2024, 9, 30), None),
    ("HOLIDAY24", "Holiday annual membership deal", 30, ANNUAL, dt.date(2024, 11, 29),
     dt.date(2024, 12, 31), 40),
    ("SPRING25", "Spring monthly membership offer", 40, MONTHLY, dt.date(2025, 3, 20),
     dt.date(2025, 4, 20), 60),
    ("SUMMERDAY25", "Summer day pass discount", 30, DAY, dt.date(2025, 6, 1),
     dt.date(2025, 8, 31), None),
    ("CORPFALL", "Corporate annual introductory offer", 20, CORPORATE, dt.date(2025, 9, 15),
     dt.date(2025, 12, 31), 200),
]

# (name, manufacturer, kind, range_km, weight, created)
BIKE_MODELS = [
    ("Roadster C3", "Halvard Cycles", "classic", None, 19.5, dt.datetime(2024, 2, 20, 14, 3, 9)),
    ("Voltline E2", "Brightwheel Mobility", "electric", 55, 27.0, dt.datetime(2024, 2, 20, 14, 5, 44)),
    ("Roadster C4", "Halvard Cycles", "classic", None, 18.2, dt.datetime(2024, 6, 18, 11, 20, 31)),
    ("Voltline E3", "Brightwheel Mobility", "electric", 70, 25.8, dt.datetime(2025, 4, 30, 16, 2, 57)),
    ("Voltline E4", "Brightwheel Mobility", "electric", 90, 24.9, dt.datetime(2025, 9, 8, 10, 15, 0)),
]
# (model id, count, commissioned on)
BIKE_BATCHES = [
    (1, 58, LAUNCH - dt.timedelta(days=3)),
    (2, 24, LAUNCH - dt.timedelta(days=3)),
    (3, 22, dt.date(2024, 6, 28)),
    (4, 16, dt.date(2025, 5, 19)),
    (4, 5, dt.date(2025, 9, 30)),   # delivered on the snapshot day, not ridden yet
]

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda",
         "David", "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica",
         "Thomas", "Sarah", "Daniel", "Karen", "Matthew", "Nancy", "Anthony", "Lisa", "Mark",
         "Emily", "Steven", "Ashley", "Andrew", "Michelle", "Joshua", "Amanda", "Kevin",
         "Melissa", "Brian", "Laura", "Ethan", "Olivia", "Noah", "Emma", "Liam", "Sophia",
         "Lucas", "Ava", "Mateo", "Mia", "Aiden", "Chloe", "Priya", "Arjun", "Wei", "Mei",
         "Hiroshi", "Yuki", "Carlos", "Lucia", "Omar", "Layla", "Tariq", "Ingrid", "Sven",
         "Nora", "Diego", "Camila", "Kwame", "Amara", "Rosa", "Felix", "Hannah", "Jonah"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
        "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson",
        "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White",
        "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
        "Scott", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall",
        "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Patel", "Kim", "Chen",
        "Okafor", "Larsen", "Novak", "Sato", "Mendoza", "Fischer", "Byrne", "Osei"]
STAFF = [
    # (first, last, role, manager index, hourly cents, hired, left)
    ("Marguerite", "Vance", "director", None, None, dt.date(2023, 11, 1), None),
    ("Desmond", "Achebe", "operations_manager", 0, None, dt.date(2024, 1, 8), None),
    ("Rosalind", "Quigley", "operations_manager", 0, None, dt.date(2024, 1, 15), None),
    ("Tobias", "Lindqvist", "mechanic", 1, 2850, dt.date(2024, 2, 12), None),
    ("Ximena", "Castellanos", "mechanic", 1, 2700, dt.date(2024, 2, 12), None),
    ("Dorian", "Whitlock", "mechanic", 1, 2600, dt.date(2024, 3, 4), dt.date(2025, 3, 31)),
    ("Imani", "Fairbanks", "mechanic", 1, 2750, dt.date(2024, 6, 17), None),
    ("Bartholomew", "Reyes", "mechanic", 1, 2650, dt.date(2025, 4, 7), None),
    ("Saoirse", "Delgado", "mechanic", 1, 2600, dt.date(2025, 9, 22), None),
    ("Ezekiel", "Mwangi", "rebalancer", 1, 2100, dt.date(2024, 3, 1), None),
    ("Penelope", "Hartigan", "rebalancer", 1, 2100, dt.date(2024, 3, 1), None),
    ("Caspian", "Oduya", "rebalancer", 1, 2050, dt.date(2024, 5, 20), dt.date(2024, 10, 11)),
    ("Wilhelmina", "Stroud", "rebalancer", 1, 2200, dt.date(2024, 6, 3), None),
    ("Thaddeus", "Blackwood", "rebalancer", 1, 2150, dt.date(2025, 4, 14), None),
    ("Anouk", "Verhoeven", "support_agent", 2, 2300, dt.date(2024, 3, 1), None),
    ("Lysander", "Pike", "support_agent", 2, 2300, dt.date(2024, 3, 11), dt.date(2025, 1, 17)),
    ("Genevieve", "Oyelaran", "support_agent", 2, 2400, dt.date(2024, 9, 9), None),
    ("Florian", "Zamora", "support_agent", 2, 2250, dt.date(2025, 2, 3), None),
    ("Cordelia", "Nakashima", "support_agent", 2, 2250, dt.date(2025, 6, 2), None),
]
ISSUES = ["flat_tire", "brakes", "chain", "gears", "lights", "lock", "battery", "frame"]
ISSUE_WEIGHTS_CLASSIC = [30, 18, 14, 12, 10, 8, 0, 3]
ISSUE_WEIGHTS_EBIKE = [24, 16, 8, 8, 8, 8, 22, 3]
PARTS = {"flat_tire": (600, 1500), "brakes": (1200, 3500), "chain": (1500, 3200),
         "gears": (1800, 4600), "lights": (400, 1800), "lock": (2500, 6400),
         "battery": (18000, 32000), "frame": (6000, 15000)}
SEASON = {1: .35, 2: .42, 3: .62, 4: .82, 5: 1.02, 6: 1.2, 7: 1.25, 8: 1.22, 9: 1.05, 10: .82,
          11: .55, 12: .4}


def ts(x):
    return x.strftime("%Y-%m-%d %H:%M:%S.%f")


def d(x):
    return x.isoformat()


def add_months(day, n):
    month = day.month - 1 + n
    year = day.year + month // 12
    month = month % 12 + 1
    last = [31, 29 if year % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return dt.date(year, month, min(day.day, last))


def at(rng, day, hour_lo, hour_hi):
    """A random moment on `day` between the two (fractional) hours, with microseconds."""
    seconds = rng.uniform(hour_lo * 3600, hour_hi * 3600)
    return (dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=int(seconds))
            ).replace(microsecond=rng.randint(0, 999999))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "bikeshare.sqlite")
    rng = random.Random(SEED)

    days = [LAUNCH + dt.timedelta(days=i) for i in range((SNAP_DATE - LAUNCH).days + 1)]
    weather = {day: (0.25 if rng.random() < 0.13 else rng.uniform(0.85, 1.1)) for day in days}

    def day_factor(day):
        f = SEASON[day.month] * weather[day]
        if day.weekday() >= 5:
            f *= 0.85
        return f

    # ------------------------------------------------------------ stations
    stations = []
    for i, (name, hood, lat, lon, docks, opened) in enumerate(STATIONS, start=1):
        if opened is None:
            created = dt.datetime(2025, 8, 26, 15, 12, 40, 118274)
            status, updated = "planned", created
        else:
            created = at(rng, opened - dt.timedelta(days=rng.randint(20, 40)), 9, 17)
            status, updated = "active", at(rng, opened, 6, 8)
        if name == "Footbridge":
            status, updated = "temporarily_closed", FOOTBRIDGE_CLOSED.replace(microsecond=402113)
        stations.append({"id": i, "name": name, "hood": hood, "lat": lat, "lon": lon,
                         "docks": docks, "opened": opened, "status": status,
                         "created": created, "updated": updated})
    by_name = {s["name"]: s for s in stations}
    footbridge = by_name["Footbridge"]["id"]

    def open_stations(moment):
        day = moment.date()
        return [s for s in stations if s["opened"] is not None and s["opened"] <= day
                and not (s["id"] == footbridge and moment >= FOOTBRIDGE_CLOSED)]

    def pick_station(moment, exclude=None, tourist=False):
        choices = [s for s in open_stations(moment) if s["id"] != exclude]
        weights = [POPULARITY[s["name"]] * (3 if tourist and s["name"] in TOURIST_SPOTS else 1)
                   for s in choices]
        return rng.choices(choices, weights=weights)[0]["id"]

    def station_open(sid, moment):
        s = stations[sid - 1]
        return (s["opened"] is not None and s["opened"] <= moment.date()
                and not (sid == footbridge and moment >= FOOTBRIDGE_CLOSED))

    # ------------------------------------------------------------ staff
    staff_rows = []
    for i, (first, last, role, mgr, rate, hired, left) in enumerate(STAFF, start=1):
        created = at(rng, hired - dt.timedelta(days=rng.randint(3, 12)), 9, 17)
        updated = at(rng, left, 16, 18) if left else at(rng, hired, 8, 10)
        staff_rows.append((i, first, last, f"{first.lower()}.{last.lower()}@loopway.example",
                           role, None if mgr is None else mgr + 1, rate, d(hired),
                           d(left) if left else None, 0 if left else 1, ts(created), ts(updated)))
    mechanics = [(r[0], STAFF[r[0] - 1][5], STAFF[r[0] - 1][6]) for r in staff_rows
                 if r[4] == "mechanic" and r[0] != 9]   # the newest mechanic has no ticket yet

    # ------------------------------------------------------------ bikes
    bikes = []
    for model_id, count, commissioned in BIKE_BATCHES:
        for _ in range(count):
            bikes.append({"model": model_id, "electric": BIKE_MODELS[model_id - 1][2] == "electric",
                          "commissioned": commissioned})
    for i, b in enumerate(bikes, start=1):
        b["id"] = i
        b["serial"] = f"LW-{'E' if b['electric'] else 'C'}{(i * 7919) % 90000 + 10000}"
        b["created"] = at(rng, b["commissioned"] - dt.timedelta(days=rng.randint(1, 6)), 9, 17)
        b["start"] = dt.datetime.combine(b["commissioned"], dt.time(6, 0))
        b["loc"] = pick_station(max(b["start"], dt.datetime.combine(LAUNCH, dt.time(6))))
        b["free_at"] = b["start"]
        b["state"] = "docked"
        b["retired_at"] = None
        b["sim"] = b["commissioned"] < dt.date(2025, 9, 30)
        b["updated"] = b["created"]

    # ------------------------------------------------------------ users and their plans
    plan_price = {i: p[2] for i, p in enumerate(PLANS, start=1)}
    kinds = ["unconfirmed", "idle", "tourist", "casual", "monthly", "student", "annual"]
    kind_weights = [4, 7, 31, 29, 15, 5, 9]
    n_users = 1450

    signup_weights = []
    for day in days:
        age = (day - LAUNCH).days
        w = SEASON[day.month] * (1.0 + age / 400)
        if age < 14:
            w *= 6
        signup_weights.append(w)

    users = []
    for _ in range(n_users):
        kind = rng.choices(kinds, weights=kind_weights)[0]
        day = rng.choices(days, weights=signup_weights)[0]
        if kind == "tourist" and day.month in (11, 12, 1, 2) and rng.random() < 0.6:
            day = rng.choices(days, weights=signup_weights)[0]
        created = at(rng, day, 7, 22)
        if created > SNAPSHOT - dt.timedelta(hours=2):
            created = SNAPSHOT - dt.timedelta(hours=rng.randint(3, 40), minutes=rng.randint(0, 59),
                                              microseconds=rng.randint(0, 999999))
        users.append({"kind": kind, "created": created})
    users.sort(key=lambda u: u["created"])
    used_emails = set()
    domains = ["example.com", "example.org", "example.net"]
    for i, u in enumerate(users, start=1):
        u["id"] = i
        u["first"], u["last"] = rng.choice(FIRST), rng.choice(LAST)
        base = f"{u['first'].lower()}.{u['last'].lower()}"
        email = f"{base}@{rng.choice(domains)}"
        n = 2
        while email in used_emails:
            email = f"{base}{n}@{rng.choice(domains)}"
            n += 1
        used_emails.add(email)
        u["email"] = email
        u["phone"] = (f"+1-360-555-{rng.randint(100, 199):04d}" if rng.random() < 0.7 else None)
        homes = open_stations(u["created"])
        u["home"] = (rng.choices(homes, weights=[POPULARITY[s["name"]] + 3 for s in homes])[0]["id"]
                     if u["kind"] not in ("unconfirmed", "tourist") and rng.random() < 0.75 else None)
        u["work"] = pick_station(u["created"], exclude=u["home"])
        u["referred_by"] = None
        if i > 40 and u["kind"] not in ("unconfirmed", "tourist") and rng.random() < 0.14:
            referrers = [v for v in users[:i - 1]
                         if v["kind"] in ("monthly", "annual", "student", "casual")
                         and v["created"] < u["created"] - dt.timedelta(days=2)]
            if referrers:
                u["referred_by"] = rng.choice(referrers)["id"]
        u["opt_in"] = 1 if rng.random() < 0.38 else 0
        u["confirmed"] = (None if u["kind"] == "unconfirmed"
                          else u["created"] + dt.timedelta(minutes=rng.uniform(0.5, 2.5),
                                                           microseconds=rng.randint(0, 999999)))
        u["subs"] = []
        u["requests"] = []

    subs = []          # dicts
    redemptions = []   # (promotion index, user, sub)
    promo_used = [0] * len(PROMOTIONS)

    def new_sub(u, plan, start_moment, auto_renew):
        s = {"user": u["id"], "plan": plan, "created": start_moment, "starts": start_moment.date(),
             "auto_renew": auto_renew, "cancelled": None, "ends": None, "status": "active",
             "promo": None, "u": u}
        # promo codes at purchase
        for pi, (code, _, pct, pplan, p_from, p_to, p_max) in enumerate(PROMOTIONS):
            if s["starts"] < p_from or (p_to is not None and s["starts"] > p_to):
                continue
            if pplan is not None and pplan != plan:
                continue
            if p_max is not None and promo_used[pi] >= p_max:
                continue
            if any(r[0] == pi and r[1] == u["id"] for r in redemptions):
                continue
            if code == "FRIENDS10":
                if u["referred_by"] is None or u["subs"] or rng.random() > 0.65:
                    continue
            elif rng.random() > (0.55 if code == "LAUNCH50" else 0.7 if pplan in (ANNUAL, MONTHLY, STUDENT) else 0.35):
                continue
            promo_used[pi] += 1
            s["promo"] = pi
            redemptions.append((pi, u["id"], s))
            break
        u["subs"].append(s)
        subs.append(s)
        return s

    def run_membership(u, plan, start_moment, months_mean, interval_months, renewing=True,
                       cancel_rate=None):
        """Create one membership; returns the moment its coverage stops (or FAR)."""
        s = new_sub(u, plan, start_moment, 1 if renewing else 0)
        start = s["starts"]
        if not renewing:
            end_day = add_months(start, interval_months) - dt.timedelta(days=1)
            s["ends"] = end_day
            s["status"] = "expired" if end_day < SNAP_DATE else "active"
            return dt.datetime.combine(end_day, dt.time(23, 59, 59)) if end_day < SNAP_DATE else FAR
        periods = 1
        rate = cancel_rate if cancel_rate is not None else 1.0 / months_mean
        while rng.random() > rate:
            periods += 1
        last_start = add_months(start, interval_months * (periods - 1))
        if last_start > SNAP_DATE:
            return FAR
        period_end = add_months(start, interval_months * periods)
        cancel_day = last_start + dt.timedelta(days=rng.randint(0, max(0, (period_end - last_start).days - 1)))
        cancel = at(rng, cancel_day, 7, 23)
        if cancel <= s["created"]:
            cancel = s["created"] + dt.timedelta(hours=rng.uniform(1, 5))
        if cancel >= SNAPSHOT:
            return FAR
        s["cancelled"] = cancel
        s["ends"] = cancel.date()
        s["status"] = "cancelled"
        return cancel

    def payg_window(u, lo, hi, rate, tourist=False):
        u["windows"].append((lo, hi, rate, None, tourist))

    for u in users:
        u["windows"] = []   # (from, to, rides/day, subscription or None, tourist)
        kind = u["kind"]
        c = u["created"]
        if kind in ("unconfirmed", "idle"):
            continue
        if kind == "tourist":
            visits = [c.date()]
            if rng.random() < 0.15:
                later = c.date() + dt.timedelta(days=rng.randint(30, 400))
                if later <= SNAP_DATE:
                    visits.append(later)
            for vi, vday in enumerate(visits):
                first = c + dt.timedelta(minutes=rng.uniform(3, 25)) if vi == 0 else at(rng, vday, 9.5, 14)
                if first.hour >= 20 or first >= SNAPSHOT - dt.timedelta(hours=1):
                    continue
                s = None
                if rng.random() < 0.62:
                    bought = max(first - dt.timedelta(minutes=rng.uniform(1, 6)),
                                 u["confirmed"] + dt.timedelta(seconds=rng.uniform(50, 90)))
                    s = new_sub(u, DAY, bought, 0)
                    s["ends"] = s["starts"]
                    s["status"] = "expired" if s["starts"] < SNAP_DATE else "active"
                n = rng.choice([2, 2, 3, 3, 4, 5]) if s else rng.choice([1, 1, 2])
                u["requests"].append(("tour", first, n, s))
            continue
        end_of_life = c + dt.timedelta(days=rng.expovariate(1 / 420))
        if kind == "casual":
            rate = rng.uniform(0.012, 0.07)
            payg_window(u, c, min(end_of_life, SNAPSHOT), rate)
            continue
        # members
        moment = c + dt.timedelta(minutes=rng.uniform(2, 30))
        if rng.random() < 0.3:
            trial = min(moment + dt.timedelta(days=rng.randint(10, 90)), SNAPSHOT)
            payg_window(u, moment, trial, rng.uniform(0.04, 0.12))
            moment = at(rng, trial.date(), 7, 21) if trial < SNAPSHOT else SNAPSHOT
        intensity = rng.uniform(0.04, 0.17)
        memberships = 1 if rng.random() < 0.8 else 2
        for _ in range(memberships):
            if moment >= SNAPSHOT - dt.timedelta(hours=1):
                break
            if kind in ("monthly", "student"):
                plan = STUDENT if kind == "student" else MONTHLY
                stop = run_membership(u, plan, moment, rng.uniform(3, 9), 1)
                chain = [(u["subs"][-1], moment, stop)]
            else:
                chain = []
                plan = FOUNDERS if moment.date() <= FOUNDERS_LAST_DAY else ANNUAL
                renewing = plan == ANNUAL and rng.random() < 0.78
                stop = run_membership(u, plan, moment, None, 12, renewing, cancel_rate=0.25)
                chain.append((u["subs"][-1], moment, stop))
                if plan == FOUNDERS and stop < SNAPSHOT and rng.random() < 0.7:
                    nxt = dt.datetime.combine(stop.date() + dt.timedelta(days=1), dt.time(0, 0, 5)
                                              ).replace(microsecond=rng.randint(0, 999999))
                    if nxt < SNAPSHOT:
                        renewing = rng.random() < 0.8
                        stop = run_membership(u, ANNUAL, nxt, None, 12, renewing, cancel_rate=0.3)
                        chain.append((u["subs"][-1], nxt, stop))
            for s, lo, hi in chain:
                u["windows"].append((lo, min(hi, SNAPSHOT), intensity, s, False))
            if stop >= SNAPSHOT:
                break
            gap_end = stop + dt.timedelta(days=rng.randint(20, 200))
            payg_window(u, stop + dt.timedelta(minutes=1), min(gap_end, end_of_life, SNAPSHOT),
                        rng.uniform(0.01, 0.05))
            moment = at(rng, gap_end.date(), 7, 21)
            if gap_end > end_of_life or moment >= SNAPSHOT:
                break

    # ------------------------------------------------------------ ride requests
    requests = []   # (start, user, start station, end station, seconds, wants ebike, tourist)

    def duration(tourist, member):
        median = 24 if tourist else (11 if member else 15)
        minutes = rng.lognormvariate(math.log(median), 0.55 if tourist else 0.5)
        minutes = max(2.2, min(minutes, 170 if tourist else 95))
        return int(minutes * 60) + rng.randint(0, 59)

    for u in users:
        wants_e = rng.random() < 0.35
        for lo, hi, rate, sub, tourist in u["windows"]:
            if hi <= lo:
                continue
            day = lo.date()
            while day <= hi.date():
                lam = rate * day_factor(day)
                if rng.random() < lam:
                    weekday = day.weekday() < 5
                    commute = sub is not None and weekday and rng.random() < 0.65
                    if commute:
                        t1 = at(rng, day, 6.8, 9.4)
                        a, b = (u["home"] or pick_station(t1)), u["work"]
                    else:
                        t1 = at(rng, day, 9 if not weekday else 10, 21.5)
                        a = u["home"] if (u["home"] and rng.random() < 0.4) else pick_station(t1)
                        b = a if rng.random() < 0.05 else pick_station(t1, exclude=a)
                    if a == b and commute:
                        b = pick_station(t1, exclude=a)
                    sec = duration(False, sub is not None)
                    if lo <= t1 <= hi:
                        requests.append([t1, u["id"], a, b, sec, wants_e or rng.random() < 0.15])
                        if rng.random() < (0.8 if commute else 0.25):
                            t2 = t1 + dt.timedelta(seconds=sec + rng.uniform(3.5, 9.5) * 3600)
                            if t2.hour < 23 and t2.date() == day and t2 <= hi:
                                requests.append([t2, u["id"], b, a, duration(False, sub is not None),
                                                 wants_e or rng.random() < 0.15])
                day += dt.timedelta(days=1)
        for kind, first, n, sub in u["requests"]:
            t = first
            here = pick_station(t, tourist=True)
            for k in range(n):
                there = here if rng.random() < 0.25 else pick_station(t, exclude=here, tourist=True)
                sec = duration(True, False)
                if t.hour >= 21:
                    break
                requests.append([t, u["id"], here, there, sec, wants_e or rng.random() < 0.3])
                here = there
                t = t + dt.timedelta(seconds=sec + rng.uniform(20, 150) * 60)

    # a few people out riding at the moment of the snapshot
    riders_now = [u for u in users if any(w[3] is not None and w[1] >= SNAPSHOT for w in u["windows"])]
    for u in rng.sample(riders_now, 7):
        t = SNAPSHOT - dt.timedelta(minutes=rng.uniform(4, 38), microseconds=rng.randint(0, 999999))
        a = u["home"] or pick_station(t)
        requests.append([t, u["id"], a, pick_station(t, exclude=a), rng.randint(45, 70) * 60, False])

    requests.sort(key=lambda r: (r[0], r[1]))
    user_by_id = {u["id"]: u for u in users}
    # one ride at a time per user
    last_end = {}
    kept = []
    for r in requests:
        t, uid = r[0], r[1]
        if t >= SNAPSHOT:
            continue
        if uid in last_end and t < last_end[uid] + dt.timedelta(minutes=5):
            continue
        if t < user_by_id[uid]["confirmed"] + dt.timedelta(minutes=1):
            continue
        if not station_open(r[2], t) or not station_open(r[3], t):
            continue
        last_end[uid] = t + dt.timedelta(seconds=r[4])
        kept.append(r)

    # ------------------------------------------------------------ fleet simulation
    rides, tickets = [], []
    retired = 0
    sim_bikes = [b for b in bikes if b["sim"]]

    def release(b, t):
        """A bike back from the workshop goes to some open station."""
        if b["state"] == "workshop" and b["free_at"] <= t and b["retired_at"] is None:
            b["state"] = "docked"
            b["loc"] = pick_station(b["free_at"])

    def make_ticket(b, ride_obj, reporter, station, opened):
        nonlocal retired
        weights = ISSUE_WEIGHTS_EBIKE if b["electric"] else ISSUE_WEIGHTS_CLASSIC
        issue = rng.choices(ISSUES, weights=weights)[0]
        priority = ("high" if issue in ("brakes", "frame") else
                    rng.choices(["low", "normal", "high"], weights=[3, 6, 1])[0])
        hours = rng.lognormvariate(math.log(30), 0.9)
        if priority == "high":
            hours *= 0.5
        elif priority == "low":
            hours *= 5
        resolved = opened + dt.timedelta(hours=max(1.5, min(hours, 400)),
                                         microseconds=rng.randint(0, 999999))
        t = {"bike": b["id"], "station": station, "ride": ride_obj, "reporter": reporter,
             "issue": issue, "priority": priority, "opened": opened}
        staff_ok = [m for m in mechanics if m[1] <= opened.date() and (m[2] is None or m[2] > opened.date())]
        if resolved < SNAPSHOT:
            writeoff = issue == "frame" and retired < 6 and rng.random() < 0.55
            t.update(status="resolved", resolved=resolved, assigned=rng.choice(staff_ok)[0],
                     resolution="written_off" if writeoff else
                     rng.choices(["repaired", "replaced_part", "no_fault_found"], weights=[5, 4, 1])[0],
                     labor=rng.randint(10, 120))
            lo, hi = PARTS[issue]
            if t["resolution"] == "replaced_part":
                t["parts"] = rng.randint(lo, hi)
            elif t["resolution"] == "repaired":
                t["parts"] = rng.choice([150, 250, 300, 450, 600]) if rng.random() < 0.6 else 0
            else:
                t["parts"] = 0
            if writeoff:
                retired += 1
                b["retired_at"] = resolved
                t["labor"] = rng.randint(10, 30)
        else:
            fresh = opened > SNAPSHOT - dt.timedelta(days=3)
            if fresh and rng.random() < 0.6:
                t.update(status="open", resolved=None, assigned=None, resolution=None,
                         parts=None, labor=None)
            else:
                t.update(status="in_progress", resolved=None, assigned=rng.choice(staff_ok)[0],
                         resolution=None, parts=None, labor=None)
            resolved = FAR
        tickets.append(t)
        b["state"] = "workshop"
        b["loc"] = None
        b["free_at"] = resolved
        b["updated"] = max(b["updated"], opened)

    for r in kept:
        t, uid, a, bst, sec, wants_e = r
        for b in sim_bikes:
            release(b, t)
        free = [b for b in sim_bikes if b["state"] == "docked" and b["free_at"] <= t
                and b["start"] <= t and b["retired_at"] is None]
        if not free:
            continue
        here = [b for b in free if b["loc"] == a]
        pool = here or free   # otherwise a rebalancing van brought one
        if wants_e and any(b["electric"] for b in pool):
            pool = [b for b in pool if b["electric"]]
        elif not wants_e and any(not b["electric"] for b in pool) and rng.random() < 0.8:
            pool = [b for b in pool if not b["electric"]]
        b = rng.choice(pool)
        end = t + dt.timedelta(seconds=sec, microseconds=rng.randint(0, 999999))
        ride = {"user": uid, "bike": b["id"], "start_station": a, "started": t, "electric": b["electric"]}
        if rng.random() < 0.012:
            end = t + dt.timedelta(seconds=rng.randint(25, 100), microseconds=rng.randint(0, 999999))
            ride.update(status="cancelled", end_station=a, ended=end, distance=0, rating=None)
            bst = a
        elif end > SNAPSHOT:
            ride.update(status="in_progress", end_station=None, ended=None, distance=None, rating=None)
        else:
            speed = 16.5 if b["electric"] else 12.0   # km/h
            dist = int(sec / 3600 * speed * 1000 * rng.uniform(0.55, 0.92))
            if a == bst:
                dist = int(dist * 0.8)
            rating = None
            if rng.random() < 0.42:
                rating = rng.choices([1, 2, 3, 4, 5], weights=[3, 4, 10, 33, 50])[0]
            ride.update(status="completed", end_station=bst, ended=end,
                        distance=None if rng.random() < 0.03 else dist, rating=rating)
        rides.append(ride)
        if ride["status"] == "in_progress":
            b["state"], b["loc"], b["free_at"] = "riding", None, FAR
            continue
        b["loc"], b["free_at"] = bst, end
        b["updated"] = max(b["updated"], end)
        if ride["status"] == "completed":
            roll = rng.random()
            if roll < 0.028:
                opened = end + dt.timedelta(minutes=rng.uniform(1, 20))
                if opened < SNAPSHOT:
                    if ride["rating"] is not None:
                        ride["rating"] = rng.choice([1, 1, 2, 2, 3])
                    make_ticket(b, ride, uid, bst, opened)
            elif roll < (0.04 if end < INSPECTION_SWEEP else 0.1):
                opened = end + dt.timedelta(minutes=rng.uniform(30, 600))
                if opened < SNAPSHOT and (b["free_at"] <= opened):
                    make_ticket(b, None, None, bst, opened)

    # ------------------------------------------------------------ bikes at the snapshot
    for b in bikes:
        release(b, SNAPSHOT)
        if b["retired_at"] is not None:
            b["status"], b["station"], b["retired_on"] = "retired", None, b["retired_at"].date()
            b["updated"] = b["retired_at"]
        elif b["state"] == "riding":
            b["status"], b["station"], b["retired_on"] = "in_use", None, None
        elif b["state"] == "workshop":
            b["status"], b["station"], b["retired_on"] = "maintenance", None, None
        else:
            loc = b["loc"]
            if not b["sim"]:
                loc = by_name["Tech Park"]["id"]
                b["updated"] = at(rng, SNAP_DATE, 14, 16)
            elif not station_open(loc, SNAPSHOT):
                loc = pick_station(SNAPSHOT)
            b["status"], b["station"], b["retired_on"] = "available", loc, None

    # ------------------------------------------------------------ fares, coverage, payments
    plan_by_id = {i: p for i, p in enumerate(PLANS, start=1)}

    def covers(s, moment):
        if moment < s["created"]:
            return False
        if s["cancelled"] is not None:
            return moment < s["cancelled"]
        if s["ends"] is not None:
            return moment.date() <= s["ends"]
        return True

    for ride in rides:
        u = user_by_id[ride["user"]]
        cover = [s for s in u["subs"] if covers(s, ride["started"])]
        s = cover[0] if cover else None
        ride["sub"] = s
        if ride["status"] != "completed":
            ride["fare"] = 0 if ride["status"] == "cancelled" else None
            continue
        minutes = math.ceil((ride["ended"] - ride["started"]).total_seconds() / 60)
        if s is None:
            ride["fare"] = PAYG_UNLOCK + minutes * (PAYG_EBIKE if ride["electric"] else PAYG_CLASSIC)
        else:
            p = plan_by_id[s["plan"]]
            if ride["electric"]:
                ride["fare"] = minutes * p[6]
            else:
                ride["fare"] = max(0, minutes - p[4]) * p[5]

    # ids
    rides.sort(key=lambda r: (r["started"], r["user"]))
    for i, ride in enumerate(rides, start=1):
        ride["id"] = i
    subs.sort(key=lambda s: (s["created"], s["user"]))
    for i, s in enumerate(subs, start=1):
        s["id"] = i

    payments = []   # [user, sub, ride, kind, amount, status, processed]

    def charge(uid, sub_id, ride_id, kind, amount, moment):
        roll = rng.random()
        if roll < 0.025:
            payments.append([uid, sub_id, ride_id, kind, amount, "failed", moment])
            moment = moment + dt.timedelta(hours=rng.uniform(20, 30), microseconds=rng.randint(0, 999999))
            if moment >= SNAPSHOT:
                return
            roll = 1.0
        status = "refunded" if (kind == "ride" and roll < 0.045) else "succeeded"
        payments.append([uid, sub_id, ride_id, kind, amount, status, moment])

    for s in subs:
        price = plan_price[s["plan"]]
        interval = {"day": 0, "month": 1, "year": 12}[plan_by_id[s["plan"]][3]]
        first = price if s["promo"] is None else price * (100 - PROMOTIONS[s["promo"]][2]) // 100
        charge(s["user"], s["id"], None, "subscription", first,
               s["created"] + dt.timedelta(seconds=rng.uniform(1, 8)))
        if interval == 0:
            continue
        k = 1
        while True:
            day = add_months(s["starts"], interval * k)
            moment = at(rng, day, 3, 4)
            if moment >= SNAPSHOT:
                break
            if s["ends"] is not None and day > s["ends"]:
                break
            if s["cancelled"] is not None and moment >= s["cancelled"]:
                break
            if s["auto_renew"] == 0:
                break
            charge(s["user"], s["id"], None, "subscription", price, moment)
            k += 1
    for ride in rides:
        if ride["status"] == "completed" and ride["fare"] > 0:
            moment = ride["ended"] + dt.timedelta(seconds=rng.uniform(2, 50))
            moment = min(moment, ride["ended"] + (SNAPSHOT - ride["ended"]) / 2)
            if moment < SNAPSHOT:
                charge(ride["user"], None, ride["id"], "ride", ride["fare"], moment)
    payments.sort(key=lambda p: (p[6], p[0]))
    pay_rows = []
    for i, p in enumerate(payments, start=1):
        ref = "ch_" + "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz") for _ in range(24))
        updated = p[6] + dt.timedelta(days=rng.uniform(1, 6)) if p[5] == "refunded" else p[6]
        if updated > SNAPSHOT:
            updated = SNAPSHOT - dt.timedelta(minutes=rng.uniform(1, 50))
        pay_rows.append((i, p[0], p[1], p[2], p[3], p[4], "usd", p[5], ref, ts(p[6]), ts(p[6]),
                         ts(updated)))

    # ------------------------------------------------------------ users' activity
    last_activity = {}
    for ride in rides:
        last_activity[ride["user"]] = max(last_activity.get(ride["user"], ride["started"]), ride["started"])
    for s in subs:
        last_activity[s["user"]] = max(last_activity.get(s["user"], s["created"]), s["created"])
    user_rows = []
    for u in users:
        if u["confirmed"] is None:
            signins, last_in, updated = 0, None, u["created"]
        else:
            last = last_activity.get(u["id"], u["confirmed"])
            last_in = last - dt.timedelta(minutes=rng.uniform(0.5, 3))
            if last_in < u["confirmed"]:
                last_in = u["confirmed"]
            signins = 1 + int((last - u["created"]).days / rng.uniform(12, 40)) + rng.randint(0, 2)
            updated = last_in
        user_rows.append((u["id"], u["email"], u["first"], u["last"], u["phone"], u["home"],
                          u["referred_by"], u["opt_in"], signins, ts(last_in) if last_in else None,
                          ts(u["confirmed"]) if u["confirmed"] else None, ts(u["created"]),
                          ts(updated)))

    # ------------------------------------------------------------ rows
    plan_rows = [(i, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], ts(p[8]),
                  ts(p[8] if p[7] else dt.datetime(2024, 6, 1, 0, 0, 12, 40113)))
                 for i, p in enumerate(PLANS, start=1)]
    promo_rows = []
    for i, (code, desc, pct, plan, p_from, p_to, p_max) in enumerate(PROMOTIONS, start=1):
        created = at(rng, p_from - dt.timedelta(days=rng.randint(2, 10)), 9, 17)
        promo_rows.append((i, code, desc, pct, plan, d(p_from), d(p_to) if p_to else None, p_max,
                           ts(created), ts(created)))
    station_rows = [(s["id"], s["name"], s["hood"], s["lat"], s["lon"], s["docks"], s["status"],
                     d(s["opened"]) if s["opened"] else None, ts(s["created"]), ts(s["updated"]))
                    for s in stations]
    model_rows = [(i, m[0], m[1], m[2], m[3], m[4], ts(m[5]), ts(m[5]))
                  for i, m in enumerate(BIKE_MODELS, start=1)]
    bike_rows = [(b["id"], b["serial"], b["model"], b["status"], b["station"], d(b["commissioned"]),
                  d(b["retired_on"]) if b["retired_on"] else None, ts(b["created"]),
                  ts(max(b["updated"], b["created"]))) for b in bikes]
    sub_rows = []
    for s in subs:
        updated = s["created"]
        if s["cancelled"] is not None:
            updated = s["cancelled"]
        elif s["status"] == "expired":
            updated = at(rng, s["ends"] + dt.timedelta(days=1), 0, 1)
        sub_rows.append((s["id"], s["user"], s["plan"], s["status"], d(s["starts"]),
                         d(s["ends"]) if s["ends"] else None, s["auto_renew"],
                         ts(s["cancelled"]) if s["cancelled"] else None, ts(s["created"]), ts(updated)))
    red_rows = []
    for i, (pi, uid, s) in enumerate(sorted(redemptions, key=lambda r: r[2]["id"]), start=1):
        moment = max(s["created"] - dt.timedelta(seconds=rng.uniform(5, 40)),
                     s["u"]["confirmed"] + (s["created"] - s["u"]["confirmed"]) / 2)
        red_rows.append((i, pi + 1, uid, s["id"], ts(moment), ts(moment)))
    ride_rows = []
    for ride in rides:
        updated = ride["ended"] or ride["started"]
        if ride["rating"] is not None:
            updated = ride["ended"] + dt.timedelta(seconds=rng.uniform(15, 300))
        ride_rows.append((ride["id"], ride["user"], ride["bike"],
                          ride["sub"]["id"] if ride["sub"] else None, ride["start_station"],
                          ride["end_station"], ts(ride["started"]),
                          ts(ride["ended"]) if ride["ended"] else None, ride["distance"],
                          ride["fare"], ride["status"], ride["rating"], ts(ride["started"]),
                          ts(updated)))
    tickets.sort(key=lambda t: t["opened"])
    ticket_rows = []
    for i, t in enumerate(tickets, start=1):
        updated = t["resolved"] or t["opened"]
        if t["status"] == "in_progress":
            updated = t["opened"] + dt.timedelta(minutes=rng.uniform(20, 900))
            if updated > SNAPSHOT:
                updated = SNAPSHOT - dt.timedelta(minutes=rng.uniform(1, 30))
        ticket_rows.append((i, t["bike"], t["station"], t["ride"]["id"] if t["ride"] else None,
                            t["reporter"], t["assigned"], t["issue"], t["priority"], t["status"],
                            ts(t["opened"]), ts(t["resolved"]) if t["resolved"] else None,
                            t["resolution"], t["parts"], t["labor"], ts(t["opened"]), ts(updated)))

    tables = [
        ("plans", plan_rows),
        ("promotions", promo_rows),
        ("stations", station_rows),
        ("bike_models", model_rows),
        ("bikes", bike_rows),
        ("staff_members", staff_rows),
        ("users", user_rows),
        ("subscriptions", sub_rows),
        ("promotion_redemptions", red_rows),
        ("rides", ride_rows),
        ("payments", pay_rows),
        ("maintenance_tickets", ticket_rows),
    ]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
