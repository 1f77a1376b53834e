import Foundation
import Hummingbird

/// Phone sign-in on the Firebase stand-in, as the Auth emulator answers it
/// (`/identitytoolkit.googleapis.com/v1/accounts:…`): `sendVerificationCode` sends nothing and
/// hands back the number as `sessionInfo`; `signInWithPhoneNumber` takes the number's fixed code
/// and answers with an ID token signed by the first published key, as `securetoken` would issue
/// it, so the token is verifiable against the keys the same server publishes.
extension FirebaseKeyServer {
    /// Turns sign-in on: `codes` are the fixed codes by E.164 number, `now` the time tokens are issued at.
    public func enableSignIn(issuer: FirebaseTokenIssuer, now: @escaping @Sendable () -> Date, codes: [String: String]) {
        signIn = (issuer, now, codes)
    }

    /// The uid a number signs in as (stable, so a second sign-in is the same Firebase user).
    public static func uid(forPhone phone: String) -> String { "phone-" + phone.filter(\.isNumber) }

    func identityToolkit(_ method: String, body: Data) throws -> Response {
        guard let signIn, let key = signingKey else { return Self.error("OPERATION_NOT_ALLOWED") }
        let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        switch method {
        case "accounts:sendVerificationCode":
            guard let phone = fields["phoneNumber"] as? String, signIn.codes[phone] != nil else { return Self.error("INVALID_PHONE_NUMBER") }
            return try Self.json(["sessionInfo": phone])
        case "accounts:signInWithPhoneNumber":
            guard let phone = fields["sessionInfo"] as? String, let code = fields["code"] as? String else { return Self.error("MISSING_CODE") }
            guard signIn.codes[phone] == code else { return Self.error("INVALID_CODE") }
            let uid = Self.uid(forPhone: phone)
            let token = try key.sign(signIn.issuer.claims(uid: uid, now: signIn.now(), phone: phone))
            return try Self.json([
                "idToken": token, "refreshToken": "refresh-\(uid)", "expiresIn": "3600", "localId": uid,
                "phoneNumber": phone, "isNewUser": false,
            ])
        default:
            return Self.error("OPERATION_NOT_ALLOWED")
        }
    }

    private static func json(_ object: [String: any Sendable]) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))))
    }

    /// Identity Toolkit's error body: `{"error": {"code": 400, "message": "CODE"}}`.
    private static func error(_ code: String) -> Response {
        let body = #"{"error":{"code":400,"message":"\#(code)","errors":[{"message":"\#(code)","reason":"invalid"}]}}"#
        return Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
