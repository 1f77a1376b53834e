import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseReplayTransport {
    /// `accounts:signInWithPhoneNumber {sessionInfo, code, idToken}`: the code sent to a number
    /// by `sendVerificationCode` proves it for the user the ID token names, whose phone moves
    /// there (the backend's phone-change path, GoTrue's `phone_change` semantics); the reply is
    /// a fresh sign-in of that user. A number another account holds is `PHONE_NUMBER_EXISTS`,
    /// a wrong code `INVALID_CODE`, a bad token `INVALID_ID_TOKEN`, as Identity Toolkit says them.
    func changePhone(_ json: [String: Any]) async -> FirebaseHTTPResponse {
        let user: UserID
        do {
            guard let token = json["idToken"] as? String, case .user(let id) = try await backend.auth.tokens.caller(bearer: token) else {
                return Self.authError(400, "INVALID_ID_TOKEN")
            }
            user = id
        } catch {
            return Self.authError(400, "INVALID_ID_TOKEN")
        }
        guard let sessionInfo = json["sessionInfo"] as? String, let phone = await verifications.phone(sessionInfo) else {
            return Self.authError(400, "INVALID_SESSION_INFO")
        }
        guard let code = json["code"] as? String, !code.isEmpty else { return Self.authError(400, "MISSING_CODE") }
        do {
            let issued = try await backend.auth.verifyPhoneChange(user: user, phone: phone, code: code)
            await verifications.finish(sessionInfo)
            return Self.json(
                200,
                [
                    "idToken": issued.accessToken, "refreshToken": issued.refreshToken, "expiresIn": String(issued.expiresIn),
                    "localId": issued.user.id.description, "isNewUser": false, "phoneNumber": issued.user.phone?.e164 ?? phone,
                ])
        } catch AuthRefusal.phoneExists {
            return Self.authError(400, "PHONE_NUMBER_EXISTS")
        } catch AuthRefusal.userNotFound {
            return Self.authError(400, "USER_NOT_FOUND")
        } catch let error as DomainError {
            return Self.authError(for: error)
        } catch {
            return Self.authError(500, "INTERNAL_ERROR")
        }
    }
}
