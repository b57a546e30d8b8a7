import SwiftDBAI

/// How an HTTP language model retries a request that failed for a transient reason.
///
/// A request is retried, at most ``maxRetries`` times, when the provider answers 429, 500, 502,
/// 503, 504 or 529 (Anthropic's "overloaded"), or when the connection could not be made or was
/// lost. Before retry *n* (0-based) it waits `baseDelay × 2ⁿ`, with jitter (half of it fixed, the
/// other half random) and never more than ``maxDelay``. When the provider says how long to wait
/// (`Retry-After: 3`), that wait is used instead, still capped at ``maxDelay``. Timeouts are not
/// retried: the caller already waited the whole timeout once.
///
/// ```swift
/// let model = try AnthropicModel.fromEnvironment(
///     model: "claude-sonnet-4-5", transport: .asyncHTTPClient,
///     retryPolicy: RetryPolicy(maxRetries: 4, maxDelay: .seconds(20)))
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The most retries after the first attempt (0 for none).
    public var maxRetries: Int
    /// The wait before the first retry; each later retry waits twice as long.
    public var baseDelay: Duration
    /// The longest wait before a retry, also the cap on a provider's `Retry-After`.
    public var maxDelay: Duration

    /// Creates a retry policy. Negative values count as zero.
    public init(maxRetries: Int = 2, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(8)) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
    }

    /// Two retries, 0.5 s then about 1 s apart, waits capped at 8 s.
    public static let standard = RetryPolicy()

    /// No retry: the first failure is the answer.
    public static let none = RetryPolicy(maxRetries: 0)

    /// The HTTP statuses that are retried.
    static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504, 529]

    /// The wait before retry number `retry` (0 for the first retry).
    ///
    /// - Parameters:
    ///   - retry: How many retries were made before this one.
    ///   - retryAfter: The wait the provider asked for, if it said one.
    ///   - jitter: A number in 0...1 that spreads the exponential waits of concurrent clients.
    func delay(beforeRetry retry: Int, retryAfter: Duration?, jitter: Double = Double.random(in: 0...1)) -> Duration {
        if let retryAfter {
            return min(max(.zero, retryAfter), maxDelay)
        }
        let exponent = min(max(0, retry), 30)
        let exponential = min(baseDelay * (1 << exponent), maxDelay)
        let clampedJitter = min(max(jitter, 0), 1)
        return exponential / 2 + (exponential / 2) * clampedJitter
    }
}
