#!/usr/bin/env python3
"""Generate coworking.sqlite, a held-out evaluation database for natural-language-to-SQL.

coworking.sqlite is the backend database of the C# (ASP.NET Core + Entity Framework Core)
app behind Nestwork, a made-up chain of coworking spaces in four made-up cities (Harwick,
Port Sable, Corrigan Bay and Lindenfall). Members sign up alone or with their company (a
team), hold a membership on a plan (hot desk, part-time, dedicated desk, private office
seat, virtual office, ...) at one location, book meeting rooms (plans include some
meeting-room hours a month; beyond that the room's hourly rate is charged), and are invoiced
monthly in arrears. Walk-in visitors buy day passes. Members and staff report problems with
the building through support requests that the location's staff handle.

Naming style: the one Entity Framework Core migrations give a SQLite database. Tables are the
PascalCase plural DbSet names (`Members`, `MeetingRooms`, `InvoiceLines`), columns are the
PascalCase property names, keys are `Id`, foreign keys are `<Navigation>Id` and not always
named after the table (`HostMemberId` and `BookedById` in `Bookings`, `OwnerMemberId` and
`BillingContactMemberId` in `Companies` point to `Members`; `ParentCompanyId`,
`ReferredByMemberId` and `ReplacesInvoiceId` point back to their own table;
`AssignedToStaffId` to `StaffMembers`). The many-to-many between meeting rooms and amenities
is EF's implicit join table `AmenityMeetingRoom` (`AmenitiesId`, `MeetingRoomsId`).
The DDL is what `dotnet ef migrations` writes: `CONSTRAINT "PK_..." PRIMARY KEY
AUTOINCREMENT`, `CONSTRAINT "FK_<Table>_<Principal>_<Column>" ... ON DELETE CASCADE` for
required relationships, indexes `IX_<Table>_<Column>`, plus `__EFMigrationsHistory`.

Values are stored the way Microsoft.Data.Sqlite stores .NET values: `DateTime` as TEXT
'yyyy-MM-dd HH:mm:ss' with up to seven fractional digits when not whole seconds, `DateOnly`
as 'yyyy-MM-dd', `TimeOnly` as 'HH:mm:ss', `bool` as INTEGER 0/1, `decimal` as TEXT
('249.0', '22.5', '1316.25'), enums as INTEGER codes unless the model converts them to
strings. Columns ending in `Utc` are UTC; booking times (`StartsAt`, `EndsAt`) and all dates
(`...On`, `ValidOn`) are in the location's local time.

The first location opened on 2023-01-09; the data is a snapshot taken on 2025-10-20 at
16:00 UTC.

All of it is synthetic: no real people, places or companies are in it. The names come from
built-in lists and email addresses use reserved `example` domains. The generator is
deterministic (fixed SEED, random.Random(SEED) only), so every run writes the same rows.

Licence: same as this repository (MIT License, see LICENSE at the repository root).

Usage: python3 make_coworking.py [OUTPUT.sqlite]   (default: coworking.sqlite next to this script)
"""

import calendar
import datetime as dt
import math
import os
import random
import sys

from evaldb import write_database

SEED = 72031958
SNAPSHOT_UTC = dt.datetime(2025, 10, 20, 16, 0, 0)
LAST_BILLED_MONTH = (2025, 9)          # invoices exist for months up to September 2025
HORIZON = dt.date(2025, 12, 19)        # latest day with a booking made before the snapshot


def fk(table, principal, column, cascade=True):
    tail = " ON DELETE CASCADE" if cascade else ""
    return (f'CONSTRAINT "FK_{table}_{principal}_{column}" FOREIGN KEY ("{column}") '
            f'REFERENCES "{principal}" ("Id"){tail}')


SCHEMA = f"""
CREATE TABLE "__EFMigrationsHistory" (
    "MigrationId" TEXT NOT NULL CONSTRAINT "PK___EFMigrationsHistory" PRIMARY KEY,
    "ProductVersion" TEXT NOT NULL
);
CREATE TABLE "Amenities" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Amenities" PRIMARY KEY AUTOINCREMENT,
    "Name" TEXT NOT NULL,
    "Category" TEXT NOT NULL
);
CREATE TABLE "Locations" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Locations" PRIMARY KEY AUTOINCREMENT,
    "Name" TEXT NOT NULL,
    "City" TEXT NOT NULL,
    "Street" TEXT NOT NULL,
    "PostalCode" TEXT NOT NULL,
    "TimeZoneId" TEXT NOT NULL,
    "Phone" TEXT NOT NULL,
    "OpensAt" TEXT NOT NULL,
    "ClosesAt" TEXT NOT NULL,
    "DeskCount" INTEGER NOT NULL,
    "SalesTaxRate" TEXT NOT NULL,
    "OpenedOn" TEXT NOT NULL,
    "ClosedOn" TEXT NULL,
    "IsActive" INTEGER NOT NULL DEFAULT 1,
    "CreatedAtUtc" TEXT NOT NULL
);
CREATE TABLE "Plans" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Plans" PRIMARY KEY AUTOINCREMENT,
    "Code" TEXT NOT NULL,
    "Name" TEXT NOT NULL,
    "DeskType" TEXT NOT NULL,
    "MonthlyFee" TEXT NOT NULL,
    "AccessDaysPerMonth" INTEGER NULL,
    "MeetingRoomCredits" INTEGER NOT NULL,
    "IncludesMailHandling" INTEGER NOT NULL,
    "IsActive" INTEGER NOT NULL DEFAULT 1,
    "CreatedAtUtc" TEXT NOT NULL,
    "UpdatedAtUtc" TEXT NOT NULL
);
CREATE UNIQUE INDEX "IX_Plans_Code" ON "Plans" ("Code");
CREATE TABLE "MeetingRooms" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_MeetingRooms" PRIMARY KEY AUTOINCREMENT,
    "LocationId" INTEGER NOT NULL,
    "Name" TEXT NOT NULL,
    "Floor" INTEGER NOT NULL,
    "Capacity" INTEGER NOT NULL,
    "HourlyRate" TEXT NOT NULL,
    "MinimumBooking" INTEGER NOT NULL,
    "IsBookable" INTEGER NOT NULL DEFAULT 1,
    "IsDeleted" INTEGER NOT NULL DEFAULT 0,
    "Notes" TEXT NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    {fk("MeetingRooms", "Locations", "LocationId")}
);
CREATE INDEX "IX_MeetingRooms_LocationId" ON "MeetingRooms" ("LocationId");
CREATE TABLE "AmenityMeetingRoom" (
    "AmenitiesId" INTEGER NOT NULL,
    "MeetingRoomsId" INTEGER NOT NULL,
    CONSTRAINT "PK_AmenityMeetingRoom" PRIMARY KEY ("AmenitiesId", "MeetingRoomsId"),
    {fk("AmenityMeetingRoom", "Amenities", "AmenitiesId")},
    {fk("AmenityMeetingRoom", "MeetingRooms", "MeetingRoomsId")}
);
CREATE INDEX "IX_AmenityMeetingRoom_MeetingRoomsId" ON "AmenityMeetingRoom" ("MeetingRoomsId");
CREATE TABLE "StaffMembers" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_StaffMembers" PRIMARY KEY AUTOINCREMENT,
    "LocationId" INTEGER NULL,
    "FirstName" TEXT NOT NULL,
    "LastName" TEXT NOT NULL,
    "Email" TEXT NOT NULL,
    "Role" TEXT NOT NULL,
    "HiredOn" TEXT NOT NULL,
    "LeftOn" TEXT NULL,
    "IsActive" INTEGER NOT NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    {fk("StaffMembers", "Locations", "LocationId", cascade=False)}
);
CREATE UNIQUE INDEX "IX_StaffMembers_Email" ON "StaffMembers" ("Email");
CREATE INDEX "IX_StaffMembers_LocationId" ON "StaffMembers" ("LocationId");
CREATE TABLE "Companies" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Companies" PRIMARY KEY AUTOINCREMENT,
    "Name" TEXT NOT NULL,
    "Industry" TEXT NULL,
    "TaxId" TEXT NULL,
    "BillingEmail" TEXT NULL,
    "ParentCompanyId" INTEGER NULL,
    "OwnerMemberId" INTEGER NULL,
    "BillingContactMemberId" INTEGER NULL,
    "PaymentTermsDays" INTEGER NOT NULL,
    "IsDeleted" INTEGER NOT NULL DEFAULT 0,
    "CreatedAtUtc" TEXT NOT NULL,
    {fk("Companies", "Companies", "ParentCompanyId", cascade=False)},
    {fk("Companies", "Members", "OwnerMemberId", cascade=False)},
    {fk("Companies", "Members", "BillingContactMemberId", cascade=False)}
);
CREATE INDEX "IX_Companies_BillingContactMemberId" ON "Companies" ("BillingContactMemberId");
CREATE INDEX "IX_Companies_OwnerMemberId" ON "Companies" ("OwnerMemberId");
CREATE INDEX "IX_Companies_ParentCompanyId" ON "Companies" ("ParentCompanyId");
CREATE TABLE "Members" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Members" PRIMARY KEY AUTOINCREMENT,
    "FirstName" TEXT NOT NULL,
    "LastName" TEXT NOT NULL,
    "Email" TEXT NOT NULL,
    "Phone" TEXT NULL,
    "CompanyId" INTEGER NULL,
    "HomeLocationId" INTEGER NOT NULL,
    "ReferredByMemberId" INTEGER NULL,
    "Status" INTEGER NOT NULL,
    "JoinedOn" TEXT NULL,
    "MarketingOptIn" INTEGER NOT NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    "DeletedAtUtc" TEXT NULL,
    {fk("Members", "Companies", "CompanyId", cascade=False)},
    {fk("Members", "Locations", "HomeLocationId")},
    {fk("Members", "Members", "ReferredByMemberId", cascade=False)}
);
CREATE UNIQUE INDEX "IX_Members_Email" ON "Members" ("Email");
CREATE INDEX "IX_Members_CompanyId" ON "Members" ("CompanyId");
CREATE INDEX "IX_Members_HomeLocationId" ON "Members" ("HomeLocationId");
CREATE INDEX "IX_Members_ReferredByMemberId" ON "Members" ("ReferredByMemberId");
CREATE TABLE "Memberships" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Memberships" PRIMARY KEY AUTOINCREMENT,
    "MemberId" INTEGER NOT NULL,
    "PlanId" INTEGER NOT NULL,
    "LocationId" INTEGER NOT NULL,
    "StartsOn" TEXT NOT NULL,
    "EndsOn" TEXT NULL,
    "MonthlyRate" TEXT NOT NULL,
    "DiscountPercent" INTEGER NOT NULL,
    "CancelledAtUtc" TEXT NULL,
    "EndReason" TEXT NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    {fk("Memberships", "Members", "MemberId")},
    {fk("Memberships", "Plans", "PlanId")},
    {fk("Memberships", "Locations", "LocationId")}
);
CREATE INDEX "IX_Memberships_LocationId" ON "Memberships" ("LocationId");
CREATE INDEX "IX_Memberships_MemberId" ON "Memberships" ("MemberId");
CREATE INDEX "IX_Memberships_PlanId" ON "Memberships" ("PlanId");
CREATE TABLE "Bookings" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Bookings" PRIMARY KEY AUTOINCREMENT,
    "MeetingRoomId" INTEGER NOT NULL,
    "HostMemberId" INTEGER NOT NULL,
    "BookedById" INTEGER NOT NULL,
    "Title" TEXT NULL,
    "StartsAt" TEXT NOT NULL,
    "EndsAt" TEXT NOT NULL,
    "Duration" INTEGER NOT NULL,
    "Attendees" INTEGER NOT NULL,
    "Status" INTEGER NOT NULL,
    "CreditsUsed" TEXT NOT NULL,
    "Charge" TEXT NOT NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    "CancelledAtUtc" TEXT NULL,
    {fk("Bookings", "MeetingRooms", "MeetingRoomId")},
    {fk("Bookings", "Members", "HostMemberId")},
    {fk("Bookings", "Members", "BookedById")}
);
CREATE INDEX "IX_Bookings_BookedById" ON "Bookings" ("BookedById");
CREATE INDEX "IX_Bookings_HostMemberId" ON "Bookings" ("HostMemberId");
CREATE INDEX "IX_Bookings_MeetingRoomId_StartsAt" ON "Bookings" ("MeetingRoomId", "StartsAt");
CREATE TABLE "DayPasses" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_DayPasses" PRIMARY KEY AUTOINCREMENT,
    "LocationId" INTEGER NOT NULL,
    "MemberId" INTEGER NULL,
    "BuyerName" TEXT NOT NULL,
    "BuyerEmail" TEXT NULL,
    "ValidOn" TEXT NOT NULL,
    "Price" TEXT NOT NULL,
    "Source" TEXT NOT NULL,
    "PurchasedAtUtc" TEXT NOT NULL,
    "CheckedInAtUtc" TEXT NULL,
    {fk("DayPasses", "Locations", "LocationId")},
    {fk("DayPasses", "Members", "MemberId", cascade=False)}
);
CREATE INDEX "IX_DayPasses_LocationId" ON "DayPasses" ("LocationId");
CREATE INDEX "IX_DayPasses_MemberId" ON "DayPasses" ("MemberId");
CREATE TABLE "Invoices" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Invoices" PRIMARY KEY AUTOINCREMENT,
    "Number" TEXT NOT NULL,
    "CompanyId" INTEGER NULL,
    "MemberId" INTEGER NULL,
    "PeriodStart" TEXT NOT NULL,
    "PeriodEnd" TEXT NOT NULL,
    "IssuedOn" TEXT NOT NULL,
    "DueOn" TEXT NOT NULL,
    "Status" INTEGER NOT NULL,
    "Subtotal" TEXT NOT NULL,
    "Tax" TEXT NOT NULL,
    "Total" TEXT NOT NULL,
    "PaidAtUtc" TEXT NULL,
    "VoidedAtUtc" TEXT NULL,
    "ReplacesInvoiceId" INTEGER NULL,
    "CreatedAtUtc" TEXT NOT NULL,
    {fk("Invoices", "Companies", "CompanyId", cascade=False)},
    {fk("Invoices", "Members", "MemberId", cascade=False)},
    {fk("Invoices", "Invoices", "ReplacesInvoiceId", cascade=False)}
);
CREATE UNIQUE INDEX "IX_Invoices_Number" ON "Invoices" ("Number");
CREATE INDEX "IX_Invoices_CompanyId" ON "Invoices" ("CompanyId");
CREATE INDEX "IX_Invoices_MemberId" ON "Invoices" ("MemberId");
CREATE INDEX "IX_Invoices_ReplacesInvoiceId" ON "Invoices" ("ReplacesInvoiceId");
CREATE TABLE "InvoiceLines" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_InvoiceLines" PRIMARY KEY AUTOINCREMENT,
    "InvoiceId" INTEGER NOT NULL,
    "Kind" TEXT NOT NULL,
    "Description" TEXT NOT NULL,
    "Quantity" INTEGER NOT NULL,
    "UnitPrice" TEXT NOT NULL,
    "Amount" TEXT NOT NULL,
    "MembershipId" INTEGER NULL,
    "BookingId" INTEGER NULL,
    {fk("InvoiceLines", "Invoices", "InvoiceId")},
    {fk("InvoiceLines", "Memberships", "MembershipId", cascade=False)},
    {fk("InvoiceLines", "Bookings", "BookingId", cascade=False)}
);
CREATE INDEX "IX_InvoiceLines_BookingId" ON "InvoiceLines" ("BookingId");
CREATE INDEX "IX_InvoiceLines_InvoiceId" ON "InvoiceLines" ("InvoiceId");
CREATE INDEX "IX_InvoiceLines_MembershipId" ON "InvoiceLines" ("MembershipId");
CREATE TABLE "Payments" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_Payments" PRIMARY KEY AUTOINCREMENT,
    "InvoiceId" INTEGER NOT NULL,
    "Amount" TEXT NOT NULL,
    "Method" TEXT NOT NULL,
    "Status" INTEGER NOT NULL,
    "Reference" TEXT NOT NULL,
    "FailureReason" TEXT NULL,
    "ProcessedAtUtc" TEXT NOT NULL,
    {fk("Payments", "Invoices", "InvoiceId")}
);
CREATE INDEX "IX_Payments_InvoiceId" ON "Payments" ("InvoiceId");
CREATE TABLE "SupportRequests" (
    "Id" INTEGER NOT NULL CONSTRAINT "PK_SupportRequests" PRIMARY KEY AUTOINCREMENT,
    "LocationId" INTEGER NOT NULL,
    "MeetingRoomId" INTEGER NULL,
    "ReportedByMemberId" INTEGER NULL,
    "AssignedToStaffId" INTEGER NULL,
    "Category" TEXT NOT NULL,
    "Priority" INTEGER NOT NULL,
    "Status" INTEGER NOT NULL,
    "Subject" TEXT NOT NULL,
    "OpenedAtUtc" TEXT NOT NULL,
    "ResolvedAtUtc" TEXT NULL,
    {fk("SupportRequests", "Locations", "LocationId")},
    {fk("SupportRequests", "MeetingRooms", "MeetingRoomId", cascade=False)},
    {fk("SupportRequests", "Members", "ReportedByMemberId", cascade=False)},
    {fk("SupportRequests", "StaffMembers", "AssignedToStaffId", cascade=False)}
);
CREATE INDEX "IX_SupportRequests_AssignedToStaffId" ON "SupportRequests" ("AssignedToStaffId");
CREATE INDEX "IX_SupportRequests_LocationId" ON "SupportRequests" ("LocationId");
CREATE INDEX "IX_SupportRequests_MeetingRoomId" ON "SupportRequests" ("MeetingRoomId");
CREATE INDEX "IX_SupportRequests_ReportedByMemberId" ON "SupportRequests" ("ReportedByMemberId");
"""

MIGRATIONS = [
    ("20221205101532_InitialCreate", "7.0.0"),
    ("20230214093310_AddAmenities", "7.0.2"),
    ("20230418152044_AddInvoiceReplacement", "7.0.5"),
    ("20230731114907_AddSupportRequests", "7.0.9"),
    ("20231016110245_AddMemberSoftDelete", "7.0.11"),
    ("20250113084550_AddMembershipEndReason", "9.0.0"),
]

# ---------------------------------------------------------------- reference data

NY, CHI, DEN, LA = "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"
TZ_STD = {NY: -5, CHI: -6, DEN: -7, LA: -8}

# (name, city, street, postal code, time zone, opened, closed, opens, closes, desks,
#  tax rate (percent as text), arrival weight)
LOCATIONS = [
    ("Foundry Hall", "Harwick", "210 Kiln Street", "01842", NY, dt.date(2023, 1, 9), None,
     "07:00:00", "21:00:00", 120, "6.25", 1.2),
    ("Riverside Lofts", "Harwick", "55 Towpath Lane", "01845", NY, dt.date(2023, 6, 5), None,
     "08:00:00", "20:00:00", 80, "6.25", 0.9),
    ("The Exchange", "Port Sable", "900 Grain Exchange Avenue", "60791", CHI,
     dt.date(2023, 3, 6), None, "07:00:00", "20:00:00", 110, "0.0", 1.0),
    ("Old Depot", "Port Sable", "14 Switchyard Road", "60794", CHI, dt.date(2024, 2, 5),
     dt.date(2025, 6, 30), "08:00:00", "19:00:00", 60, "0.0", 0.6),
    ("Pier Seven", "Corrigan Bay", "7 Wharf Row", "94977", LA, dt.date(2023, 9, 5), None,
     "07:30:00", "20:00:00", 95, "0.0", 1.0),
    ("Hillcrest", "Corrigan Bay", "318 Summit Terrace", "94979", LA, dt.date(2024, 9, 3), None,
     "08:00:00", "19:00:00", 70, "0.0", 0.7),
    ("The Mill", "Lindenfall", "2 Millwheel Court", "80599", DEN, dt.date(2025, 4, 7), None,
     "08:00:00", "19:00:00", 75, "2.9", 0.9),
]
OLD_DEPOT, EXCHANGE = 4, 3

# (code, name, desk type, access days a month (None = unlimited), meeting-room credits
#  (hours a month), mail handling, still sold, [(price from, cents)], sold from, sold until)
PLANS = [
    ("HOT", "Hot Desk", "HotDesk", None, 4, 0, 1,
     [(dt.date(2022, 12, 1), 24900), (dt.date(2025, 1, 1), 26900)], dt.date(2022, 12, 1), None),
    ("PT10", "Part-Time (10 days)", "HotDesk", 10, 2, 0, 1,
     [(dt.date(2022, 12, 1), 14900)], dt.date(2022, 12, 1), None),
    ("DED", "Dedicated Desk", "Dedicated", None, 8, 1, 1,
     [(dt.date(2022, 12, 1), 44900), (dt.date(2025, 1, 1), 47900)], dt.date(2022, 12, 1), None),
    ("OFFICE", "Private Office Seat", "PrivateOffice", None, 10, 1, 1,
     [(dt.date(2022, 12, 1), 65000), (dt.date(2024, 7, 1), 69000)], dt.date(2022, 12, 1), None),
    ("VIRTUAL", "Virtual Office", "None", 0, 1, 1, 1,
     [(dt.date(2022, 12, 1), 7900)], dt.date(2022, 12, 1), None),
    ("FOUNDER", "Founding Member Hot Desk", "HotDesk", None, 6, 0, 0,
     [(dt.date(2022, 12, 1), 19900)], dt.date(2022, 12, 1), dt.date(2023, 6, 30)),
    ("NIGHTS", "Evenings & Weekends", "HotDesk", None, 0, 0, 1,
     [(dt.date(2025, 3, 1), 9900)], dt.date(2025, 3, 1), None),
]
HOT, PT10, DED, OFFICE, VIRTUAL, FOUNDER, NIGHTS = range(1, 8)

AMENITIES = [
    ("Video Conferencing", "AudioVisual"), ("Wall Display", "AudioVisual"),
    ("Projector", "AudioVisual"), ("Speakerphone", "AudioVisual"),
    ("Whiteboard", "Furniture"), ("Standing Table", "Furniture"),
    ("Lounge Seating", "Furniture"), ("Natural Light", "Comfort"),
    ("Soundproofing", "Comfort"), ("Wheelchair Accessible", "Access"),
    ("Catering Setup", "Hospitality"), ("Coffee Machine", "Hospitality"),
]
VIDEO, DISPLAY, PROJECTOR, SPEAKER, WHITEBOARD, STANDING, LOUNGE, LIGHT, SOUNDPROOF, \
    ACCESSIBLE, CATERING, COFFEE = range(1, 13)

ROOM_NAMES = {
    1: ["Anvil", "Bellows", "Crucible", "Forge", "Ingot", "Kiln", "Tongs", "Smelter", "Quench"],
    2: ["Heron", "Kingfisher", "Otter", "Reed", "Willow", "Eddy"],
    3: ["Ledger", "Bushel", "Tally", "Silo", "Gavel", "Ticker", "Bourse", "Floor Room"],
    4: ["Signal", "Caboose", "Junction", "Turntable"],
    5: ["Anchor", "Bowline", "Capstan", "Mooring", "Spinnaker", "Tiller", "Lighthouse"],
    6: ["Summit", "Ridge", "Meadow", "Vista", "Aspen"],
    7: ["Millstone", "Sluice", "Hopper", "Grist", "Waterwheel"],
}

FIRST = ["Avery", "Blake", "Camille", "Dante", "Elena", "Farah", "Gideon", "Hazel", "Idris",
         "Juno", "Kieran", "Leona", "Malik", "Nadia", "Oscar", "Paloma", "Quentin", "Rhea",
         "Silas", "Talia", "Ulric", "Vera", "Wesley", "Xiomara", "Yusuf", "Zara", "Anika",
         "Bram", "Celeste", "Dmitri", "Esme", "Florian", "Greta", "Hugo", "Ines", "Jasper",
         "Kenji", "Lorena", "Mateus", "Noor", "Orla", "Pavel", "Rosalie", "Soren", "Thea",
         "Uma", "Viktor", "Wren", "Yara", "Zeke", "Amos", "Beatrix", "Cyrus", "Delphine",
         "Emil", "Freya", "Gustavo", "Hollis", "Ivy", "Joaquin", "Kaia", "Lionel", "Maren",
         "Nico", "Odette", "Pierce", "Raina", "Stellan", "Tamsin", "Vivian"]
LAST = ["Abernathy", "Baptiste", "Castellano", "Dunmore", "Eastwick", "Fairweather",
        "Galloway", "Hargrove", "Ishikawa", "Jankowski", "Kavanagh", "Lindgren", "Marchetti",
        "Nakamura", "Okonkwo", "Pemberton", "Quintero", "Rasmussen", "Sorensen", "Thornbury",
        "Underhill", "Valdivia", "Whitcombe", "Yilmaz", "Zabrowski", "Ashdown", "Brightwater",
        "Coldwell", "Delacroix", "Ellingsworth", "Fenwick", "Greenhalgh", "Holloway",
        "Iverson", "Kowalczyk", "Larkspur", "Merriweather", "Northcott", "Oyelowo",
        "Prescott", "Ravensworth", "Stanhope", "Trevelyan", "Vanterpool", "Wainwright",
        "Achterberg", "Blackmore", "Chaudhry", "Drummond", "Esposito", "Fitzgerald",
        "Grimaldi", "Hollingsworth", "Kaczmarek", "Lachance", "Montague", "Nwosu",
        "Ostrowski", "Pellegrino", "Saltonstall"]
COMPANY_HEADS = ["Amber", "Birch", "Cobalt", "Drift", "Ember", "Fern", "Granite", "Halcyon",
                 "Juniper", "Kestrel", "Lantern", "Marigold", "Nimbus", "Orchard", "Pebble",
                 "Quarry", "Rowan", "Saffron", "Thistle", "Umber", "Velvet", "Yarrow",
                 "Zephyr", "Copper", "Slate", "Heron", "Tidal", "Foxglove", "Wicker", "Sorrel"]
COMPANY_TAILS = ["mere", "gate", "field", "wick", "stone", "ford", "line", "vale", "crest",
                 "brook"]
INDUSTRIES = [("Software", "Labs"), ("Design", "Studio"), ("Legal", "Law Group"),
              ("Consulting", "Advisory"), ("Marketing", "Media"), ("Nonprofit", "Foundation"),
              ("Finance", "Capital"), ("Architecture", "Architects"), ("Health", "Health"),
              ("Software", "Software"), ("Design", "Design Co."), ("Consulting", "Partners")]
BOOKING_TITLES = ["Team sync", "Client call", "Interview", "Sprint planning", "Board prep",
                  "1:1", "Workshop", "Pitch rehearsal", "Quarterly review", "Training",
                  "Investor meeting", "Design review", "Standup", "Offsite planning",
                  "Customer demo", "Hiring panel", "Retro", "Budget review"]
SUPPORT = {
    # category: (weight, subjects, room-related share)
    "Wifi": (22, ["Wi-Fi keeps dropping", "Slow internet on floor {f}", "Can't join guest network",
                  "Ethernet port dead at desk"], 0.1),
    "Hvac": (18, ["Too cold on floor {f}", "Too hot in the afternoon", "Air conditioning noisy",
                  "Heating not working"], 0.2),
    "Cleaning": (16, ["Kitchen needs cleaning", "Trash not emptied", "Spill in the lounge",
                      "Restroom supplies out"], 0.1),
    "Furniture": (12, ["Broken chair", "Desk wobbles", "Standing desk stuck",
                       "Locker won't close"], 0.3),
    "AudioVisual": (14, ["Display won't connect", "Video call camera not working",
                         "Projector bulb out", "Speakerphone echo"], 0.9),
    "Access": (10, ["Key card not working", "Front door buzzer broken", "Guest not let in",
                    "Parking gate stuck"], 0.0),
    "Kitchen": (8, ["Coffee machine broken", "Fridge too warm", "Dishwasher leaking",
                    "Out of oat milk"], 0.0),
}


# ---------------------------------------------------------------- helpers

def nth_sunday(year, month, n):
    day = dt.date(year, month, 1)
    day += dt.timedelta(days=(6 - day.weekday()) % 7)
    return day + dt.timedelta(weeks=n - 1)


def is_dst(local):
    start = dt.datetime.combine(nth_sunday(local.year, 3, 2), dt.time(2))
    end = dt.datetime.combine(nth_sunday(local.year, 11, 1), dt.time(2))
    return start <= local < end


def to_utc(tz, local):
    return local - dt.timedelta(hours=TZ_STD[tz] + (1 if is_dst(local) else 0))


def to_local(tz, utc):
    guess = utc + dt.timedelta(hours=TZ_STD[tz] + 1)
    return guess if is_dst(guess) else utc + dt.timedelta(hours=TZ_STD[tz])


def ts(x):
    """A .NET DateTime as Microsoft.Data.Sqlite writes it: 'yyyy-MM-dd HH:mm:ss.FFFFFFF'."""
    text = x.strftime("%Y-%m-%d %H:%M:%S")
    if x.microsecond:
        text += ("." + f"{x.microsecond:06d}0").rstrip("0")
    return text


def d(x):
    return x.isoformat()


def money(cents):
    """A .NET decimal as Microsoft.Data.Sqlite writes it: '249.0', '22.5', '1316.25'."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole}." + (f"{frac:02d}".rstrip("0") or "0")


def hours(minutes):
    whole, rest = divmod(minutes, 60)
    return f"{whole}." + {0: "0", 30: "5"}[rest]


def month_end(day):
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def add_months(day, n):
    y, m = divmod(day.month - 1 + n, 12)
    return dt.date(day.year + y, m + 1, 1)


def poisson(rng, lam):
    if lam <= 0:
        return 0
    if lam > 30:
        return max(0, int(round(rng.gauss(lam, math.sqrt(lam)))))
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def jitter(rng):
    """Fractional seconds of an audit timestamp written by DateTime.UtcNow."""
    return dt.timedelta(seconds=rng.randint(0, 59), microseconds=rng.randint(0, 999999))


def price_on(plan_id, day):
    cents = None
    for since, value in PLANS[plan_id - 1][7]:
        if since <= day:
            cents = value
    return cents


# ---------------------------------------------------------------- generation

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "coworking.sqlite")
    rng = random.Random(SEED)
    snap_day = SNAPSHOT_UTC.date()
    snap_local = {i: to_local(loc[4], SNAPSHOT_UTC) for i, loc in enumerate(LOCATIONS, start=1)}
    closure = LOCATIONS[OLD_DEPOT - 1][6]

    def tz_of(loc_id):
        return LOCATIONS[loc_id - 1][4]

    def loc_open(loc_id, day):
        loc = LOCATIONS[loc_id - 1]
        return loc[5] <= day and (loc[6] is None or day <= loc[6])

    def local_at(loc_id, day, hour, minute=0):
        return to_utc(tz_of(loc_id), dt.datetime.combine(day, dt.time(hour, minute)))

    # ------------------------------------------------------------ locations
    location_rows = []
    for i, loc in enumerate(LOCATIONS, start=1):
        created = dt.datetime.combine(loc[5] - dt.timedelta(days=rng.randint(40, 90)),
                                      dt.time(14)) + jitter(rng)
        location_rows.append((i, "Nestwork " + loc[0], loc[1], loc[2], loc[3], loc[4],
                              f"555-01{10 + i * 3:02d}", loc[7], loc[8], loc[9], loc[10],
                              d(loc[5]), d(loc[6]) if loc[6] else None, 0 if loc[6] else 1,
                              ts(created)))

    # ------------------------------------------------------------ plans
    plan_rows = []
    for i, p in enumerate(PLANS, start=1):
        created = dt.datetime.combine(max(p[8] - dt.timedelta(days=12), dt.date(2022, 12, 5)),
                                      dt.time(15, 20)) + jitter(rng)
        updated = created
        if len(p[7]) > 1:
            updated = dt.datetime.combine(p[7][-1][0] - dt.timedelta(days=20), dt.time(17)) \
                + jitter(rng)
        if not p[6]:
            updated = dt.datetime.combine(p[9] + dt.timedelta(days=1), dt.time(13)) + jitter(rng)
        plan_rows.append((i, p[0], p[1], p[2], money(p[7][-1][1]), p[3], p[4], p[5], p[6],
                          ts(created), ts(updated)))

    # ------------------------------------------------------------ meeting rooms and amenities
    rooms = []
    floors_of = {1: 4, 2: 3, 3: 5, 4: 2, 5: 3, 6: 2, 7: 3}
    for loc_id, names in ROOM_NAMES.items():
        loc = LOCATIONS[loc_id - 1]
        for k, name in enumerate(names):
            if k == 0:
                cap = rng.choice([20, 24, 30])
            elif k % 3 == 1:
                cap = rng.choice([2, 3, 4])
            elif k % 3 == 2:
                cap = rng.choice([6, 8])
            else:
                cap = rng.choice([10, 12, 14, 16])
            if cap <= 4:
                rate = rng.choice([15, 18, 20, 24])
            elif cap <= 8:
                rate = rng.choice([35, 40, 45, 50])
            elif cap <= 16:
                rate = rng.choice([65, 75, 85, 95])
            else:
                rate = rng.choice([120, 140, 160])
            rate += {"Harwick": 5, "Corrigan Bay": 10}.get(loc[1], 0)
            rooms.append({"loc": loc_id, "name": name,
                          "floor": 1 if k == 0 else rng.randint(1, floors_of[loc_id]),
                          "cap": cap, "rate": rate * 100, "min": 30 if cap <= 8 else 60,
                          "from": loc[5], "to": loc[6], "bookable": 1, "deleted": 0,
                          "notes": None})
    rooms.append({"loc": 1, "name": "Bloom", "floor": 4, "cap": 8, "rate": 5500, "min": 30,
                  "from": dt.date(2024, 3, 4), "to": None, "bookable": 1, "deleted": 0,
                  "notes": "Opened after the fourth-floor expansion"})
    rooms.append({"loc": 3, "name": "Annex", "floor": 5, "cap": 6, "rate": 4000, "min": 30,
                  "from": dt.date(2024, 10, 1), "to": None, "bookable": 1, "deleted": 0,
                  "notes": None})
    for r in rooms:
        if r["loc"] == 1 and r["name"] == "Tongs":
            r.update(to=dt.date(2024, 8, 31), deleted=1, bookable=0,
                     notes="Converted into a private office in September 2024")
        if r["loc"] == 5 and r["name"] == "Tiller":
            r.update(to=dt.date(2025, 2, 28), deleted=1, bookable=0, notes="Merged into Spinnaker")
        if r["loc"] == 3 and r["name"] == "Tally":
            r.update(to=dt.date(2025, 9, 26), bookable=0,
                     notes="Closed for renovation until December 2025")
        if r["loc"] == 2 and r["name"] == "Eddy":
            r.update(to=dt.date(2025, 10, 8), bookable=0, notes="Water damage, under repair")
        if r["loc"] == OLD_DEPOT:
            r.update(bookable=0, notes="Location closed")
    rooms.sort(key=lambda r: (r["from"], r["loc"]))
    for i, r in enumerate(rooms, start=1):
        r["id"] = i
        r["created"] = dt.datetime.combine(r["from"] - dt.timedelta(days=rng.randint(7, 30)),
                                           dt.time(16)) + jitter(rng)
    room_rows = [(r["id"], r["loc"], r["name"], r["floor"], r["cap"], money(r["rate"]), r["min"],
                  r["bookable"], r["deleted"], r["notes"], ts(r["created"])) for r in rooms]
    rooms_at = {}
    for r in rooms:
        rooms_at.setdefault(r["loc"], []).append(r)

    amenity_links = []
    for r in rooms:
        have = set()
        if r["cap"] >= 6:
            have.add(DISPLAY)
            if rng.random() < 0.75:
                have.add(VIDEO)
            if rng.random() < 0.7:
                have.add(WHITEBOARD)
        else:
            if rng.random() < 0.45:
                have.add(VIDEO)
            if rng.random() < 0.3:
                have.add(WHITEBOARD)
            if rng.random() < 0.5:
                have.add(SOUNDPROOF)
        if r["cap"] >= 14:
            have.update([SPEAKER, ACCESSIBLE])
            if rng.random() < 0.6:
                have.add(PROJECTOR)
            if rng.random() < 0.7:
                have.add(CATERING)
        elif rng.random() < 0.5:
            have.add(ACCESSIBLE)
        if rng.random() < 0.35:
            have.add(SPEAKER)
        if rng.random() < 0.25:
            have.add(STANDING)
        if rng.random() < 0.2:
            have.add(LOUNGE)
        if rng.random() < 0.5:
            have.add(LIGHT)
        if r["cap"] >= 8 and rng.random() < 0.3:
            have.add(COFFEE)
        for a in sorted(have):
            amenity_links.append((a, r["id"]))
    amenity_links.sort()

    # ------------------------------------------------------------ staff
    staff = []
    used_names = set()

    def person_name():
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in used_names:
                used_names.add((first, last))
                return first, last

    def add_staff(loc_id, role, hired, left=None):
        first, last = person_name()
        staff.append({"loc": loc_id, "first": first, "last": last, "role": role,
                      "hired": hired, "left": left})

    add_staff(None, "Operations", dt.date(2022, 10, 3))
    add_staff(None, "Finance", dt.date(2022, 11, 14))
    add_staff(None, "Finance", dt.date(2024, 4, 1))
    add_staff(None, "Sales", dt.date(2023, 2, 6), dt.date(2024, 11, 29))
    add_staff(None, "Sales", dt.date(2024, 12, 9))
    for loc_id, loc in enumerate(LOCATIONS, start=1):
        pre = loc[5] - dt.timedelta(days=rng.randint(21, 45))
        closed = loc[6]
        if loc_id == 1:
            add_staff(1, "CommunityManager", pre, dt.date(2024, 5, 17))
            add_staff(1, "CommunityManager", dt.date(2024, 5, 6))
        elif loc_id == 5:
            add_staff(5, "CommunityManager", pre, dt.date(2025, 1, 10))
            add_staff(5, "CommunityManager", dt.date(2025, 1, 13))
        else:
            add_staff(loc_id, "CommunityManager", pre, closed)
        add_staff(loc_id, "FrontDesk", pre + dt.timedelta(days=14), closed)
        if loc[9] >= 90:
            add_staff(loc_id, "FrontDesk", pre + dt.timedelta(days=14),
                      dt.date(2024, 8, 2) if loc_id == 3 else closed)
            if loc_id == 3:
                add_staff(3, "FrontDesk", dt.date(2024, 8, 19))
        if loc_id == 2:
            add_staff(2, "Facilities", pre + dt.timedelta(days=7), dt.date(2025, 3, 14))
            add_staff(2, "Facilities", dt.date(2025, 3, 31))
        elif loc_id == 4:
            add_staff(4, "Facilities", pre + dt.timedelta(days=7), closed)
        else:
            add_staff(loc_id, "Facilities", pre + dt.timedelta(days=7))
            if loc_id in (1, 3):
                add_staff(loc_id, "Facilities", dt.date(2024, 1, 15))
    staff.sort(key=lambda s: (s["hired"], s["loc"] or 0))
    staff_rows = []
    for i, s in enumerate(staff, start=1):
        s["id"] = i
        s["created"] = dt.datetime.combine(s["hired"] - dt.timedelta(days=rng.randint(3, 10)),
                                           dt.time(15)) + jitter(rng)
        staff_rows.append((i, s["loc"], s["first"], s["last"],
                           f"{s['first'].lower()}.{s['last'].lower()}@nestwork.example", s["role"],
                           d(s["hired"]), d(s["left"]) if s["left"] else None,
                           0 if s["left"] else 1, ts(s["created"])))

    # ------------------------------------------------------------ members, companies, memberships
    members, companies, ships = [], [], []
    emails, stems = set(), set()

    def make_email(first, last, domain):
        base = f"{first.lower()}.{last.lower()}"
        email, n = f"{base}@{domain}", 1
        while email in emails:
            n += 1
            email = f"{base}{n}@{domain}"
        emails.add(email)
        return email

    def new_member(first_day, loc_id, company=None):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        domain = company["domain"] if company else rng.choice(
            ["example.com", "example.net", "example.org", "mail.example"])
        local = dt.datetime.combine(first_day - dt.timedelta(days=rng.randint(1, 20)),
                                    dt.time(rng.randint(8, 21), rng.randint(0, 59)))
        created = min(to_utc(tz_of(loc_id), local) + jitter(rng),
                      SNAPSHOT_UTC - dt.timedelta(hours=rng.uniform(2, 60)))
        m = {"first": first, "last": last, "email": make_email(first, last, domain),
             "phone": f"555-01{rng.randint(0, 99):02d}" if rng.random() < 0.72 else None,
             "company": company, "home": loc_id, "referrer": None,
             "opt_in": 1 if rng.random() < 0.38 else 0, "ships": [], "passes": [],
             "created": created, "deleted": None}
        members.append(m)
        if company is not None:
            company["members"].append(m)
        return m

    def pick_plan(day, loc_id, team_size=0):
        if team_size >= 4:
            opts = [(OFFICE, 70), (DED, 20), (HOT, 10)]
        elif team_size >= 2:
            opts = [(OFFICE, 35), (DED, 35), (HOT, 30)]
        else:
            opts = [(HOT, 34), (PT10, 24), (DED, 18), (VIRTUAL, 14), (OFFICE, 4)]
            if day >= dt.date(2025, 3, 1):
                opts.append((NIGHTS, 10))
            if day <= dt.date(2023, 6, 30) and loc_id in (1, 3):
                opts.append((FOUNDER, 60))
        return rng.choices([p for p, _ in opts], [w for _, w in opts])[0]

    def add_ship(m, plan, loc_id, start, end, reason, discount, created):
        ship = {"member": m, "plan": plan, "loc": loc_id, "start": start, "end": end,
                "reason": reason, "discount": discount, "rate": price_on(plan, start),
                "notice": None, "created": created}
        m["ships"].append(ship)
        ships.append(ship)
        return ship

    UPGRADE = {HOT: DED, PT10: HOT, DED: OFFICE, VIRTUAL: PT10, FOUNDER: DED, NIGHTS: HOT,
               OFFICE: DED}

    def natural_end(start, months_mean, forced_end=None):
        """End date of a stay, or None when it is still running with no notice given."""
        if forced_end is not None:
            end = forced_end
        else:
            months = 1 + int(rng.expovariate(1 / months_mean))
            end = month_end(add_months(start, months - 1))
        if end >= dt.date(2025, 12, 1):
            return None
        if end >= snap_day and forced_end is None and rng.random() < 0.45:
            return None
        return end

    def run_stay(m, plan, loc_id, start, end, discount, allow_change=True):
        pieces = [(plan, start)]
        span_end = end or snap_day
        limit = closure if loc_id == OLD_DEPOT else span_end
        if allow_change and plan != FOUNDER and (min(span_end, limit) - start).days > 150 \
                and rng.random() < 0.22:
            switch = add_months(start, rng.randint(2, max(2, (min(span_end, limit) - start).days
                                                        // 31 - 1)))
            if start < switch < min(span_end, limit):
                pieces.append((UPGRADE[plan], switch))
        for k, (p, s) in enumerate(pieces):
            if k == 0:
                created = m["created"] + dt.timedelta(minutes=rng.uniform(3, 40))
            else:
                created = local_at(loc_id, s - dt.timedelta(days=rng.randint(3, 20)),
                                   rng.randint(9, 19), rng.randint(0, 59)) + jitter(rng)
            if k + 1 < len(pieces):
                add_ship(m, p, loc_id, s, pieces[k + 1][1] - dt.timedelta(days=1), "PlanChange",
                         discount, created)
            else:
                add_ship(m, p, loc_id, s, end, "Cancelled" if end else None, discount, created)

    def start_day(month, loc_id, lo=None):
        loc = LOCATIONS[loc_id - 1]
        first = max(month, loc[5], lo or month)
        last = month_end(month)
        if loc[6] is not None:
            last = min(last, loc[6] - dt.timedelta(days=30))
        last = min(last, snap_day + dt.timedelta(days=25))
        if last < first:
            return None
        day = first + dt.timedelta(days=rng.randint(0, (last - first).days))
        if rng.random() < 0.45 and day.replace(day=1) >= first:
            day = day.replace(day=1)
        return day

    def company_stem():
        while True:
            stem = rng.choice(COMPANY_HEADS) + rng.choice(COMPANY_TAILS)
            if stem not in stems:
                stems.add(stem)
                return stem

    def make_company(day, loc_id, size, parent=None):
        if parent is None:
            stem = company_stem()
            industry, suffix = rng.choice(INDUSTRIES)
            name = f"{stem} {suffix}"
            domain = f"{stem.lower()}.example"
        else:
            stem, industry = parent["stem"], parent["industry"]
            name = f"{parent['name']} {LOCATIONS[loc_id - 1][1]}"
            domain = parent["domain"]
        c = {"stem": stem, "name": name, "domain": domain, "industry": industry,
             "parent": parent, "members": [], "loc": loc_id, "start": day,
             "terms": rng.choices([30, 15, 45], [60, 25, 15])[0]}
        companies.append(c)
        end = natural_end(day, 28)
        if end is not None and end < month_end(add_months(day, 1)):
            end = month_end(add_months(day, 1))
        c["end"] = end
        plan = pick_plan(day, loc_id, size)
        discount = 0 if size < 5 else rng.choice([0, 0, 10, 15, 20])
        hires = size + poisson(rng, size * 0.25 * ((end or snap_day) - day).days / 365)
        for k in range(hires):
            if k == 0:
                s = day
            elif k < size:
                s = day + dt.timedelta(days=rng.randint(0, 40))
            else:
                s = day + dt.timedelta(days=rng.randint(30, max(31, ((end or snap_day) - day).days)))
            if k > 0 and ((end is not None and s > end - dt.timedelta(days=20))
                          or s > snap_day + dt.timedelta(days=20)
                          or (LOCATIONS[loc_id - 1][6] and s > closure - dt.timedelta(days=20))):
                continue
            m = new_member(s, loc_id, c)
            p = plan if rng.random() < 0.85 else pick_plan(s, loc_id, 2)
            e = end
            if k > 0 and rng.random() < 0.3:
                e2 = natural_end(s, 14)
                if e2 is not None and (e is None or e2 < e):
                    e = e2
            run_stay(m, p, loc_id, s, e, discount, allow_change=False)
        return c

    month = dt.date(2023, 1, 1)
    while month <= dt.date(2025, 10, 1):
        for loc_id, loc in enumerate(LOCATIONS, start=1):
            if month_end(month) < loc[5] or (loc[6] and month > loc[6]):
                continue
            age = (month.year - loc[5].year) * 12 + month.month - loc[5].month
            ramp = min(1.0, 0.45 + 0.09 * age) * loc[11]
            if age == 0:
                ramp *= 1.8
            for _ in range(poisson(rng, 3.2 * ramp)):
                day = start_day(month, loc_id)
                if day is None:
                    continue
                m = new_member(day, loc_id)
                discount = rng.choice([0] * 16 + [10, 10, 15])
                run_stay(m, pick_plan(day, loc_id), loc_id, day, natural_end(day, 13), discount)
            for _ in range(poisson(rng, 0.5 * ramp)):
                day = start_day(month, loc_id)
                if day is None:
                    continue
                make_company(day, loc_id, rng.choices([2, 3, 4, 5, 6, 8, 10, 13],
                                                      [24, 22, 17, 12, 9, 7, 5, 4])[0])
        month = add_months(month, 1)

    # subsidiaries of a few established teams, at another location
    big = [c for c in companies if len(c["members"]) >= 5 and c["parent"] is None
           and c["start"] <= dt.date(2024, 9, 30) and c["end"] is None]
    for c in rng.sample(big, min(5, len(big))):
        for _ in range(rng.choice([1, 1, 2])):
            others = [i for i in range(1, 8) if LOCATIONS[i - 1][1] != LOCATIONS[c["loc"] - 1][1]
                      and i != OLD_DEPOT
                      and LOCATIONS[i - 1][5] <= dt.date(2025, 8, 1)]
            loc_id = rng.choice(others)
            lo = max(c["start"] + dt.timedelta(days=120), LOCATIONS[loc_id - 1][5])
            if lo > dt.date(2025, 9, 1):
                continue
            day = lo + dt.timedelta(days=rng.randint(0, (dt.date(2025, 9, 1) - lo).days))
            if any(x["parent"] is c and x["loc"] == loc_id for x in companies):
                continue
            make_company(day, loc_id, rng.choice([2, 3, 4]), parent=c)

    # Old Depot closed on 2025-06-30: its memberships ended, some moved to The Exchange
    moves = {}
    for s in list(ships):
        if s["loc"] != OLD_DEPOT or (s["end"] is not None and s["end"] <= closure):
            continue
        m = s["member"]
        key = id(m["company"]) if m["company"] else id(m)
        if key not in moves:
            moves[key] = rng.random() < (0.7 if m["company"] else 0.55)
        later_end, later_reason = s["end"], s["reason"]
        s["end"], s["reason"] = closure, "LocationClosed"
        if moves[key]:
            created = local_at(OLD_DEPOT, dt.date(2025, 6, rng.randint(9, 26)),
                               rng.randint(9, 17), rng.randint(0, 59)) + jitter(rng)
            add_ship(m, s["plan"], EXCHANGE, closure + dt.timedelta(days=1), later_end,
                     later_reason, s["discount"], created)
    for c in companies:
        if c["loc"] == OLD_DEPOT:
            if any(s["loc"] == EXCHANGE for m in c["members"] for s in m["ships"]):
                c["loc"] = EXCHANGE
            elif c["end"] is None or c["end"] > closure:
                c["end"] = closure

    # notices of cancellation
    for s in ships:
        if s["reason"] != "Cancelled":
            continue
        lo = max(s["created"], local_at(s["loc"], s["end"] - dt.timedelta(days=45), 9))
        hi = min(local_at(s["loc"], s["end"] - dt.timedelta(days=6), 18),
                 SNAPSHOT_UTC - dt.timedelta(hours=3))
        if hi <= lo:
            hi = lo + dt.timedelta(hours=2)
        same_company = [x for x in ships if x is not s and s["member"]["company"] is not None
                        and x["member"]["company"] is s["member"]["company"]
                        and x["end"] == s["end"] and x["notice"] is not None]
        if same_company and rng.random() < 0.8:
            s["notice"] = same_company[0]["notice"] + dt.timedelta(seconds=rng.uniform(1, 90))
        else:
            s["notice"] = lo + (hi - lo) * rng.random()
        s["notice"] = min(s["notice"], SNAPSHOT_UTC - dt.timedelta(minutes=30))

    def active_ship(m, day):
        for s in m["ships"]:
            if s["start"] <= day and (s["end"] is None or day <= s["end"]):
                return s
        return None

    # ------------------------------------------------------------ day passes
    passes = []
    prospects_at = {i: [] for i in range(1, 8)}

    def pass_price(day):
        return {2023: 3000, 2024: 3500, 2025: 3900}[day.year]

    def make_pass(loc_id, day, member, source=None):
        source = source or rng.choices(["Online", "FrontDesk", "Comp"], [55, 38, 7])[0]
        tz = tz_of(loc_id)
        arrive = dt.datetime.combine(day, dt.time(rng.randint(8, 12), rng.randint(0, 59)))
        arrive_utc = to_utc(tz, arrive) + jitter(rng)
        if source == "FrontDesk":
            bought = arrive_utc - dt.timedelta(minutes=rng.uniform(1, 6))
            checked = arrive_utc
        else:
            lead = rng.choice([0, 0, 1, 1, 2, 3, 5, 7, 10, 14])
            bought_local = dt.datetime.combine(day - dt.timedelta(days=lead),
                                               dt.time(rng.randint(7, 22), rng.randint(0, 59)))
            bought = to_utc(tz, bought_local) + jitter(rng)
            if bought >= arrive_utc:
                bought = arrive_utc - dt.timedelta(minutes=rng.uniform(20, 90))
            checked = arrive_utc if rng.random() < 0.86 else None
        if bought > SNAPSHOT_UTC:
            return None
        if checked is not None and checked > SNAPSHOT_UTC:
            checked = None
        p = {"loc": loc_id, "day": day, "member": member, "source": source,
             "price": 0 if source == "Comp" else pass_price(day), "bought": bought,
             "checked": checked}
        if member is None:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            p["name"] = f"{first} {last}"
            p["email"] = (f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@"
                          f"{rng.choice(['example.com', 'example.net', 'example.org'])}"
                          if rng.random() < 0.7 else None)
        else:
            member["passes"].append(p)
        passes.append(p)
        return p

    # passes that members bought before joining
    for m in list(members):
        first = min(m["ships"], key=lambda s: s["start"]) if m["ships"] else None
        if first is None or m["company"] is not None or rng.random() > 0.2:
            continue
        days = set()
        for _ in range(rng.choice([1, 1, 2, 3])):
            day = first["start"] - dt.timedelta(days=rng.randint(3, 60))
            if day.weekday() < 6 and loc_open(first["loc"], day):
                days.add(day)
        for day in sorted(days):
            p = make_pass(first["loc"], day, m, rng.choice(["Online", "FrontDesk"]))
            if p is not None and p["bought"] < m["created"]:
                m["created"] = p["bought"] - dt.timedelta(minutes=rng.uniform(2, 15))
                for s in m["ships"]:
                    s["created"] = max(s["created"], m["created"])

    formers_at = {i: [] for i in range(1, 8)}
    for m in members:
        if m["ships"] and m["company"] is None:
            last = max(m["ships"], key=lambda s: s["start"])
            if last["end"] is not None:
                formers_at[last["loc"]].append((last["end"], m))

    day = dt.date(2023, 1, 9)
    while day <= snap_day + dt.timedelta(days=14):
        for loc_id, loc in enumerate(LOCATIONS, start=1):
            if not loc_open(loc_id, day) or day.weekday() == 6:
                continue
            age = (day - loc[5]).days / 30.4
            lam = (0.85 if day.weekday() < 5 else 0.3) * min(1.0, 0.5 + 0.08 * age) * loc[11]
            if day > snap_day:
                lam *= math.exp(-(day - snap_day).days / 4)
            for _ in range(poisson(rng, lam)):
                x = rng.random()
                member = None
                if x < 0.14:
                    pool = [m for m in prospects_at[loc_id] if len(m["passes"]) < 5]
                    if pool and rng.random() < 0.45:
                        member = rng.choice(pool)
                    else:
                        member = new_member(day, loc_id)
                        member["created"] = None
                        prospects_at[loc_id].append(member)
                elif x < 0.18:
                    pool = [m for end, m in formers_at[loc_id] if end < day - dt.timedelta(days=20)]
                    if pool:
                        member = rng.choice(pool)
                p = make_pass(loc_id, day, member)
                if p is None and member is not None and member["created"] is None:
                    members.remove(member)
                    prospects_at[loc_id].remove(member)
                    emails.discard(member["email"])
                    continue
                if member is not None and member["created"] is None:
                    member["created"] = p["bought"] - dt.timedelta(minutes=rng.uniform(1, 8))
        day += dt.timedelta(days=1)

    # ------------------------------------------------------------ referrals and member ids
    members.sort(key=lambda m: m["created"])
    for i, m in enumerate(members, start=1):
        m["id"] = i
    by_created = members   # sorted by creation
    for idx, m in enumerate(by_created):
        if not m["ships"] or rng.random() > 0.16:
            continue
        if m["company"] is not None and m["company"]["members"][0] is not m:
            continue
        day = m["created"].date()
        pool = [x for x in by_created[max(0, idx - 400):idx]
                if x["ships"] and active_ship(x, day) is not None and x["company"] is not m["company"]]
        same = [x for x in pool if x["home"] == m["home"]]
        pool = same if same and rng.random() < 0.8 else pool
        if pool:
            m["referrer"] = rng.choice(pool)["id"]

    companies.sort(key=lambda c: min(x["created"] for x in c["members"]))
    for i, c in enumerate(companies, start=1):
        c["id"] = i
    ships.sort(key=lambda s: (s["created"], s["member"]["id"]))
    for i, s in enumerate(ships, start=1):
        s["id"] = i

    # ------------------------------------------------------------ bookings
    ships_at = {i: [] for i in range(1, 8)}
    for s in ships:
        ships_at[s["loc"]].append(s)
    bookings = []
    room_busy = {}
    host_busy = {}
    slot_weights = {}

    def room_ok(r, day):
        return r["from"] <= day and (r["to"] is None or day <= r["to"])

    day = dt.date(2023, 1, 9)
    while day <= HORIZON:
        if day.weekday() == 6:
            day += dt.timedelta(days=1)
            continue
        for loc_id, loc in enumerate(LOCATIONS, start=1):
            if not loc_open(loc_id, day):
                continue
            actives = [s for s in ships_at[loc_id] if s["start"] <= day
                       and (s["end"] is None or day <= s["end"])
                       and (day <= snap_day or s["start"] <= snap_day)]
            if not actives:
                continue
            lam = len(actives) * 0.04 * (1.0 if day.weekday() < 5 else 0.07)
            if day > snap_day:
                lam *= math.exp(-(day - snap_day).days / 13)
            for _ in range(poisson(rng, lam)):
                s = rng.choice(actives)
                host = s["member"]
                booker = host
                c = host["company"]
                if c is not None and rng.random() < 0.2:
                    mates = [x["member"] for x in actives if x["member"]["company"] is c
                             and x["member"] is not host]
                    if mates:
                        booker = rng.choice(mates)
                att = rng.choices([1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 22],
                                  [10, 24, 15, 15, 8, 7, 7, 5, 4, 3, 2])[0]
                room_loc = loc_id
                if rng.random() < 0.07:
                    sisters = [i for i in range(1, 8) if i != loc_id
                               and LOCATIONS[i - 1][1] == loc[1] and loc_open(i, day)]
                    if sisters:
                        room_loc = rng.choice(sisters)
                cands = [r for r in rooms_at[room_loc] if r["cap"] >= att and room_ok(r, day)]
                if not cands:
                    continue
                r = rng.choices(cands, [1 / (r["cap"] - att + 1) ** 1.5 for r in cands])[0]
                dur = rng.choices([30, 60, 90, 120, 180, 240], [15, 40, 15, 18, 7, 5])[0]
                dur = max(dur, r["min"])
                rloc = LOCATIONS[room_loc - 1]
                open_min = max(8 * 60, int(rloc[7][:2]) * 60 + int(rloc[7][3:5]))
                close_min = min(19 * 60, int(rloc[8][:2]) * 60)
                slots = list(range(open_min + (open_min % 30), close_min - dur + 1, 30))
                if not slots:
                    continue
                key = (open_min, close_min, dur)
                if key not in slot_weights:
                    slot_weights[key] = [3 if 9 * 60 <= t < 11 * 60 + 30 else
                                         2.5 if 13 * 60 <= t < 16 * 60 else 1 for t in slots]
                placed = None
                for _ in range(8):
                    t = rng.choices(slots, slot_weights[key])[0]
                    busy = room_busy.setdefault((r["id"], day), [])
                    hb = host_busy.setdefault((host["id"], day), [])
                    if all(t + dur <= a or b <= t for a, b in busy) and \
                            all(t + dur <= a or b <= t for a, b in hb):
                        placed = t
                        break
                if placed is None:
                    continue
                start_local = dt.datetime.combine(day, dt.time(placed // 60, placed % 60))
                end_local = start_local + dt.timedelta(minutes=dur)
                tz = rloc[4]
                start_utc = to_utc(tz, start_local)
                lead = dt.timedelta(hours=rng.choice([0.5, 1, 2, 3, 5, 20, 24, 30, 48, 72, 96,
                                                      120, 168, 240, 336]) *
                                    rng.uniform(0.6, 1.2))
                created = start_utc - lead + jitter(rng)
                if start_utc > SNAPSHOT_UTC:
                    # a booking for after the snapshot: it was made during the last weeks
                    created = SNAPSHOT_UTC - dt.timedelta(days=21 * rng.random() ** 1.5) + \
                        jitter(rng) - dt.timedelta(minutes=2)
                created = max(created, host["created"] + dt.timedelta(minutes=rng.uniform(5, 60)),
                              s["created"] + dt.timedelta(minutes=rng.uniform(5, 60)),
                              booker["created"] + dt.timedelta(minutes=rng.uniform(5, 60)))
                if created >= start_utc - dt.timedelta(minutes=10) or created > SNAPSHOT_UTC:
                    continue
                status, cancelled = None, None
                if rng.random() < 0.09:
                    hi = min(start_utc - dt.timedelta(minutes=5), SNAPSHOT_UTC)
                    if hi > created:
                        cancelled = created + (hi - created) * rng.random() ** 0.7
                        status = 2
                if status is None:
                    if end_local <= snap_local[room_loc]:
                        status = 3 if rng.random() < 0.04 else 1
                    else:
                        status = 0
                room_busy[(r["id"], day)].append((placed, placed + dur))
                host_busy[(host["id"], day)].append((placed, placed + dur))
                title = rng.choice(BOOKING_TITLES) if rng.random() < 0.7 else None
                bookings.append({"room": r, "host": host, "booker": booker, "ship": s,
                                 "title": title, "start": start_local, "end": end_local,
                                 "dur": dur, "att": att, "status": status, "created": created,
                                 "cancelled": cancelled, "credit": 0, "charge": 0})
        day += dt.timedelta(days=1)
    bookings.sort(key=lambda b: (b["created"], b["room"]["id"]))
    for i, b in enumerate(bookings, start=1):
        b["id"] = i

    # meeting-room credits: each calendar month, the host's plan covers its hours first
    used = {}
    for b in sorted(bookings, key=lambda b: (b["host"]["id"], b["start"], b["id"])):
        if b["status"] == 2:
            continue
        key = (b["host"]["id"], b["start"].year, b["start"].month)
        allowance = PLANS[b["ship"]["plan"] - 1][4] * 60
        left = max(0, allowance - used.get(key, 0))
        covered = min(left, b["dur"])
        used[key] = used.get(key, 0) + covered
        b["credit"] = covered
        b["charge"] = (b["dur"] - covered) * b["room"]["rate"] // 60

    # ------------------------------------------------------------ invoices and payments
    def account_of(m):
        return ("c", m["company"]["id"]) if m["company"] else ("m", m["id"])

    def account_method(key):
        if key[0] == "m":
            return rng.choices(["Card", "Ach"], [88, 12])[0]
        return rng.choices(["BankTransfer", "Ach", "Card"], [55, 25, 20])[0]

    company_by_id = {c["id"]: c for c in companies}
    member_by_id = {m["id"]: m for m in members}
    lines_by = {}   # (account, year, month) -> list of line dicts
    month = dt.date(2023, 1, 1)
    while (month.year, month.month) <= LAST_BILLED_MONTH:
        m_end = month_end(month)
        full = m_end.day
        for s in ships:
            if s["start"] > m_end or (s["end"] is not None and s["end"] < month):
                continue
            lo = max(s["start"], month)
            hi = m_end if s["end"] is None else min(s["end"], m_end)
            days = (hi - lo).days + 1
            price = s["rate"] * (100 - s["discount"]) / 100
            amount = int(price * days / full + 0.5)
            m = s["member"]
            desc = f"{PLANS[s['plan'] - 1][1]} \u2013 {month.strftime('%B %Y')}"
            if days < full:
                desc += f" ({days} of {full} days)"
            if m["company"]:
                desc += f" \u2013 {m['first']} {m['last']}"
            lines_by.setdefault((account_of(m), month.year, month.month), []).append(
                {"kind": "Membership", "desc": desc, "qty": 1, "unit": amount, "ship": s,
                 "booking": None, "loc": s["loc"], "order": (0, s["start"], m["id"])})
        month = add_months(month, 1)
    for b in sorted(bookings, key=lambda b: b["id"]):
        if b["charge"] == 0 or b["status"] not in (1, 3):
            continue
        if (b["start"].year, b["start"].month) > LAST_BILLED_MONTH:
            continue
        key = (account_of(b["host"]), b["start"].year, b["start"].month)
        extra = b["dur"] - b["credit"]
        desc = (f"Meeting room {b['room']['name']} \u2013 {b['start'].strftime('%Y-%m-%d')} "
                f"({hours(extra)} h beyond plan)")
        lines_by.setdefault(key, []).append(
            {"kind": "MeetingRoom", "desc": desc, "qty": 1, "unit": b["charge"], "ship": None,
             "booking": b, "loc": b["room"]["loc"], "order": (1, b["start"], b["id"])})

    invoices = []
    methods = {}
    for key in sorted(lines_by, key=lambda k: (k[1], k[2], k[0][0], k[0][1])):
        acct, year, mon = key
        lines = sorted(lines_by[key], key=lambda x: x["order"])
        if rng.random() < 0.09:
            pages = rng.randint(15, 400)
            lines.append({"kind": "Printing", "desc": f"Printing \u2013 {pages} pages", "qty": pages,
                          "unit": 10, "ship": None, "booking": None, "loc": lines[0]["loc"]})
        subtotal = sum(x["qty"] * x["unit"] for x in lines)
        if rng.random() < 0.012 and subtotal > 5000:
            credit = -max(1000, (subtotal // 10) // 100 * 100)
            lines.append({"kind": "Credit", "desc": "Service credit \u2013 " + rng.choice(
                ["Wi-Fi outage", "HVAC outage", "Room double-booked", "Goodwill"]), "qty": 1,
                "unit": credit, "ship": None, "booking": None, "loc": lines[0]["loc"]})
        period = dt.date(year, mon, 1)
        homes = [x["loc"] for x in lines if x["ship"] is not None] or [lines[0]["loc"]]
        inv = {"acct": acct, "start": period, "end": month_end(period),
               "issued": add_months(period, 1), "lines": lines, "rate": LOCATIONS[homes[0] - 1][10],
               "replaces": None, "void": None, "payments": [], "paid": None}
        invoices.append(inv)
        if acct not in methods:
            methods[acct] = account_method(acct)

    def totals(inv):
        sub = sum(x["qty"] * x["unit"] for x in inv["lines"])
        rate_bp = int(round(float(inv["rate"]) * 100))   # basis points
        tax = (sub * rate_bp + 5000) // 10000 if sub > 0 else 0
        inv["subtotal"], inv["tax"], inv["total"] = sub, tax, sub + tax

    for inv in invoices:
        totals(inv)
        terms = company_by_id[inv["acct"][1]]["terms"] if inv["acct"][0] == "c" else 14
        inv["due"] = inv["issued"] + dt.timedelta(days=terms)
        inv["terms"] = terms

    # a few invoices were voided and replaced by a corrected one
    replacements = []
    for inv in invoices:
        if inv["issued"] < dt.date(2023, 5, 1) or rng.random() > 0.012:
            continue
        void_day = inv["issued"] + dt.timedelta(days=rng.randint(1, 6))
        voided = dt.datetime.combine(void_day, dt.time(rng.randint(14, 22))) + jitter(rng)
        if voided > SNAPSHOT_UTC - dt.timedelta(days=1):
            continue
        inv["void"] = voided
        lines = [dict(x) for x in inv["lines"] if x["kind"] != "Printing"]
        fix = rng.choice(["credit", "drop"])
        rooms_lines = [x for x in lines if x["kind"] == "MeetingRoom"]
        if fix == "drop" and rooms_lines:
            lines.remove(rng.choice(rooms_lines))
        else:
            base = sum(x["qty"] * x["unit"] for x in lines)
            lines.append({"kind": "Credit", "desc": "Correction \u2013 discount not applied",
                          "qty": 1, "unit": -max(500, (base // 10) // 100 * 100), "ship": None,
                          "booking": None, "loc": lines[0]["loc"]})
        new = {"acct": inv["acct"], "start": inv["start"], "end": inv["end"], "issued": void_day,
               "lines": lines, "rate": inv["rate"], "replaces": inv, "void": None,
               "payments": [], "paid": None, "terms": inv["terms"],
               "due": void_day + dt.timedelta(days=inv["terms"])}
        totals(new)
        replacements.append(new)
    invoices.extend(replacements)
    invoices.sort(key=lambda v: (v["issued"], v["acct"][0], v["acct"][1], v["replaces"] is not None))
    seq = {}
    for i, inv in enumerate(invoices, start=1):
        inv["id"] = i
        y = inv["issued"].year
        seq[y] = seq.get(y, 0) + 1
        inv["number"] = f"NW-{y}-{seq[y]:05d}"
        inv["created"] = dt.datetime.combine(inv["issued"], dt.time(7, 0)) + \
            dt.timedelta(minutes=rng.uniform(0, 25))
        if inv["replaces"] is not None:
            inv["created"] = inv["replaces"]["void"] + dt.timedelta(minutes=rng.uniform(2, 30))

    last_issue = {}
    for inv in invoices:
        last_issue[inv["acct"]] = max(last_issue.get(inv["acct"], inv["issued"]), inv["issued"])

    def ref(method):
        if method == "Card":
            return "ch_" + "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz")
                                   for _ in range(20))
        if method == "Ach":
            return "ach_" + "".join(rng.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ")
                                    for _ in range(14))
        return f"TRF-{rng.randint(10000000, 99999999)}"

    def pay(inv, method, amount, when, status=1, reason=None):
        if when > SNAPSHOT_UTC:
            return False
        inv["payments"].append({"method": method, "amount": amount, "when": when,
                                "status": status, "reason": reason, "ref": ref(method)})
        return status == 1

    for inv in invoices:
        if inv["void"] is not None:
            continue
        method = methods[inv["acct"]]
        issued = dt.datetime.combine(inv["issued"], dt.time(9, 0)) + jitter(rng) + \
            dt.timedelta(minutes=rng.uniform(0, 90))
        if inv["replaces"] is not None:
            issued = inv["created"] + dt.timedelta(minutes=rng.uniform(10, 120))
        total = inv["total"]
        bad_debt = (inv["acct"][0] == "m" and inv["issued"] == last_issue[inv["acct"]]
                    and inv["issued"] < snap_day - dt.timedelta(days=60)
                    and member_by_id[inv["acct"][1]]["ships"]
                    and all(s["end"] is not None and s["end"] < snap_day
                            for s in member_by_id[inv["acct"][1]]["ships"])
                    and rng.random() < 0.12)
        if method == "Card":
            when = issued
            done = False
            for attempt in range(3):
                if bad_debt or rng.random() < (0.05 if attempt == 0 else 0.25):
                    pay(inv, "Card", total, when, 2, rng.choice(
                        ["card_declined", "expired_card", "insufficient_funds"]))
                    when += dt.timedelta(days=[3, 4, 7][attempt], minutes=rng.uniform(-30, 30))
                    continue
                done = pay(inv, "Card", total, when)
                if done:
                    inv["paid"] = when
                break
            if not done and not bad_debt and inv["payments"] and inv["payments"][-1]["status"] == 2:
                when = issued + dt.timedelta(days=rng.uniform(16, 30))
                if pay(inv, "Card", total, when):
                    inv["paid"] = when
        elif method == "Ach":
            start = issued + dt.timedelta(days=rng.uniform(0.5, 3))
            if inv["acct"][0] == "c":
                # teams schedule the debit a few days before the due date
                start = issued + dt.timedelta(days=max(0.5, inv["terms"] - rng.uniform(1, 6)))
            if bad_debt:
                continue
            if rng.random() < 0.025:
                if start + dt.timedelta(days=2) <= SNAPSHOT_UTC:
                    pay(inv, "Ach", total, start + dt.timedelta(days=2), 2,
                        rng.choice(["insufficient_funds", "account_closed"]))
                start += dt.timedelta(days=rng.uniform(4, 8))
            settle = start + dt.timedelta(days=2, minutes=rng.uniform(0, 300))
            if settle <= SNAPSHOT_UTC:
                pay(inv, "Ach", total, settle)
                inv["paid"] = settle
            elif start <= SNAPSHOT_UTC:
                pay(inv, "Ach", total, start, 0)
        else:
            if bad_debt:
                continue
            if rng.random() < 0.13:
                days = inv["terms"] + rng.uniform(3, 40)
            else:
                days = max(1.0, rng.gauss(inv["terms"] * 0.6, inv["terms"] * 0.25))
            when = dt.datetime.combine(inv["issued"], dt.time(15)) + \
                dt.timedelta(days=days, minutes=rng.uniform(-300, 200))
            if inv["replaces"] is not None:
                when = max(when, issued + dt.timedelta(days=1))
            if rng.random() < 0.05 and total > 20000:
                first = (total // 2) // 100 * 100
                if pay(inv, "BankTransfer", first, when - dt.timedelta(days=rng.uniform(8, 15))):
                    if pay(inv, "BankTransfer", total - first, when):
                        inv["paid"] = when
            elif pay(inv, "BankTransfer", total, when):
                inv["paid"] = when
                if rng.random() < 0.01:
                    pay(inv, "BankTransfer", total, when + dt.timedelta(days=rng.uniform(1, 4)), 3,
                        "duplicate_payment")
    payments = []
    for inv in invoices:
        for p in inv["payments"]:
            p["invoice"] = inv["id"]
            payments.append(p)
    payments.sort(key=lambda p: (p["when"], p["invoice"]))

    # ------------------------------------------------------------ support requests
    requests = []
    cats = list(SUPPORT)
    day = dt.date(2023, 8, 7)
    while day <= snap_day:
        if day.weekday() < 5:
            for loc_id, loc in enumerate(LOCATIONS, start=1):
                if not loc_open(loc_id, day):
                    continue
                actives = [s for s in ships_at[loc_id] if s["start"] <= day
                           and (s["end"] is None or day <= s["end"])]
                lam = (0.2 + 0.0028 * len(actives))
                for _ in range(poisson(rng, lam)):
                    cat = rng.choices(cats, [SUPPORT[c][0] for c in cats])[0]
                    opened_local = dt.datetime.combine(day, dt.time(rng.randint(8, 17),
                                                                    rng.randint(0, 59)))
                    opened = to_utc(loc[4], opened_local) + jitter(rng)
                    if opened > SNAPSHOT_UTC:
                        continue
                    room = None
                    live = [r for r in rooms_at[loc_id] if room_ok(r, day)]
                    if live and rng.random() < SUPPORT[cat][2]:
                        room = rng.choice(live)
                    floor = room["floor"] if room else rng.randint(1, floors_of[loc_id])
                    subject = rng.choice(SUPPORT[cat][1]).format(f=floor)
                    reporter = None
                    if actives and rng.random() < 0.72:
                        reporter = rng.choice(actives)["member"]
                        if reporter["created"] > opened:
                            reporter = None
                    pri = rng.choices([0, 1, 2, 3], [25, 50, 18, 7] if cat not in
                                      ("Access", "Wifi") else [10, 45, 30, 15])[0]
                    mean_h = {0: 150, 1: 60, 2: 20, 3: 4}[pri]
                    took = dt.timedelta(hours=max(0.3, rng.expovariate(1 / mean_h)))
                    resolved = opened + took
                    roles = ("Facilities",) if cat in ("Hvac", "Furniture", "Cleaning", "Kitchen",
                                                       "AudioVisual") else \
                        ("CommunityManager", "FrontDesk")
                    crew = [s for s in staff if s["loc"] == loc_id and s["role"] in roles
                            and s["hired"] <= day and (s["left"] is None or day < s["left"])]
                    if not crew:
                        crew = [s for s in staff if s["loc"] == loc_id and s["hired"] <= day
                                and (s["left"] is None or day < s["left"])]
                    assignee = rng.choice(crew)["id"] if crew else None
                    stale = pri <= 1 and rng.random() < 0.02
                    if resolved <= SNAPSHOT_UTC and not stale:
                        status = 3 if rng.random() < 0.08 else 2
                    else:
                        resolved = None
                        if opened + dt.timedelta(hours=1.5) < SNAPSHOT_UTC and rng.random() < 0.6:
                            status = 1
                        else:
                            status, assignee = 0, None
                    requests.append({"loc": loc_id, "room": room["id"] if room else None,
                                     "reporter": reporter["id"] if reporter else None,
                                     "assignee": assignee, "cat": cat, "pri": pri,
                                     "status": status, "subject": subject, "opened": opened,
                                     "resolved": resolved})
        day += dt.timedelta(days=1)
    requests.sort(key=lambda r: r["opened"])

    # ------------------------------------------------------------ member status, deletion
    for m in members:
        started = [s for s in m["ships"] if s["start"] <= snap_day]
        if not started:
            m["status"], m["joined"] = 0, None
            if m["ships"]:
                m["home"] = m["ships"][0]["loc"]
        else:
            m["joined"] = min(s["start"] for s in started)
            current = active_ship(m, snap_day)
            m["status"] = 1 if current is not None else 2
            m["home"] = max(started, key=lambda s: s["start"])["loc"]
        last_activity = max([m["created"]] + [p["bought"] for p in m["passes"]])
        if m["status"] == 2:
            last_end = max(s["end"] for s in m["ships"])
            if last_end < snap_day - dt.timedelta(days=90) and rng.random() < 0.08:
                when = local_at(m["home"], last_end + dt.timedelta(days=rng.randint(20, 200)),
                                rng.randint(9, 18)) + jitter(rng)
                if last_activity < when < SNAPSHOT_UTC - dt.timedelta(days=1):
                    m["deleted"] = when
        elif m["status"] == 0 and not m["ships"] and rng.random() < 0.04:
            when = last_activity + dt.timedelta(days=rng.randint(30, 300))
            if when < SNAPSHOT_UTC - dt.timedelta(days=1):
                m["deleted"] = when
    # booking and request references must not point to people deleted before them
    deleted_ids = {m["id"]: m["deleted"] for m in members if m["deleted"]}
    for r in requests:
        if r["reporter"] in deleted_ids and deleted_ids[r["reporter"]] < r["opened"]:
            r["reporter"] = None

    # ------------------------------------------------------------ companies' contacts
    company_rows = []
    for c in companies:
        ms = sorted(c["members"], key=lambda m: m["id"])
        owner = ms[0]
        x = rng.random()
        if x < 0.6:
            contact = owner
        elif x < 0.9 and len(ms) > 1:
            contact = rng.choice(ms[1:])
        else:
            contact = None
        if c["parent"] is not None:
            contact = contact if rng.random() < 0.5 else None
        c["deleted"] = int(c["end"] is not None and c["end"] < snap_day - dt.timedelta(days=180)
                           and rng.random() < 0.4)
        x = rng.random()
        billing = f"billing@{c['domain']}" if x < 0.6 else (
            f"accounts@{c['domain']}" if x < 0.75 else None)
        tax_id = f"{rng.randint(10, 99)}-{rng.randint(1000000, 9999999)}" \
            if rng.random() < 0.65 else None
        created = min(m["created"] for m in ms) - dt.timedelta(minutes=rng.uniform(1, 30))
        company_rows.append((c["id"], c["name"], c["industry"] if rng.random() < 0.9 else None,
                             tax_id, billing, c["parent"]["id"] if c["parent"] else None,
                             owner["id"], contact["id"] if contact else None, c["terms"],
                             c["deleted"], ts(created)))

    # ------------------------------------------------------------ rows
    member_rows = [(m["id"], m["first"], m["last"], m["email"], m["phone"],
                    m["company"]["id"] if m["company"] else None, m["home"], m["referrer"],
                    m["status"], d(m["joined"]) if m["joined"] else None, m["opt_in"],
                    ts(m["created"]), ts(m["deleted"]) if m["deleted"] else None)
                   for m in members]
    ship_rows = [(s["id"], s["member"]["id"], s["plan"], s["loc"], d(s["start"]),
                  d(s["end"]) if s["end"] else None, money(s["rate"]), s["discount"],
                  ts(s["notice"]) if s["notice"] else None, s["reason"], ts(s["created"]))
                 for s in ships]
    booking_rows = [(b["id"], b["room"]["id"], b["host"]["id"], b["booker"]["id"], b["title"],
                     ts(b["start"]), ts(b["end"]), b["dur"], b["att"], b["status"],
                     hours(b["credit"]), money(b["charge"]), ts(b["created"]),
                     ts(b["cancelled"]) if b["cancelled"] else None) for b in bookings]
    passes.sort(key=lambda p: (p["bought"], p["loc"]))
    pass_rows = []
    for i, p in enumerate(passes, start=1):
        m = p["member"]
        name = f"{m['first']} {m['last']}" if m else p["name"]
        email = m["email"] if m else p["email"]
        pass_rows.append((i, p["loc"], m["id"] if m else None, name, email, d(p["day"]),
                          money(p["price"]), p["source"], ts(p["bought"]),
                          ts(p["checked"]) if p["checked"] else None))
    invoice_rows, line_rows = [], []
    for inv in invoices:
        status = 3 if inv["void"] else (2 if inv["paid"] else 1)
        acct = inv["acct"]
        invoice_rows.append((inv["id"], inv["number"], acct[1] if acct[0] == "c" else None,
                             acct[1] if acct[0] == "m" else None, d(inv["start"]), d(inv["end"]),
                             d(inv["issued"]), d(inv["due"]), status, money(inv["subtotal"]),
                             money(inv["tax"]), money(inv["total"]),
                             ts(inv["paid"]) if inv["paid"] else None,
                             ts(inv["void"]) if inv["void"] else None,
                             inv["replaces"]["id"] if inv["replaces"] else None, ts(inv["created"])))
        for x in inv["lines"]:
            line_rows.append((len(line_rows) + 1, inv["id"], x["kind"], x["desc"], x["qty"],
                              money(x["unit"]), money(x["qty"] * x["unit"]),
                              x["ship"]["id"] if x["ship"] else None,
                              x["booking"]["id"] if x["booking"] else None))
    payment_rows = [(i, p["invoice"], money(p["amount"]), p["method"], p["status"], p["ref"],
                     p["reason"], ts(p["when"])) for i, p in enumerate(payments, start=1)]
    request_rows = [(i, r["loc"], r["room"], r["reporter"], r["assignee"], r["cat"], r["pri"],
                     r["status"], r["subject"], ts(r["opened"]),
                     ts(r["resolved"]) if r["resolved"] else None)
                    for i, r in enumerate(requests, start=1)]
    amenity_rows = [(i, a[0], a[1]) for i, a in enumerate(AMENITIES, start=1)]

    tables = [
        ("__EFMigrationsHistory", MIGRATIONS),
        ("Amenities", amenity_rows),
        ("Locations", location_rows),
        ("Plans", plan_rows),
        ("MeetingRooms", room_rows),
        ("AmenityMeetingRoom", amenity_links),
        ("StaffMembers", staff_rows),
        ("Companies", company_rows),
        ("Members", member_rows),
        ("Memberships", ship_rows),
        ("Bookings", booking_rows),
        ("DayPasses", pass_rows),
        ("Invoices", invoice_rows),
        ("InvoiceLines", line_rows),
        ("Payments", payment_rows),
        ("SupportRequests", request_rows),
    ]
    write_database(out, SCHEMA, tables)


if __name__ == "__main__":
    main()
