import Foundation

/// Bounds on what signing in may cost the server: CPU for password hashing and money for SMS.
///
/// The limits on guessing (wrong passwords per identifier, wrong codes per code, one pending
/// code per minute) are fixed rules of ``AuthService``; these are the operator's to tune.
/// Limits per client address apply to requests that carry one (the server passes the address
/// it resolved); in-process callers have none.
public struct SignInLimits: Sendable, Equatable {
    /// Password hashes computed at once, off Swift's cooperative pool. Default: one per core.
    public var passwordHashConcurrency: Int
    /// Hashes that may wait for a turn; past that a request is refused with 429 and
    /// `Retry-After: 1`. Default: 64.
    public var passwordHashWaiting: Int
    /// Sign-in codes sent to one number in a day (a window that starts with the first code).
    /// Default: 10.
    public var codesPerNumberPerDay: Int
    /// Sign-in codes sent at the request of one client address in an hour. Default: 20.
    public var codesPerAddressPerHour: Int
    /// Sign-in codes one client address may have sent to one number in a day: a stranger
    /// asking for someone's codes uses up this, not the number's own day (the owner, asking from
    /// another address, still gets codes). Default: 3.
    public var codesPerNumberPerAddressPerDay: Int

    public static let codeNumberWindow: TimeInterval = 24 * 60 * 60
    public static let codeAddressWindow: TimeInterval = 60 * 60

    public init(
        passwordHashConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        passwordHashWaiting: Int = 64,
        codesPerNumberPerDay: Int = 10,
        codesPerAddressPerHour: Int = 20,
        codesPerNumberPerAddressPerDay: Int = 3
    ) {
        self.codesPerNumberPerAddressPerDay = codesPerNumberPerAddressPerDay
        self.passwordHashConcurrency = passwordHashConcurrency
        self.passwordHashWaiting = passwordHashWaiting
        self.codesPerNumberPerDay = codesPerNumberPerDay
        self.codesPerAddressPerHour = codesPerAddressPerHour
    }
}
