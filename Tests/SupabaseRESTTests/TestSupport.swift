import Foundation
import Testing

@testable import SupabaseREST

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Captures every request and answers with `handler(request, index)`.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse
    private let recorded = LockedValue<[HTTPRequest]>([])
    private let handler: Handler

    init(handler: @escaping Handler) { self.handler = handler }

    convenience init(status: Int = 200, headers: HTTPHeaders = [:], body: String = "[]") {
        self.init { _, _ in HTTPResponse(status: status, headers: headers, body: Data(body.utf8)) }
    }

    var requests: [HTTPRequest] { recorded.value }

    var last: HTTPRequest? { requests.last }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = recorded.withValue { list -> Int in
            list.append(request)
            return list.count - 1
        }
        return try await handler(request, index)
    }
}

/// Records the delays the retry policy asks for instead of sleeping.
final class SleepRecorder: @unchecked Sendable {
    private let recorded = LockedValue<[Duration]>([])
    var delays: [Duration] { recorded.value }
    func policy(maxRetries: Int = 3) -> RetryPolicy {
        RetryPolicy(
            maxRetries: maxRetries,
            sleep: { [recorded] duration in
                recorded.withValue { $0.append(duration) }
            })
    }
}

let projectURL = URL(string: "https://project.supabase.co")!
let anonKey = "anon-key"

func makeClient(
    _ transport: any HTTPTransport,
    key: String = anonKey,
    storage: any AuthLocalStorage = InMemoryAuthStorage(),
    schema: String? = nil,
    retry: RetryPolicy = RetryPolicy(maxRetries: 3, sleep: { _ in }),
    timeout: Duration = .seconds(5),
    headers: [String: String] = [:]
) -> SupabaseClient {
    SupabaseClient(
        supabaseURL: projectURL,
        supabaseKey: key,
        options: SupabaseClientOptions(
            db: .init(schema: schema),
            auth: .init(storage: storage),
            global: .init(headers: headers, transport: transport, retryPolicy: retry, timeout: timeout),
            functions: .init(timeout: timeout)))
}

extension HTTPRequest {
    /// The percent-encoded query exactly as sent.
    var rawQuery: String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    }

    /// The decoded query items, in order.
    var queryItems: [String] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { "\($0.name)=\($0.value ?? "")" }
    }

    var path: String { url.path }

    /// The body decoded as JSON (key order is irrelevant in the comparison).
    var json: AnyJSON? {
        body.flatMap { try? JSONDecoder().decode(AnyJSON.self, from: $0) }
    }
}

func jsonResponse(_ status: Int = 200, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    var headers = headers
    headers["Content-Type"] = "application/json; charset=utf-8"
    return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
}

let userJSON = """
    {"id":"3f1c2b9e-4d5a-4c6b-8e7f-9a0b1c2d3e4f","aud":"authenticated","role":"authenticated",
     "email":"","phone":"14155550100","phone_confirmed_at":"2024-06-01T10:00:00.123456Z",
     "confirmed_at":"2024-06-01T10:00:00.123456Z","last_sign_in_at":"2024-06-01T10:00:00Z",
     "app_metadata":{"provider":"phone","providers":["phone"]},"user_metadata":{},
     "identities":[],"created_at":"2024-06-01T09:59:00.5Z","updated_at":"2024-06-01T10:00:00.123456Z",
     "is_anonymous":false}
    """

func sessionJSON(access: String = "access-1", refresh: String = "refresh-1", expiresIn: Int = 3600) -> String {
    let expiresAt = Int(Date().timeIntervalSince1970) + expiresIn
    return """
        {"access_token":"\(access)","token_type":"bearer","expires_in":\(expiresIn),
         "expires_at":\(expiresAt),"refresh_token":"\(refresh)","user":\(userJSON)}
        """
}

func makeSession(access: String = "stored-access", refresh: String = "stored-refresh", expiresIn: Int) throws -> Session {
    try SupabaseJSON.makeDecoder().decode(
        Session.self, from: Data(sessionJSON(access: access, refresh: refresh, expiresIn: expiresIn).utf8))
}
