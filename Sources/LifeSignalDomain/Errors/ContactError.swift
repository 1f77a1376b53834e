import Foundation

/// Seed `000_…`'s `ContactError`: why inviting, accepting, removing or listing contacts failed.
///
/// Read from a ``DomainError`` with ``init(_:)`` (what LifeSignal's clients throw), or from the
/// seed's ``SupabaseError`` with ``init(_:during:)`` (the seed's tables, row for row). The
/// seed's hand-written `==` (every `unknown` equal) is replaced by synthesised equality, since
/// ``unknown(_:)`` now carries an `Equatable` ``DomainError``.
public enum ContactError: DomainErrorRefining, Hashable {
    /// The caller is not signed in (HTTP 401, `unauthenticated`).
    case unauthorized
    /// The caller's own user record does not exist (`not_found` on "User …").
    case userNotFound
    /// The number is not a phone number (`invalid_phone`).
    case invalidPhone
    /// A pending invitation to that number already exists (`already_exists` on "A pending
    /// invitation to …").
    case alreadyInvited
    /// No such invitation, or not one waiting for the caller (`not_found` on "Invitation …").
    case invitationNotFound
    /// The person is not one of the caller's contacts (`not_found` on "Contact …").
    case contactNotFound
    /// The backend failed while processing the request (`internal`, HTTP 5xx); try again.
    case processingFailed
    /// A refusal the seed's table has no row for (e.g. "You cannot invite yourself", an
    /// invitation already accepted, an unknown QR code), kept whole so its message reaches the
    /// person.
    case unknown(DomainError)

    /// The seed's four contact functions, each with its own status table.
    public enum Operation: String, Sendable, CaseIterable {
        /// `invite-contact`.
        case invite
        /// `accept-invitation`.
        case acceptInvitation
        /// `remove-contact`.
        case remove
        /// `get-contacts`.
        case getContacts
    }

    /// Seed `000_…`'s `SupabaseContactAdapter` tables, exactly:
    ///
    /// | operation | `.unauthorized` | `.notFound` | `.badRequest` | otherwise |
    /// |---|---|---|---|---|
    /// | `invite` | ``unauthorized`` | ``userNotFound`` | ``invalidPhone`` | ``processingFailed`` |
    /// | `acceptInvitation` | ``unauthorized`` | ``invitationNotFound`` | ``processingFailed`` | ``processingFailed`` |
    /// | `remove` | ``unauthorized`` | ``contactNotFound`` | ``processingFailed`` | ``processingFailed`` |
    /// | `getContacts` | ``unauthorized`` | ``userNotFound`` | ``processingFailed`` | ``processingFailed`` |
    ///
    /// No row of the seed yields ``alreadyInvited``; only ``init(_:)`` does.
    public init(_ error: SupabaseError, during operation: Operation) {
        switch (error, operation) {
        case (.unauthorized, _): self = .unauthorized
        case (.notFound, .invite), (.notFound, .getContacts): self = .userNotFound
        case (.notFound, .acceptInvitation): self = .invitationNotFound
        case (.notFound, .remove): self = .contactNotFound
        case (.badRequest, .invite): self = .invalidPhone
        default: self = .processingFailed
        }
    }

    /// Reads a rule's failure by its code and, for not-found and already-exists, by the
    /// subject the backend names first (see `DomainError.missingSubject`):
    ///
    /// - `unauthenticated` → ``unauthorized``.
    /// - `invalid_phone` → ``invalidPhone``. (`invalid_argument`, e.g. "You cannot invite
    ///   yourself", is *not*: the seed's invite row maps any 400 there only because a status
    ///   cannot say more; it is ``unknown(_:)``.)
    /// - `not_found` on "User …" → ``userNotFound``, on "Invitation …" →
    ///   ``invitationNotFound``, on "Contact …" → ``contactNotFound``.
    /// - `already_exists` on "A pending invitation …" → ``alreadyInvited`` (inviting someone
    ///   who is already a contact, "Contact …", is ``unknown(_:)``).
    /// - `internal` → ``processingFailed``.
    /// - Anything else → ``unknown(_:)``.
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated: self = .unauthorized
        case .invalidPhone: self = .invalidPhone
        case .notFound where error.isMissingUser: self = .userNotFound
        case .notFound(let subject) where subject.hasPrefix("Invitation "): self = .invitationNotFound
        case .notFound(let subject) where subject.hasPrefix("Contact "): self = .contactNotFound
        case .alreadyExists(let subject) where subject.hasPrefix("A pending invitation"): self = .alreadyInvited
        case .internal: self = .processingFailed
        default: self = .unknown(error)
        }
    }
}

extension ContactError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .unauthorized: "Sign in to manage your contacts"
        case .userNotFound: "Your account was not found; sign in again"
        case .invalidPhone: "That is not a phone number in international form (+ and 7 to 15 digits)"
        case .alreadyInvited: "You have already invited this number"
        case .invitationNotFound: "The invitation was not found"
        case .contactNotFound: "This person is not one of your contacts"
        case .processingFailed: "The contact change could not be processed; try again"
        case .unknown(let error): error.message
        }
    }

    public var description: String { errorDescription ?? "" }
}
