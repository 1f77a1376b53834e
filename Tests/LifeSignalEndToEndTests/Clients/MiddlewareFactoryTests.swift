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

/// The factory fills ``CloudFunctionClient`` and ``FileStorageClient`` per capability like
/// the others, and a session signed in on one provider reaches them on another.
@Suite("Adapter factory: functions and files")
struct MiddlewareFactoryTests {
    @Test("LIFESIGNAL_PROVIDER_FUNCTIONS and _FILES choose their providers")
    func selection() throws {
        let selection = try ProviderSelection(environment: ["LIFESIGNAL_PROVIDER_FUNCTIONS": "firebase", "LIFESIGNAL_PROVIDER_FILES": "supabase"])
        #expect(selection.provider(for: .functions) == .firebase && selection.provider(for: .files) == .supabase)
        #expect(selection.provider(for: .notifications) == .local)
    }

    @Test("auth on Firebase, functions and files in-process: the installed clients act as the signed-in person; unconfigured is refused")
    func mixed() async throws {
        let phone = "+15550004011"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=314159"))
        defer { Task { try? await test.backend.close() } }
        let factory = AdapterFactory(local: LocalAdapters(backend: test.backend), firebase: AdapterHarness.firebaseAdapters(test.backend))
        #expect(throws: DomainError.invalidArgument("files is set to supabase, which is not configured")) {
            try factory.clients(ProviderSelection(default: .local, overrides: [.files: .supabase]))
        }
        let set = try factory.clients(ProviderSelection(default: .firebase, overrides: [.functions: .local, .files: .local, .content: .local]))
        var values = DependencyValues()
        set.install(into: &values)
        try await set.auth.sendCode(try PhoneNumber(phone))
        let session = try await set.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("314159"))

        let path = "\(session.userID)/avatar"
        #expect(try await values.fileStorageClient.upload("avatars", path, TestImages.png(), "image/png") == path)
        #expect(try await values.fileStorageClient.download("avatars", path) == TestImages.png())
        _ = try await values.cloudFunctionClient.call("register-push-token", Data(#"{"token":"mixed-token"}"#.utf8))
        let row = try #require(try await test.backend.database.query("SELECT user_id FROM push_tokens WHERE token = \("mixed-token")").first)
        #expect(try row.uuid("user_id") == session.userID.rawValue)
    }
}
