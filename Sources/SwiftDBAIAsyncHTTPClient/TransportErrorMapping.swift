import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SwiftDBAI
import SwiftDBAIChat

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what AsyncHTTPClient and NIO throw into an ``HTTPTransportError`` code.
enum TransportErrorMapping {
    static func error(for error: any Error) -> HTTPTransportError {
        // AsyncHTTPClient's own errors may carry request data (header values, which hold API
        // keys); their short description never does.
        let detail = (error as? HTTPClientError)?.shortDescription ?? String(describing: error)
        return HTTPTransportError(code(for: error), detail)
    }

    private static func code(for error: any Error) -> HTTPTransportError.Code {
        switch error {
        case let error as HTTPClientError:
            return code(for: error)
        case let error as NIOConnectionError:
            if error.connectionErrors.contains(where: { isRefusal($0.error) }) {
                return .connectionRefused
            }
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return .hostNotFound
            }
            return .other
        case let error as IOError:
            return isRefusal(error) ? .connectionRefused : (isReset(error) ? .connectionLost : .other)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return .tlsFailure
        case is HTTPParserError:
            return .invalidResponse
        case is NIOTooManyBytesError:
            return .responseTooLarge
        case let error as ChannelError:
            if case .connectTimeout = error { return .timedOut }
            return .connectionLost
        case is CancellationError:
            return .cancelled
        default:
            return .other
        }
    }

    private static func code(for error: HTTPClientError) -> HTTPTransportError.Code {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout:
            return .timedOut
        case .cancelled:
            return .cancelled
        case .remoteConnectionClosed:
            return .connectionLost
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL
        case .contentLengthMissing, .bodyLengthMismatch, .httpEndReceivedAfterHeadWith1xx:
            return .invalidResponse
        default:
            return error.shortDescription == "Unsupported scheme" ? .invalidURL : .other
        }
    }

    private static func isRefusal(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == ECONNREFUSED
    }

    private static func isReset(_ error: IOError) -> Bool {
        [ECONNRESET, EPIPE, ECONNABORTED].contains(error.errnoCode)
    }
}
