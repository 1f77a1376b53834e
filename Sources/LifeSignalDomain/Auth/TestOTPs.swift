import Foundation

/// Fixed codes per phone number, like Supabase's `test_otp` setting, parsed from
/// `"+15550001111=123456,+15550002222=654321"`.
public struct TestOTPs: Sendable, Hashable {
    public let codes: [PhoneNumber: OneTimeCode]

    public init(_ codes: [PhoneNumber: OneTimeCode] = [:]) { self.codes = codes }

    public init(parsing text: String) throws(DomainError) {
        var codes: [PhoneNumber: OneTimeCode] = [:]
        for entry in text.split(separator: ",") where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw .invalidArgument("LIFESIGNAL_TEST_OTP entries look like +15550001111=123456, not \"\(entry)\"")
            }
            codes[try PhoneNumber(parts[0])] = try OneTimeCode(parts[1])
        }
        self.codes = codes
    }
}
