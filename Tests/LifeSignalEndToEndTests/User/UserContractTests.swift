import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `UserClient`, the check-in settings and history of `CheckInClient`, and account deletion
/// on every adapter.
@Suite("UserClient contract", .serialized)
struct UserContractTests {
    /// A real picture: the bucket stores only bytes that are the image type declared.
    static let png = TestImages.png(width: 8, height: 8)

    @Test("a profile reads back what was changed; a bad field changes nothing", arguments: AdapterBackend.withFirebase)
    func editProfile(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.user
        let fresh = try await alice.profile()
        #expect(fresh.id == UserID(harness.aliceID) && fresh.phone == AdapterHarness.alicePhone && !fresh.isOnboarded)

        let saved = try await alice.update(ProfileUpdate(firstName: "Alice", lastName: "Adams", emergencyNote: "Diabetic"))
        #expect(saved.firstName == "Alice" && saved.lastName == "Adams" && saved.emergencyNote == "Diabetic" && saved.isOnboarded)
        #expect(try await alice.profile() == saved)

        await #expect(throws: DomainError.self) {
            _ = try await alice.update(ProfileUpdate(firstName: "Zed", emergencyNote: String(repeating: "x", count: 1001)))
        }
        await #expect {
            _ = try await alice.update(ProfileUpdate(firstName: "Zed", phone: "not a phone"))
        } throws: { error in (error as? DomainError)?.code == "invalid_phone" }
        #expect(try await alice.profile() == saved, "a refused change must leave the profile as it was")
    }

    @Test("the profile stream delivers my own changes, not another person's", arguments: AdapterBackend.withFirebase)
    func stream(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        let stream = try await alice.user.stream()
        _ = try await bob.user.update(ProfileUpdate(firstName: "Bob"))
        _ = try await alice.user.update(ProfileUpdate(firstName: "Alice"))
        let first = try #require(try await Self.first(on: stream), "no profile change arrived")
        #expect(first.id == UserID(harness.aliceID) && first.firstName == "Alice")

        _ = try await alice.checkIns.checkIn()
        let checkedIn = try #require(try await Self.first(on: stream) { $0.lastCheckIn != nil }, "the check-in did not reach the stream")
        #expect(checkedIn.deadline == checkedIn.lastCheckIn.map { $0 + TimeInterval(checkedIn.checkInIntervalSeconds) })
    }

    @Test("an avatar is stored in the public bucket, replaced, and removed; a non-image is refused", arguments: AdapterBackend.allCases)
    func avatar(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.user
        let path = UserClient.avatarPath(for: UserID(harness.aliceID))

        let withAvatar = try await alice.uploadAvatar(Self.png, "image/png")
        let url = try #require(withAvatar.avatarURL.flatMap(URL.init(string:)))
        #expect(url.path == "/storage/v1/object/public/avatars/\(path)")
        if let server = harness.server { #expect(url.host == server.baseURL.host && url.port == server.baseURL.port) }
        let stored = try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path)
        #expect(stored.data == Self.png && stored.object.contentType == "image/png")

        await #expect(throws: DomainError.self) { _ = try await alice.uploadAvatar(Data("hello".utf8), "text/plain") }
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8)
        await #expect { _ = try await alice.uploadAvatar(svg, "image/png") } throws: { error in
            guard case .invalidArgument = error as? DomainError else { return false }
            return true
        }
        await #expect(throws: DomainError.self) {
            _ = try await alice.uploadAvatar(Data(count: UserClient.maximumAvatarBytes + 1), "image/png")
        }
        #expect(try await alice.profile().avatarURL == withAvatar.avatarURL)

        let second = TestImages.png(width: 8, height: 8, shade: 3)
        _ = try await alice.uploadAvatar(second, "image/png")
        #expect(try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path).data == second)

        let removed = try await alice.removeAvatar()
        #expect(removed.avatarURL == nil)
        await #expect(throws: StorageFailure.objectNotFound(path)) {
            _ = try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path)
        }
    }

    @Test("a new QR code replaces the old one, which links nobody any more", arguments: AdapterBackend.withFirebase)
    func resetQRCode(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        let old = try await alice.user.profile().qrCodeID
        let new = try await alice.user.resetQRCode()
        #expect(new != old)
        #expect(try await alice.user.profile().qrCodeID == new)
        await #expect(throws: DomainError.self) { _ = try await bob.contacts.lookUpQRCode(old) }
        #expect(try await bob.contacts.lookUpQRCode(new).userID == UserID(harness.aliceID))
    }

    @Test("check-in settings and history: saved, refused when the reminder outlasts the interval, mine only", arguments: AdapterBackend.withFirebase)
    func checkInSettingsAndHistory(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.checkIns
        let bob = harness.bobClients.checkIns
        #expect(try await alice.settings() == CheckInSettings())

        let twoHours = try CheckInInterval.hours(2)
        let saved = try await alice.updateSettings(twoHours, .thirtyMinutes)
        #expect(saved == CheckInSettings(interval: twoHours, reminderLead: .thirtyMinutes))
        #expect(try await alice.status().interval == twoHours)
        await #expect(throws: DomainError.self) { _ = try await alice.updateSettings(nil, .twoHours) }
        #expect(try await alice.settings() == saved, "a refused change must leave the settings as they were")

        #expect(try await alice.history(10).isEmpty)
        let first = try await alice.checkIn()
        harness.test.clock.advance(by: 600)
        let second = try await alice.checkIn()
        _ = try await bob.checkIn()
        let history = try await alice.history(10)
        #expect(history.map(\.checkedInAt) == [second.checkedInAt, first.checkedInAt])
        #expect(history.allSatisfy { $0.source == .manual })
        #expect(try await alice.history(1).count == 1)
        await #expect(throws: DomainError.self) { _ = try await alice.history(0) }
    }

    @Test("deleting an account signs out, tells the session stream, and removes the person from contacts", arguments: AdapterBackend.withFirebase)
    func deleteAccount(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        _ = try await bob.contacts.addByQRCode(try await alice.user.resetQRCode(), .responder)
        #expect(try await alice.contacts.contacts().contacts.map(\.id) == [UserID(harness.bobID)])

        #expect(await bob.auth.currentSession()?.userID == UserID(harness.bobID))
        let sessions = await bob.auth.sessionChanges()
        try await bob.auth.deleteAccount()
        // Bounded: a sign-out that never reaches the stream fails here instead of hanging the run.
        let signedOut = try await firstElement(of: sessions) { $0 == nil }
        #expect(signedOut == .some(nil), "the session stream did not report the sign-out")
        #expect(await bob.auth.currentSession() == nil)
        await #expect(throws: DomainError.unauthenticated) { _ = try await bob.user.profile() }
        #expect(try await alice.contacts.contacts().contacts.isEmpty)
        #expect(try await alice.notifications.notifications().contains { $0.type == .contactRemoved })
    }

    @Test(
        "over HTTP a session that is not fresh is told to sign in again before a phone change, and then may",
        arguments: [AdapterBackend.supabaseSQLite, .supabasePostgres])
    func phoneChangeNeedsRecentSignIn(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let newPhone = try PhoneNumber("+15550002998")
        harness.test.clock.advance(by: 11 * 60)
        await #expect {
            try await alice.auth.requestPhoneChange(newPhone)
        } throws: { error in
            guard case .failedPrecondition(let message) = error as? DomainError else { return false }
            return message.contains("sign in again")
        }
        #expect(await harness.test.sms.lastCode(for: newPhone) == nil, "nothing is sent to the new number")
        let phone = try PhoneNumber(AdapterHarness.alicePhone)
        try await alice.auth.sendCode(phone)
        _ = try await alice.auth.verifyCode(phone, try OneTimeCode("111111"))
        try await alice.auth.requestPhoneChange(newPhone)
        #expect(await harness.test.sms.lastCode(for: newPhone) != nil)
    }

    @Test("a phone change is proven by a code sent to the new number; a taken number is refused", arguments: AdapterBackend.withFirebase)
    func changePhone(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let newPhone = try PhoneNumber("+15550002999")
        try await alice.auth.requestPhoneChange(newPhone)
        let code = try #require(await harness.test.sms.lastCode(for: newPhone), "no code was sent to the new number")
        #expect(try await alice.user.profile().phone == AdapterHarness.alicePhone, "nothing changes before the code comes back")

        let wrong = try OneTimeCode(code.value == "000000" ? "000001" : "000000")
        await #expect(throws: DomainError.invalidOTP) { _ = try await alice.auth.confirmPhoneChange(newPhone, wrong) }
        let session = try await alice.auth.confirmPhoneChange(newPhone, code)
        #expect(session.phone == newPhone && session.userID == UserID(harness.aliceID))
        #expect(try await alice.user.profile().phone == newPhone.e164)
        let stored = try await harness.test.backend.database.query("SELECT phone FROM auth_users WHERE phone = \(newPhone.digits)")
        #expect(stored.count == 1, "the sign-in number moved too")

        // GoTrue refuses a taken number at the request; Identity Toolkit cannot tell a change
        // from a sign-in until the code comes back with the ID token (`PHONE_NUMBER_EXISTS`).
        let bobPhone = try PhoneNumber(AdapterHarness.bobPhone)
        await #expect {
            try await alice.auth.requestPhoneChange(bobPhone)
            let sent = try #require(await harness.test.sms.lastCode(for: bobPhone))
            _ = try await alice.auth.confirmPhoneChange(bobPhone, sent)
        } throws: { error in (error as? DomainError)?.code == "already_exists" }
        #expect(try await alice.user.profile().phone == newPhone.e164)
        #expect(try await harness.bobClients.user.profile().phone == bobPhone.e164)
    }

    /// The first profile on `stream` that passes `where`, or `nil` after 10 s.
    static func first(
        on stream: AsyncThrowingStream<UserProfile, any Error>, where accept: @escaping @Sendable (UserProfile) -> Bool = { _ in true }
    ) async throws -> UserProfile? {
        try await firstElement(of: stream, where: accept)
    }
}
