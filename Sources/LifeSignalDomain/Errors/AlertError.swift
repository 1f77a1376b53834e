import Foundation

/// Seed `000_…`'s `AlertError`: why raising, cancelling or reading an SOS alert failed.
///
/// Read from a ``DomainError`` with ``init(_:)`` (what LifeSignal's clients throw), or from the
/// seed's ``SupabaseError`` with ``init(_:during:)`` (the seed's tables, row for row).
public enum AlertError: DomainErrorRefining, Hashable {
    /// The caller is not signed in (HTTP 401, `unauthenticated`).
    case unauthorized
    /// The caller's own user record does not exist (`not_found` on "User …").
    case userNotFound
    /// An alert is already active for the caller, perhaps raised from another device.
    case alreadyActive
    /// There is no active alert to act on: none to cancel, or the one answered has ended.
    case notActive
    /// The backend failed while processing the request (`internal`, HTTP 5xx); try again.
    case processingFailed
    /// A refusal the seed's table has no row for (e.g. `forbidden` for a non-responder,
    /// `already_exists` for a second response), kept whole so its message reaches the person.
    case unknown(DomainError)

    /// The seed's three alert functions, each with its own status table.
    public enum Operation: String, Sendable, CaseIterable {
        /// `trigger-alert`.
        case trigger
        /// `cancel-alert`.
        case cancel
        /// `get-active-alert`.
        case getActive
    }

    /// Seed `000_…`'s `SupabaseAlertAdapter` tables, exactly:
    ///
    /// | operation | `.unauthorized` | `.notFound` | `.badRequest` | otherwise |
    /// |---|---|---|---|---|
    /// | `trigger` | ``unauthorized`` | ``userNotFound`` | ``alreadyActive`` | ``processingFailed`` |
    /// | `cancel` | ``unauthorized`` | ``notActive`` | ``processingFailed`` | ``processingFailed`` |
    /// | `getActive` | ``unauthorized`` | ``userNotFound`` | ``processingFailed`` | ``processingFailed`` |
    public init(_ error: SupabaseError, during operation: Operation) {
        switch (error, operation) {
        case (.unauthorized, _): self = .unauthorized
        case (.notFound, .trigger), (.notFound, .getActive): self = .userNotFound
        case (.notFound, .cancel): self = .notActive
        case (.badRequest, .trigger): self = .alreadyActive
        default: self = .processingFailed
        }
    }

    /// Reads a rule's failure by its code, the way the seed's tables read a status, but
    /// without needing to know which function was called, since a ``DomainError`` says more
    /// than a status:
    ///
    /// - `unauthenticated` → ``unauthorized``.
    /// - `not_found` on "User …" → ``userNotFound``; on "Active alert" (cancel with none
    ///   active) or "Alert …" (answering an alert that does not exist) → ``notActive``.
    /// - `failed_precondition` → ``alreadyActive``, unless its message says the alert is
    ///   "no longer active" (answering an ended alert) → ``notActive``. The backend raises
    ///   exactly these two alert preconditions ("An alert is already active", "The alert is
    ///   no longer active") under one code, so the message is the only thing that tells them
    ///   apart; "already active" is the default because it is the one trigger raises.
    /// - `internal` → ``processingFailed``.
    /// - Anything else → ``unknown(_:)``. In particular `invalid_argument` is *not*
    ///   ``alreadyActive``: the seed's trigger row maps any 400 there only because a status
    ///   cannot say more.
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated:
            self = .unauthorized
        case .notFound where error.isMissingUser:
            self = .userNotFound
        case .notFound(let subject) where subject == "Active alert" || subject.hasPrefix("Alert "):
            self = .notActive
        case .failedPrecondition(let why):
            self = why.localizedCaseInsensitiveContains("no longer active") ? .notActive : .alreadyActive
        case .internal:
            self = .processingFailed
        default:
            self = .unknown(error)
        }
    }
}

extension AlertError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .unauthorized: "Sign in to send or cancel an alert"
        case .userNotFound: "Your account was not found; sign in again"
        case .alreadyActive: "An alert is already active"
        case .notActive: "There is no active alert"
        case .processingFailed: "The alert could not be processed; try again"
        case .unknown(let error): error.message
        }
    }

    public var description: String { errorDescription ?? "" }
}
