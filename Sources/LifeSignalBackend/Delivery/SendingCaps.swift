import Foundation
import LifeSignalDomain

/// The operator's bounds on what LifeSignal sends on paid channels (SMS and email), against
/// SMS pumping and spam on the operator's bill (issue 31; docs/security.md, "What leaves the
/// server"). Every count outlives the accounts that caused it (``SendCounter``), so deleting
/// an account and signing up again starts no count afresh.
///
/// - ``perDestinationPerDay``: messages one phone number or mailbox receives on one channel in
///   a day, for everything that is not an incident message (an alert to a responder who accepted
///   the role, or the person's own alert and its all-clear): invitations, pings, reminders,
///   contact changes, confirmation codes.
/// - ``perSenderPerDay``: paid messages one person causes other people to receive in a day
///   (invitations, pings, role requests…), counted by their verified phone or email.
/// - ``smsPerDay``, ``emailPerDay``: the whole server's daily budget per channel. Past it only
///   incident messages go out (the operator is warned in the log and on `/metrics`); the rest
///   stay in the app (and push), and sign-in codes are refused.
/// - ``alertRoundsPerHour``: alert rounds one responder hears about one person in an hour on
///   paid channels; later rounds reach them by push and in the app, and the person is told why.
///
/// `0` for a daily cap means nothing of that kind goes on paid channels.
public struct SendingCaps: Sendable, Hashable {
    public var perDestinationPerDay = 20
    public var perSenderPerDay = 40
    public var smsPerDay = 2_000
    public var emailPerDay = 5_000
    public var callsPerDay = 500
    public var alertRoundsPerHour = 3

    public static let day: TimeInterval = 24 * 3600
    public static let hour: TimeInterval = 3600

    public init() {}

    /// The daily budget of a paid channel (push has none).
    public func budget(of channel: DeliveryChannel) -> Int? {
        switch channel {
        case .push: nil
        case .sms: smsPerDay
        case .email: emailPerDay
        case .voice: callsPerDay
        }
    }
}

/// Whether a channel costs the operator money per message, so that what reaches it is capped.
extension DeliveryChannel {
    public var isPaid: Bool { self != .push }
}
