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

/// The factory fills ``DocumentsClient`` as the `documents` capability, like the others.
@Suite("Adapter factory: documents")
struct DocumentFactoryTests {
    @Test("LIFESIGNAL_PROVIDER_DOCUMENTS chooses its provider")
    func selection() throws {
        let selection = try ProviderSelection(environment: ["LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_PROVIDER_DOCUMENTS": "firebase"])
        #expect(selection.provider(for: .documents) == .firebase && selection.provider(for: .files) == .supabase)
        #expect(Capability(rawValue: "documents") == .documents)
    }

    @Test("auth on Firebase, documents in-process (and the reverse): the installed client acts as the signed-in person")
    func mixed() async throws {
        let phone = "+15550004021"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=271828"))
        defer { Task { try? await test.backend.close() } }
        let factory = AdapterFactory(local: LocalAdapters(backend: test.backend), firebase: AdapterHarness.firebaseAdapters(test.backend))
        #expect(throws: DomainError.invalidArgument("documents is set to supabase, which is not configured")) {
            try factory.clients(ProviderSelection(default: .local, overrides: [.documents: .supabase]))
        }
        let set = try factory.clients(ProviderSelection(default: .firebase, overrides: [.documents: .local, .content: .local]))
        var values = DependencyValues()
        set.install(into: &values)
        try await set.auth.sendCode(try PhoneNumber(phone))
        let session = try await set.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))
        let path = try DocumentPath("users/\(session.userID)/notes/mixed")
        try await values.documentsClient.setDocument(path, ["via": "local"], false)
        #expect(try await test.backend.documents.get(caller: .service, path: path).data == ["via": "local"])

        let reverse = try factory.clients(ProviderSelection(default: .local, overrides: [.documents: .firebase, .content: .local]))
        try await reverse.auth.sendCode(try PhoneNumber(phone))
        _ = try await reverse.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))
        #expect(try await reverse.documents.getDocument(path).data == ["via": "local"])
        try await reverse.documents.updateDocument(path, ["via": "firebase"])
        #expect(try await test.backend.documents.get(caller: .service, path: path).data == ["via": "firebase"])
    }
}
