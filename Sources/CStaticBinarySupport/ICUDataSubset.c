// The ICU data the static release binary carries: a subset of the toolchain's.
//
// Foundation on Linux links ICU with all of its data, 32 MiB of the 76 MiB stripped binary:
// collation tables, legacy character-set converters, word-break dictionaries, transliterators,
// spelled-out numbers, and the names of languages, regions, currencies, units and time zones in
// some 800 locales. dbai-mcp uses none of them. Scripts/build-release writes a copy of the data
// without them (Scripts/icu_data_subset.py says what is kept) and a header naming it; this file
// then defines ICU's data symbol with that copy, so the linker never takes the full data from
// lib_FoundationICU.a. Every locale's own date and number formats, the time-zone database, the
// normalization and case data, and English display names stay.
//
// Without that header (debug builds, `swift build` by hand), this file defines nothing and the
// toolchain's full data is used.

#if defined(__linux__) && __has_include("dbai_icu_data.h")
#include "dbai_icu_data.h"  // DBAI_ICU_DATA_SYMBOL, DBAI_ICU_DATA_FILE

#define DBAI_STRING(x) #x
#define DBAI_EXPANDED_STRING(x) DBAI_STRING(x)
#define DBAI_SYMBOL DBAI_EXPANDED_STRING(DBAI_ICU_DATA_SYMBOL)

__asm__(".section .rodata.dbai_icu_data,\"a\",@progbits\n"
        ".globl " DBAI_SYMBOL "\n"
        ".type " DBAI_SYMBOL ", @object\n"
        ".balign 16\n" DBAI_SYMBOL ":\n"
        ".incbin \"" DBAI_ICU_DATA_FILE "\"\n"
        ".size " DBAI_SYMBOL ", . - " DBAI_SYMBOL "\n"
        ".previous\n");
#endif
