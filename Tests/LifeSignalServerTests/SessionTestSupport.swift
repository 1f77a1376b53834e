import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Helpers for the session tests (`AuthSession…Tests`): sessions made over HTTP with email and
/// password, which no SMS resend interval holds back, and the claims of their tokens.
enum SessionSteps {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    struct Tokens {
        let access: String
        let refresh: String
        let userID: String
    }

    static func signUp(_ server: TestServer, _ email: String, password: String = "correct horse") async throws -> Tokens {
        try tokens(try await server.json("POST", "/auth/v1/signup", headers: version, ["email": email, "password": password]))
    }

    static func signIn(_ server: TestServer, email: String? = nil, phone: String? = nil, password: String = "correct horse") async throws -> Tokens {
        var body: [String: any Sendable] = ["password": password]
        if let email { body["email"] = email }
        if let phone { body["phone"] = phone }
        return try tokens(try await server.json("POST", "/auth/v1/token?grant_type=password", headers: version, body))
    }

    static func tokens(_ reply: TestServer.Reply) throws -> Tokens {
        #expect(reply.status == 200, "\(reply.text)")
        let user = try #require(reply.json?["user"] as? [String: any Sendable])
        return Tokens(
            access: try #require(reply.json?["access_token"] as? String),
            refresh: try #require(reply.json?["refresh_token"] as? String),
            userID: try #require(user["id"] as? String))
    }

    /// `GET /auth/v1/user`'s status with `token` (API version 2024-01-01).
    static func userStatus(_ server: TestServer, _ token: String) async throws -> Int {
        try await server.request("GET", "/auth/v1/user", bearer: token, headers: version).status
    }

    static func refresh(_ server: TestServer, _ refreshToken: String, headers: [String: String] = version) async throws -> TestServer.Reply {
        try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: headers, ["refresh_token": refreshToken])
    }

    /// The payload of a JWT.
    static func claims(_ token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Sessions of `user` in the database.
    static func sessionCount(_ test: TestBackend, user: String) async throws -> Int {
        try await test.backend.database.query("SELECT count(*) AS n FROM auth_sessions WHERE user_id = \(SQLValue(UUID(uuidString: user)))")
            .first?.int("n") ?? -1
    }
}
