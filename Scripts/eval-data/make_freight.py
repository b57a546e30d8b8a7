#!/usr/bin/env python3
"""Generate freight.sqlite, a held-out evaluation database for natural-language-to-SQL.

freight.sqlite is the backend database of the dispatch platform of Haulwise, a made-up
regional trucking and third-party-logistics (3PL) company in the US Midwest. Shippers book
shipments between Haulwise's warehouses (sometimes after asking for a spot rate quote),
dispatchers combine shipments into loads, and each load is either run by a Haulwise driver
with a company truck (and trailer) or brokered to an outside carrier. A load visits stops
(one pickup, one or two deliveries). Finance bills every shipper once a month, and the
safety team logs incidents. Trucks buy fuel on the road.

Naming style: the one a TypeScript app built with the Prisma ORM gets on SQLite. Model
tables are PascalCase singular (`Shipper`, `Shipment`, `Stop`, `InvoiceLine`), columns are
camelCase (`shipperId`, `pickupWindowStart`, `rateCents`), primary keys are `id` (INTEGER
autoincrement for some models, TEXT cuid-like strings for others), foreign keys are declared
as Prisma declares them (`CONSTRAINT "Shipment_shipperId_fkey" FOREIGN KEY ...`), indexes
are `<Model>_<field>_idx` and unique indexes `<Model>_<field>_key`. The many-to-many
relation between carriers and the warehouses they are approved at is an implicit Prisma
relation table, `_CarrierToWarehouse`, with columns `A` (carrier) and `B` (warehouse).
DateTime values are ISO-8601 text in UTC with milliseconds and `Z`; date-only values are
midnight UTC. Booleans are INTEGER 0/1. Enums are UPPER_SNAKE text. Money is INTEGER cents.

The data covers 2023-01-02 to a snapshot taken on 2025-11-12 at 17:00 UTC.

All of it is synthetic: no real people or companies are in it. Warehouse cities are real
Midwest cities; streets, company names and people are made up from built-in lists, phone
numbers are in the fictional 555-01xx range and email addresses use reserved `example`
domains. The generator is deterministic (fixed SEED, random.Random(SEED) only, no
wall-clock dates), so every run writes the same rows.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_freight.py [OUTPUT.sqlite]   (default: freight.sqlite next to this script)
"""

import datetime as dt
import math
import os
import random
import sys

from evaldb import write_database

SEED = 61730529
SNAPSHOT = dt.datetime(2025, 11, 12, 17, 0, 0)
NOW = SNAPSHOT
FIRST_DAY = dt.date(2023, 1, 2)
LAST_LOAD_DAY = SNAPSHOT.date() + dt.timedelta(days=2)     # loads are planned up to here
LAST_BOOKED_DAY = SNAPSHOT.date() + dt.timedelta(days=12)  # shipments are booked up to here
EPOCH = dt.datetime(1970, 1, 1)
H = dt.timedelta(hours=1)
MIN = dt.timedelta(minutes=1)
DAY = dt.timedelta(days=1)


def fk(table, column, target, optional=False):
    action = "SET NULL" if optional else "RESTRICT"
    return (f'CONSTRAINT "{table}_{column}_fkey" FOREIGN KEY ("{column}") REFERENCES '
            f'"{target}" ("id") ON DELETE {action} ON UPDATE CASCADE')


SCHEMA = f"""
-- CreateTable
CREATE TABLE "Warehouse" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'TERMINAL',
    "addressLine" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "postalCode" TEXT NOT NULL,
    "latitude" REAL NOT NULL,
    "longitude" REAL NOT NULL,
    "dockDoors" INTEGER NOT NULL,
    "capacity" INTEGER NOT NULL,
    "hasColdStorage" BOOLEAN NOT NULL DEFAULT false,
    "openedAt" DATETIME NOT NULL,
    "closedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Shipper" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "industry" TEXT NOT NULL,
    "billingEmail" TEXT NOT NULL,
    "phone" TEXT,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "homeWarehouseId" INTEGER NOT NULL,
    "paymentTermsDays" INTEGER NOT NULL DEFAULT 30,
    "creditLimitCents" INTEGER NOT NULL,
    "usesStorage" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    {fk("Shipper", "homeWarehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "Carrier" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "mcNumber" TEXT NOT NULL,
    "dotNumber" TEXT NOT NULL,
    "parentId" TEXT,
    "phone" TEXT NOT NULL,
    "dispatchEmail" TEXT NOT NULL,
    "safetyRating" TEXT NOT NULL DEFAULT 'UNRATED',
    "isPreferred" BOOLEAN NOT NULL DEFAULT false,
    "insuranceExpiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    {fk("Carrier", "parentId", "Carrier", True)}
);

-- CreateTable
CREATE TABLE "Driver" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "licenseNumber" TEXT NOT NULL,
    "licenseState" TEXT NOT NULL,
    "cdlClass" TEXT NOT NULL,
    "hazmatEndorsed" BOOLEAN NOT NULL DEFAULT false,
    "homeWarehouseId" INTEGER NOT NULL,
    "mentorId" TEXT,
    "payType" TEXT NOT NULL DEFAULT 'PER_MILE',
    "payRate" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "hiredAt" DATETIME NOT NULL,
    "terminatedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Driver", "homeWarehouseId", "Warehouse")},
    {fk("Driver", "mentorId", "Driver", True)}
);

-- CreateTable
CREATE TABLE "Truck" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "unitNumber" TEXT NOT NULL,
    "vin" TEXT NOT NULL,
    "make" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "modelYear" INTEGER NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'TRACTOR',
    "fuelType" TEXT NOT NULL DEFAULT 'DIESEL',
    "odometer" INTEGER NOT NULL,
    "homeWarehouseId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "acquiredAt" DATETIME NOT NULL,
    "retiredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Truck", "homeWarehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "Trailer" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "unitNumber" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "length" INTEGER NOT NULL,
    "maxPayloadKg" INTEGER NOT NULL,
    "isLeased" BOOLEAN NOT NULL DEFAULT false,
    "homeWarehouseId" INTEGER NOT NULL,
    "acquiredAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    {fk("Trailer", "homeWarehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "RateQuote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shipperId" TEXT NOT NULL,
    "originWarehouseId" INTEGER NOT NULL,
    "destinationWarehouseId" INTEGER NOT NULL,
    "equipmentType" TEXT NOT NULL,
    "weightKg" INTEGER NOT NULL,
    "palletCount" INTEGER,
    "hazmat" BOOLEAN NOT NULL DEFAULT false,
    "rateCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "validUntil" DATETIME NOT NULL,
    "respondedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("RateQuote", "shipperId", "Shipper")},
    {fk("RateQuote", "originWarehouseId", "Warehouse")},
    {fk("RateQuote", "destinationWarehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "Load" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "loadNumber" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PLANNED',
    "driverId" TEXT,
    "truckId" INTEGER,
    "trailerId" INTEGER,
    "carrierId" TEXT,
    "carrierPayCents" INTEGER,
    "distance" REAL NOT NULL,
    "dispatchedAt" DATETIME,
    "completedAt" DATETIME,
    "cancelledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Load", "driverId", "Driver", True)},
    {fk("Load", "truckId", "Truck", True)},
    {fk("Load", "trailerId", "Trailer", True)},
    {fk("Load", "carrierId", "Carrier", True)}
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "trackingNumber" TEXT NOT NULL,
    "shipperId" TEXT NOT NULL,
    "rateQuoteId" TEXT,
    "loadId" INTEGER,
    "originWarehouseId" INTEGER NOT NULL,
    "destinationWarehouseId" INTEGER NOT NULL,
    "equipmentType" TEXT NOT NULL DEFAULT 'DRY_VAN',
    "commodity" TEXT NOT NULL,
    "weightKg" INTEGER NOT NULL,
    "palletCount" INTEGER,
    "hazmat" BOOLEAN NOT NULL DEFAULT false,
    "pickupWindowStart" DATETIME NOT NULL,
    "pickupWindowEnd" DATETIME NOT NULL,
    "deliveryDeadline" DATETIME NOT NULL,
    "rateCents" INTEGER NOT NULL,
    "specialInstructions" TEXT,
    "cancelledAt" DATETIME,
    "cancellationReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Shipment", "shipperId", "Shipper")},
    {fk("Shipment", "rateQuoteId", "RateQuote", True)},
    {fk("Shipment", "loadId", "Load", True)},
    {fk("Shipment", "originWarehouseId", "Warehouse")},
    {fk("Shipment", "destinationWarehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "Stop" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "loadId" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "warehouseId" INTEGER NOT NULL,
    "appointmentAt" DATETIME NOT NULL,
    "arrivedAt" DATETIME,
    "departedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Stop_loadId_fkey" FOREIGN KEY ("loadId") REFERENCES "Load" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    {fk("Stop", "warehouseId", "Warehouse")}
);

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "number" TEXT NOT NULL,
    "shipperId" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "periodEnd" DATETIME NOT NULL,
    "issuedAt" DATETIME NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "totalCents" INTEGER NOT NULL,
    "paidAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Invoice", "shipperId", "Shipper")}
);

-- CreateTable
CREATE TABLE "InvoiceLine" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "invoiceId" TEXT NOT NULL,
    "shipmentId" INTEGER,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "quantity" REAL NOT NULL DEFAULT 1,
    "unitPriceCents" INTEGER NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "InvoiceLine_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    {fk("InvoiceLine", "shipmentId", "Shipment", True)}
);

-- CreateTable
CREATE TABLE "FuelPurchase" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "truckId" INTEGER NOT NULL,
    "driverId" TEXT,
    "loadId" INTEGER,
    "purchasedAt" DATETIME NOT NULL,
    "vendor" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "product" TEXT NOT NULL DEFAULT 'DIESEL',
    "quantity" REAL NOT NULL,
    "totalCents" INTEGER NOT NULL,
    "odometer" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    {fk("FuelPurchase", "truckId", "Truck")},
    {fk("FuelPurchase", "driverId", "Driver", True)},
    {fk("FuelPurchase", "loadId", "Load", True)}
);

-- CreateTable
CREATE TABLE "Incident" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'LOW',
    "occurredAt" DATETIME NOT NULL,
    "reportedAt" DATETIME NOT NULL,
    "loadId" INTEGER,
    "driverId" TEXT,
    "truckId" INTEGER,
    "description" TEXT NOT NULL,
    "preventable" BOOLEAN,
    "claimAmountCents" INTEGER,
    "resolvedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    {fk("Incident", "loadId", "Load", True)},
    {fk("Incident", "driverId", "Driver", True)},
    {fk("Incident", "truckId", "Truck", True)}
);

-- CreateTable
CREATE TABLE "_CarrierToWarehouse" (
    "A" TEXT NOT NULL,
    "B" INTEGER NOT NULL,
    CONSTRAINT "_CarrierToWarehouse_A_fkey" FOREIGN KEY ("A") REFERENCES "Carrier" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "_CarrierToWarehouse_B_fkey" FOREIGN KEY ("B") REFERENCES "Warehouse" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Warehouse_code_key" ON "Warehouse"("code");
CREATE UNIQUE INDEX "Shipper_accountCode_key" ON "Shipper"("accountCode");
CREATE INDEX "Shipper_homeWarehouseId_idx" ON "Shipper"("homeWarehouseId");
CREATE UNIQUE INDEX "Carrier_mcNumber_key" ON "Carrier"("mcNumber");
CREATE INDEX "Carrier_parentId_idx" ON "Carrier"("parentId");
CREATE UNIQUE INDEX "Driver_email_key" ON "Driver"("email");
CREATE UNIQUE INDEX "Driver_licenseNumber_key" ON "Driver"("licenseNumber");
CREATE INDEX "Driver_homeWarehouseId_idx" ON "Driver"("homeWarehouseId");
CREATE INDEX "Driver_mentorId_idx" ON "Driver"("mentorId");
CREATE UNIQUE INDEX "Truck_unitNumber_key" ON "Truck"("unitNumber");
CREATE UNIQUE INDEX "Truck_vin_key" ON "Truck"("vin");
CREATE UNIQUE INDEX "Trailer_unitNumber_key" ON "Trailer"("unitNumber");
CREATE INDEX "RateQuote_shipperId_idx" ON "RateQuote"("shipperId");
CREATE INDEX "RateQuote_status_idx" ON "RateQuote"("status");
CREATE UNIQUE INDEX "Load_loadNumber_key" ON "Load"("loadNumber");
CREATE INDEX "Load_status_idx" ON "Load"("status");
CREATE INDEX "Load_driverId_idx" ON "Load"("driverId");
CREATE INDEX "Load_carrierId_idx" ON "Load"("carrierId");
CREATE UNIQUE INDEX "Shipment_trackingNumber_key" ON "Shipment"("trackingNumber");
CREATE UNIQUE INDEX "Shipment_rateQuoteId_key" ON "Shipment"("rateQuoteId");
CREATE INDEX "Shipment_shipperId_idx" ON "Shipment"("shipperId");
CREATE INDEX "Shipment_loadId_idx" ON "Shipment"("loadId");
CREATE INDEX "Shipment_pickupWindowStart_idx" ON "Shipment"("pickupWindowStart");
CREATE UNIQUE INDEX "Stop_loadId_sequence_key" ON "Stop"("loadId", "sequence");
CREATE INDEX "Stop_warehouseId_idx" ON "Stop"("warehouseId");
CREATE UNIQUE INDEX "Invoice_number_key" ON "Invoice"("number");
CREATE INDEX "Invoice_shipperId_idx" ON "Invoice"("shipperId");
CREATE INDEX "Invoice_status_idx" ON "Invoice"("status");
CREATE INDEX "InvoiceLine_invoiceId_idx" ON "InvoiceLine"("invoiceId");
CREATE INDEX "InvoiceLine_shipmentId_idx" ON "InvoiceLine"("shipmentId");
CREATE INDEX "FuelPurchase_truckId_purchasedAt_idx" ON "FuelPurchase"("truckId", "purchasedAt");
CREATE INDEX "Incident_loadId_idx" ON "Incident"("loadId");
CREATE INDEX "Incident_driverId_idx" ON "Incident"("driverId");
CREATE UNIQUE INDEX "_CarrierToWarehouse_AB_unique" ON "_CarrierToWarehouse"("A", "B");
CREATE INDEX "_CarrierToWarehouse_B_index" ON "_CarrierToWarehouse"("B");
"""

# ---------------------------------------------------------------- reference data

D = dt.date
# code, name, kind, street, city, state, zip, lat, lon, dock doors, capacity (pallet positions),
# cold storage, opened, closed, weight (share of the freight that starts there)
WAREHOUSES = [
    ("CHI", "Chicago South Terminal", "TERMINAL", "4150 W 47th Place", "Chicago", "IL", "60632",
     41.8071, -87.7296, 64, 9000, 1, D(2019, 4, 1), None, 14),
    ("IND", "Indianapolis Cross-Dock", "CROSS_DOCK", "7702 Perimeter Parkway", "Indianapolis",
     "IN", "46241", 39.7202, -86.2547, 48, 2500, 0, D(2019, 9, 16), None, 9),
    ("MKE", "Milwaukee Distribution Center", "DISTRIBUTION_CENTER", "2900 W Layton Commerce Dr",
     "Milwaukee", "WI", "53221", 42.9519, -87.9502, 36, 12000, 1, D(2020, 5, 4), None, 6),
    ("DET", "Detroit Metro Terminal", "TERMINAL", "11850 Harlow Industrial Dr", "Romulus", "MI",
     "48174", 42.2356, -83.3521, 40, 6000, 0, D(2020, 2, 3), None, 8),
    ("CMH", "Columbus Cross-Dock", "CROSS_DOCK", "3355 Alum Creek Logistics Way", "Columbus", "OH",
     "43207", 39.9012, -82.9321, 32, 2000, 0, D(2021, 3, 1), None, 7),
    ("STL", "St. Louis Distribution Center", "DISTRIBUTION_CENTER", "1480 Riverport Trade Ct",
     "Maryland Heights", "MO", "63043", 38.7310, -90.4470, 30, 10500, 1, D(2021, 6, 14), None, 7),
    ("FWA", "Fort Wayne Cross-Dock", "CROSS_DOCK", "3640 Ferguson Freight Ln", "Fort Wayne", "IN",
     "46809", 41.0060, -85.1800, 14, 1200, 0, D(2021, 10, 4), D(2024, 8, 30), 3),
    ("DSM", "Des Moines Terminal", "TERMINAL", "5210 SE Freight Row", "Des Moines", "IA", "50320",
     41.5480, -93.5790, 18, 3000, 1, D(2022, 1, 10), None, 4),
    ("MSP", "Twin Cities Distribution Center", "DISTRIBUTION_CENTER", "800 Northstar Depot Rd",
     "Brooklyn Park", "MN", "55430", 45.0620, -93.3010, 34, 11000, 1, D(2022, 4, 4), None, 6),
    ("CVG", "Cincinnati Terminal", "TERMINAL", "9020 Mill Race Industrial Dr", "Cincinnati", "OH",
     "45246", 39.2890, -84.4650, 26, 4000, 0, D(2022, 8, 1), None, 5),
    ("GRR", "Grand Rapids Cross-Dock", "CROSS_DOCK", "4477 Patterson Yard Ave", "Grand Rapids",
     "MI", "49512", 42.8830, -85.5580, 20, 1500, 0, D(2023, 6, 5), None, 4),
    ("SDF", "Louisville Distribution Center", "DISTRIBUTION_CENTER", "6015 Outer Loop Commerce Dr",
     "Louisville", "KY", "40219", 38.1390, -85.6960, 28, 9500, 1, D(2025, 4, 7), None, 4),
]
NEARBY = {
    "CHI": [("Chicago", "IL"), ("Joliet", "IL"), ("Aurora", "IL"), ("Elk Grove Village", "IL"),
            ("Gary", "IN")],
    "IND": [("Indianapolis", "IN"), ("Plainfield", "IN"), ("Greenwood", "IN"), ("Lebanon", "IN")],
    "MKE": [("Milwaukee", "WI"), ("Waukesha", "WI"), ("Racine", "WI"), ("Kenosha", "WI")],
    "DET": [("Detroit", "MI"), ("Livonia", "MI"), ("Warren", "MI"), ("Ann Arbor", "MI")],
    "CMH": [("Columbus", "OH"), ("Grove City", "OH"), ("Groveport", "OH"), ("Delaware", "OH")],
    "STL": [("St. Louis", "MO"), ("St. Charles", "MO"), ("Fenton", "MO"), ("Belleville", "IL")],
    "FWA": [("Fort Wayne", "IN"), ("Auburn", "IN")],
    "DSM": [("Des Moines", "IA"), ("Ankeny", "IA"), ("Ames", "IA")],
    "MSP": [("Minneapolis", "MN"), ("St. Paul", "MN"), ("Shakopee", "MN"), ("Bloomington", "MN")],
    "CVG": [("Cincinnati", "OH"), ("Hamilton", "OH"), ("Florence", "KY")],
    "GRR": [("Grand Rapids", "MI"), ("Holland", "MI"), ("Wyoming", "MI")],
    "SDF": [("Louisville", "KY"), ("Shepherdsville", "KY")],
}
AREA = {"IL": "312", "IN": "317", "WI": "414", "MI": "313", "OH": "614", "MO": "314", "IA": "515",
        "MN": "612", "KY": "502"}

INDUSTRIES = ["FOOD_BEVERAGE", "RETAIL", "MANUFACTURING", "BUILDING_MATERIALS", "AGRICULTURE",
              "CHEMICALS", "PAPER_PACKAGING"]
INDUSTRY_WEIGHTS = [20, 18, 18, 12, 10, 8, 8]
EQUIP = {
    "FOOD_BEVERAGE": {"REEFER": 6, "DRY_VAN": 4},
    "AGRICULTURE": {"REEFER": 3, "DRY_VAN": 5, "FLATBED": 2},
    "MANUFACTURING": {"DRY_VAN": 7, "FLATBED": 3},
    "RETAIL": {"DRY_VAN": 10},
    "CHEMICALS": {"DRY_VAN": 10},
    "BUILDING_MATERIALS": {"FLATBED": 6, "DRY_VAN": 4},
    "PAPER_PACKAGING": {"DRY_VAN": 10},
}
# (commodity, hazmat)
COMMODITIES = {
    ("FOOD_BEVERAGE", "REEFER"): [("Frozen pizza", 0), ("Dairy products", 0), ("Ice cream", 0),
                                  ("Fresh produce", 0), ("Packaged meat", 0)],
    ("FOOD_BEVERAGE", "DRY_VAN"): [("Canned vegetables", 0), ("Bottled water", 0),
                                   ("Snack foods", 0), ("Breakfast cereal", 0)],
    ("AGRICULTURE", "REEFER"): [("Fresh apples", 0), ("Potatoes", 0), ("Sweet corn", 0)],
    ("AGRICULTURE", "DRY_VAN"): [("Bagged seed", 0), ("Animal feed", 0),
                                 ("Ammonium nitrate fertilizer", 1)],
    ("AGRICULTURE", "FLATBED"): [("Irrigation pipe", 0), ("Grain bin parts", 0)],
    ("MANUFACTURING", "DRY_VAN"): [("Auto parts", 0), ("Electrical components", 0),
                                   ("Plastic resin", 0), ("Industrial fasteners", 0),
                                   ("Lithium batteries", 1)],
    ("MANUFACTURING", "FLATBED"): [("Steel coils", 0), ("Machinery", 0), ("Structural steel", 0)],
    ("RETAIL", "DRY_VAN"): [("Furniture", 0), ("Appliances", 0), ("Home goods", 0), ("Apparel", 0),
                            ("Consumer electronics", 0)],
    ("CHEMICALS", "DRY_VAN"): [("Paint and coatings", 1), ("Cleaning chemicals", 1),
                               ("Adhesives", 1), ("Lubricants", 0), ("Pool chemicals", 1)],
    ("BUILDING_MATERIALS", "FLATBED"): [("Lumber", 0), ("Roofing shingles", 0), ("Rebar", 0),
                                        ("Precast concrete", 0)],
    ("BUILDING_MATERIALS", "DRY_VAN"): [("Drywall", 0), ("Flooring", 0), ("Insulation", 0)],
    ("PAPER_PACKAGING", "DRY_VAN"): [("Corrugated boxes", 0), ("Paper rolls", 0),
                                     ("Stretch film", 0)],
}
KG_PER_PALLET = {"FOOD_BEVERAGE": (550, 900), "RETAIL": (250, 500), "MANUFACTURING": (400, 900),
                 "CHEMICALS": (600, 1000), "PAPER_PACKAGING": (350, 600),
                 "AGRICULTURE": (500, 900), "BUILDING_MATERIALS": (700, 1000)}
SUFFIXES = {
    "FOOD_BEVERAGE": ["Foods", "Creamery", "Bottling Co.", "Provisions", "Bakeries", "Farms Dairy",
                      "Snack Co."],
    "RETAIL": ["Home Goods", "Outfitters", "Mercantile", "Furniture Co.", "Supply Depot",
               "Appliance Outlet"],
    "MANUFACTURING": ["Fabrication", "Machine Works", "Components", "Plastics", "Manufacturing",
                      "Industries"],
    "BUILDING_MATERIALS": ["Lumber", "Stone & Tile", "Roofing Supply", "Building Products",
                           "Steel Supply"],
    "AGRICULTURE": ["Grain Cooperative", "Seed & Feed", "Orchards", "Produce", "Ag Supply"],
    "CHEMICALS": ["Coatings", "Chemical Co.", "Specialty Chemicals", "Cleaning Solutions"],
    "PAPER_PACKAGING": ["Paper Co.", "Packaging", "Corrugated", "Films & Wraps"],
}
SHIPPER_PREFIXES = [
    "Bramblewood", "Ostrander", "Quillfeather", "Hollisford", "Tamberlane", "Wexcombe", "Marrowby",
    "Fenwarden", "Calloway Bend", "Dunmere", "Kestrelgate", "Larchvale", "Ashgrove", "Pellham",
    "Orrin Creek", "Tillbury", "Vossberg", "Gravenhurst", "Halvorsen", "Brackett Mill",
    "Saddlecreek", "Emberly", "Corvallen", "Whitlow", "Stannard", "Yarrowfield", "Blackhollow",
    "Merriweather", "Ferncastle", "Greyfield", "Thistledown", "Rookwood", "Amberlane", "Carrowmore",
    "Duskin", "Elmsworth", "Foxhaven", "Gildersleeve", "Harlowe", "Inverleigh", "Jessup Ridge",
    "Kellerman", "Lindgarde", "Moorcroft", "Northam", "Oakhurst", "Penhallow", "Quarry Hill",
    "Redfern", "Sallowmere", "Tremaine", "Ulverton", "Vantwell", "Westerholm", "Yelverton",
    "Zandvoort", "Abernell", "Birchcombe", "Cresswell", "Delacroix", "Eastwold", "Fairlight",
    "Glenhaven", "Hazelmere", "Ivywood", "Juniper Hollow", "Kingsclere", "Lochwood", "Maplestead",
    "Netherby", "Oldcastle Mill", "Pemberton Vale", "Quenby", "Rushmere", "Silverdale",
    "Thornbury", "Underhill", "Valecrest", "Wolverley", "Yardley Brook", "Arkwright", "Bellhaven",
    "Coldbrook", "Dovecote", "Eversley", "Fallowfield", "Gransden", "Highcliffe", "Ingleby",
    "Kimberton", "Lockridge", "Mistral Creek", "Nettlefield", "Oxbury", "Pinecastle",
]
CARRIERS = [
    # (name, parent index or None, preferred, safety rating, created, deleted, insurance lapsed on)
    ("Ridgeline Transportation Group", None, 1, "SATISFACTORY", D(2020, 6, 1), None, None),
    ("Ridgeline Reefer Express", 0, 1, "SATISFACTORY", D(2020, 6, 1), None, None),
    ("Stonecutter Trucking", 0, 0, "SATISFACTORY", D(2021, 2, 15), None, None),
    ("Ridgeline Flatbed Services", 0, 0, "CONDITIONAL", D(2022, 9, 12), None, None),
    ("Marlowe Holdings", None, 0, "SATISFACTORY", D(2020, 11, 3), None, None),
    ("Marlowe Freight Lines", 4, 1, "SATISFACTORY", D(2020, 11, 3), None, None),
    ("Quickwater Transport", 4, 0, "SATISFACTORY", D(2023, 3, 20), None, None),
    ("Vantor Logistics Inc.", None, 1, "SATISFACTORY", D(2021, 5, 10), None, None),
    ("Vantor Dedicated", 7, 0, "SATISFACTORY", D(2021, 5, 10), None, None),
    ("Bellweather Carriers", 7, 0, "UNRATED", D(2024, 1, 8), None, None),
    ("Tamsin Road Lines", 7, 0, "SATISFACTORY", D(2022, 3, 28), None, None),
    ("Copperline Freight LLC", None, 1, "SATISFACTORY", D(2020, 8, 17), None, None),
    ("Greywater Express", None, 0, "SATISFACTORY", D(2021, 1, 11), None, None),
    ("Hollowpine Trucking", None, 0, "CONDITIONAL", D(2021, 7, 6), D(2024, 2, 16), None),
    ("Brightfield Transport", None, 1, "SATISFACTORY", D(2021, 9, 20), None, None),
    ("Kettlestone Carriers", None, 0, "SATISFACTORY", D(2022, 1, 24), None, None),
    ("Owlcrest Logistics", None, 0, "SATISFACTORY", D(2022, 4, 4), None, D(2025, 8, 31)),
    ("Sable Prairie Freight", None, 0, "SATISFACTORY", D(2022, 5, 16), None, None),
    ("Two Forks Transport", None, 0, "UNRATED", D(2022, 8, 8), D(2024, 11, 22), None),
    ("Windrow Express LLC", None, 1, "SATISFACTORY", D(2022, 10, 3), None, None),
    ("Ironmoor Trucking", None, 0, "CONDITIONAL", D(2023, 2, 13), None, D(2025, 10, 15)),
    ("Lanternfield Lines", None, 0, "SATISFACTORY", D(2023, 5, 22), None, None),
    ("Corbel Freightways", None, 0, "SATISFACTORY", D(2023, 8, 14), D(2025, 5, 9), None),
    ("Pikestaff Carriers", None, 1, "SATISFACTORY", D(2023, 11, 6), None, None),
    ("Redwillow Transport", None, 0, "UNRATED", D(2024, 3, 18), None, None),
    ("Tallgrass Haulers", None, 0, "SATISFACTORY", D(2024, 6, 10), None, None),
    ("Mossbank Logistics", None, 0, "UNRATED", D(2024, 9, 23), None, None),
    ("Emberlyn Express", None, 0, "SATISFACTORY", D(2025, 1, 13), None, None),
    ("Northgale Freight", None, 0, "UNRATED", D(2025, 5, 5), None, None),
    ("Quarrystone Carriers", None, 0, "UNRATED", D(2025, 10, 27), None, None),   # no load yet
]
FIRST = ["James", "Maria", "Robert", "Linda", "Michael", "Angela", "David", "Teresa", "William",
         "Donna", "Carlos", "Keisha", "Darnell", "Rosa", "Tyrone", "Megan", "Brandon", "Tanya",
         "Luis", "Heather", "Marcus", "Crystal", "Dale", "Shawna", "Travis", "Renee", "Curtis",
         "Yolanda", "Wade", "Bonnie", "Hector", "Gloria", "Duane", "Trina", "Jamal", "Kendra",
         "Roy", "Lorena", "Earl", "Misty", "Omar", "Sandra", "Cody", "Irene"]
LAST = ["Kowalski", "Hernandez", "Washington", "Novak", "Brennan", "Okafor", "Lindgren", "Pruitt",
        "Castillo", "Dombrowski", "Haskins", "Mbeki", "Vasquez", "Larkin", "Yoder", "Sorensen",
        "Tillman", "Grady", "Pacheco", "Whitfield", "Jablonski", "Ostrowski", "McAllister",
        "Delgado", "Fairchild", "Kimura", "Rasmussen", "Abernathy", "Quintero", "Stroud",
        "Nakamura", "Bergstrom", "Caldwell", "Ferreira", "Gustafson", "Holloway", "Iverson",
        "Jorgensen", "Kessler", "Lund", "Marchetti", "Nyberg", "Oyelaran", "Petrakis"]
VENDORS = ["Crossroads Fuel Plaza", "Big Bluestem Travel Center", "Prairie Star Truck Stop",
           "Lakeview Fuel Center", "Ironhorse Travel Plaza", "Red Kettle Truck Stop",
           "Northline Fuel & Go", "Junction 9 Truck Plaza"]
YARD_PUMP = "Haulwise yard pump"
DEPOT_CHARGER = "Haulwise depot charger"
INSTRUCTIONS = {
    "REEFER": ["Keep at 34F, continuous run", "Pre-cool trailer to 0F", "Seal number required on BOL"],
    "DRY_VAN": ["Call 30 min before arrival", "Do not double stack", "Driver assist unload",
                "Appointment only, dock 12", "Fragile: floor load only"],
    "FLATBED": ["Tarps required", "Edge protectors required", "Chains and binders, no straps"],
}
CANCEL_REASONS = ["SHIPPER_REQUEST", "FREIGHT_NOT_READY", "NO_CAPACITY", "DUPLICATE_BOOKING"]
CANCEL_WEIGHTS = [45, 30, 15, 10]
CPM = {"DRY_VAN": 265, "REEFER": 315, "FLATBED": 295}       # linehaul cents per mile
YEAR_FACTOR = {2023: 1.0, 2024: 0.96, 2025: 1.02}
DETENTION_RATE = 7500       # cents per hour after 2 free hours at the delivery stop
HAZMAT_FEE = 15000
CANCEL_FEE = 25000
STORAGE_RATE = {2023: 1650, 2024: 1700, 2025: 1750}   # cents per pallet position per month
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def ts(x):
    return None if x is None else x.strftime("%Y-%m-%dT%H:%M:%S.") + f"{x.microsecond // 1000:03d}Z"


def midnight(day):
    return dt.datetime.combine(day, dt.time())


def q(x):
    """Truncate to whole milliseconds, as the app stores them."""
    return x.replace(microsecond=x.microsecond // 1000 * 1000)


def at(rng, day, hour_lo, hour_hi):
    seconds = rng.uniform(hour_lo * 3600, hour_hi * 3600)
    return q(midnight(day) + dt.timedelta(seconds=seconds))


def jitter(rng, x):
    return q(x + dt.timedelta(seconds=rng.randint(0, 59), milliseconds=rng.randint(0, 999)))


def ceil_to(x, minutes):
    base = x.replace(second=0, microsecond=0)
    base -= dt.timedelta(minutes=base.minute % minutes)
    return base if base == x else base + dt.timedelta(minutes=minutes)


def b36(n, width):
    s = ""
    while n:
        n, r = divmod(n, 36)
        s = B36[r] + s
    return s.rjust(width, "0")[-width:]


def poisson(rng, lam):
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def month_start(day):
    return day.replace(day=1)


def next_month(day):
    return (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def diesel_price(day):
    """A made-up regional diesel index, dollars per gallon."""
    m = (day.year - 2023) * 12 + day.month - 1
    return 4.55 - 0.028 * m + 0.012 * m * m / 35 + 0.16 * math.sin(m / 1.9)


def fsc_percent(day):
    return round((diesel_price(day) - 1.25) / 0.06 / 2.6, 1)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "freight.sqlite")
    rng = random.Random(SEED)
    counter = [rng.randint(0, 5000)]

    def cuid(moment):
        counter[0] += 1
        stamp = (moment - EPOCH) // dt.timedelta(milliseconds=1)
        return ("c" + b36(stamp, 8) + b36(counter[0], 4) + "hw"
                + "".join(rng.choice(B36) for _ in range(10)))

    def phone(state):
        return f"({AREA[state]}) 555-01{rng.randint(0, 99):02d}"

    # ------------------------------------------------------------ warehouses
    whs = []
    for i, w in enumerate(WAREHOUSES, start=1):
        code, name, kind, street, city, state, zipc, lat, lon, doors, cap, cold, opened, closed, wt = w
        created = at(rng, opened - dt.timedelta(days=rng.randint(25, 70)), 14, 22)
        updated = at(rng, closed, 18, 22) if closed else at(rng, opened, 12, 14)
        whs.append({"id": i, "code": code, "name": name, "kind": kind, "street": street,
                    "city": city, "state": state, "zip": zipc, "lat": lat, "lon": lon,
                    "doors": doors, "cap": cap, "cold": cold, "opened": opened, "closed": closed,
                    "weight": wt, "created": created, "updated": updated})
    WH = {w["code"]: w for w in whs}

    def open_on(w, day):
        return w["opened"] <= day and (w["closed"] is None or day < w["closed"])

    def miles(a, b):
        la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
        h = (math.sin((la2 - la1) / 2) ** 2
             + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
        return round(2 * 3958.8 * math.asin(math.sqrt(h)) * 1.19, 1)

    dist = {(a["id"], b["id"]): miles(a, b) for a in whs for b in whs}

    # ------------------------------------------------------------ shippers
    n_shippers = 92
    prefixes = SHIPPER_PREFIXES[:]
    rng.shuffle(prefixes)
    created_days = ([D(2021, 2, 1) + dt.timedelta(days=rng.randint(0, 680)) for _ in range(52)]
                    + [D(2023, 1, 9) + dt.timedelta(days=int(i * 1010 / 38) + rng.randint(0, 12))
                       for i in range(38)]
                    + [D(2024, 5, 14), D(2025, 11, 10)])
    created_days.sort()
    shippers = []
    for i in range(n_shippers):
        day = created_days[i]
        ind = rng.choices(INDUSTRIES, weights=INDUSTRY_WEIGHTS)[0]
        name = f"{prefixes[i]} {rng.choice(SUFFIXES[ind])}"
        homes = [w for w in whs if open_on(w, day + dt.timedelta(days=30))
                 and w["code"] not in ("FWA",)]
        if ind in ("FOOD_BEVERAGE",):
            homes = [w for w in homes if w["cold"]] or homes
        home = rng.choices(homes, weights=[w["weight"] for w in homes])[0]
        city, state = rng.choice(NEARBY[home["code"]])
        slug = prefixes[i].lower().replace(" ", "")
        size = min(12.0, rng.paretovariate(1.25))
        created = at(rng, day, 14, 22)
        equip = dict(EQUIP[ind])
        commodities = {}
        for e in equip:
            pool = COMMODITIES[(ind, e)]
            commodities[e] = rng.sample(pool, min(len(pool), rng.randint(1, 3)))
        shippers.append({
            "id": cuid(created), "code": f"SHP-{1001 + i}", "name": name, "industry": ind,
            "email": f"ap@{slug}.example.com", "phone": phone(state) if rng.random() < 0.9 else None,
            "city": city, "state": state, "home": home["code"],
            "terms": rng.choice([15, 30, 30, 30, 30, 45, 45, 60]),
            "credit": rng.choice([2500000, 5000000, 7500000, 10000000, 15000000, 25000000]),
            "storage": 0, "created": created, "size": size, "equip": equip,
            "commodities": commodities, "spot_only": rng.random() < 0.2,
            "payer": rng.choices(["prompt", "normal", "slow"], weights=[3, 6, 2])[0],
            "deleted_plan": None, "dormant": False, "delinquent": False,
        })
    # two accounts that never shipped: one opened two days before the snapshot, one that only
    # asked for quotes
    shippers[-1]["dormant"] = True
    for s in shippers:
        if s["created"].date() == D(2024, 5, 14):
            s["dormant"] = True
            s["spot_only"] = True
    early = [s for s in shippers[:52] if not s["dormant"]]
    for s, plan in zip(rng.sample(early, 5), [D(2023, 10, 20), D(2024, 3, 8), D(2024, 9, 27),
                                             D(2025, 2, 14), D(2025, 6, 20)]):
        s["deleted_plan"] = plan
        s["spot_only"] = False
    candidates = [s for s in shippers if s["deleted_plan"] is None and not s["dormant"]
                  and WH[s["home"]]["kind"] == "DISTRIBUTION_CENTER"
                  and s["created"].date() < D(2025, 1, 1)]
    for s in rng.sample(candidates, 12):
        s["storage"] = 1
        s["storage_pallets"] = rng.randint(20, 180)
    big = [s for s in shippers if s["deleted_plan"] is None and not s["dormant"]
           and s["created"].date() < D(2023, 6, 1)]
    delinquent = max(big, key=lambda s: (s["size"] if s["size"] < 3 else 0, s["code"]))
    delinquent["delinquent"] = True
    delinquent["payer"] = "slow"

    # ------------------------------------------------------------ carriers
    carriers = []
    for i, (name, parent, pref, rating, created_day, deleted, lapsed) in enumerate(CARRIERS):
        created = at(rng, created_day, 14, 22)
        slug = name.lower().replace(" ", "").replace(".", "").replace(",", "")
        if lapsed:
            insurance = midnight(lapsed)
        else:
            insurance = midnight(D(2025, 11, 20) + dt.timedelta(days=rng.randint(0, 330)))
        carriers.append({"i": i, "id": cuid(created), "name": name, "parent": parent, "pref": pref,
                         "rating": rating, "created": created, "deleted": deleted,
                         "lapsed": lapsed, "insurance": insurance,
                         "mc": f"MC-{rng.randint(100000, 1399999)}",
                         "dot": f"{rng.randint(1000000, 3999999)}",
                         "phone": phone(rng.choice(list(AREA))),
                         "email": f"dispatch@{slug}.example.net"})
    approvals = []   # (carrier index, warehouse id)
    for c in carriers:
        k = 6 if c["parent"] is None and c["i"] in (0, 4, 7) else rng.randint(2, 5)
        if c["name"] == "Quarrystone Carriers":
            k = 2
        pool = whs[:]
        chosen = []
        while len(chosen) < k:
            w = rng.choices(pool, weights=[x["weight"] for x in pool])[0]
            pool.remove(w)
            chosen.append(w["id"])
        if c["name"] in ("Emberlyn Express", "Northgale Freight"):
            if WH["SDF"]["id"] not in chosen:
                chosen.append(WH["SDF"]["id"])
        for wid in sorted(chosen):
            approvals.append((c["i"], wid))
    approved_at = {w["id"]: [c for c in carriers if (c["i"], w["id"]) in approvals] for w in whs}

    # ------------------------------------------------------------ drivers
    names = []
    used = set()
    while len(names) < 40:
        n = (rng.choice(FIRST), rng.choice(LAST))
        if n[0] not in [x[0] for x in names] or rng.random() < 0.25:
            if n not in used and n[1] not in [x[1] for x in names]:
                used.add(n)
                names.append(n)
    home_pool = ["CHI"] * 5 + ["IND"] * 3 + ["DET"] * 3 + ["CMH"] * 2 + ["STL"] * 2 + ["MKE"] * 2
    drivers = []
    hire_days = sorted([D(2016, 3, 1) + dt.timedelta(days=rng.randint(0, 2430)) for _ in range(17)])
    hire_days += [D(2023, 2, 6) + dt.timedelta(days=int(i * 955 / 23) + rng.randint(0, 9))
                  for i in range(23)]
    class_b = {3, 11, 19, 26, 31, 37}
    experienced = {21, 29, 35}
    for i, (first, last) in enumerate(names):
        hired = midnight(hire_days[i])
        created = at(rng, hire_days[i] - dt.timedelta(days=rng.randint(3, 14)), 14, 22)
        cls = "CLASS_B" if i in class_b else "CLASS_A"
        pay_type = "HOURLY" if cls == "CLASS_B" or rng.random() < 0.12 else "PER_MILE"
        seniority = (SNAPSHOT - hired).days / 365
        if pay_type == "PER_MILE":
            rate = int(56 + min(16, seniority * 1.6) + rng.randint(-2, 2))
        else:
            rate = int(2450 + min(900, seniority * 90) + rng.randint(-4, 4) * 25)
        home = rng.choice(home_pool)
        state = WH[home]["state"]
        drivers.append({
            "i": i, "id": cuid(created), "first": first, "last": last,
            "email": f"{first.lower()}.{last.lower()}@haulwise.example",
            "phone": phone(state), "license": f"{state}{rng.randint(10**8, 10**9 - 1)}",
            "lstate": state, "cls": cls,
            "hazmat": 1 if cls == "CLASS_A" and rng.random() < 0.42 else 0,
            "home": home, "mentor": None, "pay_type": pay_type, "rate": rate,
            "hired": hired, "terminated": None, "leave": None, "created": created,
            "free_at": hired, "updated": created,
        })
    # terminations (dates fixed relative to hire, all before the snapshot)
    for i, when in [(2, D(2023, 5, 19)), (6, D(2024, 1, 12)), (9, D(2024, 7, 26)),
                    (14, D(2025, 3, 7)), (18, D(2023, 11, 3)), (22, D(2024, 10, 18)),
                    (27, D(2025, 6, 27)), (24, D(2025, 9, 19))]:
        drivers[i]["terminated"] = at(rng, when, 20, 23)
    for i, when in [(5, D(2025, 10, 20)), (30, D(2025, 11, 3))]:
        drivers[i]["leave"] = at(rng, when, 12, 14)
    for d in drivers[17:]:
        if d["i"] in experienced:
            continue
        mentors = [m for m in drivers if m["cls"] == "CLASS_A" and m is not d
                   and (d["hired"] - m["hired"]).days > 700
                   and (m["terminated"] is None or m["terminated"] > d["hired"] + 90 * DAY)]
        if mentors:
            d["mentor"] = rng.choice(mentors)["id"]

    def driver_ok(d, start, end):
        return (d["hired"] <= start and (d["terminated"] is None or d["terminated"] > end + DAY)
                and (d["leave"] is None or d["leave"] > end + DAY) and d["free_at"] <= start)

    # ------------------------------------------------------------ trucks and trailers
    # (make, model, kind, fuel, model year, acquired, retired, home, shop since)
    truck_specs = []
    for k in range(13):
        year = 2016 + k // 3
        truck_specs.append(["Kestrel" if k % 2 else "Ironbridge",
                            "K680 Sleeper" if k % 2 else "IB-900", "TRACTOR", "DIESEL", year,
                            D(2019, 1, 7) + dt.timedelta(days=k * 135 + rng.randint(0, 20)), None])
    for k, (make, model, kind, fuel, year, acq) in enumerate([
            ("Kestrel", "K680 NG", "TRACTOR", "CNG", 2022, D(2022, 6, 13)),
            ("Kestrel", "K680 NG", "TRACTOR", "CNG", 2022, D(2022, 6, 13)),
            ("Kestrel", "K680 NG", "TRACTOR", "CNG", 2023, D(2023, 9, 18)),
            ("Norvale", "City 26 Box", "STRAIGHT_TRUCK", "DIESEL", 2019, D(2020, 3, 2)),
            ("Norvale", "City 26 Box", "STRAIGHT_TRUCK", "DIESEL", 2021, D(2021, 7, 19)),
            ("Norvale", "City 26 Box", "STRAIGHT_TRUCK", "DIESEL", 2023, D(2023, 4, 10)),
            ("Voltan", "eBox 26", "STRAIGHT_TRUCK", "ELECTRIC", 2024, D(2024, 5, 6)),
            ("Voltan", "eBox 26", "STRAIGHT_TRUCK", "ELECTRIC", 2025, D(2025, 3, 24)),
            ("Ironbridge", "IB-900", "TRACTOR", "DIESEL", 2024, D(2023, 12, 4)),
            ("Kestrel", "K680 Sleeper", "TRACTOR", "DIESEL", 2024, D(2024, 6, 17)),
            ("Ironbridge", "IB-900", "TRACTOR", "DIESEL", 2025, D(2025, 2, 10)),
            ("Ironbridge", "IB-900", "TRACTOR", "DIESEL", 2025, D(2025, 6, 2)),
            ("Kestrel", "K680 Sleeper", "TRACTOR", "DIESEL", 2025, D(2025, 8, 25)),
            ("Norvale", "Roadmaster DX", "TRACTOR", "DIESEL", 2026, D(2025, 11, 10)),   # not used yet
            ("Norvale", "Roadmaster DX", "TRACTOR", "DIESEL", 2024, D(2024, 2, 19))]):
        truck_specs.append([make, model, kind, fuel, year, acq, None])
    truck_specs.sort(key=lambda t: t[5])
    retire_at = {0: D(2023, 11, 30), 1: D(2024, 6, 28), 3: D(2025, 2, 21)}
    trucks = []
    vins = set()
    for i, (make, model, kind, fuel, year, acq, _) in enumerate(truck_specs, start=1):
        while True:
            vin = "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(17))
            if vin not in vins:
                vins.add(vin)
                break
        used_truck = year < acq.year
        trucks.append({
            "id": i, "unit": f"T-{100 + i}", "vin": vin, "make": make, "model": model,
            "kind": kind, "fuel": fuel, "year": year, "acquired": midnight(acq),
            "retired": midnight(retire_at[i - 1]) if i - 1 in retire_at else None,
            "shop": None, "home": rng.choice(home_pool),
            "odo0": rng.randint(180000, 420000) if used_truck else rng.randint(15, 1800),
            "free_at": midnight(acq), "created": at(rng, acq - dt.timedelta(days=rng.randint(2, 9)), 14, 22),
            "mpg": {("TRACTOR", "DIESEL"): rng.uniform(6.0, 7.2), ("TRACTOR", "CNG"): rng.uniform(5.0, 5.8),
                    ("STRAIGHT_TRUCK", "DIESEL"): rng.uniform(9.0, 10.5),
                    ("STRAIGHT_TRUCK", "ELECTRIC"): 0}[(kind, fuel)],
        })
    # one tractor in the shop since the week before the snapshot
    shop_truck = [t for t in trucks if t["kind"] == "TRACTOR" and t["fuel"] == "DIESEL"
                  and t["retired"] is None and t["acquired"].year < 2022][-1]
    shop_truck["shop"] = dt.datetime(2025, 11, 6, 15, 20, 41, 316000)

    def truck_ok(t, start, end):
        return (t["acquired"] + 7 * DAY <= start and (t["retired"] is None or t["retired"] > end + DAY)
                and (t["shop"] is None or t["shop"] > end + 2 * H) and t["free_at"] <= start)

    trailers = []
    trailer_specs = ([("DRY_VAN", 53)] * 22 + [("REEFER", 53)] * 10 + [("FLATBED", 48)] * 5
                     + [("FLATBED", 53)] * 3)
    acq_days = sorted(D(2019, 2, 1) + dt.timedelta(days=rng.randint(0, 1400)) for _ in trailer_specs)
    rng.shuffle(trailer_specs)
    for i, ((ttype, length), acq) in enumerate(zip(trailer_specs, acq_days), start=1):
        payload = {"DRY_VAN": 20400, "REEFER": 19500, "FLATBED": 21300}[ttype]
        payload -= rng.choice([0, 0, 200, 400]) + (600 if length == 53 and ttype == "FLATBED" else 0)
        trailers.append({"id": i, "unit": f"TR-{5000 + i}", "type": ttype, "length": length,
                         "payload": payload, "leased": 1 if rng.random() < 0.2 else 0,
                         "home": rng.choice(home_pool), "acquired": midnight(acq),
                         "deleted": None, "free_at": midnight(acq),
                         "created": at(rng, acq - dt.timedelta(days=rng.randint(1, 6)), 14, 22)})
    # two more bought in 2025, the last one a week before the snapshot (not used yet)
    for ttype, acq in [("REEFER", D(2025, 3, 3)), ("DRY_VAN", D(2025, 11, 10))]:
        i = len(trailers) + 1
        trailers.append({"id": i, "unit": f"TR-{5000 + i}", "type": ttype, "length": 53,
                         "payload": 19500 if ttype == "REEFER" else 20400, "leased": 0,
                         "home": "CHI", "acquired": midnight(acq), "deleted": None,
                         "free_at": midnight(acq),
                         "created": at(rng, acq - dt.timedelta(days=3), 14, 22)})
    for idx, when in [(2, D(2024, 4, 12)), (9, D(2024, 12, 6)), (15, D(2025, 7, 18))]:
        trailers[idx]["deleted"] = at(rng, when, 15, 21)

    def trailer_ok(t, start, end):
        return (t["acquired"] + 7 * DAY <= start and (t["deleted"] is None or t["deleted"] > end + DAY)
                and t["free_at"] <= start)

    def carrier_ok(c, start, end):
        return (c["created"] <= start - 5 * DAY
                and (c["deleted"] is None or midnight(c["deleted"]) > end + 10 * DAY)
                and (c["lapsed"] is None or midnight(c["lapsed"]) > end)
                and c["name"] != "Quarrystone Carriers")

    # ------------------------------------------------------------ shipments and loads
    def season(day):
        return {1: .86, 2: .9, 3: 1.0, 4: 1.0, 5: 1.04, 6: 1.05, 7: 1.0, 8: 1.02, 9: 1.05,
                10: 1.12, 11: 1.14, 12: 1.04}[day.month]

    def pick_shipper(origin, equip, day):
        cands, weights = [], []
        for s in shippers:
            if s["dormant"] or equip not in s["equip"]:
                continue
            if s["created"].date() > day - dt.timedelta(days=12):
                continue
            if s["deleted_plan"] and day >= s["deleted_plan"] - dt.timedelta(days=40):
                continue
            w = s["size"] * s["equip"][equip] * (6.0 if s["home"] == origin["code"] else 0.2)
            cands.append(s)
            weights.append(w)
        return rng.choices(cands, weights=weights)[0]

    def rate_for(o, dst, equip, pallets, weight, day):
        d = dist[(o["id"], dst["id"])]
        if equip == "FLATBED":
            share = max(0.3, weight / 21000)
        else:
            share = max(0.25, min(1.0, pallets / 24) ** 0.8)
        cents = (12000 + d * CPM[equip]) * share * YEAR_FACTOR[day.year] * rng.uniform(0.93, 1.07)
        return max(27500, int(round(cents / 500)) * 500)

    def new_shipment(o, dst, equip, s, appt, pallets, weight):
        commodity, hazmat = rng.choice(s["commodities"][equip])
        if equip == "FLATBED":
            pallets = None
        start = appt - dt.timedelta(minutes=rng.choice([0, 0, 0, 30, 60]))
        end = start + dt.timedelta(hours=rng.choice([2, 3, 4]))
        book = q(start - dt.timedelta(hours=rng.uniform(20, 216)))
        book = max(book, s["created"] + H)
        if book > NOW - 20 * MIN:
            book = q(NOW - dt.timedelta(minutes=rng.uniform(25, 1800)))
        instr = rng.choice(INSTRUCTIONS[equip]) if rng.random() < 0.3 else None
        direct = dist[(o["id"], dst["id"])] / 47
        deadline = ceil_to(start + dt.timedelta(hours=1.25 + direct + 10 * int(direct / 10)
                                                + rng.choice([2, 3, 4, 6])), 60)
        return {"shipper": s, "origin": o, "dest": dst, "equip": equip, "commodity": commodity,
                "hazmat": hazmat, "pallets": pallets, "weight": weight, "win_start": start,
                "win_end": end, "booked": book, "instr": instr,
                "rate": rate_for(o, dst, equip, pallets or 0, weight, start.date()),
                "load": None, "cancelled": None, "reason": None, "quote": None,
                "deadline": deadline}

    def cargo(s, equip, n_ship):
        if equip == "FLATBED":
            w = rng.randint(8000, 20000) if n_ship == 1 else rng.randint(3000, 10000)
            return None, int(round(w, -1))
        if n_ship == 1:
            pallets = rng.randint(16, 26) if rng.random() < 0.72 else rng.randint(4, 12)
        else:
            pallets = rng.randint(3, 12)
        lo, hi = KG_PER_PALLET[s["industry"]]
        w = pallets * rng.uniform(lo, hi)
        cap = 19000 if equip == "REEFER" else 19500
        return pallets, int(round(min(w, cap - 400 * rng.random()), -1))

    def plan_route(appt, legs):
        plans = []
        t = appt + 75 * MIN
        acc = 0.0
        for mi in legs:
            h = mi / 47
            rest = 10 * (int((acc + h) / 10) - int(acc / 10))
            acc += h
            a = ceil_to(t + dt.timedelta(hours=h + rest), 15)
            plans.append(a)
            t = a + 60 * MIN
        return plans

    def run_route(appt, legs, plans, n_ship, delays):
        pa = jitter(rng, appt + dt.timedelta(minutes=max(-40, min(150, rng.gauss(6, 20)))))
        dwell = rng.uniform(30, 95) + 10 * n_ship + (rng.uniform(60, 200) if rng.random() < 0.04 else 0)
        pd = jitter(rng, pa + dt.timedelta(minutes=dwell))
        t = pd
        acc = 0.0
        arrs, deps, starts = [], [], []
        for k, mi in enumerate(legs):
            starts.append(t)
            h = mi / rng.uniform(44, 53)
            rest = 10 * (int((acc + h) / 10) - int(acc / 10))
            acc += h
            delay = delays.get(k, 0) + (rng.uniform(1.5, 8) if rng.random() < 0.05 else 0)
            a = t + dt.timedelta(hours=h + rest + delay)
            if a < plans[k] - 30 * MIN:
                a = plans[k] - dt.timedelta(minutes=rng.uniform(0, 30))
            a = jitter(rng, a)
            dwell = rng.uniform(30, 100) + (rng.uniform(90, 300) if rng.random() < 0.07 else 0)
            dp = jitter(rng, a + dt.timedelta(minutes=dwell))
            arrs.append(a)
            deps.append(dp)
            t = dp
        return pa, pd, arrs, deps, starts

    loads = []
    shipments = []
    incidents = []
    total_days = (LAST_LOAD_DAY - FIRST_DAY).days
    day = FIRST_DAY
    while day <= LAST_BOOKED_DAY:
        factor = [1.0, 1.05, 1.05, 1.0, 0.95, 0.22, 0.0][day.weekday()]
        progress = min(1.0, (day - FIRST_DAY).days / total_days)
        lam = (2.6 + 2.0 * progress) * factor * season(day)
        if day > LAST_LOAD_DAY:
            lam *= 1.6 * max(0.0, 1 - (day - LAST_LOAD_DAY).days / 11)
        specs = []
        for _ in range(poisson(rng, lam)):
            origins = [w for w in whs if open_on(w, day)]
            o = rng.choices(origins, weights=[w["weight"] for w in origins])[0]
            equip = rng.choices(["DRY_VAN", "REEFER", "FLATBED"],
                                weights=[64, 24 if o["cold"] else 0, 12])[0]
            if equip == "FLATBED":
                n_ship = 1 if rng.random() < 0.8 else 2
            else:
                n_ship = rng.choices([1, 2, 3], weights=[50, 32, 18])[0]
            n_drops = 1 if n_ship == 1 or rng.random() < 0.55 else 2
            dests = [w for w in whs if open_on(w, day) and w is not o and (equip != "REEFER" or w["cold"])]
            d1 = rng.choices(dests, weights=[w["weight"] / (1 + dist[(o["id"], w["id"])] / 250)
                                             for w in dests])[0]
            drops = [d1]
            if n_drops == 2:
                rest_ = [w for w in dests if w is not d1]
                d2 = rng.choices(rest_, weights=[1 / (1 + dist[(d1["id"], w["id"])] / 100) ** 2
                                                 for w in rest_])[0]
                drops = sorted([d1, d2], key=lambda w: dist[(o["id"], w["id"])])
            appt = midnight(day) + dt.timedelta(hours=rng.randint(11, 21),
                                                minutes=rng.choice([0, 15, 30, 45]))
            ships = []
            for k in range(n_ship):
                s = pick_shipper(o, equip, day)
                dst = drops[k] if k < len(drops) else rng.choice(drops)
                pallets, weight = cargo(s, equip, n_ship)
                ships.append(new_shipment(o, dst, equip, s, appt, pallets, weight))
            # keep the load within one trailer
            if equip != "FLATBED":
                cap = 19000 if equip == "REEFER" else 19500
                while sum(x["pallets"] for x in ships) > 26 or sum(x["weight"] for x in ships) > cap:
                    big_one = max(ships, key=lambda x: x["pallets"])
                    big_one["pallets"] -= 1
                    big_one["weight"] = int(round(big_one["weight"] * 0.9, -1))
            else:
                while sum(x["weight"] for x in ships) > 20000:
                    big_one = max(ships, key=lambda x: x["weight"])
                    big_one["weight"] = int(round(big_one["weight"] * 0.9, -1))
            for x in ships:
                x["rate"] = rate_for(o, x["dest"], equip, x["pallets"] or 0, x["weight"], day)
            # cancelled bookings on the same lanes
            for x in ships:
                if rng.random() < 0.05:
                    s = pick_shipper(o, equip, day)
                    p2, w2 = cargo(s, equip, 1)
                    c = new_shipment(o, x["dest"], equip, s, appt + dt.timedelta(hours=rng.choice([-2, -1, 1, 2])), p2, w2)
                    late = rng.random() < 0.3
                    reason = rng.choices(CANCEL_REASONS, weights=CANCEL_WEIGHTS)[0]
                    if late:
                        when = c["win_start"] - dt.timedelta(hours=rng.uniform(0.5, 23))
                    else:
                        when = c["booked"] + (c["win_start"] - 24 * H - c["booked"]) * rng.uniform(0.05, 0.95)
                    when = jitter(rng, max(when, c["booked"] + 30 * MIN))
                    if when <= NOW:
                        c["cancelled"], c["reason"] = when, reason
                        shipments.append(c)
            if day > LAST_LOAD_DAY:
                for x in ships:
                    if x["booked"] < NOW:
                        shipments.append(x)     # booked, not planned on a load yet
                continue
            specs.append((appt, o, equip, drops, ships))
        specs.sort(key=lambda sp: sp[0])
        for appt, o, equip, drops, ships in specs:
            legs = [dist[(o["id"], drops[0]["id"])]]
            if len(drops) == 2:
                legs.append(dist[(drops[0]["id"], drops[1]["id"])])
            total = round(sum(legs), 1)
            plans = plan_route(appt, legs)
            for x in ships:
                k = drops.index(x["dest"])
                slack = rng.choice([1, 2, 2, 3, 4, 6])
                x["deadline"] = ceil_to(plans[k] + dt.timedelta(hours=slack), 60)
            created = max(x["booked"] for x in ships) + dt.timedelta(minutes=rng.uniform(15, 1200))
            dispatched = appt - dt.timedelta(hours=rng.uniform(2, 18))
            if created > dispatched - 30 * MIN:
                created = max(x["booked"] for x in ships) + dt.timedelta(minutes=rng.uniform(1, 10))
                dispatched = max(dispatched, created + 20 * MIN)
            if created > NOW:
                created = NOW - dt.timedelta(minutes=rng.uniform(5, 20))
            created, dispatched = jitter(rng, created), jitter(rng, dispatched)
            hazmat = any(x["hazmat"] for x in ships)
            tw = sum(x["weight"] for x in ships)
            tp = sum(x["pallets"] or 0 for x in ships)
            L = {"origin": o, "drops": drops, "equip": equip, "appt": appt, "legs": legs,
                 "distance": total, "plans": plans, "ships": ships, "created": created,
                 "dispatched": dispatched, "driver": None, "truck": None, "trailer": None,
                 "carrier": None, "pay": None, "cancelled": None}
            est_end = plans[-1] + 2 * H + DAY
            company_homes = {d["home"] for d in drivers}
            p_broker = (0.30 + (0.15 if equip == "REEFER" else 0) + (0.10 if equip == "FLATBED" else 0)
                        + (0.25 if o["code"] not in company_homes else 0))
            unassigned = dispatched > NOW and appt > NOW + 30 * H and rng.random() < 0.5
            if not unassigned and rng.random() >= p_broker:
                straight = (equip == "DRY_VAN" and tw <= 7000 and tp <= 12 and total <= 320
                            and rng.random() < 0.75)
                if straight:
                    tks = [t for t in trucks if t["kind"] == "STRAIGHT_TRUCK"
                           and (t["fuel"] != "ELECTRIC" or total <= 180)
                           and truck_ok(t, dispatched, est_end)]
                    trs = [None]
                    drs = [d for d in drivers if driver_ok(d, dispatched, est_end)
                           and (not hazmat or d["hazmat"])]
                    dw = [(6 if d["cls"] == "CLASS_B" else 1) * (4 if d["home"] == o["code"] else 1) for d in drs]
                else:
                    tks = [t for t in trucks if t["kind"] == "TRACTOR" and truck_ok(t, dispatched, est_end)]
                    trs = [t for t in trailers if t["type"] == equip and trailer_ok(t, dispatched, est_end)]
                    drs = [d for d in drivers if d["cls"] == "CLASS_A" and driver_ok(d, dispatched, est_end)
                           and (not hazmat or d["hazmat"])]
                    dw = [4 if d["home"] == o["code"] else 1 for d in drs]
                if tks and trs and drs:
                    d = rng.choices(drs, weights=dw)[0]
                    t = rng.choices(tks, weights=[(4 if t["home"] == o["code"] else 1)
                                                  * (8 if t["fuel"] == "ELECTRIC" else 1) for t in tks])[0]
                    tr = trs[0] if trs == [None] else rng.choices(
                        trs, weights=[4 if x["home"] == o["code"] else 1 for x in trs])[0]
                    L["driver"], L["truck"], L["trailer"] = d, t, tr
            revenue = sum(x["rate"] for x in ships)
            if L["driver"] is None and not unassigned:
                cs = [c for c in approved_at[o["id"]] if carrier_ok(c, created, est_end)]
                cw = [(3 if c["pref"] else 1) * (0.4 if c["rating"] == "CONDITIONAL" else 1) for c in cs]
                L["carrier"] = rng.choices(cs, weights=cw)[0]
                L["pay"] = int(round(revenue * rng.uniform(0.80, 0.88) / 2500)) * 2500
            # incidents on the road (company loads that are over by the snapshot)
            delays, events = {}, []
            if L["driver"] is not None and appt < NOW - DAY:
                r = rng.random()
                k = rng.randrange(len(legs))
                if r < 0.018:
                    events.append(("BREAKDOWN", k))
                    delays[k] = rng.uniform(2.5, 9)
                elif r < 0.026:
                    events.append(("ACCIDENT", k))
                    delays[k] = rng.uniform(1.5, 5)
                elif r < 0.037:
                    events.append(("CITATION", k))
                    delays[k] = rng.uniform(0.5, 2)
            pa, pd, arrs, deps, starts = run_route(appt, legs, plans, len(ships), delays)
            L.update(pa=pa, pd=pd, arrs=arrs, deps=deps)
            for kind, k in events:
                when = jitter(rng, starts[k] + (arrs[k] - starts[k]) * rng.uniform(0.1, 0.7))
                if when > NOW - 2 * H:
                    continue
                incidents.append({"type": kind, "when": when, "load": L, "driver": L["driver"],
                                  "truck": L["truck"]})
            if L["driver"] is not None:
                end = deps[-1]
                L["driver"]["free_at"] = end + 10 * H
                L["truck"]["free_at"] = end + H
                if L["trailer"] is not None:
                    L["trailer"]["free_at"] = end + 2 * H
            if deps[-1] <= NOW and rng.random() < 0.012:
                k = rng.randrange(len(drops))
                when = jitter(rng, arrs[k] + dt.timedelta(minutes=rng.uniform(20, 90)))
                if when <= NOW:
                    incidents.append({"type": "CARGO_DAMAGE", "when": when, "load": L,
                                      "driver": L["driver"], "truck": L["truck"], "stop": k})
            # a load that fell through before it was dispatched and was planned again
            if rng.random() < 0.018:
                twin_created = L["created"]
                span = (appt - H) - twin_created
                cancel_at = jitter(rng, twin_created + span * rng.uniform(0.2, 0.8))
                cs = [c for c in approved_at[o["id"]] if carrier_ok(c, twin_created, est_end)]
                if cancel_at <= NOW and span > 2 * H and cs:
                    fell = rng.choice(cs)
                    twin = {"origin": o, "drops": drops, "equip": equip, "appt": appt, "legs": legs,
                            "distance": total, "plans": plans, "ships": [], "created": twin_created,
                            "dispatched": None, "driver": None, "truck": None, "trailer": None,
                            "carrier": fell,
                            "pay": int(round(revenue * rng.uniform(0.82, 0.9) / 2500)) * 2500,
                            "cancelled": cancel_at}
                    loads.append(twin)
                    L["created"] = jitter(rng, cancel_at + dt.timedelta(minutes=rng.uniform(5, 90)))
                    if L["created"] > NOW:
                        L["created"] = NOW - 2 * MIN
                    if L["dispatched"] < L["created"] + 15 * MIN:
                        L["dispatched"] = jitter(rng, L["created"] + 15 * MIN)
            loads.append(L)
            for x in ships:
                x["load"] = L
                shipments.append(x)
        day += DAY

    # ------------------------------------------------------------ load status at the snapshot
    for L in loads:
        L["stops"] = []
        if L["cancelled"] is not None:
            L["status"] = "CANCELLED"
            L["completed"] = None
            L["dispatched"] = None
            L["stops"].append(("PICKUP", L["origin"], L["appt"], None, None))
            for k, w in enumerate(L["drops"]):
                L["stops"].append(("DELIVERY", w, L["plans"][k], None, None))
            L["updated"] = L["cancelled"]
            continue
        cut = lambda x: x if x is not None and x <= NOW else None
        if L["deps"][-1] <= NOW:
            status = "DELIVERED"
        elif L["pd"] <= NOW:
            status = "IN_TRANSIT"
        elif L["dispatched"] <= NOW:
            status = "DISPATCHED"
        else:
            status = "PLANNED"
        L["status"] = status
        L["completed"] = L["deps"][-1] if status == "DELIVERED" else None
        if status == "PLANNED":
            L["dispatched"] = None
        L["stops"].append(("PICKUP", L["origin"], L["appt"], cut(L["pa"]), cut(L["pd"])))
        for k, w in enumerate(L["drops"]):
            L["stops"].append(("DELIVERY", w, L["plans"][k], cut(L["arrs"][k]), cut(L["deps"][k])))
        moments = [L["created"]] + [m for st in L["stops"] for m in st[3:] if m is not None]
        if L["dispatched"]:
            moments.append(L["dispatched"])
        L["updated"] = max(moments)
    loads.sort(key=lambda L: (L["created"], L["appt"]))
    year_seq = {}
    for i, L in enumerate(loads, start=1):
        L["id"] = i
        y = L["created"].year
        year_seq[y] = year_seq.get(y, 0) + 1
        L["number"] = f"LD-{y}-{year_seq[y]:05d}"

    # ------------------------------------------------------------ quotes
    quotes = []
    for x in shipments:
        s = x["shipper"]
        if not (s["spot_only"] or rng.random() < 0.08):
            continue
        created = jitter(rng, x["booked"] - dt.timedelta(hours=rng.uniform(1, 96)))
        created = max(created, s["created"] + 30 * MIN)
        responded = jitter(rng, x["booked"] - dt.timedelta(minutes=rng.uniform(2, 180)))
        responded = max(responded, created + 5 * MIN)
        assert responded < x["booked"]
        qt = {"shipper": s, "origin": x["origin"], "dest": x["dest"], "equip": x["equip"],
              "weight": x["weight"], "pallets": x["pallets"], "hazmat": x["hazmat"],
              "rate": x["rate"], "status": "ACCEPTED", "created": created,
              "valid": created + 7 * DAY, "responded": responded}
        quotes.append(qt)
        x["quote"] = qt
    n_accepted = len(quotes)
    quote_days = [FIRST_DAY + dt.timedelta(days=i) for i in range((SNAPSHOT.date() - FIRST_DAY).days + 1)]
    for _ in range(int(n_accepted * 1.05)):
        day = rng.choice(quote_days)
        pool = [s for s in shippers if s["created"].date() < day
                and (s["deleted_plan"] is None or day < s["deleted_plan"] - dt.timedelta(days=40))
                and s["created"].date() != D(2025, 11, 10)]
        s = rng.choices(pool, weights=[(3 if s["spot_only"] else 1) for s in pool])[0]
        origins = [w for w in whs if open_on(w, day)]
        o = WH[s["home"]] if open_on(WH[s["home"]], day) and rng.random() < 0.7 else rng.choice(origins)
        equip = rng.choice(list(s["equip"]))
        if equip == "REEFER" and not o["cold"]:
            equip = "DRY_VAN" if "DRY_VAN" in s["equip"] else equip
        dests = [w for w in origins if w is not o and (equip != "REEFER" or w["cold"])]
        if equip == "REEFER" and not o["cold"]:
            continue
        dst = rng.choice(dests)
        pallets, weight = cargo(s, equip, 1)
        commodity, hazmat = rng.choice(s["commodities"][equip])
        created = at(rng, day, 13, 23)
        if created > NOW - 10 * MIN:
            continue
        valid = created + 7 * DAY
        fair = rate_for(o, dst, equip, pallets or 0, weight, day)
        rate = int(round(fair * rng.uniform(1.02, 1.22) / 500)) * 500
        if valid < NOW:
            status = "DECLINED" if rng.random() < 0.55 else "EXPIRED"
        else:
            status = "PENDING" if rng.random() < 0.7 else "DECLINED"
        responded = None
        if status == "DECLINED":
            responded = jitter(rng, created + (min(valid, NOW) - created) * rng.uniform(0.02, 0.9))
        quotes.append({"shipper": s, "origin": o, "dest": dst, "equip": equip, "weight": weight,
                       "pallets": pallets, "hazmat": hazmat, "rate": rate, "status": status,
                       "created": created, "valid": valid, "responded": responded})
    quotes.sort(key=lambda qt: qt["created"])
    for qt in quotes:
        qt["id"] = cuid(qt["created"])
        if qt["status"] == "EXPIRED":
            qt["updated"] = jitter(rng, qt["valid"] + dt.timedelta(minutes=rng.uniform(1, 60)))
        else:
            qt["updated"] = qt["responded"] or qt["created"]

    # ------------------------------------------------------------ shipment ids
    shipments.sort(key=lambda x: (x["booked"], x["win_start"]))
    tracking = set()
    for i, x in enumerate(shipments, start=1):
        x["id"] = i
        while True:
            tn = f"HW{rng.randint(10**7, 10**8 - 1)}"
            if tn not in tracking:
                tracking.add(tn)
                x["tracking"] = tn
                break
        if x["load"] is not None:
            L = x["load"]
            k = L["drops"].index(x["dest"])
            x["delivered"] = L["stops"][k + 1][3]
            x["delivery_departed"] = L["stops"][k + 1][4]
            x["appointment"] = L["stops"][k + 1][2]
            x["updated"] = max(x["booked"], L["created"])
        else:
            x["delivered"] = None
            x["updated"] = x["cancelled"] or x["booked"]

    # ------------------------------------------------------------ invoices
    invoices = []
    billable = {}    # (shipper code, month) -> list of (sort key, line specs)
    for x in shipments:
        s = x["shipper"]
        if x["delivered"] is not None:
            m = month_start(x["delivered"].date())
            items = [("LINEHAUL", f"Linehaul {x['origin']['code']}-{x['dest']['code']}, {x['commodity'].lower()}",
                      1.0, x["rate"])]
            pct = fsc_percent(m)
            fsc = int(round(x["rate"] * pct / 100))
            items.append(("FUEL_SURCHARGE", f"Fuel surcharge {pct:.1f}%", 1.0, fsc))
            if x["hazmat"]:
                items.append(("HAZMAT", "Hazardous materials handling", 1.0, HAZMAT_FEE))
            if x["delivery_departed"] is not None:
                start = max(x["delivered"], x["appointment"])
                over = (x["delivery_departed"] - start).total_seconds() / 3600 - 2
                if over > 0:
                    hours = math.ceil(over * 2) / 2
                    items.append(("DETENTION", f"Detention at {x['dest']['code']}, {hours:g} h",
                                  hours, DETENTION_RATE))
            billable.setdefault((s["code"], m), []).append((x["delivered"], x, items))
        elif x["cancelled"] is not None and x["reason"] in ("SHIPPER_REQUEST", "FREIGHT_NOT_READY") \
                and x["cancelled"] > x["win_start"] - 24 * H:
            m = month_start(x["cancelled"].date())
            billable.setdefault((s["code"], m), []).append(
                (x["cancelled"], x, [("CANCELLATION", "Late cancellation fee", 1.0, CANCEL_FEE)]))
    month = D(2023, 1, 1)
    issue_seq = {}
    while month < month_start(SNAPSHOT.date()):
        nm = next_month(month)
        for s in shippers:
            items = sorted(billable.get((s["code"], month), []), key=lambda it: (it[0], it[1]["id"]))
            specs = []
            for _, x, its in items:
                for kind, desc, qty, unit in its:
                    specs.append((x["id"], kind, desc, qty, unit))
            if s["storage"] and s["created"].date() < month:
                pallets = max(10, int(s["storage_pallets"] * rng.uniform(0.75, 1.2)))
                specs.append((None, "STORAGE", f"Storage at {s['home']}, {pallets} pallet positions",
                              float(pallets), STORAGE_RATE[month.year]))
            if not specs:
                continue
            issued = q(midnight(nm) + dt.timedelta(hours=9, seconds=rng.uniform(0, 900)))
            invoices.append({"shipper": s, "month": month, "issued": issued, "specs": specs,
                             "replacement": False})
        month = nm
    invoices.sort(key=lambda inv: inv["issued"])
    extra = []
    for inv in invoices:
        if rng.random() < 0.015:
            voided = jitter(rng, inv["issued"] + dt.timedelta(days=rng.uniform(1, 6)))
            if voided < NOW:
                inv["void"] = voided
                specs = [sp for sp in inv["specs"] if sp[1] != "DETENTION"]
                if len(specs) == len(inv["specs"]):
                    specs = list(inv["specs"])
                extra.append({"shipper": inv["shipper"], "month": inv["month"],
                              "issued": jitter(rng, voided + dt.timedelta(minutes=rng.uniform(3, 40))),
                              "specs": specs, "replacement": True})
    invoices += extra
    invoices.sort(key=lambda inv: inv["issued"])
    last_paid = {}
    for inv in invoices:
        s = inv["shipper"]
        key = inv["issued"].strftime("%Y%m")
        issue_seq[key] = issue_seq.get(key, 0) + 1
        inv["number"] = f"INV-{key}-{issue_seq[key]:04d}"
        inv["id"] = cuid(inv["issued"])
        inv["due"] = midnight(inv["issued"].date() + dt.timedelta(days=s["terms"]))
        inv["total"] = sum(int(round(qty * unit)) for _, _, _, qty, unit in inv["specs"])
        inv["paid"] = None
        if inv.get("void"):
            inv["status"] = "VOID"
            inv["updated"] = inv["void"]
            continue
        off = {"prompt": (-12, 0), "normal": (-5, 9), "slow": (3, 38)}[s["payer"]]
        days = max(2, s["terms"] + rng.uniform(*off))
        paid = jitter(rng, midnight(inv["issued"].date()) + dt.timedelta(days=int(days), hours=rng.uniform(13, 22)))
        if s["delinquent"] and inv["issued"] >= dt.datetime(2025, 6, 1):
            paid = None
        if paid is not None and paid <= NOW:
            inv["status"], inv["paid"], inv["updated"] = "PAID", paid, paid
            last_paid[s["code"]] = max(last_paid.get(s["code"], paid), paid)
        else:
            inv["status"], inv["updated"] = "OPEN", inv["issued"]
    for s in shippers:
        s["deleted"] = None
        if s["deleted_plan"]:
            s["deleted"] = jitter(rng, max(midnight(s["deleted_plan"]) + 15 * H,
                                           last_paid.get(s["code"], s["created"]) + 3 * DAY))
            assert s["deleted"] < NOW

    # ------------------------------------------------------------ fuel
    def new_threshold(t):
        if t["fuel"] == "CNG":
            return rng.uniform(330, 430)
        return rng.uniform(550, 900) if t["kind"] == "TRACTOR" else rng.uniform(380, 560)

    fuel = []
    for t in trucks:
        tl = sorted([L for L in loads if L["truck"] is t and L["status"] != "PLANNED"],
                    key=lambda L: L["appt"])
        odo = float(t["odo0"])
        since = rng.uniform(0, 300)
        threshold = new_threshold(t)
        fills = 0
        prev_end = t["acquired"]
        for L in tl:
            dead = L["distance"] * rng.uniform(0, 0.25) + rng.uniform(0, 30)
            start_odo = odo + dead
            dead_start = max(prev_end + 30 * MIN, L["pa"] - dt.timedelta(hours=dead / 45))
            segs = [(dead_start, odo, L["pa"], start_odo, None),
                    (L["pd"], start_odo, L["arrs"][-1], start_odo + L["distance"], L)]
            for ta, oa, tb, ob, load in segs:
                if ta >= NOW:
                    break
                if tb > NOW:
                    ob = oa + (ob - oa) * ((NOW - ta) / (tb - ta))
                    tb = NOW
                if t["fuel"] != "ELECTRIC":
                    while ob > oa and since + (ob - oa) >= threshold:
                        need = threshold - since
                        frac = need / (ob - oa)
                        when = jitter(rng, ta + (tb - ta) * frac)
                        at_odo = oa + need
                        qty = round(threshold / (t["mpg"] * rng.uniform(0.95, 1.05)), 3)
                        product = "CNG" if t["fuel"] == "CNG" else "DIESEL"
                        if product == "CNG":
                            price = rng.uniform(2.85, 3.30)
                        else:
                            price = diesel_price(when.date()) + rng.uniform(-0.10, 0.18)
                        if load is None:
                            wh = L["origin"]
                            vendor = YARD_PUMP if wh["code"] == t["home"] and rng.random() < 0.7 \
                                else rng.choice(VENDORS)
                        else:
                            wh = L["origin"] if frac < 0.5 else L["drops"][0]
                            vendor = rng.choice(VENDORS)
                        fuel.append({"truck": t, "driver": L["driver"], "load": load, "when": when,
                                     "vendor": vendor, "city": wh["city"], "state": wh["state"],
                                     "product": product, "qty": qty,
                                     "total": int(round(qty * price * 100)), "odo": int(at_odo)})
                        fills += 1
                        if product == "DIESEL" and t["kind"] == "TRACTOR" and fills % 3 == 0:
                            dq = round(rng.uniform(5, 15), 3)
                            fuel.append({"truck": t, "driver": L["driver"], "load": load,
                                         "when": jitter(rng, when + dt.timedelta(minutes=rng.uniform(3, 8))),
                                         "vendor": vendor, "city": wh["city"], "state": wh["state"],
                                         "product": "DEF", "qty": dq,
                                         "total": int(round(dq * rng.uniform(3.05, 3.6) * 100)),
                                         "odo": int(at_odo)})
                        oa, ta = at_odo, when
                        since = 0.0
                        threshold = new_threshold(t)
                    since += ob - oa
                odo = ob
            if L["status"] == "DELIVERED":
                prev_end = L["deps"][-1]
                if t["fuel"] == "ELECTRIC":
                    when = jitter(rng, L["deps"][-1] + dt.timedelta(minutes=rng.uniform(25, 140)))
                    if when <= NOW:
                        kwh = round((dead + L["distance"]) * rng.uniform(1.6, 2.0), 1)
                        home = WH[t["home"]]
                        fuel.append({"truck": t, "driver": L["driver"], "load": None, "when": when,
                                     "vendor": DEPOT_CHARGER, "city": home["city"],
                                     "state": home["state"], "product": "ELECTRICITY", "qty": kwh,
                                     "total": int(round(kwh * rng.uniform(0.13, 0.19) * 100)),
                                     "odo": int(odo)})
        t["odometer"] = int(odo)
    fuel.sort(key=lambda f: (f["when"], f["truck"]["id"]))

    # ------------------------------------------------------------ incidents
    for _ in range(12):
        while True:
            day = FIRST_DAY + dt.timedelta(days=rng.randint(0, (SNAPSHOT.date() - FIRST_DAY).days - 2))
            when = at(rng, day, 11, 23)
            ds = [d for d in drivers if d["hired"] < when and (d["terminated"] is None or d["terminated"] > when)
                  and (d["leave"] is None or d["leave"] > when)]
            ts_ = [t for t in trucks if t["acquired"] < when and (t["retired"] is None or t["retired"] > when)]
            if ds and ts_:
                break
        d = rng.choice(ds)
        ts_ = [t for t in ts_ if (t["kind"] == "TRACTOR") == (d["cls"] == "CLASS_A")] or ts_
        incidents.append({"type": "PROPERTY_DAMAGE", "when": when, "load": None, "driver": d,
                          "truck": rng.choice(ts_)})
    texts = {
        "BREAKDOWN": ["Air brake line failure, roadside repair", "DEF system fault, truck derated",
                      "Blown steer tire", "Coolant leak, towed to dealer", "Alternator failure"],
        "ACCIDENT": ["Rear-ended at a stop light", "Sideswipe while changing lanes",
                     "Backed into a pole at a customer dock", "Hit a deer", "Jackknife on icy ramp"],
        "CITATION": ["Hours-of-service violation at roadside inspection", "Speeding 12 over",
                     "Brake adjustment out of spec at weigh station", "Log book not current",
                     "Overweight on drive axles"],
        "CARGO_DAMAGE": ["Pallets shifted, product crushed", "Shrink wrap torn, cartons wet",
                         "Forklift puncture found at unloading", "Load not secured, items fell",
                         "Temperature excursion, product rejected"],
        "PROPERTY_DAMAGE": ["Clipped dock door at the yard", "Damaged yard gate",
                            "Scraped another trailer while parking", "Broke dock leveler plate"],
    }
    incidents.sort(key=lambda e: e["when"])
    for e in incidents:
        kind = e["type"]
        e["severity"] = {
            "BREAKDOWN": rng.choices(["LOW", "MEDIUM"], weights=[6, 4])[0],
            "ACCIDENT": rng.choices(["MEDIUM", "HIGH", "CRITICAL"], weights=[5, 4, 1])[0],
            "CITATION": rng.choices(["LOW", "MEDIUM"], weights=[8, 2])[0],
            "CARGO_DAMAGE": rng.choices(["LOW", "MEDIUM", "HIGH"], weights=[4, 4.5, 1.5])[0],
            "PROPERTY_DAMAGE": rng.choices(["LOW", "MEDIUM"], weights=[7, 3])[0],
        }[kind]
        pool = texts[kind]
        if kind == "CARGO_DAMAGE" and e["load"]["equip"] != "REEFER":
            pool = pool[:-1]
        e["text"] = rng.choice(pool)
        e["reported"] = jitter(rng, e["when"] + dt.timedelta(minutes=rng.uniform(5, 240)))
        if e["reported"] > NOW:
            e["reported"] = NOW - MIN
        prevent_p = {"BREAKDOWN": 0.1, "ACCIDENT": 0.55, "CITATION": 0.7, "CARGO_DAMAGE": 0.5,
                     "PROPERTY_DAMAGE": 0.85}[kind]
        prevent = 1 if rng.random() < prevent_p else 0
        claim = None
        if kind == "ACCIDENT" and rng.random() < 0.6:
            hi = {"MEDIUM": 900000, "HIGH": 2500000, "CRITICAL": 6000000}[e["severity"]]
            claim = int(round(rng.uniform(hi * 0.15, hi), -2))
        elif kind == "CARGO_DAMAGE" and rng.random() < 0.85:
            claim = int(round(rng.uniform(15000, 650000), -2))
        elif kind == "PROPERTY_DAMAGE" and rng.random() < 0.4:
            claim = int(round(rng.uniform(20000, 300000), -2))
        review = jitter(rng, e["reported"] + dt.timedelta(days=rng.uniform(1, 21)))
        resolved = review if claim is None else jitter(rng, review + dt.timedelta(days=rng.uniform(7, 75)))
        e["claim"] = claim
        e["preventable"] = prevent if review <= NOW else None
        e["resolved"] = resolved if resolved <= NOW else None
        e["updated"] = max(x for x in (e["reported"], review if review <= NOW else None, e["resolved"]) if x)

    # ------------------------------------------------------------ rows
    wh_rows = [(w["id"], w["code"], w["name"], w["kind"], w["street"], w["city"], w["state"], w["zip"],
                w["lat"], w["lon"], w["doors"], w["cap"], w["cold"], ts(midnight(w["opened"])),
                ts(midnight(w["closed"])) if w["closed"] else None, ts(w["created"]), ts(w["updated"]))
               for w in whs]
    shipper_rows = []
    last_activity = {}
    for x in shipments:
        last_activity[x["shipper"]["code"]] = max(last_activity.get(x["shipper"]["code"], x["booked"]), x["booked"])
    for s in shippers:
        updated = max(s["created"], last_activity.get(s["code"], s["created"]))
        if s["deleted"]:
            updated = s["deleted"]
        shipper_rows.append((s["id"], s["code"], s["name"], s["industry"], s["email"], s["phone"],
                             s["city"], s["state"], WH[s["home"]]["id"], s["terms"], s["credit"],
                             s["storage"], ts(s["created"]), ts(updated), ts(s["deleted"])))
    carrier_rows = []
    for c in carriers:
        updated = c["created"] + dt.timedelta(days=rng.uniform(1, 30))
        if c["deleted"]:
            deleted = at(rng, c["deleted"], 14, 22)
            updated = deleted
        else:
            deleted = None
        updated = min(q(updated), NOW - H)
        carrier_rows.append((c["id"], c["name"], c["mc"], c["dot"],
                             carriers[c["parent"]]["id"] if c["parent"] is not None else None,
                             c["phone"], c["email"], c["rating"], c["pref"], ts(c["insurance"]),
                             ts(c["created"]), ts(updated), ts(deleted)))
    approval_rows = [(carriers[ci]["id"], wid) for ci, wid in approvals]
    approval_rows.sort()
    driver_rows = []
    for d in drivers:
        status = "TERMINATED" if d["terminated"] else ("ON_LEAVE" if d["leave"] else "ACTIVE")
        updated = d["terminated"] or d["leave"] or at(rng, d["hired"].date(), 14, 22)
        driver_rows.append((d["id"], d["first"], d["last"], d["email"], d["phone"], d["license"],
                            d["lstate"], d["cls"], d["hazmat"], WH[d["home"]]["id"], d["mentor"],
                            d["pay_type"], d["rate"], status, ts(d["hired"]), ts(d["terminated"]),
                            ts(d["created"]), ts(updated)))
    truck_rows = []
    for t in trucks:
        status = "RETIRED" if t["retired"] else ("IN_SHOP" if t["shop"] else "ACTIVE")
        updated = (at(rng, t["retired"].date(), 15, 22) if t["retired"] else None) or t["shop"] or t["created"]
        truck_rows.append((t["id"], t["unit"], t["vin"], t["make"], t["model"], t["year"], t["kind"],
                           t["fuel"], t["odometer"], WH[t["home"]]["id"], status, ts(t["acquired"]),
                           ts(t["retired"]), ts(t["created"]), ts(updated)))
    trailer_rows = [(t["id"], t["unit"], t["type"], t["length"], t["payload"], t["leased"],
                     WH[t["home"]]["id"], ts(t["acquired"]), ts(t["created"]),
                     ts(t["deleted"] or t["created"]), ts(t["deleted"])) for t in trailers]
    quote_rows = [(qt["id"], qt["shipper"]["id"], qt["origin"]["id"], qt["dest"]["id"], qt["equip"],
                   qt["weight"], qt["pallets"], qt["hazmat"], qt["rate"], qt["status"], ts(qt["valid"]),
                   ts(qt["responded"]), ts(qt["created"]), ts(qt["updated"])) for qt in quotes]
    load_rows = [(L["id"], L["number"], L["status"], L["driver"]["id"] if L["driver"] else None,
                  L["truck"]["id"] if L["truck"] else None,
                  L["trailer"]["id"] if L["trailer"] else None,
                  L["carrier"]["id"] if L["carrier"] else None, L["pay"], L["distance"],
                  ts(L["dispatched"]), ts(L["completed"]), ts(L["cancelled"]), ts(L["created"]),
                  ts(L["updated"])) for L in loads]
    shipment_rows = [(x["id"], x["tracking"], x["shipper"]["id"], x["quote"]["id"] if x["quote"] else None,
                      x["load"]["id"] if x["load"] else None, x["origin"]["id"], x["dest"]["id"],
                      x["equip"], x["commodity"], x["weight"], x["pallets"], x["hazmat"],
                      ts(x["win_start"]), ts(x["win_end"]), ts(x["deadline"]),
                      x["rate"], x["instr"], ts(x["cancelled"]), x["reason"], ts(x["booked"]),
                      ts(x["updated"])) for x in shipments]
    stop_rows = []
    for L in loads:
        for seq, (kind, w, appt, arr, dep) in enumerate(L["stops"], start=1):
            updated = dep or arr or L["created"]
            if L["cancelled"]:
                updated = L["cancelled"]
            stop_rows.append((len(stop_rows) + 1, L["id"], seq, kind, w["id"], ts(appt), ts(arr),
                              ts(dep), ts(L["created"]), ts(updated)))
    invoice_rows, line_rows = [], []
    for inv in invoices:
        last_day = next_month(inv["month"]) - DAY
        invoice_rows.append((inv["id"], inv["number"], inv["shipper"]["id"], ts(midnight(inv["month"])),
                             ts(midnight(last_day) + dt.timedelta(hours=23, minutes=59, seconds=59, milliseconds=999)),
                             ts(inv["issued"]), ts(inv["due"]), inv["status"], inv["total"],
                             ts(inv["paid"]), ts(inv["issued"]), ts(inv["updated"])))
        for sid, kind, desc, qty, unit in inv["specs"]:
            line_rows.append((len(line_rows) + 1, inv["id"], sid, kind, desc, qty, unit,
                              int(round(qty * unit)), ts(inv["issued"])))
    fuel_rows = [(i, f["truck"]["id"], f["driver"]["id"] if f["driver"] else None,
                  f["load"]["id"] if f["load"] else None, ts(f["when"]), f["vendor"], f["city"],
                  f["state"], f["product"], f["qty"], f["total"], f["odo"],
                  ts(min(NOW, jitter(rng, f["when"] + dt.timedelta(minutes=rng.uniform(1, 50))))))
                 for i, f in enumerate(fuel, start=1)]
    incident_rows = [(i, e["type"], e["severity"], ts(e["when"]), ts(e["reported"]),
                      e["load"]["id"] if e["load"] else None,
                      e["driver"]["id"] if e["driver"] else None,
                      e["truck"]["id"] if e["truck"] else None, e["text"], e["preventable"],
                      e["claim"], ts(e["resolved"]), ts(e["reported"]), ts(e["updated"]))
                     for i, e in enumerate(incidents, start=1)]

    tables = [
        ("Warehouse", wh_rows),
        ("Shipper", shipper_rows),
        ("Carrier", carrier_rows),
        ("Driver", driver_rows),
        ("Truck", truck_rows),
        ("Trailer", trailer_rows),
        ("RateQuote", quote_rows),
        ("Load", load_rows),
        ("Shipment", shipment_rows),
        ("Stop", stop_rows),
        ("Invoice", invoice_rows),
        ("InvoiceLine", line_rows),
        ("FuelPurchase", fuel_rows),
        ("Incident", incident_rows),
        ("_CarrierToWarehouse", approval_rows),
    ]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
