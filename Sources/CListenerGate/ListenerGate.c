#include "ListenerGate.h"

#if defined(__linux__)
#include <arpa/inet.h>
#include <dirent.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/// The port of a listening socket, or -1 for any other descriptor.
static int listening_port(int descriptor) {
    int accepting = 0;
    socklen_t length = sizeof(accepting);
    if (getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) != 0 || !accepting) return -1;
    struct sockaddr_storage address;
    socklen_t size = sizeof(address);
    if (getsockname(descriptor, (struct sockaddr *)&address, &size) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}

int dbai_listener_ignore_new_connections(int port) {
    // Classic BPF over the TCP header (a socket filter on a TCP socket sees the segment from
    // its TCP header): drop a segment whose flags have SYN without ACK (a new connection's first
    // packet), keep every other one. Connections accepted later inherit the filter, harmlessly.
    static struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0),
        BPF_STMT(BPF_RET | BPF_K, 0xFFFFFFFF),
    };
    struct sock_fprog program = {.len = sizeof(code) / sizeof(code[0]), .filter = code};
    DIR *descriptors = opendir("/proc/self/fd");
    if (descriptors == NULL) return 0;
    int gated = 0;
    struct dirent *entry;
    while ((entry = readdir(descriptors)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        int descriptor = atoi(entry->d_name);
        if (descriptor == dirfd(descriptors) || listening_port(descriptor) != port) continue;
        if (setsockopt(descriptor, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof(program)) == 0) gated += 1;
    }
    closedir(descriptors);
    return gated;
}

#else

int dbai_listener_ignore_new_connections(int port) {
    (void)port;
    return -1;
}

#endif
