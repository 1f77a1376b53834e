import Foundation

/// A failed Auth (GoTrue) call.
public enum AuthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// GoTrue answered with an error document.
    ///
    /// - `code`: the machine-readable error code (`invalid_credentials`, `otp_expired`,
    ///   `weak_password`, …), `unknown` when the body carries none.
    /// - `message`: the human-readable text.
    /// - `status`: the HTTP status.
    case api(code: String, message: String, status: Int)
    /// There is no usable session: none is stored, or the server no longer knows it
    /// (`session_not_found`, `session_expired`, `refresh_token_not_found`,
    /// `refresh_token_already_used`). The local session has been cleared; sign in again.
    case sessionMissing
    /// No response was obtained.
    case transport(TransportError)
    /// A 2xx response whose body is not the expected session/user document.
    case invalidResponse(ResponseDecodingError)
    /// The ``AuthLocalStorage`` failed to store or remove the session.
    case storage(String)

    /// The error codes that mean "this session is gone".
    static let sessionGoneCodes: Set<String> = [
        "session_not_found", "session_expired", "refresh_token_not_found", "refresh_token_already_used",
    ]

    /// Decodes GoTrue's error body, following supabase-swift:
    ///
    /// - The code comes from `code` only when the response echoes
    ///   `X-Supabase-Api-Version` ≥ `2024-01-01` (new shape `{"code","message"}`); otherwise
    ///   from `error_code` (old shape `{"code": <status>, "error_code", "msg"}`, where `code`
    ///   is the numeric status).
    /// - The message is the first of `msg`, `message`, `error_description`, `error`.
    /// - Session-gone codes become ``sessionMissing``.
    /// - A body that is not a JSON object yields code `unknown` and the body text (or
    ///   "Unexpected error" when empty) as message.
    static func from(_ response: HTTPResponse) -> AuthError {
        guard
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else {
            let text = String(decoding: response.body, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return .api(
                code: "unknown", message: text.isEmpty ? "Unexpected error" : String(text.prefix(500)),
                status: response.status)
        }

        var code: String?
        if isVersioned(response.headers["X-Supabase-Api-Version"]) {
            code = object["code"] as? String
        }
        if code == nil { code = object["error_code"] as? String }

        let message = ["msg", "message", "error_description", "error"]
            .lazy.compactMap { object[$0] as? String }.first

        if let code, sessionGoneCodes.contains(code) { return .sessionMissing }
        return .api(code: code ?? "unknown", message: message ?? "Unexpected error", status: response.status)
    }

    /// Whether a version header names 2024-01-01 or later (`YYYY-MM-DD` compares as text).
    private static func isVersioned(_ header: String?) -> Bool {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.count >= 10 else {
            return false
        }
        return header.prefix(10) >= "2024-01-01"
    }

    /// The error code, for `.api`.
    public var code: String? {
        if case .api(let code, _, _) = self { code } else { nil }
    }

    public var description: String {
        switch self {
        case .api(let code, let message, let status): "AuthError(\(status) \(code)): \(message)"
        case .sessionMissing: "Auth session missing"
        case .transport(let error): "AuthError: \(error)"
        case .invalidResponse(let error): "AuthError: \(error)"
        case .storage(let message): "AuthError: session storage failed: \(message)"
        }
    }
}
