import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// A Firebase project played by the real backend: Identity Toolkit, Secure Token and
/// callable functions answered in Google's documented wire formats (the request and
/// response bodies, `error.status` names and token fields of the REST APIs) by ``LifeSignalBackend`` over its SQLite file. Only the HTTP hop is
/// replaced, so the adapters' requests, headers, envelopes and error bodies are all real.
///
/// The backend's JWTs stand in for Firebase ID tokens: the adapters treat the token as
/// opaque, and the functions see the caller the token names, as `context.auth` would.
struct FirebaseReplayTransport: FirebaseHTTPTransport {
    let backend: LifeSignalBackend
    let verifications = Verifications()
    let downloadTokens = DownloadTokens()
    /// The project's one Storage bucket (`FirebaseReplayTransport+Storage.swift`).
    static let bucket = "lifesignal-replay.firebasestorage.app"

    /// `sessionInfo` → the phone a code was sent to. Single use, as Firebase's.
    actor Verifications {
        private var phones: [String: String] = [:]
        func start(_ phone: String) -> String {
            let sessionInfo = "replay-" + UUID().uuidString
            phones[sessionInfo] = phone
            return sessionInfo
        }
        func phone(_ sessionInfo: String) -> String? { phones[sessionInfo] }
        func finish(_ sessionInfo: String) { phones[sessionInfo] = nil }
    }

    func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
        guard let host = request.url.host else { return Self.pageNotFound }
        if host == "firebasestorage.googleapis.com" { return await storage(request) }
        if host == Self.firestoreHost { return await firestore(request) }
        guard request.method == .post else { return Self.pageNotFound }
        let path = request.url.path
        if host == "identitytoolkit.googleapis.com", path.hasPrefix("/v1/accounts:") {
            guard Self.hasAPIKey(request.url) else { return Self.authError(400, "API key not valid. Please pass a valid API key.") }
            return await identityToolkit(String(path.dropFirst("/v1/accounts:".count)), body: request.body ?? Data())
        }
        if host == "securetoken.googleapis.com", path == "/v1/token" {
            guard Self.hasAPIKey(request.url) else { return Self.authError(400, "API key not valid. Please pass a valid API key.") }
            return await refresh(request.body ?? Data())
        }
        if host.hasSuffix(".cloudfunctions.net") {
            return await callable(String(path.dropFirst()), request)
        }
        return Self.pageNotFound
    }

    // MARK: Identity Toolkit

    private func identityToolkit(_ method: String, body: Data) async -> FirebaseHTTPResponse {
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        do {
            switch method {
            case "sendVerificationCode":
                guard let phone = json["phoneNumber"] as? String else { return Self.authError(400, "MISSING_PHONE_NUMBER") }
                try await backend.auth.requestCode(phone: phone)
                return Self.json(200, ["sessionInfo": await verifications.start(phone)])
            case "signInWithPhoneNumber" where json["idToken"] != nil:
                return await changePhone(json)
            case "signInWithPhoneNumber":
                guard let sessionInfo = json["sessionInfo"] as? String, let phone = await verifications.phone(sessionInfo) else {
                    return Self.authError(400, "INVALID_SESSION_INFO")
                }
                guard let code = json["code"] as? String, !code.isEmpty else { return Self.authError(400, "MISSING_CODE") }
                let issued = try await backend.auth.verifyCode(phone: phone, code: code)
                await verifications.finish(sessionInfo)
                return Self.json(
                    200,
                    [
                        "idToken": issued.accessToken, "refreshToken": issued.refreshToken, "expiresIn": String(issued.expiresIn),
                        "localId": issued.user.id.description, "isNewUser": issued.isNewUser,
                        "phoneNumber": issued.user.phone?.e164 ?? phone,
                    ])
            default:
                return Self.authError(400, "OPERATION_NOT_ALLOWED")
            }
        } catch let error as DomainError {
            return Self.authError(for: error)
        } catch {
            return Self.authError(500, "INTERNAL_ERROR")
        }
    }

    /// Secure Token: form-encoded as the REST docs show, or JSON as the iOS SDK sends it.
    private func refresh(_ body: Data) async -> FirebaseHTTPResponse {
        let text = String(data: body, encoding: .utf8) ?? ""
        var fields: [String: String] = [:]
        if let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] {
            fields["grant_type"] = json["grantType"] as? String
            fields["refresh_token"] = json["refreshToken"] as? String
        } else {
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
        }
        guard fields["grant_type"] == "refresh_token", let token = fields["refresh_token"] else {
            return Self.authError(400, "INVALID_GRANT_TYPE")
        }
        do {
            let issued = try await backend.auth.sessions.refresh(refreshToken: token)
            return Self.json(
                200,
                [
                    "id_token": issued.accessToken, "refresh_token": issued.refreshToken, "expires_in": String(issued.expiresIn),
                    "token_type": "Bearer", "user_id": issued.user.id.description, "project_id": "lifesignal-replay",
                ])
        } catch DomainError.notFound, DomainError.forbidden {
            return Self.authError(400, "INVALID_REFRESH_TOKEN")
        } catch {
            return Self.authError(500, "INTERNAL_ERROR")
        }
    }

    /// Identity Toolkit's words for the backend's sign-in refusals.
    static func authError(for error: DomainError) -> FirebaseHTTPResponse {
        switch error {
        case .invalidPhone: authError(400, "INVALID_PHONE_NUMBER : \(error.message)")
        case .invalidOTP: authError(400, "INVALID_CODE")
        case .otpExpired: authError(400, "SESSION_EXPIRED")
        case .tooManyAttempts, .rateLimited: authError(400, "TOO_MANY_ATTEMPTS_TRY_LATER")
        case .invalidArgument: authError(400, "INVALID_ARGUMENT : \(error.message)")
        default: authError(500, "INTERNAL_ERROR")
        }
    }

    /// `{"error":{"code":…,"message":"CODE[ : detail]","errors":[…]}}`.
    static func authError(_ status: Int, _ message: String) -> FirebaseHTTPResponse {
        json(status, ["error": ["code": status, "message": message, "errors": [["message": message, "domain": "global", "reason": "invalid"]]]])
    }

    static func hasAPIKey(_ url: URL) -> Bool {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "key" && $0.value?.isEmpty == false } ?? false
    }

    // MARK: Callable functions

    /// `{"data": …}` in; `{"result": …}` or `{"error": {status, message, details}}` out.
    private func callable(_ name: String, _ request: FirebaseHTTPRequest) async -> FirebaseHTTPResponse {
        // A function that is not deployed is answered by the platform, not the protocol.
        guard BackendFunctions.names.contains(name) else { return Self.pageNotFound }
        guard request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true,
            let envelope = (try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String: Any],
            let data = envelope["data"]
        else { return Self.callableError(400, "INVALID_ARGUMENT", "Bad Request") }
        let caller: Caller
        do {
            let header = request.header("Authorization")
            guard header == nil || header?.hasPrefix("Bearer ") == true else { throw DomainError.unauthenticated }
            caller = try await backend.auth.tokens.caller(bearer: header.map { String($0.dropFirst("Bearer ".count)) })
        } catch {
            return Self.callableError(401, "UNAUTHENTICATED", "Unauthenticated")
        }
        do {
            let body = data is NSNull ? Data() : try JSONSerialization.data(withJSONObject: data, options: .fragmentsAllowed)
            let reply = try await backend.functions.call(name, caller: caller, body: body)
            return FirebaseHTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"result\":".utf8) + reply + Data("}".utf8))
        } catch let error as DomainError {
            return Self.callableError(for: error)
        } catch BackendFunctions.Failure.badRequest(let why) {
            return Self.callableError(for: .invalidArgument(why))
        } catch {
            // A function's unexpected failure reaches the client as a bare INTERNAL.
            return Self.callableError(500, "INTERNAL", "INTERNAL")
        }
    }

    /// A domain error as LifeSignal's functions throw it: `HttpsError(status, message,
    /// {code, retryAfter})`, with the HTTP status of the canonical code.
    static func callableError(for error: DomainError) -> FirebaseHTTPResponse {
        let (http, status): (Int, String) =
            switch error {
            case .invalidPhone, .invalidOTP, .otpExpired, .invalidArgument: (400, "INVALID_ARGUMENT")
            case .failedPrecondition, .checkInTooSoon: (400, "FAILED_PRECONDITION")
            case .unauthenticated: (401, "UNAUTHENTICATED")
            case .forbidden: (403, "PERMISSION_DENIED")
            case .notFound: (404, "NOT_FOUND")
            case .alreadyExists: (409, "ALREADY_EXISTS")
            case .tooManyAttempts, .rateLimited: (429, "RESOURCE_EXHAUSTED")
            case .internal: (500, "INTERNAL")
            }
        var details: [String: Any] = ["code": error.code]
        if let wait = error.retryAfter { details["retryAfter"] = wait }
        return callableError(http, status, error.message, details: details)
    }

    static func callableError(_ http: Int, _ status: String, _ message: String, details: [String: Any]? = nil) -> FirebaseHTTPResponse {
        var body: [String: Any] = ["status": status, "message": message]
        if let details { body["details"] = details }
        return json(http, ["error": body])
    }

    // MARK: Plumbing

    static let pageNotFound = FirebaseHTTPResponse(
        status: 404, headers: ["Content-Type": "text/html"], body: Data("<html><body>Error: Page not found</body></html>".utf8))

    static func json(_ status: Int, _ object: [String: Any]) -> FirebaseHTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return FirebaseHTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=UTF-8"], body: body)
    }
}
