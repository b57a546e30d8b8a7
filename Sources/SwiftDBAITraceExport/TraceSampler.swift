/// Which new spans are recorded (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`): the
/// OpenTelemetry SDK's built-in samplers.
public enum TraceSampler: Sendable, Equatable {
    case alwaysOn
    case alwaysOff
    /// A share of the traces, decided by the trace id alone, so that every process keeps the
    /// same traces.
    case traceIDRatio(Double)
    /// The parent's decision when there is a parent; `root` decides for a trace that starts here.
    indirect case parentBased(root: TraceSampler)

    /// The sampler a variable names (the specification's default, `parentbased_always_on`, when
    /// unset); nil for one this tracer does not have. `argument` is the ratio of the ratio
    /// samplers (1 when missing or not a number from 0 to 1).
    public init?(name: String?, argument: String?) {
        let ratio = argument.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { (0...1).contains($0) ? $0 : nil } ?? 1
        switch name?.trimmingCharacters(in: .whitespaces).lowercased() ?? "" {
        case "always_on": self = .alwaysOn
        case "always_off": self = .alwaysOff
        case "traceidratio": self = .traceIDRatio(ratio)
        case "", "parentbased_always_on": self = .parentBased(root: .alwaysOn)
        case "parentbased_always_off": self = .parentBased(root: .alwaysOff)
        case "parentbased_traceidratio": self = .parentBased(root: .traceIDRatio(ratio))
        default: return nil
        }
    }

    /// Whether a span of the trace `traceID` whose parent is `parent` is recorded.
    func samples(traceID: (high: UInt64, low: UInt64), parent: SpanIdentity?) -> Bool {
        switch self {
        case .alwaysOn: true
        case .alwaysOff: false
        case .traceIDRatio(let ratio):
            // The low 8 bytes of the id, uniformly random, against the share of their range.
            ratio >= 1 || Double(traceID.low >> 11) < ratio * Double(UInt64(1) << 53)
        case .parentBased(let root):
            parent.map(\.isSampled) ?? root.samples(traceID: traceID, parent: nil)
        }
    }
}
