// Loads libcurl when it is first used, instead of when dbai-mcp starts.
//
// The MCP SDK imports FoundationNetworking (for its HTTP client transport and OAuth), so
// linking the Swift runtime statically pulls in FoundationNetworking, which calls libcurl.
// dbai-mcp never uses URLSession: its language models speak HTTP through AsyncHTTPClient. This
// file defines each libcurl function FoundationNetworking references, and Scripts/build-release
// lets `-lcurl` resolve to an empty archive, so the binary does not list libcurl.so.4 as a
// dependency and starts on a machine without it. If anything ever does call into libcurl, the first call opens
// libcurl.so.4 with dlopen and forwards to it; where libcurl is not installed, the process
// stops with a message that says so.
//
// Compiled only when DBAI_LAZY_LIBCURL is defined (Linux release builds, see Package.swift).
// The variadic setters and getters forward their one argument as a pointer-sized integer,
// which is how every libcurl option and info value is passed on LP64 Linux.

#if defined(__linux__) && defined(DBAI_LAZY_LIBCURL)

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void *libcurl_handle;
static pthread_once_t libcurl_once = PTHREAD_ONCE_INIT;

static void open_libcurl(void) {
    libcurl_handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (libcurl_handle == NULL) {
        libcurl_handle = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    }
}

/// The address of `name` in libcurl; stops the process when libcurl or the function is missing.
static void *libcurl_function(const char *name) {
    pthread_once(&libcurl_once, open_libcurl);
    void *function = libcurl_handle != NULL ? dlsym(libcurl_handle, name) : NULL;
    if (function == NULL) {
        fprintf(stderr,
                "dbai-mcp: %s from libcurl is needed (URLSession was used) but libcurl.so.4 could not be "
                "loaded: %s. Install libcurl (Debian, Ubuntu: apt-get install libcurl4).\n",
                name, libcurl_handle == NULL ? "it is not installed" : "the function is missing");
        abort();
    }
    return function;
}

// Declares `cached_NAME` and resolves it once; the pointer is stored atomically.
#define LIBCURL_FUNCTION(type, name)                                                   \
    static __typeof__((type)0) cached_##name;                                          \
    __typeof__((type)0) name##_function = __atomic_load_n(&cached_##name, __ATOMIC_ACQUIRE); \
    if (name##_function == NULL) {                                                     \
        name##_function = (type)libcurl_function(#name);                              \
        __atomic_store_n(&cached_##name, name##_function, __ATOMIC_RELEASE);           \
    }

typedef struct curl_slist curl_slist;

int curl_global_init(long flags) {
    LIBCURL_FUNCTION(int (*)(long), curl_global_init)
    return curl_global_init_function(flags);
}

char *curl_version(void) {
    LIBCURL_FUNCTION(char *(*)(void), curl_version)
    return curl_version_function();
}

void *curl_version_info(int age) {
    LIBCURL_FUNCTION(void *(*)(int), curl_version_info)
    return curl_version_info_function(age);
}

void curl_free(void *pointer) {
    LIBCURL_FUNCTION(void (*)(void *), curl_free)
    curl_free_function(pointer);
}

curl_slist *curl_slist_append(curl_slist *list, const char *string) {
    LIBCURL_FUNCTION(curl_slist *(*)(curl_slist *, const char *), curl_slist_append)
    return curl_slist_append_function(list, string);
}

void curl_slist_free_all(curl_slist *list) {
    LIBCURL_FUNCTION(void (*)(curl_slist *), curl_slist_free_all)
    curl_slist_free_all_function(list);
}

void *curl_easy_init(void) {
    LIBCURL_FUNCTION(void *(*)(void), curl_easy_init)
    return curl_easy_init_function();
}

void curl_easy_cleanup(void *easy) {
    LIBCURL_FUNCTION(void (*)(void *), curl_easy_cleanup)
    curl_easy_cleanup_function(easy);
}

int curl_easy_setopt(void *easy, int option, ...) {
    LIBCURL_FUNCTION(int (*)(void *, int, ...), curl_easy_setopt)
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return curl_easy_setopt_function(easy, option, value);
}

int curl_easy_getinfo(void *easy, int info, ...) {
    LIBCURL_FUNCTION(int (*)(void *, int, ...), curl_easy_getinfo)
    va_list arguments;
    va_start(arguments, info);
    void *destination = va_arg(arguments, void *);
    va_end(arguments);
    return curl_easy_getinfo_function(easy, info, destination);
}

int curl_easy_pause(void *easy, int bitmask) {
    LIBCURL_FUNCTION(int (*)(void *, int), curl_easy_pause)
    return curl_easy_pause_function(easy, bitmask);
}

const char *curl_easy_strerror(int code) {
    LIBCURL_FUNCTION(const char *(*)(int), curl_easy_strerror)
    return curl_easy_strerror_function(code);
}

void *curl_multi_init(void) {
    LIBCURL_FUNCTION(void *(*)(void), curl_multi_init)
    return curl_multi_init_function();
}

int curl_multi_cleanup(void *multi) {
    LIBCURL_FUNCTION(int (*)(void *), curl_multi_cleanup)
    return curl_multi_cleanup_function(multi);
}

int curl_multi_add_handle(void *multi, void *easy) {
    LIBCURL_FUNCTION(int (*)(void *, void *), curl_multi_add_handle)
    return curl_multi_add_handle_function(multi, easy);
}

int curl_multi_remove_handle(void *multi, void *easy) {
    LIBCURL_FUNCTION(int (*)(void *, void *), curl_multi_remove_handle)
    return curl_multi_remove_handle_function(multi, easy);
}

int curl_multi_assign(void *multi, int socket, void *pointer) {
    LIBCURL_FUNCTION(int (*)(void *, int, void *), curl_multi_assign)
    return curl_multi_assign_function(multi, socket, pointer);
}

void *curl_multi_info_read(void *multi, int *messagesLeft) {
    LIBCURL_FUNCTION(void *(*)(void *, int *), curl_multi_info_read)
    return curl_multi_info_read_function(multi, messagesLeft);
}

int curl_multi_setopt(void *multi, int option, ...) {
    LIBCURL_FUNCTION(int (*)(void *, int, ...), curl_multi_setopt)
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return curl_multi_setopt_function(multi, option, value);
}

int curl_multi_socket_action(void *multi, int socket, int events, int *runningHandles) {
    LIBCURL_FUNCTION(int (*)(void *, int, int, int *), curl_multi_socket_action)
    return curl_multi_socket_action_function(multi, socket, events, runningHandles);
}

void *curl_url(void) {
    LIBCURL_FUNCTION(void *(*)(void), curl_url)
    return curl_url_function();
}

int curl_url_get(void *url, int part, char **text, unsigned int flags) {
    LIBCURL_FUNCTION(int (*)(void *, int, char **, unsigned int), curl_url_get)
    return curl_url_get_function(url, part, text, flags);
}

int curl_url_set(void *url, int part, const char *text, unsigned int flags) {
    LIBCURL_FUNCTION(int (*)(void *, int, const char *, unsigned int), curl_url_set)
    return curl_url_set_function(url, part, text, flags);
}

#endif
