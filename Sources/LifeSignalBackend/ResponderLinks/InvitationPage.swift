import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// What the page behind an invitation SMS link shows: who invited (first name only: the
/// invitee may not know the inviter's number is theirs yet) and what they are asked to be.
/// Accepting happens in the app, after signing in with the invited number, which is what
/// proves the invitation is theirs.
public struct InvitationPage: Sendable, Equatable {
    public var inviterFirstName: String
    /// The invitee will look out for the inviter.
    public var asResponder: Bool
    /// The inviter will look out for the invitee.
    public var asDependent: Bool
}

extension LifeSignalBackend {
    /// The page for a verified invitation link while the invitation is pending; `nil` once it
    /// was answered or withdrawn (the page then shows nothing).
    public func invitationPage(for link: InvitationLink) async throws -> InvitationPage? {
        try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    """
                    SELECT i.status, i.is_responder, i.is_dependent, u.first_name
                    FROM contact_invitations i JOIN users u ON u.id = i.inviter_id WHERE i.id = \(link.invitationID)
                    """), try row.string("status") == "pending"
            else { return nil }
            let first = (row.optionalString("first_name") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return InvitationPage(
                inviterFirstName: first.isEmpty ? "Someone" : first,
                asResponder: try row.bool("is_responder"), asDependent: try row.bool("is_dependent"))
        }
    }
}
