import Dependencies
import LifeSignalClients
import LifeSignalDomain
import Testing

@Suite("Client values")
struct ClientValuesTests {
    @Test("the test value fails any call a test did not override")
    func testValueIsUnimplemented() async throws {
        let client = CheckInClient.testValue
        await withKnownIssue {
            _ = try await client.checkIn()
        }
        let auth = AuthClient.testValue
        await withKnownIssue {
            try await auth.sendCode(try PhoneNumber("+15550001111"))
        }
    }

    @Test("the preview value signs in with 123456 and refuses other codes")
    func previewAuth() async throws {
        let auth = AuthClient.previewValue
        let phone = try PhoneNumber("+15550001111")
        await #expect(throws: DomainError.invalidOTP) { try await auth.verifyCode(phone, try OneTimeCode("000000")) }
        #expect(await auth.currentSession() == nil)
        let session = try await auth.verifyCode(phone, try OneTimeCode("123456"))
        #expect(await auth.currentSession() == session)
        try await auth.signOut()
        #expect(await auth.currentSession() == nil)
    }

    @Test("the preview check-in keeps the cooldown")
    func previewCheckIn() async throws {
        let client = CheckInClient.previewValue
        let before = try await client.status()
        #expect(before.lastCheckIn != nil)
        _ = try await client.checkIn()
        await #expect(throws: DomainError.self) { try await client.checkIn() }
    }
}
