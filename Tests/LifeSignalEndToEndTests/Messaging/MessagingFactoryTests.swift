import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalTestSupport
import Testing

/// The factory fills ``MessagingClient`` per capability like the others, and a session signed
/// in on one provider reaches it on another.
@Suite("Adapter factory: messaging")
struct MessagingFactoryTests {
    @Test("LIFESIGNAL_PROVIDER_MESSAGING chooses its provider")
    func selection() throws {
        let selection = try ProviderSelection(environment: ["LIFESIGNAL_PROVIDER_MESSAGING": "firebase"])
        #expect(selection.provider(for: .messaging) == .firebase && selection.provider(for: .notifications) == .local)
        #expect(Capability(rawValue: "messaging") == .messaging)
    }

    @Test("auth on Firebase, messaging in-process: the installed client registers its token for the signed-in person")
    func mixed() async throws {
        let phone = "+15550004012"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=271828"))
        defer { Task { try? await test.backend.close() } }
        let factory = AdapterFactory(local: LocalAdapters(backend: test.backend), firebase: AdapterHarness.firebaseAdapters(test.backend))
        #expect(throws: DomainError.invalidArgument("messaging is set to supabase, which is not configured")) {
            try factory.clients(ProviderSelection(default: .local, overrides: [.messaging: .supabase]))
        }
        let set = try factory.clients(ProviderSelection(default: .firebase, overrides: [.messaging: .local]))
        var values = DependencyValues()
        set.install(into: &values)
        try await set.auth.sendCode(try PhoneNumber(phone))
        let session = try await set.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))

        let token = try await values.messagingClient.token()
        let row = try #require(try await test.backend.database.query("SELECT user_id FROM push_tokens WHERE token = \(token)").first)
        #expect(try row.uuid("user_id") == session.userID.rawValue)
        let messages = values.messagingClient.messageStream()
        _ = try await set.notifications.sendPush(session.userID, "Note to self", "Through Firebase, heard in-process")
        #expect(try await firstElement(of: messages)?.title == "Note to self")
    }
}
