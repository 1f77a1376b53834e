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

/// Every client's `liveValue` is ``LiveClients/shared``'s: in the live context, with no
/// overrides, `@Dependency` reaches the configured backend.
///
/// The only test that touches ``LiveClients/shared``, and the only caller of
/// ``LiveClients/bootstrap(_:)``: it points the shared clients at a temporary SQLite file,
/// so neither the process environment nor ~/.lifesignal is read, and no parallel test sees
/// a change.
@Suite("Live values")
struct LiveValueTests {
    @Test("in the live context every client is the shared live clients' and acts for the person signed in there")
    func liveValues() async throws {
        let phone = "+15550007010"
        let directory = try LiveClientsTests.temporaryDirectory()
        let configuration = LiveConfiguration(
            local: LocalSettings(
                dataDirectory: directory, jwtSecret: "live-value-secret-with-at-least-32-characters",
                testOTPs: try TestOTPs(parsing: "\(phone)=701000")))
        LiveClients.register(LocalAdapters.embeddedBackend())
        try LiveClients.bootstrap(configuration)

        let session = try await withDependencies {
            $0.context = .live
        } operation: {
            @Dependency(\.authClient) var auth
            @Dependency(\.checkInClient) var checkIn
            @Dependency(\.userClient) var user
            @Dependency(\.contactsClient) var contacts
            @Dependency(\.alertClient) var alerts
            @Dependency(\.pingClient) var pings
            @Dependency(\.notificationClient) var notifications
            @Dependency(\.contentClient) var content
            @Dependency(\.documentsClient) var documents
            @Dependency(\.cloudFunctionClient) var functions
            @Dependency(\.fileStorageClient) var files
            @Dependency(\.messagingClient) var messaging

            try await auth.sendCode(try PhoneNumber(phone))
            let session = try await auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("701000"))
            let result = try await checkIn.checkIn()
            let lastCheckIn = try await user.profile().lastCheckIn ?? .distantPast
            #expect(abs(lastCheckIn.timeIntervalSince(result.checkedInAt)) < 0.001)
            #expect(try await contacts.contacts().contacts.isEmpty)
            #expect(try await alerts.activeAlert(nil) == nil)
            #expect(try await pings.pending().isEmpty)
            _ = try await notifications.notifications()
            #expect(try await content.locations(ContentFilter()).isEmpty)
            let note = try DocumentPath("users/\(session.userID)/notes/first")
            try await documents.setDocument(note, ["text": .string("hello")], false)
            #expect(try await documents.getDocument(note).exists)
            _ = try await functions.call("get-contacts", Data("{}".utf8))
            let avatar = "\(session.userID)/avatar"
            #expect(try await files.upload("avatars", avatar, TestImages.png(), "image/png") == avatar)
            #expect(try await messaging.token().hasPrefix("ls1."))
            return session
        }

        // The same set as the shared live clients': the session signed in above is theirs.
        #expect(try await LiveClients.shared.clients().auth.currentSession() == session)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lifesignal.sqlite").path))

        // Clients handed out already use the open set, so it cannot be swapped under them.
        #expect(throws: DomainError.failedPrecondition("The live clients are already open; close them before bootstrapping")) {
            try LiveClients.bootstrap(configuration)
        }
        await LiveClients.shared.close()
        try LiveClients.bootstrap(configuration)
    }
}
