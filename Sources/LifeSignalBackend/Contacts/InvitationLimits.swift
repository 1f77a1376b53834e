import Foundation

/// Bounds on invitations by phone, against using `invite-contact` as an SMS cannon: an
/// invitation to a number with no account is a paid SMS to a stranger, chosen by the caller.
///
/// - ``invitationsPerInviterPerDay``: invitations one person may send in 24 hours. It counts
///   every invitation, whether or not it became an SMS, so being refused never tells the
///   inviter whether a number has an account. Past it, `invite-contact` is refused with
///   `rate_limited` (429) and a `Retry-After` of when the oldest counted invitation leaves the
///   window; nothing is written.
/// - ``smsPerNumberPerDay``: invitation SMS one number receives in 24 hours, from everyone
///   together. Past it the invitation is still made (it waits for the number to sign in, as
///   before SMS) but no SMS goes, silently: refusing would tell one inviter that others had
///   invited that number.
public struct InvitationLimits: Sendable, Hashable {
    public var invitationsPerInviterPerDay = 20
    public var smsPerNumberPerDay = 3

    /// The window both counts use.
    public static let window: TimeInterval = 24 * 3600

    public init(invitationsPerInviterPerDay: Int = 20, smsPerNumberPerDay: Int = 3) {
        self.invitationsPerInviterPerDay = invitationsPerInviterPerDay
        self.smsPerNumberPerDay = smsPerNumberPerDay
    }
}
