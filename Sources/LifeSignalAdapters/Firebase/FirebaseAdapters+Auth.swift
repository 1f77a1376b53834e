import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Phone sign-in through Identity Toolkit: `sendVerificationCode` hands back a
    /// `sessionInfo`, kept per number until `signInWithPhoneNumber` accepts a code with it.
    ///
    /// Outside the emulator the first call needs an app-verification proof (reCAPTCHA or an
    /// APNs receipt), which only the app can supply; this adapter sends the bare number.
    public var authClient: AuthClient {
        let adapters = self
        return AuthClient(
            sendCode: { phone in
                let sessionInfo = try await Self.mapped {
                    try await adapters.identityToolkit.sendVerificationCode(PhoneVerificationRequest(phoneNumber: phone.e164))
                }
                await adapters.verifications.set(sessionInfo, for: phone)
            },
            verifyCode: { phone, code in
                guard let sessionInfo = await adapters.verifications.sessionInfo(for: phone) else { throw DomainError.otpExpired }
                let reply = try await Self.mapped {
                    try await adapters.identityToolkit.signInWithPhoneNumber(sessionInfo: sessionInfo, code: code.value)
                }
                let session = try Self.domainSession(reply, phone: phone)
                await adapters.verifications.set(nil, for: phone)
                await adapters.tokens.signIn(with: reply)
                await adapters.sessions.set(session)
                return await adapters.currentSession() ?? session
            },
            currentSession: { await adapters.currentSession() },
            signOut: {
                // Firebase ID tokens cannot be revoked by the client; forgetting them is sign-out.
                await adapters.adopt(nil)
            },
            requestPhoneChange: { phone in try await adapters.requestPhoneChange(to: phone) },
            confirmPhoneChange: { phone, code in try await adapters.confirmPhoneChange(to: phone, code: code) },
            deleteAccount: {
                let _: SuccessResponse = try await adapters.call(CloudFunctions.deleteUserAccount)
                await adapters.adopt(nil)
            },
            sessionChanges: { await adapters.sessions.changes() })
    }

    /// Check-ins through the functions (``FunctionCalling/functionCheckInClient(history:)``),
    /// the history through `get-check-in-history`.
    public var checkInClient: CheckInClient {
        let adapters = self
        return functionCheckInClient(history: { limit in
            let reply = try await adapters.call(CloudFunctions.getCheckInHistory, CheckInHistoryRequest(limit: limit))
            return try reply.checkIns.map { entry in
                guard let source = CheckInSource(rawValue: entry.source) else {
                    throw DomainError.internal("The server sent the check-in source \"\(entry.source)\"")
                }
                return CheckInEntry(id: try WireParse.uuid(entry.id), checkedInAt: try WireParse.date(entry.checkedInAt), source: source)
            }
        })
    }

    /// The domain's session for a phone sign-in. The uid must be our user id (a UUID), which
    /// it is when the project's accounts are LifeSignal's.
    static func domainSession(_ reply: SignInResponse, phone: PhoneNumber, issuedAt: Date = Date()) throws -> AuthSession {
        guard let id = UserID(string: reply.localId) else {
            throw DomainError.internal("The account id \"\(reply.localId)\" is not a LifeSignal user id")
        }
        let tokens = reply.tokens(issuedAt: issuedAt)
        let signedIn = try reply.phoneNumber.map { try PhoneNumber($0) } ?? phone
        return AuthSession(
            userID: id, phone: signedIn, accessToken: tokens.idToken, refreshToken: tokens.refreshToken,
            expiresAt: tokens.expiresAt, isNewUser: reply.isNewUser ?? false)
    }
}
