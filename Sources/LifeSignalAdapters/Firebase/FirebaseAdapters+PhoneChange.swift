import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// Sends a code to `phone` (`accounts:sendVerificationCode`) and keeps its `sessionInfo`
    /// for ``confirmPhoneChange(to:code:)``; nothing changes yet.
    ///
    /// Identity Toolkit cannot tell that this code is for a change, so a number another
    /// account holds is refused only when the code comes back (`PHONE_NUMBER_EXISTS`), not
    /// here as GoTrue refuses it.
    func requestPhoneChange(to phone: PhoneNumber) async throws {
        // Only a signed-in person can confirm, so a code for anyone else would be wasted.
        guard await tokens.currentTokens != nil else { throw DomainError.unauthenticated }
        let sessionInfo = try await Self.mapped {
            try await identityToolkit.sendVerificationCode(PhoneVerificationRequest(phoneNumber: phone.e164))
        }
        await verifications.set(sessionInfo, for: phone)
    }

    /// Proves `phone` with the code sent to it and moves the signed-in account there:
    /// `accounts:signInWithPhoneNumber` with the current ID token, which updates that user's
    /// number (the SDK's `updatePhoneNumber`) and returns fresh tokens, adopted here.
    ///
    /// - Throws: ``DomainError/invalidOTP`` for a wrong code (`INVALID_CODE`),
    ///   ``DomainError/alreadyExists(_:)`` for a number another account holds
    ///   (`PHONE_NUMBER_EXISTS`), ``DomainError/otpExpired`` when no code was sent to `phone`.
    func confirmPhoneChange(to phone: PhoneNumber, code: OneTimeCode) async throws -> AuthSession {
        guard let sessionInfo = await verifications.sessionInfo(for: phone) else { throw DomainError.otpExpired }
        let reply: SignInResponse
        do {
            guard let idToken = try await tokens.idToken() else { throw DomainError.unauthenticated }
            reply = try await identityToolkit.signInWithPhoneNumber(sessionInfo: sessionInfo, code: code.value, idToken: idToken)
        } catch let error as IdentityToolkitError where error.code == .phoneNumberExists {
            throw DomainError.alreadyExists("An account with the phone \(phone.e164)")
        } catch {
            throw FirebaseErrorMapping.map(error)
        }
        guard reply.localId == (await tokens.currentTokens)?.localId else {
            throw DomainError.internal("Firebase moved the number to another account (\(reply.localId))")
        }
        let session = try Self.domainSession(reply, phone: phone)
        await verifications.set(nil, for: phone)
        await tokens.signIn(with: reply)
        await sessions.set(session)
        return await currentSession() ?? session
    }
}
