import Foundation
import LifeSignalDomain
import Synchronization

/// What a server lets leave on paid channels, beside which channels it has: the caps, the
/// countries SMS may go to, and who is told when a message is held back.
public struct DeliveryRules: Sendable {
    public var caps = SendingCaps()
    /// Countries SMS may go to (`nil`: any, as for a server that sends no SMS).
    public var smsCountries: SMSCountries?
    /// Told of every message a cap or a country kept off a paid channel, and of every incident
    /// message sent past a spent budget (the server counts both on `/metrics` and logs the
    /// latter as a warning for the operator).
    public var observe: @Sendable (HeldMessage) -> Void = { _ in }
    /// Every held message counted by channel and reason since the server started (`/metrics`).
    public let held = HeldMessageCounts()

    public init() {}

    /// Counts `message` and tells ``observe``.
    func report(_ message: HeldMessage) {
        held.add(message)
        observe(message)
    }

    /// Whether `phone` (E.164) may receive SMS under ``smsCountries``.
    public func smsAllowed(to phone: String) -> Bool {
        guard let smsCountries else { return true }
        guard let number = try? PhoneNumber(phone) else { return false }
        return smsCountries.allows(number)
    }
}

/// Held messages by channel and reason; shared by every copy of the rules that made it.
public final class HeldMessageCounts: Sendable {
    private let counts = Mutex<[HeldMessage.Key: Int]>([:])

    public init() {}

    func add(_ message: HeldMessage) { counts.withLock { $0[message.key, default: 0] += 1 } }

    /// The counts so far.
    public func snapshot() -> [HeldMessage.Key: Int] { counts.withLock { $0 } }
}

/// A message on a paid channel that a rule held back, or let through past a spent budget.
public struct HeldMessage: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The recipient's address had its day's messages (``SendingCaps/perDestinationPerDay``).
        case destination
        /// The person who caused it had their day's messages (``SendingCaps/perSenderPerDay``).
        case sender
        /// The server's daily budget for the channel is spent.
        case budget
        /// The responder heard ``SendingCaps/alertRoundsPerHour`` rounds about this person this hour.
        case alertRounds = "alert_rounds"
        /// SMS to a country outside ``DeliveryRules/smsCountries``.
        case country
        /// Not held: an incident message sent although the budget is spent.
        case overBudget = "over_budget"
    }

    public var channel: DeliveryChannel
    public var reason: Reason
    public var kind: String

    /// What `/metrics` labels a count with.
    public struct Key: Sendable, Hashable {
        public var channel: DeliveryChannel
        public var reason: Reason

        public init(channel: DeliveryChannel, reason: Reason) {
            self.channel = channel
            self.reason = reason
        }
    }

    var key: Key { Key(channel: channel, reason: reason) }

    public init(channel: DeliveryChannel, reason: Reason, kind: String) {
        self.channel = channel
        self.reason = reason
        self.kind = kind
    }
}
