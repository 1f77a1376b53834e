import Foundation
import LifeSignalDomain
import Testing

/// The per-domain error enums of seeds `000_…` and `002_…`: every row of the seeds' tables, by
/// name, and the refusals LifeSignalBackend actually raises (copied from its source) read back
/// as the seed's cases, also after a trip over the wire (`DomainError(code:message:)`).
@Suite("Domain error enums (seeds 000, 002)")
struct DomainErrorEnumsTests {
    /// A backend refusal after the wire: what a client rebuilds from `{"code","message"}`.
    static func overWire(_ error: DomainError) -> DomainError {
        DomainError(code: error.code, message: error.message, retryAfter: error.retryAfter)
    }

    static let me = "3f2a9c1e-5b7d-4e0a-9c8b-1d2e3f4a5b6c"

    // MARK: SupabaseError (seed 000's callFunction)

    @Test("SupabaseError(status:): 2xx none, 401 unauthorized, 404 notFound, 400 badRequest, else serverError")
    func supabaseStatusTable() {
        #expect(SupabaseError(status: 200) == nil)
        #expect(SupabaseError(status: 204) == nil)
        #expect(SupabaseError(status: 299) == nil)
        #expect(SupabaseError(status: 401) == .unauthorized)
        #expect(SupabaseError(status: 404) == .notFound)
        #expect(SupabaseError(status: 400) == .badRequest)
        for status in [500, 502, 503, 504, 599] { #expect(SupabaseError(status: status) == .serverError) }
        // The seed's `default:` row takes every other status too.
        for status in [100, 301, 403, 409, 422, 429] { #expect(SupabaseError(status: status) == .serverError) }
        for notAStatus in [0, -1, 99, 600, 1000] { #expect(SupabaseError(status: notAStatus) == .invalidResponse) }
    }

    @Test("SupabaseError from a DomainError follows the status LifeSignal's server sends it with")
    func supabaseFromDomain() {
        #expect(SupabaseError(DomainError.unauthenticated) == .unauthorized)
        #expect(SupabaseError(DomainError.notFound("User \(Self.me)")) == .notFound)
        #expect(SupabaseError(DomainError.invalidPhone("12")) == .badRequest)
        #expect(SupabaseError(DomainError.invalidArgument("limit must be between 1 and 500, not 0")) == .badRequest)
        #expect(SupabaseError(DomainError.failedPrecondition("An alert is already active")) == .badRequest)
        #expect(SupabaseError(DomainError.checkInTooSoon(retryAfter: 30)) == .badRequest)
        for other: DomainError in [
            .invalidOTP, .otpExpired, .forbidden("no"), .alreadyExists("Contact x"),
            .tooManyAttempts, .rateLimited(retryAfter: 1), .internal("boom"),
        ] {
            #expect(SupabaseError(other) == .serverError, "\(other.code)")
        }
        #expect(SupabaseError(SupabaseError.badRequest as any Error) == .badRequest)
        #expect(SupabaseError.invalidResponse.description == "The server sent a reply that could not be read")
    }

    // MARK: AlertError

    @Test("AlertError: the seed's trigger-alert table")
    func alertTriggerTable() {
        #expect(AlertError(.unauthorized, during: .trigger) == .unauthorized)
        #expect(AlertError(.notFound, during: .trigger) == .userNotFound)
        #expect(AlertError(.badRequest, during: .trigger) == .alreadyActive)
        #expect(AlertError(.serverError, during: .trigger) == .processingFailed)
        #expect(AlertError(.invalidResponse, during: .trigger) == .processingFailed)
    }

    @Test("AlertError: the seed's cancel-alert table")
    func alertCancelTable() {
        #expect(AlertError(.unauthorized, during: .cancel) == .unauthorized)
        #expect(AlertError(.notFound, during: .cancel) == .notActive)
        #expect(AlertError(.badRequest, during: .cancel) == .processingFailed)
        #expect(AlertError(.serverError, during: .cancel) == .processingFailed)
        #expect(AlertError(.invalidResponse, during: .cancel) == .processingFailed)
    }

    @Test("AlertError: the seed's get-active-alert table")
    func alertGetActiveTable() {
        #expect(AlertError(.unauthorized, during: .getActive) == .unauthorized)
        #expect(AlertError(.notFound, during: .getActive) == .userNotFound)
        #expect(AlertError(.badRequest, during: .getActive) == .processingFailed)
        #expect(AlertError(.serverError, during: .getActive) == .processingFailed)
        #expect(AlertError(.invalidResponse, during: .getActive) == .processingFailed)
    }

    @Test("AlertError from AlertService's refusals, before and after the wire")
    func alertFromBackend() {
        // Sources/LifeSignalBackend/Alerts/AlertService.swift and Core/Caller.swift.
        let cases: [(DomainError, AlertError)] = [
            (.unauthenticated, .unauthorized),
            (.notFound("User \(Self.me)"), .userNotFound),
            (.failedPrecondition("An alert is already active"), .alreadyActive),
            (.notFound("Active alert"), .notActive),
            (.notFound("Alert \(UUID().uuidString)"), .notActive),
            (.failedPrecondition("The alert is no longer active"), .notActive),
            (.internal("INSERT returned no row"), .processingFailed),
            (
                .forbidden("Only a responder of this person may see their alerts"),
                .unknown(.forbidden("Only a responder of this person may see their alerts"))
            ),
            (.alreadyExists("Your response to this alert"), .unknown(.alreadyExists("Your response to this alert"))),
        ]
        for (refusal, expected) in cases {
            #expect(AlertError(refusal) == expected, "\(refusal)")
            #expect(AlertError(Self.overWire(refusal)) == expected, "\(refusal) over the wire")
            #expect(AlertError(refusal as any Error) == expected, "\(refusal) as any Error")
        }
        // A 400 that is not a precondition is not "already active", whatever the status says.
        #expect(AlertError(DomainError.invalidArgument("bad")) == .unknown(.invalidArgument("bad")))
        #expect(AlertError(DomainError.notFound("The record")) == .unknown(.notFound("The record")))
    }

    @Test("AlertError reads itself, and foreign errors as internal failures; descriptions are sentences")
    func alertAnyError() {
        struct Odd: Error {}
        #expect(AlertError(AlertError.notActive as any Error) == .notActive)
        #expect(AlertError(Odd() as any Error) == .processingFailed)
        #expect(AlertError.alreadyActive.localizedDescription == "An alert is already active")
        #expect(AlertError.notActive.description == "There is no active alert")
        #expect(AlertError.unknown(.forbidden("Only a responder may")).description == "Only a responder may")
    }

    // MARK: NotificationError

    @Test("NotificationError: the seed's sendPushNotification table")
    func notificationTable() {
        #expect(NotificationError(SupabaseError.unauthorized) == .unauthorized)
        #expect(NotificationError(SupabaseError.notFound) == .userNotFound)
        #expect(NotificationError(SupabaseError.badRequest) == .invalidInput)
        #expect(NotificationError(SupabaseError.serverError) == .sendFailed)
        #expect(NotificationError(SupabaseError.invalidResponse) == .sendFailed)
    }

    @Test("NotificationError from NotificationService's refusals, before and after the wire")
    func notificationFromBackend() {
        // Sources/LifeSignalBackend/Notifications/NotificationService.swift.
        let tooLong = DomainError.invalidArgument("A push has a title of 1 to 120 characters and a body of at most 1000")
        let cases: [(DomainError, NotificationError)] = [
            (.unauthenticated, .unauthorized),
            (.notFound("User \(Self.me)"), .userNotFound),
            (tooLong, .invalidInput),
            (.invalidArgument("A push token is 1 to 4096 characters"), .invalidInput),
            (.internal("notification was not stored"), .sendFailed),
            (.forbidden("You can only notify your contacts"), .unknown(.forbidden("You can only notify your contacts"))),
            (.notFound("Notification"), .unknown(.notFound("Notification"))),
        ]
        for (refusal, expected) in cases {
            #expect(NotificationError(refusal) == expected, "\(refusal)")
            #expect(NotificationError(Self.overWire(refusal)) == expected, "\(refusal) over the wire")
        }
        #expect(
            NotificationError.unknown(.forbidden("You can only notify your contacts")).description
                == "You can only notify your contacts")
        #expect(NotificationError.sendFailed.localizedDescription == "The notification could not be sent; try again")
    }

    // MARK: ContactError

    @Test("ContactError: the seed's invite-contact table")
    func contactInviteTable() {
        #expect(ContactError(.unauthorized, during: .invite) == .unauthorized)
        #expect(ContactError(.notFound, during: .invite) == .userNotFound)
        #expect(ContactError(.badRequest, during: .invite) == .invalidPhone)
        #expect(ContactError(.serverError, during: .invite) == .processingFailed)
        #expect(ContactError(.invalidResponse, during: .invite) == .processingFailed)
    }

    @Test("ContactError: the seed's accept-invitation table")
    func contactAcceptTable() {
        #expect(ContactError(.unauthorized, during: .acceptInvitation) == .unauthorized)
        #expect(ContactError(.notFound, during: .acceptInvitation) == .invitationNotFound)
        #expect(ContactError(.badRequest, during: .acceptInvitation) == .processingFailed)
        #expect(ContactError(.serverError, during: .acceptInvitation) == .processingFailed)
        #expect(ContactError(.invalidResponse, during: .acceptInvitation) == .processingFailed)
    }

    @Test("ContactError: the seed's remove-contact table")
    func contactRemoveTable() {
        #expect(ContactError(.unauthorized, during: .remove) == .unauthorized)
        #expect(ContactError(.notFound, during: .remove) == .contactNotFound)
        #expect(ContactError(.badRequest, during: .remove) == .processingFailed)
        #expect(ContactError(.serverError, during: .remove) == .processingFailed)
        #expect(ContactError(.invalidResponse, during: .remove) == .processingFailed)
    }

    @Test("ContactError: the seed's get-contacts table")
    func contactGetContactsTable() {
        #expect(ContactError(.unauthorized, during: .getContacts) == .unauthorized)
        #expect(ContactError(.notFound, during: .getContacts) == .userNotFound)
        #expect(ContactError(.badRequest, during: .getContacts) == .processingFailed)
        #expect(ContactError(.serverError, during: .getContacts) == .processingFailed)
        #expect(ContactError(.invalidResponse, during: .getContacts) == .processingFailed)
    }

    @Test("ContactError from ContactsService's refusals, before and after the wire")
    func contactFromBackend() {
        // Sources/LifeSignalBackend/Contacts/*.swift and Domain/Identity/PhoneNumber.swift.
        let invitation = UUID().uuidString
        let cases: [(DomainError, ContactError)] = [
            (.unauthenticated, .unauthorized),
            (.invalidPhone("555"), .invalidPhone),
            (.notFound("User \(Self.me)"), .userNotFound),
            (.notFound("Invitation \(invitation)"), .invitationNotFound),
            (.notFound("Contact \(Self.me)"), .contactNotFound),
            (.alreadyExists("A pending invitation to +15550001111"), .alreadyInvited),
            (.internal("INSERT returned no row"), .processingFailed),
            (.alreadyExists("Contact +15550001111"), .unknown(.alreadyExists("Contact +15550001111"))),
            (.invalidArgument("You cannot invite yourself"), .unknown(.invalidArgument("You cannot invite yourself"))),
            (.notFound("QR code"), .unknown(.notFound("QR code"))),
            (
                .forbidden("This invitation was sent to another phone number"),
                .unknown(.forbidden("This invitation was sent to another phone number"))
            ),
            (
                .failedPrecondition("The invitation was already accepted"),
                .unknown(.failedPrecondition("The invitation was already accepted"))
            ),
        ]
        for (refusal, expected) in cases {
            #expect(ContactError(refusal) == expected, "\(refusal)")
            #expect(ContactError(Self.overWire(refusal)) == expected, "\(refusal) over the wire")
        }
        #expect(ContactError.alreadyInvited.localizedDescription == "You have already invited this number")
        #expect(ContactError.unknown(.notFound("QR code")).description == "QR code was not found")
    }

    // MARK: AuthenticationError (seed 002's AuthError)

    @Test("AuthenticationError: the seed's two cases, and the phone sign-in refusals by code")
    func authentication() {
        let cases: [(DomainError, AuthenticationError)] = [
            (.unauthenticated, .notAuthenticated),
            (.notFound("Refresh token"), .notAuthenticated),
            (.invalidPhone("+1"), .invalidPhone("+1")),
            (.invalidOTP, .invalidCode),
            (.otpExpired, .codeExpired),
            (.tooManyAttempts, .tooManyAttempts),
            (.internal("account was not created"), .unknown("Internal error: account was not created")),
            (
                .forbidden("Refresh token already used; the session was revoked"),
                .unknown("Refresh token already used; the session was revoked")
            ),
        ]
        for (refusal, expected) in cases {
            #expect(AuthenticationError(refusal) == expected, "\(refusal)")
        }
        for (refusal, expected) in cases {
            #expect(AuthenticationError(Self.overWire(refusal)) == expected, "\(refusal) over the wire")
        }
        if case .invalidPhone = AuthenticationError(Self.overWire(.invalidPhone("+1"))) {
        } else {
            Issue.record("invalid_phone over the wire is not invalidPhone")
        }
        #expect(AuthenticationError.unknown("User is nil after sign in").description == "User is nil after sign in")
        #expect(AuthenticationError.notAuthenticated.localizedDescription == "Sign in first")
    }

    // MARK: DocumentStorageError (seed 002's StorageError)

    @Test("DocumentStorageError: the seed's Firestore table")
    func storageFirestoreTable() {
        #expect(DocumentStorageError(firestoreCode: 5, message: "m") == .documentNotFound)
        #expect(DocumentStorageError(firestoreCode: 7, message: "m") == .permissionDenied)
        #expect(DocumentStorageError(firestoreCode: 14, message: "m") == .networkError)
        #expect(DocumentStorageError(firestoreCode: 3, message: "m") == .invalidData)
        for other in [0, 1, 2, 4, 6, 8, 9, 10, 11, 12, 13, 15, 16] {
            #expect(DocumentStorageError(firestoreCode: other, message: "code \(other)") == .unknown("code \(other)"))
        }
    }

    @Test("DocumentStorageError from domain errors, including the adapters' transport failures")
    func storageFromDomain() {
        let cases: [(DomainError, DocumentStorageError)] = [
            (.notFound("File"), .documentNotFound),
            (.notFound("Contact \(Self.me)"), .documentNotFound),
            (.forbidden("new row violates row-level security policy"), .permissionDenied),
            (.unauthenticated, .permissionDenied),
            (.invalidArgument("limit must be between 1 and 1000, not 0"), .invalidData),
            (.internal("Could not reach Firebase: timed out"), .networkError),
            (.internal("Firebase did not answer within 30s; try again"), .networkError),
            (.internal("Network or decoding failure: x"), .unknown("Internal error: Network or decoding failure: x")),
            (.alreadyExists("Contact x"), .unknown("Contact x already exists")),
        ]
        for (refusal, expected) in cases {
            #expect(DocumentStorageError(refusal) == expected, "\(refusal)")
        }
        #expect(DocumentStorageError.documentNotFound.description == "The record was not found")
    }
}
