import Foundation
import LifeSignalDomain

/// Values the feature tests share. Built with `try` from literals known to be valid; a typo
/// here fails the test that uses it rather than crashing the run.
enum Fixtures {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    static func phone() throws -> PhoneNumber { try PhoneNumber("+15550001111") }

    static func session() throws -> AuthSession {
        AuthSession(
            userID: UserID(UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()),
            phone: try phone(), accessToken: "access", refreshToken: "refresh",
            expiresAt: start.addingTimeInterval(3600), isNewUser: false)
    }

    static func oneHour() throws -> CheckInInterval { try .hours(1) }
}
