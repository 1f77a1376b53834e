import Foundation

/// Sends GoTrue requests and maps failures to ``AuthError``.
struct AuthAPI: Sendable {
    /// The project URL; requests go to `<url>/auth/v1/…`.
    let url: URL
    /// `apikey`, `Authorization: Bearer <key>`, `X-Client-Info`, `X-Supabase-Api-Version`,
    /// and the caller's global headers.
    let headers: HTTPHeaders
    let pipeline: HTTPPipeline

    /// The API version supabase-swift announces; it selects GoTrue's `{code, message}`
    /// error shape.
    static let apiVersion = "2024-01-01"

    func makeRequest(
        _ method: HTTPMethod,
        _ endpoint: String,
        query: [QueryItem] = [],
        body: (any Encodable)? = nil,
        bearer: String? = nil
    ) throws -> HTTPRequest {
        var requestHeaders = headers
        if let bearer { requestHeaders["Authorization"] = "Bearer \(bearer)" }
        var data: Data?
        if let body {
            do {
                data = try SupabaseJSON.makeEncoder().encode(body)
            } catch {
                throw AuthError.invalidResponse(
                    ResponseDecodingError(type: "request body", status: 0, body: Data(), message: "\(error)"))
            }
            requestHeaders["Content-Type"] = "application/json"
        }
        let url: URL
        do {
            url = try buildURL(base: self.url, path: "auth/v1", segment: endpoint, query: query)
        } catch let error as TransportError {
            throw AuthError.transport(error)
        }
        return HTTPRequest(method: method, url: url, headers: requestHeaders, body: data)
    }

    /// Sends a request; non-2xx responses throw the decoded ``AuthError``.
    @discardableResult
    func send(
        _ method: HTTPMethod,
        _ endpoint: String,
        query: [QueryItem] = [],
        body: (any Encodable)? = nil,
        bearer: String? = nil
    ) async throws -> HTTPResponse {
        let request = try makeRequest(method, endpoint, query: query, body: body, bearer: bearer)
        let response: HTTPResponse
        do {
            response = try await pipeline.send(request)
        } catch let error as TransportError {
            throw AuthError.transport(error)
        }
        guard response.isSuccess else { throw AuthError.from(response) }
        return response
    }

    /// Decodes a 2xx body, mapping failures to ``AuthError/invalidResponse(_:)``.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws -> T {
        do {
            return try response.decode(T.self, decoder: SupabaseJSON.makeDecoder())
        } catch let error as ResponseDecodingError {
            throw AuthError.invalidResponse(error)
        }
    }

    /// A session when the body is one, else a user (sign-up awaiting confirmation).
    func decodeAuthResponse(from response: HTTPResponse) throws -> AuthResponse {
        if let session = try? SupabaseJSON.makeDecoder().decode(Session.self, from: response.body) {
            return .session(session)
        }
        return .user(try decode(User.self, from: response))
    }
}

/// Request bodies, with GoTrue's snake_case keys. `nil` fields are omitted.
struct OTPParams: Encodable {
    var email: String?
    var phone: String?
    var createUser: Bool
    var channel: String?
    var data: [String: AnyJSON]?
    var gotrueMetaSecurity: GoTrueMetaSecurity?

    enum CodingKeys: String, CodingKey {
        case email, phone, channel, data
        case createUser = "create_user"
        case gotrueMetaSecurity = "gotrue_meta_security"
    }
}

struct VerifyOTPParams: Encodable {
    var email: String?
    var phone: String?
    var token: String
    var type: String
    var gotrueMetaSecurity: GoTrueMetaSecurity?

    enum CodingKeys: String, CodingKey {
        case email, phone, token, type
        case gotrueMetaSecurity = "gotrue_meta_security"
    }
}

struct CredentialsParams: Encodable {
    var email: String?
    var phone: String?
    var password: String
    var data: [String: AnyJSON]?
    var channel: String?
    var gotrueMetaSecurity: GoTrueMetaSecurity?

    enum CodingKeys: String, CodingKey {
        case email, phone, password, data, channel
        case gotrueMetaSecurity = "gotrue_meta_security"
    }
}

struct RefreshTokenParams: Encodable {
    var refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

struct GoTrueMetaSecurity: Encodable {
    var captchaToken: String

    enum CodingKeys: String, CodingKey { case captchaToken = "captcha_token" }

    init?(_ captchaToken: String?) {
        guard let captchaToken else { return nil }
        self.captchaToken = captchaToken
    }
}
