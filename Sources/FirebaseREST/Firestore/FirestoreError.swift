import Foundation

/// An error Firestore answered with: `{"error":{"code":404,"message":"…","status":"NOT_FOUND"}}`.
///
/// ``status`` is what callers branch on — ``FirebaseRPCStatus/notFound`` for a missing
/// document, ``FirebaseRPCStatus/failedPrecondition`` for a failed `currentDocument`
/// precondition or a query that needs an index (the message then holds the console link to
/// create it), ``FirebaseRPCStatus/alreadyExists`` for a create over an existing id.
public struct FirestoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The canonical status (taken from the HTTP status when the body has none).
    public var status: FirebaseRPCStatus
    /// The server's message, or the raw body when it was not the JSON envelope.
    public var message: String
    /// The HTTP status.
    public var httpStatus: Int

    /// Creates an error.
    public init(status: FirebaseRPCStatus, message: String, httpStatus: Int) {
        self.status = status
        self.message = message
        self.httpStatus = httpStatus
    }

    init(response: HTTPResponse) {
        let body = GoogleErrorEnvelope.parse(response)
        self.init(
            status: body?.status.map(FirebaseRPCStatus.init(rawValue:)) ?? FirebaseRPCStatus(httpStatus: response.status),
            message: response.errorMessage, httpStatus: response.status)
    }

    public var description: String { "Firestore \(status) (\(httpStatus)): \(message)" }
}
