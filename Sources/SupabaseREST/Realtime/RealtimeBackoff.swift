import Foundation

/// How long the Realtime client waits before each reconnection attempt.
///
/// The delay doubles from ``initial`` up to ``maximum`` and is spread by ±``jitter``, so
/// that many clients dropped together (a server restart) do not reconnect in lock step.
/// A successful connection resets the sequence.
public struct RealtimeBackoff: Sendable, Equatable {
    /// The delay before the first reconnection attempt.
    public var initial: Duration
    /// The cap on the delay, jitter included.
    public var maximum: Duration
    /// The factor applied on every further attempt.
    public var multiplier: Double
    /// The random spread, as a fraction of the delay (0.25 = ±25 %).
    public var jitter: Double

    /// Creates a policy.
    public init(
        initial: Duration = .seconds(1),
        maximum: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Double = 0.25
    ) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.multiplier = max(multiplier, 1)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// 1 s doubling up to 30 s, ±25 % (the policy supabase-swift uses for its retries).
    public static var `default`: RealtimeBackoff { RealtimeBackoff() }

    /// The delay before reconnection attempt `attempt` (1-based).
    public func delay(forAttempt attempt: Int) -> Duration {
        delay(forAttempt: attempt, spread: jitter > 0 ? Double.random(in: -1...1) : 0)
    }

    /// The delay with a given position in the jitter range (`spread` in -1…1), for tests.
    func delay(forAttempt attempt: Int, spread: Double) -> Duration {
        let exponent = Double(min(max(attempt - 1, 0), 60))
        let raw = initial.timeInterval * pow(multiplier, exponent)
        let capped = min(raw, maximum.timeInterval)
        let spreadOut = capped * (1 + jitter * min(max(spread, -1), 1))
        let seconds = min(max(spreadOut, 0), maximum.timeInterval)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
