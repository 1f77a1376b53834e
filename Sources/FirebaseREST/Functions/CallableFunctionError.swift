import Foundation

/// An error a callable function returned: `{"error":{"status":"…","message":"…","details":…}}`.
///
/// The function's `HttpsError(code, message, details)` arrives here unchanged, so ``status``
/// and ``details`` are whatever the function author chose.
public struct CallableFunctionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: FirebaseRPCStatus
    public var message: String
    /// The `details` the function attached, if any.
    public var details: AnyJSON?
    public var httpStatus: Int

    /// Creates an error.
    public init(status: FirebaseRPCStatus, message: String, details: AnyJSON? = nil, httpStatus: Int) {
        self.status = status
        self.message = message
        self.details = details
        self.httpStatus = httpStatus
    }

    init(response: HTTPResponse) {
        struct Envelope: Decodable {
            struct Body: Decodable {
                var status: String?
                var message: String?
                var details: AnyJSON?
            }
            var error: Body
        }
        if let body = try? JSONDecoder().decode(Envelope.self, from: response.body).error {
            self.init(
                status: body.status.map(FirebaseRPCStatus.init(rawValue:)) ?? FirebaseRPCStatus(httpStatus: response.status),
                message: body.message ?? body.status ?? "HTTP \(response.status)", details: body.details,
                httpStatus: response.status)
        } else {
            self.init(status: FirebaseRPCStatus(httpStatus: response.status), message: response.errorMessage, httpStatus: response.status)
        }
    }

    public var description: String { "Callable function \(status) (\(httpStatus)): \(message)" }
}
