import Foundation
import LifeSignalDomain

/// A check-in with the duress PIN: the person may be made to check in by someone beside them,
/// so it must look and sound like any other check-in to both of them, and still reach help.
///
/// What the person can see is the normal check-in's: the same answer, the same deadline, the
/// same `check_ins` row and `users` change, an active missed check-in ended the same way. What
/// differs is only what their responders receive: instead of any all-clear, every responder
/// (all tiers at once, as for an SOS) gets a warning on each channel they chose. It makes no
/// `alerts` row and no notification of the person's: both are readable by the person's own
/// session (REST, Realtime, the app), which may be in the wrong hands.
extension CheckInService {
    /// The warnings to every responder of `person`, made in the check-in's transaction.
    static func duressWarnings(for person: UserID, name: String, now: Date, in connection: any SQLConnection) async throws -> [NotificationDraft] {
        try await Incidents.allResponders(of: person, in: connection).map {
            NotificationDraft(
                recipient: $0.responder, type: .alertActivatedReceived, title: "URGENT: \(name) may be in danger",
                body: """
                    \(name) checked in at \(Incidents.clockTime(now)) with their duress PIN: someone may be making them. \
                    Call them or go to them now; do not reply by text and do not mention this message.
                    """,
                contactID: person)
        }
    }
}
