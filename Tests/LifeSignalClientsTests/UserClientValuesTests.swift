import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@Suite("User, check-in settings and session client values")
struct UserClientValuesTests {
    @Test("the test values fail any call a test did not override")
    func testValuesAreUnimplemented() async throws {
        await withKnownIssue { _ = try await UserClient.testValue.profile() }
        await withKnownIssue { _ = try await CheckInClient.testValue.history(10) }
        await withKnownIssue { try await AuthClient.testValue.deleteAccount() }
    }

    @Test("the preview profile: edits stream out, avatars must be images, QR codes change")
    func previewProfile() async throws {
        let client = UserClient.previewValue
        let stream = try await client.stream()
        let before = try await client.profile()
        #expect(before.displayName == "Alex Morgan" && before.isOnboarded)
        let saved = try await client.update(ProfileUpdate(firstName: "Sam"))
        #expect(saved.firstName == "Sam" && saved.lastName == "Morgan")
        var changes = stream.makeAsyncIterator()
        #expect(try await changes.next() == saved)
        await #expect(throws: DomainError.self) { _ = try await client.uploadAvatar(Data("x".utf8), "text/plain") }
        #expect(try await client.uploadAvatar(Data([1, 2, 3]), "image/png").avatarURL != nil)
        #expect(try await client.removeAvatar().avatarURL == nil)
        let code = try await client.resetQRCode()
        let after = try await client.profile()
        #expect(code != before.qrCodeID && after.qrCodeID == code)
    }

    @Test("the preview check-in settings refuse a reminder as long as the interval")
    func previewSettings() async throws {
        let client = CheckInClient.previewValue
        let twoHours = try CheckInInterval.hours(2)
        #expect(try await client.updateSettings(twoHours, ReminderLead.none) == CheckInSettings(interval: twoHours, reminderLead: .none))
        await #expect(throws: DomainError.self) { _ = try await client.updateSettings(nil, .twoHours) }
        #expect(try await client.status().interval == twoHours)
        let before = try await client.history(100).count
        _ = try await client.checkIn()
        #expect(try await client.history(100).count == before + 1)
    }

    @Test("the session store tells its followers the current session and each change")
    func sessionChanges() async throws {
        let store = SessionStore()
        var changes = await store.changes().makeAsyncIterator()
        #expect(await changes.next() == .some(nil))
        let session = AuthSession(
            userID: UserID(UUID()), phone: try PhoneNumber("+15550100009"), accessToken: "a", refreshToken: "r",
            expiresAt: Date(timeIntervalSince1970: 0), isNewUser: true)
        await store.set(session)
        #expect(await changes.next() == .some(session))
        await store.set(nil)
        #expect(await changes.next() == .some(nil))
    }
}
