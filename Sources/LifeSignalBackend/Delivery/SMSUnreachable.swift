import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Numbers the SMS provider said cannot take messages: invalid, not a mobile, or opted out
/// (Twilio's 21211, 21614, 21610). A message to one fails for good and is not retried, and
/// nothing more is queued for the number — every further attempt would be refused as well, and
/// carriers count sends to opted-out numbers against the operator. A sign-in code that comes
/// back from the number proves it takes SMS again, and removes it.
enum SMSUnreachable {
    static func record(_ phone: String, reason: String, now: Date, in connection: any SQLConnection) async throws {
        try await connection.query(
            """
            INSERT INTO lifesignal_sms_unreachable (phone, reason, recorded_at) VALUES (\(phone), \(reason), \(now))
            ON CONFLICT (phone) DO UPDATE SET reason = excluded.reason, recorded_at = excluded.recorded_at
            """)
    }

    static func contains(_ phone: String, in connection: any SQLConnection) async throws -> Bool {
        try await connection.first("SELECT 1 AS gone FROM lifesignal_sms_unreachable WHERE phone = \(phone)") != nil
    }

    static func forget(_ phone: String, in connection: any SQLConnection) async throws {
        try await connection.query("DELETE FROM lifesignal_sms_unreachable WHERE phone = \(phone)")
    }
}

extension LifeSignalBackend {
    /// Which of `phones` (E.164) take no SMS now (STOP, invalid, not a mobile): what the pages
    /// show beside a person, so nobody counts on a text that will never arrive.
    public func unreachableBySMS(_ phones: [String]) async throws -> Set<String> {
        let wanted = Array(Set(phones.filter { !$0.isEmpty })).sorted()
        guard !wanted.isEmpty else { return [] }
        let list = SQL.join(wanted.map { "\($0)" }, separator: ", ")
        let rows = try await database.readOutsideWriter("SELECT phone FROM lifesignal_sms_unreachable WHERE phone IN (" + list + ")")
        return Set(rows.compactMap { $0.optionalString("phone") })
    }
}
