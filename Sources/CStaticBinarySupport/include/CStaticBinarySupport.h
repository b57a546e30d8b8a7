// CStaticBinarySupport has no API of its own. Linked into dbai-mcp, it lets the static release
// binary (Scripts/build-release) do without libcurl (LazyLibcurl.c) and carry a subset of ICU's
// data (ICUDataSubset.c).
#ifndef C_STATIC_BINARY_SUPPORT_H
#define C_STATIC_BINARY_SUPPORT_H
#endif
