import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// The backend's cloud functions by name, JSON in and JSON out (seed `001_…`'s
/// `CloudFunctionClient`): the way to reach a function that no typed client covers yet,
/// without each feature learning how calls travel on Local, Supabase or Firebase.
///
/// Failures arrive as ``DomainError``: a function that does not exist is
/// ``DomainError/notFound(_:)``, a body the function cannot read
/// ``DomainError/invalidArgument(_:)``, and a function's own refusal is the error it raised.
@DependencyClient
public struct CloudFunctionClient: Sendable {
    /// Calls function `name` as the signed-in person with a JSON `body` (empty means `{}`)
    /// and returns the function's JSON reply.
    public var call: @Sendable (_ name: String, _ body: Data) async throws -> Data

    /// Calls `name` with an encodable request and decodes its reply: the typed convenience
    /// over ``call``, so callers do not each repeat the JSON plumbing.
    public func call<Response: Decodable>(
        _ name: String, _ request: some Encodable, as type: Response.Type = Response.self
    ) async throws -> Response {
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch {
            throw DomainError.invalidArgument("The request for \(name) does not encode as JSON: \(error)")
        }
        let reply = try await call(name, body)
        do { return try JSONDecoder().decode(Response.self, from: reply) } catch {
            throw DomainError.internal("The reply of \(name) does not decode as \(Response.self)")
        }
    }
}

extension CloudFunctionClient: TestDependencyKey {
    public static let testValue = CloudFunctionClient()

    /// A few functions answered in memory with the shapes the backend replies in; any other
    /// name is not found, and a body that is not JSON is refused, as the real ones do.
    public static var previewValue: CloudFunctionClient {
        let replies: [String: String] = [
            "get-contacts": #"{"contacts":[],"receivedInvitations":[],"sentInvitations":[]}"#,
            "register-push-token": #"{"success":true}"#,
            "check-in": #"{"lastCheckInTime":"2027-01-15T08:00:00.000Z","nextCheckInTime":"2027-01-16T08:00:00.000Z","success":true}"#,
        ]
        return CloudFunctionClient(call: { name, body in
            guard let reply = replies[name] else { throw DomainError.notFound("Function \"\(name)\"") }
            if !body.isEmpty, (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) == nil {
                throw DomainError.invalidArgument("Invalid JSON body")
            }
            return Data(reply.utf8)
        })
    }
}

extension DependencyValues {
    public var cloudFunctionClient: CloudFunctionClient {
        get { self[CloudFunctionClient.self] }
        set { self[CloudFunctionClient.self] = newValue }
    }
}
