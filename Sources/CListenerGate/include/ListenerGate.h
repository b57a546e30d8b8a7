#ifndef DBAI_LISTENER_GATE_H
#define DBAI_LISTENER_GATE_H

/// Makes this process's listening TCP sockets on `port` ignore new connection attempts (their
/// SYN packets are dropped by a socket filter), while the connections already established or
/// completing their handshake go on. A client's connect retries its SYN after about a second and
/// then finds the socket closed (refused), having sent nothing.
///
/// Returns the number of sockets gated, or -1 where socket filters do not exist (not Linux).
int dbai_listener_ignore_new_connections(int port);

#endif
