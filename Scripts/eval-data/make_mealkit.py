#!/usr/bin/env python3
"""Generate mealkit.sqlite: the database of a made-up meal-kit subscription company's web app.

Sprig & Skillet delivers weekly recipe boxes in 10 cities of Washington, Oregon, California
and Idaho. The schema is the one a Laravel app creates: plural snake_case tables, plain `id`
keys, `<singular>_id` foreign keys (plus `referred_by_id`, `delivery_address_id` and
`delivered_by`), `created_at`/`updated_at` timestamps, soft deletes (`deleted_at`) on
customers and recipes, booleans as 0/1, plan prices as REAL dollars and order money as
integer cents. The data is a snapshot taken at the end of 2025-06-30.

Python 3, standard library only, deterministic (fixed seed). All names are made up.

Usage: python3 make_mealkit.py [OUTPUT.sqlite]   (default: mealkit.sqlite next to this script)
"""

import datetime as dt
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaldb  # noqa: E402

R = random.Random(40719263)

LAUNCH = dt.date(2023, 1, 9)          # first deliveries (a Monday)
SETUP = dt.datetime(2022, 12, 5, 10, 0, 0)
SNAPSHOT = dt.date(2025, 6, 30)       # data as of the end of this day
SNAP_END = dt.datetime(2025, 6, 30, 23, 59, 59)


def ts(value):
    return value.strftime("%Y-%m-%d %H:%M:%S")


def ds(value):
    return value.strftime("%Y-%m-%d")


def at_time(day, lo=7, hi=22):
    """A datetime on `day` at a random time between lo:00 and hi:00."""
    seconds = R.randrange(lo * 3600, hi * 3600)
    return dt.datetime(day.year, day.month, day.day) + dt.timedelta(seconds=seconds)


def later(moment, lo_minutes, hi_minutes):
    return moment + dt.timedelta(minutes=R.randint(lo_minutes, hi_minutes))


def weighted(pairs):
    total = sum(w for _, w in pairs)
    x = R.random() * total
    for value, w in pairs:
        x -= w
        if x < 0:
            return value
    return pairs[-1][0]


SCHEMA = """
CREATE TABLE "plans" (
  "id" integer primary key autoincrement not null,
  "name" varchar not null,
  "slug" varchar not null,
  "servings_per_recipe" integer not null,
  "recipes_per_week" integer not null,
  "price_per_serving" double not null,
  "shipping_fee" double not null,
  "is_vegetarian" tinyint(1) not null default '0',
  "is_active" tinyint(1) not null default '1',
  "created_at" datetime,
  "updated_at" datetime
);
CREATE UNIQUE INDEX "plans_slug_unique" on "plans" ("slug");

CREATE TABLE "customers" (
  "id" integer primary key autoincrement not null,
  "first_name" varchar not null,
  "last_name" varchar not null,
  "email" varchar not null,
  "phone" varchar,
  "referred_by_id" integer,
  "marketing_opt_in" tinyint(1) not null default '0',
  "created_at" datetime,
  "updated_at" datetime,
  "deleted_at" datetime,
  foreign key("referred_by_id") references "customers"("id") on delete set null
);
CREATE UNIQUE INDEX "customers_email_unique" on "customers" ("email");

CREATE TABLE "addresses" (
  "id" integer primary key autoincrement not null,
  "customer_id" integer not null,
  "label" varchar not null,
  "line1" varchar not null,
  "line2" varchar,
  "city" varchar not null,
  "state" varchar not null,
  "postal_code" varchar not null,
  "delivery_instructions" text,
  "is_default" tinyint(1) not null default '0',
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("customer_id") references "customers"("id") on delete cascade
);
CREATE INDEX "addresses_customer_id_index" on "addresses" ("customer_id");

CREATE TABLE "subscriptions" (
  "id" integer primary key autoincrement not null,
  "customer_id" integer not null,
  "plan_id" integer not null,
  "delivery_address_id" integer not null,
  "status" varchar not null,
  "delivery_day" varchar not null,
  "started_at" datetime not null,
  "paused_at" datetime,
  "cancelled_at" datetime,
  "cancellation_reason" varchar,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("customer_id") references "customers"("id") on delete cascade,
  foreign key("plan_id") references "plans"("id"),
  foreign key("delivery_address_id") references "addresses"("id")
);
CREATE INDEX "subscriptions_customer_id_index" on "subscriptions" ("customer_id");

CREATE TABLE "recipes" (
  "id" integer primary key autoincrement not null,
  "title" varchar not null,
  "cuisine" varchar not null,
  "difficulty" varchar not null,
  "prep_minutes" integer not null,
  "calories" integer not null,
  "is_vegetarian" tinyint(1) not null default '0',
  "is_spicy" tinyint(1) not null default '0',
  "created_at" datetime,
  "updated_at" datetime,
  "deleted_at" datetime
);

CREATE TABLE "ingredients" (
  "id" integer primary key autoincrement not null,
  "name" varchar not null,
  "category" varchar not null,
  "unit" varchar not null,
  "allergen" varchar,
  "is_organic" tinyint(1) not null default '0',
  "created_at" datetime,
  "updated_at" datetime
);
CREATE UNIQUE INDEX "ingredients_name_unique" on "ingredients" ("name");

CREATE TABLE "ingredient_recipe" (
  "ingredient_id" integer not null,
  "recipe_id" integer not null,
  "quantity" double not null,
  foreign key("ingredient_id") references "ingredients"("id") on delete cascade,
  foreign key("recipe_id") references "recipes"("id") on delete cascade,
  primary key ("ingredient_id", "recipe_id")
);

CREATE TABLE "couriers" (
  "id" integer primary key autoincrement not null,
  "name" varchar not null,
  "state" varchar not null,
  "phone" varchar,
  "is_active" tinyint(1) not null default '1',
  "created_at" datetime,
  "updated_at" datetime
);

CREATE TABLE "orders" (
  "id" integer primary key autoincrement not null,
  "customer_id" integer not null,
  "subscription_id" integer not null,
  "delivery_date" date not null,
  "status" varchar not null,
  "subtotal_cents" integer not null,
  "discount_cents" integer not null default '0',
  "shipping_cents" integer not null default '0',
  "total_cents" integer not null,
  "customer_note" text,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("customer_id") references "customers"("id"),
  foreign key("subscription_id") references "subscriptions"("id")
);
CREATE INDEX "orders_customer_id_index" on "orders" ("customer_id");
CREATE INDEX "orders_delivery_date_index" on "orders" ("delivery_date");

CREATE TABLE "order_items" (
  "id" integer primary key autoincrement not null,
  "order_id" integer not null,
  "recipe_id" integer not null,
  "servings" integer not null,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("order_id") references "orders"("id") on delete cascade,
  foreign key("recipe_id") references "recipes"("id")
);
CREATE INDEX "order_items_order_id_index" on "order_items" ("order_id");

CREATE TABLE "deliveries" (
  "id" integer primary key autoincrement not null,
  "order_id" integer not null,
  "delivered_by" integer,
  "tracking_number" varchar not null,
  "status" varchar not null,
  "scheduled_for" date not null,
  "delivered_at" datetime,
  "failure_reason" varchar,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("order_id") references "orders"("id") on delete cascade,
  foreign key("delivered_by") references "couriers"("id")
);
CREATE UNIQUE INDEX "deliveries_order_id_unique" on "deliveries" ("order_id");
CREATE UNIQUE INDEX "deliveries_tracking_number_unique" on "deliveries" ("tracking_number");

CREATE TABLE "refunds" (
  "id" integer primary key autoincrement not null,
  "order_id" integer not null,
  "amount_cents" integer not null,
  "reason" varchar not null,
  "notes" text,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("order_id") references "orders"("id") on delete cascade
);

CREATE TABLE "reviews" (
  "id" integer primary key autoincrement not null,
  "customer_id" integer not null,
  "recipe_id" integer not null,
  "order_id" integer not null,
  "rating" integer not null,
  "comment" text,
  "created_at" datetime,
  "updated_at" datetime,
  foreign key("customer_id") references "customers"("id") on delete cascade,
  foreign key("recipe_id") references "recipes"("id") on delete cascade,
  foreign key("order_id") references "orders"("id") on delete cascade
);
"""

# ---------------------------------------------------------------- plans

# name, slug, servings, recipes/week, price per serving, shipping fee, vegetarian, active,
# created, weight when a customer picks a plan (None: not offered)
PLAN_SPECS = [
    ("Classic for Two", "classic-2", 2, 3, 10.99, 9.99, 0, 1, dt.date(2022, 12, 5), 30),
    ("Classic for Four", "classic-4", 4, 3, 9.29, 9.99, 0, 1, dt.date(2022, 12, 5), 14),
    ("Veggie for Two", "veggie-2", 2, 3, 9.79, 9.99, 1, 1, dt.date(2022, 12, 5), 12),
    ("Family Feast", "family-feast", 4, 4, 8.49, 0.00, 0, 1, dt.date(2022, 12, 5), 11),
    ("Quick & Easy for Two", "quick-easy-2", 2, 2, 11.49, 9.99, 0, 1, dt.date(2023, 6, 12), 10),
    ("Lean & Fit for Two", "lean-fit-2", 2, 4, 10.49, 9.99, 0, 1, dt.date(2023, 9, 4), 8),
    ("Solo Cook", "solo", 1, 3, 12.99, 7.99, 0, 0, dt.date(2022, 12, 5), 6),
    ("Big Week for Two", "big-week-2", 2, 5, 9.49, 0.00, 0, 1, dt.date(2024, 2, 5), 6),
    ("Chef's Table for Two", "chefs-table-2", 2, 3, 14.29, 9.99, 0, 1, dt.date(2025, 6, 23), 0),
]
SOLO_RETIRED = dt.date(2024, 3, 31)


def build_plans():
    plans = []
    for i, (name, slug, serv, per_week, price, ship, veg, active, created, _) in enumerate(PLAN_SPECS, 1):
        c = dt.datetime(created.year, created.month, created.day, 10, 0, 0) + dt.timedelta(minutes=7 * i)
        updated = c
        if slug == "solo":
            updated = dt.datetime(2024, 3, 31, 17, 5, 12)
        elif slug == "classic-2":
            updated = dt.datetime(2024, 1, 8, 9, 12, 40)
        plans.append([i, name, slug, serv, per_week, price, ship, veg, active, ts(c), ts(updated)])
    return plans


def plan_choices(day):
    out = []
    for i, spec in enumerate(PLAN_SPECS, 1):
        created, weight = spec[8], spec[9]
        if weight and created <= day and not (spec[1] == "solo" and day > SOLO_RETIRED):
            out.append((i, weight))
    return out


# ---------------------------------------------------------------- places

CITIES = [  # city, state, zip prefix, weight
    ("Seattle", "WA", "981", 24), ("Portland", "OR", "972", 21), ("Sacramento", "CA", "958", 11),
    ("Oakland", "CA", "946", 9), ("Tacoma", "WA", "984", 8), ("Bellevue", "WA", "980", 7),
    ("Boise", "ID", "837", 7), ("Spokane", "WA", "992", 5), ("Eugene", "OR", "974", 5),
    ("Salem", "OR", "973", 3),
]
STREETS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Garfield", "Hawthorne", "Juniper",
           "Larch", "Madrona", "Noble", "Oak", "Pine", "Quince", "Rainier", "Spruce", "Tamarack",
           "Union", "Vine", "Walnut", "Willow", "Yew", "Aspen", "Cascade", "Columbia", "Harbor",
           "Lakeview", "Meadow", "Orchard", "Ridge", "Summit", "Sunset", "Valley", "Brookside"]
STREET_KINDS = ["St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Way", "Ct", "Pl"]
INSTRUCTIONS = ["Leave at the side door", "Please leave with the front desk", "Gate code 4512",
                "Leave on the porch, out of the sun", "Ring the bell, dog will bark",
                "Call on arrival", "Leave behind the planter", "Deliver to the back entrance",
                "Building code 2290, leave by the mailboxes", "Do not leave in the lobby"]

COURIER_SPECS = [  # name, state, active, created, failure weight
    ("Rainier Route Couriers", "WA", 1, dt.date(2022, 12, 12), 1.0),
    ("Emerald Express", "WA", 1, dt.date(2022, 12, 12), 0.8),
    ("Puget Parcel Co", "WA", 0, dt.date(2022, 12, 12), 2.6),
    ("Sound Cycle Delivery", "WA", 1, dt.date(2024, 8, 19), 0.6),
    ("Rose City Runners", "OR", 1, dt.date(2022, 12, 12), 0.9),
    ("Willamette Wheels", "OR", 1, dt.date(2022, 12, 12), 1.7),
    ("Bridgetown Dispatch", "OR", 1, dt.date(2024, 1, 22), 0.7),
    ("Capitol Courier", "CA", 1, dt.date(2022, 12, 12), 1.2),
    ("Bay Bridge Logistics", "CA", 1, dt.date(2022, 12, 12), 1.0),
    ("Golden Valley Freight", "CA", 1, dt.date(2024, 5, 6), 1.4),
    ("Treasure Valley Transport", "ID", 1, dt.date(2022, 12, 12), 1.1),
    ("Boise Box Delivery", "ID", 1, dt.date(2025, 6, 16), 1.0),
]
PUGET_END = dt.date(2024, 9, 30)
AREA_CODES = {"WA": ["206", "253", "425", "509"], "OR": ["503", "541", "971"],
              "CA": ["916", "510", "279"], "ID": ["208", "986"]}


def build_couriers():
    rows = []
    for i, (name, state, active, created, _) in enumerate(COURIER_SPECS, 1):
        c = at_time(created, 9, 17)
        phone = None if i in (9, 12) else f"({R.choice(AREA_CODES[state])}) 555-{R.randint(100, 999):04d}"
        updated = dt.datetime(2024, 9, 30, 16, 20, 0) if not active else min(later(c, 0, 60 * 24 * 30), SNAP_END)
        rows.append([i, name, state, phone, active, ts(c), ts(updated)])
    return rows


def couriers_for(state, day):
    out = []
    for i, (name, st, active, created, _) in enumerate(COURIER_SPECS, 1):
        if st != state or created > day:
            continue
        if not active and day > PUGET_END:
            continue
        if i == 12:
            continue  # the new Boise courier has no route before the snapshot
        weight = {1: 5, 2: 4, 3: 3, 4: 3, 5: 6, 6: 3, 7: 3, 8: 4, 9: 4, 10: 2, 11: 5, 12: 2}[i]
        out.append((i, weight))
    return out


# ---------------------------------------------------------------- people

FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Mateo", "Isabella", "Lucas",
         "Mia", "Levi", "Amelia", "Ezra", "Harper", "Asher", "Evelyn", "Leo", "Abigail", "Henry",
         "Emily", "Hudson", "Ella", "Theo", "Scarlett", "Owen", "Grace", "Wyatt", "Chloe", "Jack",
         "Nora", "Julian", "Lily", "Luca", "Aria", "Miles", "Zoe", "Rowan", "Hazel", "Kai",
         "Priya", "Arjun", "Mei", "Hiro", "Sofia", "Diego", "Fatima", "Omar", "Hannah", "Caleb",
         "Maya", "Ethan", "Leah", "Nathan", "Ruby", "Samuel", "Iris", "Adrian", "Naomi", "Felix",
         "Clara", "Jonah", "Alice", "Simon", "Vera", "Tobias", "June", "Marcus", "Elena", "Rafael",
         "Anika", "Daniel", "Keiko", "Bennett", "Lucia", "Gideon", "Talia", "Reid", "Ingrid", "Malik"]
LAST = ["Anderson", "Bennett", "Carter", "Delgado", "Ellison", "Fischer", "Garcia", "Huang", "Ibarra",
        "Jensen", "Kowalski", "Lindqvist", "Morales", "Nakamura", "Okafor", "Patel", "Quinlan",
        "Ramirez", "Sato", "Thompson", "Underwood", "Vasquez", "Whitaker", "Xiong", "Yamada",
        "Zimmerman", "Abbott", "Brennan", "Castillo", "Dunn", "Erikson", "Flores", "Gallagher",
        "Hoffman", "Iverson", "Jovanovic", "Kim", "Larsen", "McAllister", "Nguyen", "Olsen",
        "Park", "Reyes", "Sullivan", "Tanaka", "Vega", "Walsh", "Young", "Holm", "Byrne",
        "Chandra", "Dalton", "Estrada", "Fontaine", "Greer", "Hayes", "Kaplan", "Lowe", "Mendez",
        "Novak", "Ortega", "Pruitt", "Russo", "Schwartz", "Torres", "Voss", "Webb", "Keller"]
DOMAINS = ["example.com", "example.org", "example.net"]


def signup_moment():
    """Sign-up dates spread from launch to the snapshot, growing over time, with January peaks."""
    while True:
        u = R.random() ** 0.72  # more sign-ups later
        day = dt.date(2022, 12, 19) + dt.timedelta(days=int(u * ((SNAPSHOT - dt.date(2022, 12, 19)).days + 1)))
        boost = 1.0
        if day.month == 1:
            boost = 1.9
        elif day.month in (9, 10):
            boost = 1.3
        elif day.month in (7, 8):
            boost = 0.75
        if R.random() < boost / 1.9:
            return at_time(day, 6, 24)


# ---------------------------------------------------------------- recipes and ingredients

# name, category, unit, allergen, organic
INGREDIENT_SPECS = [
    ("Chicken Breast", "protein", "g", None, 0), ("Chicken Thighs", "protein", "g", None, 0),
    ("Ground Beef", "protein", "g", None, 0), ("Flank Steak", "protein", "g", None, 0),
    ("Pork Tenderloin", "protein", "g", None, 0), ("Ground Turkey", "protein", "g", None, 0),
    ("Salmon Fillet", "protein", "g", "fish", 0), ("Cod Fillet", "protein", "g", "fish", 0),
    ("Shrimp", "protein", "g", "shellfish", 0), ("Firm Tofu", "protein", "g", "soy", 1),
    ("Chickpeas", "protein", "g", None, 1), ("Halloumi", "dairy", "g", "dairy", 0),
    ("Paneer", "dairy", "g", "dairy", 0), ("Cremini Mushrooms", "produce", "g", None, 1),
    ("Eggplant", "produce", "unit", None, 1), ("Cauliflower", "produce", "unit", None, 1),
    ("Red Lentils", "grain", "g", None, 1), ("Black Beans", "pantry", "g", None, 1),
    ("Jasmine Rice", "grain", "g", None, 0), ("Basmati Rice", "grain", "g", None, 0),
    ("Sushi Rice", "grain", "g", None, 0), ("Penne", "grain", "g", "gluten", 0),
    ("Rigatoni", "grain", "g", "gluten", 0), ("Orzo", "grain", "g", "gluten", 0),
    ("Potato Gnocchi", "grain", "g", "gluten", 0), ("Polenta", "grain", "g", None, 0),
    ("Couscous", "grain", "g", "gluten", 0), ("Farro", "grain", "g", "gluten", 1),
    ("Bulgur Wheat", "grain", "g", "gluten", 0), ("Udon Noodles", "grain", "g", "gluten", 0),
    ("Soba Noodles", "grain", "g", "gluten", 0), ("Rice Noodles", "grain", "g", None, 0),
    ("Glass Noodles", "grain", "g", None, 0), ("Egg Noodles", "grain", "g", "egg", 0),
    ("Naan", "grain", "unit", "gluten", 0), ("Pita Bread", "grain", "unit", "gluten", 0),
    ("Corn Tortillas", "grain", "unit", None, 0), ("Flour Tortillas", "grain", "unit", "gluten", 0),
    ("Brioche Buns", "grain", "unit", "egg", 0), ("Panko Breadcrumbs", "pantry", "g", "gluten", 0),
    ("Yukon Gold Potatoes", "produce", "g", None, 1), ("Sweet Potatoes", "produce", "g", None, 1),
    ("Yellow Onion", "produce", "unit", None, 0), ("Red Onion", "produce", "unit", None, 0),
    ("Shallot", "produce", "unit", None, 0), ("Garlic", "produce", "unit", None, 0),
    ("Ginger", "produce", "g", None, 0), ("Scallions", "produce", "unit", None, 0),
    ("Lemon", "produce", "unit", None, 0), ("Lime", "produce", "unit", None, 0),
    ("Roma Tomatoes", "produce", "unit", None, 0), ("Cherry Tomatoes", "produce", "g", None, 1),
    ("Baby Spinach", "produce", "g", None, 1), ("Kale", "produce", "g", None, 1),
    ("Broccoli", "produce", "g", None, 0), ("Zucchini", "produce", "unit", None, 0),
    ("Bell Pepper", "produce", "unit", None, 0), ("Jalapeno", "produce", "unit", None, 0),
    ("Carrots", "produce", "g", None, 1), ("Cucumber", "produce", "unit", None, 0),
    ("Green Beans", "produce", "g", None, 0), ("Bok Choy", "produce", "unit", None, 0),
    ("Snap Peas", "produce", "g", None, 0), ("Corn", "produce", "unit", None, 0),
    ("Avocado", "produce", "unit", None, 0), ("Cilantro", "produce", "g", None, 1),
    ("Basil", "produce", "g", None, 1), ("Parsley", "produce", "g", None, 1),
    ("Mint", "produce", "g", None, 1), ("Thyme", "produce", "g", None, 0),
    ("Butternut Squash", "produce", "g", None, 1), ("Arugula", "produce", "g", None, 1),
    ("Butter", "dairy", "g", "dairy", 0), ("Heavy Cream", "dairy", "ml", "dairy", 0),
    ("Parmesan", "dairy", "g", "dairy", 0), ("Feta", "dairy", "g", "dairy", 0),
    ("Cheddar", "dairy", "g", "dairy", 0), ("Mozzarella", "dairy", "g", "dairy", 0),
    ("Greek Yogurt", "dairy", "g", "dairy", 0), ("Sour Cream", "dairy", "g", "dairy", 0),
    ("Eggs", "dairy", "unit", "egg", 1), ("Mayonnaise", "sauce", "tbsp", "egg", 0),
    ("Olive Oil", "pantry", "tbsp", None, 0), ("Sesame Oil", "pantry", "tbsp", "sesame", 0),
    ("Soy Sauce", "sauce", "tbsp", "soy", 0), ("Miso Paste", "sauce", "tbsp", "soy", 0),
    ("Gochujang", "sauce", "tbsp", "soy", 0), ("Fish Sauce", "sauce", "tbsp", "fish", 0),
    ("Coconut Milk", "pantry", "ml", None, 0), ("Red Curry Paste", "sauce", "tbsp", "shellfish", 0),
    ("Green Curry Paste", "sauce", "tbsp", None, 0), ("Tomato Paste", "pantry", "tbsp", None, 0),
    ("Crushed Tomatoes", "pantry", "g", None, 1), ("Chicken Stock", "pantry", "ml", None, 0),
    ("Vegetable Stock", "pantry", "ml", None, 1), ("Honey", "pantry", "tbsp", None, 0),
    ("Maple Syrup", "pantry", "tbsp", None, 1), ("Dijon Mustard", "sauce", "tbsp", None, 0),
    ("Rice Vinegar", "pantry", "tbsp", None, 0), ("Balsamic Vinegar", "pantry", "tbsp", None, 0),
    ("Basil Pesto", "sauce", "tbsp", "tree_nut", 0), ("Tahini", "sauce", "tbsp", "sesame", 0),
    ("Peanut Butter", "sauce", "tbsp", "peanut", 0), ("Roasted Peanuts", "pantry", "g", "peanut", 0),
    ("Cashews", "pantry", "g", "tree_nut", 0), ("Sliced Almonds", "pantry", "g", "tree_nut", 0),
    ("Sesame Seeds", "spice", "tsp", "sesame", 0), ("Chipotle Powder", "spice", "tsp", None, 0),
    ("Smoked Paprika", "spice", "tsp", None, 0), ("Cumin", "spice", "tsp", None, 0),
    ("Garam Masala", "spice", "tsp", None, 0), ("Turmeric", "spice", "tsp", None, 1),
    ("Za'atar", "spice", "tsp", "sesame", 0), ("Cajun Seasoning", "spice", "tsp", None, 0),
    ("Italian Seasoning", "spice", "tsp", None, 0), ("Five-Spice Powder", "spice", "tsp", None, 0),
    ("Chili Flakes", "spice", "tsp", None, 0), ("Harissa", "sauce", "tbsp", None, 0),
    ("Teriyaki Sauce", "sauce", "tbsp", "soy", 0), ("BBQ Sauce", "sauce", "tbsp", None, 0),
    ("Hot Sauce", "sauce", "tbsp", None, 0), ("Salsa Verde", "sauce", "tbsp", None, 0),
    ("Kimchi", "produce", "g", "fish", 0), ("Capers", "pantry", "tbsp", None, 0),
    ("Kalamata Olives", "pantry", "g", None, 0), ("Sun-Dried Tomatoes", "pantry", "g", None, 0),
    ("Truffle Oil", "pantry", "tbsp", None, 0), ("Saffron", "spice", "tsp", None, 0),
    ("Pine Nuts", "pantry", "g", "tree_nut", 0), ("Quinoa", "grain", "g", None, 1),
]
# ingredients added in May-June 2025 (new suppliers), not used in any recipe yet
NEVER_USED = {"Truffle Oil", "Saffron", "Pine Nuts", "Quinoa"}

# (protein label in titles, ingredient, vegetarian, weight)
PROTEINS = [("Chicken", "Chicken Breast", 0, 16), ("Chicken Thigh", "Chicken Thighs", 0, 8),
            ("Beef", "Ground Beef", 0, 7), ("Steak", "Flank Steak", 0, 7),
            ("Pork", "Pork Tenderloin", 0, 6), ("Turkey", "Ground Turkey", 0, 4),
            ("Salmon", "Salmon Fillet", 0, 8), ("Cod", "Cod Fillet", 0, 4),
            ("Shrimp", "Shrimp", 0, 7), ("Tofu", "Firm Tofu", 1, 6), ("Chickpea", "Chickpeas", 1, 5),
            ("Halloumi", "Halloumi", 1, 3), ("Paneer", "Paneer", 1, 3),
            ("Mushroom", "Cremini Mushrooms", 1, 4), ("Eggplant", "Eggplant", 1, 3),
            ("Cauliflower", "Cauliflower", 1, 3), ("Lentil", "Red Lentils", 1, 2)]

# cuisine: (weight, styles [(style, spicy, extra ingredients)], sides [(side, base ingredient)])
CUISINES = {
    "Italian": (16, [("Tuscan", 0, ["Baby Spinach", "Sun-Dried Tomatoes", "Heavy Cream"]),
                     ("Lemon Herb", 0, ["Lemon", "Parsley", "Butter"]),
                     ("Pesto", 0, ["Basil Pesto", "Cherry Tomatoes", "Parmesan"]),
                     ("Parmesan-Crusted", 0, ["Parmesan", "Panko Breadcrumbs", "Italian Seasoning"]),
                     ("Marinara", 0, ["Crushed Tomatoes", "Basil", "Italian Seasoning"]),
                     ("Arrabbiata", 1, ["Crushed Tomatoes", "Chili Flakes", "Parsley"])],
                [("Orzo", "Orzo"), ("Penne", "Penne"), ("Creamy Polenta", "Polenta"),
                 ("Rigatoni", "Rigatoni"), ("Gnocchi", "Potato Gnocchi")]),
    "Mexican": (14, [("Chipotle", 1, ["Chipotle Powder", "Lime", "Sour Cream"]),
                     ("Ancho-Lime", 1, ["Lime", "Cumin", "Cilantro"]),
                     ("Salsa Verde", 0, ["Salsa Verde", "Cilantro", "Jalapeno"]),
                     ("Adobo", 1, ["Chipotle Powder", "Tomato Paste", "Red Onion"]),
                     ("Fajita", 0, ["Bell Pepper", "Yellow Onion", "Cumin"])],
                [("Cilantro Rice", "Jasmine Rice"), ("Black Beans", "Black Beans"),
                 ("Corn Tortillas", "Corn Tortillas"), ("Flour Tortillas", "Flour Tortillas")]),
    "Thai": (9, [("Red Curry", 1, ["Red Curry Paste", "Coconut Milk", "Bell Pepper"]),
                 ("Green Curry", 1, ["Green Curry Paste", "Coconut Milk", "Basil"]),
                 ("Thai Basil", 1, ["Basil", "Fish Sauce", "Jalapeno"]),
                 ("Peanut-Lime", 0, ["Peanut Butter", "Lime", "Roasted Peanuts"])],
             [("Jasmine Rice", "Jasmine Rice"), ("Rice Noodles", "Rice Noodles")]),
    "Indian": (8, [("Tikka Masala", 0, ["Garam Masala", "Crushed Tomatoes", "Heavy Cream"]),
                   ("Tandoori", 1, ["Greek Yogurt", "Garam Masala", "Lemon"]),
                   ("Korma", 0, ["Cashews", "Coconut Milk", "Turmeric"]),
                   ("Vindaloo", 1, ["Chili Flakes", "Ginger", "Tomato Paste"])],
               [("Basmati Rice", "Basmati Rice"), ("Naan", "Naan")]),
    "Japanese": (8, [("Teriyaki", 0, ["Teriyaki Sauce", "Sesame Seeds", "Scallions"]),
                     ("Miso-Glazed", 0, ["Miso Paste", "Rice Vinegar", "Scallions"]),
                     ("Katsu", 0, ["Panko Breadcrumbs", "Eggs", "Cucumber"]),
                     ("Sesame-Ginger", 0, ["Sesame Oil", "Ginger", "Soy Sauce"])],
                 [("Sushi Rice", "Sushi Rice"), ("Udon", "Udon Noodles"), ("Soba", "Soba Noodles")]),
    "Korean": (6, [("Gochujang", 1, ["Gochujang", "Sesame Oil", "Scallions"]),
                   ("Bulgogi", 0, ["Soy Sauce", "Ginger", "Sesame Seeds"]),
                   ("Kimchi", 1, ["Kimchi", "Gochujang", "Scallions"])],
               [("Sesame Rice", "Jasmine Rice"), ("Glass Noodles", "Glass Noodles")]),
    "Mediterranean": (11, [("Za'atar", 0, ["Za'atar", "Lemon", "Greek Yogurt"]),
                           ("Lemon-Oregano", 0, ["Lemon", "Feta", "Kalamata Olives"]),
                           ("Harissa", 1, ["Harissa", "Mint", "Greek Yogurt"]),
                           ("Shawarma", 0, ["Cumin", "Tahini", "Red Onion"])],
                      [("Couscous", "Couscous"), ("Pita", "Pita Bread"), ("Farro", "Farro"),
                       ("Herbed Bulgur", "Bulgur Wheat")]),
    "American": (15, [("BBQ", 0, ["BBQ Sauce", "Red Onion", "Cheddar"]),
                      ("Buffalo", 1, ["Hot Sauce", "Butter", "Carrots"]),
                      ("Honey Mustard", 0, ["Honey", "Dijon Mustard", "Green Beans"]),
                      ("Cajun", 1, ["Cajun Seasoning", "Bell Pepper", "Sour Cream"]),
                      ("Maple-Glazed", 0, ["Maple Syrup", "Dijon Mustard", "Butternut Squash"]),
                      ("Smoky", 0, ["Smoked Paprika", "Corn", "Butter"])],
                 [("Mashed Potatoes", "Yukon Gold Potatoes"), ("Roasted Potatoes", "Yukon Gold Potatoes"),
                  ("Sweet Potato Wedges", "Sweet Potatoes"), ("Brioche Buns", "Brioche Buns")]),
    "Chinese": (8, [("Kung Pao", 1, ["Roasted Peanuts", "Soy Sauce", "Bell Pepper"]),
                    ("Black Bean Garlic", 0, ["Garlic", "Soy Sauce", "Scallions"]),
                    ("Five-Spice", 0, ["Five-Spice Powder", "Honey", "Bok Choy"]),
                    ("Sweet and Sour", 0, ["Rice Vinegar", "Bell Pepper", "Honey"])],
                [("Fried Rice", "Jasmine Rice"), ("Lo Mein", "Egg Noodles"), ("Steamed Rice", "Jasmine Rice")]),
    "French": (5, [("Dijon", 0, ["Dijon Mustard", "Heavy Cream", "Thyme"]),
                   ("Herbes de Provence", 0, ["Thyme", "Olive Oil", "Cherry Tomatoes"]),
                   ("Beurre Blanc", 0, ["Butter", "Shallot", "Lemon"])],
               [("Haricots Verts", "Green Beans"), ("Lyonnaise Potatoes", "Yukon Gold Potatoes")]),
}
COMMON = [("Garlic", 10), ("Olive Oil", 9), ("Yellow Onion", 6), ("Scallions", 3), ("Lemon", 3),
          ("Broccoli", 3), ("Zucchini", 3), ("Baby Spinach", 2), ("Carrots", 3), ("Kale", 2),
          ("Cherry Tomatoes", 2), ("Roma Tomatoes", 2), ("Cilantro", 2), ("Parsley", 2),
          ("Snap Peas", 2), ("Arugula", 1), ("Avocado", 2), ("Chicken Stock", 2),
          ("Vegetable Stock", 1), ("Butter", 2), ("Cumin", 1), ("Smoked Paprika", 1),
          ("Capers", 1), ("Balsamic Vinegar", 1), ("Mozzarella", 1), ("Shallot", 1), ("Ginger", 1),
          ("Cucumber", 1), ("Green Beans", 1), ("Red Onion", 1), ("Mint", 1), ("Bell Pepper", 1)]
QUANTITY = {"g": (40, 300), "ml": (60, 400), "unit": (1, 3), "tbsp": (1, 3), "tsp": (1, 2)}


def build_ingredients():
    rows, by_name = [], {}
    for i, (name, cat, unit, allergen, organic) in enumerate(INGREDIENT_SPECS, 1):
        if name in NEVER_USED:
            created = at_time(dt.date(2025, 5, 1) + dt.timedelta(days=R.randint(0, 50)), 9, 17)
        else:
            created = SETUP + dt.timedelta(minutes=3 * i)
        updated = later(created, 0, 60 * 24 * 200) if R.random() < 0.3 else created
        if updated.date() > SNAPSHOT:
            updated = created
        rows.append([i, name, cat, unit, allergen, organic, ts(created), ts(updated)])
        by_name[name] = (i, unit)
    return rows, by_name


def build_recipes(ingredients):
    """Recipes with their ingredients; each gets a hidden popularity and quality."""
    chosen, titles = [], set()
    # draw by cuisine weight and protein weight until 172 unique titles
    while len(chosen) < 172:
        cuisine = weighted([(c, spec[0]) for c, spec in CUISINES.items()])
        styles, sides = CUISINES[cuisine][1], CUISINES[cuisine][2]
        style = R.choice(styles)
        protein = weighted([(p, p[3]) for p in PROTEINS])
        side = R.choice(sides)
        label = protein[0]
        fmt = R.random()
        if cuisine == "Mexican" and side[0].endswith("Tortillas"):
            title = f"{style[0]} {label} Tacos"
        elif cuisine in ("Korean", "Japanese", "Mediterranean") and fmt < 0.25:
            title = f"{style[0]} {label} Bowls with {side[0]}"
        elif cuisine == "American" and side[0] == "Brioche Buns":
            title = f"{style[0]} {label} Sliders"
        else:
            title = f"{style[0]} {label} with {side[0]}"
        if title in titles:
            continue
        titles.add(title)
        chosen.append((title, cuisine, style, protein, side))

    recipes, meta, pivot = [], [], []
    n = len(chosen)
    for idx, (title, cuisine, style, protein, side) in enumerate(chosen):
        rid = idx + 1
        # 58 at launch, the rest added through 2025-06
        if rid <= 58:
            created = SETUP + dt.timedelta(days=R.randint(0, 20), minutes=R.randint(0, 480))
        elif rid > n - 3:
            created = at_time(dt.date(2025, 6, 23) + dt.timedelta(days=rid - (n - 3)), 9, 17)
        else:
            frac = (rid - 58) / (n - 61)
            day = dt.date(2023, 2, 1) + dt.timedelta(days=int(frac * 840) + R.randint(-6, 6))
            created = at_time(day, 9, 17)
        veg = protein[2]
        spicy = style[1]
        difficulty = weighted([("easy", 45), ("medium", 40), ("hard", 15)])
        prep = {"easy": (15, 30), "medium": (25, 45), "hard": (35, 65)}[difficulty]
        prep_minutes = R.randrange(prep[0], prep[1] + 1, 5)
        calories = R.randint(430, 760) + (0 if veg else 60) + (80 if side[0] in ("Mac and Cheese", "Mashed Potatoes", "Naan", "Lo Mein") else 0)
        deleted = None
        if rid <= n - 12 and R.random() < 0.24:
            gone = created.date() + dt.timedelta(days=R.randint(120, 700))
            if gone < dt.date(2025, 6, 20):
                deleted = at_time(gone, 9, 18)
        updated = created
        if deleted:
            updated = deleted
        elif R.random() < 0.35:
            updated = later(created, 60, 60 * 24 * 300)
            if updated > SNAP_END:
                updated = created
        recipes.append([rid, title, cuisine, difficulty, prep_minutes, calories, veg, spicy,
                        ts(created), ts(updated), ts(deleted) if deleted else None])
        quality = max(2.4, min(4.8, R.gauss(3.95, 0.45)))
        popularity = math.exp(R.gauss(0, 0.7))
        meta.append({"id": rid, "created": created, "deleted": deleted, "veg": veg,
                     "quality": quality, "pop": popularity, "cuisine": cuisine})
        names = [protein[1], side[1]] + style[2]
        extra = R.randint(2, 5)
        while extra:
            name = weighted(COMMON)
            if name not in names:
                names.append(name)
                extra -= 1
        for name in names:
            if veg and name in ("Chicken Stock", "Fish Sauce"):
                name = "Vegetable Stock" if name == "Chicken Stock" else "Soy Sauce"
            if name in NEVER_USED:
                continue
            iid, unit = ingredients[name]
            if any(p[0] == iid and p[1] == rid for p in pivot):
                continue
            lo, hi = QUANTITY[unit]
            if unit == "g" or unit == "ml":
                qty = float(R.randrange(lo, hi + 1, 10))
            else:
                qty = float(R.choice([lo, lo + 0.5, hi]) if unit in ("tbsp", "tsp") else R.randint(lo, hi))
            pivot.append([iid, rid, qty])
    pivot.sort(key=lambda p: (p[1], p[0]))
    return recipes, meta, pivot


# ---------------------------------------------------------------- the simulation

CANCEL_REASONS = [("too_expensive", 30), ("not_enough_variety", 14), ("cooking_takes_too_long", 12),
                  ("moving", 6), ("delivery_problems", 7), ("dietary_needs", 6), ("other", 10)]
NOTES = ["Please include extra ice packs", "No cilantro if possible", "Gift box for my parents",
         "We are out of town Friday, deliver early please", "Extra napkins please",
         "Please knock, doorbell broken", "Birthday week!", "Please avoid the side gate",
         "Leave with neighbor at #4 if not home", "Can you double the sauce packets?"]
PARTIAL_REASONS = [("missing_item", 40), ("damaged_item", 22), ("quality_issue", 25), ("late_delivery", 13)]
REFUND_NOTES = ["Customer sent photo", "Ice packs melted", "Protein missing from bag",
                "Produce bruised", "Box arrived a day late", "Credited per policy",
                "Second report this month", "Sauce packet leaked"]
FAILURE_REASONS = [("address_not_found", 3), ("damaged_in_transit", 3), ("vehicle_breakdown", 2),
                   ("weather", 2)]
RETURN_REASONS = [("recipient_unavailable", 4), ("refused", 1)]
COMMENTS = {
    1: ["Not for us.", "The protein was missing flavor.", "Would not order again.", "Too bland."],
    2: ["Took much longer than stated.", "Sauce was too salty.", "Kids didn't like it.",
        "Just okay, portions were small."],
    3: ["Fine, nothing special.", "Good but a bit plain.", "Decent weeknight meal.",
        "Needed more seasoning."],
    4: ["Really good, would make again.", "Tasty and easy.", "Family liked it.",
        "Nice flavors, easy cleanup."],
    5: ["Loved it!", "One of the best so far.", "Restaurant quality.", "Making this again for sure.",
        "Perfect weeknight dinner."],
}
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def week_dates(start, end, weekday):
    """Delivery dates on `weekday` (0 = Monday) from the week after `start` up to `end`."""
    day = start + dt.timedelta(days=(weekday - start.weekday()) % 7)
    if (day - start).days < 6:
        day += dt.timedelta(days=7)
    while day <= end:
        yield day
        day += dt.timedelta(days=7)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "mealkit.sqlite")

    plans = build_plans()
    couriers = build_couriers()
    ingredients, ingredient_ids = build_ingredients()
    recipes, recipe_meta, pivot = build_recipes(ingredient_ids)

    # ---- customers
    n_customers = 760
    moments = sorted(signup_moment() for _ in range(n_customers))
    customers, cust_meta = [], []
    emails = set()
    for cid, created in enumerate(moments, 1):
        first, last = R.choice(FIRST), R.choice(LAST)
        base = f"{first}.{last}".lower()
        email = f"{base}@{R.choice(DOMAINS)}"
        k = 2
        while email in emails:
            email = f"{base}{k}@{R.choice(DOMAINS)}"
            k += 1
        emails.add(email)
        city = weighted([(c, c[3]) for c in CITIES])
        phone = None if R.random() < 0.27 else f"({R.choice(AREA_CODES[city[1]])}) 555-{R.randint(0, 9999):04d}"
        referred = None
        if cid > 30 and R.random() < 0.17:
            # earlier customers refer, some many more than others
            pool = [(m["id"], m["influence"]) for m in cust_meta
                    if m["created"] < created - dt.timedelta(days=10)]
            if pool:
                referred = weighted(pool)
        opt_in = 1 if R.random() < 0.58 else 0
        influence = R.choice([0.2, 0.5, 1, 1, 1, 2, 4]) if R.random() < 0.96 else 40
        customers.append([cid, first, last, email, phone, referred, opt_in, ts(created), ts(created), None])
        cust_meta.append({"id": cid, "created": created, "influence": influence,
                          "city": city})

    # ---- addresses
    addresses, cust_addresses = [], {}

    def new_address(cid, city, created, label, default):
        aid = len(addresses) + 1
        number = R.randint(100, 9899)
        line1 = f"{number} {R.choice(STREETS)} {R.choice(STREET_KINDS)}"
        if label == "work":
            line1 = f"{number} {R.choice(STREETS)} {R.choice(['Ave', 'Blvd', 'St'])}"
        line2 = None
        if R.random() < (0.55 if label == "work" else 0.32):
            line2 = R.choice([f"Apt {R.randint(1, 40)}{R.choice('ABCD')}", f"Unit {R.randint(100, 999)}",
                              f"Suite {R.randint(100, 650)}", f"#{R.randint(2, 30)}"])
        postal = f"{city[2]}{R.randint(1, 99):02d}"
        instructions = R.choice(INSTRUCTIONS) if R.random() < 0.3 else None
        addresses.append([aid, cid, label, line1, line2, city[0], city[1], postal, instructions,
                          1 if default else 0, ts(created), ts(created)])
        cust_addresses.setdefault(cid, []).append(aid)
        return aid

    address_city = {}
    for m in cust_meta:
        aid = new_address(m["id"], m["city"], later(m["created"], 1, 20), "home", True)
        address_city[aid] = m["city"]

    # ---- subscriptions and orders (simulated per customer)
    subscriptions, orders_raw = [], []
    for m in cust_meta:
        cid = m["id"]
        signup = m["created"]
        # recent sign-ups are more often still deciding
        never = 0.06 + (0.25 if signup.date() > dt.date(2025, 6, 1) else 0)
        if R.random() < never:
            continue
        start = later(signup, 25, 60 * 24 * 4)
        order_rate = min(0.95, max(0.12, R.betavariate(1.3, 3.3)))
        m["review_rate"] = R.choice([0, 0, 0, 0, 0.05, 0.1, 0.15, 0.4])
        count = 0
        while start.date() <= SNAPSHOT and count < 3:
            count += 1
            sid = len(subscriptions) + 1
            plan_id = weighted(plan_choices(start.date()))
            if count > 1 and R.random() < 0.5:
                plan_id = weighted(plan_choices(start.date()))
            # a new address for some later subscriptions (moved)
            aid = cust_addresses[cid][-1]
            if count > 1 and R.random() < 0.3:
                city = m["city"] if R.random() < 0.7 else weighted([(c, c[3]) for c in CITIES])
                aid = new_address(cid, city, later(start, -300, -10), "home", False)
                address_city[aid] = city
            weekday = weighted([(0, 30), (1, 14), (2, 22), (3, 18), (5, 16)])
            kind = R.random()
            if kind < 0.40:
                weeks = R.randint(0, 3)
            elif kind < 0.80:
                weeks = R.randint(4, 16)
            else:
                weeks = R.randint(17, 260)
            end = start.date() + dt.timedelta(weeks=weeks, days=R.randint(1, 6))
            status, paused_at, cancelled_at = "active", None, None
            if plan_id == 7 and end > SOLO_RETIRED:
                end = SOLO_RETIRED - dt.timedelta(days=R.randint(0, 10))
                if end <= start.date():
                    end = start.date() + dt.timedelta(days=1)
            last_delivery = end
            if end <= SNAPSHOT:
                status = "cancelled"
                cancelled_at = at_time(end, 6, 23)
                reason = "plan_discontinued" if plan_id == 7 and end >= SOLO_RETIRED - dt.timedelta(days=10) else weighted(CANCEL_REASONS)
                if reason != "plan_discontinued" and R.random() < 0.18:
                    reason = None
            else:
                reason = None
                if R.random() < 0.2:
                    status = "paused"
                    paused_day = SNAPSHOT - dt.timedelta(days=R.randint(3, 120))
                    if paused_day <= start.date():
                        paused_day = start.date() + dt.timedelta(days=1)
                    if paused_day > SNAPSHOT:
                        status = "active"
                    else:
                        paused_at = at_time(paused_day, 6, 23)
                        last_delivery = paused_day
            if status == "active":
                last_delivery = SNAPSHOT + dt.timedelta(days=7)
            # orders
            n_orders = 0
            for day in week_dates(start.date(), last_delivery, weekday):
                midnight = dt.datetime(day.year, day.month, day.day)
                lo = max(start, midnight - dt.timedelta(days=8))
                hi = midnight - dt.timedelta(days=4, hours=6)
                placed = lo + dt.timedelta(seconds=R.randint(0, int((hi - lo).total_seconds())))
                if placed > SNAP_END:
                    continue
                if day < LAUNCH:
                    continue
                rate = order_rate if n_orders else 1.0
                if R.random() > rate:
                    continue
                n_orders += 1
                orders_raw.append({"customer": cid, "sub": sid, "plan": plan_id, "address": aid,
                                   "day": day, "placed": placed, "first": not m.get("ordered")})
                m["ordered"] = True
            updated = cancelled_at or paused_at or start
            subscriptions.append([sid, cid, plan_id, aid, status, DAYS[weekday], ts(start),
                                  ts(paused_at) if paused_at else None,
                                  ts(cancelled_at) if cancelled_at else None, reason,
                                  ts(start), ts(updated)])
            if status != "cancelled" or R.random() > 0.14:
                break
            start = at_time(end + dt.timedelta(weeks=R.randint(6, 40)), 6, 23)

    # extra addresses (work, other) for some customers
    for m in cust_meta:
        if R.random() < 0.16:
            created = later(m["created"], 60 * 24, 60 * 24 * 300)
            if created <= SNAP_END:
                label = weighted([("work", 3), ("other", 1)])
                aid = new_address(m["id"], m["city"], created, label, False)
                address_city[aid] = m["city"]
    addresses.sort(key=lambda a: (a[10], a[0]))
    remap = {a[0]: i for i, a in enumerate(addresses, 1)}
    for i, a in enumerate(addresses, 1):
        a[0] = i
    for s in subscriptions:
        s[3] = remap[s[3]]
    address_city = {remap[k]: v for k, v in address_city.items()}
    for o in orders_raw:
        o["address"] = remap[o["address"]]
    # the default address: the one the latest subscription delivers to, else the first one
    default = {}
    for a in addresses:
        default.setdefault(a[1], a[0])
    for s in subscriptions:
        default[s[1]] = s[3]
    for a in addresses:
        a[9] = 1 if default[a[1]] == a[0] else 0

    # soft-deleted customers: some whose subscriptions are all cancelled
    last_cancel = {}
    active_subs = set()
    for s in subscriptions:
        if s[4] == "cancelled":
            last_cancel[s[1]] = max(last_cancel.get(s[1], ""), s[8])
        else:
            active_subs.add(s[1])
    for c in customers:
        cid = c[0]
        if cid in last_cancel and cid not in active_subs and R.random() < 0.13:
            gone = dt.datetime.strptime(last_cancel[cid], "%Y-%m-%d %H:%M:%S") + dt.timedelta(days=R.randint(1, 90), minutes=R.randint(0, 900))
            if gone <= SNAP_END:
                c[9] = ts(gone)
                c[8] = ts(gone)
        elif R.random() < 0.25:
            upd = later(dt.datetime.strptime(c[7], "%Y-%m-%d %H:%M:%S"), 30, 60 * 24 * 400)
            if upd <= SNAP_END:
                c[8] = ts(upd)

    # ---- orders, items, deliveries, refunds, reviews
    orders_raw.sort(key=lambda o: (o["placed"], o["customer"]))
    plan_by_id = {p[0]: p for p in plans}
    orders, items, deliveries, refunds, reviews = [], [], [], [], []
    tracking = set()
    for oid, o in enumerate(orders_raw, 1):
        plan = plan_by_id[o["plan"]]
        servings, per_week, price, ship = plan[3], plan[4], plan[5], plan[6]
        day = o["day"]
        subtotal = int(round(servings * per_week * price * 100))
        shipping = int(round(ship * 100))
        discount = 0
        if o["first"]:
            discount = int(round(subtotal * 0.5))
        elif R.random() < 0.06:
            discount = int(round(subtotal * R.choice([0.1, 0.15, 0.2, 0.25])))
        total = subtotal - discount + shipping
        note = R.choice(NOTES) if R.random() < 0.07 else None
        if day > SNAPSHOT:
            status = "pending"
        elif R.random() < 0.035:
            status = "cancelled"
        else:
            status = "paid"
        placed = o["placed"]
        updated = placed
        # recipes of the box
        avail = [r for r in recipe_meta
                 if r["created"] <= placed and (r["deleted"] is None or r["deleted"].date() > day)
                 and (r["veg"] or plan[7] == 0)]
        picks = []
        while len(picks) < per_week:
            r = weighted([(r, r["pop"]) for r in avail if r not in picks])
            picks.append(r)
        row = [oid, o["customer"], o["sub"], ds(day), status, subtotal, discount, shipping, total,
               note, ts(placed), ts(updated)]
        orders.append(row)
        for r in picks:
            items.append([len(items) + 1, oid, r["id"], servings, ts(placed), ts(placed)])
        if status == "cancelled":
            row[11] = ts(later(placed, 30, 60 * 24 * 2))
            continue
        # delivery
        city = address_city[o["address"]]
        while True:
            tn = f"SSK{R.randint(10**8, 10**9 - 1)}"
            if tn not in tracking:
                tracking.add(tn)
                break
        created = min(later(placed, 60, 60 * 30), SNAP_END)
        if status == "pending":
            deliveries.append([len(deliveries) + 1, oid, None, tn, "scheduled", ds(day), None, None,
                               ts(created), ts(created)])
            continue
        courier = weighted(couriers_for(city[1], day))
        fail_w = COURIER_SPECS[courier - 1][4]
        x = R.random()
        if x < 0.022 * fail_w:
            dstatus = "failed"
        elif x < 0.022 * fail_w + 0.011:
            dstatus = "returned"
        else:
            dstatus = "delivered"
        delivered_at, reason = None, None
        late = False
        if dstatus == "delivered":
            if R.random() < 0.03 * fail_w:
                late = True
                delivered_at = at_time(day + dt.timedelta(days=1), 9, 20)
                if delivered_at > SNAP_END:
                    late = False
                    delivered_at = at_time(day, 9, 21)
            else:
                delivered_at = at_time(day, 8, 21)
            dupdated = delivered_at
        else:
            reason = weighted(FAILURE_REASONS if dstatus == "failed" else RETURN_REASONS)
            dupdated = at_time(day, 12, 22)
        deliveries.append([len(deliveries) + 1, oid, courier, tn, dstatus, ds(day),
                           ts(delivered_at) if delivered_at else None, reason, ts(created), ts(dupdated)])
        # refunds
        if dstatus in ("failed", "returned"):
            when = later(dupdated, 30, 60 * 24 * 2)
            if when <= SNAP_END:
                row[4] = "refunded"
                row[11] = ts(when)
                refunds.append([None, oid, total, "failed_delivery" if dstatus == "failed" else "returned_to_sender",
                                None, ts(when), ts(when)])
            continue
        row[11] = ts(later(placed, 10, 120))
        refund_p = 0.5 if late else 0.028
        if R.random() < refund_p:
            when = later(delivered_at, 60, 60 * 24 * 3)
            if when <= SNAP_END:
                reason = "late_delivery" if late else weighted(PARTIAL_REASONS)
                share = subtotal // per_week
                amount = {"missing_item": share, "damaged_item": share, "quality_issue": share // 2,
                          "late_delivery": min(total, 1500)}[reason]
                nt = R.choice(REFUND_NOTES) if R.random() < 0.45 else None
                refunds.append([None, oid, amount, reason, nt, ts(when), ts(when)])
        # reviews
        cm = cust_meta[o["customer"] - 1]
        for r in picks:
            if R.random() < cm.get("review_rate", 0):
                rating = int(round(R.gauss(r["quality"], 0.85)))
                rating = max(1, min(5, rating))
                when = later(delivered_at, 60 * 5, 60 * 24 * 12)
                if when > SNAP_END:
                    continue
                comment = R.choice(COMMENTS[rating]) if R.random() < 0.48 else None
                reviews.append([None, o["customer"], r["id"], oid, rating, comment, ts(when), ts(when)])

    refunds.sort(key=lambda r: (r[5], r[1]))
    for i, r in enumerate(refunds, 1):
        r[0] = i
    reviews.sort(key=lambda r: (r[6], r[1], r[2]))
    for i, r in enumerate(reviews, 1):
        r[0] = i

    evaldb.write_database(out, SCHEMA, [
        ("plans", plans), ("customers", customers), ("addresses", addresses),
        ("subscriptions", subscriptions), ("recipes", recipes), ("ingredients", ingredients),
        ("ingredient_recipe", pivot), ("couriers", couriers), ("orders", orders),
        ("order_items", items), ("deliveries", deliveries), ("refunds", refunds), ("reviews", reviews),
    ])


if __name__ == "__main__":
    main()
