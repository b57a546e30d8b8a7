import Foundation
import SwiftDBAI

extension HTTPTransportResponse {
    /// The wait the provider asked for: `retry-after-ms`, or `Retry-After` in seconds or as an
    /// HTTP date. Waits longer than a day count as a day (the retry policy caps them further).
    var retryAfter: Duration? {
        if let milliseconds = headers["retry-after-ms"].flatMap(Double.init), milliseconds >= 0 {
            return Self.clamped(milliseconds: milliseconds)
        }
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 {
            return Self.clamped(milliseconds: seconds * 1000)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return Self.clamped(milliseconds: max(0, date.timeIntervalSinceNow) * 1000)
    }

    private static let longestWaitMilliseconds: Double = 86_400_000

    private static func clamped(milliseconds: Double) -> Duration? {
        guard !milliseconds.isNaN else { return nil }
        return .milliseconds(Int64(min(milliseconds, longestWaitMilliseconds).rounded()))
    }
}
